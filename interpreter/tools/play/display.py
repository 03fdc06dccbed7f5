"""What the ruleset says about showing the game (its display section), worked out for one program."""
from __future__ import annotations

from ...compiler.describe import short
from ...compiler.reads import Reads
from ...frontend import ir
from ...frontend.check.display import score_terms
from ...frontend.check.trees import exprs, nodes
from .grid import grid_layout


def ordered_families(rules) -> set:
    """Zone declarations whose order matters: the rules take cards from their top or bottom
    (`top … of Z`, `deal … from Z`)."""
    names = set()
    for x in nodes(rules):
        if isinstance(x, ir.TopN):
            names |= {e.decl.name for e in exprs(x.cards) if isinstance(e, ir.ZoneRef)}
        elif isinstance(x, ir.DealS):
            names.add(x.source.decl.name)
    return names


class Display:
    """How a ruleset asks `play` to show its game, for one player count."""

    def __init__(self, program, memory_aid: bool = False):
        rules = program.rules
        display = getattr(rules, "display", None) or {}
        self.full = memory_aid or display.get("knowledge", "full") == "full"   # knowledge shown
        self.grid = grid_layout(program, display.get("grid"))   # (families, columns) or None
        self.ordered = ordered_families(rules)   # zones the rules draw from: `s` lists them
        # zones shown as a pile (top card and size), not card by card: the declared ones; a ruleset
        # that declares none keeps the rule of old, every zone the rules draw from
        # (not a hand held facing away: its owner picks its cards by place, so all are shown in order)
        self.piles = set(display["piles"]) if "piles" in display else {
            d.name for d in rules.zones if d.name in self.ordered and d.visible != "others"}
        self.hidden: set = set(display.get("hide", ()))     # zone declarations never shown
        self.labels: dict = dict(display.get("labels", {}))  # a variable's, zone's or function's name -> words
        self.shown: list = list(display.get("show", ()))     # [ir.ShownValue], in the file's order
        self.reads = Reads(program)     # which zones' faces a value reads: who may be shown it
        self.slots = list(rules.slots)
        # a term of the score that a per-seat stat reports is named by the stat
        self.stat_names = {short(s.expr, self.slots): s.name for s in reversed(rules.stats) if s.per_seat}

    def label(self, name: str) -> str:
        """The words the screen and the log show for a variable, zone or function."""
        return self.labels.get(name, name)

    def text(self, expr) -> str:
        """An expression in words: the label of a function it calls as a whole, else its text."""
        if isinstance(expr, ir.UserCall) and (expr.fn.name in self.labels or not expr.args):
            return self.label(expr.fn.name)
        return short(expr, self.slots)

    def score_parts(self, score) -> list:
        """The terms the score adds up, [(1 or -1, expression, words)]: one per term of `a + b - c`,
        named by a per-seat stat that reports the same expression, else as text() names it."""
        out = []
        for sign, e in score_terms(score):
            words = self.text(e)
            out.append((sign, e, self.stat_names.get(words, words) if words == short(e, self.slots) else words))
        return out
