"""Walks over checked trees: every expression inside one, every statement of a block."""
from __future__ import annotations

import dataclasses

from .. import ir
from ...errors import Pos


def exprs(expr):
    """expr and every expression inside it (not into the bodies of the functions it calls)."""
    if not isinstance(expr, ir.Expr):
        return
    yield expr
    for f in dataclasses.fields(expr):
        value = getattr(expr, f.name)
        if isinstance(value, ir.Expr):
            yield from exprs(value)
        elif isinstance(value, (list, tuple)):
            for item in value:
                yield from exprs(item)


def statements(stmts):
    """Every statement in a block, nested ones included."""
    for s in stmts:
        yield s
        for attr in ("then", "orelse", "body"):
            yield from statements(getattr(s, attr, []) or [])
        for opt in getattr(s, "options", []) or []:
            yield from statements(opt.body)


def nodes(obj):
    """Every ir object reachable from obj (expressions, statements, declarations), each once."""
    seen: set = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple, set, frozenset)):
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
        elif dataclasses.is_dataclass(x) and not isinstance(x, (type, Pos)):
            if id(x) in seen:
                continue
            seen.add(id(x))
            yield x
            stack.extend(getattr(x, f.name) for f in dataclasses.fields(x))
