"""Determinised copies of a game, and what a bot reads of them.

`determinise` makes a copy of a state in which every card a seat cannot see is dealt again at random
(from the bot's own generator) into the places hidden from it: what the copy keeps is exactly what
the seat's view holds: the zones it sees, the sizes of the others, and, given the seat's View
(views.py), its perfect-memory knowledge: the card types guaranteed in each hidden zone (K) and
the positions it knows there are dealt first, the rest at random. `sanitised` is the copy a Seat
keeps (a `Base`): the hidden cards laid in id order, a fixed generator, no log: nothing the seat
may not know. A bot deals many worlds from it at one decision (ismcts one per iteration), so what
they all share is worked out once, at the first (a `Dealer`, kept on the Base): each world then
only draws, with the very draws of a deal from scratch.
`margin` and `evaluations` read the ruleset's evaluation (its score, or its `bots.eval`).
"""
from __future__ import annotations

import random
from itertools import groupby

from ..runtime import rng
from ..runtime.engine import State
from .bounded import deal_bounded
from .eval_cache import cache_of
from .told import deal_told


class Base(State):
    """The copy a Seat keeps (sanitised): a State that also keeps the Dealers its worlds are dealt
    with, per seat and view, worked out at the first world and shared by the rest of the decision,
    and, for its seat, the zones hidden from it and their cards in id order (what sanitised laid)."""

    __slots__ = ("dealers", "seat", "hidden", "pool")


def sanitised(program, st, seat: int) -> Base:
    """A copy of st holding nothing `seat` may not know: the cards hidden from it laid in id order
    among the hidden places (sizes kept), the other seats' unseen simultaneous choices forgotten,
    no event log, a generator of a fixed seed.

    determinise() of this copy deals exactly as determinise() of st: it reads of the hidden zones
    only their sizes and the set of their cards, which the two share."""
    copy = st.clone(log=False, into=Base)
    copy.rng = rng.seed_state(0)
    hidden, pool = _hidden(program, copy.zones, seat)
    _lay(copy, hidden, pool)
    follow_places(program, st, copy, hidden)
    forget = getattr(copy.pending, "forget", None)
    if forget is not None:              # the other seats' unseen choices of a simultaneous decision
        forget(copy, seat)              # (variables only: the cards stay where they were laid)
    copy.dealers = {}
    copy.seat, copy.hidden, copy.pool = seat, hidden, pool
    return copy


def _hidden(program, zones: list, seat: int) -> tuple:
    """(the zones hidden from seat that hold cards, their cards in id order)."""
    mask, pool = 1 << seat, []
    hidden = [z for z, vis in enumerate(program.zone_vis) if not vis & mask and zones[z]]
    for z in hidden:
        pool += zones[z]
    pool.sort()                         # sorted: the real places never show
    return hidden, pool


def _lay(copy, hidden: list, pool: list) -> None:
    """The cards of pool laid in order into the hidden zones, each keeping its size; loc follows."""
    i, zones, loc = 0, copy.zones, copy.loc
    for z in hidden:
        n = len(zones[z])
        zone = zones[z] = pool[i:i + n]     # a new list: the copy shares its zones' lists with st
        i += n
        for c in zone:
            loc[c] = z


def margin(program, st, seat: int):
    """The seat's evaluation minus the best of the other seats' (a cooperative game: the shared one)."""
    cached = st.evals               # evaluations(), its cached case inlined (the look-ahead's most frequent call)
    values = cached[1] if cached is not None and cached[0] == st.moves else evaluations(program, st)
    if len(values) == 2 and program.cooperative_fn is None:
        return values[seat] - values[1 - seat]
    if len(values) == 1 or program.cooperative_fn is not None:
        return values[0]
    return values[seat] - max(values[:seat] + values[seat + 1:])


def evaluations(program, st) -> list:
    """Every seat's evaluation of st, worked out once per state and move (the look-ahead asks
    for the margin of one copy several times, and for every seat's of the same copy)."""
    cached = st.evals
    if cached is not None and cached[0] == st.moves:
        return cached[1]
    cache = program.eval_cache
    if cache is None:
        cache = cache_of(program)
    values = cache.values(program, st) if cache else program.evaluations(st)
    st.evals = (st.moves, values)
    return values


def determinise(program, st, seat: int, gen: random.Random, view=None, known: set | None = None):
    """A copy of st in which every card hidden from `seat` is redealt at random among the hidden places.

    What the copy takes from st is what the seat's view holds: the zones the seat sees, the sizes of
    the others, and the set of cards hidden from it (every card minus those it sees). With `view`
    (the seat's View, views.py) the seat's knowledge is dealt first: each known position of a hidden
    zone gets a card of its type, then the rest of the zone's K (types guaranteed there) go to random
    free positions of the zone; the remaining hidden cards fill the remaining places at random.
    Cards of one type are interchangeable, so which id of a type goes where is immaterial: only
    the places are drawn at random, never the order of ids within a type (one shuffle, not three).
    `known`, a set, receives the cards dealt to positions the seat knows.
    From a Seat's copy (sanitised) the work every world shares is done once (Dealer)."""
    if type(st) is Base:
        key = (seat, id(view))
        dealer = st.dealers.get(key)
        if dealer is None or dealer.view is not view:
            dealer = st.dealers[key] = Dealer(program, st, seat, view)
        return dealer.deal(st, gen, known)
    return Dealer(program, st, seat, view).deal(st, gen, known)


SHUFFLED, KNOWN, TOLD = 0, 1, 2     # how a Dealer deals: no knowledge, the seat's knowledge, told facts too


class Dealer:
    """determinise() of one state for one seat and view, split in what every world shares (worked
    out here once: the hidden zones and cards, the places the seat's knowledge fixes, the cards it
    leaves to deal at random) and what each world draws (deal): the very draws, in the same order."""

    def __init__(self, program, st, seat: int, view=None):
        self.program, self.seat, self.view = program, seat, view     # not st: a Base keeps its Dealers
        if type(st) is Base and st.seat == seat:    # what sanitised worked out (read, never changed)
            hidden, self.pool = st.hidden, st.pool
        else:
            hidden, self.pool = _hidden(program, st.zones, seat)
        self.hidden = hidden
        self.named = _named_places(program, st, hidden)
        self.mode = SHUFFLED
        if view is not None and _knowledge_fits(view, st, hidden):
            by_type = _group(self.pool, program.card_type.__getitem__)     # ids of one type are interchangeable
            told = {z: view.told(z) for z in hidden} if view.facts else {}
            if any(told.values()):
                self.mode = TOLD
            else:
                self.mode = KNOWN
                self._plan(by_type)

    def _plan(self, by_type: dict) -> None:
        """What the seat's knowledge fixes: per hidden zone the cards at its known positions (a
        template), then per zone still short of its K the free positions and the cards K puts
        there (where is drawn per world), then the cards left (by type, and by kind)."""
        program, view, hidden = self.program, self.view, self.hidden
        self.templates, self.spread, known = {}, [], []
        # the free places left to deal, per zone in order: fixed but where K is spread over the zone (None)
        self.free = parts = []
        for z in hidden:
            slots = view.zones[z]
            zone = self.templates[z] = [None] * len(slots)
            if not view.known[z] and slots.count(None) == len(slots):
                parts.append((z, [(z, i) for i in range(len(slots))]))
                continue                        # nothing known of the zone: every place is free
            need = _place_known(view, z, by_type, zone, known)
            if max(need.values(), default=0) <= 0:
                parts.append((z, [(z, i) for i, c in enumerate(zone) if c is None]))
                continue
            parts.append((z, None))
            free = [i for i, c in enumerate(zone) if c is None]
            left, cards = len(free), []
            for t in sorted(need):
                for _ in range(max(0, need[t])):
                    if not left or not by_type.get(t):
                        break
                    left -= 1
                    cards.append(by_type[t].pop())
            self.spread.append((z, free, cards))
        self.known = known
        self.fixed = None
        if not self.spread:
            self.fixed = []
            for _, part in parts:
                self.fixed += part
        kinds = view.kinds
        self.most = {z: dict(view.most[z]) for z in hidden if view.most[z]} if view.most else None
        self.by_type = by_type
        self.by_kind = None if self.most else _by_kind(program, by_type)
        # places of different kinds: the order they are filled in is drawn, the most constrained first
        self.mixed = bool(kinds) and len({kinds[z] for z in hidden}) > 1
        self.sized = self.mixed and len({len(kinds[z]) for z in hidden}) > 1

    def deal(self, st, gen: random.Random, known: set | None = None):
        """One world: a copy of st (the state the Dealer was made from) with the hidden cards dealt anew from gen."""
        program, hidden = self.program, self.hidden
        copy = st.clone(log=False, share=True)     # the hidden zones get new lists below
        copy.rng = rng.seed_state(gen.getrandbits(62))
        if self.mode == KNOWN:
            self._deal_known(copy, gen, known)
        elif self.mode == TOLD:
            _deal_with_knowledge(program, copy, hidden, self.pool, self.view, gen, known)
        else:
            pool = self.pool[:]
            shuffle(gen, pool)
            _lay(copy, hidden, pool)
        if self.named:
            _follow(program, copy, self.named)
        return _unseen_choices(copy, self.seat, gen)

    def _deal_known(self, copy, gen: random.Random, known: set | None) -> None:
        """The plan's known places, K spread at random over each short zone's free places, then the
        rest (_fill_rest's deal, from the plan's cards left)."""
        placed = {z: zone[:] for z, zone in self.templates.items()}
        left = {}                           # per zone K is spread over: its places left free, in order
        for z, free, cards in self.spread:
            free = free[:]
            shuffle(gen, free)
            zone, at = placed[z], len(free)
            for c in cards:
                at -= 1
                zone[free[at]] = c
            left[z] = sorted(free[:at])
        if known is not None:
            known.update(self.known)
        hidden, kinds = self.hidden, self.view.kinds
        if self.most:       # the rules said what some zones hold none of (announce none of): bounded.py
            deal_bounded(self.program, placed, {t: cs[:] for t, cs in self.by_type.items()}, kinds,
                         {z: dict(m) for z, m in self.most.items()}, gen, below, shuffle)
        else:
            free = self.fixed
            if free is None:
                free = []
                for z, part in self.free:
                    free += [(z, i) for i in left[z]] if part is None else part
            elif self.mixed:
                free = free[:]              # the plan's own list: shuffled below
            if self.mixed:
                shuffle(gen, free)
                if self.sized:
                    free.sort(key=lambda slot: len(kinds[slot[0]]))
            by_kind = self.by_kind
            if len(by_kind) == 1 and len(free) == sum(map(len, by_kind.values())):
                _deal_one_kind(free, placed, by_kind, gen)  # no misfit to repair: every card is of its kind
            elif _deal_free(free, placed, {k: cs[:] for k, cs in by_kind.items()}, kinds, gen) and kinds:
                _repair_kinds(self.program, placed, free, kinds)
        zones, loc = copy.zones, copy.loc
        for z in hidden:
            zones[z] = zone = placed[z]
            for c in zone:
                loc[c] = z


def follow_places(program, st, copy, hidden: list) -> None:
    """The rules' names for cards (a local bound to a card, a loop's list of cards, a variable set to
    cards) made to name the card now lying where the named card lay: a card id says its type, so a
    name left holding the id of a redealt card would tell the look-ahead what the hidden card is."""
    named = _named_places(program, st, hidden)
    if named:
        _follow(program, copy, named)


def _named_places(program, st, hidden: list) -> list:
    """[(card, zone, position)] of the cards the rules' names hold that lie in a hidden zone of st."""
    slots = program.card_slots
    if not slots:
        return []
    values, named = st.vars, set()
    for slot in slots:
        _card_ids(values[slot], named)
    hidden_zones, out = set(hidden), []
    for c in named:
        z = st.loc[c] if 0 <= c < len(st.loc) else None
        if z in hidden_zones:
            out.append((c, z, st.zones[z].index(c)))
    return out


def _follow(program, copy, named: list) -> None:
    """follow_places, the places named (_named_places) known: each name moved to the card now there."""
    moved = {}
    for c, z, i in named:
        new = copy.zones[z][i]
        if new != c:
            moved[c] = new
    if moved:
        values = copy.vars          # a copy; the lists in it are shared with st: replaced
        for slot in program.card_slots:
            values[slot] = _renamed(values[slot], moved)


def _card_ids(value, into: set) -> None:
    """The card ids in a name's value (a card, or lists of them at any depth) added to `into`."""
    if type(value) is int:
        into.add(value)
    elif isinstance(value, (list, tuple)):
        for v in value:             # a card is added here, without a call (most lists hold cards)
            if type(v) is int:
                into.add(v)
            else:
                _card_ids(v, into)


def _renamed(value, moved: dict):
    """value with every card id in moved replaced (in lists of any depth, rebuilt only where one changes)."""
    if type(value) is int:
        return moved.get(value, value)
    if isinstance(value, (list, tuple)):
        items = [moved.get(v, v) if type(v) is int else _renamed(v, moved) for v in value]
        return items if any(a is not b for a, b in zip(items, value)) else value
    return value


def _unseen_choices(copy, seat: int, gen: random.Random):
    """The copy with the choices other seats made unseen at a simultaneous decision (runtime/simultaneous.py)
    redrawn at random among their legal moves, once the hidden cards they may depend on are dealt."""
    redraw = getattr(copy.pending, "redraw", None)
    if redraw is not None:
        redraw(copy, seat, gen)
    return copy


def _knowledge_fits(view, st, hidden: list) -> bool:
    """The view's sizes agree with the state's (they do but while an on-empty trigger runs)."""
    return all(len(view.zones[z]) == len(st.zones[z]) for z in hidden)


def _deal_with_knowledge(program, copy, hidden: list, pool: list, view, gen: random.Random,
                         known: set | None = None) -> None:
    by_type = _group(pool, program.card_type.__getitem__)     # ids of one type are interchangeable
    told = {z: view.told(z) for z in hidden} if view.facts else {}
    told = {z: facts for z, facts in told.items() if facts}
    placed = {z: _deal_known(view, z, by_type, gen, known, told.get(z)) for z in hidden}
    most = {z: dict(view.most[z]) for z in hidden if view.most[z]} if view.most else None
    if told:        # the rules told the seat what some of these cards are (tell): told.py
        deal_told(program, placed, by_type, view.kinds, most or {}, told, gen, below, shuffle,
                  lambda trial, left: _fill_rest(program, hidden, trial, left, view.kinds, most, gen))
        _lay_placed(copy, hidden, placed)
        return
    _fill_rest(program, hidden, placed, by_type, view.kinds, most, gen)
    _lay_placed(copy, hidden, placed)


def _fill_rest(program, hidden: list, placed: dict, by_type: dict, kinds, most, gen: random.Random) -> None:
    """The free places of `placed` (None) dealt from the cards left in `by_type`: within the upper
    bounds when some zone has one (bounded.py), else each place drawn evenly among the cards of its kinds."""
    if most:        # the rules said what some zones hold none of (announce none of): bounded.py
        deal_bounded(program, placed, by_type, kinds, most, gen, below, shuffle)
        return
    by_kind = _by_kind(program, by_type)
    free = [(z, i) for z in hidden for i, c in enumerate(placed[z]) if c is None]
    if kinds and len({kinds[z] for z in hidden}) > 1:
        # Places of different kinds: the order they are filled in matters, so it is drawn, the
        # most constrained first. (Where every place may hold the same, one draw per place in
        # any order deals every card evenly: no shuffle needed.)
        shuffle(gen, free)
        if len({len(kinds[z]) for z in hidden}) > 1:
            free.sort(key=lambda slot: len(kinds[slot[0]]))
    misfit = _deal_free(free, placed, by_kind, kinds, gen)
    if kinds and misfit:
        _repair_kinds(program, placed, free, kinds)


def _by_kind(program, by_type: dict) -> dict:
    """{card kind: its cards left in by_type}, in the order of by_type (a type's cards are of its kind)."""
    by_kind: dict = {}
    kind_of = program.type_tables["kind"]
    for t, cards in by_type.items():
        if not cards:
            continue
        got = by_kind.get(kind_of[t])
        if got is None:
            by_kind[kind_of[t]] = list(cards)
        else:
            got.extend(cards)
    return by_kind


def _lay_placed(copy, hidden: list, placed: dict) -> None:
    """Put the dealt cards (zone -> card ids) in the copy's hidden zones; loc follows."""
    zones, loc = copy.zones, copy.loc
    for z in hidden:
        zone = zones[z] = placed[z]
        for c in zone:
            loc[c] = z


def _deal_known(view, z: int, by_type: dict, gen: random.Random, known: set | None, told: dict | None = None) -> list:
    """Zone z dealt from the seat's knowledge: a card of the type it saw at each known position,
    then the rest of the zone's K at random free positions (None: a position left to fill), a told
    position (told: {position: types it may be}) only for a type it may be."""
    slots = view.zones[z]
    zone = [None] * len(slots)
    if not view.known[z] and slots.count(None) == len(slots):
        return zone                         # nothing known of the zone: every place is free
    placed: list = []
    need = _place_known(view, z, by_type, zone, placed)
    if known is not None:
        known.update(placed)
    if max(need.values(), default=0) <= 0:
        return zone
    free = [i for i, c in enumerate(zone) if c is None]
    shuffle(gen, free)
    for t in sorted(need):
        for _ in range(max(0, need[t])):
            if not free or not by_type.get(t):
                break
            at = len(free) - 1
            if told:                    # the last free place that may hold t (none: K is left short)
                at = next((k for k in range(len(free) - 1, -1, -1) if free[k] not in told or t in told[free[k]]), None)
                if at is None:
                    break
            zone[free.pop(at)] = by_type[t].pop()
    return zone


def _place_known(view, z: int, by_type: dict, zone: list, placed: list) -> dict:
    """Each known position of zone z (zone: its places, None where free) given a card of the type the
    seat saw there, from by_type (each card also appended to `placed`); returns the zone's K less
    those cards: what is left to spread over its free places."""
    need = dict(view.known[z])
    for i, t in enumerate(view.zones[z]):
        if t is not None:
            cards = by_type.get(t)
            if cards:
                c = zone[i] = cards.pop()
                need[t] = need.get(t, 0) - 1
                placed.append(c)
    return need


def _deal_free(free: list, placed: dict, by_kind: dict, kinds, gen: random.Random) -> bool:
    """Each free place gets a card drawn evenly among the cards left of the kinds it may hold;
    returns whether some place had to take a card of a kind it may not hold (none was left)."""
    fits: dict = {}                 # per zone: (kinds run out so far, the card lists of the kinds it may hold)
    gone = 0                        # kinds run out so far: only then may a zone's kinds change
    misfit = False
    getrandbits = gen.getrandbits if below is _below else None     # below() inlined: one draw a place
    for z, i in free:
        allowed = fits.get(z)
        if allowed is None or allowed[0] != gone:
            ks = sorted(kinds[z]) if kinds else sorted(by_kind)
            fit = [k for k in ks if by_kind.get(k)]
            if not fit:                                     # no kind fits: any card
                fit, misfit = sorted(k for k, cs in by_kind.items() if cs), True
            allowed = fits[z] = (gone, [by_kind[k] for k in fit])
        allowed = allowed[1]
        if len(allowed) == 1:       # one kind (the most): its cards, without a loop over kinds
            cards = allowed[0]
            n = len(cards)
        else:                       # each fitting card equally likely
            cards, n = None, sum(map(len, allowed))
        if getrandbits is None or not n:    # (no card left at all: randrange's error, never an endless draw)
            r = below(gen, n)
        else:                       # gen._randbelow(n), n > 0: the very draws (_draws_match checks them)
            k = n.bit_length()
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
        if cards is not None:
            placed[z][i] = cards.pop(r)
            gone += not cards
            continue
        for cards in allowed:
            if r < len(cards):
                placed[z][i] = cards.pop(r)
                gone += not cards
                break
            r -= len(cards)
    return misfit


def _deal_one_kind(free: list, placed: dict, by_kind: dict, gen: random.Random) -> None:
    """_deal_free when the cards left are all of one kind and as many as the free places: each
    place (in order) gets a card drawn evenly among those left, with the very draws of _deal_free
    (which would find that one kind, or no kind it may hold and then any card: the same list)."""
    cards = list(next(iter(by_kind.values())))
    if below is not _below:             # pragma: no cover - another Python's Random
        for z, i in free:
            placed[z][i] = cards.pop(below(gen, len(cards)))
        return
    getrandbits = gen.getrandbits       # gen._randbelow(n), n > 0, inlined (_draws_match checks the draws)
    for z, i in free:
        n = len(cards)
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        placed[z][i] = cards.pop(r)


def _group(items: list, key) -> dict:
    """{key: [items with that key, in order]}, keys in order of first appearance (one list per run
    of equal keys: ids of one type mostly lie together)."""
    out: dict = {}
    for k, group in groupby(items, key):
        got = out.get(k)
        if got is None:
            out[k] = list(group)
        else:
            got.extend(group)
    return out


def _repair_kinds(program, placed: dict, filled: list, kinds: list) -> None:
    """Swap freely dealt cards until each lies where its kind may be, where one swap does it.

    The greedy fill can give a zone the last card of a kind another zone needed; a swap with
    a place that accepts the misplaced card mends that (a full matching is not needed here)."""
    kind_of = program.attr_tables["kind"]
    for z, i in filled:
        c = placed[z][i]
        if kind_of[c] in kinds[z]:
            continue
        for z2, j in filled:
            d = placed[z2][j]
            if kind_of[d] in kinds[z] and kind_of[c] in kinds[z2] and kind_of[d] != kind_of[c]:
                placed[z][i], placed[z2][j] = d, c
                break


def _shuffle(gen: random.Random, x: list) -> None:
    """gen.shuffle(x) with the generator's very draws, in one loop (a determinised copy shuffles
    every hidden card a few times at each decision)."""
    getrandbits = gen.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _below(gen: random.Random, n: int) -> int:
    """gen.randrange(n) with the generator's very draws: its own _randbelow, without the checks."""
    return gen._randbelow(n) if n > 0 else gen.randrange(n)     # (n <= 0: randrange's error)


def _draws_match() -> bool:
    """Whether _shuffle and _below draw as this Python's Random does (else the bots use Random's
    own methods: the same seed must give the same games on every Python)."""
    a, b = random.Random(7), random.Random(7)
    for n in (1, 2, 3, 5, 17, 64, 100, 257):
        x, y = list(range(n)), list(range(n))
        a.shuffle(x)
        _shuffle(b, y)
        if x != y or a.randrange(n) != _below(b, n):
            return False
    return a.getrandbits(64) == b.getrandbits(64)


if _draws_match():
    shuffle, below = _shuffle, _below
else:                                   # pragma: no cover - another Python's Random
    def shuffle(gen, x):
        gen.shuffle(x)

    def below(gen, n):
        return gen.randrange(n)

