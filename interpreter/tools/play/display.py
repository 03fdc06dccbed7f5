"""What the ruleset says about showing the game (its display section), worked out for one program."""
from __future__ import annotations

import dataclasses

from ...frontend import ir
from .grid import grid_layout


def ordered_families(rules) -> set:
    """Zone declarations whose order matters: the rules take cards from their top or bottom
    (`top … of Z`, `deal … from Z`)."""
    names, seen, todo = set(), set(), [rules]
    while todo:
        x = todo.pop()
        if isinstance(x, (list, tuple, set, frozenset)):
            todo.extend(x)
            continue
        if isinstance(x, dict):
            todo.extend(x.values())
            continue
        if not dataclasses.is_dataclass(x) or isinstance(x, type) or id(x) in seen:
            continue
        seen.add(id(x))
        if isinstance(x, ir.TopN):
            names |= _zones_in(x.cards)
        elif isinstance(x, ir.DealS):
            names.add(x.source.decl.name)
        todo.extend(getattr(x, f.name) for f in dataclasses.fields(x))
    return names


def _zones_in(e) -> set:
    """The zone declarations an expression of cards reads from."""
    if isinstance(e, ir.ZoneRef):
        return {e.decl.name}
    out = set()
    if isinstance(e, ir.Expr):
        for f in dataclasses.fields(e):
            v = getattr(e, f.name)
            for x in (v if isinstance(v, tuple) else (v,)):
                if isinstance(x, ir.Expr):
                    out |= _zones_in(x)
    return out


class Display:
    """How a ruleset asks `play` to show its game, for one player count."""

    def __init__(self, program, memory_aid: bool = False):
        display = getattr(program.rules, "display", None) or {}
        self.full = memory_aid or display.get("knowledge", "full") == "full"   # knowledge shown
        self.grid = grid_layout(program, display.get("grid"))   # (families, columns) or None
        self.ordered = ordered_families(program.rules)   # zones the rules draw from: `s` lists them
        self.piles = self.ordered       # zones shown as a pile (top card and size), not card by card
        self.hidden: set = set()        # zone declarations never shown
        self.labels: dict = {}          # a variable's or zone's name -> the words shown for it

    def label(self, name: str) -> str:
        """The words the screen and the log show for a variable or zone."""
        return self.labels.get(name, name)
