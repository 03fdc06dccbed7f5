"""Many seeded games with bots, reduced to statistics (what `cardrules simulate` prints).

Seeds: game g of a run seeded with S uses `rng.derive(S, g)`; in that game seat k's bot is
`make_bot(name, rng.derive(S, 1_000_003 * (g + 1) + k))`. So the same S gives the same numbers,
and `cardrules record --seed S --game g` plays game g again, move for move: a rule that fails in
one game of a run names that command.
"""
from __future__ import annotations

import json
import shlex
import statistics
import time

from ..errors import RuleRuntimeError
from ..runtime import rng
from ..runtime.engine import DEFAULT_LIMITS
from ..seats.bots import make_bot
from ..compiler.game import Game
from .records import play_game

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


def spread(values: list) -> dict:
    """Mean, population standard deviation, min and max of a non-empty list."""
    return {"mean": statistics.fmean(values), "sd": statistics.pstdev(values),
            "min": min(values), "max": max(values)}


def simulate(game: Game, players: int, games: int, seed: int, bot_names: list, progress=None) -> dict:
    """Play `games` bot games and return their statistics; `progress(done)` is called after each game."""
    if len(bot_names) != players:
        raise ValueError(f"need one bot name per seat ({players}), got {len(bot_names)}")
    if games < 1:
        raise ValueError("need at least one game")
    game.program(players)                       # compile (and check the player count) before timing
    turns, moves = [], []
    scores = [[] for _ in range(players)]
    wins = [0.0] * players
    start = time.perf_counter()
    for g in range(games):
        bots = [make_bot(name, bot_seed(seed, g, k)) for k, name in enumerate(bot_names)]
        try:
            program, st, _ = play_game(game, players, game_seed(seed, g), bots, record=False)
        except RuleRuntimeError as exc:
            raise failed_in_game(exc, game, players, seed, g, bot_names) from None
        result = program.result(st)
        turns.append(st.turn)
        moves.append(st.moves)
        for k, s in enumerate(result["scores"]):
            scores[k].append(s)
        share = 1.0 / len(result["winners"])
        for k in result["winners"]:
            wins[k] += share
        if progress is not None:
            progress(g + 1)
    seconds = time.perf_counter() - start
    return {
        "ruleset": game.path,
        "name": game.name,
        "overrides": dict(game.overrides),
        "players": players,
        "games": games,
        "seed": seed,
        "bots": list(bot_names),
        "turns": spread(turns),
        "moves": spread(moves),
        "score": {"mean_by_seat": [statistics.fmean(s) for s in scores],
                  "sd_by_seat": [statistics.pstdev(s) for s in scores]},
        "wins_by_seat": [w / games for w in wins],
        "seconds": seconds,
        "games_per_second": games / max(seconds, 1e-9),
    }
