"""`announce none of ZONE where CONDITION` at run time: checked true, then told to every seat.

The event (NONE, zone, types) says the zone holds no card of those types: every type whose cards
meet the condition now. Every seat sees it (views.py keeps it as an upper bound per type).
"""
from __future__ import annotations

from ..errors import RuleRuntimeError
from .engine import RULE_FAILURES

NONE = "none"       # event kind: (NONE, zone, types the zone holds none of), seen by every seat


def announce_none(st, z: int, holds, reps: tuple, pos, zone_names: list) -> None:
    """Refuse a false announcement; log the types it rules out (`reps`: (type, a card of it))."""
    n = sum(1 for c in st.zones[z] if holds(c))
    if n:
        raise RuleRuntimeError(pos, f"announce none of {zone_names[z]} is not true: it holds {n} such "
                               f"card{'s' if n != 1 else ''} (a rule may announce only what is true; "
                               "test it first, e.g. if: count(ZONE where ...) == 0)")
    if st.log is not None:
        st.log.append((NONE, z, tuple(t for t, c in reps if meets(holds, c))))


def meets(holds, c) -> bool:
    """Whether the condition holds for card c; a type it cannot be worked out for (an attribute its
    kind lacks) is not ruled out: saying less is always safe."""
    try:
        return bool(holds(c))
    except RULE_FAILURES:
        return False


def representatives(card_type: list) -> tuple:
    """(type, its first card id) for every card type, in type order."""
    first: dict = {}
    for c, t in enumerate(card_type):
        first.setdefault(t, c)
    return tuple(sorted(first.items()))
