"""Standing rules: `whenever`, a list of {for, when, do} checked after every move or deal.

A standing rule runs between two statements, so it cannot ask for a decision: a `choose` in
its `do`, or a `call` of a procedure that asks one, is an error at that statement.
"""
from __future__ import annotations

from .. import ir
from .context import Context, Scope, Unresolved
from .resolve import resolve, value
from .trees import statements
from .types import elem_type, expect


def standing_rules(cx: Context, block, procedures: dict) -> list:
    """The checked rules of `whenever`, in the order the file gives them."""
    items = cx.get(("whenever",))
    if not isinstance(items, list):
        return []
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            continue        # the schema has reported it
        try:
            out.append(standing_rule(cx, ("whenever", i), item, block))
        except Unresolved:
            continue
    for rule in out:
        no_decision(cx, rule.body, procedures)
    return out


def standing_rule(cx: Context, path, item: dict, block) -> ir.StandingRule:
    slot = iterable = None
    if "for" in item:
        head = cx.parse(path + ("for",), str(item["for"]), "for")
        iterable = resolve(cx, head.iterable, path + ("for",), Scope())
        expect(cx, iterable, {"list", "cards", "zone"}, "what a standing rule's for goes over")
        slot = cx.bind(head.var, elem_type(cx, iterable), cx.at(path + ("for",), head))
    cond = value(cx, path + ("when",), Scope())
    expect(cx, cond, {"bool"}, "a standing rule's when")
    return ir.StandingRule(cx.pos(path), slot, iterable, cond, block(cx, path + ("do",), Scope()))


def no_decision(cx: Context, body: list, procedures: dict) -> None:
    """A choose in a standing rule, or a call of a procedure that asks for a decision, is an error."""
    hint = ("a standing rule may move, deal, shuffle, let, set and call procedures without decisions; "
            "let the player choose in a turn step")
    for s in statements(body):
        if isinstance(s, ir.ChooseS):
            cx.error(s.pos, "a standing rule (whenever) runs between two statements, so it cannot ask for a "
                     "decision", "trigger", hint)
        elif isinstance(s, ir.CallS) and asks(s.name, procedures, set()):
            cx.error(s.pos, f"a standing rule (whenever) cannot ask for a decision, but procedure '{s.name}' "
                     "asks for one", "trigger", hint)


def asks(name: str, procedures: dict, seen: set) -> bool:
    """Whether a procedure asks for a decision, itself or through the procedures it calls."""
    if name in seen:
        return False
    seen.add(name)
    for s in statements(procedures.get(name, [])):
        if isinstance(s, ir.ChooseS) or isinstance(s, ir.CallS) and asks(s.name, procedures, seen):
            return True
    return False
