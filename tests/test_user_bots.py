"""Users' bots (docs/bots.md): a class from a file (`--bots path/to/mybot.py:Cautious`), from a
module (`package.module:Class`) or from an installed package's entry point (group cardrules.bots).

- The example bot of the manual, docs/examples/cautious_bot.py, plays whole games of every shipped
  ruleset through the command line; its spec with options is what records store.
- A bad file, a missing class, a class that is not a bot, a bad option: a usage error (exit 2).
- A bot that raises, or answers a move that is not legal: exit 1, naming the bot and the
  exception's one line, never a traceback.
- A record is untrusted input: `replay` never loads a bot, and `play --resume` loads a bot from a
  file or a module only with --trust-bots.
- A Seat holds nothing of the real game: no state, no log.
"""
import json
import os
import textwrap

import pytest

from interpreter.errors import BotError, RecordError
from interpreter.runtime.engine import State
from interpreter.seats import Bot, make_bot
from interpreter.seats.player import Player
from interpreter.tools import records
from helpers import game
from test_bot_options import kept_record
from test_cli import ROOT, call, run

EXAMPLE = "docs/examples/cautious_bot.py:Cautious"
RULESETS = ["r_eco", "lixo", "lixo_two_colour", "sorting_memo"]
BOTS = """\
from interpreter.seats import Bot, Option


class Boom(Bot):
    def choose(self, seat):
        raise ValueError("boom\\nsecond line")


class Nonsense(Bot):
    def choose(self, seat):
        return "nonsense"


class NotABot:
    pass


class NoChoose(Bot):
    pass


class Deep(Bot):
    depth = 2
    options = (Option("depth", int, "how deep", 1, 9),)

    def choose(self, seat):
        return seat.moves[self.rng.randrange(len(seat.moves))]
"""


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A folder of bot files, the current directory."""
    (tmp_path / "mine.py").write_text(BOTS, encoding="utf-8")
    (tmp_path / "syntax.py").write_text("def f(:\n", encoding="utf-8")
    (tmp_path / "raising.py").write_text("raise ValueError('not today')\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("name", RULESETS)
def test_the_example_bot_of_the_manual_plays_whole_games_of_every_shipped_ruleset(name):
    code, out, err = run("simulate", f"rulesets/{name}.yaml", "--players", "2", "--games", "2", "--jobs", "1",
                         "--bots", f"{EXAMPLE},greedy", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["bots"] == [EXAMPLE, "greedy"] and doc["games"] == 2


def test_a_record_stores_a_file_bot_by_its_path_class_and_options(tmp_path, capsys):
    out = tmp_path / "game.json"
    code, _, err = call(capsys, "record", os.path.join(ROOT, "rulesets", "r_eco.yaml"), "--players", "2",
                        "--bots", f"{os.path.join(ROOT, 'docs/examples/cautious_bot.py')}:Cautious:samples=02,"
                        "random", "-o", str(out))
    assert code == 0, err
    assert json.loads(out.read_text())["bots"][0].endswith("cautious_bot.py:Cautious:samples=2")


def test_the_same_seed_gives_a_users_bot_the_same_game(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    games = [call(capsys, "record", "rulesets/lixo.yaml", "--players", "2", "--seed", "3", "--bots",
                  f"{EXAMPLE},random")[1] for _ in range(2)]
    assert games[0] == games[1] and json.loads(games[0])["moves"]


def test_a_users_bot_with_options_gets_them_and_others_keep_the_default(here):
    assert make_bot("mine.py:Deep:depth=5").depth == 5 and make_bot("mine.py:Deep").depth == 2


@pytest.mark.parametrize("spec, words", [
    ("mine.py", "bot mine.py: name its class after a colon, e.g. mine.py:MyBot"),
    ("missing.py:X", "bot missing.py:X: cannot read missing.py"),
    ("syntax.py:X", "syntax.py:1:7: invalid syntax (loading bot syntax.py:X)"),
    ("raising.py:X", "bot raising.py:X: running raising.py raised ValueError: not today"),
    ("mine.py:Boon", "mine.py has no class 'Boon'; did you mean 'Boom'?"),
    ("mine.py:NotABot", "'NotABot' is not a bot: a bot is a class derived from interpreter.seats.Bot"),
    ("mine.py:NoChoose", "NoChoose does not define choose(self, seat)"),
    ("mine.py:Deep:dept=3", "bot mine.py:Deep has no option 'dept'; did you mean 'depth'?"),
    ("mine.py:Deep:depth=10", "option depth=10 is not a whole number from 1 to 9"),
    ("no_such_package.module:X", "no module named 'no_such_package'"),
    ("os.path:join", "'join' is not a bot"),
])
def test_a_bot_that_cannot_be_loaded_is_a_usage_error(here, capsys, spec, words):
    code, _, err = call(capsys, "simulate", os.path.join(ROOT, "rulesets", "r_eco.yaml"), "--players", "2",
                        "--games", "1", "--jobs", "1", "--bots", f"{spec},random")
    assert code == 2 and words in err and "Traceback" not in err, err


@pytest.mark.parametrize("spec, words", [
    ("mine.py:Boom", "bot mine.py:Boom (seat 0, turn 1) failed: ValueError: boom\n"),
    ("mine.py:Nonsense", "bot mine.py:Nonsense (seat 0, turn 1) answered 'nonsense', which is not one of"),
])
def test_a_users_bot_that_fails_is_named_with_its_one_line_and_exit_1(here, spec, words):
    code, _, err = run("simulate", os.path.join(ROOT, "rulesets", "r_eco.yaml"), "--players", "2", "--games", "2",
                       "--jobs", "2", "--bots", f"{spec},random", cwd=str(here))
    assert code == 1 and words in err and "second line" not in err, err
    assert "in game 0 of this run" in err and f"--bots {spec},random" in err


def test_a_module_bot_is_imported_by_its_dotted_name(tmp_path, monkeypatch):
    (tmp_path / "mybots").mkdir()
    (tmp_path / "mybots" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "mybots" / "careful.py").write_text(BOTS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    bot = make_bot("mybots.careful:Deep:depth=3", 4)
    prog = game().program(2)
    st = prog.new_state(1, log=True)
    assert bot.choose(prog, st, prog.legal_moves(st)) in prog.legal_moves(st) and bot.depth == 3
    assert bot.spec == "mybots.careful:Deep:depth=3"


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """An installed package `cardrules-extra` whose entry point `deep` (group cardrules.bots) is its bot."""
    (tmp_path / "extra_bots.py").write_text(BOTS, encoding="utf-8")
    info = tmp_path / "cardrules_extra-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: cardrules-extra\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[cardrules.bots]\ndeep = extra_bots:Deep\nbroken = extra_bots:Gone\n",
                                           encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_an_installed_packages_bot_is_named_by_its_entry_point(installed, capsys):
    code, out, err = call(capsys, "simulate", os.path.join(ROOT, "rulesets", "r_eco.yaml"), "--players", "2",
                          "--games", "2", "--jobs", "1", "--bots", "deep:depth=4,random", "--json")
    assert code == 0, err
    assert json.loads(out)["bots"] == ["deep:depth=4", "random"]


def test_cardrules_bots_lists_the_installed_packages_bots_too(installed, capsys):
    code, out, _ = call(capsys, "bots")
    assert code == 0
    assert "\ndeep: (no description)\n    depth=2  (int 1..9): how deep\n" in out
    assert "broken: cannot be loaded: bot broken (entry point extra_bots:Gone of cardrules.bots)" in out


MARKED = """\
import pathlib
pathlib.Path("{marker}").write_text("ran")
from interpreter.seats import Bot


class Marked(Bot):
    uses_view = looks_ahead = False

    def choose(self, seat):             # as the random bot draws
        return seat.moves[self.rng.randrange(len(seat.moves))]
"""


@pytest.fixture
def kept_with_a_file_bot(tmp_path, monkeypatch):
    """An unfinished record whose seat 0 is played by a bot from a file that leaves a mark when run."""
    monkeypatch.chdir(ROOT)
    marker = tmp_path / "ran.txt"
    (tmp_path / "marked.py").write_text(MARKED.format(marker=marker.as_posix()), encoding="utf-8")
    record = kept_record(["random", "random"], 4, 6)     # Marked plays as random does
    record["bots"][0] = f"{tmp_path.as_posix()}/marked.py:Marked"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path, marker


def test_resuming_a_record_that_names_a_file_bot_runs_none_of_its_code(kept_with_a_file_bot, capsys):
    path, marker = kept_with_a_file_bot
    code, _, err = call(capsys, "play", "--resume", str(path))
    assert code == 1 and "a bot from a file or a module: going on would run its code" in err
    assert "--trust-bots" in err and not marker.exists()


def test_resuming_with_trust_bots_loads_the_records_file_bot(kept_with_a_file_bot, capsys):
    path, marker = kept_with_a_file_bot
    code, _, err = call(capsys, "play", "--resume", str(path), "--trust-bots")
    assert code == 0, err
    assert marker.exists() and json.loads(path.read_text())["result"] is not None


def test_replaying_a_record_that_names_a_file_bot_runs_none_of_its_code(kept_with_a_file_bot, capsys):
    path, marker = kept_with_a_file_bot
    code, out, err = call(capsys, "replay", str(path))
    assert code == 0 and "the game is not over" in out and not marker.exists(), err


def test_a_record_alone_never_loads_a_module_bot(tmp_path):
    record = kept_record(["random", "random"], 4, 6)
    record["bots"][1] = "os.path:join"
    with pytest.raises(RecordError, match="--trust-bots"):
        records.continue_game(game(), record)


def test_trust_bots_goes_with_resume_only(capsys):
    code, _, err = call(capsys, "play", os.path.join(ROOT, "rulesets", "r_eco.yaml"), "--players", "2",
                        "--trust-bots")
    assert code == 2 and "--trust-bots goes with --resume" in err


def test_a_seat_holds_nothing_of_the_real_game():
    """Every public attribute of the Seat a bot is given, and what lists and tuples of them hold,
    is no State, no part of one, and not the game's event log."""
    prog = game().program(3)
    st = prog.new_state(2, log=True)
    for _ in range(12):
        prog.apply(st, prog.legal_moves(st)[0])
    real = {id(st), id(st.log), id(st.zones), id(st.loc), id(st.stack), id(st.vars)} | {id(z) for z in st.zones}
    seen = []

    class Looking(Bot):
        def choose(self, seat):
            seen.append(seat)
            return seat.moves[0]
    Player(Looking(1), "looking", builtin=False).choose(prog, st, prog.legal_moves(st))
    seat = seen[0]
    values = [getattr(seat, name) for name in dir(seat) if not name.startswith("_")
              and not callable(getattr(seat, name))]
    inner = [x for v in values if isinstance(v, (list, tuple)) for x in v]
    assert not any(isinstance(v, State) or id(v) in real for v in values + inner)
    assert seat.events is not st.log and len(seat.events) < len(st.log)     # others' decisions not among them


@pytest.mark.parametrize("ruleset", ["r_eco.yaml", "sorting_memo.yaml", "examples/fireworks.yaml"])
def test_a_bot_that_reads_no_events_is_given_none_and_the_same_view(ruleset):
    """reads_events = False: the Seat has no events, and its view, made from the game's events
    (of which the seat's memory reads only what the seat saw), is the view made from the events as
    the seat saw them, at every decision of a game."""
    from interpreter.compiler.game import load_game
    prog = load_game(os.path.join(ROOT, "rulesets", ruleset)).program(3)
    st = prog.new_state(4, log=True)

    class Reading(Bot):
        def choose(self, seat):
            return seat.moves[0]

    class NotReading(Reading):
        reads_events = False
    reading, not_reading = Player(Reading(1), "r", builtin=False), Player(NotReading(1), "n", builtin=False)
    decisions = 0
    while not st.over and decisions < 60:
        moves = prog.legal_moves(st)
        a, b = reading.seat_for(prog, st, moves), not_reading.seat_for(prog, st, moves)
        assert b.events is None and a.events is not None
        assert a.view == b.view
        prog.apply(st, moves[decisions % len(moves)])
        decisions += 1
    assert decisions >= 20


def test_a_bot_not_of_ours_that_raises_is_a_bot_error_naming_it():
    prog = game().program(2)
    st = prog.new_state(1)

    class Raising(Bot):
        looks_ahead = uses_view = False

        def choose(self, seat):
            raise KeyError("where")
    with pytest.raises(BotError, match=r"bot mine \(seat 0, turn 1\) failed: KeyError: 'where'"):
        Player(Raising(1), "mine", builtin=False).choose(prog, st, prog.legal_moves(st))


def test_the_example_bot_file_is_the_one_the_manual_shows():
    manual = open(os.path.join(ROOT, "docs", "bots.md"), encoding="utf-8").read()
    example = open(os.path.join(ROOT, "docs", "examples", "cautious_bot.py"), encoding="utf-8").read()
    body = example[example.index("from interpreter.seats import"):]
    assert textwrap.dedent(body).strip() in manual


class Spoiler:
    """An answer whose comparison and text raise."""

    def __eq__(self, other):
        raise RuntimeError("no comparing me")

    __hash__ = None

    def __repr__(self):
        raise RuntimeError("no showing me")


@pytest.mark.parametrize("answer, words", [
    (lambda seat: seat.moves.append(("made", "up")) or seat.moves[-1], "answered ('made', 'up'), which is not one"),
    (lambda seat: Spoiler(), "failed: RuntimeError: no comparing me"),
])
def test_a_bot_not_of_ours_cannot_slip_in_a_move_that_is_not_legal(answer, words):
    prog = game().program(2)
    st = prog.new_state(1)
    legal = prog.legal_moves(st)

    class Cheating(Bot):
        looks_ahead = uses_view = False

        def choose(self, seat):
            return answer(seat)
    with pytest.raises(BotError) as exc:
        Player(Cheating(1), "cheat", builtin=False).choose(prog, st, legal)
    assert words in str(exc.value) and legal == prog.legal_moves(st)


def test_a_decision_with_one_legal_move_is_not_asked_and_a_bot_without_look_ahead_has_no_worlds():
    prog = game().program(2)
    asked = []

    class Blind(Bot):
        looks_ahead = False

        def choose(self, seat):
            asked.append(len(seat.moves))
            return seat.world()
    player, st = Player(Blind(1), "blind", builtin=False), prog.new_state(1, log=True)
    legal = prog.legal_moves(st)
    assert player.choose(prog, st, legal[:1]) == legal[0] and asked == []     # one legal move: played
    with pytest.raises(BotError, match="RuntimeError: this bot declares looks_ahead = False: its seat has no worlds"):
        player.choose(prog, st, legal)
    assert asked == [len(legal)] and len(legal) > 1


@pytest.mark.parametrize("name, words", [
    ("hand", "no zone 'hand' in this game; it has hand(0), hand(1)"),
    ("hnad(0)", "no zone 'hnad(0)' in this game; did you mean 'hand(0)'?"),
])
def test_a_zone_the_game_does_not_have_is_named_with_what_was_meant(name, words):
    prog = game().program(2)
    st = prog.new_state(1, log=True)

    class Reading(Bot):
        def choose(self, seat):
            return seat.view.cards(name)
    with pytest.raises(BotError, match=r"failed: KeyError: ") as exc:
        Player(Reading(1), "reading", builtin=False).choose(prog, st, prog.legal_moves(st))
    assert words in str(exc.value)
