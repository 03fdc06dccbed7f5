"""The batch commands: `simulate` (bot games in bulk, reduced to statistics with intervals) and
`analyze` (the same statistics again from results files)."""
from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ..analysis.tally import Tally
from ..compiler.game import load_game
from ..runtime.coverage import plain_points
from ..errors import RulesetError, UsageError
from . import report, simulate            # as modules: a test replaces simulate.simulate to make a bug
from .options import add_scale_options, bot_list, load, positive_float, positive_int
from .output import console, err, print_json
from .chunks import prepare
from .results import ResultsWriter, read_results, resume_from
from .runner import backend_for
from .summary_text import print_summary


def games_option(text: str):
    """--games G, or `auto`: play until --precision is reached."""
    if text.strip().lower() == "auto":
        return None
    return positive_int(text)


def precision_option(text: str) -> float:
    """--precision P in percentage points (2 or 2% is ±2 points), as a fraction."""
    value = positive_float(text.strip().removesuffix("%"))
    if value >= 50:
        raise argparse.ArgumentTypeError(f"{text} points is no precision: give e.g. 2 (±2 percentage points)")
    return value / 100


def progress_lines(total, start: float, what: str = "simulate"):
    """A progress callback that prints a line to stderr each time another tenth of the games is done
    (every AUTO_BATCH games when the total is not known); games may arrive a chunk at a time."""
    step = max(1, total // 10) if total else simulate.AUTO_BATCH
    due = [step]

    def report_line(done: int) -> None:
        if done < due[0] and done != total:
            return
        due[0] = (done // step + 1) * step
        spent = time.perf_counter() - start
        left = spent / done * (total - done) if total else 0
        of = f"/{total}" if total else ""
        print(f"{what}: {done}{of} games, {spent:.0f} s" + (f", about {left:.0f} s left" if left >= 1 else ""),
              file=sys.stderr, flush=True)
    return report_line


@contextlib.contextmanager
def progress_for(args, total, command: str = "simulate"):
    """The progress callback of a batch: lines with --progress, a bar on a terminal, else none."""
    if getattr(args, "progress", False):
        yield progress_lines(total, time.perf_counter(), command)
    elif sys.stderr.isatty():           # a bar on the terminal (stdout stays clean for --json)
        with Progress(TextColumn(command), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=console(stderr=True), transient=True) as bar:
            task = bar.add_task("games", total=total)
            yield lambda done: bar.update(task, completed=done)
    else:
        yield None


def check_precision(args) -> None:
    if args.games is None and args.precision is None:
        raise UsageError("--games auto needs --precision P: play until every seat's win share is known to ±P "
                         "percentage points (e.g. --precision 2)")
    if args.games is not None and args.precision is not None:
        raise UsageError(f"--precision goes with --games auto (plays until it is reached), not with "
                         f"--games {args.games}")


def cmd_simulate(args) -> int:
    """Bot games in bulk, reduced to statistics; Ctrl-C prints what finished and exits 130."""
    started = time.perf_counter()
    check_precision(args)
    check_resume(args)
    game = load(args)
    game.check_players(args.players)
    names = bot_list(args.bots, args.players, game)
    coverage = not args.no_coverage
    resumed = resumed_games(args, game, names, coverage) if args.resume else None
    writer = ResultsWriter(args.results, append=args.resume) if args.results else None
    prepare(game, args.players, coverage)               # before the workers fork: they inherit it
    left = None if args.games is None else args.games - len(resumed[1] if resumed else ())
    try:
        with backend_for(args.jobs, args.dask, left) as backend, progress_for(args, args.games or None) as progress:
            doc = simulate.simulate(game, args.players, args.games, args.seed, names, progress=progress,
                                    results=writer, track=args.track, coverage=coverage, precision=args.precision,
                                    max_games=args.max_games, backend=backend, resumed=resumed,
                                    started=started)
    finally:
        if writer is not None:
            writer.close()
    if args.games is None and doc["games"] >= args.max_games:
        what = "the table's win rate" if "cooperative" in doc else "every seat's win share"
        err(f"warning: stopped at --max-games {args.max_games:,} before {what} was known to ±{args.precision:.1%}")
    code = emit(args, doc)
    if "interrupted" in doc:
        stop = doc["interrupted"]
        err(f"interrupted after {stop['after']:,} of {stop['of']:,} games"
            + (f"; the finished games are in {args.results}: add --resume to play the others" if args.results else ""))
        return 130
    return code


def check_resume(args) -> None:
    if not args.resume:
        return
    if not args.results:
        raise UsageError("--resume needs --results FILE: the results file of the run to continue")
    if args.games is None:
        raise UsageError("--resume needs --games G (the number of games the interrupted run was asked for), "
                         "not --games auto")


def resumed_games(args, game, names: list, coverage: bool):
    """(Tally, game indexes) of the games the results file holds for this run; nothing if it is new."""
    tally = Tally(args.players, names)
    if not os.path.exists(args.results):
        err(f"{args.results}: no such file yet: nothing to resume, every game is played")
        return tally, set()
    done = resume_from(args.results, simulate.run_meta(game, args.players, args.seed), names,
                       {"track": args.track, "coverage": coverage}, tally)
    beyond = [g for g in done if g >= args.games]
    if beyond:
        raise UsageError(f"{args.results} holds game {max(beyond)}, beyond --games {args.games}: resume with the "
                         "--games of the run that made it")
    err(f"{args.results}: {len(done):,} of {args.games:,} games already played; playing the other "
        f"{args.games - len(done):,}")
    return tally, done


def emit(args, doc: dict, kind: str = "simulate", show=print_summary, report_doc=None) -> int:
    """The report file (--report, of `report_doc` when the report draws another shape than the JSON),
    then the JSON document (--json) or `show(console, doc)`."""
    if getattr(args, "report", None):
        report.write_report(args.report, kind, doc if report_doc is None else report_doc)
        err(f"wrote {args.report}")
    if args.json:
        print_json(doc)
    else:
        show(console(), doc)
    return 0


def cmd_analyze(args) -> int:
    """Every statistic and metric again, from results files."""
    docs = [analysed(run, bots, found) for run, bots, found in read_results(args.results)]
    if len(docs) == 1:
        return emit(args, docs[0], "analyze")
    return emit(args, {"runs": docs}, "sweep", print_runs, [(run_label(d), d) for d in docs])


def print_runs(con, doc: dict) -> None:
    for run in doc["runs"]:
        print_summary(con, run)


def run_label(doc: dict) -> str:
    sets = " ".join(f"{k}={v}" for k, v in doc["overrides"].items())
    return f"{doc['name']} {doc['players']}p {','.join(doc['bots'])} seed {doc['seed']}" + (f" {sets}" if sets else "")


def analysed(run: dict, bots: list, found: list) -> dict:
    """A run's summary from its records; coverage rows named by the ruleset when it is at hand."""
    points = None
    if any("coverage" in r for r in found):
        points = coverage_points_of(run) or numbered_points(len(found[0].get("coverage") or []))
    return simulate.summary(run, run["players"], run["seed"], bots, found, points)


def numbered_points(n: int) -> list:
    """Coverage points known only by their number (the ruleset of the run is not at hand)."""
    return [{"kind": "point", "where": f"point {i}", "text": f"coverage point {i}"} for i in range(n)]


def coverage_points_of(run: dict):
    """The coverage points of the ruleset a run was made with, or None when that file is not here
    (or has changed since): the rows are then numbered, not named."""
    try:
        game = load_game(run["ruleset"], run["overrides"])
    except (RulesetError, UsageError):
        err(f"warning: {run['ruleset']} cannot be loaded here: coverage is shown by point number")
        return None
    if game.sha256 != run["sha256"]:
        err(f"warning: {run['ruleset']} has changed since the run (sha256 differs): coverage is shown by point "
            "number")
        return None
    return plain_points(game.program(run["players"], coverage=True).coverage_points)


def add_batch_commands(sub, shared) -> None:
    """simulate and analyze."""
    common, ruleset, players, bots, limits = shared
    p = sub.add_parser("simulate", parents=[common, ruleset, players, bots, limits],
                       help="play many bot games and print statistics with 95 %% intervals")
    p.add_argument("--games", "-g", type=games_option, default=100, metavar="G",
                   help="games (default 100), or auto: play until --precision is reached")
    p.add_argument("--precision", type=precision_option, metavar="P",
                   help=f"with --games auto: play batches of {simulate.AUTO_BATCH} games until every seat's "
                        "95 %% win-share interval (a cooperative game's: the table's win rate) is narrower than "
                        "±P percentage points")
    p.add_argument("--max-games", type=positive_int, default=100_000, metavar="N",
                   help="with --games auto: stop after N games at most (default 100,000)")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="seed of the run (default 0); game g uses rng.derive(S, g)")
    add_output_options(p)
    add_scale_options(p)
    p.add_argument("--results", metavar="FILE",
                   help="write one JSON object per game to FILE (one per line, as games finish), for "
                        "`cardrules analyze`; kept when the run is interrupted")
    p.add_argument("--resume", action="store_true",
                   help="with --results FILE of an interrupted run: play only the games it lacks (same command)")
    p.add_argument("--track", action="store_true",
                   help="follow every seat's score turn by turn, for lead changes, decisiveness and comebacks "
                        "(it costs time: R-Eco plays about a third slower)")
    p.add_argument("--no-coverage", action="store_true", help="do not count which rules ran")
    p.add_argument("--progress", action="store_true",
                   help="print a progress line to stderr after every tenth of the games (on a terminal "
                        "a progress bar shows anyway)")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("analyze", parents=[common],
                       help="every statistic and metric again, from results files of `simulate --results`")
    p.add_argument("results", metavar="FILE", nargs="+", help="results files (lines of one run are pooled)")
    add_output_options(p)
    p.set_defaults(func=cmd_analyze)


def add_output_options(p) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--report", metavar="FILE.html",
                   help="also write a self-contained HTML report with plots (opens offline)")
