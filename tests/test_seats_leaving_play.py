"""Seats leaving play and the direction of play (docs/language.md, 9 "Seats leaving play"):
`eliminate p`, `restore p`, `reverse`, `in_play`, and how turns, next, prev and around follow them."""
from __future__ import annotations

import io

import pytest
from rich.console import Console

from interpreter.compiler.game import load_game
from interpreter.errors import RuleRuntimeError, RulesetError
from interpreter.runtime.engine import ORDER
from interpreter.runtime.events import describe
from interpreter.seats.registry import make_bot
from interpreter.seats.views import view_of
from interpreter.tools.play import Session
from interpreter.tools.records import make_record, replay
from interpreter.tools.simulate import simulate
from language_helpers import do, edit, make, var, write  # noqa: F401

# Each turn the current seat picks what happens; `then` is a second pause that lets a test look.
RING = """
    name: ring
    players: {min: 2, max: 5}
    cards:
      chip: {count: 1, start: box}
    zones:
      box: {visible: everyone}
    vars:
      turns_played: {owner: each, initial: 0}
      seen: {initial: "[]"}
    turn:
      steps:
        - choose: act
          options:
            pass: {}
            knock: {do: ["eliminate next(current)"]}
            quit: {do: ["eliminate current"]}
            flip: {do: ["reverse"]}
            back: {do: ["restore 1"]}
        - set turns_played = turns_played + 1
    end:
      when: turn > 40
    score: turns_played
"""


def seats_in_turn(p, st, acts: list) -> list:
    """The seat whose turn it is before each act, then after the last one."""
    order = [st.current]
    for act in acts:
        do(p, st, act)
        order.append(st.current)
    return order


def test_an_eliminated_seat_takes_no_more_turns(make):
    p = make(RING, 4)
    st = p.new_state(0)
    assert seats_in_turn(p, st, ["knock", "pass", "pass", "pass"]) == [0, 2, 3, 0, 2]


def test_a_seat_can_eliminate_itself_and_the_turn_passes_on(make):
    p = make(RING, 3)
    st = p.new_state(0)
    assert seats_in_turn(p, st, ["pass", "quit", "pass", "pass"]) == [0, 1, 2, 0, 2]


def test_a_turn_goes_on_to_its_end_after_its_seat_is_eliminated(make):
    p = make(RING, 3)
    st = p.new_state(0)
    do(p, st, "quit")
    assert var(p, st, "turns_played", 0) == 1


def test_every_seat_is_told_who_is_out_of_play_and_which_way_play_goes(make):
    p = make(RING, 3)
    st = p.new_state(0, log=True)
    do(p, st, "knock")                    # seat 0 knocks seat 1 out
    do(p, st, "flip")                     # seat 2 turns the direction round
    for seat in range(3):
        v = view_of(p, st.log, seat)
        assert [v.in_play(s) for s in range(3)] == [True, False, True] and v.way == -1
    assert describe(p, next(e for e in reversed(st.log) if e[0] == ORDER)) == \
        "seat 1 out of play · play goes the other way"


def test_play_shows_a_seat_out_of_play_and_the_direction_on_the_screen(write):
    session = Session(load_game(write(RING)), 3, 0, {}, ask=lambda prompt: "q",
                      console=Console(file=io.StringIO(), width=100, height=30))
    do(session.program, session.st, "knock")      # seat 0 knocks seat 1 out
    do(session.program, session.st, "flip")      # seat 2 turns the direction round
    out = io.StringIO()
    session.console = Console(file=out, width=100, height=30, highlight=False, color_system=None)
    session.show(0, session.program.legal_moves(session.st))
    lines = out.getvalue().splitlines()
    assert "out of play" in next(x for x in lines if "seat 1 ·" in x)
    assert "out of play" not in next(x for x in lines if "seat 2 ·" in x)
    assert any("play goes the other way" in x for x in lines)


def test_restore_brings_a_seat_back_into_the_turn_order(make):
    p = make(RING, 3)
    st = p.new_state(0)
    assert seats_in_turn(p, st, ["knock", "back", "pass", "pass"]) == [0, 2, 0, 1, 2]


def test_reverse_turns_the_order_of_play_round(make):
    p = make(RING, 4)
    st = p.new_state(0)
    assert seats_in_turn(p, st, ["pass", "flip", "pass", "pass", "flip", "pass"]) == [0, 1, 0, 3, 2, 3, 0]


def test_after_a_reverse_next_gives_the_seat_the_other_way_round(make):
    p = make(RING, 4)
    st = p.new_state(0)
    do(p, st, "flip")       # seat 0 reverses; seat 3 plays next and knocks out its next: seat 2
    do(p, st, "knock")
    assert seats_in_turn(p, st, ["pass", "pass"]) == [1, 0, 3]


def test_in_play_lists_the_seats_still_in_and_seats_keeps_every_seat(make):
    p = make(edit(RING, "- set turns_played = turns_played + 1",
                  "- set seen = [in_play, seats]\n        - set turns_played = turns_played + 1"), 4)
    st = p.new_state(0)
    do(p, st, "knock")
    assert var(p, st, "seen") == [[0, 2, 3], [0, 1, 2, 3]]


def test_next_and_prev_skip_the_seats_out_of_play(make):
    p = make(edit(RING, "- set turns_played = turns_played + 1",
                  "- set seen = [next(0), prev(2), next(1)]\n        - set turns_played = turns_played + 1"), 4)
    st = p.new_state(0)
    do(p, st, "knock")      # seat 1 is out: next(0) is 2, prev(2) is 0, next(1) (from its place) is 2
    assert var(p, st, "seen") == [2, 0, 2]


def test_the_last_seat_in_play_is_its_own_next(make):
    p = make(edit(RING, "- set turns_played = turns_played + 1",
                  "- set seen = [next(0), prev(0)]\n        - set turns_played = turns_played + 1"), 2)
    st = p.new_state(0)
    do(p, st, "knock")
    assert var(p, st, "seen") == [0, 0] and st.current == 0


def test_when_every_seat_is_out_next_stops_the_game_at_the_rule(make):
    p = make(edit(RING, "knock: {do: [\"eliminate next(current)\"]}",
                  "knock: {do: [\"eliminate 0\", \"eliminate 1\", \"let x = next(0)\"]}"), 2)
    st = p.new_state(0)
    with pytest.raises(RuleRuntimeError) as err:
        do(p, st, "knock")
    assert "every seat is out of play" in str(err.value) and err.value.pos.line == 16


def test_eliminating_a_seat_no_player_has_stops_the_game_at_the_rule(make):
    p = make(edit(RING, "eliminate next(current)", "eliminate current + 5"), 3)
    st = p.new_state(0)
    with pytest.raises(RuleRuntimeError) as err:
        do(p, st, "knock")
    assert "there is no player 5" in str(err.value) and err.value.pos.line == 16


def test_a_seat_that_is_out_loses_its_extra_turn(make):
    p = make(edit(RING, "quit: {do: [\"eliminate current\"]}", "quit: {do: [\"extra turn\", \"eliminate current\"]}"), 3)
    st = p.new_state(0)
    assert seats_in_turn(p, st, ["pass", "quit"]) == [0, 1, 2]


def test_turn_next_naming_a_seat_out_passes_the_turn_to_the_next_seat_in_play(make):
    text = edit(RING, "turn:\n", "turn:\n      next: current + 1\n")
    p = make(text, 4)
    st = p.new_state(0)
    assert seats_in_turn(p, st, ["knock", "pass"]) == [0, 2, 3]


def test_a_decision_can_offer_the_seats_still_in_play(make):
    text = edit(RING, "        - set turns_played = turns_played + 1",
                "        - choose: target\n          from: in_play\n          where: target != current\n"
                "        - set turns_played = turns_played + 1")
    p = make(text, 4)
    st = p.new_state(0)
    do(p, st, "knock")
    assert sorted(p.move_text(st, m) for m in p.legal_moves(st)) == ["target: 2", "target: 3"]


AROUND = """
    name: around
    players: {min: 2, max: 5}
    cards:
      chip: {count: 1, start: box}
    zones:
      box: {visible: everyone}
    vars:
      goes: {initial: "[]"}
    setup:
      - eliminate 1
    turn:
      steps:
        - set goes = []
        - around: p
          do: ["set goes = goes + [p]"]
        - choose: act
          options:
            pass: {}
            flip: {do: ["reverse"]}
    end:
      when: turn > 5
    score: 0
"""


def test_a_first_player_eliminated_in_the_setup_passes_the_first_turn_on(make):
    p = make(edit(AROUND, "- eliminate 1", "- eliminate 0"), 3)
    st = p.new_state(0)
    assert st.current == 1 and st.turn == 1


def test_around_gives_a_go_to_every_seat_in_play_and_none_to_a_seat_out(make):
    p = make(AROUND, 4)
    st = p.new_state(0)
    assert var(p, st, "goes") == [0, 2, 3]


def test_around_follows_the_direction_of_play(make):
    p = make(AROUND, 4)
    st = p.new_state(0)
    do(p, st, "flip")       # the next turn is seat 3's, and around goes 3, 2, 0
    assert st.current == 3 and var(p, st, "goes") == [3, 2, 0]


def test_around_from_a_seat_that_is_out_starts_there_and_skips_it(make):
    p = make(edit(AROUND, "- around: p\n", "- around: p\n          from: 1\n"), 4)
    st = p.new_state(0)
    assert var(p, st, "goes") == [2, 3, 0]


def test_a_seat_eliminated_during_an_around_before_its_go_gets_none(make):
    p = make(edit(AROUND, "do: [\"set goes = goes + [p]\"]",
                  "do: [\"set goes = goes + [p]\", \"eliminate 3\"]"), 4)
    st = p.new_state(0)
    assert var(p, st, "goes") == [0, 2]


def test_around_until_starts_at_the_first_seat_in_play_and_skips_the_seats_out(make):
    p = make(edit(AROUND, "- around: p\n", "- around: p\n          from: 1\n          until: count(goes) == 5\n"), 4)
    st = p.new_state(0)
    assert var(p, st, "goes") == [2, 3, 0, 2, 3]


def test_a_seat_out_of_play_keeps_its_score_and_its_place_in_the_result(make):
    p = make(edit(RING, "when: turn > 40", "when: count(in_play) == 1"), 3)
    st = p.new_state(0)
    for act in ["pass", "pass", "quit", "pass", "knock"]:   # seat 2 quits; seat 1 knocks out seat 0
        do(p, st, act)
    assert st.over and [p.score(st, s) for s in range(3)] == [2, 1, 1]      # the game ends before 1 counts
    assert p.result(st)["winners"] == [0]


def test_a_score_can_count_only_for_the_seats_still_in_play(make):
    p = make(edit(RING, "score: turns_played", "score: if me in in_play then turns_played else 0"), 3)
    st = p.new_state(0)
    do(p, st, "knock")
    assert [p.score(st, s) for s in range(3)] == [1, 0, 0]


def test_clone_and_equality_keep_who_is_out_and_the_direction(make):
    p = make(RING, 4)
    st = p.new_state(0)
    do(p, st, "knock")
    do(p, st, "flip")
    copy = st.clone()
    assert copy == st
    assert seats_in_turn(p, copy, ["pass", "pass"]) == seats_in_turn(p, st, ["pass", "pass"]) == [0, 3, 2]


def test_a_game_that_never_eliminates_or_reverses_compiles_as_before(make):
    p = make(edit(RING, "            knock: {do: [\"eliminate next(current)\"]}\n"
                        "            quit: {do: [\"eliminate current\"]}\n"
                        "            flip: {do: [\"reverse\"]}\n"
                        "            back: {do: [\"restore 1\"]}\n", ""), 3)
    assert p.rules.play_order is None and "going_round" not in p.source and "next_turn" not in p.source


@pytest.mark.parametrize("rule, col, message", [
    ("eliminate box", 32, "the seat to eliminate must be a player"),
    ("restore 'x'", 30, "the seat to restore must be a player"),
    ("reverse 1", 30, "'reverse' takes nothing after it"),
    ("eliminate", 31, "expected a value after 'eliminate', but the text ends"),
])
def test_eliminate_restore_and_reverse_are_checked_with_located_errors(write, rule, col, message):
    path = write(edit(RING, "eliminate current\"", f"{rule}\""))
    with pytest.raises(RulesetError) as err:
        load_game(path)
    (diag,) = err.value.diagnostics
    assert (diag.pos.line, diag.pos.col) == (17, col) and message in diag.message, diag


def test_in_play_is_a_reserved_name_no_variable_may_take(write):
    with pytest.raises(RulesetError) as err:
        load_game(write(edit(RING, "vars:\n", "vars:\n      in_play: {initial: 0}\n")))
    assert "'in_play' is a reserved word" in str(err.value)


# A round game in the manner of Love Letter: each round every seat holds one card; on its turn a
# seat draws and plays one of its two cards. A guard names a value and knocks out the next seat if
# it holds it; a priest is harmless. A round ends when one seat is left (it wins a token) or the
# deck is out (the highest card wins); then everyone is back in for the next round.
ROUNDS = """
    name: rounds
    players: {min: 2, max: 4}
    cards:
      card:
        for: {value: [1, 2, 3, 4]}
        name: "v{value}"
        count: 4
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each, visible: owner}
      discard: {visible: everyone}
    vars:
      tokens: {owner: each, initial: 0}
      rounds: {initial: 0}
    procedures:
      new_round:
        - move discard to deck
        - for: p in seats
          do: ["move hand(p) to deck", "restore p"]
        - shuffle deck
        - deal 1 from deck to hand
        - set rounds = rounds + 1
    setup:
      - call new_round
    turn:
      steps:
        - move top of deck to hand
        - choose: play
          cards: hand
          count: 1
        - move play to discard
        - if: first(play).value == 1
          then:
            - choose: guess
              from: [2, 3, 4]
            - if: first(hand(next(current))).value == guess
              then: ["move hand(next(current)) to discard", "eliminate next(current)"]
        - if: first(play).value == 4
          then: ["reverse"]
        - if: count(in_play) == 1 or count(deck) == 0
          then:
            - let best = highest(p for p in in_play by first(hand(p)).value)
            - set tokens(best) = tokens(best) + 1
            - if: rounds < 3
              then: ["call new_round"]
              else: ["end game"]
    end:
      when: false
    score: tokens
"""


def test_a_round_game_with_knock_outs_and_reversals_simulates_and_replays(write):
    game = load_game(write(ROUNDS))
    summary = simulate(game, 3, 40, 1, ["random", "greedy", "random"])
    assert summary["games"] == 40
    for seed in range(5):
        record = make_record(game, 3, seed, [make_bot("random", seed), make_bot("greedy", seed + 1),
                                             make_bot("random", seed + 2)], ["random", "greedy", "random"])
        assert replay(game, record) == record["result"]
        assert sum(record["result"]["scores"]) == 3      # one token a round, three rounds
