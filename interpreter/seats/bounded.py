"""A deal of the hidden cards that keeps the seat's upper bounds: `announce none of` (views.py, U).

The free places (those the seat's K and known positions left open) are filled zone by zone, the
zones with bounds first (the one with the fewest cards it may take first), each place drawing evenly
among the cards left of a type its zone may hold (its kinds, and below its bound). A greedy fill can
paint itself into a corner (a zone left with only cards it may not hold): it is tried again with new
draws a few times, then an exact fill is found as a flow of cards of each type to zones (max-flow),
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
        got = _greedy(order, free, fits, room, by_type, gen, below)
        if got is not None:
            break
    else:
        got = _exact(order, free, fits, room, by_type, gen, shuffle)
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


def _greedy(order: list, free: dict, fits: dict, room: dict, by_type: dict, gen, below):
    """{zone: card ids} drawn place by place, or None when a zone is left with nothing it may take."""
    left = {t: list(cs) for t, cs in by_type.items() if cs}
    got = {}
    for z in order:
        space, cards = dict(room[z]), []
        for _ in free[z]:
            types = [t for t in fits[z] if left.get(t) and space.get(t, 1) > 0]
            if not types:
                return None
            r = below(gen, sum(len(left[t]) for t in types))
            for t in types:
                if r < len(left[t]):
                    cards.append(left[t].pop(r))
                    if t in space:
                        space[t] -= 1
                    break
                r -= len(left[t])
        got[z] = cards
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
