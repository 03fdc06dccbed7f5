"""A decision told in words, as far as the seats watching may know what was chosen.

The deciding seat is told its whole move ("play 2×red:1"). Any other seat sees a decision
only through what follows it (events.for_seat drops it), so it is told:
  - the decision's name (that the seat decided is seen by everyone at the table);
  - the option or value chosen only when the events that follow, as the watcher saw them, tell
    it apart from every other legal option or value (each tried on a copy of the state before),
    and never when it was the only one legal (that could tell the watcher why);
  - the faces of the chosen cards only when it saw them move (choosing is private, even among
    cards face up), else their number when they all moved ("2 hidden cards"), else nothing.
Each is worked out at the moment: a choice whose effects show only after the seat's next
decisions is not told (what follows them tells the rest).
"""
from __future__ import annotations

from dataclasses import dataclass

from ...errors import RuleRuntimeError
from ...runtime.decisions import show
from ...runtime.engine import DECIDE, MOVE
from ...runtime.events import for_seat
from .words import plural

MAX_TRIED = 300          # more legal moves than this: the choice is not told (too many to try)


@dataclass
class Told:
    """A decision as told: its name, the line (None: nothing of the choice), the moved cards' text."""

    name: str
    text: str | None = None
    moved: str | None = None    # the text a move line of exactly the chosen cards starts with
    chosen: tuple | None = None  # the chosen cards (None: not known here)

    def moves_chosen(self, events: list) -> bool:
        """Whether the first of the events moves exactly the chosen cards (as far as known here)."""
        if self.chosen is None:
            return True
        first = events[0] if events else None
        return first is not None and first[0] == MOVE and isinstance(first[3], tuple) and \
            sorted(first[3]) == sorted(self.chosen)


class Telling:
    """The decision part of the Story."""

    def tell(self, decide: tuple, after: list, viewers: list, before=None) -> Told:
        """A DECIDE event and the events after it, as all of `viewers` may know them."""
        _, seat, index, move = decide
        dec = self.program.decisions[index]
        full = dec.public or set(viewers) <= {seat}     # public: every seat saw the move itself
        if dec.kind == "value":
            told = Told(dec.name)
            if full or self.tells_apart(dec, move, after, viewers, before, lambda m: m[0]):
                told.text = f"{dec.name} {show(move[0])}"
            return told
        if dec.kind == "parts":
            told = Told(dec.name)
            if full or self.tells_apart(dec, move, after, viewers, before, lambda m: m):
                told.text = f"{dec.name} {dec.text(move).partition(': ')[2]}"
            return told
        if dec.kind == "cards":
            spec, name, payload = dec.cards, dec.name, move
        else:
            i, payload = move
            name, _, spec = dec.options[i]
            if not (full or self.tells_apart(dec, move, after, viewers, before, lambda m: m[0])):
                return Told(dec.name)
        told = Told(name, name)
        if spec is not None:
            told.chosen = None if before is None else tuple(spec.bind(before, payload))
            cards = self.cards_told(payload, told.chosen, after, viewers, full)
            told.text = f"{name} {cards}" if cards is not None else f"{name} (hidden cards)"
            told.moved = cards
        return told

    def tells_apart(self, dec, move, after: list, viewers: list, before, key) -> bool:
        """Whether every viewer saw events after the move that no legal move of another key gives."""
        if before is None or before.pending is not dec:
            return False
        legal = self.program.legal_moves(before)
        if len(legal) > MAX_TRIED:
            return False
        if all(key(other) == key(move) for other in legal):
            return False                # the only choice there was: telling it would tell why
        seen = {v: _visible(self.program, after, v) for v in viewers}
        for other in legal:
            if key(other) == key(move):
                continue
            events = self.try_on_copy(before, other)
            if events is None:
                continue                # the rules would have failed: not what happened
            if any(_visible(self.program, events, v) == seen[v] for v in viewers):
                return False
        return True

    def try_on_copy(self, before, move):
        """The events a move would have given from the state before (None when the rules fail)."""
        trial = before.clone(log=False)
        trial.log = []
        try:
            self.program.apply(trial, move)
        except RuleRuntimeError:
            return None
        return [e for e in trial.log if e[0] != DECIDE]

    def cards_told(self, payload, chosen, after: list, viewers: list, full: bool):
        """The chosen cards as the viewers may know them from the moves after: faces, a count, or None."""
        names = self.program.type_names
        faces = ", ".join(f"{n}×{names[t]}" for t, n in payload) or "nothing"
        if full:
            return faces
        if not chosen:              # not known here, or nothing chosen (which may be a secret too)
            return None
        mask = sum(1 << v for v in viewers)
        moves = [e for e in after if e[0] == MOVE and isinstance(e[3], tuple)]
        shown = {c for e in moves if e[4] & mask == mask for c in e[3]}
        if all(c in shown for c in chosen):     # choosing is private, even among face-up cards
            return faces
        moved = [set(e[3]) for e in moves if set(e[3]) & set(chosen)]
        if moved and all(m <= set(chosen) for m in moved) and set().union(*moved) == set(chosen):
            return plural(len(chosen), "hidden card")
        return None


def _visible(program, events: list, seat: int) -> list:
    """The events as `seat` saw them, without decisions."""
    return [e for e in for_seat(program, events, seat) if e[0] != DECIDE]
