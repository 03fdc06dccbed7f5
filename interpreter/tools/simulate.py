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

from ..analysis.intervals import wilson
from ..analysis.metrics import summarise
from ..analysis.pergame import win_fractions
from ..errors import RuleRuntimeError
from ..runtime import rng
from ..runtime.coverage import plain_points
from ..runtime.engine import DEFAULT_LIMITS
from ..seats.bots import make_bot
from ..compiler.game import Game
from .observe import observe_game

BOT_SEED_STRIDE = 1_000_003
AUTO_BATCH = 200            # --games auto plays this many games between two looks at the intervals


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


def run_meta(game: Game, players: int, seed: int) -> dict:
    """What every line of a results file says about the run it belongs to."""
    return {"ruleset": game.path, "name": game.name, "sha256": game.sha256, "players": players,
            "seed": seed, "overrides": dict(game.overrides)}


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
    return {"game": g, **found, "bots": list(bot_names), "run": run_meta(game, players, seed)}


def check_run(players: int, games, bot_names: list) -> None:
    if len(bot_names) != players:
        raise ValueError(f"need one bot name per seat ({players}), got {len(bot_names)}")
    if games is not None and games < 1:
        raise ValueError("need at least one game")


def simulate(game: Game, players: int, games, seed: int, bot_names: list, progress=None, results=None,
             track: bool = False, coverage: bool = False, precision: float | None = None,
             max_games: int = 100_000) -> dict:
    """Play bot games and return their statistics; `progress(done)` is called after each game and
    `results(record)` with each game's record. With games=None, play batches of AUTO_BATCH until
    every seat's win-share interval is narrower than ±precision (a fraction), or max_games."""
    check_run(players, games, bot_names)
    game.program(players, coverage=True) if coverage else game.program(players)   # compile before timing
    records, target = [], games if games is not None else AUTO_BATCH
    start = time.perf_counter()
    while True:
        for g in range(len(records), target):
            records.append(play_one(game, players, seed, g, bot_names, track, coverage))
            if results is not None:
                results(records[-1])
            if progress is not None:
                progress(g + 1)
        if games is not None or precise_enough(records, players, precision) or target >= max_games:
            break
        target = min(max_games, target + AUTO_BATCH)
    seconds = time.perf_counter() - start
    points = plain_points(game.program(players, coverage=True).coverage_points) if coverage else None
    return summary(game, players, seed, bot_names, records, seconds, points)


def win_shares(records: list, players: int) -> list:
    """Each seat's wins, a tie split between the winners, added up in game order."""
    fractions = [win_fractions(r, players) for r in records]
    return [sum(f[k] for f in fractions) for k in range(players)]


def precise_enough(records: list, players: int, precision: float) -> bool:
    """Is every seat's 95 % win-share interval narrower than ±precision?"""
    wins = win_shares(records, players)
    return all((hi - lo) / 2 < precision for lo, hi in (wilson(w, len(records)) for w in wins))


def summary(game_or_meta, players: int, seed: int, bot_names: list, records: list, seconds,
            points=None) -> dict:
    """Today's numbers (unchanged) and, next to them, intervals and the balance metrics."""
    meta = game_or_meta if isinstance(game_or_meta, dict) else run_meta(game_or_meta, players, seed)
    games = len(records)
    scores = [[r["scores"][k] for r in records] for k in range(players)]
    doc = {
        "ruleset": meta["ruleset"], "name": meta["name"], "overrides": dict(meta["overrides"]),
        "players": players, "games": games, "seed": seed, "bots": list(bot_names),
        "turns": spread([r["turns"] for r in records]),
        "moves": spread([r["moves"] for r in records]),
        "score": {"mean_by_seat": [statistics.fmean(s) for s in scores],
                  "sd_by_seat": [statistics.pstdev(s) for s in scores]},
        "wins_by_seat": [w / games for w in win_shares(records, players)],
        "seconds": seconds,
        "games_per_second": games / max(seconds, 1e-9) if seconds is not None else None,
    }
    doc.update(summarise(records, players, list(bot_names), points=points))
    return doc

