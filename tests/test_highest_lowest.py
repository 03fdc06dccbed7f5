"""The best of a list: `highest(ITEM for x in LIST by NUMBER)` is the item whose number is largest,
`lowest(...)` the one whose number is smallest; a tie goes to the first in the list's order, and
`seats_from(p)` lists the seats in turn order from p (for a tie that goes round the table)."""
from __future__ import annotations

import pytest

from interpreter.compiler.game import load_game
from interpreter.errors import RuleRuntimeError
from interpreter.seats.registry import make_bot
from interpreter.tools.records import make_record, replay
from language_helpers import edit, local, make, write  # noqa: F401

# Seat 0 has won 2 cards, seat 1 has won 3, seat 2 has won 2; seat 0 holds red:1 and blue:3, and
# the current player is seat 1.
RANKED = """
    name: ranked
    players: {min: 3, max: 3}
    cards:
      c:
        for: {colour: [red, blue], value: [1, 2, 3, 4, 5]}
        name: "{colour}:{value}"
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each, visible: owner}
      won: {owner: each, visible: everyone}
    vars:
      done: {initial: 0}
      by: {initial: 2}
    functions:
      power(p): count(won(p))
    setup:
      - move deck where name == 'red:1' or name == 'blue:3' to hand(0)
      - move deck where name == 'red:2' or name == 'red:3' to won(0)
      - move deck where value == 4 or name == 'blue:1' to won(1)
      - move deck where value == 5 to won(2)
    turn:
      first: 1
      steps:
        - step: main
          do:
            - let strongest = highest(p for p in seats by power(p))
            - let weakest = lowest(p for p in seats by power(p))
            - let first_weakest = lowest(p for p in seats if p != strongest by power(p))
            - let after_me = lowest(p for p in seats_from(next(current)) if p != strongest by power(p))
            - let round = seats_from(next(current))
            - let best_card = highest(c for c in hand(0) by c.value)
            - let best_name = highest(c.name for c in hand(0) by c.value)
            - let best_colour = highest(c for c in hand(0) by c.value * by).colour
            - let strongest_holds = count(hand(highest(p for p in seats by count(hand(p)))))
            - let smallest_value = lowest(v for v in [3, 1, 2, 1] by v)
            - choose: go
              options: {ok: {}}
            - set done = 1
    end:
      when: done == 1
    score: power(me)
"""


def state(make, text=RANKED):
    p = make(text, 3)
    return p, p.new_state(1)


def test_highest_gives_the_seat_whose_number_is_largest(make):
    p, st = state(make)
    assert local(p, st, "strongest") == 1


def test_lowest_gives_the_seat_whose_number_is_smallest_and_a_tie_goes_to_the_first_in_the_list(make):
    p, st = state(make)
    assert local(p, st, "weakest") == 0                     # seats 0 and 2 tie on 2: seat 0 comes first
    assert local(p, st, "smallest_value") == 1


def test_an_if_leaves_items_out_of_the_ranking(make):
    p, st = state(make)
    assert local(p, st, "first_weakest") == 0


def test_seats_from_lists_every_seat_once_in_turn_order_from_a_seat(make):
    p, st = state(make)
    assert local(p, st, "round") == [2, 0, 1]               # from the seat after the current one (1)


def test_a_tie_goes_to_the_first_seat_after_the_current_player_when_the_seats_are_listed_from_there(make):
    p, st = state(make)
    assert local(p, st, "after_me") == 2                    # seats 2 and 0 tie; seat 2 comes right after seat 1


def test_the_item_may_be_a_card_or_a_value_worked_out_from_it(make):
    p, st = state(make)
    assert p.type_names[p.card_type[local(p, st, "best_card")]] == "blue:3"
    assert local(p, st, "best_name") == "blue:3"
    assert local(p, st, "best_colour") == "blue"            # a card: its attributes can be read


def test_the_result_is_of_the_items_type_so_a_seat_names_a_players_zone(make):
    p, st = state(make)
    assert local(p, st, "strongest_holds") == 2             # seat 0 holds the most cards: 2


def test_by_stays_usable_as_a_name(make):
    p, st = state(make)
    assert local(p, st, "best_colour") == "blue"            # ranked by c.value * by, the variable


@pytest.mark.parametrize("rule, why", [
    ("highest(p for p in [] by p)", "its list is empty"),
    ("lowest(p for p in seats if power(p) > 10 by power(p))", "no item of its list passes its 'if'")])
def test_an_empty_list_is_an_error_at_the_rule(make, rule, why):
    p = make(edit(RANKED, "- let smallest_value", f"- let nobody = {rule}\n            - let smallest_value"), 3)
    with pytest.raises(RuleRuntimeError) as err:
        p.new_state(1)
    assert (err.value.pos.line, err.value.pos.col) == (37, 24)
    assert why in err.value.message and "has no item to pick" in err.value.message


# A trick of one card each: the highest card takes the trick; a tie goes to the first from the leader.
TRICKS = """
    name: tricks
    players: {min: 2, max: 4}
    cards:
      c:
        for: {colour: [red, blue], value: [1, 2, 3, 4, 5, 6]}
        name: "{colour}:{value}"
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each, visible: owner}
      played: {owner: each, visible: everyone}
      won: {owner: each, visible: everyone}
    vars:
      leader: {initial: 0}
    setup:
      - shuffle deck
      - deal 3 from deck to hand
    turn:
      steps:
        - step: play
          do:
            - choose: card
              cards: hand
              count: 1
            - move card to played
        - step: trick
          do:
            - if: all(count(played(p)) == 1 for p in seats)
              then:
                - let taker = highest(p for p in seats_from(leader) by first(played(p)).value)
                - move played(taker) to won(taker)
                - for: p in seats
                  do: ["move played(p) to won(taker)"]
                - set leader = taker
    end:
      when: count(hand) == 0 and all(count(played(p)) == 0 for p in seats)
    score: count(won)
"""


def test_a_trick_taken_by_the_highest_card_plays_replays_and_is_scored(write):
    game = load_game(write(TRICKS))
    record = make_record(game, 3, 5, [make_bot("greedy", 1), make_bot("random", 2), make_bot("greedy", 3)],
                         ["greedy", "random", "greedy"])
    assert replay(game, record) == record["result"]
    assert sum(record["result"]["scores"]) == 9             # every card played went to a trick's taker


@pytest.mark.parametrize("rule, col, message", [
    ("highest(c for c in hand(0) where colour == 'red' by c.value)", 27, "a 'where' needs brackets"),
    ("highest(c for c in hand(0) by c.value if c.value > 1)", 38, "'if' comes before 'by' in a generator"),
    ("highest(p in seats by power(p))", 19, "'by' ends a generator: write ITEM for NAME in LIST by NUMBER")])
def test_a_generator_written_out_of_order_is_an_error_saying_how_it_is_written(write, rule, col, message):
    from interpreter.errors import RulesetError
    path = write(edit(RANKED, "- let smallest_value", f"- let wrong = {rule}\n            - let smallest_value"))
    with pytest.raises(RulesetError) as err:
        load_game(path)
    (diag,) = err.value.diagnostics
    assert (diag.pos.line, diag.pos.col) == (37, 23 + col) and message in diag.message
