"""A decision every seat of a list makes in turn, each unseen by the others until all have chosen.

The seats are asked one after the other (the engine asks one seat at a time). A move is kept in
the state as it was made (its payload), with no effect and no event any other seat sees: its
DECIDE event is the decider's own (events.for_seat), and nothing runs between the choices, so a
later seat's legal moves never depend on an earlier seat's choice. Once all have chosen, every kept
move is bound at once (`reveal`), before the `then` block runs for each seat. A bot deciding for a
later seat replaces the kept moves of the other seats by moves drawn at random (`redraw`), so
what they chose never reaches its look-ahead. The kept moves are fresh lists, never changed in
place: a State's clone shares them.
"""
from __future__ import annotations

from .decisions import Decision


class Simultaneous(Decision):
    """One `choose` with `each:` compiled: a Decision whose moves are kept until every seat has chosen."""

    def __init__(self, index: int, name: str, slot: int, pos):
        super().__init__(index, name, slot, pos)
        self.seats_slot = self.kept_slot = self.seat_slot = None   # set by the compiler ...
        self.at_slot = None             # ... and the slot of the number of seats asked so far

    def bound_slots(self) -> list:
        """The local slots a move binds: the choice's name, or each part's name."""
        return [slot for _, slot in self.parts] if self.kind == "parts" else [self.slot]

    def bind(self, st, move) -> None:
        """Keep the move: it takes effect when every seat has chosen."""
        st.vars[self.kept_slot] = st.vars[self.kept_slot] + [move]

    def reveal(self, st) -> None:
        """Every kept move bound at once, each as its seat would have bound it, before any `then`:
        the kept moves become, per seat, the values of the slots they bind."""
        V = st.vars
        decider, slots, out = st.decider, self.bound_slots(), []
        for seat, move in zip(V[self.seats_slot], V[self.kept_slot]):
            V[self.seat_slot], st.decider = seat, seat
            Decision.bind(self, st, move)
            out.append(tuple(V[s] for s in slots))
        V[self.kept_slot], st.decider = out, decider

    def forget(self, st, seat: int) -> None:
        """In a copy kept for `seat`: every move kept from another seat replaced by None (a copy of
        what the seat may know; redraw() fills them before anything reads them)."""
        V = st.vars
        V[self.kept_slot] = [m if s == seat else None for s, m in zip(V[self.seats_slot], V[self.kept_slot])]

    def redraw(self, st, seat: int, gen) -> None:
        """In a copy a bot imagines for `seat`: every move kept from another seat replaced by one of
        that seat's legal moves drawn with gen, so the real choices never reach the look-ahead. A seat
        with no legal move in the imagined world (its hidden cards dealt anew may not allow one) is
        left out of the copy's round: the real move is never kept."""
        V = st.vars
        seats, done = V[self.seats_slot], len(V[self.kept_slot])
        here, decider = V[self.seat_slot], st.decider
        kept, asked = [], []
        for other, move in zip(seats, V[self.kept_slot]):
            if other != seat:
                V[self.seat_slot], st.decider = other, other
                moves = self.moves(st)
                if not moves:
                    continue
                move = moves[gen.randrange(len(moves))]
            kept.append(move)
            asked.append(other)
        V[self.seats_slot] = asked + list(seats[done:])
        V[self.at_slot] -= done - len(kept)
        V[self.kept_slot], V[self.seat_slot], st.decider = kept, here, decider
