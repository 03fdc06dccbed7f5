"""A deal of the hidden cards that keeps what the seat was told (`tell`, views.py: View.told).

Each told position is a place of capacity one that may take only the types it may be; the other free
places of a zone take any card of its kinds; a zone's upper bounds (`announce none of`) hold over all
its places. A greedy fill (the told places first, the fewest fitting cards first, each card drawn
evenly among those that fit) is tried a few times; then an exact fill is found as a max-flow of card
types to places, which exists whenever the knowledge is true. A deal that fits no way is a bug:
bounded.InconsistentKnowledge.
"""
from __future__ import annotations

from collections import deque

from .bounded import InconsistentKnowledge, _room

TRIES = 8       # greedy fills tried before the exact one


def deal_told(program, placed: dict, by_type: dict, kinds, most: dict, told: dict, gen, below, shuffle,
              fill_rest) -> None:
    """Fill the None places of `placed` (zone -> card ids) from `by_type` (type -> ids left): each told
    place (told: zone -> {position: types}) with a card of a type it may be, the rest by `fill_rest(placed,
    by_type)` (the usual deal of what is left), unless that fails; then all at once, exactly."""
    card_type, kind_of = program.card_type, program.attr_tables["kind"]
    places = [(z, i, may) for z in told for i, may in told[z].items() if placed[z][i] is None]
    for _ in range(TRIES):
        trial = {z: list(cs) for z, cs in placed.items()}
        left = {t: list(cs) for t, cs in by_type.items()}
        if _greedy(places, trial, left, kinds, most, card_type, kind_of, gen, below, shuffle):
            try:
                fill_rest(trial, left)
            except InconsistentKnowledge:
                continue
            if _fits(trial, told, kinds, most, card_type, kind_of):
                placed.update(trial)
                return
    _exact(placed, by_type, kinds, most, told, card_type, kind_of, gen, shuffle)


def _greedy(places, trial, left, kinds, most, card_type, kind_of, gen, below, shuffle) -> bool:
    """The told places filled one by one, the one with the fewest fitting cards first; False when one
    is left with none."""
    room = {z: _room(trial[z], most.get(z, {}), card_type) for z in trial} if most else {}
    todo = list(places)
    shuffle(gen, todo)
    while todo:
        options = []
        for k, (z, i, may) in enumerate(todo):
            fit = [t for t in may if left.get(t) and (not kinds or kind_of[left[t][0]] in kinds[z])
                   and room.get(z, {}).get(t, 1) > 0]
            options.append((sum(len(left[t]) for t in fit), k, fit))
        n, k, fit = min(options, key=lambda o: o[0])
        if not n:
            return False
        z, i, _ = todo.pop(k)
        r = below(gen, n)
        for t in fit:
            if r < len(left[t]):
                trial[z][i] = left[t].pop(r)
                if t in room.get(z, {}):
                    room[z][t] -= 1
                break
            r -= len(left[t])
    return True


def _fits(placed, told, kinds, most, card_type, kind_of) -> bool:
    """Whether a deal keeps every told fact, kind and bound (the usual fill of the rest may not)."""
    for z, zone in placed.items():
        if None in zone:
            return False
        if kinds and any(kind_of[c] not in kinds[z] for c in zone):
            return False
        for i, may in told.get(z, {}).items():
            if card_type[zone[i]] not in may:
                return False
        bounds = most.get(z) if most else None
        if bounds and any(n < 0 for n in _room(zone, bounds, card_type).values()):
            return False
    return True


def _exact(placed, by_type, kinds, most, told, card_type, kind_of, gen, shuffle) -> None:
    """Fill every None place at once from a max-flow of types to places (told positions, and per zone
    one place for its other free positions), through each zone's bounds."""
    types = [t for t, cs in by_type.items() if cs]
    kind_t = {t: kind_of[by_type[t][0]] for t in types}
    groups, loose = [], []      # (zone, positions, types it may take): with the kinds, and without
    for z, zone in placed.items():
        facts = told.get(z, {})
        rest = [i for i, c in enumerate(zone) if c is None and i not in facts]
        fit = {t for t in types if not kinds or kind_t[t] in kinds[z]}
        if rest:
            groups.append((z, rest, fit))
            loose.append((z, rest, set(types)))
        for i, may in facts.items():
            if zone[i] is None:
                groups.append((z, [i], fit & set(may)))
                loose.append((z, [i], set(may) & set(types)))
    supply = {t: len(by_type[t]) for t in types}
    flow = _max_flow(groups, supply, placed, most, card_type, gen, shuffle)
    if flow is None and kinds:          # the kinds are an over-estimate kept for speed: facts and bounds first
        groups = loose
        flow = _max_flow(groups, supply, placed, most, card_type, gen, shuffle)
    if flow is None:
        raise InconsistentKnowledge("no deal of the hidden cards fits this seat's knowledge (told facts): "
                                    "a bug in cardrules, please report it")
    left = {t: list(cs) for t, cs in by_type.items()}
    for k, (z, positions, _) in enumerate(groups):
        cards = [left[t].pop() for t, n in sorted(flow[k].items()) for _ in range(n)]
        shuffle(gen, cards)
        for i, c in zip(positions, cards):
            placed[z][i] = c


def _max_flow(groups, supply, placed, most, card_type, gen, shuffle):
    """[{type: cards sent}] per group filling every group, or None: source -> type -> (zone, type) ->
    group -> sink, the (zone, type) edge capped by the zone's bound for the type."""
    cap: dict = {}
    adj: dict = {}

    def edge(a, b, c):
        cap[(a, b)] = cap.get((a, b), 0) + c
        cap.setdefault((b, a), 0)
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)

    need = sum(len(ps) for _, ps, _ in groups)
    order = list(supply)
    shuffle(gen, order)
    for t in order:
        edge("s", ("t", t), supply[t])
    zones = {z for z, _, _ in groups}
    for z in zones:
        room = _room(placed[z], most.get(z, {}), card_type) if most else {}
        for t in order:
            edge(("t", t), ("zt", z, t), max(0, room.get(t, need)))
    for k, (z, ps, fit) in enumerate(groups):
        for t in order:
            if t in fit:
                edge(("zt", z, t), ("g", k), len(ps))
        edge(("g", k), "e", len(ps))
    total = 0
    while True:
        back = {"s": None}
        queue = deque(["s"])
        while queue and "e" not in back:
            a = queue.popleft()
            for b in adj.get(a, ()):
                if b not in back and cap[(a, b)] > 0:
                    back[b] = a
                    queue.append(b)
        if "e" not in back:
            break
        b, push = "e", None
        while back[b] is not None:
            a = back[b]
            push = cap[(a, b)] if push is None else min(push, cap[(a, b)])
            b = a
        b = "e"
        while back[b] is not None:
            a = back[b]
            cap[(a, b)] -= push
            cap[(b, a)] += push
            b = a
        total += push
    if total < need:
        return None
    out = []
    for k, (z, _, fit) in enumerate(groups):
        out.append({t: cap[(("g", k), ("zt", z, t))] for t in fit if cap.get((("g", k), ("zt", z, t)), 0) > 0})
    return out
