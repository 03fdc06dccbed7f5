"""The layout of a ruleset at one player count: zones, variables and cards as integer tables.

The code generator writes these numbers into the generated code, and the run-time program reads
them (zone names, visibility, card types). Built in stages (parameters, zones, variables, cards),
since a zone family's `per` or a card count may be a constant worked out from the stages before.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import Diagnostic, RuleRuntimeError, RulesetError
from ..frontend import ir
from ..runtime.decisions import show

HIDDEN_SLOTS = 64        # slots after the locals for the flow's own bookkeeping (loops, options)


@dataclass
class Layout:
    """Every zone instance, variable slot and card of a ruleset compiled for `players`."""

    players: int
    param_values: dict                                      # parameter -> its value at this player count
    zone_names: list = field(default_factory=list)          # per zone instance: 'hand(0)', 'grid[3]'
    zone_decl: list = field(default_factory=list)           # ... its declaration
    zone_owner: list = field(default_factory=list)          # ... its owning seat, or None
    zone_vis: list = field(default_factory=list)            # ... the mask of seats that see its faces
    zone_positions: list = field(default_factory=list)      # ... the mask of seats told where cards leave it
    zone_alike: list = field(default_factory=list)          # ... whether it is declared alike
    zone_base: dict = field(default_factory=dict)           # zone name -> index of its first instance
    family: dict = field(default_factory=dict)              # zone name -> {family index value: position}
    zone_width: dict = field(default_factory=dict)          # zone name -> instances per owner
    var_base: dict = field(default_factory=dict)            # variable name -> its first slot
    n_locals: int = 0
    n_vars: int = 0
    type_names: list = field(default_factory=list)          # per card type
    type_attrs: list = field(default_factory=list)          # ... its attributes {name: value}
    type_index: dict = field(default_factory=dict)          # type name -> type
    card_type: list = field(default_factory=list)           # per card id: its type
    card_start: list = field(default_factory=list)          # ... the zone it starts in
    attr_tables: dict = field(default_factory=dict)         # attribute -> its value per card id
    type_tables: dict = field(default_factory=dict)         # attribute -> its value per card type


def new_layout(rules: ir.Ruleset, players: int) -> Layout:
    """A layout holding only the parameters' values (the zones and cards come after)."""
    return Layout(players, {name: _row(value, players) for name, (value, _) in rules.params.items()})


def lay_out_zones(lay: Layout, rules: ir.Ruleset, limits, const_list) -> None:
    """Give every zone instance an index: families and per-player zones expand."""
    everyone = (1 << lay.players) - 1
    for decl in rules.zones:
        lay.zone_base[decl.name] = len(lay.zone_names)
        values = list(const_list(decl.per, f"the 'per' of zone '{decl.name}'")) if decl.per is not None else [None]
        total = len(lay.zone_names) + len(values) * (lay.players if decl.per_player else 1)
        if total > limits.zones:
            raise too_large(decl.per.pos if decl.per is not None else decl.pos,
                            f"the zones would make {total:,} piles ({len(values):,} in family '{decl.name}'"
                            + (f", for each of {lay.players} players" if decl.per_player else "")
                            + f"), more than {limits.zones:,}", "a game needs far fewer piles")
        lay.family[decl.name] = {v: i for i, v in enumerate(values)}
        for owner in (range(lay.players) if decl.per_player else [None]):
            for v in values:
                label = decl.name + (f"({owner})" if owner is not None else "") + (f"[{v}]" if v is not None else "")
                lay.zone_names.append(label)
                lay.zone_decl.append(decl)
                lay.zone_owner.append(owner)
                lay.zone_vis.append(zone_mask(decl.visible, owner, everyone))
                # the order of a private zone is its holder's secret; any other zone's order is public
                lay.zone_positions.append(lay.zone_vis[-1] if decl.visible == "owner" else everyone)
                lay.zone_alike.append(decl.alike)
    lay.zone_width = {d.name: len(lay.family[d.name]) for d in rules.zones}


def zone_mask(visible: str, owner: int | None, everyone: int) -> int:
    """The seats that see a zone's faces: all, none, its owner, or all but its owner (`others`)."""
    if visible in ("everyone", "nobody"):
        return everyone if visible == "everyone" else 0
    mine = 1 << (owner or 0)
    return mine if visible == "owner" else everyone & ~mine


def lay_out_vars(lay: Layout, rules: ir.Ruleset) -> None:
    """Locals first, then the hidden slots, then the game variables."""
    lay.n_locals = len(rules.slots)
    n = lay.n_locals + HIDDEN_SLOTS
    for decl in rules.vars:
        lay.var_base[decl.name] = n
        n += lay.players if decl.per_player else 1
    lay.n_vars = n


def make_cards(lay: Layout, rules: ir.Ruleset, limits, const, scratch) -> None:
    """Expand card kinds into types and card ids (counts by const(e, scratch)); build attribute tables."""
    card_type, start = lay.card_type, lay.card_start
    for kind in rules.cards:
        for binding in bindings(kind.loops, limits, lambda e, what: const_list(const, e, what)):
            for var, _, slot in kind.loops:
                scratch.vars[slot] = binding[var]
            n = const(kind.count, scratch)
            if not isinstance(n, int):
                raise RuleRuntimeError(kind.count.pos, f"the count of card kind '{kind.name}' must be a whole "
                                       f"number, not {show(n, True)}")
            if n < 0:
                raise RulesetError([Diagnostic(
                    kind.count.pos, f"the count of card kind '{kind.name}' is {n} with {lay.players} players"
                    + _for(binding) + ": a count below 0 would silently make no cards", "compile",
                    "give 0 or more cards, e.g. max(0, ...) where none is meant")])
            if n > 0 and len(card_type) + n > limits.cards:
                raise too_large(kind.count.pos, f"the game would have more than {limits.cards:,} cards "
                                f"(card kind '{kind.name}' adds {n:,})", "a card game needs far fewer cards")
            attrs = dict(binding)
            for name, e in kind.attrs:
                attrs[name] = const(e, scratch)
            attrs["kind"] = kind.name
            attrs["name"] = _format(kind.template, binding)
            if n <= 0:
                continue
            if attrs["name"] in lay.type_names:
                raise RulesetError([Diagnostic(
                    kind.pos, f"two card types are both named '{attrs['name']}'", "card-name",
                    "put every 'for' variable into the name template, e.g. \"{colour}:{rank}\"")])
            lay.type_names.append(attrs["name"])
            lay.type_attrs.append(attrs)
            card_type.extend([len(lay.type_names) - 1] * n)
            start.extend([lay.zone_base[kind.start.name]] * n)
    lay.type_index = {name: t for t, name in enumerate(lay.type_names)}
    names = {a for attrs in lay.type_attrs for a in attrs} | {"kind", "name"}
    for kind in rules.cards:      # every declared attribute has a table, even with no cards
        names |= {var for var, _, _ in kind.loops} | {a for a, _ in kind.attrs}
    lay.attr_tables = {a: [lay.type_attrs[t].get(a) for t in card_type] for a in names}
    lay.type_tables = {a: [attrs.get(a) for attrs in lay.type_attrs] for a in names}


def bindings(loops: list, limits, const_list) -> list:
    """Every combination of a card kind's `for` values (at most as many as cards may be)."""
    out = [{}]
    for var, values, _ in loops:
        vals = const_list(values, f"the values of '{var}'")
        if len(out) * len(vals) > limits.cards:
            raise too_large(values.pos, f"the 'for' lists make more than {limits.cards:,} card types",
                            "a card game needs far fewer cards")
        out = [dict(b, **{var: v}) for b in out for v in vals]
    return out


def const_list(const, e, what: str) -> list:
    """A constant that must be a list (a family's `per`, a card kind's `for` values)."""
    value = const(e)
    if not isinstance(value, list):
        raise RuleRuntimeError(e.pos, f"{what} must be a list, not {show(value, True)}")
    return value


def too_large(pos, message: str, hint: str) -> RulesetError:
    """A ruleset that would build more than the limits allow (cards, piles), as a positioned error."""
    return RulesetError([Diagnostic(pos, message, "too-large", hint)])


def _row(value, players: int):
    """A parameter's value at a player count (by_players tables were expanded by the checker)."""
    if isinstance(value, dict) and all(isinstance(k, int) for k in value):
        return value[players]
    return value


def _for(binding: dict) -> str:
    """' (for colour = red, value = 3)': which of a kind's 'for' values a message is about."""
    return (" (for " + ", ".join(f"{var} = {v}" for var, v in binding.items()) + ")") if binding else ""


def _format(template: str, binding: dict) -> str:
    return re.sub(r"\{([^}]*)\}", lambda m: str(binding.get(m.group(1), m.group(0))), template)
