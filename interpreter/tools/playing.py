"""One game of a run: its seeds, its per-game record, and the command that plays it again.

Seeds: game g of a run seeded with S uses `rng.derive(S, g)`; in that game seat k's bot is
`make_bot(name, rng.derive(S, 1_000_003 * (g + 1) + k))`. So the same S gives the same numbers
whichever worker plays game g, and `cardrules record --seed S --game g` plays game g again, move
for move: a rule that fails in one game of a run names that command.
"""
from __future__ import annotations

import json
import shlex

from ..compiler.game import Game
from ..errors import BotError, RuleRuntimeError
from ..runtime import rng
from ..runtime.engine import DEFAULT_LIMITS
from ..seats.registry import make_bot
from .observe import observe_game

BOT_SEED_STRIDE = 1_000_003


def game_seed(seed: int, g: int) -> int:
    """The deal seed of game g of a run."""
    return rng.derive(seed, g)


def bot_seed(seed: int, g: int, seat: int) -> int:
    """The seed of seat `seat`'s bot in game g of a run."""
    return rng.derive(seed, BOT_SEED_STRIDE * (g + 1) + seat)


def record_command(game: Game, players: int, seed: int, g: int, bot_names: list) -> str:
    """The `cardrules record` command that plays game g of a run again, move for move."""
    words = ["cardrules", "record", game.path, "--players", str(players), "--seed", str(seed), "--game", str(g),
             "--bots", ",".join(bot_names)]
    for name, value in game.overrides.items():
        words += ["--set", f"{name}={json.dumps(value, ensure_ascii=False)}"]
    for name in ("steps", "loops", "turns", "moves"):
        if getattr(game.limits, name) != getattr(DEFAULT_LIMITS, name):
            words += [f"--max-{name}", str(getattr(game.limits, name))]
    return " ".join(shlex.quote(w) for w in words)


def failed_in_game(exc: RuleRuntimeError, game: Game, players: int, seed: int, g: int, bot_names: list):
    """A rule's failure in one game of a run, naming the game and the command that plays it again."""
    message = str(exc).removeprefix(f"{exc.pos}: ") if exc.pos else str(exc)
    return RuleRuntimeError(exc.pos, f"{message}\n    in game {g} of this run (games count from 0); play it "
                                     f"again move by move with: {record_command(game, players, seed, g, bot_names)}")


def run_meta(game: Game, players: int, seed: int) -> dict:
    """What every line of a results file says about the run it belongs to."""
    meta = {"ruleset": game.path, "name": game.name, "sha256": game.sha256, "players": players,
            "seed": seed, "overrides": dict(game.overrides)}
    if game.rules.lowest_wins:          # said only when it is so: other runs' lines stay as they were
        meta["wins"] = "lowest"
    if game.rules.cooperative is not None:
        meta["cooperative"] = True
    return meta


def play_one(game: Game, players: int, seed: int, g: int, bot_names: list, track: bool = False,
             coverage: bool = False, deal: int | None = None) -> dict:
    """Game g of the run seeded with `seed`: its per-game record (the results file's line). It is dealt
    as game `deal` of the run (default g: compare --rotate deals one game to several rotations)."""
    bots = [make_bot(name, bot_seed(seed, g, k)) for k, name in enumerate(bot_names)]
    try:
        found = observe_game(game, players, game_seed(seed, g if deal is None else deal), bots, track=track,
                             coverage=coverage)
    except RuleRuntimeError as exc:
        raise failed_in_game(exc, game, players, seed, g, bot_names) from None
    except BotError as exc:             # a user's bot failed: where, and how to play that game again
        raise BotError(f"{exc}\n    in game {g} of this run (games count from 0); play it again move by "
                       f"move with: {record_command(game, players, seed, g, bot_names)}") from None
    return {"game": g, **found, "bots": list(bot_names), "run": run_meta(game, players, seed)}


def rotated(names: list, r: int) -> list:
    """The bots moved r seats on: seat k is played by names[(k - r) % P]."""
    return [names[(k - r) % len(names)] for k in range(len(names))]
