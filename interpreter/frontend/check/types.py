"""Expression types: the type of a list's items and of a card attribute, and the type checks.

`expect` reports a value of the wrong type where the rules need another, with a hint for the
common mistakes and, for a parameter, where its value is written.
"""
from __future__ import annotations

from .. import ir
from .context import Context
from .vocabulary import value_type
from .words import a_type, relative, show, type_hint, wanted


def elem_type(cx: Context, expr) -> str:
    """The type of the items of a list, zone or set of cards ('any' when unknown)."""
    if expr.type in ("zone", "cards"):
        return "card"
    if expr.type != "list":
        return "any"
    kinds: set = set()
    if isinstance(expr, ir.ListLit):
        kinds = {item.type for item in expr.items}
    elif isinstance(expr, ir.Lit) and isinstance(expr.value, list):
        kinds = {value_type(v) for v in expr.value}
    elif isinstance(expr, ir.Param):
        values = constant_values(cx, expr.name)
        if values is None:
            return "any"
        kinds = {value_type(v) for v in values}
    elif isinstance(expr, ir.GetAttr):
        kinds = {attr_type(cx, expr.attr)}
    elif isinstance(expr, ir.Var) or isinstance(expr, ir.Func) and expr.name == "at":
        items = item_values(expr)
        kinds = {v.type if isinstance(v, ir.Expr) else value_type(v) for v in items} if items else set()
    elif isinstance(expr, ir.Func) and expr.name == "reversed":
        return elem_type(cx, expr.args[0])
    elif isinstance(expr, ir.Builtin) and expr.name == "seats" or isinstance(expr, ir.Func) and \
            expr.name == "seats_from":
        return "player"
    elif isinstance(expr, ir.Func) and expr.name == "numbers":
        return "int"
    elif isinstance(expr, ir.Bin) and expr.op == "+":
        a, b = elem_type(cx, expr.left), elem_type(cx, expr.right)
        return a if a == b else "any"
    return kinds.pop() if len(kinds) == 1 and "any" not in kinds else "any"


def item_values(expr) -> list | None:
    """The items a list may hold, as written (expressions or YAML values), following a variable to its
    initial value and `grid[i]` to the items of grid's lists; None when unknown."""
    if isinstance(expr, list):
        return expr
    if isinstance(expr, ir.ListLit):
        return list(expr.items)
    if isinstance(expr, ir.Lit) and isinstance(expr.value, list):
        return expr.value
    if isinstance(expr, ir.Var):
        return item_values(expr.decl.initial)      # `set` keeps a variable's kind; items are checked when read
    if isinstance(expr, ir.Func) and expr.name == "at":
        rows = item_values(expr.args[0])
        found = [item_values(row) for row in rows] if rows else None
        return None if not found or any(f is None for f in found) else [v for f in found for v in f]
    return None


def attr_type(cx: Context, attr: str) -> str:
    """'int' or 'str' when every value of a card attribute is one, else 'value'."""
    kinds = cx.attr_types.get(attr)
    if kinds is None:
        return "any"        # computed by an expression: its kind shows only when the game runs
    return next(iter(kinds)) if kinds and len(kinds) == 1 and kinds <= {"int", "str", "bool", "list"} else "value"


def constant_values(cx: Context, raw):
    """The values a 'for' list can take: a YAML list, or a param holding one (any row); else None."""
    if isinstance(raw, list):
        return raw
    if isinstance(raw, str) and raw.strip() in cx.params:
        value = cx.params[raw.strip()][0]
        rows = list(value.values()) if isinstance(value, dict) else [value]
        if all(isinstance(row, list) for row in rows):
            return [v for row in rows for v in row]
    return None


def expect(cx: Context, expr, types: set, what: str, hint: str = "") -> bool:
    """Report expr unless its type is one of types; True when it fits."""
    if expr is None or expr.type == "any" or expr.type in types:
        return True
    if "int" in types and expr.type == "player" or "player" in types and expr.type == "int":
        return True
    if expr.type == "value" and types & {"int", "str", "player", "value", "list"}:
        return True     # a card attribute or list item of unknown kind: checked while playing
    if isinstance(expr, ir.Param) and cx.params[expr.name][1].file != expr.pos.file:
        # a variant changed a base parameter: the mistake is the variant's value, not the base's rule
        used = relative(expr.pos, cx.doc.file)
        cx.error(cx.params[expr.name][1], f"param '{expr.name}' is {a_type(expr.type)} here, but the rules "
                 f"need {wanted(types)}", "type", f"it is used as {what} at {used}")
        return False
    if isinstance(expr, ir.Param) and expr.type == "null":
        hint = f"param '{expr.name}' has no value: give it one under params"
    elif isinstance(expr, ir.Param) and not hint and expr.type in ("int", "str", "bool") \
            and not isinstance(cx.params[expr.name][0], dict):
        raw, where = cx.params[expr.name]
        shown = ("true" if raw else "false") if isinstance(raw, bool) else show(raw)
        hint = f"param '{expr.name}' is {shown} (line {where.line}): give it {wanted(types)} there, " \
               "or change the rule"
    cx.error(expr.pos, f"{what} must be {wanted(types)}, but this is {a_type(expr.type)}", "type",
             hint or type_hint(types, expr.type))
    return False
