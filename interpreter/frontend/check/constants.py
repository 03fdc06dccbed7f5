"""Things worked out before the game starts may not use the game state: the check, and what counts.

Those things are card counts and attributes, 'for' and 'per' lists and the grid's columns.
"""
from __future__ import annotations

from .. import ir
from .context import Context
from .trees import exprs


def check_constant(cx: Context, expr, what: str, allowed: set) -> None:
    """Report a use of the game state in something worked out before the game starts."""
    found = state_use(expr, allowed, set())
    if found is not None:
        node, reason = found
        cx.error(node.pos, f"{what} is worked out before the game starts, so it cannot use {reason}",
                 "constant", "use numbers, lists, params and the card's 'for' variables here")


def state_use(expr, allowed: set, seen: set):
    """The first node of expr that needs the game state, with a description; None if there is none."""
    for node in exprs(expr):
        if isinstance(node, ir.Gen):
            allowed = allowed | {node.slot}
        if isinstance(node, ir.ZoneRef):
            return node, f"the zone '{node.decl.name}'"
        if isinstance(node, ir.Var):
            return node, f"the variable '{node.decl.name}'"
        if isinstance(node, ir.Builtin) and node.name in ("current", "me", "turn"):
            return node, f"'{node.name}'"
        if isinstance(node, ir.Local) and node.slot not in allowed:
            return node, f"'{node.name}', which is only known during play"
        if isinstance(node, ir.UserCall) and node.fn.name not in seen and node.fn.body is not None:
            inner = state_use(node.fn.body, set(node.fn.params), seen | {node.fn.name})
            if inner is not None:
                return node, f"the function '{node.fn.name}', which uses {inner[1]}"
    return None
