"""Card kinds: their 'for' variables, name templates, counts, attributes and start zones.

Also which kinds of value each card attribute takes, where the YAML shows them.
"""
from __future__ import annotations

import re

from .. import ir
from .context import Context, Scope
from .params import check_scalar_items
from .resolve import value
from .types import constant_values, elem_type, expect
from .vocabulary import value_type
from .words import line_col


def declare_cards(cx: Context) -> list:
    """Every card kind (the attribute names first, so each kind's expressions may use all of them)."""
    kinds = []
    specs = cx.get(("cards",), {}) or {}
    for name, spec in specs.items():
        for var in (spec or {}).get("for", {}) or {}:
            cx.attrs.add(var)
        for attr in (spec or {}).get("attrs", {}) or {}:
            cx.attrs.add(attr)
    cx.attrs |= {"kind", "name"}
    cx.attr_types = card_attr_types(cx, specs)
    for name, spec in specs.items():
        kinds.append(card_kind(cx, name, spec or {}))
    return kinds


def card_attr_types(cx: Context, specs: dict) -> dict:
    """The kinds of value each card attribute takes, where the YAML shows them (None: not known)."""
    types: dict = {"kind": {"str"}, "name": {"str"}}

    def add(attr, values):
        if values is None or types.get(attr, set()) is None:
            types[attr] = None
        else:
            types.setdefault(attr, set()).update(value_type(v) for v in values)

    for spec in specs.values():
        spec = spec if isinstance(spec, dict) else {}
        for var, raw in (spec.get("for") or {}).items():
            add(var, constant_values(cx, raw))
        for attr, raw in (spec.get("attrs") or {}).items():
            add(attr, None if isinstance(raw, str) else [raw])
    return types


def card_kind(cx: Context, name: str, spec: dict) -> ir.CardKind:
    path = ("cards", name)
    loops = []
    for var in spec.get("for", {}) or {}:
        values = value(cx, path + ("for", var), Scope())
        expect(cx, values, {"list"}, f"the values of '{var}'", "give a list, or the name of a param holding one")
        cx.const_checks.append((values, f"the values of '{var}'", set()))
        check_scalar_items(cx, path + ("for", var), f"the values of '{var}'")
        loops.append((var, values, cx.slot(f"{name}.{var}")))
        cx.slot_types[loops[-1][2]] = elem_type(cx, values)
    scope = Scope(fn_params={var: slot for var, _, slot in loops})
    loop_slots = {slot for _, _, slot in loops}
    template = spec.get("name", name)
    check_template(cx, path, template, [v for v, _, _ in loops])
    count = value(cx, path + ("count",), scope, default=1)
    expect(cx, count, {"int"}, "a card count")
    cx.const_checks.append((count, "a card count", loop_slots))
    attrs = [(a, value(cx, path + ("attrs", a), scope)) for a in spec.get("attrs", {}) or {}]
    for a, val in attrs:
        cx.const_checks.append((val, f"the attribute '{a}'", loop_slots))
    return ir.CardKind(name, loops, template, count, attrs, start_zone(cx, path, spec), cx.pos(path))


def check_template(cx: Context, path, template: str, variables: list) -> None:
    """A name template may use only the kind's 'for' variables in {...}."""
    for m in re.finditer(r"\{([^}]*)\}", template):
        if m.group(1) not in variables:
            where = cx.doc.text_pos(path + ("name",), *line_col(template, m.start()))
            hint = cx.suggest(m.group(1), variables) or (
                f"a name template can use the 'for' variables {', '.join(variables)}" if variables
                else "this card kind has no 'for' variables; write its name without {...}")
            cx.error(where, f"the name template uses '{{{m.group(1)}}}', which is not a 'for' variable",
                     "template", hint)


def start_zone(cx: Context, path, spec: dict):
    """The zone a card kind starts in, which must be a single table zone (None when it is unknown)."""
    start = cx.zones.get(spec.get("start"))
    if start is None:
        start_name = spec.get("start")
        cx.error(path + ("start",), f"unknown zone '{start_name}' for the cards to start in", "name",
                 cx.suggest(str(start_name), cx.zones) or "declare it under zones")
    elif start.per is not None or start.per_player:
        cx.error(path + ("start",), f"cards must start in a single zone, and '{start.name}' is one per "
                 f"{'player' if start.per_player else 'value'}", "zone", "start them in a table zone and deal")
    return start

