"""Parts of values: a card's attribute (`x.name`), a list's item (`l[i]`), one zone of a family (`f[m]`)."""
from __future__ import annotations

import re

from .. import ir
from .. import syntax as S
from .calls import call
from .context import Context, Scope, Unresolved
from .resolve import resolve, resolver
from .types import attr_type, constant_values, elem_type, expect
from .vocabulary import FUNCTIONS
from .words import a_type, either, show


@resolver(S.Attr)
def attribute(cx: Context, node, pos, path, scope: Scope):
    """`x.name`: an attribute of a card, or the list of it over a set of cards."""
    obj = resolve(cx, node.obj, path, scope)
    name_pos = cx.find(path, node, r"\.\s*(" + re.escape(node.name) + r")\b")
    if node.name not in cx.attrs:
        hint = cx.suggest(node.name, cx.attrs) or f"the card attributes are {either(sorted(cx.attrs))}"
        cx.error(name_pos, f"no card has the attribute '{node.name}'", "name", hint)
        raise Unresolved
    if obj.type in ("cards", "zone"):
        return ir.GetAttr(pos, "list", obj, node.name)
    if obj.type not in ("card", "any"):
        cx.error(name_pos, f"'.{node.name}' needs a card or cards, but this is {a_type(obj.type)}", "type",
                 f"attributes belong to cards, e.g. first(hand).{node.name} or hand.{node.name}")
        raise Unresolved
    return ir.GetAttr(pos, attr_type(cx, node.name), obj, node.name)


@resolver(S.Index)
def index(cx: Context, node, pos, path, scope: Scope):
    """`x[i]`: one zone of a family, or an item of a list."""
    base = node.obj
    if isinstance(base, S.Name) and base.id in cx.zones and cx.zones[base.id].per is not None:
        decl = cx.zones[base.id]
        return ir.ZoneRef(pos, "zone", decl, family_index(cx, decl, node.index, path, scope), None)
    if isinstance(base, S.Call) and base.fn in cx.zones and cx.zones[base.fn].per is not None \
            and base.fn not in FUNCTIONS:
        ref = call(cx, base, pos, path, scope, allow_family=True)
        ref.index = family_index(cx, cx.zones[base.fn], node.index, path, scope)
        return ref
    obj = resolve(cx, base, path, scope)
    idx = resolve(cx, node.index, path, scope)
    if obj.type == "any" and isinstance(obj, ir.Lit) and obj.value is None:
        return ir.Lit(pos, "any", None)     # the name was already reported: no second error
    if obj.type in ("zone", "cards"):
        cx.error(obj.pos, f"{a_type(obj.type)} cannot be indexed with [...]", "type",
                 "take cards with top N of ..., bottom N of ... or first(...)"
                 if obj.type == "cards" or obj.decl.per is None else
                 f"this is already one zone of the family '{obj.decl.name}': a family takes one index")
        return ir.Lit(pos, "any", None)     # reported: no second error about the index or its use
    else:
        expect(cx, obj, {"list"}, "what is indexed with [...]")
    expect(cx, idx, {"int"}, "a list index")
    items = obj.items if isinstance(obj, ir.ListLit) else obj.value if isinstance(obj, ir.Lit) else None
    if isinstance(items, (list, tuple)) and isinstance(idx, ir.Lit) and isinstance(idx.value, int) \
            and not isinstance(idx.value, bool) and not 0 <= idx.value < len(items):
        cx.error(idx.pos, f"index {idx.value} is outside the list, which has {len(items)} items", "type",
                 f"the first item is [0], the last [{len(items) - 1}]" if items else "the list is empty")
    item = elem_type(cx, obj) if obj.type == "list" else "any"
    return ir.Func(pos, "value" if item == "any" and obj.type == "list" else item, "at", (obj, idx))


def family_index(cx: Context, decl: ir.ZoneDecl, node, path, scope: Scope) -> ir.Expr:
    """The index of a zone family: one of the values of its 'per' list."""
    idx = resolve(cx, node, path, scope)
    if not expect(cx, idx, {"int", "str", "value"}, f"the index of zone family '{decl.name}'",
                  f"name one of its values, e.g. {decl.name}[m] inside a for loop over them"):
        return ir.Lit(idx.pos, "any", None)
    values = constant_values(cx, cx.get(("zones", decl.name, "per")))
    if values is None:
        return idx
    if isinstance(idx, ir.Lit) and idx.type != "any":
        keys = [idx.value]
    elif isinstance(idx, ir.Param):
        value = cx.params[idx.name][0]
        keys = list(value.values()) if isinstance(value, dict) else [value]
    else:
        return idx
    for key in keys:
        if isinstance(key, (list, dict)) or key not in values:
            shown = ", ".join(show(v) for v in values)
            hint = cx.suggest(str(key), [str(v) for v in values]) or f"its values are {shown}"
            cx.error(idx.pos, f"{show(key)} is not one of the values of zone family '{decl.name}'", "zone", hint)
            return ir.Lit(idx.pos, "any", None)
    return idx
