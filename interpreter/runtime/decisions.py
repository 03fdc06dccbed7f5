"""Decision points: which moves are legal, how a move binds, and its canonical text.

A move is a small tuple (the payload); interchangeable cards (same type) give one move.
  cards:   ((type, n), ...) sorted by type
  value:   (value,)
  options: (option index, cards payload or None)
  parts:   (value of the first part, value of the second, ...)
"""
from __future__ import annotations

from itertools import repeat

from ..errors import Pos, RuleRuntimeError


class TooMany(Exception):
    """A choice has more legal moves than its limit allows."""


def multisets(groups: list, lo: int, hi: int, cap: int | None = None) -> list:
    """Every choice of counts from [(type, available), ...] whose total lies in [lo, hi].

    Depth first, fewer of the earlier types first (see walk). The walk depends only on the shape
    (the numbers available, lo, hi), so it is made once per shape and kept: another hand of the same
    shape only puts its own types in (a new hand's types seldom repeat, its shape often does)."""
    top = max(hi, 0)
    key = (tuple(avail for _, avail in groups), lo, hi)
    shape = _SHAPES.get(key)
    if shape is None:
        shape = walk(key[0], lo, hi, cap)
        if len(_SHAPES) >= 4096:        # bounded memory over many games
            _SHAPES.clear()
        _SHAPES[key] = shape
    elif cap is not None and len(shape) > cap:
        raise TooMany
    picks = [(t, k) for t, avail in groups for k in range(1, min(avail, top) + 1)]
    return list(map(tuple, map(map, repeat(picks.__getitem__), shape)))    # in C: each choice's picks named


_SHAPES: dict = {}      # (available per group, lo, hi) -> walk()'s choices


def walk(avails: tuple, lo: int, hi: int, cap: int | None = None) -> list:
    """multisets() of groups with these numbers available, each choice a tuple of indices into the
    list of (group, k) for k = 1..min(available, hi) group by group (so the groups' names can be
    put in afterwards). Depth first, fewer of the earlier groups first; walked without recursion (a
    zone may hold thousands of types), skipping branches that cannot reach lo. With a cap, raises
    TooMany as soon as there are more choices than that, so an astronomic choice is never listed."""
    out: list = []
    last = len(avails)
    reach = [0] * (last + 1)            # reach[i]: the most cards groups i.. can add
    first = [0] * (last + 1)            # first[i]: the index of (group i, 1)
    for i in range(last - 1, -1, -1):
        reach[i] = reach[i + 1] + min(avails[i], max(hi, 0))
    for i in range(last):
        first[i + 1] = first[i] + min(avails[i], max(hi, 0))
    stack = [(0, 0, ())]
    while stack:
        i, total, acc = stack.pop()
        if i == last or total == hi:    # nothing more can be added: one choice, if big enough
            if total >= lo:
                out.append(acc)
                if cap is not None and len(out) > cap:
                    raise TooMany
            continue
        avail, base = avails[i], first[i] - 1
        after = reach[i + 1]
        for k in range(max(min(avail, hi - total), 0), -1, -1):     # pushed last = taken first: k = 0
            if total + k + after >= lo:
                stack.append((i + 1, total + k, acc + (base + k,) if k else acc))
    return out


class CardSpec:
    """Which cards a decision may pick: its candidates and moves (generated functions), a shared attribute."""

    def __init__(self, same_table, type_of, type_names):
        self.same, self.type_of, self.type_names = same_table, type_of, type_names
        self.candidates = None          # set by the compiler: f(st) -> the cards a move is bound to (bind)
        self.payloads = None            # ... and f(st) -> every legal move (calls choices)
        self.type_at = type_of.__getitem__     # bound once: making it costs more than the key it makes
        self.cache: dict = {}   # (types sorted, lo, hi) -> moves; the moves depend on nothing else (the
                                # same dict for good: the generated listing looks in it itself)
        self.zone_vis = self.zone_names = self.pos = None     # set by the compiler: the visibility guard
        self.one_zone = False
        self.option = None              # the option number of a choice of options: moves are (option, cards)
        self.tail = ()                  # ... and the moves of the options after it listed with its own (when
                                        # they have neither cards nor a `when`: always the same moves)
        self.decision = None            # set by the compiler: the Decision this spec belongs to
        self.max_moves = 10_000         # ... and the limit on its legal moves (Limits.moves)

    def guard(self, st, cands: list) -> None:
        """Refuse a choice among cards the deciding seat cannot see (the moves would name them)."""
        bit, loc, vis = 1 << st.decider, st.loc, self.zone_vis
        for c in (cands[:1] if self.one_zone else cands):
            if not vis[loc[c]] & bit:
                raise RuleRuntimeError(self.pos, f"seat {st.decider} would choose among cards it cannot see "
                                       f"(in {self.zone_names[loc[c]]}): the legal moves would name them")

    def choices(self, st, key: tuple) -> list:
        """Every legal multiset of card types of lo to hi of the candidates, deduplicated by type, kept
        in the cache under key = (the candidates' types sorted, lo, hi), on which alone they depend (the
        generated listing makes the key and looks in the cache itself); for an option, each as (option
        number, multiset), then the tail."""
        types, lo, hi = key
        counts: dict = {}
        for t in types:
            counts[t] = counts.get(t, 0) + 1
        try:
            found = self.enumerate(tuple(counts.items()), lo, hi, self.max_moves)
        except TooMany:
            raise self.too_many(st, len(types), lo, hi) from None
        if self.option is not None:
            found = [(self.option, p) for p in found] + list(self.tail)
        if len(self.cache) >= 4096:     # bounded memory over many games
            self.cache.clear()
        self.cache[key] = found
        return found

    def enumerate(self, counts: tuple, lo: int, hi: int, cap: int | None = None) -> list:
        if lo > hi:
            return []
        if self.same is None:
            return multisets(list(counts), lo, hi, cap)
        groups: dict = {}
        for t, n in counts:
            groups.setdefault(self.same[t], []).append((t, n))
        out = [()] if lo == 0 else []
        for group in groups.values():
            out.extend(multisets(group, max(lo, 1), hi, None if cap is None else cap - len(out)))
        return out

    def too_many(self, st, n: int, lo: int, hi: int) -> RuleRuntimeError:
        """The error for a choice with more legal moves than the limit: it names the choice and the turn."""
        dec = self.decision
        name, pos = (dec.name, dec.pos) if dec is not None else ("?", self.pos)
        among = f"{lo} to {hi}" if lo != hi else f"{lo}"
        return RuleRuntimeError(pos, f"decision '{name}' would have more than {self.max_moves:,} legal moves for "
                                f"seat {st.decider} in turn {st.turn} (choosing {among} of {n} cards): split it "
                                "into smaller choices, one card at a time (limit: --max-moves)")

    def bind(self, st, payload) -> list:
        """The concrete cards for a payload: the topmost candidates of each type (of the zone the
        candidates are filtered from, when a filter's outcome depends on the card's type alone)."""
        cands = self.candidates(st)
        if len(payload) == 1:       # one type: the usual move
            return topmost(cands, self.type_of, *payload[0])
        return self.bind_types(cands, payload)

    def bind_types(self, cands: list, payload) -> list:
        """The cards of a payload among the candidates: the topmost of each type, type by type."""
        chosen = []
        for t, n in payload:
            chosen.extend(topmost(cands, self.type_of, t, n))
        return chosen

    def text(self, payload) -> str:
        if not payload:
            return "nothing"
        names = self.type_names
        return " + ".join(f"{n}*{names[t]}" for t, n in payload)


def topmost(cards: list, type_of: list, t: int, n: int) -> list:
    """The last n cards of type t in cards, in their order: looked for from the top down, so a hand's
    cards below them are never read."""
    found = []
    for c in reversed(cards):
        if type_of[c] == t:
            found.append(c)
            if len(found) == n:
                break
    found.reverse()
    return found


class Decision:
    """One `choose` of the rules, compiled."""

    def __init__(self, index: int, name: str, slot: int, pos: Pos):
        self.index, self.name, self.slot, self.pos = index, name, slot, pos
        self.kind = "cards"
        self.public = False             # public: every seat sees the move (events.for_seat keeps it)
        self.cards: CardSpec | None = None
        self.options: list = []         # [(name, slot, CardSpec or None)]
        self.parts: list = []           # [(name, slot)] of a choice of parts, in their order
        self.moves = None               # set by the compiler: f(st) -> every legal move, in a fixed order
        self.max_moves = 10_000         # Limits.moves, set by the compiler
        self.value_slot = None          # a choice of a value (not simultaneous): its slot, where play_out
                                        # stores the move itself (no call to bind)
        self.starts = None              # per option, the pc of its block (set by the compiler: the move
                                        # enters it, with no dispatch op between)

    def too_many(self, st, n: int):
        """The error for a choice of a value among more than the limit of distinct values."""
        raise RuleRuntimeError(self.pos, f"decision '{self.name}' would have {n:,} legal moves for "
                               f"seat {st.decider} in turn {st.turn}, more than {self.max_moves:,}: "
                               "choose from a shorter list (limit: --max-moves)")

    def too_many_parts(self, st):
        """The error for a choice of parts with more combinations than the limit (found while listing)."""
        raise RuleRuntimeError(self.pos, f"decision '{self.name}' would have more than {self.max_moves:,} legal "
                               f"moves for seat {st.decider} in turn {st.turn}: choose from shorter lists, or "
                               "one part after the other in two choices (limit: --max-moves)")

    def bind(self, st, move) -> None:
        """Store the chosen move in the decision's local slot(s); an option also sets where to go on.
        (The compiler gives a decision its own bind, the same as straight code: choices.binder.)"""
        kind = self.kind
        if kind == "cards":
            st.vars[self.slot] = self.cards.bind(st, move)
        elif kind == "value":
            st.vars[self.slot] = move[0]
        elif kind == "parts":
            for (_, slot), v in zip(self.parts, move):
                st.vars[slot] = v
        else:
            i, payload = move
            name, slot, spec = self.options[i]
            st.vars[self.slot] = name
            if spec is not None:
                st.vars[slot] = spec.bind(st, payload)
            st.vars[self.option_slot] = i
            if self.starts is not None:
                st.pc = self.starts[i]

    def text(self, move) -> str:
        """The canonical text of a move: what players type and records store."""
        if self.kind == "cards":
            return f"{self.name}: {self.cards.text(move)}"
        if self.kind == "value":
            return f"{self.name}: {show(move[0])}"
        if self.kind == "parts":
            return f"{self.name}: " + " ".join(f"{name}={show(v)}" for (name, _), v in zip(self.parts, move))
        i, payload = move
        name, _, spec = self.options[i]
        return name if spec is None else f"{name}: {spec.text(payload)}"


def show(value, quoted: bool = False, width: int = 200) -> str:
    """A value as the rules language writes it: true/false, empty, [1, 'a'], a text as it is (in
    quotes when `quoted`, as in a message; inside a list always); never Python's repr. Lists longer
    than `width` characters are cut with …"""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "empty"
    if isinstance(value, str):
        return f"'{value}'" if quoted else value
    if isinstance(value, (list, tuple, set, frozenset)):
        items, size = [], 2
        for item in value:
            items.append(show(item, True, width))
            size += len(items[-1]) + 2
            if size > width:
                return "[" + ", ".join(items) + ", …]"
        return "[" + ", ".join(items) + "]"
    if isinstance(value, dict):
        return "a table"
    return str(value)


FAILURES = {ZeroDivisionError: "a division by zero", IndexError: "a position past the end of a list or zone",
            KeyError: "an index or name that is not there", OverflowError: "a number too large",
            ValueError: "a value out of range", RecursionError: "rules that call themselves too deeply",
            MemoryError: "more memory than there is"}


def failure_words(exc: BaseException) -> str:
    """What a Python error inside a rule means, in the language's words (never Python's text)."""
    if "NoneType" in str(exc):
        return "an empty value where a value belongs"
    for kind, words in FAILURES.items():
        if isinstance(exc, kind):
            return words
    return "a value of the wrong kind (e.g. a number where a list belongs)"


def normalise(text: str) -> str:
    """Move text compared loosely: spaces and case ignored, × for *, card terms in any order."""
    t = "".join(text.split()).replace("×", "*").lower()
    head, sep, terms = t.partition(":")       # names of decisions and options hold no ':'

    if "*" in terms and "+" in terms:
        terms = "+".join(sorted(terms.split("+")))
    return head + sep + terms
