"""The run-time: the game state as plain data, card moves, shuffles and the run loop.

The position in the rules is `pc` plus a return `stack`, both in the state; compiled ops
are functions `op(state) -> next pc` (a negative pc pauses at a decision or the end).
"""
from __future__ import annotations

from dataclasses import dataclass, fields

from . import rng
from ..errors import RecordError, RuleRuntimeError
from .decisions import failure_words
from .helpers import NoSeat


@dataclass(frozen=True)
class Limits:
    """The run-time guards: a ruleset that would pass one stops with an error naming the rule and
    the turn, instead of hanging or exhausting memory. Set per program (Game.program, the CLI's
    --max-* options); the defaults are far above what any shipped game needs."""

    steps: int = 2_000_000      # rule steps run between two decisions (a loop that never asks anyone)
    loops: int = 100_000        # rounds of one `while` in a row with no decision in them
    turns: int = 100_000        # turns in one game (an end condition that never comes true)
    moves: int = 10_000         # legal moves of one decision (a choice too big to list: split it up)
    items: int = 1_000_000      # values in one list a rule builds (numbers(n), joined lists)
    cards: int = 100_000        # cards in the game (count: of all card kinds)
    zones: int = 100_000        # zone instances (families and per-player zones expanded)

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"limit {f.name} must be a whole number of at least 1, not {value!r}")


DEFAULT_LIMITS = Limits()
MAX_OPS_PER_RUN = DEFAULT_LIMITS.steps   # guard: a ruleset that loops without asking anyone

# Event kinds. Events are tuples, kind first (see events.py for who sees what):
#   (MOVE, from zone, to zone, card ids, mask of seats that see the faces[, bottom[, AT_ONCE(_FIRST) or 0
#    [, positions the cards left from]]]) (positions: in a game whose rules `tell`, see log_move)
#   (SHUFFLE, zone, new order of card ids, mask of seats that see it)   (TURN, seat, turn number)
#   (DECIDE, seat, decision index, move)   seen by the deciding seat only
#   (SET, variable name, owner seat or None, value)   (END,)
#   (announce.NONE, zone, types it holds none of)   seen by every seat
#   (REVEAL, zone, ((position from the bottom, card id), ...), mask of seats shown the faces)
#   (ORDER, mask of the seats out of play, direction of play: 1 or -1)   seen by every seat
MOVE, SHUFFLE, TURN, DECIDE, SET, END, REVEAL = "move", "shuffle", "turn", "decide", "set", "end", "reveal"
ORDER = "order"
AT_ONCE_FIRST, AT_ONCE = 1, 2      # a move of a `together` block: its first, or a later one


class State:
    """Everything that changes during a game; clone() copies only the mutable lists.

    A bot's look-ahead copy shares its zones' lists with the state it was copied from
    (`clone(share=True)`): it copies only the list of them, where a state of many zones costs a
    list each. Both are then `shared`, and the rules change no zone's list of a shared state in
    place: each write puts a new list in its place (take_top, place, take_out, shuffle_zone here;
    the moves the compiler writes; a bot's dealt worlds always). A state that shares nothing (a
    game played, a plain clone) changes its lists in place, which costs less for a long pile.
    Lists held in variables are shared by every copy alike (a value is never changed in place).

    `evals` is a bot's cache of every seat's evaluation, (moves, values): valid while `moves` is
    unchanged, as every move applied bumps it; a clone starts without it (a determinised copy is
    redealt after cloning). It is no part of the game: equality and records ignore it."""

    __slots__ = ("zones", "vars", "loc", "pc", "stack", "current", "me", "decider", "pending", "turn",
                 "moves", "ending", "extra", "over", "rng", "log", "chance", "script", "evals", "shared")
    UNCOMPARED = ("log", "chance", "script", "evals", "shared")

    def clone(self, log: bool = True, into: type | None = None, share: bool = False) -> "State":
        """A copy to play on; without `log` it keeps no event log, chance record or script
        (a bot's determinised copy, which must not copy a whole game's log to drop it). `into`: a
        subclass of State to make the copy of (its own fields left for the caller to set).
        `share`: the copy shares its zones' lists with this state, both `shared` from then on, for
        a copy only the rules play on (Program.apply): code that changes a zone's list in place (a
        test setting up a position) must not be given one, nor change this state so meanwhile."""
        s = State.__new__(State) if into is None else into.__new__(into)
        if share:
            s.zones = self.zones[:]
            s.shared = self.shared = True
        else:
            s.zones = list(map(list.copy, self.zones))   # faster than a comprehension
            s.shared = False
        s.vars = self.vars[:]
        s.loc = self.loc[:]
        s.stack = self.stack[:]
        s.pc, s.current, s.me, s.decider = self.pc, self.current, self.me, self.decider
        s.pending, s.turn, s.moves = self.pending, self.turn, self.moves
        s.ending, s.extra, s.over, s.rng = self.ending, self.extra, self.over, self.rng
        if log:
            s.log = None if self.log is None else self.log[:]
            s.chance = None if self.chance is None else self.chance[:]
            s.script = None if self.script is None else self.script[:]
        else:
            s.log = s.chance = s.script = None
        s.evals = None
        return s

    def __eq__(self, other) -> bool:
        return isinstance(other, State) and all(
            getattr(self, k) == getattr(other, k) for k in State.__slots__ if k not in self.UNCOMPARED)


# What a rule that uses a value where it does not fit raises in Python (an index not in a family,
# a number added to a list, ...): turned into a RuleRuntimeError naming the rule.
RULE_FAILURES = (KeyError, IndexError, TypeError, ValueError, ZeroDivisionError, AttributeError, OverflowError,
                 RecursionError, MemoryError)


def run(st: State, code: list, where=None, max_steps: int = MAX_OPS_PER_RUN, loops=()) -> None:
    """Run ops from st.pc until a decision or the end of the game, at most max_steps of them.

    `where(exc, pc)` names the rule an error came from; `loops`, [(first pc, end pc, position)] of
    the while loops, names the loop that never asks anyone. (Program.play_out runs the same loop
    inline, with the same two ends: ran_long and run_failed.)"""
    pc = st.pc
    try:
        for _ in range(max_steps):      # a counted loop: cheaper than counting by hand
            if pc < 0:
                return
            pc = code[pc](st)
        ran_long(st, code, pc, max_steps, loops, where)
    except (RuleRuntimeError, *RULE_FAILURES) as exc:
        raise run_failed(exc, st, pc, where) from None


def ran_long(st: State, code: list, pc: int, max_steps: int, loops, where=None) -> None:
    """After max_steps ops: nothing if the run paused just then, else one step more, then the error
    naming the innermost loop that never asks anyone (else the rule of the op that step reached)."""
    if pc < 0:
        return
    pc = code[pc](st)
    inner = [(end - start, pos) for start, end, pos in loops if start <= pc < end]
    pos = min(inner, key=lambda x: x[0])[1] if inner else None
    text = (f"the rules ran {max_steps:,} steps in turn {st.turn} without asking anyone for a decision: "
            f"{'this' if pos else 'a'} loop never ends (limit: --max-steps)")
    if pos is None and where is not None:
        pos = where(RuleRuntimeError(None, text), pc)
    raise RuleRuntimeError(pos, text)


def run_failed(exc: BaseException, st: State, pc: int, where) -> RuleRuntimeError:
    """The error a run stops with: a rule's own error named after its rule when it names none (the
    rule of op pc, or where on its traceback it came from), a Python error as failure() words it."""
    if isinstance(exc, RuleRuntimeError):
        if exc.pos is None and where is not None:
            pos = where(exc, pc)
            if pos is not None:
                return RuleRuntimeError(pos, str(exc))
        return exc
    return failure(exc, st, where(exc, pc) if where is not None else None)


def failure(exc: BaseException, st: State, pos) -> RuleRuntimeError:
    """A Python error inside a rule as the error a designer reads: the rule, the turn, what went wrong."""
    if isinstance(exc, NoSeat):
        return RuleRuntimeError(exc.pos, f"the rules failed in turn {st.turn}: {exc.message}")
    if isinstance(exc, RecursionError):
        what = "the rules called themselves too deeply"
    elif isinstance(exc, MemoryError):
        what = "the rules ran out of memory"
    elif "NoneType" in str(exc) or "None" in str(exc).split("'"):
        what = ("a name was used before it was given a value, or the first card of an empty zone: "
                "give it a value with let before this rule, or test count(...) > 0 first")
    else:
        what = (f"a value was used where it does not fit ({failure_words(exc)}), e.g. an index that is "
                "not in a zone family, or a number where a list belongs")
    return RuleRuntimeError(pos, f"the rules failed in turn {st.turn}: {what}")


def rule_at(op_pos, pc: int):
    """The position of the rule op pc runs: its own, else the nearest rule before it."""
    if not 0 <= pc < len(op_pos):
        return None
    for k in range(pc, -1, -1):
        if op_pos[k] is not None:
            return op_pos[k]
    return None


def once(trigger):
    """An on_empty trigger that does not run again while it runs: a trigger that empties its own
    zone, or two that refill each other's, would otherwise call themselves without end."""
    running = False

    def run_trigger(st):
        nonlocal running
        if running:
            return
        running = True
        try:
            trigger(st)
        finally:
            running = False
    return run_trigger


def log_move(st: State, src: int, dst: int, cards, vis: list, bottom: bool = False, positions=False) -> None:
    """Record that cards went src -> dst, seen by the seats of either zone's visibility.
    A move to the bottom of dst carries a sixth field, True. `positions` (a game whose rules tell
    facts: a seat's told facts follow the cards, views.py) are where in src each card lay before the
    move, counted from the bottom, or None when that is not known (a pile refilled while drawing);
    False: a game without `tell`, whose events carry no positions."""
    if positions is not False:
        st.log.append((MOVE, src, dst, tuple(cards), vis[src] | vis[dst], bool(bottom), 0, positions))
    elif bottom:
        st.log.append((MOVE, src, dst, tuple(cards), vis[src] | vis[dst], True))
    else:
        st.log.append((MOVE, src, dst, tuple(cards), vis[src] | vis[dst]))


def take_top(st: State, z: int, n: int, trigger, bottom: bool = False) -> list:
    """Remove up to n cards from the top (or bottom) of zone z, running its on-empty trigger when dry."""
    zones = st.zones
    zone = zones[z]
    if 0 < n <= len(zone) and not bottom:
        keep = len(zone) - n
        out = zone[keep:]
        if st.shared:           # a new list: a copy shares this one
            zones[z] = zone[:keep]
        else:
            del zone[keep:]
        out.reverse()           # the top card is taken first
        return out
    out = []
    while len(out) < n:
        zone = zones[z]         # read again: a trigger may have put a new list there
        if not zone:
            if trigger is None:
                break
            trigger(st)
            zone = zones[z]
            if not zone:
                break
        if st.shared:
            zone = zones[z] = zone[:]
        out.append(zone.pop(0) if bottom else zone.pop())
    return out


def take_top_at(st: State, z: int, n: int, trigger, bottom: bool = False) -> tuple:
    """take_top, and where the cards lay (from the bottom, before the move): None when the pile ran
    dry and its trigger refilled it in the middle (the cards then came from two different piles)."""
    before = len(st.zones[z])
    out = take_top(st, z, n, trigger, bottom)
    if len(st.zones[z]) != before - len(out):
        return out, None
    return out, tuple(range(len(out))) if bottom else tuple(range(before - 1, before - 1 - len(out), -1))


def deal(st: State, k: int, z: int, first: int, base: int, width: int, n: int, trigger, vis: list,
         at: bool = False) -> None:
    """Deal k cards to each of n players, one at a time from seat `first` on, into the per-player
    zone whose instances start at `base`; stops where it is when the pile (and its trigger) runs dry."""
    zones = st.zones
    zone = zones[z]
    if 0 < k * n <= len(zone):      # enough cards: no trigger can run, so they are taken at once
        keep = len(zone) - k * n
        dealt = zone[keep:]
        zones[z] = zone[:keep]
        dealt.reverse()             # the top card first
        loc, log = st.loc, st.log
        seats = [base + ((first + i) % n) * width for i in range(n)]
        for i, d in enumerate(seats):   # each seat's cards at once (a new list: zones are shared)
            got = dealt[i::n]
            zones[d] = zones[d] + got
            if log is None:
                for c in got:
                    loc[c] = d
        if log is None:
            return
        top = keep + k * n - 1          # where the first card dealt lay (each is the top in its turn)
        for i, c in enumerate(dealt):   # the events in the order dealt
            d = seats[i % n]
            loc[c] = d
            log.append((MOVE, z, d, (c,), vis[z] | vis[d], False, 0, (top - i,)) if at else
                       (MOVE, z, d, (c,), vis[z] | vis[d]))
        return
    for _ in range(k):
        for i in range(n):
            got, where = take_top_at(st, z, 1, trigger)
            if not got:
                return
            d = base + ((first + i) % n) * width
            place(st, got, d)
            if st.log is not None:
                log_move(st, z, d, got, vis, False, where if at else False)


def place(st: State, cards: list, dst: int, bottom: bool = False) -> None:
    """Put cards on top (or, keeping their order, at the bottom) of zone dst and note where they are."""
    zones = st.zones
    if bottom:
        zones[dst] = cards + zones[dst]
    elif st.shared:
        zones[dst] = zones[dst] + cards
    else:
        zones[dst].extend(cards)
    loc = st.loc
    for c in cards:
        loc[c] = dst


def remove(st: State, cards) -> list:
    """Take the given cards out of whatever zones hold them; returns [(zone, [cards])] in order."""
    zones, loc = st.zones, st.loc
    first = loc[cards[0]]
    for c in cards:
        if loc[c] != first:
            break
    else:                                   # the usual case: all from one zone
        take_out(zones, first, cards, st.shared)
        return [(first, list(cards))]
    groups: dict = {}
    for c in cards:
        groups.setdefault(loc[c], []).append(c)
    for z, cs in groups.items():
        take_out(zones, z, cs, st.shared)
    return list(groups.items())


def remove_at(st: State, cards) -> list:
    """remove, with where each card lay in its zone before: [(zone, [cards], positions)]."""
    zones, loc = st.zones, st.loc
    groups: dict = {}
    for c in cards:
        groups.setdefault(loc[c], []).append(c)
    out = []
    for z, cs in groups.items():
        where = {c: i for i, c in enumerate(zones[z])}
        out.append((z, cs, tuple(where[c] for c in cs)))
        take_out(zones, z, cs, st.shared)
    return out


def take_out(zones: list, z: int, cards, shared: bool) -> None:
    """Remove the given cards from zone z (from a new list when the state is `shared`): one by one
    when they are few, else in one pass (many removals one by one would cost the zone's length
    each: a whole hand of thousands)."""
    zone = zones[z][:] if shared else zones[z]
    if len(cards) <= 8:
        for c in cards:
            zone.remove(c)
    else:
        gone = set(cards)
        kept = [c for c in zone if c not in gone]
        if len(kept) + len(cards) != len(zone):     # a card named twice, or not there: as remove() fails
            raise ValueError("list.remove(x): x not in list")
        zone = kept
    zones[z] = zone


def move_cards(st: State, cards: list, dst: int, vis: list, bottom: bool = False, at: bool = False) -> None:
    """Move the given cards (not empty) from wherever they are onto zone dst (or under it), group by
    group of the zones they come from, as `remove` then `place` would, and log each group (`at`: with
    the positions they left, a game whose rules tell facts)."""
    if at:
        groups = remove_at(st, cards)
        for z, cs, where in (reversed(groups) if bottom else groups):
            place(st, cs, dst, bottom)
            if st.log is not None:
                log_move(st, z, dst, cs, vis, bottom, where)
        return
    loc = st.loc
    src = loc[cards[0]]
    for c in cards:
        if loc[c] != src:
            break
    else:                           # the usual case: all from one zone, one event
        zones = st.zones
        take_out(zones, src, cards, st.shared)
        if bottom:
            zones[dst] = cards + zones[dst]
        elif st.shared:
            zones[dst] = zones[dst] + cards
        else:
            zones[dst].extend(cards)
        for c in cards:             # place(), written out: this is the move of almost every choice
            loc[c] = dst
        if st.log is not None:
            log_move(st, src, dst, cards, vis, bottom)
        return
    groups = remove(st, cards)
    for z, cs in (reversed(groups) if bottom else groups):     # under a pile the last group goes first
        place(st, cs, dst, bottom)
        if st.log is not None:
            log_move(st, z, dst, cs, vis, bottom)


def land(st: State, pending: list, vis: list) -> None:
    """The moves of a `together` block, once every one has taken its cards: [(zone, [(from zone,
    cards)], bottom)], each group placed and logged as an ordinary move, in the order they were taken
    (read one by one, the events still tell a true story: each move's cards were in its source). Each
    event carries a seventh field, AT_ONCE_FIRST for the block's first and AT_ONCE for the others: what
    left a zone left it before any card of the block landed there (views.py reads it so)."""
    mark = AT_ONCE_FIRST
    for dst, groups, bottom in pending:
        for group in (reversed(groups) if bottom else groups):
            z, cs = group[0], group[1]
            place(st, cs, dst, bottom)
            if st.log is not None:      # a game whose rules tell facts: (zone, cards, positions) groups
                st.log.append((MOVE, z, dst, tuple(cs), vis[z] | vis[dst], bottom, mark) + tuple(group[2:]))
                mark = AT_ONCE


def reveal(st: State, cards: list, mask: int) -> None:
    """Show cards where they lie to the seats of mask: only an event (nothing in the game changes),
    one per zone they lie in, each card with its position from the bottom."""
    if st.log is None or not cards or not mask:
        return
    for z, lying in where_lie(st, cards).items():
        st.log.append((REVEAL, z, lying, mask))


def where_lie(st: State, cards: list) -> dict:
    """{zone: ((position from the bottom, card id), ...)} for the given cards (each once), by zone."""
    zones, by_zone = st.zones, {}
    for c in dict.fromkeys(cards):
        by_zone.setdefault(st.loc[c], []).append(c)
    out = {}
    for z, cs in by_zone.items():
        where = {c: i for i, c in enumerate(zones[z])}
        out[z] = tuple(sorted((where[c], c) for c in cs))
    return out


def seat_mask(seats, table) -> int:
    """The bits of a list of seats, each checked to be a seat (table: a SeatTable)."""
    mask = 0
    for s in seats:
        mask |= 1 << table[s]
    return mask


def shuffle_zone(st: State, z: int, card_type: list, zone_name: str, mask: int = 0) -> None:
    """Shuffle zone z with the state's generator, or as the replayed record says."""
    if len(st.zones[z]) < 2:
        return
    if st.script is not None:
        _scripted_order(st, z, card_type, zone_name)
    else:
        if st.shared:                           # a new list: a copy shares this one
            st.zones[z] = st.zones[z][:]
        st.rng = rng.shuffle(st.zones[z], st.rng)
    zone = st.zones[z]
    if st.chance is not None:
        st.chance.append((z, [card_type[c] for c in zone]))
    if st.log is not None:
        st.log.append((SHUFFLE, z, tuple(zone), mask))


def _scripted_order(st: State, z: int, card_type: list, zone_name: str) -> None:
    """Reorder zone z to the next recorded outcome (types bottom to top)."""
    if not st.script:
        raise RecordError(f"the record has no shuffle outcome left for {zone_name}")
    want_zone, types = st.script.pop(0)
    if want_zone != z:
        raise RecordError(f"the record's next shuffle is of another zone, not {zone_name}")
    pool: dict = {}
    for c in sorted(st.zones[z]):
        pool.setdefault(card_type[c], []).append(c)
    order = []
    for t in types:
        if not pool.get(t):
            raise RecordError(f"the recorded shuffle of {zone_name} does not hold the cards that are there")
        order.append(pool[t].pop(0))
    if len(order) != len(st.zones[z]):
        raise RecordError(f"the recorded shuffle of {zone_name} has {len(order)} cards, not {len(st.zones[z])}")
    st.zones[z] = order
