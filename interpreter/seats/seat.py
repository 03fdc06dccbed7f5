"""What a bot is given: `Bot`, the class every bot derives from, and `Seat`, all it may know.

At each decision with more than one legal move a bot's `choose(seat)` is called with a `Seat`:
the seat's number, the legal moves and their canonical texts, the seat's View (what it sees and
remembers, views.py), the game's events as this seat saw them, and `world()`: copies of the game in
which every card the seat cannot see is dealt again at random from what it knows (worlds.py), to
look ahead on. A Seat never holds the real state: it keeps one copy with the hidden cards laid in
a fixed order (worlds.sanitised) and deals every world from that, so nothing a bot reads through it
depends on where the hidden cards really lie (docs/bots.md teaches the API).
"""
from __future__ import annotations

import random

from .worlds import determinise, evaluations, margin


class Bot:
    """Base class of every bot: `choose(seat)` returns one of `seat.moves`.

    `self.rng` is the bot's own generator, seeded from the game's seed: draw from it alone, so that
    the same seed gives the same games. `options` declares what a spec may set (specs.Option);
    each option's default is the class attribute of its name."""

    name = "bot"
    uses_view = True        # reads seat.view or seat.events (the game then keeps its event log)
    reads_events = True     # reads seat.events (else the seat's memory keeps no list of them)
    looks_ahead = True      # calls seat.world() (a Seat without worlds is cheaper to make)
    options: tuple = ()

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, seat: "Seat"):
        raise NotImplementedError(f"{type(self).__name__} does not define choose(self, seat)")


class Seat:
    """One seat at one decision, as far as it may know the game (see the module's docstring).

    program   the compiled ruleset (its tables: zone_names, type_names, ...; no game in it)
    number    this seat, from 0; players: how many seats there are
    moves     the legal moves: choose returns one of these (text(move) is its canonical text)
    turn      the turn number; decision: which decision of the rules this is
    view      the seat's View (views.py), None when the bot declares uses_view = False
    events    the game's events as this seat saw them (events.for_seat), None likewise, or when the
              bot declares reads_events = False
    """

    view = events = _base = _rng = None     # what a bot that reads no view and makes no world is not given

    def __init__(self, program, number: int, moves: list, turn: int, pending):
        self.program, self.number, self.moves, self.turn, self._pending = program, number, moves, turn, pending

    @property
    def players(self) -> int:
        return self.program.players

    @property
    def decision(self) -> int:
        return self._pending.index

    def text(self, move) -> str:
        """A legal move's canonical text, as records store it (`play: 2×red:1`)."""
        return self._pending.text(move)

    def world(self, known: set | None = None):
        """A copy of the game to play on: the cards this seat cannot see dealt again at random
        (its knowledge kept), drawn with the bot's generator. `known`, a set, receives the cards
        dealt to the places the seat knows."""
        if self._base is None:
            raise RuntimeError("this bot declares looks_ahead = False: its seat has no worlds")
        return determinise(self.program, self._base, self.number, self._rng, self.view, known)

    def worlds(self, n: int) -> list:
        """n worlds, each dealt anew (world())."""
        return [self.world() for _ in range(n)]

    # ---- on a world ----
    def legal_moves(self, world) -> list:
        """The legal moves of whoever decides in the world (empty when it is over)."""
        return self.program.legal_moves(world)

    def apply(self, world, move) -> None:
        """Play a legal move on the world (an illegal one raises IllegalMove, the world unchanged)."""
        self.program.play(world, move)

    def play(self, world, move):
        """A copy of the world with the move played (the world itself unchanged)."""
        copy = world.clone(share=True)     # played on by the rules alone: its zones' lists are shared
        self.program.play(copy, move)
        return copy

    def evaluations(self, world) -> list:
        """Every seat's evaluation of the world (the ruleset's `bots.eval`, else its score)."""
        return list(evaluations(self.program, world))     # its own list: the bots' cache keeps the other

    def margin(self, world, seat: int | None = None):
        """A seat's evaluation (default this seat's) minus the best of the other seats'."""
        return margin(self.program, world, self.number if seat is None else seat)

    def result(self, world) -> dict:
        """A finished world's scores and winners ({"scores": [...], "winners": [...], ...})."""
        return self.program.result(world)
