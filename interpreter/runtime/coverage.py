"""Rule coverage at run time: which rules an instrumented program ran, and how many cards each move moved.

The instrumented code (compiler/coverage.py) adds to two lists, `counts` and `moved`, that are
constants of the generated code, so counting costs one list increment and no look-up. Counting
is switched off by remembering the lists as they stand and putting them back when it is switched
on again: what ran in between (a bot's look-ahead on a cloned state) is thrown away.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import Pos

KINDS = ("step", "then", "else", "option", "on_empty", "move")


@dataclass(frozen=True)
class CoveragePoint:
    """A place in the rules whose runs are counted: its kind (see KINDS), the rule's position, a label."""

    kind: str
    pos: Pos
    text: str


class Coverage:
    """The counters of one instrumented program, aligned with its coverage points."""

    def __init__(self, points: list, counts: list, moved: list):
        self.points = points
        self.counts, self.moved = counts, moved      # the very lists the generated code adds to
        self.on = True
        self.saved: tuple | None = None              # the lists as they stood when counting was switched off
        self.prefix = ([0] * len(counts), [0] * len(moved))   # what the setup's cached prefix ran

    def switch(self, on: bool) -> None:
        """Count from now on (on) or stop counting (what runs until it is switched on is forgotten)."""
        if on and not self.on:
            self.counts[:], self.moved[:] = self.saved
            self.saved = None
        elif not on and self.on:
            self.saved = (self.counts[:], self.moved[:])
        self.on = on

    def take(self) -> tuple:
        """(counts, moved) counted so far, then zeroed."""
        counts, moved = self.saved if not self.on else (self.counts[:], self.moved[:])
        self.counts[:] = [0] * len(self.counts)
        self.moved[:] = [0] * len(self.moved)
        if self.saved is not None:
            self.saved = (self.counts[:], self.moved[:])
        return list(counts), list(moved)

    def run_prefix(self, setup):
        """The setup's prefix as Program.initial runs it once: its counts are kept apart and added to
        every game (start_game), since the cached result stands for running it in each."""
        def run(st):
            before = (self.counts[:], self.moved[:])
            try:
                setup(st)
            finally:
                self.prefix = ([a - b for a, b in zip(self.counts, before[0])],
                               [a - b for a, b in zip(self.moved, before[1])])
                self.counts[:], self.moved[:] = before
        return run

    def start_game(self) -> None:
        """A new game starts: the prefix ran in it too (counted only while counting is on)."""
        if self.on:
            for i, n in enumerate(self.prefix[0]):
                self.counts[i] += n
            for i, n in enumerate(self.prefix[1]):
                self.moved[i] += n


def plain_points(points: list) -> list:
    """Coverage points as plain dicts {"kind", "where", "text"}, as results files and the analysis take them."""
    return [{"kind": p.kind, "where": str(p.pos), "text": p.text} for p in points]
