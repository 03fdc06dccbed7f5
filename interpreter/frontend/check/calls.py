"""Calls: `name(...)` is a built-in function, a player's zone or variable, or a function of the rules.

The built-ins are checked for their number and types of arguments; count, sum, min, max, any
and all also take a generator `(expr for x in list if cond)`.
"""
from __future__ import annotations

import re

from .. import ir
from .. import syntax as S
from .context import Context, Scope, Unresolved
from .names import family_without_index
from .resolve import resolve, resolver
from .types import attr_type, elem_type, expect
from .vocabulary import AGGREGATES, ARITY, FUNCTIONS, RANKED, RESULT
from .words import a_type, relative


@resolver(S.Call)
def call(cx: Context, node, pos, path, scope: Scope, allow_family: bool = False):
    """`fn(...)`; allow_family when an index follows (a family of a player's zones: side(p)[m])."""
    fn = node.fn
    if fn in FUNCTIONS:         # built-ins first: a zone or variable cannot take their names
        return builtin_call(cx, fn, node, pos, path, scope)
    if fn in cx.zones:
        return zone_call(cx, node, pos, path, scope, allow_family)
    if fn in cx.vars:
        decl = cx.vars[fn]
        if not decl.per_player:
            cx.error(pos, f"variable '{fn}' belongs to the table; it takes no player", "type", f"write {fn}")
            raise Unresolved
        if len(node.args) != 1:
            cx.error(pos, f"'{fn}(...)' takes exactly one player, not {len(node.args)} values", "type",
                     f"e.g. {fn}(current)")
            raise Unresolved
        owner = resolve(cx, node.args[0], path, scope)
        expect(cx, owner, {"player"}, "a variable's owner")
        no_negative_seat(cx, owner)
        return ir.Var(pos, cx.var_types.get(fn, "any"), decl, owner)
    if fn in cx.functions:
        decl = cx.functions[fn]
        if len(node.args) != len(decl.params):
            key = cx.fn_keys[fn]
            cx.error(pos, f"function '{fn}' takes {len(decl.params)} argument(s), not {len(node.args)}",
                     "type", f"it is declared as {key}")
            raise Unresolved
        args = tuple(resolve(cx, a, path, scope) for a in node.args)
        check_arguments(cx, fn, "function", list(cx.fn_scopes[fn]), args)
        return ir.UserCall(pos, "any", decl, args)
    known = list(FUNCTIONS) + list(cx.functions) + [z for z, d in cx.zones.items() if d.per_player]
    hint = cx.suggest(fn, known) or (
        f"the built-in functions are {', '.join(sorted(FUNCTIONS))}; declare others under functions")
    cx.error(pos, f"unknown function '{fn}'", "name", hint)
    raise Unresolved


def check_arguments(cx: Context, owner: str, what: str, names: list, args: tuple) -> None:
    """Each argument of a call of a function or procedure types its parameter (the checker's first
    passes learn it from every call); it must be of the kind the first call passed."""
    for name, arg in zip(names, args):
        key = f"{owner}.{name}"
        first, at = cx.arg_seen.setdefault(key, (arg.type, arg.pos))
        if _same_kind(first, arg.type):
            cx.bound.setdefault(key, set()).add(arg.type)
        else:
            cx.error(arg.pos, f"{what} '{owner}' is given {a_type(arg.type)} for '{name}' here, but "
                     f"{a_type(first)} at {relative(at, cx.doc.file)}", "type",
                     f"a parameter holds one kind of value in every call: give '{name}' {a_type(first)} here too, "
                     f"or write another {what}")


def _same_kind(a: str, b: str) -> bool:
    """Whether two argument types may meet in one parameter (zones and cards do, numbers and seats do)."""
    kinds = {a, b}
    return len(kinds) == 1 or "any" in kinds or kinds in ({"zone", "cards"}, {"int", "player"}) \
        or "value" in kinds and kinds <= {"value", "int", "str", "player"}


def zone_call(cx: Context, node, pos, path, scope: Scope, allow_family):
    """`zone(p)`: the zone of one player."""
    decl = cx.zones[node.fn]
    if not decl.per_player:
        cx.error(pos, f"zone '{decl.name}' belongs to the table; it takes no player", "type",
                 f"write {decl.name}" + ("[...]" if decl.per is not None else "")
                 + " without (...); only zones with owner: each belong to a player")
        raise Unresolved
    if len(node.args) != 1:
        cx.error(pos, f"'{decl.name}(...)' takes exactly one player, not {len(node.args)} values", "type",
                 f"e.g. {decl.name}(current)")
        raise Unresolved
    if decl.per is not None and not allow_family:
        family_without_index(cx, decl, pos)
        raise Unresolved
    owner = resolve(cx, node.args[0], path, scope)
    expect(cx, owner, {"player"}, "a zone's owner")
    no_negative_seat(cx, owner)
    return ir.ZoneRef(pos, "zone", decl, None, owner)


def no_negative_seat(cx: Context, owner) -> None:
    """A seat written as a negative number names no player with any number of players."""
    value = getattr(owner, "value", None) if isinstance(owner, ir.Lit) else None
    if type(value) is int and value < 0:
        cx.error(owner.pos, f"there is no player {value}: seats count from 0", "type",
                 "the first player is 0; name a seat such as current, next(current) or p from 'for p in seats'")


def builtin_call(cx: Context, fn, node, pos, path, scope: Scope):
    """A built-in function with its arguments checked."""
    args = node.args
    if len(args) == 1 and isinstance(args[0], S.Gen):
        if args[0].by is not None or fn in RANKED:
            return ranked_call(cx, fn, args[0], pos, path, scope)
        return generator_call(cx, fn, args[0], pos, path, scope)
    if fn in RANKED:
        cx.error(pos, f"{fn} picks an item of a list by a number: it takes 'ITEM for NAME in LIST by NUMBER'",
                 "type", f"e.g. {fn}(p for p in seats by count(won(p))), or {fn}(c for c in hand by c.value)")
        raise Unresolved
    rargs = tuple(resolve(cx, a, path, scope) for a in args)
    if fn == "numbers":     # numbers(n) = 1..n, numbers(a, b) = a..b, both ends included
        if len(rargs) not in (1, 2):
            cx.error(pos, f"numbers takes 1 or 2 arguments, not {len(rargs)}", "type",
                     "numbers(5) is [1, 2, 3, 4, 5]; numbers(0, 4) is [0, 1, 2, 3, 4]")
            raise Unresolved
        for a in rargs:
            expect(cx, a, {"int"}, "each argument of numbers")
        return ir.Func(pos, "list", fn, rargs)
    want = ARITY.get(fn, 1)
    if fn in ("min", "max") and len(rargs) >= 2:
        for a in rargs:
            expect(cx, a, {"int"}, f"each argument of {fn}")
        return ir.Func(pos, "int", fn, rargs)
    if len(rargs) != want:
        cx.error(pos, f"{fn} takes {want} argument{'s' if want > 1 else ''}, not {len(rargs)}", "type",
                 "give several values as one list, e.g. [a, b]" if fn in AGGREGATES else "")
        raise Unresolved
    a = rargs[0]
    if fn in ("count", "size"):
        expect(cx, a, {"list", "cards", "zone"}, f"the argument of {fn}")
    elif fn in ("sum", "min", "max") and a.type in ("zone", "cards"):
        example = next((t for t in sorted(cx.attrs) if attr_type(cx, t) == "int"), "ATTRIBUTE")
        what = args[0].id if isinstance(args[0], S.Name) else "..."
        cx.error(a.pos, f"{fn} works on numbers, but this is {a_type(a.type)}", "type",
                 f"name a number attribute of its cards, e.g. {fn}({what}.{example})")
    elif fn in AGGREGATES:
        if expect(cx, a, {"list"}, f"the argument of {fn}") and fn in ("sum", "min", "max"):
            numeric_attr(cx, fn, a)
    elif fn in ("first", "last"):
        expect(cx, a, {"list", "cards", "zone"}, f"the argument of {fn}")
        return ir.Func(pos, elem_type(cx, a), fn, rargs)
    elif fn in ("next", "prev", "seats_from"):
        expect(cx, a, {"player"}, f"the argument of {fn}")
    elif fn == "reversed":
        expect(cx, a, {"list", "cards", "zone"}, "the argument of reversed")
        return ir.Func(pos, "list" if a.type == "list" else "cards", fn, rargs)
    elif fn == "abs":
        expect(cx, a, {"int"}, "the argument of abs")
    elif fn == "index_of":
        expect(cx, a, {"list"}, "the first argument of index_of (the list to look in)")
    return ir.Func(pos, RESULT[fn], fn, rargs)


def generator_call(cx: Context, fn, gen, pos, path, scope: Scope):
    """`fn(expr for x in list if cond)`, for the aggregates only."""
    if fn not in AGGREGATES:
        cx.error(pos, f"'{fn}' does not take a 'for' generator", "type",
                 "only count, sum, min, max, any, all, highest and lowest do")
        raise Unresolved
    iterable, slot, expr = generator_parts(cx, gen, path, scope)
    if fn in ("sum", "min", "max"):
        expect(cx, expr, {"int"}, f"each value {fn} goes over")
        numeric_attr(cx, fn, expr)
    elif fn in ("any", "all"):
        expect(cx, expr, {"bool"}, f"each value {fn} tests")
    cond = generator_condition(cx, gen, path, scope)
    g = ir.Gen(cx.at(path, gen), "list", expr, slot, iterable, cond)
    return ir.Func(pos, RESULT[fn], fn, (g,))


def ranked_call(cx: Context, fn, gen, pos, path, scope: Scope):
    """`highest(item for x in list [if cond] by number)`: the item whose number is largest (lowest:
    smallest), the first such in the list's order; its type is the item's."""
    if fn not in RANKED:
        other = "highest" if fn == "max" else "lowest" if fn == "min" else "highest or lowest"
        cx.error(cx.find(path, gen, r"\b(by)\b"), f"'by' ranks the items of highest and lowest, not of {fn}",
                 "type", f"to get the item with the {'smallest' if fn == 'min' else 'largest'} number, write "
                 f"{other}(... for ... in ... by ...); {fn}(...) without 'by' gives the value itself"
                 if fn in ("min", "max") else f"remove 'by ...', or write {other}(... by ...)")
        raise Unresolved
    if gen.by is None:
        cx.error(pos, f"{fn} needs 'by' and the number each item is ranked by", "type",
                 f"e.g. {fn}(p for p in seats by count(won(p)))")
        raise Unresolved
    iterable, slot, expr = generator_parts(cx, gen, path, scope)
    cond = generator_condition(cx, gen, path, scope)
    key = resolve(cx, gen.by, path, scope)
    if expect(cx, key, {"int"}, f"what {fn} ranks by (after 'by')"):
        numeric_attr(cx, fn, key)
    g = ir.Gen(cx.at(path, gen), "list", expr, slot, iterable, cond, key)
    return ir.Func(pos, expr.type, fn, (g,))


def generator_parts(cx: Context, gen, path, scope: Scope):
    """(the list, the slot of the loop name, the value per item) of a generator."""
    iterable = resolve(cx, gen.iterable, path, scope)
    expect(cx, iterable, {"list", "cards", "zone"}, "what a generator goes over")
    where = cx.find(path, gen, r"\bfor\s+(" + re.escape(gen.var) + r")\b")
    slot = cx.bind(gen.var, elem_type(cx, iterable), where)
    return iterable, slot, resolve(cx, gen.expr, path, scope)


def generator_condition(cx: Context, gen, path, scope: Scope):
    """The condition after 'if' of a generator, checked; None without one."""
    cond = resolve(cx, gen.cond, path, scope) if gen.cond is not None else None
    if cond is not None:
        expect(cx, cond, {"bool"}, "the condition after 'if'")
    return cond


def numeric_attr(cx: Context, fn: str, expr) -> None:
    """sum, min and max of a card attribute need an attribute whose values are numbers."""
    if isinstance(expr, (ir.GetAttr, ir.CardAttr)) and attr_type(cx, expr.attr) == "str":
        cx.error(expr.pos, f"{fn} works on numbers, but the card attribute '{expr.attr}' holds texts", "type",
                 f"count the cards instead, e.g. count(... where {expr.attr} == 'x')")
        return
    if isinstance(expr, (ir.GetAttr, ir.CardAttr)) and attr_type(cx, expr.attr) == "value":
        kinds = cx.attr_types.get(expr.attr)
        if kinds and "str" in kinds:
            cx.error(expr.pos, f"{fn} works on numbers, but some values of the card attribute "
                     f"'{expr.attr}' are texts", "type", f"make every value of '{expr.attr}' a number")
