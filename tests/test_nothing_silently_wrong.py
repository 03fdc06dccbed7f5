"""Rules that would quietly do nothing: negative counts, turn.first out of range, and the setup audit
(validate and lint play the setup once per player count and warn about moves that fell short).

The checker's errors for keys that would be ignored are in the error corpus (tests/errors/choose_*);
these tests check what happens while playing, and the audit's warnings, one rule sentence each."""
from __future__ import annotations

import os

import pytest

from language_helpers import make, names, write  # noqa: F401  (fixtures)
from interpreter.compiler.audit import Audit, setup_warnings
from interpreter.compiler.build import compile_program
from interpreter.compiler.game import file_warnings, load_game, validate_file
from interpreter.errors import RuleRuntimeError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHIPPED = [os.path.join(ROOT, "rulesets", name)
           for name in ("r_eco.yaml", "lixo.yaml", "lixo_two_colour.yaml", "sorting_memo.yaml")]

GAME = """
name: T
players: {min: 2, max: 3}
params: {values: [1, 2, 3], want: 3}
cards:
  card: {for: {value: values}, name: "c{value}", count: 2, start: draw}
zones:
  draw: {visible: nobody}
  table: {visible: everyone}
  hand: {owner: each, visible: owner}
setup:
  SETUP
turn:
  steps:
    - choose: go
      options: {ok: {}}
end: {when: "true"}
score: 0
"""


def game(setup: str, **replace) -> str:
    text = GAME.replace("SETUP", setup)
    for old, new in replace.items():
        text = text.replace(old, new)
    return text


def audited(write, text: str, overrides=None) -> list:
    return [(d.code, d.pos.line, d.message) for d in setup_warnings(load_game(write(text), overrides))]


# ---- counts below 0 ----
def test_a_count_worked_out_below_0_while_playing_moves_nothing(make):
    p = make(game('- "move top count(draw) - 10 of draw to table"'))
    st = p.new_state(0)
    assert names(p, st, "table") == [] and len(names(p, st, "draw")) == 6


def test_a_deal_worked_out_below_0_while_playing_deals_nothing(make):
    p = make(game('- "deal count(draw) - 10 from draw to hand"'))
    st = p.new_state(0)
    assert names(p, st, "hand(0)") == names(p, st, "hand(1)") == [] and len(names(p, st, "draw")) == 6


# ---- turn.first ----
def test_turn_first_is_the_seat_it_gives(make):
    p = make(game('- "move top of draw to hand"').replace("turn:\n", "turn:\n  first: players - 1\n"), 3)
    st = p.new_state(0)
    assert st.current == 2 and len(names(p, st, "hand(2)")) == 1


def test_a_computed_turn_first_that_is_no_seat_stops_the_game_at_the_rule(make):
    p = make(game('- "shuffle draw"').replace("turn:\n", "turn:\n  first: players + want\n"), 2)
    with pytest.raises(RuleRuntimeError) as err:
        p.new_state(0)
    assert err.value.pos.line == 14 and "turn.first gives seat 5, but with 2 players the seats are 0 to 1" \
        in str(err.value)


def test_validate_reports_a_turn_first_that_is_no_seat_naming_the_player_count(write):
    path = write(game('- "shuffle draw"').replace("turn:\n", "turn:\n  first: want\n"))
    [d] = validate_file(path)
    assert (d.code, d.pos.line) == ("compile", 14) and "with 2 players" in d.message + d.hint


# ---- the setup audit ----
def test_a_top_n_move_of_the_setup_that_moves_fewer_cards_warns(write):
    [(code, line, message)] = audited(write, game('- "move top 8 of draw to table"'))
    assert (code, line) == ("setup-move-short", 12)
    assert "moved 6 of the 8 cards it names (with 2 players; also with 3)" in message


def test_a_move_of_top_of_a_filtered_set_that_finds_no_card_warns(write):
    [(_, _, message)] = audited(write, game('- "move top of draw where value == want + 1 to table"'))
    assert "moved 0 of the 1 card it names" in message


def test_a_filter_of_exact_values_that_finds_no_card_warns(write):
    [(_, _, message)] = audited(write, game('- "move draw where value == 4 and kind == \'card\' to table"'))
    assert "found no card, though its where names cards by their values" in message


def test_a_filter_of_a_range_that_finds_no_card_does_not_warn(write):
    assert audited(write, game('- "move draw where value > want to table"')) == []


def test_a_deal_of_the_setup_that_runs_dry_warns(write):
    [(_, _, message)] = audited(write, game('- "deal 4 from draw to hand"'))
    assert "this deal gave 6 of the 8 cards it names (with 2 players; also with 3)" in message


def test_a_move_that_finds_every_card_it_names_does_not_warn(write):
    assert audited(write, game('- "move top 6 of draw to table"')) == []


def test_the_turns_are_not_audited(write):
    text = game('- "shuffle draw"').replace('options: {ok: {}}', 'options: {ok: {do: ["move top 9 of draw to table"]}}')
    assert audited(write, text) == []


def test_each_rule_is_reported_once_with_how_many_of_its_runs_fell_short(write):
    text = game('- for: v in [1, 4, 5]\n    do: ["move top of draw where value == v to table"]')
    [(_, _, message)] = audited(write, text)
    assert "moved 0 of the 1 card it names (with 2 players, 2 of its 3 times; also with 3)" in message


def test_the_decisions_of_the_setup_are_answered_with_the_first_legal_move(write):
    text = game('- choose: c\n    from: [2, 9]\n  - "move top c of draw to table"')
    assert audited(write, text) == []
    [(_, _, message)] = audited(write, text.replace("[2, 9]", "[9, 2]"))
    assert "moved 6 of the 9 cards it names" in message


def test_a_reward_value_with_no_card_warns_in_r_eco():
    game_ = load_game(SHIPPED[0], {"reward_order.2": [0, 1, 2, -2, 4, 5, 7]})
    [d] = setup_warnings(game_)
    assert (d.code, d.pos.line, d.pos.col) == ("setup-move-short", 60, 15)
    assert "moved 0 of the 1 card it names (with 2 players, 4 of its 28 times)" in d.message


@pytest.mark.parametrize("path", SHIPPED, ids=os.path.basename)
def test_the_shipped_rulesets_give_no_warning(path):
    assert file_warnings(path) == []


def test_a_games_program_is_compiled_without_the_audit():
    game_ = load_game(SHIPPED[0])
    plain, audited_ = compile_program(game_.rules, 3), compile_program(game_.rules, 3, audit=Audit())
    assert game_.program(3).source == plain.source != audited_.source
