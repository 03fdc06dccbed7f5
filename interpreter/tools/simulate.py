"""Many seeded games with bots, reduced to statistics (what `cardrules simulate` prints).

Seeds: game g of a run seeded with S uses `rng.derive(S, g)`; in that game seat k's bot is
`make_bot(name, rng.derive(S, 1_000_003 * (g + 1) + k))`. So the same S gives the same numbers.
"""
from __future__ import annotations

import statistics
import time

from ..runtime import rng
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
        program, st, _ = play_game(game, players, game_seed(seed, g), bots, record=False)
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
