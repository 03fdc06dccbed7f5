"""A decision over several things at once: `choose` with `from:` a mapping of named parts, e.g.
`from: {target: seats, rank: numbers(2, 8)}`; each part is a list that may read the parts before it,
and one `where` tests the whole move."""
from __future__ import annotations

import dataclasses

from .. import ir
from .context import Context, Scope
from .resolve import value
from .types import elem_type, expect


def choose_parts(cx: Context, stmt: ir.ChooseS, path, item: dict, scope: Scope) -> None:
    """The parts of a choice, each bound to its own name, and the `where` over all of them."""
    name, spec = stmt.name, item["from"]
    if len(spec) < 2:
        cx.error(cx.doc.key_pos(path + ("from",)), f"choose '{name}' names {len(spec)} part"
                 f"{'' if len(spec) == 1 else 's'} under from:, and a choice of parts needs two or more",
                 "choose", "to choose one value, write from: followed by the list itself, e.g. from: seats")
    for part in spec:
        ppath = path + ("from", part)
        values = value(cx, ppath, scope)
        expect(cx, values, {"list"}, f"the values of part '{part}'")
        slot = cx.bind(str(part), elem_type(cx, values), cx.doc.key_pos(ppath))
        stmt.parts.append(ir.Part(str(part), slot, values))
    for i, part in enumerate(stmt.parts):
        not_yet = {p.slot: p.name for p in stmt.parts[i:]}
        for x in locals_read(part.values):
            if x.slot in not_yet:
                later = not_yet[x.slot]
                itself = later == part.name
                cx.error(x.pos, f"part '{part.name}' of choose '{name}' reads '{later}', which is chosen "
                         + ("by this very part" if itself else "after it"), "choose",
                         "a part's values may read only the parts written before it: "
                         + (f"test '{later}' in the choose's where instead" if itself else
                            f"put '{later}' first, or test both in the choose's where"))
    if "where" in item:
        stmt.where = value(cx, path + ("where",), scope)
        expect(cx, stmt.where, {"bool"}, "a where condition")


def locals_read(e):
    """Every local name an expression reads itself (not inside the functions it calls)."""
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, ir.Expr):
            if isinstance(x, ir.Local):
                yield x
            stack.extend(getattr(x, f.name) for f in dataclasses.fields(x) if f.name != "fn")
