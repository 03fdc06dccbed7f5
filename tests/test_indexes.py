"""Seats and indexes that do not exist (manual §4 "Naming a zone", §5, §6.7, §13): a seat picks a
player's zone or variable only when that player is at the table; a constant one that is not is a
`validate` error naming the player count, a computed one stops the game at the rule, in its turn.
No seat ever lands in another zone or variable. And long flat chains (a + b + c …) compile."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as s

from interpreter.compiler.game import load_game, validate_file
from interpreter.errors import RuleRuntimeError

from language_helpers import edit, names, var, write  # noqa: F401  (fixtures)

# Seat 1 takes the top card of the deck and puts it where the rule says (RULE); `won` and `spare`
# come after `hand`, so a seat one past the end would land in seat 0's `won` if it were not checked.
GAME = """
name: seats
players: {min: 2, max: 4}
cards:
  card: {for: {n: [1, 2, 3, 4, 5, 6]}, name: "c{n}", start: deck}
zones:
  deck: {visible: nobody}
  hand: {owner: each}
  won: {owner: each, visible: everyone}
  spare: {visible: everyone}
vars:
  pts: {initial: 0, owner: each}
  k: {initial: 0}
turn:
  steps:
    - step: take
      do: ["RULE"]
end: {when: "turn >= 1"}
score: pts
"""


RULE_LINE, RULE_COL = 17, 13       # where RULE's text starts in the file


def points_at(pos, rule: str, fragment: str) -> bool:
    """Whether pos is where fragment starts inside the rule written at RULE."""
    return (pos.line, pos.col) == (RULE_LINE, RULE_COL + rule.index(fragment))


def game_with(rule: str, **changes) -> str:
    text = edit(GAME, "RULE", rule.replace('"', '\\"'))
    for old, new in changes.items():
        text = edit(text, old, new)
    return text


def only_error(path: str):
    found = validate_file(path)
    assert len(found) == 1, [str(d) for d in found]
    return found[0]


def fails_at_run(path: str, players: int):
    """The RuleRuntimeError a game raises while it runs (validate accepted the file)."""
    assert validate_file(path) == []
    with pytest.raises(RuleRuntimeError) as info:
        load_game(path).program(players).new_state(0)
    return info.value


def all_cards(p, st) -> dict:
    return {z: names(p, st, z) for z in p.zone_names if names(p, st, z)}


# ---- constant seats: validate, naming the player count ----
def test_a_constant_seat_past_the_players_is_a_validate_error_naming_the_player_count(write):
    rule = "move top of deck to hand(3)"
    d = only_error(write(game_with(rule)))
    assert "there is no player 3 with 2 players" in d.message and "the seats are 0 to 1" in d.message
    assert d.hint == "this happens with 2 players" and points_at(d.pos, rule, "3)")


def test_a_constant_seat_that_fits_every_player_count_is_valid(write):
    assert validate_file(write(game_with("move top of deck to hand(1)"))) == []


def test_a_negative_seat_is_an_error_with_any_number_of_players(write):
    rule = "move top of deck to won(-1)"
    d = only_error(write(game_with(rule)))
    assert d.message == "there is no player -1: seats count from 0" and points_at(d.pos, rule, "-1")
    d = only_error(write(game_with("move top of deck to won(players - 5)")))
    assert "there is no player -3 with 2 players" in d.message


def test_a_constant_seat_of_a_players_variable_is_checked_too(write):
    d = only_error(write(game_with("set pts(2) = 1")))
    assert "there is no player 2 with 2 players" in d.message
    d = only_error(write(game_with("set k = pts(5)")))
    assert "there is no player 5 with 2 players" in d.message


def test_a_seat_worked_out_from_players_is_checked_per_player_count(write):
    assert validate_file(write(game_with("move top of deck to hand(players - 1)"))) == []
    d = only_error(write(game_with("move top of deck to hand(players)")))
    assert "there is no player 2 with 2 players" in d.message


def test_a_seat_in_a_branch_that_cannot_run_with_that_many_players_is_not_checked(write):
    path = write(game_with("x", **{'do: ["x"]': 'do: [{if: "players > 3", then: ["move top of deck to hand(3)"]}, '
                                                '"set k = if players > 3 then count(hand(3)) else 5"]'}))
    assert validate_file(path) == []
    p = load_game(path).program(4)
    st = p.new_state(0)
    assert names(p, st, "hand(3)") == ["c6"] and var(p, st, "k") == 1
    p = load_game(path).program(2)
    assert var(p, p.new_state(0), "k") == 5


def test_next_and_deal_and_by_check_a_constant_seat(write):
    for rule, seat in [("set k = next(2)", 2), ("set k = prev(7)", 7), ("deal 1 from deck to hand starting 3", 3)]:
        d = only_error(write(game_with(rule)))
        assert f"there is no player {seat} with 2 players" in d.message, rule
    path = write(game_with("x", **{'do: ["x"]': 'do: [{choose: c, by: 2, from: [1, 2]}]'}))
    assert "there is no player 2 with 2 players" in only_error(path).message


# ---- computed seats: an error at the rule, in its turn ----
def test_a_computed_seat_past_the_players_stops_the_game_at_the_rule_with_the_turn(write):
    rule = "move top of deck to hand(k + 2)"
    exc = fails_at_run(write(game_with(rule)), 2)
    assert points_at(exc.pos, rule, "k + 2")
    assert "in turn 1: there is no player 2 with 2 players" in str(exc)


def test_a_computed_seat_never_lands_in_another_zone(write):
    """hand(2) with 2 players is where seat 0's won begins: the move is refused, nothing moved."""
    path = write(game_with("move top of deck to hand(k + 2)"))
    p = load_game(path).program(2)
    with pytest.raises(RuleRuntimeError):
        p.new_state(0)
    path = write(game_with("move top of deck to hand(k + 1)"))
    p = load_game(path).program(2)
    st = p.new_state(0)
    assert all_cards(p, st) == {"deck": ["c1", "c2", "c3", "c4", "c5"], "hand(1)": ["c6"]}


def test_a_negative_computed_seat_stops_the_game(write):
    exc = fails_at_run(write(game_with("move top of deck to won(k - 1)")), 3)
    assert "there is no player -1 with 3 players" in str(exc)


def test_a_computed_seat_of_a_players_variable_stops_the_game(write):
    exc = fails_at_run(write(game_with("set pts(k + 3) = 1")), 3)
    assert "in turn 1: there is no player 3 with 3 players" in str(exc)
    exc = fails_at_run(write(game_with("set k = pts(k - 1)")), 3)
    assert "there is no player -1 with 3 players" in str(exc)


def test_next_and_prev_of_a_seat_that_does_not_exist_stop_the_game_instead_of_going_round(write):
    exc = fails_at_run(write(game_with("set k = next(k + 2)")), 2)
    assert "there is no player 2 with 2 players" in str(exc)
    exc = fails_at_run(write(game_with("set k = prev(k - 1)")), 2)
    assert "there is no player -1 with 2 players" in str(exc)


def test_deal_starting_a_seat_that_does_not_exist_stops_the_game(write):
    exc = fails_at_run(write(game_with("deal 1 from deck to hand starting k + 4")), 4)
    assert "there is no player 4 with 4 players" in str(exc)


def test_a_decision_by_a_seat_that_does_not_exist_stops_the_game(write):
    path = write(game_with("x", **{'do: ["x"]': 'do: [{choose: c, by: "k + 2", from: [1, 2]}]'}))
    exc = fails_at_run(path, 2)
    assert "there is no player 2 with 2 players" in str(exc) and exc.pos.line == RULE_LINE


def test_a_seat_that_is_not_a_number_stops_the_game(write):
    text = game_with("move top of deck to hand(first(deck).n)", **{"{n: [1, 2, 3, 4, 5, 6]}": "{n: [a, 1]}"})
    exc = fails_at_run(write(text), 2)
    assert "'a' is not a player: a player is a seat number from 0 to 1" in str(exc)


def test_seats_from_current_next_and_a_loop_over_seats_are_every_player(write):
    path = write(game_with("x", **{'do: ["x"]': 'do: ["move top of deck to hand(next(current))", '
                                                '{for: p in seats, do: ["set pts(p) = count(hand(p)) + p"]}, '
                                                '"set k = sum(pts(q) for q in seats)"]'}))
    p = load_game(path).program(3)
    st = p.new_state(0)
    assert [var(p, st, "pts", q) for q in range(3)] == [0, 2, 2] and var(p, st, "k") == 4


@settings(max_examples=40, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(seat=s.integers(-40, 40), computed=s.booleans(), players=s.integers(2, 4))
def test_any_seat_picks_that_players_zone_or_is_an_error(tmp_path_factory, seat, computed, players):
    path = tmp_path_factory.mktemp("seat") / "rules.yaml"
    owner = f"k + {seat}" if computed else str(seat)
    path.write_text(game_with(f"move top of deck to won({owner})", **{"max: 4": f"max: {players}"}))
    path = str(path)
    if 0 <= seat < players:
        p = load_game(path).program(players)
        st = p.new_state(0)
        assert all_cards(p, st) == {"deck": ["c1", "c2", "c3", "c4", "c5"], f"won({seat})": ["c6"]}
    elif computed:
        assert f"there is no player {seat} with {players} players" in str(fails_at_run(path, players))
    else:
        assert f"there is no player {seat}" in only_error(path).message


# ---- long flat expressions ----
def test_a_sum_of_many_terms_compiles_and_runs(write):
    terms = " + ".join(f"count(hand) * {i % 3} - 1" for i in range(140))
    path = write(game_with("move top of deck to hand", **{"score: pts": f"score: {terms} + 2"}))
    assert validate_file(path) == []
    p = load_game(path).program(2)
    st = p.new_state(0)
    assert p.score(st, 0) == sum(i % 3 for i in range(140)) - 140 + 2 and p.score(st, 1) == -140 + 2


def test_a_long_and_or_chain_compiles_and_runs(write):
    conds = " and ".join(f"k != {i + 1}" for i in range(250))
    either = " or ".join(f"k == {i + 1}" for i in range(250))
    path = write(game_with(f"set pts = if {conds} and not ({either}) then 7 else 1"))
    p = load_game(path).program(2)
    assert var(p, p.new_state(0), "pts", 0) == 7


def test_a_chain_of_a_third_of_the_nesting_limit_in_terms_is_too_long(write):
    d = only_error(write(game_with("set k = " + " + ".join(["1"] * 400))))
    assert "nested too deeply" in d.message and "a third of a level" in d.message


def test_brackets_inside_brackets_are_still_nested_too_deeply(write):
    d = only_error(write(game_with("set k = " + "abs(" * 120 + "1" + ")" * 120)))
    assert "nested too deeply (more than 100 levels" in d.message and d.pos.line == RULE_LINE
