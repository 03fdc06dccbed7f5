"""A chunk of a batch: a range of game indexes one worker plays, reduced to a Tally (and to the
games' records when the run keeps them). A Batch carries the ruleset's text, not its path, so a
worker on another machine needs no shared disk; each worker compiles the program once."""
from __future__ import annotations

import os
import socket
import time
from dataclasses import dataclass, field

from ..analysis.tally import Tally
from ..compiler.game import Game, load_game
from ..runtime.engine import Limits
from .playing import play_one, rotated

_GAMES: dict = {}            # this worker's loaded games, by Batch.key: compiled once per worker


@dataclass(frozen=True)
class Batch:
    """What every game of a run shares; game g is dealt as game g (or, with `rotate`, deal g // P
    played with the bots moved g % P seats on: compare's paired games)."""

    path: str
    texts: dict
    overrides: dict
    limits: Limits
    players: int
    seed: int
    bots: tuple
    track: bool = False
    coverage: bool = False
    keep: bool = False          # send back every game's record (a results file, a paired comparison)
    rotate: bool = False
    key: tuple = field(default=(), compare=False)

    @classmethod
    def of(cls, game: Game, players: int, seed: int, bots, **flags) -> "Batch":
        """The batch of a loaded game; the game is remembered so this process does not load it again."""
        return cls(game.path, game.texts, dict(game.overrides), game.limits, players, seed, tuple(bots),
                   key=remember(game), **flags)

    def game(self) -> Game:
        """The batch's game, loaded from its texts the first time this worker needs it."""
        if self.key not in _GAMES:
            _GAMES[self.key] = load_game(self.path, self.overrides, self.limits, texts=self.texts)
        return _GAMES[self.key]

    def seats(self, g: int) -> tuple:
        """(the deal game g plays, the bot names by seat in game g)."""
        if not self.rotate:
            return g, list(self.bots)
        return g // self.players, rotated(list(self.bots), g % self.players)


@dataclass
class Chunk:
    """What a worker sends back for games first ≤ g < stop."""

    first: int
    stop: int
    tally: Tally
    records: list | None
    seconds: float              # spent playing (compiling included when this worker had to)
    worker: str


def remember(game: Game) -> tuple:
    """Keep a loaded game in this process's cache (its key): workers forked after it start with it."""
    key = (game.path, game.sha256, repr(sorted(game.overrides.items())), game.limits)
    _GAMES.setdefault(key, game)
    return key


def prepare(game: Game, players: int, coverage: bool) -> None:
    """Compile the game's program and remember it, before any worker is forked: they inherit both."""
    game.program(players, coverage=coverage)
    remember(game)


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def play_chunk(batch: Batch, first: int, stop: int, into: Tally | None = None, each=None) -> Chunk:
    """Play games first ≤ g < stop of the batch, tallied in a new Tally (or `into`: an in-process run
    tallies straight into the run's); `each(record)` after every game."""
    start = time.perf_counter()
    game = batch.game()
    game.program(batch.players, coverage=batch.coverage)
    tally = Tally(batch.players, list(batch.bots)) if into is None else into
    records = [] if batch.keep and each is None else None
    for g in range(first, stop):
        deal, names = batch.seats(g)
        record = play_one(game, batch.players, batch.seed, g, names, batch.track, batch.coverage, deal)
        tally.add(record)
        if records is not None:
            records.append(record)
        if each is not None:
            each(record)
    return Chunk(first, stop, None if into is not None else tally, records, time.perf_counter() - start,
                 worker_name())
