"""The legal moves of a choose, generated as one function per decision (compiler/choices.py): a
value's `where` and a card choice's `where` are tested per value or card inside that function,
the zone a constant value picks is worked out once, and a repeated value is one move."""
from __future__ import annotations

import textwrap

import pytest

from helpers import do, texts
from interpreter.compiler.codegen import CodeGen
from interpreter.errors import RuleRuntimeError
from language_helpers import local, make, names, write  # noqa: F401  (fixtures)

GRID = """
    name: grid
    players: {min: 2, max: 2}
    params:
      spots: [1, 2, 3, 4]
    cards:
      tile: {for: {n: [1, 2, 3, 4]}, name: "t{n}", start: stock}
    zones:
      stock: {visible: everyone}
      cell: {per: spots, visible: everyone}
      out: {visible: everyone}
    setup:
      - for: s in [1, 3]
        do: ["move top of stock to cell[s]"]
    turn:
      steps:
        - step: pick
          do:
            - choose: spot
              from: spots
              where: count(cell[spot]) > 0
            - move cell[spot] to out
            - choose: again
              from: "[3, 1, 3, current + 5, 1]"
              where: again != 1
            - choose: tile
              cards: stock
              where: n >= 3 - count(out)
              count: 1
            - move tile to out
    end: {when: "count(stock) == 0 or turn >= 2"}
    score: 0
"""


def test_a_value_choice_offers_each_value_its_where_allows(make):
    p = make(GRID)
    st = p.new_state(0)
    assert texts(p, st) == ["spot: 1", "spot: 3"]       # the cells holding a card, in the list's order


def test_a_value_choice_reads_the_zone_its_value_picks_as_the_game_stands(make):
    p = make(GRID)
    st = p.new_state(0)
    do(p, st, "spot: 3")
    assert names(p, st, "out") == ["t3"]
    st2 = p.new_state(0)
    st2.zones[p.zone_names.index("cell[1]")].clear()   # the same choice on another table
    assert texts(p, st2) == ["spot: 3"]


def test_a_repeated_value_of_a_list_the_game_builds_is_one_move(make):
    p = make(GRID)
    st = p.new_state(0)
    do(p, st, "spot: 1")
    assert texts(p, st) == ["again: 3", "again: 5"]     # 3 twice is one move; 1 is not allowed
    do(p, st, "again: 5")
    assert local(p, st, "again") == 5


def test_a_card_choice_tests_its_where_on_each_card_as_the_game_stands(make):
    p = make(GRID)
    st = p.new_state(0)
    do(p, st, "spot: 1")
    do(p, st, "again: 3")
    # the setup laid t4 on cell 1 and t3 on cell 3; one card out: n >= 2 among t1 and t2 left
    assert texts(p, st) == ["tile: 1*t2"]
    do(p, st, "tile: 1*t2")
    assert names(p, st, "out") == ["t4", "t2"]


def test_an_error_in_a_values_where_names_that_where(make):
    text = GRID.replace("where: count(cell[spot]) > 0", "where: 12 / (spot - 3) > 0")
    p = make(text)
    st = p.new_state(0)
    with pytest.raises(RuleRuntimeError) as err:
        p.legal_moves(st)
    assert "division by zero" in str(err.value)
    lines = textwrap.dedent(text).splitlines()
    assert err.value.pos.line == next(i for i, line in enumerate(lines, 1) if "12 / (spot - 3)" in line)


def test_too_many_distinct_values_is_an_error_naming_the_choice(write):
    from interpreter.compiler.game import load_game
    from interpreter.runtime.engine import Limits
    path = write(GRID.replace('"[3, 1, 3, current + 5, 1]"', "numbers(current + 12)"))
    p = load_game(path, limits=Limits(moves=10)).program(2)
    st = p.new_state(0)
    do(p, st, "spot: 1")
    with pytest.raises(RuleRuntimeError) as err:
        p.legal_moves(st)
    assert "decision 'again' would have 12 legal moves" in str(err.value)   # counted before the where


ENDS = """
    name: ends
    players: {min: 2, max: 2}
    params:
      piles: [a, b]
    cards:
      chip: {count: 4, start: bank}
    zones:
      bank: {visible: everyone}
      pile: {per: piles, visible: everyone}
      side: {visible: everyone}
    turn:
      steps:
        - step: take
          do: ["move top of bank to pile['a']"]
        - step: aside
          do: ["move top of side to side"]
        - step: wait
          do: [{choose: go, options: {ok: {}}}]
    end: {when: "any(count(pile[x]) >= 3 for x in piles)"}
    score: 0
"""


def test_the_end_check_is_left_out_after_a_step_that_cannot_change_it(make):
    # `x` is the condition's own name: it does not make every step a possible end, so the steps
    # are checked as often as with the condition written out pile by pile (after `take` only)
    p = make(ENDS)
    spelled = make(ENDS.replace("any(count(pile[x]) >= 3 for x in piles)",
                                "count(pile['a']) >= 3 or count(pile['b']) >= 3"))
    assert p.source.count("st.ending = True") == spelled.source.count("st.ending = True")
    moved = make(ENDS.replace("move top of side to side", "move top of bank to pile['b']"))
    assert moved.source.count("st.ending = True") > p.source.count("st.ending = True")
    st = p.new_state(0)
    for _ in range(2):
        assert not st.over
        do(p, st, "ok")
    assert st.over and st.turn == 3         # the third chip on pile a ends the game in turn 3


def test_a_value_choice_keeps_the_order_of_its_list_over_a_family_in_another_order(make):
    p = make(GRID.replace("from: spots\n", "from: '[4, 3, 2, 1]'\n"))
    st = p.new_state(0)
    assert texts(p, st) == ["spot: 3", "spot: 1"]


def test_a_count_of_a_zone_compared_with_zero_is_true_or_false(make):
    text = GRID.replace('        do: ["move top of stock to cell[s]"]\n',
                        '        do: ["move top of stock to cell[s]"]\n'
                        '      - let some = count(cell[1]) > 0\n'
                        '      - let none = 0 == count(cell[2])\n'
                        '      - let few = count(stock where n > 1) >= 1\n')
    p = make(text)
    st = p.new_state(0)
    assert [local(p, st, k) for k in ("some", "none", "few")] == [True, True, True]
    assert all(type(local(p, st, k)) is bool for k in ("some", "none", "few"))


def test_a_where_that_first_asks_for_a_card_in_the_values_zone_tests_the_rest_only_there(make):
    # cells 1 and 3 hold a card; cell 2 is empty, so 12 / (spot - 2) is never worked out for it,
    # as `and` says: the moves are those of the where written out value by value
    p = make(GRID.replace("where: count(cell[spot]) > 0", "where: count(cell[spot]) > 0 and 12 / (spot - 2) > 0"))
    st = p.new_state(0)
    assert texts(p, st) == ["spot: 3"]          # 12 / -1 is not > 0
    both = make(GRID.replace("where: count(cell[spot]) > 0", "where: count(cell[spot]) > 0 and spot != 2"))
    assert texts(both, both.new_state(0)) == ["spot: 1", "spot: 3"]


def test_a_where_that_asks_for_a_card_lists_the_values_in_order_as_the_zones_fill_and_empty(make):
    p = make(GRID.replace("from: spots\n", "from: '[1, 2, 3, 4, 1]'\n"))
    st = p.new_state(0)
    assert texts(p, st) == ["spot: 1", "spot: 3"]       # 1 twice is one move
    z = p.zone_names.index
    st.zones[z("cell[4]")].append(st.zones[z("stock")].pop())
    st.zones[z("cell[1]")].clear()
    assert texts(p, st) == ["spot: 3", "spot: 4"]


def test_an_error_in_the_rest_of_a_where_that_asks_for_a_card_names_that_where(make):
    text = GRID.replace("where: count(cell[spot]) > 0", "where: count(cell[spot]) > 0 and 12 / (spot - 3) > 0")
    p = make(text)
    with pytest.raises(RuleRuntimeError) as err:
        p.legal_moves(p.new_state(0))
    assert "division by zero" in str(err.value)
    lines = textwrap.dedent(text).splitlines()
    assert err.value.pos.line == next(i for i, line in enumerate(lines, 1) if "12 / (spot - 3)" in line)


# a value's `where` testing membership in a list the rules keep: the list read once per listing
PICKED = GRID.replace("""      - for: s in [1, 3]
        do: ["move top of stock to cell[s]"]
""", """      - for: s in [1, 3]
        do: ["move top of stock to cell[s]"]
      - let taken = TAKEN
""").replace("where: count(cell[spot]) > 0", "where: count(cell[spot]) > 0 and spot not in taken") \
    .replace("where: again != 1", "where: again in taken or again == 5")


def test_a_values_where_that_tests_membership_in_a_list_offers_the_values_outside_it(make, monkeypatch):
    texts_made = []
    compile_text = CodeGen.compile_text
    monkeypatch.setattr(CodeGen, "compile_text", lambda self, text, *a: texts_made.append(text) or compile_text(self, text, *a))
    p = make(PICKED.replace("TAKEN", "[3, 4]"))
    # the list made a set once, before the loop over the values
    assert any("_h.members(" in t and t.index("_h.members(") < t.index(" for _v") for t in texts_made)
    st = p.new_state(0)
    assert texts(p, st) == ["spot: 1"]
    do(p, st, "spot: 1")
    assert texts(p, st) == ["again: 3", "again: 5"]


def test_membership_in_a_list_holding_lists_answers_as_before(make):
    # a list that holds a list is no set: it is tested value by value, as `in` always did (a value
    # whose kind shows only as the game runs: the checker lets it stand right of `in`)
    p = make(PICKED.replace("TAKEN", "[[[1], 3], 'a3', 3][0]"))
    assert texts(p, p.new_state(0)) == ["spot: 1"]


@pytest.mark.parametrize("pick", [1, 2], ids=["a text", "a number"])
def test_membership_of_a_number_in_a_text_or_a_number_fails_at_that_where(make, pick):
    text = PICKED.replace("TAKEN", f"[[[1], 3], 'a3', 3][{pick}]")
    p = make(text)
    with pytest.raises(RuleRuntimeError) as err:
        p.legal_moves(p.new_state(0))
    lines = textwrap.dedent(text).splitlines()
    assert err.value.pos.line == next(i for i, line in enumerate(lines, 1) if "spot not in taken" in line)
