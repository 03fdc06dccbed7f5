"""A derived value (a function without parameters) that one expression reads more than once is
worked out once for that expression (compiler/once.py); a list of the attributes of a zone's cards
that a `where` reads is worked out once per filter, and a membership in it is one lookup per card
(compiler/percard.py). Neither may change a value or an error: these tests check both against the
code that works everything out where it is read."""
from __future__ import annotations

import re

import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as s

from interpreter.compiler import once, percard
from interpreter.compiler.codegen import CodeGen
from interpreter.errors import RuleRuntimeError
from language_helpers import edit, local, make, write  # noqa: F401
from test_where_parts import outcome

NAMED = """
    name: named_once
    players: {min: 2, max: 2}
    params:
      colours: [red, blue, green]
    cards:
      c:
        for: {colour: colours, rank: [1, 2, 3, 4]}
        name: "{colour}:{rank}"
        start: deck
      joker: {count: 2, start: deck}
    zones:
      deck: {visible: nobody}
      table: {}
      hand: {owner: each}
    vars:
      zero: {initial: 0}
    functions:
      matching: count(hand(0) where colour in table.colour)
      others: count(hand(0)) - matching
      risky: count(hand(0)) / zero
      has(x): count(hand(0) where colour == x)
    setup:
      - move top 2 of deck to table
      - move top 6 of deck to hand(0)
    turn:
      steps:
        - step: main
          do:
            - let value = VALUE
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""


def value_line(p) -> str:
    """The generated line that sets the let `value`."""
    slot = p.rules.slots.index("value")
    return next(x.strip() for x in p.source.splitlines() if x.strip().startswith(f"V[{slot}] = "))


def plain_code(monkeypatch) -> None:
    """The code as it was before: every value worked out where it is read, every part per card."""
    monkeypatch.setattr(once, "repeated", lambda gen, e: [])
    monkeypatch.setattr(percard, "rewrite", lambda gen, e, env: None)


def test_a_derived_value_read_twice_in_one_expression_is_worked_out_once(make):
    p = make(NAMED.replace("VALUE", "10 * matching - others"))
    st = p.new_state(0)
    line = value_line(p)
    assert line.count("for _c") == 1 and "lambda _n" in line       # one filter, its value passed by name
    with pytest.MonkeyPatch.context() as mp:
        plain_code(mp)
        plain = make(NAMED.replace("VALUE", "10 * matching - others"))
    assert value_line(plain).count("for _c") == 2
    assert local(p, st, "value") == local(plain, plain.new_state(0), "value")


def test_a_derived_value_read_once_is_written_in_place(make):
    p = make(NAMED.replace("VALUE", "matching + 1"))
    assert "lambda" not in value_line(p)


def test_a_derived_value_read_only_behind_and_or_is_not_worked_out_ahead(make):
    # `matching` is read only if count(table) > 5, which it never is: it is not worked out at all
    p = make(NAMED.replace("VALUE", "count(table) > 5 and matching > 0 and matching < 3"))
    assert "lambda" not in value_line(p)
    assert local(p, p.new_state(0), "value") is False


def test_a_derived_value_that_may_fail_is_left_where_it_is_read(make):
    # risky divides by zero: named once, it would fail even where the old code skipped it
    p = make(NAMED.replace("VALUE", "risky + risky"))
    assert "lambda" not in value_line(p)
    with pytest.raises(RuleRuntimeError, match="division by zero"):
        p.new_state(0)


def test_a_function_with_the_same_constant_argument_twice_is_worked_out_once(make):
    p = make(NAMED.replace("VALUE", "has('red') * 2 + has('red') - has('blue')"))
    line = value_line(p)
    assert "lambda" in line and len(re.findall(r"len\(K\d+\.intersection\(", line)) == 2      # one count per argument
    st = p.new_state(0)
    hand = [p.type_attrs[p.card_type[c]].get("colour") for c in st.zones[p.zone_names.index("hand(0)")]]
    assert local(p, st, "value") == 3 * hand.count("red") - hand.count("blue")


def test_a_list_of_a_zones_attributes_in_a_where_is_made_once_per_filter(make):
    p = make(NAMED.replace("VALUE", "matching"))
    line = value_line(p)
    # the table's colours: a set made once, before the loop over the hand; one lookup per card
    assert "set(map(" in line and line.index("set(map(") < line.index("for _c")
    st = p.new_state(0)
    table = {p.type_attrs[p.card_type[c]].get("colour") for c in st.zones[p.zone_names.index("table")]}
    hand = [p.type_attrs[p.card_type[c]].get("colour") for c in st.zones[p.zone_names.index("hand(0)")]]
    assert local(p, st, "value") == sum(1 for colour in hand if colour in table)


# ---------------------------------------------------------------- against the plain code

NUMBERS = ["matching", "others", "has('red')", "has('green')", "count(table)", "risky", "2"]


@s.composite
def expression(draw, depth: int = 0):
    """A random whole-number expression over derived values, behind and/or/if now and then."""
    pick = draw(s.integers(0, 4 if depth < 3 else 0))
    if pick == 0:
        return draw(s.sampled_from(NUMBERS))
    if pick in (1, 2):
        op = draw(s.sampled_from(["+", "-", "*"]))
        return f"({draw(expression(depth + 1))} {op} {draw(expression(depth + 1))})"
    if pick == 3:
        return f"({draw(expression(depth + 1))} if {draw(expression(depth + 1))} > 1 else {draw(expression(depth + 1))})"
    return f"(1 if {draw(expression(depth + 1))} > 2 and {draw(expression(depth + 1))} < 4 else 0)"


@settings(max_examples=60, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(value=expression(), seed=s.integers(0, 3))
def test_a_random_expression_gives_the_values_and_errors_of_the_plain_code(tmp_path_factory, value, seed):
    path = tmp_path_factory.mktemp("named") / "rules.yaml"
    text = edit(textwrap.dedent(NAMED).replace("VALUE", value), "  - move top 2 of deck to table\n",
                "  - shuffle deck\n  - move top 2 of deck to table\n")
    path.write_text(text, encoding="utf-8")
    fast = outcome(str(path), seed, ("value",))
    with pytest.MonkeyPatch.context() as mp:
        plain_code(mp)
        plain = outcome(str(path), seed, ("value",))
    assert fast == plain


def test_a_derived_value_in_a_choices_where_is_worked_out_once_before_the_values(make, monkeypatch):
    made = []
    compile_text = CodeGen.compile_text
    monkeypatch.setattr(CodeGen, "compile_text", lambda self, text, *a: made.append(text) or compile_text(self, text, *a))
    text = edit(NAMED.replace("VALUE", "0"), "            - {choose: go, options: {ok: {}}}\n",
                "            - choose: pick\n"
                "              from: numbers(6)\n"
                "              where: pick <= matching + others and pick != matching\n")
    p = make(text)
    moves = next(t for t in made if "def _moves" in t and "for _v" in t)
    assert "lambda" not in moves and moves.index("for _x") < moves.index("for _v")
    st = p.new_state(0)
    hand = st.zones[p.zone_names.index("hand(0)")]
    table = {p.type_attrs[p.card_type[c]].get("colour") for c in st.zones[p.zone_names.index("table")]}
    matching = sum(1 for c in hand if p.type_attrs[p.card_type[c]].get("colour") in table)
    assert [m[0] for m in p.legal_moves(st)] == [v for v in range(1, 7) if v <= len(hand) and v != matching]


def test_a_text_that_holds_the_name_of_a_value_is_left_as_it_is():
    # the value's name is written into code only, never into a text of the rules that happens to hold it
    src = "(_n2 == 'a _n2 b') and \"_n2\" != 'it\\'s _n2'"
    assert once.bind([("_n2", "len(Z[1])")], src) == "((len(Z[1])) == 'a _n2 b') and \"_n2\" != 'it\\'s _n2'"
    assert once.bind([("_n2", "len(Z[1])")], "_n2 + _n2 + len('_n2')") == "(lambda _n2: _n2 + _n2 + len('_n2'))(len(Z[1]))"
