"""Zones together: `hand + won` is the cards of both zones as one list, read wherever a zone's cards
are read (count, sum, where, any/all, generators, in, first), and never a place cards go to."""
from __future__ import annotations

import re

import pytest

from interpreter.compiler.reads import Reads
from interpreter.errors import RulesetError
from language_helpers import edit, ids, local, make, names, ok, write  # noqa: F401

# Seat 0 holds red:1, red:2, blue:3 and has won blue:1; seat 1 holds blue:2 and has won red:3.
TOGETHER = """
    name: together
    players: {min: 2, max: 2}
    cards:
      c:
        for: {colour: [red, blue], value: [1, 2, 3]}
        name: "{colour}:{value}"
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each, visible: owner}
      won: {owner: each, visible: everyone}
    vars:
      done: {initial: 0}
    setup:
      - move deck where name == 'red:1' or name == 'red:2' or name == 'blue:3' to hand(0)
      - move deck where name == 'blue:1' to won(0)
      - move deck where name == 'blue:2' to hand(1)
      - move deck where name == 'red:3' to won(1)
    turn:
      steps:
        - step: main
          do:
            - let n_mine = count(hand + won)
            - let n_other = count(hand(1) + won(1))
            - let total = sum((hand + won).value)
            - let reds = count((hand + won) where colour == 'red')
            - let colour_wanted = 'blue'
            - let wanted = count((hand + won) where colour == colour_wanted)
            - let has_three = any(c.value == 3 for c in hand + won)
            - let all_small = all(c.value < 3 for c in hand(1) + won(1))
            - let red_total = sum(c.value for c in hand + won if c.colour == 'red')
            - let won_card_in = first(won) in hand + won
            - let bottom_name = first(hand + won).name
            - let held = hand where value > 1
            - let n_held = count(held + won)
            - choose: go
              options: {ok: {}}
            - set done = 1
    end:
      when: done == 1
    score: count((hand + won) where colour == 'red')
"""


def test_zones_joined_with_plus_are_counted_together(make):
    p = make(TOGETHER)
    st = p.new_state(1)
    assert local(p, st, "n_mine") == 4 and local(p, st, "n_other") == 2


def test_cards_kept_in_a_name_join_a_zone(make):
    p = make(TOGETHER)
    st = p.new_state(1)
    assert local(p, st, "n_held") == 3          # red:2 and blue:3 kept, blue:1 won


def test_the_values_of_zones_joined_are_summed(make):
    p = make(TOGETHER)
    st = p.new_state(1)
    assert local(p, st, "total") == 1 + 2 + 3 + 1


def test_a_where_over_zones_joined_keeps_the_cards_of_both_that_pass(make):
    p = make(TOGETHER)
    st = p.new_state(1)
    assert local(p, st, "reds") == 2            # red:1 and red:2 in the hand, none won
    assert local(p, st, "wanted") == 2          # blue:3 in the hand and blue:1 won (a test read per card)


def test_any_all_and_generators_go_over_the_cards_of_both_zones(make):
    p = make(TOGETHER)
    st = p.new_state(1)
    assert local(p, st, "has_three") is True
    assert local(p, st, "all_small") is False   # red:3 is among seat 1's won cards
    assert local(p, st, "red_total") == 3


def test_in_and_first_read_zones_joined_in_order_first_zone_first(make):
    p = make(TOGETHER)
    st = p.new_state(1)
    assert local(p, st, "won_card_in") is True
    assert local(p, st, "bottom_name") == "red:1"    # the hand's bottom card comes before the won cards


def test_the_score_may_count_zones_joined(make):
    p = make(TOGETHER)
    st = p.new_state(1)
    assert [p.score(st, s) for s in (0, 1)] == [2, 1]


def test_a_type_only_where_over_zones_joined_is_still_a_table_lookup(make):
    p = make(TOGETHER)
    slot = p.rules.slots.index("reds")
    line = next(x.strip() for x in p.source.splitlines() if x.strip().startswith(f"V[{slot}] = "))
    # a table lookup per card over both zones, no text compared per card
    assert re.fullmatch(rf"V\[{slot}\] = len\(\[(_c\d+) for \1 in .+ if K\d+\[\1\]\]\)", line) and "'red'" not in line


def test_cards_moved_from_zones_joined_leave_both_zones(make):
    p = make(edit(TOGETHER, "- set done = 1", "- move (hand + won) where colour == 'blue' to deck\n"
                  "            - set done = 1"))
    st = p.new_state(1)
    ok(p, st)
    assert names(p, st, "hand(0)") == ["red:1", "red:2"] and names(p, st, "won(0)") == []
    assert sorted(names(p, st, "deck")) == ["blue:1", "blue:3"]


@pytest.mark.parametrize("statement, col", [("move top of deck to hand + won", 31),
                                             ("shuffle hand + won", 19),
                                             ("deal 1 from hand + won to hand", 23)])
def test_zones_joined_are_not_a_place_cards_go_to(write, statement, col):
    from interpreter.compiler.game import load_game
    path = write(edit(TOGETHER, "- set done = 1", f"- {statement}\n            - set done = 1"))
    with pytest.raises(RulesetError) as err:
        load_game(path)
    diag = err.value.diagnostics[0]
    assert "zones joined with '+' are their cards to read" in diag.message
    assert "write a move for each" in diag.hint
    assert (diag.pos.line, diag.pos.col) == (39, col)
    assert len(err.value.diagnostics) == 1


def test_a_count_of_zones_joined_reads_no_face_but_a_value_of_them_reads_both(make):
    p = make(TOGETHER)
    reads = Reads(p)
    steps = p.rules.steps[0].body
    count, total = steps[0].value, steps[2].value
    assert reads.faces(count, 0) == frozenset()
    hand0, won0 = p.zone_names.index("hand(0)"), p.zone_names.index("won(0)")
    assert reads.faces(total, 0) == {hand0, won0}
    assert not reads.known_to(total, 0, 1)      # seat 1 does not see seat 0's hand


def test_a_count_of_zones_joined_adds_their_sizes_without_joining_them(make):
    p = make(TOGETHER)
    slot = p.rules.slots.index("n_mine")
    line = next(x.strip() for x in p.source.splitlines() if x.strip().startswith(f"V[{slot}] = "))
    assert line.count("len(") == 2 and " + Z[" not in line
