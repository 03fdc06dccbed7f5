"""A one-step look-ahead at a simultaneous choice (`each:`, runtime/simultaneous.py) sees nothing
happen: a choice takes effect only when every seat has chosen. So a trial move that leaves the
round unfinished is played on to the round's end, every seat still to choose drawn at random among
its legal moves: the choices a seat cannot see, imagined as it imagines hidden cards. The draws
come from the state's own generator (a copy's, dealt by the bot), the same for every move tried,
so the moves are compared on the same imagined choices."""
from __future__ import annotations

import random

from ..runtime.simultaneous import Simultaneous


def in_round(st) -> bool:
    """Whether st waits for a choice of a round of simultaneous choices that some seat has made."""
    dec = st.pending
    return type(dec) is Simultaneous and bool(st.vars[dec.kept_slot])


def finish_round(program, st, seed: int) -> None:
    """Play st on to the end of its round, every remaining seat's choice drawn at random (from seed)."""
    gen = random.Random(seed)
    while not st.over and in_round(st):
        moves = program.legal_moves(st)
        if not moves:
            return
        program.apply(st, moves[gen.randrange(len(moves))])


def as_unseen(st, gen: random.Random):
    """st as its decider may know it: inside a round, a copy with the choices the other seats made
    before it redrawn (a seat imagined in a look-ahead never sees them either); else st itself."""
    if not in_round(st):
        return st
    copy = st.clone(log=False, share=True)
    st.pending.redraw(copy, st.decider, gen)
    return copy
