"""Procedures with parameters, and functions over zones and cards (docs/language.md §6.9 and §7,
"call"): each rule sentence of the manual, with a tiny ruleset of its own."""
from __future__ import annotations

import pytest

from interpreter.compiler.game import load_game
from interpreter.errors import RulesetError
from interpreter.seats.registry import make_bot
from interpreter.tools.records import make_record, replay
from language_helpers import do, edit, errors_of, make, names, texts, var, write  # noqa: F401

GIVE = """
    name: give
    players: {min: 2, max: 3}
    cards:
      n:
        for: {rank: [1, 2, 3, 4, 5, 6, 7, 8]}
        name: "n{rank}"
        attrs: {value: rank}
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each}
      pile: {}
    vars:
      got: {initial: 0, owner: each}
    functions:
      points(z): sum(z.value)
      high(z, n): count(z where value >= n)
    procedures:
      give(p, n):
        - move top n of deck to hand(p)
        - set got(p) = got(p) + n
      drop(p, keep):
        - choose: c
          by: p
          cards: hand(p) where value != keep
          count: 1
        - move c to pile
    setup:
      - call give(0, 2)
      - call give(next(0), 3)
    turn:
      steps:
        - call drop(current, 99)
    end:
      when: count(pile) >= 4
    score: points(hand(me))
"""


def test_a_procedure_runs_with_the_arguments_of_its_call(make):
    p = make(GIVE)
    st = p.new_state(0)
    # deck bottom to top is n1 .. n8, dealt from the top
    assert names(p, st, "hand(0)") == ["n8", "n7"]
    assert names(p, st, "hand(1)") == ["n6", "n5", "n4"]
    assert var(p, st, "got", 0) == 2 and var(p, st, "got", 1) == 3


def test_a_decision_inside_a_procedure_reads_its_arguments(make):
    p = make(GIVE)
    st = p.new_state(0)
    assert st.pending.name == "c" and st.decider == 0
    assert sorted(texts(p, st)) == ["c: 1*n7", "c: 1*n8"]
    do(p, st, "c: 1*n8")
    assert names(p, st, "pile") == ["n8"]
    assert st.decider == 1 and sorted(texts(p, st)) == ["c: 1*n4", "c: 1*n5", "c: 1*n6"]


def test_a_procedures_arguments_survive_a_pause_and_a_clone(make):
    text = edit(GIVE, "- call drop(current, 99)", "- call drop(current, first(hand(current)).value)")
    p = make(text)
    st = p.new_state(0)
    copy = st.clone()
    p.new_state(1)          # another game in between shares no argument with this one
    assert texts(p, copy) == texts(p, st) == ["c: 1*n7"]     # n8 is the card kept
    do(p, copy, "c: 1*n7")
    assert names(p, copy, "pile") == ["n7"] and names(p, st, "pile") == []


def test_a_game_with_procedure_arguments_replays_from_its_record(write):
    game = load_game(write(GIVE))
    bots = lambda: [make_bot("random", 1), make_bot("greedy", 2)]
    record = make_record(game, 2, 5, bots(), ["random", "greedy"])
    assert replay(game, record) == record["result"]
    assert make_record(game, 2, 5, bots(), ["random", "greedy"]) == record


def test_a_function_takes_a_zone(make):
    text = edit(GIVE, "- call drop(current, 99)", "- call drop(current, 99)\n        - set got(current) = "
                "points(hand(current)) * 100 + high(hand(current), 5)")
    p = make(text)
    st = p.new_state(0)
    do(p, st, "c: 1*n8")
    assert var(p, st, "got", 0) == 700 + 1     # n7 left: 7 points, one card of 5 or more


def test_a_function_takes_cards(make):
    text = edit(GIVE, "- call drop(current, 99)", "- call drop(current, 99)\n        - set got(current) = "
                "points(hand(next(current)) where value < 6) + points(pile)")
    p = make(text)
    st = p.new_state(0)
    do(p, st, "c: 1*n8")
    assert var(p, st, "got", 0) == 4 + 5 + 8


def test_a_parameter_given_a_zone_in_one_call_and_cards_in_another_holds_cards(make):
    text = edit(GIVE, "score: points(hand(me))", "score: points(hand(me)) + points(pile where value > 4)")
    p = make(text)
    z = p.rules.functions["points"].body.args[0].obj        # the z of sum(z.value)
    assert z.type == "cards"
    st = p.new_state(0)
    do(p, st, "c: 1*n8")
    # seat 0 holds n7 (7), the pile n8 (8 > 4); seat 1 holds n6, n5, n4 (15)
    assert [p.ranking_key(st, seat)[0] for seat in (0, 1)] == [7 + 8, 15 + 8]



def test_a_call_with_too_few_arguments_is_an_error_at_the_call(write):
    text = edit(GIVE, "- call give(0, 2)", "- call give(0)")
    assert errors_of(write, text) == [(30, 10, "procedure 'give' takes 2 argument(s), not 1")]


def test_a_function_call_with_too_many_arguments_is_an_error_at_the_call(write):
    text = edit(GIVE, "score: points(hand(me))", "score: points(hand(me), 2)")
    assert errors_of(write, text) == [(37, 8, "function 'points' takes 1 argument(s), not 2")]


def test_a_zone_given_to_a_procedure_is_an_error(write):
    text = edit(GIVE, "- call drop(current, 99)", "- call drop(hand, 99)")
    assert errors_of(write, text) == [
        (34, 17, "a procedure's parameter holds a value, a player or cards, not a zone ('p')")]


def test_a_parameter_given_two_kinds_of_value_is_an_error_at_the_second_call(write):
    text = edit(GIVE, "- call give(next(0), 3)", "- call give(next(0), 'three')")
    [(line, col, message)] = errors_of(write, text)
    assert (line, col) == (31, 24)
    assert message.startswith("procedure 'give' is given a text for 'n' here, but a number at ")


def test_a_body_that_does_not_fit_what_its_calls_pass_is_an_error_in_the_body(write):
    text = edit(GIVE, "score: points(hand(me))", "score: points(3)")
    assert errors_of(write, text) == [(17, 20, "'.value' needs a card or cards, but this is a number")]


def test_the_hint_of_an_attribute_of_no_card_names_the_attribute(write):
    text = edit(GIVE, "score: points(hand(me))", "score: points(3)")
    with pytest.raises(RulesetError) as exc:
        load_game(write(text))
    assert exc.value.diagnostics[0].hint == "attributes belong to cards, e.g. first(hand).value or hand.value"


def test_a_procedure_that_calls_itself_with_arguments_is_an_error(write):
    text = edit(GIVE, "        - set got(p) = got(p) + n", "        - call give(next(p), n)")
    [(line, col, message)] = errors_of(write, text)
    assert line == 22 and message == "procedure 'give' calls itself"


STASH = """
    name: stash
    players: {min: 2, max: 2}
    cards:
      n:
        for: {rank: [1, 2, 3, 4, 5, 6]}
        name: "n{rank}"
        attrs: {value: rank}
        start: deck
    zones:
      deck: {}
      hand: {owner: each}
      pile: {}
    procedures:
      stash(cs):
        - move cs to pile
    setup:
      - move deck to hand
      - call stash(hand where value > 4)
    turn:
      steps: ["end game"]
    end:
      when: false
    score: 0
"""


def test_a_procedure_takes_cards(make):
    p = make(STASH)
    st = p.new_state(0)
    assert names(p, st, "pile") == ["n5", "n6"] and names(p, st, "hand(0)") == ["n1", "n2", "n3", "n4"]


def test_the_cards_a_procedure_is_given_reach_where_it_moves_them(make):
    from interpreter.compiler.reach import zone_types
    p = make(STASH)
    pile = zone_types(p)[p.zone_names.index("pile")]
    assert {p.type_names[t] for t in pile} == {"n5", "n6"}     # the filter narrows them


def test_cards_a_procedure_moves_count_as_entering_their_zone_for_the_linter(write):
    from interpreter.frontend.lint import lint_file
    assert [w.code for w in lint_file(write(STASH))] == ["score-never-changes"]      # score: 0, and nothing else


def test_a_name_bound_inside_a_procedure_must_differ_from_its_parameters(write):
    text = edit(GIVE, "        - set got(p) = got(p) + n", "        - for: n in [1, 2]\n          do: [\"set got(p) = n\"]")
    assert errors_of(write, text) == [(22, 12, "'n' is a parameter of procedure 'give'; a name bound by let, for "
                                               "or choose must differ")]


def test_a_generator_name_inside_a_function_must_differ_from_its_parameters(write):
    text = edit(GIVE, "high(z, n): count(z where value >= n)", "high(z, n): count(n for n in z)")
    [(line, _, message)] = errors_of(write, text)
    assert line == 18 and message.startswith("'n' is a parameter of function 'high'")
