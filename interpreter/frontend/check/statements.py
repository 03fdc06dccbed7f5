"""Statements: blocks, the compound forms (step, if, for, while, around, choose) and their checks.

One-line statements are in `simple`, choices in `decisions`.
"""
from __future__ import annotations

import re

from .. import ir
from .context import Context, Scope, Unresolved
from .decisions import choose
from .play_order import around_loop, seats_may_leave
from .reactions import stop_flag, stopping
from .resolve import resolve, value
from .simple import simple
from .together import together
from .types import elem_type, expect


def block(cx: Context, path, scope: Scope, top: bool = False) -> list:
    """The statements of the list at path (none when it is absent)."""
    items = cx.get(path)
    if items is None:
        return []
    if not isinstance(items, list):
        cx.error(path, "expected a list of statements", "schema", "write each statement as an item '- ...'")
        return []
    out = []
    for i, item in enumerate(items):
        try:
            stmt = statement(cx, path + (i,), item, scope, top)
        except Unresolved:
            continue
        if isinstance(stmt, list):
            out.extend(stmt)
        elif stmt is not None:
            out.append(stmt)
    return out


def statement(cx: Context, path, item, scope: Scope, top: bool):
    """One statement: a one-line string, or a mapping of one of the compound forms."""
    pos = cx.pos(path)
    if isinstance(item, str):
        node = cx.parse(path, item, "stmt")
        return simple(cx, node, path, scope)
    if not isinstance(item, dict):
        cx.error(path, "a statement is a string or a mapping such as if/for/while/around/choose/step", "schema",
                 'e.g. - "shuffle draw" or - if: ... then: [...]')
        return None
    if "step" in item:
        return step(cx, path, item, scope, top)
    if "if" in item:
        cond = value(cx, path + ("if",), scope)
        expect(cx, cond, {"bool"}, "an if condition")
        return ir.IfS(pos, cond, block(cx, path + ("then",), scope), block(cx, path + ("else",), scope))
    if "for" in item:
        head = cx.parse(path + ("for",), str(item["for"]), "for")
        iterable = resolve(cx, head.iterable, path + ("for",), scope)
        expect(cx, iterable, {"list", "cards", "zone"}, "what a for loop goes over")
        slot = cx.bind(head.var, elem_type(cx, iterable), cx.at(path + ("for",), head))
        return ir.ForS(pos, slot, iterable, block(cx, path + ("do",), scope))
    if "while" in item:
        cond = value(cx, path + ("while",), scope)
        expect(cx, cond, {"bool"}, "a while condition")
        return ir.WhileS(pos, cond, block(cx, path + ("do",), scope))
    if "around" in item:
        return around(cx, path, item, scope)
    if "together" in item:
        return together(cx, path, scope, block)
    if "choose" in item:
        if scope.in_trigger:
            cx.error(path, "a trigger runs in the middle of a move, so it cannot ask for a decision", "trigger",
                     "on_empty may only move, shuffle, deal, let and set; let the player choose in a turn step")
        return choose(cx, path, item, scope, block)
    cx.error(path, f"unknown kind of step with keys {', '.join(map(str, item))}", "schema",
             "a step is a statement string or one of if, for, while, around, choose, step, together")
    return None


def step(cx: Context, path, item, scope: Scope, top: bool) -> ir.StepS:
    """A named step of the turn: only at the top level of turn.steps, each name once."""
    name = str(item["step"])
    if not top:
        cx.error(path + ("step",), f"step '{name}' must be at the top level of turn.steps", "step",
                 "a step groups statements of the turn; inside it, list the statements directly")
    if name in cx.step_names:
        cx.error(path + ("step",), f"two steps are named '{name}'", "step", "give each step its own name")
    cx.step_names.append(name)
    return ir.StepS(cx.pos(path), name, block(cx, path + ("do",), scope))


def around(cx: Context, path, item, scope: Scope) -> list:
    """'around: p' goes round the table from a seat: once, or until a condition holds.

    It is written out as a let and a while, so both backends run it as they run those.
    """
    pos = cx.pos(path)
    name = str(item["around"]).strip()
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        cx.error(path + ("around",), f"'{name}' is not a name for the seat going round", "syntax",
                 "write around: p, then use p in the loop")
        raise Unresolved
    start = value(cx, path + ("from",), scope, default=None) if "from" in item else ir.Builtin(pos, "player", "current")
    if start is not None:
        expect(cx, start, {"player"}, "the seat that goes first")
    later = str(item["stopped_by"]) if "stopped_by" in item else None
    if later is not None:       # read inside the round, it would be unknown: say when it is set
        cx.not_yet[later] = (f"'{later}' (stopped_by) is set when the round is over: read it after the around; "
                             f"inside it, the seat whose go it is is '{name}'")
    until = value(cx, path + ("until",), scope, default=None) if "until" in item else None
    if until is not None:
        expect(cx, until, {"bool"}, "an until condition")
    seat = cx.bind(name, "player", cx.pos(path + ("around",)))
    do = block(cx, path + ("do",), scope)
    cx.not_yet.pop(later, None)
    flag = stop_flag(cx, path, item, do, seat)
    return stopping(cx, path, item, around_rounds(cx, pos, name, seat, start, until, do), flag)


def around_rounds(cx: Context, pos, name: str, seat: int, start, until, do: list) -> list:
    """The let and the while of an around, its go being `do`."""
    if seats_may_leave(cx):     # seats out of play are passed over, in the direction of play
        done = cx.slot(f"#around@{pos.line}:{pos.col}") if until is None else None
        return around_loop(cx, pos, seat, start, until, do, done)
    here = ir.Local(pos, "player", seat, name)
    advance = ir.LetS(pos, seat, ir.Func(pos, "player", "next", (here,)))
    body = do + [advance]
    if until is not None:
        return [ir.LetS(pos, seat, start), ir.WhileS(pos, ir.NotOp(pos, "bool", until), body)]
    done = cx.slot(f"#around@{pos.line}:{pos.col}")      # seats served so far; no rule can name it
    served = ir.Local(pos, "int", done, "#around")
    body.append(ir.LetS(pos, done, ir.Bin(pos, "int", "+", served, ir.Lit(pos, "int", 1))))
    return [ir.LetS(pos, done, ir.Lit(pos, "int", 0)), ir.LetS(pos, seat, start),
            ir.WhileS(pos, ir.Cmp(pos, "bool", "<", served, ir.Builtin(pos, "int", "players")), body)]
