"""Which card types can ever be in each zone: a conservative analysis of the rules' moves.

A zone may hold the types whose cards start there and, to a fixpoint, every type a `move` or
`deal` can bring there from a zone that may hold it. Where the analysis cannot tell, it assumes
a type may be there (never the other way round):
  - a zone named with an index that is not a constant stands for every zone of its family, and a
    per-player zone for every player's;
  - a card filter (`where`) narrows the types only when it reads nothing but the card's own
    attributes and constants (`where action == 'swap'`); any other filter lets every type pass;
  - a name bound to cards (`let`, `for`, a choice, a function's or procedure's parameter) carries the types of
    everything it is ever bound to; a variable or an expression not understood here carries every type.
"""
from __future__ import annotations

import operator

from ..frontend import ir
from ..frontend.check.trees import nodes
from .fold import is_static

ANY = None                     # a source that may hold any card (what the analysis cannot follow)
NONCARD = {"int", "str", "bool", "player"}      # expression types that never hold cards
_CMP = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
        ">=": operator.ge}
_BIN = {"+": operator.add, "-": operator.sub, "*": operator.mul}


class Unknown(Exception):
    """A filter that reads more than the card's own attributes and constants."""


def zone_types(program) -> list:
    """Per zone instance of the program: the frozenset of card types that can ever be there."""
    return Reach(program).solve()


class Reach:
    """The moves of one program as (sources, destinations), solved to a fixpoint."""

    def __init__(self, program):
        self.p = program
        self.every = frozenset(range(len(program.type_names)))
        self.bindings: dict = {}        # local slot -> [(expression, filter types or None)]
        self.moves: list = []           # (card expression, destination zone instances)
        self.deals: list = []           # (source ZoneRef, destination decl)
        for node in nodes(program.rules):
            self.note(node)

    def note(self, x) -> None:
        """Remember what one node of the rules moves or binds."""
        bind = self.bindings.setdefault
        if isinstance(x, ir.MoveS):
            self.moves.append((x.cards, self.instances(x.dest)))
        elif isinstance(x, ir.DealS):
            self.deals.append((x.source, x.dest))
        elif isinstance(x, (ir.LetS, ir.ForS, ir.Gen)):
            bind(x.slot, []).append((x.value if isinstance(x, ir.LetS) else x.iterable, None))
        elif isinstance(x, ir.UserCall):
            for slot, arg in zip(x.fn.params, x.args):
                bind(slot, []).append((arg, None))
        elif isinstance(x, ir.CallS):       # a procedure's parameters hold what its calls pass
            for slot, arg in zip(x.slots, x.args):
                bind(slot, []).append((arg, None))
        elif isinstance(x, ir.ChooseS):
            if x.cards is not None:
                bind(x.slot, []).append((x.cards.cards, self.passing(x.cards.where)))
            if x.values is not None:
                bind(x.slot, []).append((x.values, None))
            for part in x.parts:
                bind(part.slot, []).append((part.values, None))
            for opt in x.options:
                if opt.cards is not None and opt.slot is not None:
                    bind(opt.slot, []).append((opt.cards.cards, self.passing(opt.cards.where)))

    # ---- where the cards come from and go ----
    def instances(self, ref: ir.ZoneRef) -> list:
        """The zone instances a zone reference may name (every owner; every index unless constant)."""
        return self.of(ref.decl, ref.index)

    def of(self, decl: ir.ZoneDecl, index=None) -> list:
        """The instances of a declaration: every owner's; the one of a constant index, else all."""
        p, name = self.p, decl.name
        base, width = p.zone_base[name], p.zone_width[name]
        owners = p.players if decl.per_player else 1
        picks = range(width)
        if index is not None and is_static(index):
            try:
                picks = [p.family[name][p.const(index)]]
            except Exception:           # not an index of the family: the run time reports it
                picks = range(width)
        return [base + o * width + k for o in range(owners) for k in picks]

    def sources(self, e, busy: frozenset = frozenset()) -> list:
        """[(zone instances or ANY, types passing a filter or None)] an expression's cards come from."""
        if not isinstance(e, ir.Expr) or e.type in NONCARD:
            return []
        if isinstance(e, ir.ZoneRef):
            return [(self.instances(e), None)]
        if isinstance(e, ir.Filter):
            keep = self.passing(e.cond)
            return [(zs, _meet(t, keep)) for zs, t in self.sources(e.cards, busy)]
        if isinstance(e, ir.TopN):
            return self.sources(e.cards, busy)
        if isinstance(e, ir.Cond):
            return self.sources(e.then, busy) + self.sources(e.orelse, busy)
        if isinstance(e, ir.Local):
            if e.slot in busy:          # bound to itself: adds nothing to its other bindings
                return []
            inner = busy | {e.slot}
            return [(zs, _meet(t, keep)) for x, keep in self.bindings.get(e.slot, [])
                    for zs, t in self.sources(x, inner)]
        if isinstance(e, ir.UserCall):
            if e.fn.name in busy:
                return []
            return self.sources(e.fn.body, busy | {e.fn.name})
        if isinstance(e, ir.Func):          # first, last, reversed, an item of a list...: from its arguments
            return [s for a in e.args for s in self.sources(a, busy)]
        if isinstance(e, ir.Bin):
            return self.sources(e.left, busy) + self.sources(e.right, busy)
        if isinstance(e, ir.ListLit):
            return [s for a in e.items for s in self.sources(a, busy)]
        if isinstance(e, ir.Gen):
            return self.sources(e.expr, busy)
        if isinstance(e, (ir.Lit, ir.Param, ir.Builtin, ir.CardAttr, ir.GetAttr, ir.Cmp, ir.InOp, ir.Logic,
                          ir.NotOp, ir.NegOp)):
            return []
        return [(ANY, None)]            # a variable, or anything else: it may hold any card

    def passing(self, cond):
        """The types a filter lets through when it reads only the card's attributes; else None (all)."""
        if cond is None:
            return None
        try:
            return frozenset(t for t in self.every if _passes(self, cond, self.p.type_attrs[t]))
        except Unknown:
            return None

    # ---- the fixpoint ----
    def solve(self) -> list:
        """Per zone instance, the types that start there and all that the moves bring, to a fixpoint."""
        p = self.p
        may = [set() for _ in p.zone_names]
        for c, z in enumerate(p.card_start):
            may[z].add(p.card_type[c])
        flows = [(self.sources(cards), dests) for cards, dests in self.moves]
        for src, decl in self.deals:
            flows.append(([(self.instances(src), None)], self.of(decl)))
        changed = True
        while changed:
            changed = False
            for srcs, dests in flows:
                got = set()
                for zs, keep in srcs:
                    came = set(self.every) if zs is ANY else set().union(*(may[z] for z in zs))
                    got |= came if keep is None else came & keep
                for z in dests:
                    if not got <= may[z]:
                        may[z] |= got
                        changed = True
        return [frozenset(m) for m in may]


def _meet(a, b):
    """Two filters one after the other (None lets every type through)."""
    if a is None:
        return b
    return a if b is None else a & b


def _passes(reach: Reach, e, attrs: dict) -> bool:
    """Whether a card with these attributes may pass the filter (True when the value is unclear)."""
    return _truth(reach, e, attrs) is not False


def _truth(reach: Reach, e, attrs: dict):
    """True, False, or None when unclear (a value of the wrong kind); Unknown when the filter reads
    anything but the card's attributes and constants."""
    if isinstance(e, ir.Logic):
        a, b = _truth(reach, e.left, attrs), _truth(reach, e.right, attrs)
        if e.op == "and":
            return False if False in (a, b) else (True if a and b else None)
        return True if True in (a, b) else (False if a is False and b is False else None)
    if isinstance(e, ir.NotOp):
        a = _truth(reach, e.operand, attrs)
        return None if a is None else not a
    try:
        return bool(_value(reach, e, attrs))
    except (TypeError, ValueError, ArithmeticError):
        return None


def _value(reach: Reach, e, attrs: dict):
    """The value of part of a filter for one card type; Unknown when it reads anything but the card."""
    if isinstance(e, ir.CardAttr):
        return attrs.get(e.attr)
    if is_static(e):
        return reach.p.const(e)
    if isinstance(e, ir.Cmp) and e.op in _CMP:
        return _CMP[e.op](_value(reach, e.left, attrs), _value(reach, e.right, attrs))
    if isinstance(e, ir.Bin) and e.op in _BIN:
        return _BIN[e.op](_value(reach, e.left, attrs), _value(reach, e.right, attrs))
    if isinstance(e, ir.InOp):
        found = _value(reach, e.left, attrs) in _value(reach, e.right, attrs)
        return found != e.negate
    if isinstance(e, (ir.Logic, ir.NotOp)):
        a = _truth(reach, e, attrs)
        if a is None:
            raise TypeError("unclear")
        return a
    raise Unknown
