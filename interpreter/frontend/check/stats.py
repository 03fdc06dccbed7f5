"""The designer's statistics (`stats:`): each a number or true/false, per seat or once per game."""
from __future__ import annotations

from .. import ir
from .context import Context, Scope
from .resolve import value
from .trees import exprs
from .types import expect
from .words import type_hint

STAT_TYPES = {"int", "bool"}


def check_stats(cx: Context) -> list:
    """Every stat in the file's order, its expression checked to give a number or true/false."""
    out = []
    for name in cx.get(("stats",), {}) or {}:
        expr = value(cx, ("stats", name), Scope())
        hint = type_hint(STAT_TYPES, expr.type) or (
            "this is one card: report one of its attributes, e.g. first(hand).value" if expr.type == "card" else "")
        hint = (hint + "; " if hint else "") + "a stat is a number or true/false, e.g. count(won) or count(hand) == 0"
        # a parameter of the wrong kind is this stat's mistake (not the parameter's, as it is where a
        # variant changes a base parameter a rule uses): checked as the value it holds
        shown = ir.Lit(expr.pos, expr.type, None) if isinstance(expr, ir.Param) else expr
        if expect(cx, shown, STAT_TYPES, f"stat '{name}'", hint):
            out.append(ir.Stat(str(name), expr, reads_own_seat(expr), cx.doc.key_pos(("stats", name))))
    return out


def reads_own_seat(expr, seen: frozenset = frozenset()) -> bool:
    """Whether expr reads `me`, or a seat's own zone or variable written without a seat (which
    means `me`'s), itself or in a function it calls."""
    for x in exprs(expr):
        if isinstance(x, ir.Builtin) and x.name == "me":
            return True
        if isinstance(x, ir.ZoneRef) and x.decl.per_player and x.owner is None:
            return True
        if isinstance(x, ir.Var) and x.decl.per_player and x.owner is None:
            return True
        if isinstance(x, ir.UserCall) and x.fn.name not in seen and x.fn.body is not None \
                and reads_own_seat(x.fn.body, seen | {x.fn.name}):
            return True
    return False
