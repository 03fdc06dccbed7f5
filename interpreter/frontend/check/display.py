"""How `play` shows the game: display options with their defaults, and the grid of zone families."""
from __future__ import annotations

from .. import ir
from .constants import check_constant
from .context import Context, Scope
from .resolve import value
from .types import expect
from .words import and_


def check_display(cx: Context) -> dict:
    """How `play` shows a seat's view (the schema checked the values): defaults filled in."""
    display = {"knowledge": "full"}
    display.update(cx.get(("display",), None) or {})
    if "grid" in display:
        display["grid"] = check_grid(cx, ("display", "grid"))
    return display


def check_grid(cx: Context, path) -> dict:
    """display.grid as {'families': table zone families of one index list, 'columns': an int known before play}."""
    families = grid_families(cx, path)
    columns = value(cx, path + ("columns",), Scope())
    if expect(cx, columns, {"int"}, "the grid's columns", "give a number, or a param holding one, e.g. cols"):
        check_constant(cx, columns, "the grid's columns", set())
        if isinstance(columns, ir.Param):
            held = cx.params[columns.name][0]
            values = list(held.values()) if isinstance(held, dict) else [held]
        else:
            values = [columns.value] if isinstance(columns, ir.Lit) else []
        bad = next((v for v in values if isinstance(v, int) and not isinstance(v, bool) and v < 1), None)
        if bad is not None:
            cx.error(path + ("columns",), f"the grid's columns must be a positive whole number, not {bad}",
                     "display", "give how many positions a row of the grid shows, e.g. 10")
    return {"families": families, "columns": columns}


def grid_families(cx: Context, path) -> list:
    """The grid's families: zone families of the table, all with the same index list."""
    names = cx.get(path + ("families",), []) or []
    families, per = [], None
    for i, name in enumerate(names):
        where = path + ("families", i)
        decl = cx.zones.get(name)
        if decl is None:
            candidates = [z for z, d in cx.zones.items() if d.per is not None and not d.per_player]
            hint = cx.suggest(str(name), candidates) or cx.suggest(str(name), cx.zones) or (
                f"the zone families are {and_([repr(d.name) for d in cx.zones.values() if d.per is not None])}"
                if any(d.per is not None for d in cx.zones.values()) else
                "declare a zone family first, e.g. down: {per: cells, visible: nobody}")
            cx.error(where, f"the grid names '{name}', which is not a zone", "name", hint)
            continue
        if decl.per is None or decl.per_player:
            why = "is a single zone" if decl.per is None else "belongs to each player"
            cx.error(where, f"the grid needs zone families of the table, but '{name}' {why}", "display",
                     "lay out zones declared with per: LIST (and no owner: each)")
            continue
        text = " ".join(str(cx.get(("zones", name, "per"))).split())
        if per is None:
            per = (name, text)
        elif text != per[1]:
            cx.error(where, f"the grid's families must share one index list, but '{name}' is per "
                     f"'{text}' and '{per[0]}' per '{per[1]}'", "display",
                     "a grid lays out positions of one list: declare its families with the same per: list")
            continue
        families.append(name)
    return families
