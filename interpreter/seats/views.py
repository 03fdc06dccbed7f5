"""Per-seat views and perfect-memory knowledge, derived from the event stream only.

An `Observer` is one seat's memory: it starts from the ruleset's start zones (public: every card
begins in the zone its kind names, in card-id order) and is fed the events (engine.py) one by one.
It never reads a State. `view()` freezes what the seat knows into a `View`; `view_of(program,
log, seat)` does both in one call.

The model (docs/language.md §11, "Events and visibility"), kept for every zone instance z:
  size(z)    public: every seat sees how many cards go where;
  K(z)       a multiset of card types guaranteed to be in z;
  slots(z)   one entry per position, bottom first: the card seen there, or None.
A move whose faces the seat sees (the seat may see the zone the cards left or the one they entered):
  K(src)[t] = max(0, K(src)[t] − x) for the x cards of type t that left; K(dst) gains them all.
A move the seat does not see, d cards:
  K(src)[t] = max(0, K(src)[t] − d) for every t; K(dst)[t] gains max(0, d − (size before − K(src)[t])).
A shuffle keeps K and forgets every position. A reveal to the seat sets the positions it shows
and raises K(z)[t] to the number of known positions of type t.
Upper bounds, U(z)[t] (at most so many cards of type t in z; a type without one: no bound), come from
the rules' public statements (`announce none of ZONE where ...`, the event NONE: U[t] = 0 for each type
named). They hold until cards come in: a seen card of type t adds 1 to U[t] (one leaving takes 1 off);
d unseen cards from src add min(d, U(src)[t]) where src has a bound for t, nothing where t cannot be in
src (its kind), and else end the bound (into an empty zone they bring U(src) along, capped at d);
a shuffle, a reveal and unseen departures keep U.
As every move into or out of a zone the seat can see is a seen move, such a zone is known exactly
(K is its multiset, and every position is known but after a shuffle, see below).

Zones declared `alike` (every fill of the empty zone is one card type, checked by the engine): from
a fill until another card joins the zone, one card seen leaving tells the type of the rest (K(z) =
the whole zone), and of the cards that left the fill unseen, in the zones they went to while no card
has left those since (where they are is then sure: nothing could have taken them away).

Positions ("nth from bottom"): cards enter on top, which moves no known position, or (`to bottom of`)
under the others, which shifts every known position of the zone up by the cards entered.
The events do not say from where in a zone cards left (but in a game whose rules `tell`: there the
positions serve the told facts below, and the known positions keep to the rule here). A zone keeps its known positions only when
the seat saw the cards leave and knew every position of the zone (then the positions above close up
exactly); any other departure (an unseen move, or a seen one from a zone with an unknown position)
forgets all positions of that zone. Forgetting is always safe: a known position is never wrong.
Why not keep positions when the seen cards were at known positions of a partly known zone: which of
several cards of one type the rules take (the topmost, decisions.py) depends on the hidden cards, so
whether the known one left would tell the seat something about the hidden ones.

What the events do not (yet) tell, and how it is read here:
- a shuffle carries its new order only for the seats that see the zone; for others every position
  of the zone is forgotten;
- a draw that runs its zone dry logs the zone's on-empty statements before the draw itself: sizes
  are off while those events are read and right again after the draw (K stays sound).

Told facts (`tell`, runtime/tell.py): per zone, one entry per position (None: nothing told), each the
set of types the card there may be (the intersection of all that was told about it) and the words.
They follow the cards by the positions move events carry in a game whose rules tell facts (a seat
not given a private zone's positions, or a draw from a pile refilled in the middle, drops the facts
of that zone); the cards' facts land with them on top of (or under) the zone they enter; a shuffle
drops a zone's facts. A position whose face the seat knows needs no fact: View.told leaves it out.

Card ids stay inside the Observer and are only read from moves the seat saw; a View exposes card
types (ids are dealt in kind order, so an id would name the type of a card never seen).
Event moves whose cards are a count instead of ids (events.for_seat) are read as unseen moves.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..errors import did_you_mean
from ..runtime.announce import NONE
from ..runtime.engine import AT_ONCE_FIRST, DECIDE, END, MOVE, ORDER, REVEAL, SET, SHUFFLE, TURN
from ..runtime.tell import TELL, negated


class Observer:
    """One seat's perfect memory of a game, fed the events in order."""

    def __init__(self, program, seat: int):
        if not 0 <= seat < program.players:
            raise ValueError(f"seat {seat} is not in a {program.players}-player game")
        self.program, self.seat, self.bit = program, seat, 1 << seat
        self.card_type = program.card_type
        n = len(program.zone_names)
        self.slots: list = [[] for _ in range(n)]        # per zone, bottom first: card id or None
        self.known: list = [Counter() for _ in range(n)]  # per zone: K, types guaranteed there
        self.card_kind = program.attr_tables["kind"]      # per card id
        self.kinds: list = [set() for _ in range(n)]     # per zone: the card kinds that may be there
        self.most: list = [{} for _ in range(n)]         # per zone: U, {type: at most so many there}
        self.bounded = False                             # some U is set (else moves skip them)
        self.told: dict = {}     # per zone with a told fact: per position None or (types it may be, words)
        for c, z in enumerate(program.card_start):
            self.slots[z].append(c)
            self.known[z][self.card_type[c]] += 1
            self.kinds[z].add(self.card_kind[c])
        # zones declared `alike` (one card type per fill): per zone, while it holds one fill, the
        # unseen departures whose type it does not know yet [(dst, cards, departures from dst)];
        # None when the zone is not known to hold one type
        self.alike = program.zone_alike
        self.fill: list = [None] * n
        self.departures = [0] * n
        self.turn, self.current, self.over = 0, None, False
        self.out, self.way = 0, 1       # the seats out of play (a mask) and the direction of play
        self.vars: dict = _initial_vars(program)
        self.events = 0
        # the zones cards landed in during the current `together` block: zone -> [entered on top,
        # entered at the bottom, K gained]; what leaves such a zone in the block left it before
        self.landed: dict = {}
        # what view() froze, per zone (types, K, kinds, U, told facts: a list of each), refrozen
        # only for the zones changed since
        self._changed: set = set(range(n))
        self._frozen: tuple = tuple([()] * n for _ in range(5))
        self._vars_frozen = None

    # ---- feeding ----
    def observe(self, event: tuple) -> None:
        """Take in one event (as the whole truth, or as events.for_seat gave it to this seat)."""
        kind = event[0]
        if kind == MOVE:                # the most frequent event first
            if self.told:
                self._carry(event)
            if len(event) > 6 and event[6]:
                self._move_at_once(event)
            else:
                self._move(event)
        elif kind == SHUFFLE:
            slots = self.slots[event[1]]
            self._changed.add(event[1])
            seen = len(event) > 3 and event[3] >> self.seat & 1 and event[2] is not None
            slots[:] = list(event[2]) if seen else [None] * len(slots)
            self.told.pop(event[1], None)
        elif kind == TURN:
            self.current, self.turn = event[1], event[2]
        elif kind == SET:
            self.vars[(event[1], event[2])] = event[3]
            self._vars_frozen = None
        elif kind == REVEAL:
            self._reveal(event)
        elif kind == ORDER:
            self.out, self.way = event[1], event[2]
        elif kind == END:
            self.over = True
        elif kind == NONE:
            self._none(event[1], event[2])
        elif kind == TELL:
            self._tell(event)
        elif kind != DECIDE:            # decisions show only in what they move
            raise ValueError(f"unknown event {event!r}")
        self.events += 1

    def _move(self, event: tuple) -> None:
        """Cards went from one zone to another (seen or not by this seat)."""
        src, dst, cards, mask = event[1], event[2], event[3], event[4]
        bottom = len(event) > 5 and event[5]
        self._changed.add(src)
        self._changed.add(dst)
        slots, kinds = self.slots, self.kinds
        was_empty = not slots[dst]
        counted = isinstance(cards, int)
        d = cards if counted else len(cards)
        seen = not counted and mask & self.bit
        if self.bounded and (self.most[src] or self.most[dst]):
            self._bounds(src, dst, cards if seen else None, d)
        if not seen:
            kinds[dst] |= kinds[src]
            self._unseen(src, dst, d, bottom)
        elif d == 1:                        # most moves: one card
            c = cards[0]
            kinds[dst].add(self.card_kind[c])
            self._seen_one(src, dst, c, bottom)
        else:
            kinds[dst].update(map(self.card_kind.__getitem__, cards))
            self._seen(src, dst, cards, bottom)
        if not slots[src]:
            kinds[src] = set()
        self.departures[src] += 1
        if self.fill[src] is not None:
            self._left_alike(src, dst, cards if seen else None, d)
        if self.alike[dst]:
            self.fill[dst] = [] if was_empty else None
            if was_empty and self.known[dst]:
                self._learn(dst, next(iter(self.known[dst])))

    def _tell(self, event: tuple) -> None:
        """Told, per card of a zone, whether a condition holds: each position may then be only the types
        for which it holds (or only the others), on top of what was told about it before."""
        z, told, mask, yes, words = event[1], event[2], event[3], event[4], event[5]
        if isinstance(told, int) or not mask & self.bit:
            return
        size = len(self.slots[z])
        facts = self.told.setdefault(z, [None] * size)
        yes, every = frozenset(yes), self._types
        for i, holds in told:
            if i >= len(facts):
                continue
            may, said = (yes, words) if holds else (every - yes, negated(words))
            old = facts[i]
            facts[i] = (may, (said,)) if old is None else (old[0] & may, old[1] + (said,))
        self._changed.add(z)

    @cached_property
    def _types(self) -> frozenset:
        return frozenset(self.card_type)

    def _carry(self, event: tuple) -> None:
        """The told facts of the cards that move go with them, when this seat knows where they lay; the
        facts of the cards that stay close up (a seat that does not know the positions forgets them)."""
        src, dst, cards = event[1], event[2], event[3]
        n = cards if isinstance(cards, int) else len(cards)
        where = event[7] if len(event) > 7 and self.program.zone_positions[src] & self.bit else None
        if len(event) > 6 and event[6] and event[6] != AT_ONCE_FIRST and src in self.landed:
            where = None                    # positions without the cards that landed in the block
        told = self.told
        facts = told.pop(src, None)
        moved = [None] * n
        if facts is not None and where is not None and len(facts) == len(self.slots[src]):
            gone = set(where)
            moved = [facts[i] if i < len(facts) else None for i in where]
            kept = [f for i, f in enumerate(facts) if i not in gone]
            if any(kept):
                told[src] = kept
        if facts is not None:
            self._changed.add(src)
        if not any(moved) and dst not in told:
            return
        into = told.pop(dst, None)
        if into is None:
            into = [None] * (len(self.slots[dst]) - (n if src == dst else 0))
        if len(event) > 5 and event[5]:
            into[0:0] = moved
        else:
            into.extend(moved)
        if any(into):
            told[dst] = into
        self._changed.add(dst)

    def _none(self, z: int, types) -> None:
        """Every seat is told zone z holds no card of these types (the rules checked it is true)."""
        most = self.most[z]
        for t in types:
            most[t] = 0
        self.bounded = self.bounded or bool(types)
        self._changed.add(z)

    def _bounds(self, src: int, dst: int, cards, d: int) -> None:
        """U of both zones after d cards went src -> dst (cards: their ids if this seat saw them)."""
        most_src, most_dst = self.most[src], self.most[dst]
        if cards is not None:               # seen: exactly these types left src and entered dst
            for c in cards:
                t = self.card_type[c]
                if t in most_src and most_src[t]:
                    most_src[t] -= 1
                if t in most_dst:
                    most_dst[t] += 1
            return
        if not self.slots[dst]:             # unseen into an empty zone: all it holds came from src
            most_dst.clear()
            most_dst.update({t: min(d, n) for t, n in most_src.items()})
            return
        kinds, type_kind = self.kinds[src], self._type_kind
        for t in list(most_dst):            # unseen: each may be any type src may hold
            if t in most_src:
                most_dst[t] += min(d, most_src[t])
            elif type_kind[t] in kinds:
                del most_dst[t]

    @cached_property
    def _type_kind(self) -> dict:
        """{type: its card kind}."""
        return {t: self.card_kind[c] for c, t in enumerate(self.card_type)}

    def _move_at_once(self, event: tuple) -> None:
        """A move of a `together` block: cards that landed in its source earlier in the block are set
        aside while it leaves (every move of the block took its cards before any landed)."""
        if event[6] == AT_ONCE_FIRST:
            self.landed = {}
        src, dst = event[1], event[2]
        held = self.landed.get(src) if src != dst else None
        aside = self._set_aside(src, held) if held else None
        known, size = Counter(self.known[dst]), len(self.slots[dst])
        self._move(event)
        if held:
            self._put_back(src, held, aside)
        entry = self.landed.setdefault(dst, [0, 0, Counter()])
        entry[1 if event[5] else 0] += len(self.slots[dst]) - size
        entry[2].update(self.known[dst] - known)

    def _set_aside(self, z: int, held: list) -> tuple:
        """Take the cards that landed in z during the block out of its slots and K."""
        top, bottom, gained = held
        slots = self.slots[z]
        aside = (slots[:bottom], slots[len(slots) - top:] if top else [])
        slots[:] = slots[bottom:len(slots) - top]
        _take(self.known[z], gained.items())
        return aside

    def _put_back(self, z: int, held: list, aside: tuple) -> None:
        self.slots[z][:] = aside[0] + self.slots[z] + aside[1]
        self.known[z].update(held[2])

    def _reveal(self, event: tuple) -> None:
        """Cards shown where they lie: if this seat was shown them, their positions are known and
        K(zone) holds at least the known positions' types (until they move or the zone is shuffled)."""
        z, cards, mask = event[1], event[2], event[3]
        if isinstance(cards, int) or not mask & self.bit:
            return
        slots, card_kind = self.slots[z], self.card_kind
        for i, c in cards:
            if i < len(slots):
                slots[i] = c
                self.kinds[z].add(card_kind[c])
        k = self.known[z]
        for t, n in Counter(self.card_type[c] for c in slots if c is not None).items():
            if k.get(t, 0) < n:
                k[t] = n
        self._changed.add(z)

    def observe_all(self, events) -> "Observer":
        observe = self.observe
        for event in events:
            observe(event)
        return self

    def _seen(self, src: int, dst: int, cards, bottom: bool = False) -> None:
        """Cards whose faces this seat saw went src -> dst (onto the top)."""
        card_type = self.card_type
        slots = self.slots[src]
        if len(cards) == 1:                 # most moves: one card, its K and place updated in place
            self._seen_one(src, dst, cards[0], bottom)
            return
        kept = None
        if None not in slots:
            gone = set(cards)
            kept = [c for c in slots if c not in gone]
            if len(kept) != len(slots) - len(gone):
                kept = None
        if kept is not None:                        # a fully known zone: close up
            slots[:] = kept
        else:                                       # from somewhere unknown: forget the positions
            slots[:] = [None] * max(0, len(slots) - len(cards))
        types = [card_type[c] for c in cards]
        k, got = self.known[src], self.known[dst]   # K(src) loses them one by one (_take), then K(dst) gains them
        for t in types:
            left = k.get(t, 0) - 1
            if left > 0:
                k[t] = left
            else:
                k.pop(t, None)
        for t in types:                 # got[t] += 1, without a Counter's __missing__ (a Python call)
            got[t] = got.get(t, 0) + 1
        if bottom:                      # _enter
            self.slots[dst][0:0] = cards
        else:
            self.slots[dst].extend(cards)

    def _seen_one(self, src: int, dst: int, c: int, bottom: bool) -> None:
        """_seen for one card: the same updates without building lists for the general case."""
        slots = self.slots[src]
        if slots and slots[-1] == c:        # the top card of a known top
            slots.pop()
            if None in slots:
                slots[:] = [None] * len(slots)
        elif None in slots or c not in slots:   # from somewhere unknown: forget the positions
            slots[:] = [None] * max(0, len(slots) - 1)
        else:                               # a fully known zone: close up
            slots.remove(c)
        t = self.card_type[c]
        k = self.known[src]
        left = k.get(t, 0) - 1
        if left > 0:
            k[t] = left
        else:
            k.pop(t, None)
        got = self.known[dst]
        got[t] = got.get(t, 0) + 1
        if bottom:
            self.slots[dst].insert(0, c)
        else:
            self.slots[dst].append(c)

    def _unseen(self, src: int, dst: int, d: int, bottom: bool = False) -> None:
        """d cards this seat did not see went src -> dst."""
        slots, k = self.slots[src], self.known[src]
        before = len(slots)
        gain = {t: d - (before - n) for t, n in k.items() if d - (before - n) > 0}
        _take(k, [(t, d) for t in k])
        slots[:] = [None] * max(0, before - d)
        self.known[dst].update(gain)
        self._enter(dst, [None] * d, bottom)

    def _left_alike(self, src: int, dst: int, cards, d: int) -> None:
        """d cards left src, a zone holding one fill of one type: a card seen tells the type of
        the rest (and of the cards that left it unseen before); else note where they went."""
        if cards:
            self._learn(src, self.card_type[cards[0]])
        elif not self.known[src]:
            self.fill[src].append((dst, d, self.departures[dst]))

    def _learn(self, z: int, t: int) -> None:
        """Zone z holds one fill of type t: so does every card that left it unseen and still lies
        where it went (nothing has left that zone since)."""
        self.known[z] = Counter({t: len(self.slots[z])}) if self.slots[z] else Counter()
        for dst, d, departures in self.fill[z]:
            if self.departures[dst] == departures:
                self.known[dst][t] += d
                self._changed.add(dst)
        self.fill[z] = []

    def _enter(self, dst: int, entries: list, bottom: bool) -> None:
        """Cards enter on top, or under the cards already there (the positions above shift up)."""
        if bottom:
            self.slots[dst][0:0] = entries
        else:
            self.slots[dst].extend(entries)

    # ---- reading ----
    def view(self) -> "View":
        """What this seat knows now, frozen (card types only); a zone no event touched since the
        last view keeps what that view froze (a bot asks for a view at each of its decisions)."""
        ct, told, bounded = self.card_type, self.told, self.bounded
        types, known, kinds, most, facts = self._frozen
        type_of, all_slots, all_known, all_kinds = ct.__getitem__, self.slots, self.known, self.kinds
        for z in self._changed:
            slots = all_slots[z]        # a zone with no unknown position (the most) is mapped at once
            if None not in slots:
                types[z] = tuple(map(type_of, slots))
            elif slots.count(None) == len(slots):     # nothing known of the zone's faces (a hidden pile)
                types[z] = (None,) * len(slots)
            else:
                types[z] = tuple([None if c is None else ct[c] for c in slots])
            k = all_known[z]
            known[z] = tuple(sorted(k.items())) if k else ()
            kinds[z] = frozenset(all_kinds[z])
            if bounded:                 # else every zone's U is empty: () as it started
                most[z] = tuple(sorted(self.most[z].items()))
            told_z = told.get(z)
            facts[z] = tuple((i, f[0], f[1]) for i, f in enumerate(told_z) if f is not None) if told_z else ()
        self._changed.clear()
        if self._vars_frozen is None:
            self._vars_frozen = tuple(sorted(self.vars.items(), key=_var_key))
        return _new_view(seat=self.seat, zones=tuple(types), known=tuple(known), turn=self.turn, current=self.current,
                    over=self.over, vars=self._vars_frozen, program=self.program, kinds=tuple(kinds),
                    out=self.out, way=self.way, most=tuple(most) if bounded else (),
                    facts=tuple(facts) if any(facts) else ())


def _new_view(**fields) -> "View":
    """View(**fields), every field given, without the frozen dataclass's __init__ (it sets the fields
    one by one through object.__setattr__, four times the cost; a bot asks for a view per decision)."""
    view = object.__new__(View)
    view.__dict__.update(fields)
    return view


def view_of(program, log, seat: int) -> "View":
    """The view of `seat` after the events of `log` (e.g. a state's st.log)."""
    return Observer(program, seat).observe_all(log).view()


@dataclass(frozen=True)
class View:
    """What one seat knows at one moment; equal views mean the seat cannot tell the games apart.

    Zones are given by index or by name (program.zone_names); card types are type indices
    (program.type_names); `to_dict()` gives everything by name."""

    seat: int
    zones: tuple      # per zone: types bottom to top, None where the face at that position is not known
    known: tuple      # per zone: ((type, count), ...) guaranteed there (K); exact for zones the seat sees
    turn: int         # turn number (0 before the first turn)
    current: Any      # whose turn it is (None before the first turn)
    over: bool        # the game has ended
    vars: tuple       # (((name, owner), value), ...): the public variables
    program: Any = field(compare=False, repr=False)
    kinds: tuple = ()  # per zone: the card kinds that may be there (a sound over-estimate)
    most: tuple = ()   # per zone: ((type, at most), ...) the upper bounds U; () when no zone has one
    facts: tuple = ()  # per zone: ((position, types it may be, words told), ...); () when nothing was told
    out: int = 0       # the seats out of play, a mask (bit s: seat s is out)
    way: int = 1       # the direction of play: 1 in seat order, -1 the other way

    def in_play(self, p: int) -> bool:
        """Whether seat p is still in play."""
        return not self.out >> p & 1

    def zone(self, z) -> int:
        """A zone index from an index or a name (a name the game does not have: KeyError saying
        what was meant, for a bot's author)."""
        if isinstance(z, int):
            return z
        names = self.program.zone_names
        if z in names:
            return names.index(z)
        family = [n for n in names if n.split("(")[0].split("[")[0] == str(z)]
        hint = ("it has " + ", ".join(family)) if family else did_you_mean(z, names) or "its zones: " + ", ".join(names)
        raise KeyError(f"no zone '{z}' in this game; {hint}")

    def sees(self, z) -> bool:
        """Whether this seat sees the faces of the zone's cards."""
        return bool(self.program.zone_vis[self.zone(z)] >> self.seat & 1)

    def size(self, z) -> int:
        return len(self.zones[self.zone(z)])

    def cards(self, z) -> list:
        """The zone's types bottom to top (None: a position whose face this seat does not know).
        For a zone the seat sees, every entry is known (except the order after a shuffle)."""
        return list(self.zones[self.zone(z)])

    def known_positions(self, z) -> dict:
        """{index from the bottom: type} for every position of the zone whose face is known."""
        return {i: t for i, t in enumerate(self.zones[self.zone(z)]) if t is not None}

    def known_cards(self, z) -> Counter:
        """K: the types guaranteed to be in the zone, with how many of each."""
        return Counter(dict(self.known[self.zone(z)]))

    def at_most(self, z) -> dict:
        """U: {type: at most so many in the zone} for the types with a bound (0: none there)."""
        return dict(self.most[self.zone(z)]) if self.most else {}

    def told(self, z) -> dict:
        """{index from the bottom: set of types the card there may be} for every position of the zone
        whose face this seat does not know and about which it was told something (`tell`)."""
        return {i: set(may) for i, may, _ in self._facts(z)}

    def told_words(self, z) -> dict:
        """{index from the bottom: [what this seat was told about that card, in words]}, as told()."""
        return {i: list(words) for i, _, words in self._facts(z)}

    def _facts(self, z) -> list:
        """The zone's told facts, (position, types, words), at the positions whose face is not known."""
        if not self.facts:
            return []
        z = self.zone(z)
        faces = self.zones[z]
        return [f for f in self.facts[z] if f[0] < len(faces) and faces[f[0]] is None]

    def unknown(self, z) -> int:
        """How many of the zone's cards are not known to this seat."""
        z = self.zone(z)
        return len(self.zones[z]) - sum(n for _, n in self.known[z])

    def could_be_in(self, z) -> dict:
        """{type: count}: every card of the game minus the copies known to be in other zones."""
        z = self.zone(z)
        left = self._unplaced.copy()
        for t, n in self.known[z]:
            left[t] += n
        most = self.at_most(z)
        return {t: min(n, most.get(t, n)) for t, n in sorted(left.items()) if min(n, most.get(t, n)) > 0}

    @cached_property
    def _unplaced(self) -> Counter:
        """Every card of the game minus every K (computed once per view)."""
        left = Counter(self.program.card_type)
        for k in self.known:
            for t, n in k:
                left[t] -= n
        return left

    def var(self, name: str, owner: int | None = None):
        return dict(self.vars).get((name, owner))

    def to_dict(self) -> dict:
        """Everything by name (for JSON, a UI, a test): zones, turn, variables."""
        names = self.program.type_names

        def by_name(counts) -> dict:
            return {names[t]: n for t, n in sorted(dict(counts).items())}

        zones = {}
        for z, label in enumerate(self.program.zone_names):
            entry = {"size": self.size(z), "sees": self.sees(z),
                     "cards": [None if t is None else names[t] for t in self.zones[z]],
                     "known": by_name(self.known[z])}
            if not self.sees(z):
                entry["could_be"] = by_name(self.could_be_in(z))
                if self.at_most(z):
                    entry["at_most"] = by_name(self.at_most(z))
                if self._facts(z):
                    entry["told"] = {i: {"could_be": sorted(names[t] for t in may), "words": list(words)}
                                     for i, may, words in self._facts(z)}
            zones[label] = entry
        return {"seat": self.seat, "turn": self.turn, "current": self.current, "over": self.over,
                "vars": {name + ("" if owner is None else f"({owner})"): v for (name, owner), v in self.vars},
                "zones": zones}


def _take(k: Counter, counts) -> None:
    """K[t] = max(0, K[t] − x) for each (t, x) of counts in turn, dropping types that reach 0."""
    for t, x in counts:
        left = k.get(t, 0) - x
        if left > 0:
            k[t] = left
        else:
            k.pop(t, None)


def _initial_vars(program) -> dict:
    """The variables' starting values: fixed by the ruleset, the same in every game."""
    start = program.initial()[2]
    out = {}
    for decl in program.rules.vars:
        base = program.var_base[decl.name]
        owners = range(program.players) if decl.per_player else [None]
        for k, owner in enumerate(owners):
            out[(decl.name, owner)] = start[base + k]
    return out


def _var_key(item):
    (name, owner), _ = item
    return (name, -1 if owner is None else owner)
