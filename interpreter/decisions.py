"""Decision points: which moves are legal, how a move binds, and its canonical text.

A move is a small tuple (the payload); interchangeable cards (same type) give one move.
  cards:   ((type, n), ...) sorted by type
  value:   (value,)
  options: (option index, cards payload or None)
"""
from __future__ import annotations

from .errors import Pos, RuleRuntimeError


def multisets(groups: list, lo: int, hi: int) -> list:
    """Every choice of counts from [(type, available), ...] whose total lies in [lo, hi]."""
    out: list = []
    acc: list = []
    last = len(groups)

    def rec(i: int, total: int) -> None:
        if i == last:
            if total >= lo:
                out.append(tuple(acc))
            return
        t, avail = groups[i]
        rec(i + 1, total)
        for k in range(1, min(avail, hi - total) + 1):
            acc.append((t, k))
            rec(i + 1, total + k)
            acc.pop()

    rec(0, 0)
    return out


class CardSpec:
    """Which cards a decision may pick: candidates, a per-card condition, bounds, a shared attribute."""

    def __init__(self, cards, where, lo, hi, same_table, type_of, type_names):
        self.cards, self.where, self.lo, self.hi = cards, where, lo, hi
        self.same, self.type_of, self.type_names = same_table, type_of, type_names
        self.cache: dict = {}   # (type counts, lo, hi) -> moves; the moves depend on nothing else
        self.zone_vis = self.zone_names = self.pos = None     # set by the compiler: the visibility guard
        self.one_zone = False

    def candidates(self, st) -> list:
        cands = self.cards(st, None)
        where = self.where
        return [c for c in cands if where(st, c)] if where is not None else list(cands)

    def payloads(self, st) -> list:
        """Every legal multiset of card types, deduplicated by type (cached by type counts)."""
        cands = self.cards(st, None)
        if self.where is not None:
            where = self.where
            cands = [c for c in cands if where(st, c)]
        if self.zone_vis is not None and cands:
            bit, loc, vis = 1 << st.decider, st.loc, self.zone_vis
            for c in (cands[:1] if self.one_zone else cands):
                if not vis[loc[c]] & bit:
                    raise RuleRuntimeError(self.pos, f"seat {st.decider} would choose among cards it cannot see "
                                           f"(in {self.zone_names[loc[c]]}): the legal moves would name them")
        lo = self.lo(st, None)
        hi = len(cands) if self.hi is None else min(self.hi(st, None), len(cands))
        key = (tuple(sorted(map(self.type_of.__getitem__, cands))), lo, hi)
        found = self.cache.get(key)
        if found is None:
            counts: dict = {}
            for t in key[0]:
                counts[t] = counts.get(t, 0) + 1
            found = self.cache[key] = self.enumerate(tuple(counts.items()), lo, hi)
        return found

    def enumerate(self, counts: tuple, lo: int, hi: int) -> list:
        if lo > hi:
            return []
        if self.same is None:
            return multisets(list(counts), lo, hi)
        groups: dict = {}
        for t, n in counts:
            groups.setdefault(self.same[t], []).append((t, n))
        out = [()] if lo == 0 else []
        for group in groups.values():
            out.extend(multisets(group, max(lo, 1), hi))
        return out

    def bind(self, st, payload) -> list:
        """The concrete cards for a payload: the topmost candidates of each type."""
        cands = self.candidates(st)
        type_of = self.type_of
        chosen = []
        for t, n in payload:
            picked = [c for c in cands if type_of[c] == t][-n:]
            chosen.extend(picked)
        return chosen

    def text(self, payload) -> str:
        if not payload:
            return "nothing"
        names = self.type_names
        return " + ".join(f"{n}*{names[t]}" for t, n in payload)


class Decision:
    """One `choose` of the rules, compiled."""

    def __init__(self, index: int, name: str, slot: int, pos: Pos):
        self.index, self.name, self.slot, self.pos = index, name, slot, pos
        self.kind = "cards"
        self.cards: CardSpec | None = None
        self.values = None
        self.where = None
        self.options: list = []         # [(name, slot, CardSpec or None)]
        self.by = None

    def moves(self, st) -> list:
        """Every legal move at this decision, in a fixed order."""
        if self.kind == "cards":
            return self.cards.payloads(st)
        if self.kind == "value":
            vals = list(dict.fromkeys(self.values(st, None)))   # a repeated value is one move
            if self.where is None:
                return [(v,) for v in vals]
            out, slot, vars_ = [], self.slot, st.vars
            keep = vars_[slot]
            for v in vals:
                vars_[slot] = v
                if self.where(st, None):
                    out.append((v,))
            vars_[slot] = keep
            return out
        out = []
        for i, (_, _, spec) in enumerate(self.options):
            if spec is None:
                out.append((i, None))
            else:
                out.extend((i, p) for p in spec.payloads(st))
        return out

    def bind(self, st, move) -> None:
        """Store the chosen move in the decision's local slot(s)."""
        if self.kind == "cards":
            st.vars[self.slot] = self.cards.bind(st, move)
        elif self.kind == "value":
            st.vars[self.slot] = move[0]
        else:
            i, payload = move
            name, slot, spec = self.options[i]
            st.vars[self.slot] = name
            if spec is not None:
                st.vars[slot] = spec.bind(st, payload)
            st.vars[self.option_slot] = i

    def text(self, move) -> str:
        """The canonical text of a move: what players type and records store."""
        if self.kind == "cards":
            return f"{self.name}: {self.cards.text(move)}"
        if self.kind == "value":
            return f"{self.name}: {show(move[0])}"
        i, payload = move
        name, _, spec = self.options[i]
        return name if spec is None else f"{name}: {spec.text(payload)}"


def show(value) -> str:
    """A value as the rules language writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def normalise(text: str) -> str:
    """Move text compared loosely: spaces and case ignored, × for *, card terms in any order."""
    t = "".join(text.split()).replace("×", "*").lower()
    head, sep, terms = t.partition(":")       # names of decisions and options hold no ':'

    if "*" in terms and "+" in terms:
        terms = "+".join(sorted(terms.split("+")))
    return head + sep + terms
