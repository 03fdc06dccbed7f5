"""Games are kept: `play -o FILE` writes the game's record as it goes, `play --resume FILE` continues
it exactly as if it had never stopped, `q` asks first, and hot-seat play clears the terminal for
real between two seats."""
from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from rich.console import Console

from helpers import RULESET, game
from interpreter.compiler.game import load_game
from interpreter.runtime import rng
from interpreter.seats import make_bot
from interpreter.tools.cli import main
from interpreter.tools.play import Session, keeping
from interpreter.tools.play.keeping import Keeper
from interpreter.tools.records import continue_game, make_record

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MEMO = RULESET.replace("r_eco.yaml", "sorting_memo.yaml")
CLEAR = "\x1b[H\x1b[2J\x1b[3J"


def session(script, path=None, g=None, players: int = 2, seed: int = 1, bots=None, start=None,
            terminal: bool = False, width: int = 200):
    """A Session whose input is script(session, prompt) -> line, kept in path (when given)."""
    out = io.StringIO()
    console = Console(file=out, width=width, highlight=False, color_system=None, force_terminal=terminal)
    holder = {}
    s = Session(g or game(), players, seed, {1: "greedy"} if bots is None else bots,
                ask=lambda prompt: script(holder["s"], prompt), console=console,
                keeper=Keeper(str(path)) if path else None, start=start)
    holder["s"] = s
    s.out = out
    return s


def chooser(stop=None):
    """A scripted human: a move that varies with the game (typed as its text), c, Enter; the input
    ends at the first decision after `stop` moves."""
    def script(s, prompt):
        if "confirm" in prompt:
            return "c"
        if "press Enter" in prompt:
            return ""
        if stop is not None and s.st.moves >= stop:
            raise EOFError
        legal = s.program.legal_moves(s.st)
        return s.program.move_text(s.st, legal[(7 * s.st.moves + s.st.turn) % len(legal)])
    return script


def flat(text: str) -> str:
    """Output with its line breaks (where the console wrapped it) as spaces."""
    return " ".join(text.split())


def lines(items):
    it = iter(items)
    return lambda s, prompt: next(it)


def read(path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def resumed(path, script, g=None, **kw):
    """The game kept in path, continued by a new Session (as `play --resume` does)."""
    record = read(path)
    _, st, bots = continue_game(g or game(), record)
    seat_bots = {k: name for k, name in enumerate(record["bots"]) if name != "human"}
    return session(script, path, g=g, players=record["players"], seed=record["seed"], bots=seat_bots,
                   start=(st, bots), **kw)


# ---- play -o writes a record replay reads, as the game goes ----
def test_a_kept_game_of_bots_is_the_record_that_record_writes(tmp_path):
    path = tmp_path / "game.json"
    assert session(chooser(), path, seed=5, bots={0: "random", 1: "greedy"}).run() is True
    bots = [make_bot("random", rng.derive(5, 0)), make_bot("greedy", rng.derive(5, 1))]
    assert read(path) == make_record(game(), 2, 5, bots, ["random", "greedy"])


def test_the_record_is_rewritten_after_every_move(tmp_path, monkeypatch):
    written = []
    real = keeping.write_atomically
    monkeypatch.setattr(keeping, "write_atomically", lambda p, text: (written.append(json.loads(text)),
                                                                     real(p, text)))
    path = tmp_path / "game.json"
    assert session(chooser(), path, seed=2).run() is True
    final = read(path)
    assert [len(r["moves"]) for r in written] == list(range(len(final["moves"]) + 1))
    for r in written[:-1]:
        assert r["result"] is None and r["moves"] == final["moves"][:len(r["moves"])]
    assert written[-1] == final and final["result"]["scores"]


def test_a_record_is_written_through_a_temporary_file_in_the_same_folder(tmp_path, monkeypatch):
    replaced = []
    real = os.replace
    monkeypatch.setattr(keeping.os, "replace", lambda src, dst: (replaced.append((src, dst)), real(src, dst)))
    path = tmp_path / "game.json"
    session(lines(["q", "y"]), path).run()
    assert replaced and all(os.path.dirname(src) == str(tmp_path) and dst == str(path) for src, dst in replaced)
    assert os.listdir(tmp_path) == ["game.json"]                      # no temporary file left behind


def test_a_crash_loses_nothing(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    s = session(chooser(), path, seed=3)
    greedy = s.bots[1].bot
    calls = []

    def crash(seat):
        calls.append(1)
        if len(calls) == 4:
            raise RuntimeError("the power went out")
        return type(greedy).choose(greedy, seat)

    monkeypatch.setattr(greedy, "choose", crash)
    with pytest.raises(RuntimeError):
        s.run()
    kept = read(path)
    assert kept["result"] is None and len(kept["moves"]) == s.st.moves > 0


def test_an_unfinished_record_says_so_and_replay_says_how_to_continue_it(tmp_path, capsys):
    path = tmp_path / "game.json"
    session(chooser(stop=9), path, seed=4).run()
    record = read(path)
    assert record["result"] is None and len(record["moves"]) >= 9
    assert main(["replay", str(path)]) == 0
    out = flat(capsys.readouterr().out)
    assert f"the game is not over: {len(record['moves'])} moves replayed; continue it with cardrules play " \
           f"--resume {path}" in out


def test_an_unfinished_record_whose_moves_end_the_game_does_not_replay(tmp_path, capsys):
    path = tmp_path / "game.json"
    session(chooser(), path, seed=4).run()
    record = read(path)
    record["result"] = None
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    assert "the record says the game is not over (its result is null), but it is over" in capsys.readouterr().err


def test_human_seats_are_recorded_as_human(tmp_path):
    path = tmp_path / "game.json"
    session(lines(["q", "y"]), path, players=3, bots={1: "random"}).run()
    assert read(path)["bots"] == ["human", "random", "human"]


def test_the_record_holds_every_shuffle_so_far(tmp_path):
    path = tmp_path / "game.json"
    s = session(chooser(stop=60), path, seed=6)
    s.run()
    record = read(path)
    assert len(record["chance"]) == len(s.st.chance) >= 2                  # the deal and a reshuffle
    assert record["chance"][-1]["order"] == [s.program.type_names[t] for t in s.st.chance[-1][1]]


# ---- play --resume goes on as if the game had never stopped ----
@pytest.mark.parametrize("stop", [0, 1, 8, 31])
def test_a_game_stopped_and_resumed_ends_as_the_game_played_in_one_go(tmp_path, stop):
    whole, kept = tmp_path / "whole.json", tmp_path / "kept.json"
    one_go = session(chooser(), whole, seed=7)
    assert one_go.run() is True
    assert session(chooser(stop=stop), kept, seed=7).run() is False
    assert len(read(kept)["moves"]) >= stop and read(kept)["result"] is None
    again = resumed(kept, chooser())
    assert again.run() is True
    assert again.st == one_go.st and read(kept) == read(whole)


def test_a_memory_game_against_the_memory_bot_resumes_exactly(tmp_path):
    g = load_game(MEMO)
    whole, kept = tmp_path / "whole.json", tmp_path / "kept.json"
    one_go = session(chooser(), whole, g=g, seed=2, bots={1: "memory"})
    assert one_go.run() is True
    session(chooser(stop=40), kept, g=g, seed=2, bots={1: "memory"}).run()
    again = resumed(kept, chooser(), g=g)
    assert again.run() is True
    assert read(kept) == read(whole)


def test_a_resumed_game_says_where_it_goes_on(tmp_path):
    path = tmp_path / "game.json"
    session(chooser(stop=5), path, seed=1).run()
    s = resumed(path, lines(["q", "y"]))
    s.run()
    assert f"resumed after {len(read(path)['moves'])} moves, in turn" in s.out.getvalue()


def test_a_resumed_game_first_tells_the_human_the_game_so_far_as_it_saw_it(tmp_path):
    path = tmp_path / "game.json"
    first = session(chooser(stop=5), path, seed=1)
    first.run()
    s = resumed(path, lines(["q", "y"]))
    s.run()
    out = s.out.getvalue()
    recap = out[out.index("seat 0, since you last looked: "):out.index("quit?")]
    told = [line for line in first.out.getvalue().splitlines() if re.match(r"^(you|seat \d \(random\)): ", line)]
    assert len(told) >= 3
    for line in told:                                          # every move told before is told again
        assert line.split(": ", 1)[1] in recap, line


# ---- q asks first ----
def test_q_asks_before_quitting_and_n_goes_on(tmp_path):
    path = tmp_path / "game.json"
    answers, play = iter(["q", "n"]), chooser()

    def script(s, prompt):
        if prompt.startswith("quit?") and s.st.moves >= 2:
            return "y"
        return next(answers, None) or ("q" if s.st.moves >= 2 else play(s, prompt))
    s = session(script, path, seed=1)
    assert s.run() is False
    out = s.out.getvalue()
    assert out.count(f"quit? the game is saved to {path}: y/n") == 2
    assert "not quitting: the game goes on" in out and s.st.moves >= 2 and len(read(path)["moves"]) >= 2
    assert f"continue it with cardrules play --resume {path}" in flat(out)


def test_q_without_a_file_says_the_game_is_not_saved():
    s = session(lines(["q", "y"]))
    assert s.run() is False
    assert "quit? the game is not saved (play -o FILE keeps a game): y/n" in s.out.getvalue()


def test_q_at_a_confirmation_asks_too():
    def script(s, prompt):
        if "confirm" in prompt:
            return "q" if "quit?" not in s.out.getvalue() else "y"
        return "y" if prompt.startswith("quit?") else "1"
    s = session(script, seed=3)
    assert s.run() is False
    assert "quit? the game is not saved" in s.out.getvalue()


def test_the_end_of_the_input_quits_without_asking(tmp_path):
    path = tmp_path / "game.json"
    s = session(lines(["1"]), path)
    assert s.run() is False
    out = s.out.getvalue()
    assert "quit?" not in out and "game abandoned" in out and read(path)["result"] is None


# ---- hot seat: a terminal is cleared with its scrollback, a pipe gets a separator ----
def hot_seat(terminal: bool):
    passes = []

    def script(s, prompt):
        if "press Enter" in prompt:
            passes.append(len(s.out.getvalue()))
            if len(passes) > 3:
                raise EOFError
        return chooser()(s, prompt)
    s = session(script, bots={}, seed=2, terminal=terminal)
    s.run()
    return s.out.getvalue(), passes


def test_hot_seat_on_a_terminal_clears_the_screen_and_the_scrollback():
    out, passes = hot_seat(terminal=True)
    assert len(passes) == 4 and out.count(CLEAR) == 3
    assert out.index("pass to seat") < out.index(CLEAR)  # the first seat's pass: nothing shown yet to hide
    for at in passes[1:]:                               # each later pass screen comes right after a clear
        before = out[:at]
        assert "pass to seat" not in before[before.rindex(CLEAR) - 200:before.rindex(CLEAR)]
        assert "pass to seat" in before[before.rindex(CLEAR):]
    assert "\n" * 10 not in out                         # no longer blank lines instead


def test_hot_seat_through_a_pipe_prints_a_separator_and_no_escape_codes():
    out, passes = hot_seat(terminal=False)
    assert len(passes) == 4 and "\x1b" not in out
    assert out.count("— pass to seat ") == 4 and "\n" * 10 not in out


# ---- the command line ----
def run(*args, stdin: str = "", cwd: str = ROOT):
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "cli.py"), *args], input=stdin,
                          capture_output=True, text=True, cwd=cwd, timeout=300)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout, proc.stderr


def test_play_o_then_replay_then_resume_then_replay_through_the_command_line(tmp_path):
    path = str(tmp_path / "game.json")
    code, out, err = run("play", "rulesets/r_eco.yaml", "-n", "2", "--seed", "3", "--seat", "1=random",
                         "-o", path, stdin="1\nc\n" * 3)
    assert code == 0, err
    assert f"the game is saved to {path}" in flat(out)
    code, out, err = run("replay", path)
    assert code == 0 and "the game is not over" in out and f"play --resume {path}" in flat(out)
    code, out, err = run("play", "--resume", path, stdin="1\nc\n" * 500)
    assert code == 0, err
    assert "resumed after" in out and "final scores" in out
    record = json.loads(open(path, encoding="utf-8").read())
    assert record["result"] is not None and record["bots"] == ["human", "random"]
    code, out, err = run("replay", path)
    assert code == 0 and out.startswith(f"replay ok: {len(record['moves'])} moves"), err


def test_resume_writes_to_o_when_given_and_leaves_the_record_as_it_was(tmp_path):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    session(chooser(stop=4), first, seed=1).run()
    before = first.read_text(encoding="utf-8")
    code, out, err = run("play", "--resume", str(first), "-o", str(second), stdin="1\nc\n" * 2)
    assert code == 0, err
    assert first.read_text(encoding="utf-8") == before
    assert len(read(second)["moves"]) > len(json.loads(before)["moves"])


def test_play_o_does_not_overwrite_a_file(tmp_path):
    path = tmp_path / "game.json"
    path.write_text("mine", encoding="utf-8")
    code, out, err = run("play", RULESET, "-n", "2", "-o", str(path))
    assert code == 2 and f"{path} exists: continue the game in it with --resume" in flat(err)
    assert path.read_text(encoding="utf-8") == "mine"


def test_play_o_into_a_folder_that_does_not_exist_is_a_usage_error(tmp_path):
    code, out, err = run("play", RULESET, "-n", "2", "-o", str(tmp_path / "no" / "game.json"), stdin="q\ny\n")
    assert code == 2 and "cannot write the game's record" in flat(err)


def test_play_needs_a_ruleset_and_players_unless_it_resumes():
    code, out, err = run("play", RULESET)
    assert code == 2 and "play needs a RULESET and --players N (or --resume RECORD" in flat(err)


@pytest.fixture
def kept(tmp_path):
    """A game of two seats (seat 1 greedy) kept after some moves."""
    path = tmp_path / "game.json"
    session(chooser(stop=6), path, seed=1).run()
    return path


@pytest.mark.parametrize("option", [["--players", "2"], ["--seed", "3"], ["--seat", "1=random"],
                                    ["--set", "hand_limit=4"]])
def test_resume_takes_players_seed_seats_and_parameters_from_the_record(kept, option):
    code, out, err = run("play", "--resume", str(kept), *option)
    assert code == 2 and f"{option[0]}: --resume goes on with the game of {kept}" in flat(err)


def test_resume_of_an_unreadable_file_is_exit_2(tmp_path):
    assert run("play", "--resume", str(tmp_path / "nope.json"))[0] == 2
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    code, out, err = run("play", "--resume", str(tmp_path / "bad.json"))
    assert code == 2 and "the record is not JSON" in flat(err)
    (tmp_path / "other.json").write_text('{"format": "something else"}', encoding="utf-8")
    code, out, err = run("play", "--resume", str(tmp_path / "other.json"))
    assert code == 2 and "not a cardrules record" in flat(err)


def change(path, how) -> None:
    record = read(path)
    how(record)
    path.write_text(json.dumps(record), encoding="utf-8")


@pytest.mark.parametrize("how, words", [
    (lambda r: r["moves"][2].update(move="deliver: 9*cans:1"), "move 3 'deliver: 9*cans:1' differs"),
    (lambda r: r.update(seed=r["seed"] + 1), "comes out otherwise with the record's seed"),
    (lambda r: r["chance"].pop(), "where the record has no more shuffles"),
    (lambda r: r["chance"].append(r["chance"][0]), "field 'chance' holds"),
    (lambda r: r.update(bots=["human", "clever"]), "field 'bots[1]': 'clever' is neither a bot"),
    (lambda r: r.update(bots=["human"]), "field 'bots' must name who plays each of the 2 seats"),
    (lambda r: r["moves"][1].update(seat=1 - r["moves"][1]["seat"]), "decision, not seat"),
    (lambda r: r.pop("seed"), "the record has no field 'seed'"),
])
def test_a_record_that_does_not_replay_is_refused_with_exit_1(kept, how, words):
    change(kept, how)
    code, out, err = run("play", "--resume", str(kept))
    assert code == 1 and words in flat(err), err


def test_a_bot_that_would_play_otherwise_is_refused_with_exit_1(kept):
    record = read(kept)
    k = next(i for i, m in enumerate(record["moves"]) if m["seat"] == 1)
    program = game().program(2)
    st = program.new_state(1)
    for m in record["moves"][:k]:
        program.play(st, program.parse_move(st, m["move"]))
    other = next(program.move_text(st, m) for m in program.legal_moves(st)
                 if program.move_text(st, m) != record["moves"][k]["move"])
    change(kept, lambda r: r["moves"][k].update(move=other))
    code, out, err = run("play", "--resume", str(kept))
    assert code == 1 and "seat 1's bot (greedy) plays" in flat(err) and "not played with these bots" in flat(err)


def test_resume_with_another_ruleset_is_refused_unless_any_ruleset(kept, tmp_path):
    other = tmp_path / "other.yaml"
    other.write_text(open(RULESET, encoding="utf-8").read() + "\n# changed\n", encoding="utf-8")
    code, out, err = run("play", "--resume", str(kept), str(other))
    assert code == 1 and "is not the ruleset the record was made with" in err and "--any-ruleset to resume" in err
    code, out, err = run("play", "--resume", str(kept), str(other), "--any-ruleset", stdin="q\ny\n")
    assert code == 0 and "resuming anyway" in flat(err) and "resumed after" in out


def test_resume_of_a_finished_game_says_there_is_nothing_to_continue(tmp_path):
    path = tmp_path / "game.json"
    code, _, err = run("record", RULESET, "-n", "2", "--seed", "1", "-o", str(path))
    assert code == 0, err
    code, out, err = run("play", "--resume", str(path), RULESET)
    assert code == 2 and "the game is over" in flat(err) and "nothing to continue" in flat(err)


# ---- fuzzing: any JSON value in any field of a kept record ----
JSON_VALUES = hs.recursive(hs.none() | hs.booleans() | hs.integers() | hs.floats() | hs.text(max_size=20),
                           lambda inner: hs.lists(inner, max_size=4) | hs.dictionaries(hs.text(max_size=5), inner,
                                                                                       max_size=4),
                           max_leaves=12)
FIELDS = ["players", "seed", "overrides", "bots", "chance", "moves", "result", "sha256", "ruleset"]


@pytest.fixture(scope="module")
def kept_once(tmp_path_factory):
    path = tmp_path_factory.mktemp("kept") / "game.json"
    session(chooser(stop=6), path, seed=1).run()
    return read(path)


@settings(max_examples=60, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=hs.integers(0, len(FIELDS) + 1), value=JSON_VALUES)
def test_any_value_in_any_field_is_refused_or_resumed_never_an_internal_error(kept_once, tmp_path, capsys,
                                                                            monkeypatch, where, value):
    record = json.loads(json.dumps(kept_once))
    places = [(record, k) for k in FIELDS] + [(record["moves"][0], k) for k in ("seat", "move")]
    container, key = places[where]
    container[key] = value
    path = tmp_path / "fuzzed.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    monkeypatch.chdir(ROOT)
    code = main(["play", "--resume", str(path)])
    err = capsys.readouterr().err
    assert code in (0, 1, 2) and "internal error" not in err and "Traceback" not in err, err
