"""Literals and operators, each with the types of its operands checked.

Numbers, texts, lists, arithmetic, comparisons, in, and/or/not, if-else, `where` filters and
`top N of`.
"""
from __future__ import annotations

from .. import ir
from .. import syntax as S
from .context import Context, Scope, Unresolved
from .resolve import resolve, resolver
from .types import expect
from .vocabulary import KIND_OF
from .words import a_type, type_hint


@resolver(S.Num)
def number(cx: Context, node, pos, path, scope: Scope):
    return ir.Lit(pos, "int", node.value)


@resolver(S.Str)
def text(cx: Context, node, pos, path, scope: Scope):
    return ir.Lit(pos, "str", node.value)


@resolver(S.Bool)
def boolean(cx: Context, node, pos, path, scope: Scope):
    return ir.Lit(pos, "bool", node.value)


@resolver(S.ListExpr)
def list_expr(cx: Context, node, pos, path, scope: Scope):
    return ir.ListLit(pos, "list", tuple(resolve(cx, i, path, scope) for i in node.items))


@resolver(S.Gen)
def generator(cx: Context, node, pos, path, scope: Scope):
    """A generator outside an aggregate's parentheses (calls.generator_call checks those)."""
    cx.error(pos, "a 'for' generator may only stand inside count, sum, min, max, any, all, highest or lowest", "syntax",
             "e.g. sum(v for v in values if v > 0)")
    raise Unresolved


@resolver(S.BinOp)
def arithmetic(cx: Context, node, pos, path, scope: Scope):
    left, right = resolve(cx, node.left, path, scope), resolve(cx, node.right, path, scope)
    if node.op == "+" and {left.type, right.type} in ({"list"}, {"list", "any"}, {"list", "value"}):
        return ir.Bin(pos, "list", "+", left, right)      # joins two lists
    if node.op == "+" and _zones_together(left, right):
        return ir.Bin(pos, "cards", "+", left, right)     # the cards of both, read as one list
    if node.op == "+" and "list" in (left.type, right.type) and {left.type, right.type} <= {"list", "int", "str", "bool",
                                                                                           "player"}:
        other = right if left.type == "list" else left
        cx.error(other.pos, f"'+' joins a list only to a list, but this is {a_type(other.type)}", "type",
                 "put the value in a list of its own, e.g. picked + [spot]")
        return ir.Lit(pos, "any", None)     # reported: no second error where the sum is used
    cards_with_other(cx, node.op, left, right, pos)
    for side in (left, right):
        expect(cx, side, {"int"}, f"each side of '{node.op}'")
    if node.op in ("/", "%") and isinstance(right, ir.Lit) and right.value == 0 and right.type == "int":
        cx.error(right.pos, "division by zero", "type", f"'{node.op}' needs a number other than 0 on its right")
    return ir.Bin(pos, "int", node.op, left, right)


def _zones_together(left, right) -> bool:
    """`hand + played`: two zones (or sets of cards) joined, one of them possibly of unknown type."""
    types = {left.type, right.type}
    return types <= {"zone", "cards", "any"} and types != {"any"}


def cards_with_other(cx: Context, op: str, left, right, pos) -> None:
    """A zone's cards on one side of an operator that cannot take them: one error, not a follow-on
    one where the result is used."""
    cards = next((s for s in (left, right) if s.type in ("zone", "cards")), None)
    if cards is None:
        return
    other = right if cards is left else left
    if op == "+":
        cx.error(pos, f"'+' puts zones together (hand + won) or adds numbers, but this joins "
                 f"{a_type(cards.type)} with {a_type(other.type)}", "type",
                 "join zones or sets of cards only; for a number of cards, count them first: count(hand) + 1")
    else:
        cx.error(pos, f"'{op}' works on numbers, not on {a_type(cards.type)}", "type",
                 ("to leave cards out, write CARDS where CONDITION; " if op == "-" else "")
                 + f"for a number of cards, count them first: count(hand) {op} 2")
    raise Unresolved


@resolver(S.Compare)
def compare(cx: Context, node, pos, path, scope: Scope):
    left, right = resolve(cx, node.left, path, scope), resolve(cx, node.right, path, scope)
    if node.op not in ("==", "!="):
        for side in (left, right):
            expect(cx, side, {"int"}, f"each side of '{node.op}'")
    else:
        kinds = {KIND_OF.get(left.type), KIND_OF.get(right.type)}
        if kinds == {"bool", "scalar"} and any(_unknown_item(side) for side in (left, right)):
            kinds = {"bool"}    # an item of a list of unknown items may be true or false: checked while playing
        if None not in kinds and len(kinds) == 2 and kinds != {"number", "scalar"} and kinds != {"text", "scalar"}:
            cx.error(pos, f"'{node.op}' compares {a_type(left.type)} with {a_type(right.type)}, which are never equal",
                     "type", type_hint({"int"}, "zone") if kinds == {"cards", "number"}
                     else "compare values of the same kind")
    return ir.Cmp(pos, "bool", node.op, left, right)


def _unknown_item(e) -> bool:
    """Whether e is `xs[i]` whose kind the checker cannot see (a loop name over a list of lists)."""
    return isinstance(e, ir.Func) and e.name == "at" and e.type == "value"


@resolver(S.In)
def membership(cx: Context, node, pos, path, scope: Scope):
    left, right = resolve(cx, node.left, path, scope), resolve(cx, node.right, path, scope)
    expect(cx, right, {"list", "cards", "zone"}, "the right side of 'in'")
    return ir.InOp(pos, "bool", left, right, node.negate)


@resolver(S.BoolOp)
def logic(cx: Context, node, pos, path, scope: Scope):
    left, right = resolve(cx, node.left, path, scope), resolve(cx, node.right, path, scope)
    for side in (left, right):
        expect(cx, side, {"bool"}, f"each side of '{node.op}'")
    return ir.Logic(pos, "bool", node.op, left, right)


@resolver(S.Not)
def negation(cx: Context, node, pos, path, scope: Scope):
    operand = resolve(cx, node.operand, path, scope)
    expect(cx, operand, {"bool"}, "the operand of 'not'")
    return ir.NotOp(pos, "bool", operand)


@resolver(S.Neg)
def minus(cx: Context, node, pos, path, scope: Scope):
    operand = resolve(cx, node.operand, path, scope)
    expect(cx, operand, {"int"}, "the operand of '-'")
    return ir.NegOp(pos, "int", operand)


@resolver(S.IfExpr)
def if_else(cx: Context, node, pos, path, scope: Scope):
    cond = resolve(cx, node.cond, path, scope)
    expect(cx, cond, {"bool"}, "the condition of if")
    then, orelse = resolve(cx, node.then, path, scope), resolve(cx, node.orelse, path, scope)
    kinds = {KIND_OF.get(then.type), KIND_OF.get(orelse.type)}
    if None not in kinds and len(kinds) == 2 and kinds != {"number", "scalar"} and kinds != {"text", "scalar"}:
        cx.error(orelse.pos, f"the two branches of this if give different kinds of values: "
                 f"{a_type(then.type)} after then, {a_type(orelse.type)} after else", "type",
                 "both branches must give the same kind of value")
    typ = then.type if then.type == orelse.type else "any"
    return ir.Cond(pos, typ, cond, then, orelse)


@resolver(S.Where)
def where(cx: Context, node, pos, path, scope: Scope):
    cards = resolve(cx, node.cards, path, scope)
    if not expect(cx, cards, {"cards", "zone"}, "the left side of 'where'", _where_hint(cards)):
        raise Unresolved        # reported once, here: what uses the result must not report it again
    cond = resolve(cx, node.cond, path, scope.with_card())
    expect(cx, cond, {"bool"}, "a where condition")
    return ir.Filter(pos, "cards", cards, cond)


def _where_hint(left) -> str:
    """What to write instead of 'where' on something that is not cards."""
    if left.type == "list":
        return ("'where' keeps the cards that meet a condition on their attributes; to keep some values of a "
                "list, write a generator, e.g. count(v for v in values if v > 1), or, in a choose, "
                "from: the list with where: a condition on the chosen value")
    return ""


@resolver(S.Top)
def top(cx: Context, node, pos, path, scope: Scope):
    count = resolve(cx, node.count, path, scope) if node.count is not None else None
    if count is not None:
        expect(cx, count, {"int"}, "how many cards")
        check_not_negative(cx, count, f"'{'bottom' if node.bottom else 'top'} N of'")
    cards = resolve(cx, node.cards, path, scope)
    expect(cx, cards, {"cards", "zone"}, "what 'top ... of' takes from")
    return ir.TopN(pos, "cards", count, cards, node.bottom)


def check_not_negative(cx: Context, count, what: str) -> None:
    """A count written as a negative number (top -1 of, deal -2) would take no card: an error."""
    if isinstance(count, ir.NegOp) and isinstance(count.operand, ir.Lit) and count.operand.type == "int":
        n = -count.operand.value
    elif isinstance(count, ir.Lit) and count.type == "int":
        n = count.value
    else:
        return      # worked out later: a parameter's row when compiled, anything else while playing
    if n < 0:
        cx.error(count.pos, f"the count of {what} is {n}, so it would silently move no card", "type", "give how many cards, 0 or more (a count worked out below 0 "
                 "while playing moves nothing)")
