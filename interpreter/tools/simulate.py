"""Many seeded games with bots, reduced to statistics (what `cardrules simulate` prints).

Every game keeps its own seeds (playing.py), so the numbers do not depend on where a game is played:
in this process, on N cores (`jobs`) or on a Dask cluster (`dask`), in one go or resumed from a
results file. The tally of the games is exact and its merge order-free, so they are identical.
"""
from __future__ import annotations

from ..analysis.intervals import wilson
from ..analysis.tally import Tally
from ..analysis.values import mean_of, share_number
from ..runtime.coverage import plain_points
from .chunks import Batch, prepare
from .playing import run_meta
from .runner import Run, backend_for, spans_missing

AUTO_BATCH = 200            # --games auto plays this many games between two looks at the intervals


def check_run(players: int, games, bot_names: list) -> None:
    if len(bot_names) != players:
        raise ValueError(f"need one bot name per seat ({players}), got {len(bot_names)}")
    if games is not None and games < 1:
        raise ValueError("need at least one game")


def simulate(game, players: int, games, seed: int, bot_names: list, progress=None, results=None,
             track: bool = False, coverage: bool = False, precision: float | None = None,
             max_games: int = 100_000, jobs: int = 1, dask: str | None = None, resumed=None,
             backend=None, started: float | None = None) -> dict:
    """Play bot games and return their statistics; `progress(done)` is called as games finish and
    `results(record)` with each game's record, in game order. With games=None, play batches of
    AUTO_BATCH until every seat's win-share interval is narrower than ±precision (a fraction), or
    max_games; `started` is when the command began (perf_counter; default now), for the timing.
    `resumed` = (Tally, set of game indexes) of games played before: only the others are
    played. `backend` (runner.backend_for, opened after `chunks.prepare`) is where the games are
    played; without one, a backend for `jobs` and `dask` is opened for this batch.
    Ctrl-C ends the batch early: the summary says "interrupted" and holds what finished."""
    check_run(players, games, bot_names)
    batch = Batch.of(game, players, seed, bot_names, track=track, coverage=coverage, keep=results is not None)
    run = Run(batch, resumed[0] if resumed else None, results, progress, started)
    done = resumed[1] if resumed else set()
    if backend is not None:
        return play_batch(game, run, backend, done, games, precision, max_games)
    prepare(game, players, coverage)                # before any worker starts: forks inherit it
    with backend_for(jobs, dask, None if games is None else games - len(done)) as own:
        return play_batch(game, run, own, done, games, precision, max_games)


def play_batch(game, run: Run, backend, done: set, games, precision, max_games: int) -> dict:
    """Play the run's games that are not `done` on the backend (up to `games`, or by --precision)
    and return the summary; Ctrl-C stops the backend and the summary says "interrupted"."""
    b = run.batch
    target, interrupted = games if games is not None else AUTO_BATCH, None
    try:
        first = 0
        while True:
            run.play(backend, spans_missing(done, first, target))
            together = game.rules.cooperative is not None
            if games is not None or precise_enough(run.tally, precision, together) or target >= max_games:
                break
            first, target = target, min(max_games, target + AUTO_BATCH)
    except KeyboardInterrupt:
        interrupted = {"after": run.tally.games, "of": target}
        backend.interrupted = True          # stop the workers now, do not let them finish the queue
    points = plain_points(game.program(b.players, coverage=True).coverage_points) if b.coverage else None
    doc = summary_of(run_meta(game, b.players, b.seed), b.players, b.seed, list(b.bots), run.tally,
                     run.timing(backend.workers), points)
    if interrupted:
        doc["interrupted"] = interrupted
    return doc


def precise_enough(tally: Tally, precision: float, cooperative: bool = False) -> bool:
    """Is every seat's 95 % win-share interval (a cooperative table's win-rate interval) narrower than ±precision?"""
    n = tally.games
    wins = [table_wins(tally, tally.players)] if cooperative else tally.win_counts()
    return all((hi - lo) / 2 < precision for lo, hi in (wilson(w, n) for w in wins))


def summary(meta: dict, players: int, seed: int, bot_names: list, records: list, points=None) -> dict:
    """The summary of a run's records read back (analyze): as simulate prints it, without timing."""
    tally = Tally(players, list(bot_names))
    for r in records:
        tally.add(r)
    return summary_of(meta, players, seed, bot_names, tally, None, points)


def summary_of(meta: dict, players: int, seed: int, bot_names: list, tally: Tally, timing, points=None) -> dict:
    """Today's numbers (unchanged) and, next to them, intervals, the balance metrics and the timing."""
    doc = {"ruleset": meta["ruleset"], "name": meta["name"], "overrides": dict(meta["overrides"]),
           "players": players, "games": tally.games, "seed": seed, "bots": list(bot_names)}
    if meta.get("wins") == "lowest":
        doc["wins"] = "lowest"
    numbers = tally.summary(points)
    doc.update({key: numbers.pop(key) for key in ("turns", "moves", "score", "wins_by_seat")})
    doc["seconds"] = timing["seconds"] if timing else None
    doc["games_per_second"] = timing["games_per_second"] if timing else None
    doc.update(numbers)
    doc["timing"] = timing
    if meta.get("cooperative"):
        doc["cooperative"] = cooperative_numbers(tally, players, doc)
        for key in LEADING:
            doc["metrics"].pop(key, None)
    return doc


# Nobody leads a table that wins together: every seat's score is the same and all win or none does,
# so these metrics of a cooperative run would be always 0 or repeat the table's win rate.
LEADING = ("seat_advantage", "closeness", "lead_changes", "decisiveness", "comeback", "skill_gap")


def cooperative_numbers(tally: Tally, players: int, doc: dict) -> dict:
    """A cooperative run: the table's win rate (Wilson interval), the shared score's mean (t interval),
    spread and histogram."""
    histogram = doc["score_histogram"][0] if doc.get("score_histogram") else []
    return {"table_wins": share_number(table_wins(tally, players), tally.games), "score": mean_of(tally.scores[0]),
            "score_sd": doc["score"]["sd_by_seat"][0], "score_histogram": histogram}


def table_wins(tally: Tally, players: int) -> float:
    """The games the table won (each win is split among all its seats)."""
    return float(tally.wins_exact()[0] * players) if tally.games else 0.0
