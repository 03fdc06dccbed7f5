"""Variants side by side: `compare` (two rulesets or two sets of overrides on the same games) and
`sweep` (one ruleset with parameters varied over values, every value on the same games).

Common random numbers: game g of every variant is dealt with playing.game_seed(S, g) and its
bots seeded with playing.bot_seed(S, g, k), so the variants differ only by their rules. With
--rotate, deal d is played once in every rotation r of the bots (game d·P + r).
"""
from __future__ import annotations

import argparse
import itertools

from rich.table import Table
from rich.text import Text

from ..analysis.compare import check_same_kind, compare
from .. import load_game
from ..runtime.coverage import plain_points
from ..errors import RulesetError, UsageError
from . import simulate
from .batch import add_output_options, analysed, emit, progress_for
from .chunks import Batch, prepare
from .options import (add_scale_options, bot_list, limits_of, overrides_of, positive_int, print_warnings,
                      set_option)
from .results import read_results
from .runner import InProcess, Run, backend_for
from .summary_text import pm


def play_paired(game, players: int, seed: int, names: list, games: int, rotate: bool, progress=None,
                done: int = 0, track: bool = True, backend=None) -> tuple:
    """One variant on the run's paired games (game d·P + r deals d with the bots rotated r seats on,
    with --rotate), played on `backend` (default here): (the per-game records in game order, the
    variant's summary)."""
    backend = backend or InProcess()
    batch = Batch.of(game, players, seed, names, track=track, coverage=True, keep=True, rotate=rotate)
    found: list = []
    run = Run(batch, records=found.append, progress=None if progress is None else lambda n: progress(done + n))
    run.play(backend, [(0, games * (players if rotate else 1))])
    points = plain_points(game.program(players, coverage=True).coverage_points)
    return found, simulate.summary_of(simulate.run_meta(game, players, seed), players, seed, names, run.tally,
                                      run.timing(backend.workers), points)


def run_compare(a, b, players: int, seed: int, names: list, games: int, rotate: bool, progress=None,
                track: bool = True, backend=None) -> dict:
    """Both variants on the same games, and their paired differences."""
    ra, sa = play_paired(a, players, seed, names, games, rotate, progress, track=track, backend=backend)
    rb, sb = play_paired(b, players, seed, names, games, rotate, progress, len(ra), track=track, backend=backend)
    return {"a": sa, "b": sb, "rotate": rotate, "diff": compare(ra, rb)["diff"]}


def variant(args, path: str, extra: list):
    """One side of a comparison: the ruleset with --set and its own --set-a / --set-b."""
    given = dict(overrides_of(args))
    for name, value in extra or []:
        if isinstance(value, RulesetError):
            raise value
        given[name] = value
    game = load_game(path, given, limits_of(args))
    print_warnings(path, given, game)
    game.check_players(args.players)
    return game


RESULTS_SUFFIXES = (".jsonl", ".ndjson")


def compared_results(args) -> dict:
    """Two results files of runs on the same seeds (`simulate --results`), compared game by game."""
    if not args.other or not args.other.endswith(RESULTS_SUFFIXES):
        raise UsageError("compare FILE.jsonl needs a second results file: compare a.jsonl b.jsonl")
    sides = []
    for path in (args.ruleset, args.other):
        runs = read_results([path])
        if len(runs) != 1:
            raise UsageError(f"{path}: holds {len(runs)} runs; give a file of one run to compare")
        sides.append(runs[0])
    docs = [analysed(*side) for side in sides]
    return {"a": docs[0], "b": docs[1], "rotate": False, "diff": compare(sides[0][2], sides[1][2])["diff"]}


def cmd_compare(args) -> int:
    """Two variants on the same games: A, B and B − A with intervals and verdicts."""
    if args.ruleset.endswith(RESULTS_SUFFIXES):
        return emit(args, compared_results(args), "compare", print_compare)
    if args.players is None:
        raise UsageError("compare needs --players N (the number of players of both variants)")
    a = variant(args, args.ruleset, args.set_a)
    b = variant(args, args.other or args.ruleset, args.set_b)
    check_same_kind(a.rules.cooperative is not None, b.rules.cooperative is not None)     # before any game
    names = same_bots(bot_list(args.bots, args.players, a), bot_list(args.bots, args.players, b))
    total = 2 * args.games * (args.players if args.rotate else 1)
    for game in (a, b):
        prepare(game, args.players, True)               # before the workers fork: they inherit it
    with backend_for(args.jobs, args.dask, total) as backend, progress_for(args, total, "compare") as progress:
        doc = run_compare(a, b, args.players, args.seed, names, args.games, args.rotate, progress,
                          track=not args.no_track, backend=backend)
    return emit(args, doc, "compare", print_compare)


def print_compare(con, doc: dict) -> None:
    """A, B and B − A of every metric, then every verdict in words."""
    a, b = doc["a"], doc["b"]
    con.print(Text(f"A: {label(a)}\nB: {label(b)}\n{a['games']} paired games"
                   + (" (every deal in every seat rotation of the bots)" if doc["rotate"] else "")
                   + f", {a['players']} players, bots {','.join(a['bots'])}, seed {a['seed']}"), soft_wrap=True)
    table = Table(title=Text("B − A on the same games (95 % intervals)"))
    for name, justify in (("metric", "left"), ("A", "right"), ("B", "right"), ("B − A", "right"), ("p", "right")):
        table.add_column(name, justify=justify, no_wrap=name != "metric")
    for metric, d in doc["diff"].items():
        share = d.get("share", False)
        table.add_row(Text(metric), pm(d.get("a"), share), pm(d.get("b"), share), pm(d, share),
                      "–" if d.get("p") is None else f"{d['p']:.3g}")
    con.print(table)
    for d in doc["diff"].values():
        if d.get("verdict"):
            con.print(Text(f"- {d['verdict']}"), soft_wrap=True)
    n = len(doc["diff"])
    con.print(Text(f"{n} numbers compared: about {n / 20:.0f} of them would show p < 0.05 by chance alone, so "
                   "trust a single small p among many only after a second, larger run"), soft_wrap=True)


def label(doc: dict) -> str:
    sets = " ".join(f"--set {k}={v}" for k, v in doc["overrides"].items())
    return f"{doc['ruleset']} ({doc['name']})" + (f" {sets}" if sets else "")


# ---- sweep ----
def split_values(text: str) -> list:
    """V1,V2,… split at the commas outside brackets (a value may be a YAML list), or LO..HI."""
    if ".." in text and "," not in text and "[" not in text:
        lo, _, hi = text.partition("..")
        try:
            lo, hi = int(lo), int(hi)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not LO..HI with whole numbers") from None
        if hi < lo or hi - lo > 1000:
            raise argparse.ArgumentTypeError(f"'{text}': LO..HI needs LO ≤ HI and at most 1,001 values")
        return [str(v) for v in range(lo, hi + 1)]
    parts, depth, word = [], 0, ""
    for ch in text:
        depth += {"[": 1, "{": 1, "]": -1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(word)
            word = ""
        else:
            word += ch
    return parts + [word]


def vary_option(text: str) -> tuple:
    """NAME=V1,V2,… or NAME=LO..HI (NAME.PLAYERS=… for one row of a player-count table)."""
    name, eq, values = text.partition("=")
    if not eq or not name.strip() or not values.strip():
        raise argparse.ArgumentTypeError(f"'{text}' is not NAME=V1,V2,… or NAME=LO..HI")
    return name.strip(), [set_option(f"{name.strip()}={v.strip()}")[1] for v in split_values(values)]


def same_bots(a: list, b: list) -> list:
    """The bots both variants play with; a UsageError when their rulesets give the bots different
    options (bots.options): a paired comparison plays both with the same bots."""
    if a != b:
        raise UsageError(f"the two rulesets give the bots different options (bots.options): A plays with "
                         f"{','.join(a)}, B with {','.join(b)}; name those options in --bots to play both "
                         "with the same bots")
    return a


def cmd_sweep(args) -> int:
    """One row per combination of the varied values, every row on the same games."""
    grid = list(itertools.product(*[[(name, v) for v in values] for name, values in args.vary]))
    games = [variant(args, args.ruleset, list(combo)) for combo in grid]
    names = bot_list(args.bots, args.players, games[0])     # --set changes parameters, never bots.options
    for game in games:
        prepare(game, args.players, True)               # before the workers fork: they inherit it
    per_row = args.games * (args.players if args.rotate else 1)
    rows, base = [], None
    with backend_for(args.jobs, args.dask, per_row) as backend, \
            progress_for(args, len(grid) * per_row, "sweep") as progress:
        for i, (combo, game) in enumerate(zip(grid, games)):
            found, doc = play_paired(game, args.players, args.seed, names, args.games, args.rotate, progress,
                                     i * per_row, track=not args.no_track, backend=backend)
            row = {"values": {n: v for n, v in combo}, "summary": doc}
            if base is None:
                base = found
            else:
                row["diff_from_first"] = compare(base, found)["diff"]
            rows.append(row)
    doc = {"vary": [n for n, _ in args.vary], "rows": rows}
    return emit(args, doc, "sweep", print_sweep, [(row_label(row), row["summary"]) for row in rows])


def row_label(row: dict) -> str:
    return ", ".join(f"{name}={value}" for name, value in row["values"].items())


def print_sweep(con, doc: dict) -> None:
    first = doc["rows"][0]["summary"]
    table = Table(title=Text(f"{first['name']}: {first['games']} games per row, {first['players']} players, "
                             f"bots {','.join(first['bots'])}, seed {first['seed']} (95 % intervals)"))
    for name in doc["vary"]:
        table.add_column(name)
    together = "cooperative" in first          # a parameter cannot make a game cooperative: every row is alike
    heads = ["turns", "table wins", "shared score"] if together else \
        ["turns", "margin"] + [f"seat {k} wins" for k in range(first["players"])]
    for name in heads:
        table.add_column(name, justify="right")
    for row in doc["rows"]:
        s, m = row["summary"], row["summary"].get("metrics", {})
        cells = [Text(str(v)) for v in row["values"].values()]
        cells.append(pm(m.get("length", {}).get("turns", {}).get("mean"), digits=1))
        if together:
            cells += [pm(s["cooperative"]["table_wins"], percent=True), pm(s["cooperative"]["score"])]
        else:
            cells += [pm(m.get("closeness", {}).get("margin"))] + \
                [pm(x, percent=True) for x in s["intervals"]["wins_by_seat"]]
        table.add_row(*cells)
    con.print(table)


def add_variant_commands(sub, shared) -> None:
    """compare and sweep."""
    common, ruleset, players, bots, limits = shared
    p = sub.add_parser("compare", parents=[common, ruleset, bots, limits],
                       help="play two variants on the same games and print B − A with intervals (or compare "
                            "two results files of runs with the same seed: compare a.jsonl b.jsonl)")
    p.add_argument("--players", "-n", type=positive_int, metavar="N",
                   help="number of players (not with two results files, which say it)")
    p.add_argument("other", metavar="RULESET_B", nargs="?",
                   help="the second ruleset (default: RULESET again, with --set-b)")
    p.add_argument("--set-a", metavar="NAME=VALUE", type=set_option, action="append",
                   help="replace a parameter in A only; repeatable")
    p.add_argument("--set-b", metavar="NAME=VALUE", type=set_option, action="append",
                   help="replace a parameter in B only; repeatable")
    add_paired_options(p)
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("sweep", parents=[common, ruleset, players, bots, limits],
                       help="play a ruleset with parameters varied, every value on the same games")
    p.add_argument("--vary", metavar="NAME=V1,V2,…", type=vary_option, action="append", required=True,
                   help="values of a parameter (or NAME=LO..HI; NAME.PLAYERS=… for one row of a "
                        "player-count table); several --vary make a grid")
    add_paired_options(p)
    p.set_defaults(func=cmd_sweep)


def add_paired_options(p) -> None:
    add_scale_options(p)
    p.add_argument("--games", "-g", type=simulate_games, default=500, metavar="G",
                   help="games (deals) per variant (default 500)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the games (default 0)")
    p.add_argument("--rotate", action="store_true",
                   help="play every deal once in every seat rotation of the bots (P times the games)")
    p.add_argument("--no-track", action="store_true",
                   help="do not follow the scores turn by turn (faster; no lead changes, decisiveness or comebacks)")
    p.add_argument("--progress", action="store_true", help="print progress lines to stderr")
    add_output_options(p)


def simulate_games(text: str) -> int:
    n = positive_int(text)
    if n < 2:
        raise argparse.ArgumentTypeError("a comparison needs at least 2 games")
    return n
