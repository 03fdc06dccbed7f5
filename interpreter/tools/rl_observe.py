"""A seat's view as a fixed-length vector of numbers, for learning agents (interpreter.pettingzoo).

The vector is read from a `View` (interpreter/seats/views.py) and from which decision the seat is
asked, never from a State, so it holds only what the seat may know. Its layout is fixed per ruleset
and player count; `names` names every component, in order:

  seat k         1 for the seat that observes (one per seat)
  current k      1 for the seat whose turn it is (all 0 before the first turn)
  turn           the turn number (0 before the first turn)
  asked D        1 for the decision the seat is asked now (all 0 when it is not asked)
  size Z         how many cards zone Z holds (every zone instance: hand(0), pile[2], ...)
  Z has T        how many cards of type T the seat knows to be in Z (seen, or sure by memory: K)
  var V / V(k)   each variable that starts as a number or true/false (true is 1; a value that is
                 no number, such as empty, is 0)
"""
from __future__ import annotations

from collections import Counter

from ..seats.views import Observer

BIG = 3.0e38        # the bound of a turn number or a variable (what a 32-bit float holds)


class Layout:
    """The components of one ruleset's observation at one player count, and how to fill them."""

    def __init__(self, program):
        self.program = program
        n, types = program.players, program.type_names
        decisions = program.decisions
        shared = Counter(d.name for d in decisions)
        self.names = ([f"seat {k}" for k in range(n)] + [f"current {k}" for k in range(n)] + ["turn"]
                      + [f"asked {d.name}" if shared[d.name] == 1 else f"asked {d.name} (line {d.pos.line})"
                         for d in decisions])
        self.asked_at = 2 * n + 1
        self.zone_at = len(self.names)
        self.width = len(types) + 1                 # per zone: its size, then a count per type
        for z in program.zone_names:
            self.names += [f"size {z}"] + [f"{z} has {t}" for t in types]
        self.var_at = len(self.names)
        start = Observer(program, 0).vars
        self.var_keys = [key for key in sorted(start, key=_var_order) if _numeric(start[key])]
        self.names += [f"var {name}" if owner is None else f"var {name}({owner})" for name, owner in self.var_keys]
        self.low, self.high = self.bounds()

    def __len__(self) -> int:
        return len(self.names)

    def bounds(self) -> tuple:
        """The least and greatest value of each component: 0 to 1, to the cards of the game (or of
        the type), to BIG for the turn; ±BIG for a variable."""
        program = self.program
        copies = Counter(program.card_type)
        cards = len(program.card_type)
        low, high = [0.0] * len(self.names), [1.0] * len(self.names)
        high[self.asked_at - 1] = BIG
        per_zone = [float(cards)] + [float(copies[t]) for t in range(len(program.type_names))]
        for z in range(len(program.zone_names)):
            at = self.zone_at + z * self.width
            high[at:at + self.width] = per_zone
        for i in range(self.var_at, len(self.names)):
            low[i], high[i] = -BIG, BIG
        return low, high

    def vector(self, view, asked) -> list:
        """The components for a view, `asked` being the index of the decision the seat is asked now
        (None when it is not asked)."""
        out = [0.0] * len(self.names)
        for i, value in self.entries(view, asked):
            out[i] = value
        return out

    def entries(self, view, asked):
        """(index, value) of every component that may be other than 0 (what `vector` fills in)."""
        n = self.program.players
        yield view.seat, 1.0
        if view.current is not None:
            yield n + view.current, 1.0
        yield 2 * n, float(view.turn)
        if asked is not None:
            yield self.asked_at + asked, 1.0
        at, width = self.zone_at, self.width
        for z, cards in enumerate(view.zones):
            base = at + z * width
            yield base, float(len(cards))
            for t, count in view.known[z]:
                yield base + 1 + t, float(count)
        values = dict(view.vars)
        for i, key in enumerate(self.var_keys, self.var_at):
            value = values.get(key)
            yield i, float(value) if _numeric(value) else 0.0


def _numeric(value) -> bool:
    return isinstance(value, (int, float)) and abs(value) < BIG


def _var_order(key) -> tuple:
    name, owner = key
    return (name, -1 if owner is None else owner)
