"""Who is in play and which way play goes: a mask of the seats out (bit s: seat s is out) and a
direction (1 clockwise, -1 the other way), kept in two hidden variables of the state. Before the
rules first set them they hold None: nobody out, clockwise."""
from __future__ import annotations

from ..errors import RuleRuntimeError


def in_play(out, n: int) -> list:
    """The seats in play, in seat order."""
    if not out:
        return list(range(n))
    return [s for s in range(n) if not out >> s & 1]


def seat_after(p: int, way, n: int) -> int:
    """The seat after p in the direction of play, in play or not (`around` passing every seat)."""
    return (p + (way or 1)) % n


def going_round(out, way, p: int, by: int, n: int, pos) -> int:
    """The first seat in play going round from p (by 1: next, -1: prev) in the direction of play;
    p itself when it is the only one in play. No seat in play is an error at the rule."""
    step = by * (way or 1)
    out = out or 0
    for k in range(1, n + 1):
        s = (p + k * step) % n
        if not out >> s & 1:
            return s
    raise RuleRuntimeError(pos, "every seat is out of play, so there is no next or previous seat: "
                           "end the game (or restore a seat) before the last one is eliminated")


def next_turn(out, way, current: int, chosen, n: int, pos) -> int:
    """Who plays next: turn.next's seat (`chosen`, taken modulo n) if given, else the seat after the
    current one; a seat out of play passes its turn to the next seat in play after it."""
    if chosen is None:
        return going_round(out, way, current, 1, n, pos)
    s = chosen % n
    if not (out or 0) >> s & 1:
        return s
    return going_round(out, way, s, 1, n, pos)
