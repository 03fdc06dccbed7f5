"""The public view (a spectator's): what every seat at the table sees, and no more.

A spectator is a seat of its own that sees a zone only when every seat sees it, and a card's face
only when every seat saw it move (a move's mask holds every seat). It is an Observer (views.py) of
a program whose zone visibility says just that, fed the events with each mask put the same way;
nobody's decisions reach it (they show only in what they move).
"""
from __future__ import annotations

from ...runtime.engine import DECIDE, MOVE, REVEAL, SHUFFLE
from ...runtime.tell import TELL
from ...seats.views import Observer


class PublicProgram:
    """A program as a spectator (seat 0 here) sees it: zone_vis bit 0 set for the zones everyone sees."""

    def __init__(self, program):
        self._program = program
        everyone = (1 << program.players) - 1
        self.zone_vis = [1 if vis & everyone == everyone else 0 for vis in program.zone_vis]
        self.zone_positions = [1 if m & everyone == everyone else 0 for m in program.zone_positions]

    def __getattr__(self, name):
        return getattr(self._program, name)


def public_events(program, events: list) -> list:
    """The events as a spectator sees them: a face only when every seat saw it, no decisions."""
    everyone = (1 << program.players) - 1
    out = []
    for e in events:
        kind = e[0]
        if kind == DECIDE:
            continue
        if kind == MOVE:
            seen = not isinstance(e[3], int) and e[4] & everyone == everyone
            out.append((MOVE, e[1], e[2], e[3] if seen else len(e[3]) if not isinstance(e[3], int) else e[3],
                        1 if seen else 0) + tuple(e[5:]))
        elif kind == SHUFFLE:
            seen = e[3] & everyone == everyone and e[2] is not None
            out.append((SHUFFLE, e[1], e[2], 1) if seen else (SHUFFLE, e[1], None, 0))
        elif kind in (REVEAL, TELL):    # shown or told to the spectator only when to every seat
            told = not isinstance(e[2], int) and e[3] & everyone == everyone
            n = e[2] if isinstance(e[2], int) else len(e[2])
            out.append(e if told else (kind, e[1], n, e[3]) + (None,) * (len(e) - 4))   # who: public
        else:
            out.append(e)
    return out


def public_observer(program) -> Observer:
    """A fresh spectator's memory: an Observer of seat 0 of the public program."""
    return Observer(PublicProgram(program), 0)
