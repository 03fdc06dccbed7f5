"""Turning rules text into typed ir expressions: `value` for a place in the file, `resolve` for a node.

Each kind of syntax node has one resolver, registered here with `@resolver(S.Kind)` by the
module that holds it (names, calls, access, expressions); the package imports them all.
"""
from __future__ import annotations

from .. import ir
from .context import Context, Scope, Unresolved
from .vocabulary import value_type
from .words import a_type

_RESOLVERS: dict = {}       # syntax node class -> fn(cx, node, pos, path, scope) -> ir.Expr


def resolver(node_class):
    """Register the function that resolves syntax nodes of node_class."""
    def register(fn):
        _RESOLVERS[node_class] = fn
        return fn
    return register


def resolve(cx: Context, node, path, scope: Scope) -> ir.Expr:
    """Resolve one syntax node (recursively) to an ir expression."""
    pos = cx.at(path, node)
    method = _RESOLVERS[type(node)]
    try:
        return method(cx, node, pos, path, scope)
    except Unresolved:
        return ir.Lit(pos, "any", None)


def value(cx: Context, path, scope: Scope, default=...):
    """The expression at path: a DSL string, or a YAML number, boolean or list."""
    raw = cx.get(path, ...)
    if isinstance(raw, float):
        cx.error(path, f"{raw!r} is a fraction: the rules work with whole numbers only", "type",
                 "write a whole number, such as 2")
        return ir.Lit(cx.pos(path), "any", None)
    if raw is ... or raw is None:
        if default is ...:
            cx.error(path, f"missing value for '{path[-1]}'", "schema", "write an expression here")
            return ir.Lit(cx.pos(path), "any", None)
        return default if default is None else ir.Lit(cx.pos(path), value_type(default), default)
    if isinstance(raw, str):
        try:
            node = cx.parse(path, raw, "expr")
            return resolve(cx, node, path, scope)
        except Unresolved:
            return ir.Lit(cx.pos(path), "any", None)
    return ir.Lit(cx.pos(path), value_type(raw), raw)


def zone_instance(cx: Context, node, path, scope: Scope) -> ir.Expr:
    """A single zone: families need an index, per-player zones default to `me`."""
    z = resolve(cx, node, path, scope)
    if isinstance(z, ir.Lit) and z.type == "any":
        return z        # already reported
    if isinstance(z, ir.Bin) and z.type == "cards":
        cx.error(z.pos, "zones joined with '+' are their cards to read, not one zone that cards can go to, "
                 "be shuffled in or dealt from", "type", "name one zone, e.g. hand; to put cards in two zones, "
                 "write a move for each")
        return ir.Lit(z.pos, "any", None)
    if not isinstance(z, ir.ZoneRef):
        what = f"'{z.name}', a name for a value" if isinstance(z, ir.Local) else a_type(z.type)
        cx.error(z.pos, f"expected a zone here, but this is {what}", "type",
                 "name the zone itself, e.g. hand, draw or side[m]")
        return ir.Lit(z.pos, "any", None)
    return z
