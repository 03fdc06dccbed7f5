"""Decisions over several things at once: `choose` with `from:` a mapping of named parts (docs/language.md
§8, "Choosing several things at once"). Each test is one sentence of the manual, on a tiny ruleset."""
from __future__ import annotations

import io
import json
import textwrap

import pytest
from rich.console import Console

from interpreter.compiler.game import load_game
from interpreter.errors import IllegalMove, RuleRuntimeError
from interpreter.runtime import events
from interpreter.runtime.engine import DECIDE, Limits
from interpreter.seats.registry import make_bot
from interpreter.tools.cli import main
from interpreter.tools.play import Session
from interpreter.tools.rl_actions import decision_bounds
from interpreter.tools.records import make_record, replay
from language_helpers import do, edit, local, make, texts, var, write  # noqa: F401

# Three seats ask one another: the current seat chooses another seat and a rank at once.
ASK = """
    name: parts
    players: {min: 2, max: 3}
    params:
      ranks: [1, 2, 3]
    cards:
      card:
        for: {rank: ranks}
        name: "r{rank}"
        count: 2
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each, visible: owner}
    vars:
      asked: {owner: each, initial: -1}
      named: {owner: each, initial: 0}
    setup:
      - deal 2 from deck to hand
    turn:
      steps:
        - step: ask
          do:
            - choose: ask
              from:
                target: seats
                wanted: ranks
              where: target != me and wanted != 2
            - set asked = target
            - set named = wanted
    end:
      when: turn >= 3
    score: named
"""


def line_of(text: str, fragment: str) -> int:
    """The line of a ruleset text (as written to a file, dedented) that holds fragment."""
    return next(i for i, line in enumerate(textwrap.dedent(text).split("\n"), 1) if fragment in line)


def test_a_choice_of_parts_offers_each_combination_of_one_value_per_part_that_the_where_allows(make):
    p = make(ASK, 3)
    st = p.new_state(1)
    assert texts(p, st) == ["ask: target=1 wanted=1", "ask: target=1 wanted=3",
                            "ask: target=2 wanted=1", "ask: target=2 wanted=3"]


def test_a_move_is_a_tuple_of_the_parts_values_in_their_order(make):
    p = make(ASK, 3)
    st = p.new_state(1)
    assert p.legal_moves(st) == [(1, 1), (1, 3), (2, 1), (2, 3)]


def test_each_part_is_bound_to_its_own_name_after_the_choice(make):
    p = make(ASK, 3)
    st = p.new_state(1)
    do(p, st, "ask: target=2 wanted=3")
    assert var(p, st, "asked", 0) == 2 and var(p, st, "named", 0) == 3
    assert local(p, st, "target") == 2 and local(p, st, "wanted") == 3


def test_the_decisions_own_name_is_not_bound(make):
    with pytest.raises(Exception) as err:
        make(edit(ASK, "- set named = wanted", "- set named = ask"), 3)
    assert "unknown name 'ask'" in str(err.value)
    assert "each bound to its own name: target, wanted" in str(err.value)


def test_a_parts_values_may_read_the_parts_written_before_it(make):
    p = make(edit(ASK, "wanted: ranks", "wanted: numbers(target, 3)"), 3)
    st = p.new_state(1)
    # target 1: wanted of 1 to 3; target 2: of 2 to 3; the where still refuses wanted 2
    assert p.legal_moves(st) == [(1, 1), (1, 3), (2, 3)]


def test_a_value_repeated_in_a_parts_list_is_one_move(make):
    p = make(edit(ASK, "wanted: ranks", "wanted: '[3, 1, 3, 1]'"), 3)
    st = p.new_state(1)
    assert p.legal_moves(st) == [(1, 3), (1, 1), (2, 3), (2, 1)]


def test_the_move_text_is_the_decisions_name_then_each_part_as_name_equals_value(make):
    p = make(ASK, 3)
    st = p.new_state(1)
    assert p.move_text(st, (2, 1)) == "ask: target=2 wanted=1"


def test_a_typed_move_forgives_spaces_and_upper_case(make):
    p = make(ASK, 3)
    st = p.new_state(1)
    assert p.parse_move(st, "ASK:  target = 2   Wanted=1") == (2, 1)


def test_a_combination_the_where_refuses_is_not_legal_and_changes_nothing(make):
    p = make(ASK, 3)
    st = p.new_state(1)
    before = st.clone()
    with pytest.raises(IllegalMove) as err:
        p.play(st, (0, 1))       # asking oneself
    assert "not legal now" in str(err.value)
    with pytest.raises(IllegalMove):
        p.parse_move(st, "ask: target=1 wanted=2")
    assert st.vars == before.vars and st.pending is before.pending and st.moves == before.moves


def test_by_hands_a_choice_of_parts_to_another_seat_and_me_stays_the_current_player(make):
    p = make(edit(ASK, "- choose: ask\n", "- choose: ask\n              by: next(current)\n"), 3)
    st = p.new_state(1)
    assert st.decider == 1 and st.current == 0
    assert p.legal_moves(st) == [(1, 1), (1, 3), (2, 1), (2, 3)]     # target != me: me is seat 0


def test_a_choice_of_parts_without_a_legal_combination_stops_the_game_naming_the_choose(make):
    p = make(edit(ASK, "wanted != 2", "wanted > 3"), 3)
    st = p.new_state(1)
    with pytest.raises(RuleRuntimeError) as err:
        p.play(st, (1, 1))
    assert "decision 'ask' has no legal option for seat 0" in str(err.value)
    assert err.value.pos.line == line_of(ASK, "- choose: ask")


def test_an_error_in_a_parts_list_is_reported_at_that_part(make):
    p = make(edit(ASK, "wanted: ranks", "wanted: numbers(1, 3 / (target - target))"), 3)
    st = p.new_state(1)
    with pytest.raises(RuleRuntimeError) as err:
        p.legal_moves(st)
    assert "division by zero" in str(err.value) and err.value.pos.line == line_of(ASK, "wanted: ranks")


def test_a_choice_of_more_combinations_than_the_limit_stops_with_an_error_naming_it(write):
    path = write(edit(ASK, "wanted: ranks", "wanted: numbers(1, 50)"))
    p = load_game(path, limits=Limits(moves=10)).program(3)
    with pytest.raises(RuleRuntimeError) as err:
        p.legal_moves(p.new_state(1))
    assert "decision 'ask' would have more than 10 legal moves for seat 0 in turn 1" in str(err.value)


def test_other_seats_do_not_see_the_choice_and_the_decider_does(make):
    p = make(ASK, 3)
    st = p.new_state(1, log=True)
    do(p, st, "ask: target=2 wanted=3")
    decided = [e for e in st.log if e[0] == DECIDE]
    assert decided == [(DECIDE, 0, 0, (2, 3))]
    assert [e for e in events.for_seat(p, st.log, 0) if e[0] == DECIDE] == decided
    assert not [e for e in events.for_seat(p, st.log, 1) if e[0] == DECIDE]
    assert events.describe(p, decided[0]) == "seat 0 chose ask: target=2 wanted=3"


def test_the_action_space_bound_is_the_product_of_the_parts_sizes(make):
    p = make(ASK, 3)
    assert decision_bounds(p) == [("ask", 9)]       # 3 seats × 3 ranks, before the where


# ---- play: typed at the table ----
def session(game, lines: list):
    out = io.StringIO()
    feed = iter(lines)
    s = Session(game, 3, 1, {1: "random", 2: "random"}, ask=lambda prompt: next(feed),
                console=Console(file=out, width=200, highlight=False, color_system=None))
    s.out = out
    return s


def test_play_takes_a_choice_of_parts_typed_as_the_text_after_the_name(write):
    s = session(load_game(write(ASK)), [])
    move = s.parse("target=2 wanted=3", s.program.legal_moves(s.st))
    assert move == (2, 3)


def test_play_takes_a_choice_of_parts_typed_as_its_number_in_the_list(write):
    s = session(load_game(write(ASK)), [])
    entries = s.shown_moves(s.program.legal_moves(s.st)).entries
    assert [t for _, _, t in entries][0] == "ask: target=1 wanted=1"
    assert s.parse("3", s.program.legal_moves(s.st)) == (2, 1)


def test_play_runs_a_whole_game_of_a_choice_of_parts_typed_by_a_human(write):
    s = session(load_game(write(ASK)), ["target=1 wanted=3", "c"])
    s.run()
    out = s.out.getvalue()
    assert "you: ask target=1 wanted=3" in out and "final scores after 3 turns" in out
    assert "seat 1 (random): ask target=" in out      # told: the public variables it set tell it apart


# ---- a whole game: Go Fish's ask, by every bot, recorded and replayed, simulated ----
FISH = """
    name: Ask for a rank
    players: {min: 2, max: 4}
    params:
      ranks: [1, 2, 3, 4, 5, 6]
    cards:
      card:
        for: {rank: ranks}
        name: "r{rank}"
        count: 4
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each, visible: owner}
      books: {owner: each, visible: everyone}
    setup:
      - shuffle deck
      - deal 5 from deck to hand
    turn:
      steps:
        - step: ask
          do:
            - if: count(hand) == 0
              then: ["move top of deck to hand"]
              else:
                - choose: ask
                  from:
                    target: seats
                    wanted: ranks
                  where: target != me and count(hand where rank == wanted) > 0
                - let got = hand(target) where rank == wanted
                - if: count(got) > 0
                  then: ["move got to hand", "extra turn"]
                  else: ["move top of deck to hand"]
        - step: books
          do:
            - for: r in ranks
              do:
                - if: count(hand where rank == r) == 4
                  then: ["move hand where rank == r to books"]
    end:
      when: count(deck) == 0
    score: count(books)
"""


@pytest.mark.parametrize("bot", ["random", "greedy", "automa", "memory", "ismcts:iterations=30"])
def test_whole_games_with_a_choice_of_parts_are_recorded_and_replay_exactly(write, bot):
    game = load_game(write(FISH))
    for seed in range(3):
        players = 2 + seed % 3
        bots = [make_bot(bot, seed * 10 + i) for i in range(players)]
        record = make_record(game, players, seed, bots, [bot] * players)
        asks = [m["move"] for m in record["moves"]]
        assert asks and all(m.startswith("ask: target=") and " wanted=" in m for m in asks)
        assert all(int(m.split("target=")[1].split()[0]) != s["seat"] for m, s in zip(asks, record["moves"]))
        assert replay(game, json.loads(json.dumps(record))) == record["result"]


def test_a_game_with_a_choice_of_parts_simulates(write, capsys):
    path = write(FISH)
    assert main(["simulate", path, "--games", "20", "--players", "3", "--seed", "2", "--jobs", "1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["games"] == 20


# The manual's example: Love Letter's Guard names another player and a value from 2 to 8.
GUARD = """
    name: guard
    players: {min: 2, max: 4}
    cards:
      card:
        for: {rank: [1, 2, 3, 4, 5, 6, 7, 8]}
        name: "c{rank}"
        count: 2
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each, visible: owner}
      discard: {owner: each, visible: everyone}
    vars:
      shielded: {owner: each, initial: false}
    setup:
      - shuffle deck
      - deal 1 from deck to hand
      - set shielded(1) = true
    turn:
      steps:
        - step: guess
          do:
            - choose: guess
              from:
                target: seats
                value: numbers(2, 8)
              where: target != me and not shielded(target)
            - if: count(hand(target) where rank == value) > 0
              then: ["move hand(target) to discard(target)"]
    end:
      when: turn >= 4
    score: count(hand)
"""


def test_the_manuals_guard_names_another_unshielded_player_and_a_value_from_2_to_8(make):
    p = make(GUARD, 3)
    st = p.new_state(3)
    assert texts(p, st) == [f"guess: target=2 value={v}" for v in range(2, 9)]
    hand2 = p.zone_names.index("hand(2)")
    held = p.type_names[p.card_type[st.zones[hand2][0]]]
    assert held != "c1"                 # seed 3 deals seat 2 a card a guard can name
    do(p, st, f"guess: target=2 value={held[1:]}")
    assert st.zones[hand2] == [] and len(st.zones[p.zone_names.index("discard(2)")]) == 1
