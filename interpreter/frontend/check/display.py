"""How `play` shows the game: display options with their defaults, the grid of zone families, the
zones hidden or shown as piles, the labels of names and the values shown."""
from __future__ import annotations

from .. import ir
from .constants import check_constant
from .context import Context, Scope
from .resolve import value
from .stats import reads_own_seat
from .types import expect
from .words import a_type, and_

SHOWN_TYPES = {"int", "bool", "str", "player"}


def check_display(cx: Context, score=None, tiebreak=()) -> dict:
    """How `play` shows a seat's view (the schema checked the values): defaults filled in, every
    name resolved, the shown values checked like other expressions."""
    display = {"knowledge": "full"}
    display.update(cx.get(("display",), None) or {})
    if "grid" in display:
        display["grid"] = check_grid(cx, ("display", "grid"))
    in_grid = {name: "the grid lays it out" for name in (display["grid"]["families"] if "grid" in display else ())}
    hidden = zone_list(cx, "hide", in_grid)
    if "hide" in display:
        display["hide"] = hidden
    if "piles" in display:        # without the key, play falls back to the piles the rules draw from
        display["piles"] = zone_list(cx, "piles", {**in_grid, **{name: "display.hide hides it" for name in hidden}})
    if "labels" in display:
        display["labels"] = check_labels(cx, set(hidden), shown_functions(score, tiebreak))
    if "show" in display:
        display["show"] = check_shown(cx)
    return display


def zone_list(cx: Context, key: str, taken: dict) -> list:
    """display.hide or display.piles: names of zones, none of them already shown another way."""
    out = []
    what = "hidden" if key == "hide" else "shown as a pile"
    for i, name in enumerate(cx.get(("display", key), []) or []):
        where = ("display", key, i)
        if name not in cx.zones:
            hint = cx.suggest(str(name), cx.zones) or (f"the zones are {and_([repr(z) for z in cx.zones])}"
                                                       if cx.zones else "the ruleset declares no zone under zones")
            cx.error(where, f"display.{key} names '{name}', which is not a zone", "name", hint)
        elif name in taken:
            cx.error(where, f"zone '{name}' cannot be {what}: {taken[name]}", "display",
                     f"name '{name}' in one place only")
        else:
            out.append(str(name))
    return out


def check_labels(cx: Context, hidden: set, functions: set) -> dict:
    """display.labels: words for variables, zones and functions, each a name that is shown."""
    out = {}
    for name, words in (cx.get(("display", "labels"), {}) or {}).items():
        where = cx.doc.key_pos(("display", "labels", name))
        if name in cx.vars or name in cx.zones and name not in hidden or name in functions:
            out[str(name)] = str(words)
        elif name in hidden:
            cx.error(where, f"the label of zone '{name}' would never be shown: display.hide hides the zone",
                     "display", f"drop the label, or take '{name}' out of display.hide")
        elif name in cx.functions:
            cx.error(where, f"the label of function '{name}' would never be shown: a function is shown "
                     "only as a term of the score or as a tie-break", "display",
                     "drop the label; to show the function's value, add it to display.show")
        else:
            names = list(cx.vars) + list(cx.zones) + list(cx.functions)
            cx.error(where, f"display.labels names '{name}', which is not a variable, zone or function",
                     "name", cx.suggest(str(name), names) or "label a name declared under vars, zones or functions")
    return out


def check_shown(cx: Context) -> list:
    """display.show: each value a number, true/false, a text or a player; per seat when it reads
    the seat's own zones or variables (or me), else once for the table."""
    out = []
    for i, entry in enumerate(cx.get(("display", "show"), []) or []):
        path = ("display", "show", i)
        expr = value(cx, path + ("value",), Scope())
        if not expect(cx, expr, SHOWN_TYPES, "a shown value", shown_hint(expr.type)):
            continue
        per_seat = entry.get("per", "table") == "seat"
        own = reads_own_seat(expr)
        if own and not per_seat:
            cx.error(path + ("value",), "this value reads a seat's own zone or variable (or me), so it "
                     "differs from seat to seat", "display", "add per: seat to show it for every seat, "
                     "or name the seat, e.g. count(hand(current))")
        elif per_seat and not own:
            cx.error(path + ("per",), "per: seat shows the same value for every seat: this value reads no "
                     "seat's own zone or variable, nor me", "display", "drop per: seat to show it once, "
                     "on the table")
        else:
            out.append(ir.ShownValue(str(entry.get("label")), expr, per_seat, cx.pos(path)))
    return out


def shown_hint(got: str) -> str:
    """What to show instead of a value that is not a number, true/false, a text or a player."""
    if got in ("zone", "cards", "list"):
        return f"this is {a_type(got)}: show count(...) for how many, e.g. count(hand)"
    if got == "card":
        return "this is one card: show its name or an attribute, e.g. first(turned).name"
    return "show a number, true or false, a text or a player"


def score_terms(score) -> list:
    """The score as the terms it adds up, [(1 or -1, expression)]: `a + b - c` gives three."""
    if isinstance(score, ir.Bin) and score.op in ("+", "-"):
        sign = 1 if score.op == "+" else -1
        return score_terms(score.left) + [(sign * s, e) for s, e in score_terms(score.right)]
    if isinstance(score, ir.NegOp):
        return [(-s, e) for s, e in score_terms(score.operand)]
    return [(1, score)] if score is not None else []


def shown_functions(score, tiebreak) -> set:
    """The functions `play` names on its end screen: a term of the score, or a whole tie-break."""
    exprs = [e for _, e in score_terms(score)] + [e for _, e in tiebreak]
    return {e.fn.name for e in exprs if isinstance(e, ir.UserCall)}


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
