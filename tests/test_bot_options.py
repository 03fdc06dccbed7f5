"""Bot options in one syntax: `NAME:KEY=VALUE,KEY=VALUE` for every seat (interpreter/seats/specs.py).

- A bot is named with its options after a colon; options not given keep the class's defaults.
- In a list of seats an item `KEY=VALUE` belongs to the bot before it (a bot's name holds no '=').
- A spec's canonical text (declared order, typed values) is what records and results store;
  `replay` and `--resume` rebuild the very bots from it, and a record of plain names still loads.
- Unknown bots, unknown options and bad values are usage errors (exit 2) with "did you mean".
- `cardrules bots` lists every bot with its options, their defaults and a one-line description.
"""
import json
import os

import pytest
from hypothesis import given, settings, strategies as st

from interpreter.errors import RecordError, UsageError
from interpreter.runtime import rng
from interpreter.seats import BOTS, make_bot, parse_bot
from interpreter.seats.bots import AutomaBot
from interpreter.seats.specs import parse_value, split_seats
from interpreter.tools import records
from interpreter.tools.options import bot_list, seat_option
from helpers import game
from test_cli import R_ECO, call, run


def test_a_bot_is_named_with_its_options_after_a_colon():
    bot = make_bot("automa:samples=8,depth=3", 1)
    assert isinstance(bot.bot, AutomaBot) and (bot.samples, bot.depth) == (8, 3)


def test_options_not_given_keep_the_class_defaults():
    bot = make_bot("automa:samples=8", 1)
    assert bot.width == AutomaBot.width and bot.depth == AutomaBot.depth
    assert make_bot("automa", 1).samples == AutomaBot.samples     # the class keeps its default


def test_a_plain_name_still_makes_its_bot():
    for name, cls in BOTS.items():
        assert type(make_bot(name, 3).bot) is cls


def test_a_spec_is_stored_in_its_canonical_form():
    assert parse_bot(" automa : depth=3 , samples = 08 ").text == "automa:samples=8,depth=3"
    assert parse_bot("ismcts:c=1,rollout=greedy").text == "ismcts:rollout=greedy,c=1.0"
    assert parse_bot("greedy").text == "greedy"


def test_in_a_seat_list_key_value_items_belong_to_the_bot_before_them():
    assert split_seats("automa:samples=8,depth=4,greedy,ismcts:iterations=9") == \
        ["automa:samples=8,depth=4", "greedy", "ismcts:iterations=9"]
    assert bot_list("automa:samples=8,depth=4,greedy", 2, None) == ["automa:samples=8,depth=4", "greedy"]
    assert bot_list("automa:samples=2", 3, None) == ["automa:samples=2"] * 3


def test_seat_specs_joined_by_commas_read_back_as_the_same_seats():
    """What `record_command` writes for a failed game's --bots (the specs joined by commas)."""
    names = ["automa:samples=8,depth=4", "greedy", "ismcts:iterations=9,rollout=greedy", "random"]
    assert bot_list(",".join(names), 4, None) == names


def test_a_seat_of_play_takes_a_bot_with_options():
    assert seat_option("1=automa:samples=8,depth=2") == (1, "automa:samples=8,depth=2")


@pytest.mark.parametrize("spec, words", [
    ("atoma", ["unknown bot 'atoma'", "did you mean 'automa'?"]),
    ("automa:sample=3", ["no option 'sample'", "did you mean 'samples'?"]),
    ("ismcts:iteration=5", ["no option 'iteration'", "did you mean 'iterations'?"]),
    ("ismcts:rollout=gredy", ["rollout=gredy is not one of random, greedy", "did you mean 'greedy'?"]),
])
def test_unknown_names_are_usage_errors_with_did_you_mean(spec, words):
    with pytest.raises(UsageError) as exc:
        parse_bot(spec)
    for w in words:
        assert w in str(exc.value)


@pytest.mark.parametrize("spec, words", [
    ("automa:samples=0", "samples=0 is not a whole number from 1 to 1000"),
    ("automa:samples=2.5", "samples=2.5 is not a whole number"),
    ("ismcts:c=-1", "c=-1 is not a number from 0.0 to 100.0"),
    ("ismcts:seconds=nan", "seconds=nan is not a number"),
    ("automa:samples", "'samples' is not KEY=VALUE"),
    ("automa:samples=2,samples=3", "option samples is given twice"),
    ("greedy:depth=2", "bot greedy has no option 'depth'"),
])
def test_a_bad_value_is_a_usage_error_saying_what_the_option_takes(spec, words):
    with pytest.raises(UsageError) as exc:
        parse_bot(spec)
    assert words in str(exc.value)


def test_options_given_before_any_bot_are_a_usage_error():
    with pytest.raises(UsageError, match="options before any bot"):
        bot_list("samples=3,automa", 2, None)


def test_options_are_typed_int_float_or_choice():
    assert parse_value(int, "12") == 12 and parse_value(int, "1e3") is None
    assert parse_value(float, "0.25") == 0.25 and parse_value(float, "inf") is None
    assert parse_value(("random", "greedy"), "greedy") == "greedy" and parse_value(("a",), "b") is None


def test_every_option_is_declared_with_a_default_its_own_range_accepts():
    for name, cls in BOTS.items():
        for o in cls.options:
            value = o.default(cls)
            assert o.read(name, str(value)) == value, (name, o.name)
            assert o.doc and o.name.isidentifier()


def test_a_bad_bot_option_on_the_command_line_exits_2_with_did_you_mean():
    code, out, err = run("simulate", R_ECO, "--players", "2", "--games", "1", "--bots", "automa:smaples=2,greedy")
    assert code == 2 and "did you mean 'samples'?" in err and "Traceback" not in err


def test_cardrules_bots_lists_every_bot_with_its_options_and_defaults(capsys):
    code, out, _ = call(capsys, "bots")
    assert code == 0
    for name, cls in BOTS.items():
        assert f"{name}: {cls.__doc__.strip().splitlines()[0]}" in out
        for o in cls.options:
            assert f"    {o.name}={o.default(cls)}  ({o.kind_text()}): {o.doc}" in out


def test_a_simulation_reports_its_bots_by_their_canonical_specs(capsys):
    code, out, err = call(capsys, "simulate", R_ECO, "--json", "--players", "2", "--games", "2", "--jobs", "1",
                          "--bots", "automa:depth=2,samples=2,greedy")
    assert code == 0, err
    assert json.loads(out)["bots"] == ["automa:samples=2,depth=2", "greedy"]


def test_options_change_how_a_bot_plays_and_the_same_spec_plays_the_same():
    def moves(spec):
        return records.play_game(game(), 2, 5, [make_bot(spec, 9), make_bot("greedy", 1)], record=True)[2]
    assert moves("automa:samples=1,width=1,depth=0") == moves("automa:samples=1,width=1,depth=0")
    assert moves("automa:samples=1,width=1,depth=0") != moves("automa")


def test_a_record_keeps_the_bots_options_and_replays_with_them(tmp_path):
    path = tmp_path / "game.json"
    code, _, err = run("record", R_ECO, "--players", "2", "--seed", "3", "--bots",
                       "automa:samples=1,width=2,greedy", "-o", str(path))
    assert code == 0, err
    record = json.loads(path.read_text())
    assert record["bots"] == ["automa:samples=1,width=2", "greedy"]
    code, out, err = run("replay", str(path))
    assert code == 0, err


def kept_record(names: list, seed: int, moves: int) -> dict:
    """The record `play -o` keeps of a game of these bots after `moves` moves (not over yet)."""
    program = game().program(len(names))
    bots = [make_bot(n, rng.derive(seed, k)) for k, n in enumerate(names)]
    st, played = program.new_state(seed, log=True, record=True), []
    for _ in range(moves):
        move = bots[st.decider].choose(program, st, program.legal_moves(st))
        played.append((st.decider, program.move_text(st, move)))
        program.apply(st, move)
    return records.record_fields(game(), program, st, seed, names, played)


def test_a_record_goes_on_with_the_bots_its_specs_name():
    cut = kept_record(["automa:samples=1", "random"], 4, 12)
    _, st, bots = records.continue_game(game(), cut)
    assert bots[0].samples == 1
    other = dict(cut, bots=["automa:samples=3", "random"])
    if any(m["seat"] == 0 for m in cut["moves"]):
        with pytest.raises(RecordError, match="not played with these bots"):
            records.continue_game(game(), other)


def test_a_record_of_plain_bot_names_still_loads():
    _, _, bots = records.continue_game(game(), kept_record(["greedy", "random"], 4, 6))
    assert type(bots[0].bot) is BOTS["greedy"]


@pytest.mark.parametrize("name, words", [
    ("automa:sample=1", "field 'bots[0]': bot automa has no option 'sample'; did you mean 'samples'?"),
    ("automa:samples=\x1b[2J", "\\x1b"),
    ("clever:depth=1", "field 'bots[0]': 'clever:depth=1' is neither a bot"),
])
def test_a_record_with_a_bad_bot_spec_is_refused_with_a_record_error(name, words):
    cut = dict(kept_record(["greedy", "random"], 4, 2), bots=[name, "random"])
    with pytest.raises(RecordError) as exc:
        records.continue_game(game(), cut)
    assert words in str(exc.value) and "\x1b" not in str(exc.value)



def test_the_manuals_table_of_bot_options_is_what_the_classes_declare():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    text = open(os.path.join(root, "docs", "language.md"), encoding="utf-8").read()
    rows, bot = {}, None
    for line in text.split("#### Bot options", 1)[1].splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[1] not in ("option", "---"):
            bot = cells[0] or bot
            rows[(bot, cells[1])] = cells[3]
    declared = {(name, o.name): o.default(cls) for name, cls in BOTS.items() for o in cls.options}
    assert set(rows) == set(declared)
    for key, value in declared.items():
        assert rows[key] == (str(value) if not isinstance(value, float) or not value.is_integer()
                             else str(int(value))), key


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["automa", "ismcts", "greedy", "memo", ":", "samples", "depth", "iterations", "c",
                                  "rollout", "seconds", "=", ",", "3", "0", "0.5", "-1", "1e2", "random", " ", "x",
                                  "\x1b", "nan"]), max_size=12).map("".join))
def test_any_spec_text_makes_a_bot_or_a_usage_error_and_its_canonical_text_reads_back(text):
    try:
        spec = parse_bot(text)
    except UsageError as exc:
        assert str(exc) and "Traceback" not in str(exc)
        return
    again = parse_bot(spec.text)
    assert again.text == spec.text and again.values == spec.values and again.cls is spec.cls
