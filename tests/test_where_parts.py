"""A `where` tests every card, but not every part of it needs the card: the compiler looks a part
that reads only the card's type up in a table made before the game, and works out a part that
reads no card once per filter. Neither may change a value or an error: these tests check both
against the cards themselves, on a small ruleset."""
from __future__ import annotations

import re
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as s

from interpreter.compiler import once, percard
from interpreter.compiler.codegen import CodeGen
from interpreter.compiler.game import load_game
from interpreter.errors import RuleRuntimeError, RulesetError
from language_helpers import edit, local, make, names, var, write  # noqa: F401

# the cards both test rulesets deal: 12 coloured, ranked cards (and each adds its jokers)
DECK = """    params:
      colours: [red, blue, green]
      spots: [1, 2, 3, 4]
    cards:
      c:
        for: {colour: colours, rank: [1, 2, 3, 4]}
        name: "{colour}:{rank}"
        attrs: {tags: "[colour, 'any']"}
        start: deck
"""

# 12 coloured cards (red:1 .. green:4, bottom to top) and 2 jokers on top, which have no colour or rank
WHERE = """
    name: where_parts
    players: {min: 2, max: 2}
""" + DECK + """      joker: {count: 2, start: deck, attrs: {tags: "[]"}}
    zones:
      deck: {visible: nobody}
      table: {}
      hand: {owner: each}
      pile: {per: spots}
    vars:
      zero: {initial: 0}
      wanted: {initial: "'blue'"}
      wanted_spots: {initial: "[1, 3]"}
    functions:
      lead: first(table).colour
      big(r): r >= 3
      three(x): x == 3
    setup:
      - move top 2 of deck to table
      - move top 6 of deck to hand(0)
      - for: s in spots
        do: ["move top of deck to pile[s]"]
    turn:
      steps:
        - step: main
          do:
            - let n_kind = count(hand(0) where kind == 'c')
            - let n_big = count(hand(0) where kind == 'c' and big(rank))
            - let n_lead = count(hand(0) where lead in tags)
            - let n_wanted = count(hand(0) where colour == wanted and rank > 1)
            - let lead_cards = hand(0) where colour == lead
            - let n_piles = sum(count(pile[s] where rank % 2 == 0) for s in spots)
            - let n_back = sum(count(pile[s] where rank % 2 == 0) for s in [3, 1, 3])
            - let n_nested = count(hand(0) where count(table where colour == wanted) == 0 and rank == 4)
            - let n_param = count(hand(0) where kind == 'c' and three(rank + zero))
            - let n_gen = count(hand(0) where any(s == 3 and rank == s for s in wanted_spots))
            - let some_even = sum(count(pile[s] where kind == 'c' and rank % 2 == 0) for s in spots) > 0
            - let no_even = 0 == sum(count(pile[s] where kind == 'c' and rank % 2 == 0) for s in spots)
            - let no_five = sum(count(pile[s] where kind == 'c' and rank == 5) for s in spots) < 1
            - let some_card = sum(count(pile[s]) for s in spots) >= 1
            - let some_odd = sum(count(pile[s] where rank % 2 == 1) for s in spots) != 0
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""


def cards_of(p, st, zone: str) -> list:
    """The attributes of a zone's cards, bottom to top."""
    z = p.zone_names.index(zone)
    return [p.type_attrs[p.card_type[c]] for c in st.zones[z]]


def test_the_deal_of_the_test_ruleset(make):
    p = make(WHERE)
    st = p.new_state(0)
    assert names(p, st, "table") == ["joker", "joker"]
    assert names(p, st, "hand(0)") == ["green:4", "green:3", "green:2", "green:1", "blue:4", "blue:3"]
    assert [names(p, st, f"pile[{s}]") for s in range(1, 5)] == [["blue:2"], ["blue:1"], ["red:4"], ["red:3"]]


def test_a_part_that_reads_only_the_card_type_is_one_lookup_and_counts_the_same(make):
    p = make(WHERE)
    st = p.new_state(0)
    hand = cards_of(p, st, "hand(0)")
    assert local(p, st, "n_kind") == sum(1 for a in hand if a["kind"] == "c") == 6
    assert local(p, st, "n_big") == sum(1 for a in hand if a["kind"] == "c" and a["rank"] >= 3) == 4
    assert "== 'c'" not in p.source         # no text compared per card


def test_a_part_that_reads_no_card_counts_the_same_as_testing_every_card(make):
    text = edit(WHERE, "      - move top 2 of deck to table\n",
                "      - move top 2 of deck to hand(1)\n      - move top of deck to table\n")
    p = make(text)
    st = p.new_state(0)
    lead = cards_of(p, st, "table")[0]["colour"]
    hand = cards_of(p, st, "hand(0)")
    assert local(p, st, "n_lead") == sum(1 for a in hand if lead in a["tags"]) == 3
    assert local(p, st, "n_wanted") == sum(1 for a in hand if a["colour"] == "blue" and a["rank"] > 1) == 3
    assert names(p, st, "table") == ["green:4"]
    assert [p.type_names[p.card_type[c]] for c in local(p, st, "lead_cards")] == \
        [n for n in names(p, st, "hand(0)") if n.startswith("green:")] == ["green:3", "green:2", "green:1"]


def test_a_part_that_reads_no_card_is_written_once_before_the_loop(make):
    p = make(WHERE)
    first = ("_h.first(Z[1])", "[Z[1][0]] if Z[1] else None")     # first(table), by a helper or read in place
    lead = [line for line in p.source.splitlines() if "n_lead" in line or any(f in line for f in first)]
    # lead = first(table).colour: worked out once, in a clause of its own or as the key of the row of
    # the cards that pass (`lead in tags`: helpers.Keyed), not in the test of each card
    # the row read once, before the cards (older and newer shapes), or the set of the cards that pass
    row = ("].__getitem__, Z[", " for _r", "].intersection(Z[")
    assert any(("for _x" in line or any(r in line for r in row)) and any(f in line for f in first) for line in lead)
    n_lead = next(line for line in lead if "n_lead" in line or any(r in line for r in row))
    assert " in K" not in n_lead            # no test of `in` per card
    assert not any("if (_h.attr(" in line for line in p.source.splitlines())


def test_a_part_that_reads_no_card_over_an_empty_zone_gives_what_it_gave(make):
    text = edit(WHERE, "      - move top 6 of deck to hand(0)\n", "")
    p = make(text)
    st = p.new_state(0)
    assert local(p, st, "n_lead") == local(p, st, "n_wanted") == local(p, st, "n_kind") == 0
    assert local(p, st, "lead_cards") == []


def test_a_part_that_reads_no_card_but_may_fail_fails_only_where_a_card_is_tested(make):
    # 10 / zero fails; the old code met it only for a card of the wanted colour, and so does the new
    text = edit(WHERE, "colour == wanted and rank > 1)", "colour == wanted and rank > 10 / zero)")
    p = make(edit(text, "wanted: {initial: \"'blue'\"}", "wanted: {initial: \"'yellow'\"}"))
    st = p.new_state(0)
    assert local(p, st, "n_wanted") == 0
    p = make(text)
    with pytest.raises(RuleRuntimeError, match="division by zero") as exc:
        p.new_state(0)
    assert exc.value.pos.line == text.count("\n", 0, text.index("let n_wanted")) + 1     # the rule that divides


def test_a_part_that_reads_only_the_card_type_but_fails_for_a_type_fails_only_for_its_cards(make):
    # a joker has no rank, so rank % 2 fails for it: the old code met that only for a joker it
    # tested, and so does the new (no table for that part); with the wanted colour first, never
    text = edit(WHERE, "      - move top 2 of deck to table\n", "")
    text = edit(text, "colour == wanted and rank > 1)", "colour == wanted and rank % 2 == 0)")
    p = make(text)
    st = p.new_state(0)
    assert names(p, st, "hand(0)")[:2] == ["joker", "joker"]
    assert local(p, st, "n_wanted") == 0            # no blue card in this hand
    p = make(edit(text, "colour == wanted and rank % 2 == 0)", "rank % 2 == 0 and colour == wanted)"))
    with pytest.raises(RuleRuntimeError, match="failed in turn 1"):
        p.new_state(0)


def test_a_count_over_known_zones_of_a_family_counts_every_value_of_the_list_as_it_comes(make):
    p = make(WHERE)
    st = p.new_state(0)
    piles = {s: cards_of(p, st, f"pile[{s}]") for s in range(1, 5)}
    even = {s: sum(1 for a in cs if a["rank"] % 2 == 0) for s, cs in piles.items()}
    assert local(p, st, "n_piles") == sum(even.values()) == 2
    assert local(p, st, "n_back") == even[3] + even[1] + even[3] == 3       # in any order, and again
    # the piles are zones 4 to 7: spots in order is their slice, [3, 1, 3] their indices
    assert "in Z[4:8]" in p.source and "map(Z.__getitem__" in p.source


def test_a_count_over_a_family_with_a_value_that_is_no_index_still_fails_as_it_runs(make):
    p = make(edit(WHERE, "for s in [3, 1, 3])", "for s in [3, 1, 9])"))
    with pytest.raises(RuleRuntimeError, match="failed"):
        p.new_state(0)


def test_a_filter_inside_a_where_tests_its_own_cards(make):
    text = edit(WHERE, "      - move top 2 of deck to table\n",
                "      - move top 2 of deck to hand(1)\n      - move top 4 of deck to table\n")
    p = make(text)
    st = p.new_state(0)
    table_blue = any(a["colour"] == "blue" for a in cards_of(p, st, "table"))
    hand = cards_of(p, st, "hand(0)")
    assert not table_blue
    assert local(p, st, "n_nested") == sum(1 for a in hand if a["rank"] == 4) == 2


def test_a_part_that_reads_a_name_bound_inside_the_test_stays_inside(make):
    # x (a function's parameter) and s (a loop inside the test) read no card, but are bound per card
    p = make(WHERE)
    st = p.new_state(0)
    hand = cards_of(p, st, "hand(0)")
    assert local(p, st, "n_param") == sum(1 for a in hand if a["rank"] == 3) == 2
    assert local(p, st, "n_gen") == sum(1 for a in hand if a["rank"] == 3) == 2


def test_whether_a_count_over_known_zones_is_zero_gives_what_the_count_gives(make):
    p = make(WHERE)
    st = p.new_state(0)
    assert [local(p, st, n) for n in ("some_even", "no_even", "no_five", "some_card", "some_odd")] == \
        [True, False, True, True, True]
    assert "any(map(len, " in p.source and ".isdisjoint(" in p.source     # stops at the first card that counts
    p = make(edit(WHERE, """      - for: s in spots
        do: ["move top of deck to pile[s]"]
""", ""))
    st = p.new_state(0)
    assert [local(p, st, n) for n in ("some_even", "no_even", "no_five", "some_card", "some_odd")] == \
        [False, True, True, False, False]


def test_whether_a_count_is_zero_still_tests_every_card_where_a_test_may_fail(make):
    # the piles hold joker, joker, green:4, green:3: rank % 2 fails for a joker, so the count
    # does not stop at green:4 (pile 3, first in the list) but meets the jokers, as before
    text = edit(WHERE, "      - move top 2 of deck to table\n", "")
    text = edit(text, "      - move top 6 of deck to hand(0)\n", "")
    text = edit(text, "let n_piles = sum(count(pile[s] where rank % 2 == 0) for s in spots)",
                "let n_piles = sum(count(pile[s] where rank % 2 == 0) for s in [3, 4, 1]) != 0")
    p = make(text)
    with pytest.raises(RuleRuntimeError, match="failed in turn 1") as exc:
        p.new_state(0)
    assert exc.value.pos.line == text.count("\n", 0, text.index("let n_piles")) + 1


# ---------------------------------------------------------------- against the plain code

PLAIN_CASE = """
    name: where_random
    players: {min: 2, max: 2}
""" + DECK + """      joker: {count: 2, start: deck}
    zones:
      deck: {visible: nobody}
      table: {}
      hand: {owner: each}
      pile: {per: spots}
    vars:
      zero: {initial: 0}
      wanted: {initial: "'blue'"}
    setup:
      - shuffle deck
      - move top of deck to table
      - move top 5 of deck to hand(0)
      - move top 3 of deck to hand(1)
      - for: s in spots
        do: ["move top of deck to pile[s]"]
    turn:
      steps:
        - step: main
          do:
            - let n = count(hand(0) where COND)
            - let some = count(hand(0) where COND) > 0
            - let picked = hand(0) where COND
            - let piles = sum(count(pile[s] where COND) for s in spots)
            - let none = sum(count(pile[s] where COND) for s in [4, 1, 3]) == 0
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""
# sides of a comparison, by kind: the card's own, card-free ones (some may fail), constants
NUMBERS = ["rank", "rank % 2", "rank + 1", "first(table).rank", "last(table).rank", "count(table)", "zero",
           "10 / zero", "count(hand(1))", "0", "1", "3"]
TEXTS = ["colour", "kind", "first(table).colour", "wanted", "'red'", "'blue'", "'c'", "'joker'"]
# lists of the attributes of cards: whole zones, filtered ones, one that reads the card tested
LISTS = ["table.colour", "hand(1).colour", "hand(1).rank", "(hand(1) where rank > 2).colour", "pile[2].kind",
         "(hand(1) where rank > 10 / zero).rank", "(table where colour == first(hand(1)).colour).rank",
         "(hand(1) where rank == 1 or colour in table.colour).colour"]


@s.composite
def condition(draw, depth: int = 0):
    """A random `where` condition mixing the card's attributes, card-free parts and constants."""
    if depth < 2 and draw(s.booleans()):
        op = draw(s.sampled_from(["and", "or"]))
        return f"({draw(condition(depth + 1))}) {op} ({draw(condition(depth + 1))})"
    pick = draw(s.integers(0, 6))
    if pick == 6:       # a membership in the attributes of a zone's cards (or of some of them)
        cards = draw(s.sampled_from(LISTS))
        return f"{draw(s.sampled_from(TEXTS + ['rank']))} {draw(s.sampled_from(['in', 'not in']))} {cards}"
    if pick == 0:
        return f"not ({draw(condition(depth + 1))})"
    if pick == 1:
        return f"{draw(s.sampled_from(TEXTS))} in tags"
    if pick == 2:
        return f"{draw(s.sampled_from(TEXTS))} {draw(s.sampled_from(['==', '!=']))} {draw(s.sampled_from(TEXTS))}"
    side = s.sampled_from(NUMBERS)
    return f"{draw(side)} {draw(s.sampled_from(['==', '!=', '<', '>=']))} {draw(side)}"


def outcome(path: str, seed: int, lets: tuple = ("n", "some", "picked", "piles", "none")):
    """The lets' values, or the error's text (position and message) if the rules fail."""
    try:
        game = load_game(path)
    except RulesetError:
        return None
    p = game.program(2)
    try:
        st = p.new_state(seed)
    except RuleRuntimeError as exc:
        return str(exc)
    return [local(p, st, name) for name in lets]


def plain_code(monkeypatch) -> None:
    """The code as it was before the rewrites: every part of a test worked out for every card."""
    monkeypatch.setattr(percard, "rewrite", lambda gen, e, env: None)
    monkeypatch.setattr(once, "repeated", lambda gen, e: [])
    monkeypatch.setattr(percard, "emptiness", lambda gen, e: None)
    monkeypatch.setattr(CodeGen, "zones_of", lambda self, g, cards, keep: None)


@settings(max_examples=60, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(cond=condition(), seed=s.integers(0, 3))
def test_a_random_where_gives_the_values_and_errors_of_the_plain_code(tmp_path_factory, cond, seed):
    path = tmp_path_factory.mktemp("where") / "rules.yaml"
    path.write_text(textwrap.dedent(PLAIN_CASE).replace("COND", cond), encoding="utf-8")
    fast = outcome(str(path), seed)
    with pytest.MonkeyPatch.context() as mp:
        plain_code(mp)
        plain = outcome(str(path), seed)
    assert fast == plain



SUMS = edit(WHERE, "            - {choose: go, options: {ok: {}}}\n",
            "            - let rank_sum = sum((hand(0) where kind == 'c' and big(rank)).rank)\n"
            "            - {choose: go, options: {ok: {}}}\n")


def test_a_count_over_a_type_only_where_looks_up_true_or_false_per_card(make):
    p = make(SUMS)
    st = p.new_state(0)
    assert local(p, st, "n_big") == 4 and type(local(p, st, "n_big")) is int
    slot = p.rules.slots.index("n_big")
    line = next(x.strip() for x in p.source.splitlines() if x.strip().startswith(f"V[{slot}] = "))
    # the zone's cards met with the set of the card ids that pass, in C (fewer instructions than a
    # comprehension or summing a map in CPython 3.11)
    assert re.fullmatch(rf"V\[{slot}\] = len\(K\d+\.intersection\(Z\[\d+\]\)\)", line), line


def test_a_sum_of_an_attribute_over_a_type_only_where_adds_the_cards_that_pass(make):
    p = make(SUMS)
    st = p.new_state(0)
    hand = cards_of(p, st, "hand(0)")
    assert local(p, st, "rank_sum") == sum(a["rank"] for a in hand if a["kind"] == "c" and a["rank"] >= 3) == 14
    assert type(local(p, st, "rank_sum")) is int


def test_a_sum_of_an_attribute_the_cards_that_pass_lack_fails_as_it_did(make):
    # the jokers on the table have no rank: summing it is an error at that rule, as before
    text = edit(SUMS, "            - {choose: go, options: {ok: {}}}\n",
                "            - let joker_ranks = sum((table where kind == 'joker').rank)\n"
                "            - {choose: go, options: {ok: {}}}\n")
    p = make(text)
    with pytest.raises(RuleRuntimeError) as err:
        p.new_state(0)
    lines = textwrap.dedent(text).splitlines()
    assert err.value.pos.line == next(i for i, line in enumerate(lines, 1) if "joker_ranks" in line)


def test_whether_a_type_only_where_has_a_card_in_one_zone_stops_at_the_first_card(make):
    # the hand holds green:4 .. green:1, blue:4, blue:3: some are big, none is a joker
    text = edit(WHERE, "            - {choose: go, options: {ok: {}}}\n",
                "            - let has_big = count(hand(0) where kind == 'c' and big(rank)) > 0\n"
                "            - let no_joker = count(hand(0) where kind == 'joker') == 0\n"
                "            - let has_joker = 0 < size(table where kind == 'joker')\n"
                "            - {choose: go, options: {ok: {}}}\n")
    p = make(text)
    st = p.new_state(0)
    assert [local(p, st, n) for n in ("has_big", "no_joker", "has_joker")] == [True, True, True]
    assert all(type(local(p, st, n)) is bool for n in ("has_big", "no_joker", "has_joker"))
    slot = p.rules.slots.index("has_big")
    line = next(x.strip() for x in p.source.splitlines() if x.strip().startswith(f"V[{slot}] = "))
    # the ids of the cards that pass, as a set the zone is asked against: no call per card, no list made
    assert line.startswith(f"V[{slot}] = (not K") and ".isdisjoint(Z[" in line


def test_whether_known_zones_hold_one_of_fewer_cards_than_zones_asks_where_those_cards_lie(make):
    text = edit(WHERE, "            - {choose: go, options: {ok: {}}}\n",
                "            - let g4_out = sum(count(pile[s] where colour == 'green' and rank == 4) for s in spots) == 0\n"
                "            - let r4_out = sum(count(pile[s] where colour == 'red' and rank == 4) for s in spots) == 0\n"
                "            - {choose: go, options: {ok: {}}}\n")
    p = make(text)
    st = p.new_state(0)
    piles = [a for z in p.zone_names if z.startswith("pile") for a in cards_of(p, st, z)]
    assert any(a.get("colour") == "red" and a.get("rank") == 4 for a in piles)      # red:4 was dealt to a pile
    assert not any(a.get("colour") == "green" and a.get("rank") == 4 for a in piles)    # green:4 to the hand
    assert (local(p, st, "g4_out"), local(p, st, "r4_out")) == (True, False)
    assert p.source.count("_h.none_lying(") >= 2       # one card passes, four zones: where it lies
    p = make(edit(text, """      - for: s in spots
        do: ["move top of deck to pile[s]"]
""", ""))
    st = p.new_state(0)
    assert (local(p, st, "g4_out"), local(p, st, "r4_out")) == (True, True)


def test_a_trigger_that_asks_whether_known_zones_hold_a_card_does_not_count_the_cards_being_taken(make):
    # slot[1]'s trigger runs while the gem taken from it is out of every zone: no slot holds it then
    p = make("""
        name: limbo
        players: {min: 2, max: 2}
        params:
          spots: [1, 2, 3]
        cards:
          gem: {count: 1, start: box, attrs: {shiny: "true"}}
          rock: {count: 4, start: box, attrs: {shiny: "false"}}
        zones:
          box: {visible: everyone}
          slot: {per: spots, visible: everyone, on_empty: ["set gone = sum(count(slot[s] where shiny) for s in spots) == 0"]}
          hand: {owner: each, visible: everyone}
        vars:
          gone: {initial: "false"}
        setup:
          - move box where shiny to slot[1]
          - move top 2 of slot[1] to hand(0)
          - let asked = sum(count(slot[s] where shiny) for s in spots) == 0
        turn:
          steps:
            - step: wait
              do: [{choose: go, options: {ok: {}}}]
        end: {when: "turn >= 1"}
        score: 0
    """)
    st = p.new_state(0)
    assert var(p, st, "gone") is True and local(p, st, "asked") is True
    assert len(st.zones[p.zone_names.index("hand(0)")]) == 1


def test_asking_first_where_the_card_found_last_time_lies_changes_no_answer():
    from interpreter.runtime.helpers import Helpers
    zones, cards, loc, hint = frozenset({3, 4}), (0, 1, 2), [1, 4, 3], [0]
    assert Helpers.none_lying(zones, cards, loc, hint) is False and hint == [1]     # card 1 lies in zone 4
    loc[1] = 0                                                                      # it left: the hint is stale
    assert Helpers.none_lying(zones, cards, loc, hint) is False and hint == [2]     # card 2 still lies in zone 3
    loc[2] = 0
    assert Helpers.none_lying(zones, cards, loc, hint) is True
