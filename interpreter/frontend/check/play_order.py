"""Seats leaving play and the direction of play: `eliminate p`, `restore p`, `reverse`, `in_play`.

Who is out and which way play goes are two hidden locals (a mask of seats and +1 or -1), so
the state keeps them as data. They exist only when the file holds one of the three statements
(`seats_may_leave`); otherwise every seat plays, clockwise, and the compiled code is unchanged.
"""
from __future__ import annotations

import re

from .. import ir
from .context import Context, Scope
from .resolve import resolve
from .types import expect

_STATEMENT = re.compile(r"(?m)^\s*(?:eliminate|restore|reverse)\b")
_RULES = ("zones", "procedures", "setup", "turn", "whenever")      # where statements stand


def seats_may_leave(cx: Context) -> bool:
    """Whether any text of the file starts with eliminate, restore or reverse (a statement that
    changes who plays or which way); read once, before the rules, so that `around` and `next`
    are written for it wherever they come."""
    if cx.play_order is None:
        found = any(_STATEMENT.match(t) for key, part in (cx.data or {}).items() if key in _RULES
                    for t in _texts(part))
        cx.play_order = (cx.slot("#out"), cx.slot("#direction")) if found else ()
    return bool(cx.play_order)


def _texts(data):
    """Every text inside data, but a description's."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for k, v in data.items():
            if k != "description":
                yield from _texts(v)
    elif isinstance(data, list):
        for v in data:
            yield from _texts(v)


def in_play(cx: Context, pos) -> ir.Builtin | None:
    """The hidden argument that makes next/prev read who is in play and the direction, or None."""
    return ir.Builtin(pos, "list", "in_play") if seats_may_leave(cx) else None


def eliminate(cx: Context, node, pos, path, scope: Scope):
    """`eliminate p` takes a seat out of play; `restore p` brings it back."""
    seat = resolve(cx, node.seat, path, scope)
    expect(cx, seat, {"player"}, "the seat to " + ("restore" if node.back else "eliminate"))
    seats_may_leave(cx)
    return ir.EliminateS(pos, seat, node.back)


def reverse(cx: Context, node, pos, path, scope: Scope):
    """`reverse` turns the direction of play round."""
    seats_may_leave(cx)
    return ir.ReverseS(pos)


def around_loop(cx: Context, pos, seat: int, start, until, body: list, done: int) -> list:
    """`around` when seats may leave: once round, it passes every seat in the direction of play and
    gives a go to each one in play when its go comes; with `until`, it starts at the first seat in
    play from `start` and goes on with next(p), which skips the seats out."""
    here = ir.Local(pos, "player", seat, "#seat")
    inside = ir.Builtin(pos, "list", "in_play")
    if until is not None:
        first = ir.Cond(pos, "player", ir.InOp(pos, "bool", start, inside, False), start,
                        ir.Func(pos, "player", "next", (start, inside)))
        step = ir.LetS(pos, seat, ir.Func(pos, "player", "next", (here, inside)))
        return [ir.LetS(pos, seat, first), ir.WhileS(pos, ir.NotOp(pos, "bool", until), body + [step])]
    served = ir.Local(pos, "int", done, "#around")
    go = [ir.IfS(pos, ir.InOp(pos, "bool", here, inside, False), body, []),
          ir.LetS(pos, seat, ir.Func(pos, "player", "seat_after", (here, inside))),
          ir.LetS(pos, done, ir.Bin(pos, "int", "+", served, ir.Lit(pos, "int", 1)))]
    return [ir.LetS(pos, done, ir.Lit(pos, "int", 0)), ir.LetS(pos, seat, start),
            ir.WhileS(pos, ir.Cmp(pos, "bool", "<", served, ir.Builtin(pos, "int", "players")), go)]
