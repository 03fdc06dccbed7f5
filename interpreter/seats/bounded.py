"""A deal of the hidden cards that keeps the seat's upper bounds: `announce none of` (views.py, U).

The free places (those the seat's K and known positions left open) are filled zone by zone, the
zones with bounds first (the one with the fewest cards it may take first), each zone's cards drawn
evenly among the cards left of the types it may hold (its kinds, and not a type it has none of). A
greedy fill can paint itself into a corner (a zone left with only cards it may not hold, or with more
of a type than its bound): it is tried again with new draws a few times, then an exact fill is found as a flow of cards of each type to zones (max-flow),
which exists whenever the knowledge is true. A deal that fits no way is a bug: a clear error.
"""
from __future__ import annotations

TRIES = 8       # greedy fills tried before the exact one (one is nearly always enough)


class InconsistentKnowledge(RuntimeError):
    """No deal of the hidden cards fits the seat's knowledge (never, while the events are true)."""


def deal_bounded(program, placed: dict, by_type: dict, kinds, most: dict, gen, below, shuffle) -> None:
    """Fill the None places of `placed` (zone -> card ids) from `by_type` (type -> ids left), so
    that each zone holds only kinds it may hold and at most U(z)[t] cards of each type t."""
    kind_of = program.attr_tables["kind"]
    type_kind = {t: kind_of[cs[0]] for t, cs in by_type.items() if cs}
    room = {z: _room(placed[z], most.get(z, {}), program.card_type) for z in placed}
    fits = {z: [t for t in type_kind if (not kinds or type_kind[t] in kinds[z]) and room[z].get(t, 1) > 0]
            for z in placed}
    free = {z: [i for i, c in enumerate(placed[z]) if c is None] for z in placed}
    order = sorted(placed, key=lambda z: (z not in most, sum(len(by_type[t]) for t in fits[z])))
    for _ in range(TRIES):
        got = _greedy(order, free, fits, room, by_type, gen, below, program.card_type)
        if got is not None:
            break
    else:
        try:
            got = _exact(order, free, fits, room, by_type, gen, shuffle)
        except InconsistentKnowledge:   # the kinds are an over-estimate kept for speed: the bounds come first
            loose = {z: [t for t in type_kind if room[z].get(t, 1) > 0] for z in placed}
            got = _exact(order, free, loose, room, by_type, gen, shuffle)
    for z in order:
        places = free[z]
        shuffle(gen, places)            # which free place gets which card: at random
        for i, c in zip(places, got[z]):
            placed[z][i] = c


def _room(zone: list, most: dict, card_type: list) -> dict:
    """{type: how many more of it the zone may take} for its bounded types."""
    room = dict(most)
    for c in zone:
        if c is not None and card_type[c] in room:
            room[card_type[c]] -= 1
    return room


def _greedy(order: list, free: dict, fits: dict, room: dict, by_type: dict, gen, below, card_type: list):
    """{zone: card ids}, each zone's drawn evenly among the cards left that it may hold, or None when
    a zone is left short, or drew more of a type than its bound allows (then the caller tries again)."""
    left = {t: list(cs) for t, cs in by_type.items() if cs}
    got = {}
    for z in order:
        n = len(free[z])
        cand = [c for t in fits[z] for c in left.get(t, ())]
        if len(cand) < n:
            return None
        for i in range(n):                  # the first n of a partial shuffle: n cards drawn evenly
            j = i + below(gen, len(cand) - i)
            cand[i], cand[j] = cand[j], cand[i]
        cards = got[z] = cand[:n]
        drawn: dict = {}
        for c in cards:
            t = card_type[c]
            drawn[t] = drawn.get(t, 0) + 1
        if any(k > room[z].get(t, k) for t, k in drawn.items()):
            return None
        taken = set(cards)
        for t in drawn:
            left[t] = [c for c in left[t] if c not in taken]
    return got


def _exact(order: list, free: dict, fits: dict, room: dict, by_type: dict, gen, shuffle) -> dict:
    """{zone: card ids} from a max-flow of types to zones (types and zones tried in random order)."""
    types = [t for t, cs in by_type.items() if cs]
    shuffle(gen, types)
    supply = {t: len(by_type[t]) for t in types}
    need = {z: len(free[z]) for z in order}
    flow: dict = {}                     # (type, zone) -> cards of the type sent to the zone

    def cap(t, z):
        return min(room[z].get(t, len(free[z])), len(free[z])) - flow.get((t, z), 0)

    def augment(z, seen) -> bool:
        """Find a type to send one more card to z: from supply, or taken from another zone."""
        for t in types:
            if t not in fits[z] or cap(t, z) <= 0 or t in seen:
                continue
            seen.add(t)
            if supply[t] > 0:
                supply[t] -= 1
            else:
                others = [z2 for z2 in order if flow.get((t, z2), 0) > 0 and z2 != z]
                if not any(_push(z2, t, seen) for z2 in others):
                    continue
            flow[(t, z)] = flow.get((t, z), 0) + 1
            return True
        return False

    def _push(z2, t, seen) -> bool:
        """Zone z2 gives back a card of type t if it can take another type instead."""
        if augment(z2, seen):
            flow[(t, z2)] -= 1
            return True
        return False

    for z in order:
        for _ in range(need[z]):
            if not augment(z, set()):
                raise InconsistentKnowledge("no deal of the hidden cards fits this seat's knowledge (upper "
                                            "bounds from announce none of): a bug in cardrules, please report it")
    left = {t: list(cs) for t, cs in by_type.items()}
    return {z: [left[t].pop() for t in types for _ in range(flow.get((t, z), 0))] for z in order}
