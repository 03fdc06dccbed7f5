"""A `where` that compares a card's type attribute with a value read once (`wanted in shades`,
`colour == wanted`) is worked out as a row per value (runtime.helpers.Keyed): the same cards, the
same counts, and the same error where a card's test fails."""
from __future__ import annotations

import pytest

from helpers import do
from interpreter.errors import RuleRuntimeError
from language_helpers import edit, make, names, var, write  # noqa: F401  (fixtures)

KEYED = """
    name: keyed
    players: {min: 2, max: 2}
    params:
      colours: [red, blue]
    cards:
      chip:
        for: {colour: colours}
        name: "{colour}"
        count: 2
        attrs: {shades: "[colour, 'grey']"}
        start: bank
    zones:
      bank: {visible: everyone}
      hand: {owner: each, visible: everyone}
    vars:
      wanted: {initial: "'red'"}
      seen: {initial: 0}
      pair: {initial: "['blue', 'grey']"}
      paired: {initial: 0}
    turn:
      steps:
        - step: play
          do:
            - set seen = count(bank where wanted in shades)
            - set paired = count(bank where shades == pair)
            - choose: take
              cards: bank where colour == wanted
              count: 1
            - move take to hand
            - if: count(bank where colour == wanted) == 0
              then: ["set wanted = 'blue'"]
    end: {when: "count(bank) == 0"}
    score: count(hand)
"""


def test_a_where_comparing_with_a_value_read_once_counts_and_offers_the_cards_that_pass(make):
    p = make(KEYED)
    assert "Keyed" not in p.source and ".row(" in p.source     # the list `pair` is no key: its row made each time
    st = p.new_state(0)
    assert var(p, st, "seen") == 2 and var(p, st, "paired") == 2
    assert [p.move_text(st, m) for m in p.legal_moves(st)] == ["take: 1*red"]
    do(p, st, "take: 1*red")
    assert var(p, st, "seen") == 1 and names(p, st, "hand(0)") == ["red"]
    do(p, st, "take: 1*red")
    assert var(p, st, "wanted") == "blue" and var(p, st, "seen") == 2     # a new value, its own row
    assert [p.move_text(st, m) for m in p.legal_moves(st)] == ["take: 1*blue"]


def test_a_card_whose_test_fails_fails_the_rule_only_when_it_is_tested(make):
    text = edit(KEYED, "      hand: {owner: each, visible: everyone}",
                "      hand: {owner: each, visible: everyone}\n      box: {visible: everyone}")
    text = edit(text, "    zones:", "      odd:\n        count: 1\n        attrs: {shades: 5}\n        start: box\n    zones:")
    p = make(text)
    st = p.new_state(0)          # the odd card lies in box, where no test reads it
    assert var(p, st, "seen") == 2
    odd = st.zones[p.zone_names.index("box")][0]
    st.zones[p.zone_names.index("box")].remove(odd)
    st.zones[p.zone_names.index("bank")].append(odd)
    st.loc[odd] = p.zone_names.index("bank")
    with pytest.raises(RuleRuntimeError) as err:
        do(p, st, "take: 1*red")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "set seen" in row)
    assert err.value.pos.line == line           # the rule of the count that tests the card
    assert "a value was used where it does not fit" in str(err.value)


def test_a_chosen_move_from_a_filtered_zone_binds_the_topmost_cards_of_its_types_in_that_zone(make):
    p = make(KEYED)
    st = p.new_state(0)
    bank = p.zone_names.index("bank")
    reds = [c for c in st.zones[bank] if p.type_names[p.card_type[c]] == "red"]
    assert p.decisions[0].cards.candidates(st) is st.zones[bank]    # the filter is not run again to bind
    do(p, st, "take: 1*red")
    assert st.zones[p.zone_names.index("hand(0)")] == [reds[-1]]    # the topmost red


def test_a_row_with_a_failing_card_counts_the_other_cards_and_fails_where_that_card_is_met():
    from interpreter.runtime.helpers import Failing, FailingIds
    ids = FailingIds([True, Failing(ZeroDivisionError("division by zero")), False, True, True])
    assert len(ids.intersection([4, 0, 2])) == 2 and len(ids.intersection([])) == 0
    with pytest.raises(ZeroDivisionError, match="division by zero"):
        ids.intersection([0, 3, 1])
