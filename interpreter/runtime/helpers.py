"""The small functions generated code calls at run time (through the name `_h`), and the guards
that are closures rather than generated text (the `alike` check)."""
from __future__ import annotations

import operator
from itertools import compress, count

from ..errors import RuleRuntimeError
from . import play_order
from .decisions import show

_RANK = operator.itemgetter(0)     # a (number, item) pair is ranked by its number alone

MAX_INT_BITS = 4096      # a number squared again and again would grow without bound


def numbers(lo, hi, pos, limit: int) -> list:
    """numbers(lo, hi): lo..hi, both included, at most `limit` of them."""
    if hi - lo + 1 > limit:
        raise RuleRuntimeError(pos, f"the numbers from {lo:,} to {hi:,} would be {hi - lo + 1:,} values, but a "
                               f"list holds at most {limit:,}")
    return list(range(lo, hi + 1))


def join(a, b, pos, limit: int):
    """a + b where either may be a list (or a text): at most `limit` values long (a list doubled in a
    loop would fill the memory)."""
    if type(a) is int and type(b) is int:
        return a + b
    if isinstance(a, list) != isinstance(b, list) and a is not None and b is not None:   # None: a name never bound
        raise RuleRuntimeError(pos, f"'+' joins a list only to a list, not {show(a, True)} and {show(b, True)}")
    if isinstance(a, (list, str)) and isinstance(b, (list, str)) and len(a) + len(b) > limit:
        raise RuleRuntimeError(pos, f"joining these lists would make {len(a) + len(b):,} values, but a list "
                               f"holds at most {limit:,}")
    return a + b


def set_at(xs, items: tuple, value, pos):
    """A copy of the (nested) list xs with the item at the indices `items` replaced by value: the
    lists on the way are new, so a clone of the state that shares xs keeps the old value."""
    if not isinstance(xs, list):
        raise RuleRuntimeError(pos, f"only a list has items to set, not {show(xs, True)}")
    i = items[0]
    if type(i) is not int or not 0 <= i < len(xs):
        raise RuleRuntimeError(pos, f"index {i} is outside the list (it has {len(xs)} items)")
    out = list(xs)
    out[i] = set_at(xs[i], items[1:], value, pos) if len(items) > 1 else value
    return out


def multiply(a, b, pos):
    """a * b for two numbers (never a list or a text repeated), bounded in size."""
    if not (type(a) is int and type(b) is int):
        if not (isinstance(a, int) and isinstance(b, int)):
            raise RuleRuntimeError(pos, f"'*' multiplies numbers, not {show(a, True)} and {show(b, True)}")
    if a.bit_length() + b.bit_length() > MAX_INT_BITS:
        raise RuleRuntimeError(pos, f"this product is too large (more than {MAX_INT_BITS} binary digits)")
    return a * b


def index_of(seq, x, pos):
    """The position of x in seq (the first, counting from 0); an error naming the rule if absent."""
    try:
        return list(seq).index(x)
    except ValueError:
        raise RuleRuntimeError(pos, f"{show(x, True)} is not in the list {show(list(seq))}") from None


def not_a_seat(seat, players: int) -> str:
    """Why a value cannot pick a player's zone or variable: no player sits there."""
    if type(seat) is int:
        return (f"there is no player {seat} with {players} players: the seats are 0 to {players - 1}; "
                "name a seat such as current, next(current) or p from 'for p in seats'")
    return f"{show(seat, True)} is not a player: a player is a seat number from 0 to {players - 1}"


class NoSeat(KeyError):
    """A value used as a seat that no player has (engine.failure names the seat's rule and the turn)."""

    def __init__(self, pos, message: str):
        super().__init__(message)
        self.pos, self.message = pos, message


class SeatTable(dict):
    """What each seat picks (its zone's or variable's index, the next seat) as one lookup; else NoSeat."""
    # a lookup, not arithmetic: a seat out of range would land in another player's zone or another zone

    def __init__(self, picks, pos, players: int):
        super().__init__(enumerate(picks))
        self.pos, self.players = pos, players

    def __missing__(self, key):
        raise NoSeat(self.pos, not_a_seat(key, self.players))


def too_many_turns(limit: int) -> str:
    return f"the game passed {limit:,} turns without ending: check the end condition (limit: --max-turns)"


def endless_loop(limit: int, st) -> str:
    return f"this loop ran {limit:,} times in turn {st.turn}: it never ends (limit: --max-loops)"


class Helpers:
    """The helpers as one namespace entry, `_h.name(...)` in generated code."""

    @staticmethod
    def attr(table, card):
        if card is None:
            return None
        if isinstance(card, list):
            return [table[c] for c in card]
        return table[card]

    @staticmethod
    def members(xs):
        """A list's values as a set, for many `x in xs` tests (the same answers for values that are
        always keys); anything else (a text, a list holding a list) as it is, to be tested as before."""
        if type(xs) is list:
            try:
                return set(xs)
            except TypeError:       # a list holding a list: tested as a list
                pass
        return xs

    @staticmethod
    def first(xs):
        return xs[0] if xs else None

    @staticmethod
    def last(xs):
        return xs[-1] if xs else None

    @staticmethod
    def zone_index(zones: list, cards: list) -> int:
        """The index of the zone whose list `cards` is (a zone named by an expression worked out as it runs)."""
        return next(i for i, z in enumerate(zones) if z is cards)

    @staticmethod
    def top(xs, n):
        return xs[max(0, len(xs) - n):] if n > 0 else []

    @staticmethod
    def bottom(xs, n):
        return xs[:n] if n > 0 else []

    @staticmethod
    def ranked(fn, pairs, pos, name, filtered):
        """The item of (number, item) pairs with the largest (fn=max) or smallest (min) number, the
        first such; an empty list has none, which is an error at the rule."""
        if not pairs:
            why = "no item of its list passes its 'if'" if filtered else "its list is empty"
            raise RuleRuntimeError(pos, f"{name}(...) has no item to pick: {why}; test first that there is "
                                   f"one, e.g. if count(...) > 0 then {name}(...) else ...")
        return fn(pairs, key=_RANK)[1]

    @staticmethod
    def at(xs, i, pos):
        if not isinstance(xs, list):
            raise RuleRuntimeError(pos, f"only a list is indexed with [...], not {show(xs, True)}")
        if type(i) is not int:
            raise RuleRuntimeError(pos, f"a list index is a number, not {show(i, True)}")
        if not 0 <= i < len(xs):
            raise RuleRuntimeError(pos, f"index {i} is outside the list (it has {len(xs)} items)")
        return xs[i]

    in_play = staticmethod(play_order.in_play)
    seat_after = staticmethod(play_order.seat_after)
    going_round = staticmethod(play_order.going_round)
    next_turn = staticmethod(play_order.next_turn)
    index = staticmethod(index_of)
    set_at = staticmethod(set_at)
    numbers = staticmethod(numbers)
    join = staticmethod(join)
    multiply = staticmethod(multiply)

    @staticmethod
    def div(a, b, pos):
        if b == 0:
            raise RuleRuntimeError(pos, "division by zero")
        return a // b

    @staticmethod
    def mod(a, b, pos):
        if b == 0:
            raise RuleRuntimeError(pos, "division by zero")
        return a % b

    @staticmethod
    def keep(cards, row) -> list:
        """The cards whose entry in a Keyed row is true, in order."""
        return [c for c in cards if row[c]]     # fewer instructions than compress(map(row.__getitem__))

    @staticmethod
    def none_lying(picks, ids, loc, hint: list) -> bool:
        """Whether none of the cards `ids` lies in the zones `picks`, asked after the card hint[0] names
        was found elsewhere: the first one found there becomes the hint (the one asked first next
        time, as it mostly still lies there)."""
        i = next(compress(count(), map(picks.__contains__, map(loc.__getitem__, ids))), None)
        if i is None:
            return True
        hint[0] = i
        return False

    @staticmethod
    def too_many_turns(limit, pos):
        raise RuleRuntimeError(pos, too_many_turns(limit))

    @staticmethod
    def endless(limit, pos, st):
        raise RuleRuntimeError(pos, endless_loop(limit, st))


def alike_guard(card_type: list, type_names: list, zone_decl: list, zone_names: list):
    """check(st, cards, d, pos), refusing a mixed move into an empty zone declared `alike`."""
    def check_alike(st, cards: list, d: int, pos) -> None:
        if st.zones[d] or not cards:
            return
        types = card_type
        first = types[cards[0]]
        other = next((types[c] for c in cards if types[c] != first), None)
        if other is not None:
            names = type_names
            raise RuleRuntimeError(pos, f"zone '{zone_decl[d].name}' is declared alike, but this move puts "
                                   f"{names[first]} and {names[other]} into the empty {zone_names[d]}: "
                                   "fill it with one type at a time, or drop 'alike'")
    return check_alike


class Keyed(dict):
    """`X in ATTR`, `X == ATTR` or `X != ATTR` (X read once, ATTR of the card's type only) as a row per
    value of X: whether each card id passes, worked out once per value and kept, so a filter or a count
    over a zone is one table lookup per card (in C) instead of the test per card. `keyed[X]` for an X
    that is always a key (a number, a text, true/false or nothing), else `keyed.row(X)`."""

    KEPT = 256      # rows kept per test (values of X); more are worked out each time

    def __init__(self, values_by_type: list, card_type: list, test):
        super().__init__()
        self.values, self.card_type, self.test = values_by_type, card_type, test

    def __missing__(self, x) -> list:
        found = self.make(x)
        if len(self) < self.KEPT:
            self[x] = found
        return found

    def row(self, x) -> list:
        """Per card id: whether it passes for this X, or a Failing that raises what the test raised."""
        try:
            return self[x]
        except TypeError:           # X is a list: no key, the row made each time
            return self.make(x)

    def make(self, x) -> list:
        per_type = []
        for v in self.values:
            try:
                per_type.append(self.test(x, v))
            except Exception as exc:    # raised only where such a card is tested, as before
                per_type.append(Failing(exc))
        return [per_type[t] for t in self.card_type]

    def __eq__(self, other):        # a table of code, compared (and hashed) as itself
        return self is other

    __hash__ = object.__hash__


class KeyedIds(dict):
    """The card ids that pass a Keyed test per value of X, as a set (a count over a zone is then
    `len(ids[x].intersection(zone))`, in C); a value whose row has a card whose test failed gets a
    FailingIds, which tests the zone's cards one by one in order and so fails where the row would."""

    def __init__(self, keyed: Keyed):
        super().__init__()
        self.keyed = keyed

    def __missing__(self, x):
        row = self.keyed[x]
        if any(type(v) is Failing for v in row):
            found = FailingIds(row)
        else:
            found = frozenset(c for c, ok in enumerate(row) if ok)
        if len(self) < Keyed.KEPT:
            self[x] = found
        return found

    def __eq__(self, other):        # a table of code, compared (and hashed) as itself
        return self is other

    __hash__ = object.__hash__


class FailingIds:
    """KeyedIds' entry for a row that holds a failing card: the cards that pass, tested in order."""

    __slots__ = ("row",)

    def __init__(self, row: list):
        self.row = row

    def intersection(self, cards) -> list:
        row = self.row
        return [c for c in cards if row[c]]


class Failing:
    """A row's entry for a card whose test raised: using it raises a new exception of the same kind
    and words (so the error names the rule and reads as the test's own would have)."""

    __slots__ = ("exc",)

    def __init__(self, exc: Exception):
        self.exc = exc

    def fail(self, *_):
        raise type(self.exc)(*self.exc.args)

    __bool__ = __radd__ = __add__ = fail


KEYED_TESTS = {"in": lambda x, v: x in v, "not in": lambda x, v: x not in v,
               "==": lambda x, v: x == v, "!=": lambda x, v: x != v,
               "in'": lambda x, v: v in x, "not in'": lambda x, v: v not in x,
               "=='": lambda x, v: v == x, "!='": lambda x, v: v != x}      # ': X on the right
