"""A move of a chosen or filtered set of cards (compiler/statements.py): one call that takes the
cards out of their zones, puts them on the destination and logs each group, when the destination
reads no zone; else the destination is worked out after the cards have left, as the rule says."""
from __future__ import annotations

from language_helpers import make, names, write  # noqa: F401  (fixtures)

MOVES = """
    name: moves
    players: {min: 2, max: 2}
    params:
      spots: [0, 1, 2, 3, 4]
    cards:
      n: {for: {v: [1, 2, 3, 4]}, name: "n{v}", start: hand}
    zones:
      hand: {visible: everyone}
      aside: {visible: everyone}
      pile: {per: spots, visible: everyone}
    turn:
      steps:
        - step: moves
          do:
            - move top of hand to aside
            - let picked = hand where v <= 3
            - move top of picked to aside
            - move picked to pile[1]
            - move pile[1] where v == 1 to pile[count(pile[1]) + 1]
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""


def test_a_set_from_several_zones_lands_group_by_group_in_one_call(make):
    p = make(MOVES)
    st = p.new_state(0, log=True)
    assert "E.move_cards(st, " in p.source      # pile[1] reads no zone
    moves = [e for e in st.log if e[0] == "move"]
    z = p.zone_names.index
    # picked is n1, n2 (still in the hand) and n3 (moved aside): one event per zone it comes from
    assert [(e[1], e[2], len(e[3])) for e in moves[2:4]] == [(z("hand"), z("pile[1]"), 2), (z("aside"), z("pile[1]"), 1)]
    assert names(p, st, "aside") == ["n4"]


def test_a_destination_that_reads_a_zone_is_worked_out_after_the_cards_have_left(make):
    p = make(MOVES)
    st = p.new_state(0)
    # pile[1] held n1, n2, n3; n1 left it, so count(pile[1]) + 1 is 3, not 4
    assert names(p, st, "pile[3]") == ["n1"] and names(p, st, "pile[4]") == []
    assert names(p, st, "pile[1]") == ["n2", "n3"]


def test_a_zone_of_a_family_picked_by_a_value_known_only_in_play_is_one_lookup(make):
    p = make(MOVES)
    # pile[count(pile[1]) + 1]: the table from index value to zone, read once (no sum beside it)
    assert "[(len(Z[" in p.source and " + K" not in p.source
    st = p.new_state(0)
    assert names(p, st, "pile[3]") == ["n1"]


def test_a_value_that_is_no_index_of_the_family_still_fails_naming_the_move(write):
    import pytest
    from interpreter.compiler.game import load_game
    from interpreter.errors import RuleRuntimeError
    path = write(MOVES.replace("to pile[count(pile[1]) + 1]", "to pile[count(pile[1]) + 9]"))
    with pytest.raises(RuleRuntimeError, match="failed") as exc:
        load_game(path).program(2).new_state(0)
    lines = MOVES.splitlines()
    assert exc.value.pos.line == 1 + next(i for i, line in enumerate(lines) if "count(pile[1]) + 1]" in line)
