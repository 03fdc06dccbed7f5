"""The speed table: random self-play of every shipped ruleset at every player count against its
hand-written yardstick (benchmarks/yardsticks/), and seconds per game of each bot.

Each pair runs alternately (cardrules, yardstick, cardrules, …) as separate processes pinned to the
same core, so both see the same machine; the table gives the median of the rounds.

    python benchmarks/speed.py                          # everything: about 10 minutes
    python benchmarks/speed.py --only r_eco:4 --seconds 3 --rounds 3 --no-bots
    python benchmarks/speed.py --no-speed --against ../old-checkout   # the bots, before and now

--against takes any checkout, also one from before `simulate --jobs` (the main of the day issue 16
was filed, aeb509b): there its games run in one process as ours do, its win shares come bare.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# ruleset → (players, yardstick module, its extra options)
RULESETS = {"r_eco": (range(2, 6), "r_eco", []), "lixo": (range(2, 7), "lixo", []),
            "lixo_two_colour": (range(2, 7), "lixo", ["--two-colour"]),
            "sorting_memo": (range(2, 5), "sorting_memo", [])}
# bot → (ruleset, players, bots by seat, games at scale 1)
BOTS = {"greedy": ("r_eco", 4, "greedy,random,random,random", 200),
        "automa": ("r_eco", 2, "automa,greedy", 60),
        "memory": ("sorting_memo", 2, "memory,random", 10)}


def one_core() -> None:
    """Run the child on one core, the same one for every child."""
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    except (AttributeError, OSError):
        pass


def run(command: list, root: str = ROOT) -> str:
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, preexec_fn=one_core)
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}\n{done.stderr}")
    return done.stdout


def games_per_second(command: list, root: str = ROOT) -> float:
    """The 'N games/s' of the command's last line (run in the checkout at root)."""
    return float(run(command, root).strip().splitlines()[-1].split()[0])


def pairs(only: set):
    """(ruleset, players, yardstick module, extra options) of every row asked for."""
    for name, (players, module, extra) in RULESETS.items():
        for n in players:
            if not only or name in only or f"{name}:{n}" in only:
                yield name, n, module, extra


def speed_rows(args) -> list:
    """Per row: (ruleset, players, cardrules, yardstick[, before]) in games per second (medians)."""
    rows = []
    for name, n, module, extra in pairs(set(args.only or ())):
        ours, theirs, before = [], [], []
        bench = [sys.executable, "cli.py", "bench", f"rulesets/{name}.yaml", "--players", str(n),
                 "--seconds", str(args.seconds)]
        for _ in range(args.rounds):
            ours.append(games_per_second(bench))
            theirs.append(games_per_second([sys.executable, f"benchmarks/yardsticks/{module}.py", "--players", str(n),
                                            "--seconds", str(args.seconds), *extra]))
            if args.against:
                before.append(games_per_second(bench, args.against))
        a, b = statistics.median(ours), statistics.median(theirs)
        rows.append((name, n, a, b) + ((statistics.median(before),) if before else ()))
        print(f"{name} {n}p: cardrules {a:.1f}, yardstick {b:.1f} games/s, ratio {a / b:.2f} "
              f"(rounds {ours} / {theirs})" + (f", before {before}" if before else ""), file=sys.stderr, flush=True)
    return rows


def bot_cost(root: str, name: str, n: int, bots: str, games: int) -> tuple:
    """(seconds a game, seat 0's win share) of one simulate run of the checkout at root; the time is of
    the games alone (not loading and compiling), in one process."""
    command = [sys.executable, "cli.py", "simulate", f"rulesets/{name}.yaml", "--players", str(n),
               "--bots", bots, "--games", str(games), "--seed", "1", "--json"]
    if "--no-coverage" not in run([sys.executable, "cli.py", "simulate", "--help"], root):
        # a checkout from before parallel runs (the main of the day issue 16 was filed): one
        # process, no coverage counted, the games' seconds and the win shares at the top
        doc = json.loads(run(command, root))
        return doc["seconds"] / doc["games"], {"value": doc["wins_by_seat"][0], "ci95": None}
    doc = json.loads(run(command + ["--jobs", "1", "--no-coverage"], root))
    played = doc["timing"]["workers"][0]
    return played["seconds"] / played["games"], doc["intervals"]["wins_by_seat"][0]


def bot_rows(args) -> list:
    """Per bot: (bot, ruleset, players, bots, games, s a game, share[, before: s a game, share])."""
    rows = []
    for bot, (name, n, bots, games) in BOTS.items():
        games = max(2, round(games * args.bot_games))
        ours, theirs = [], []
        for _ in range(args.rounds if args.against else 1):
            ours.append(bot_cost(ROOT, name, n, bots, games))
            if args.against:
                theirs.append(bot_cost(args.against, name, n, bots, games))
        row = (bot, name, n, bots, games, statistics.median(s for s, _ in ours), ours[0][1])
        if theirs:
            row += (statistics.median(s for s, _ in theirs), theirs[0][1])
        rows.append(row)
        print(f"{bot}: {row[5]:.3f} s a game" + (f", before {row[7]:.3f} s" if theirs else ""),
              file=sys.stderr, flush=True)
    return rows


def print_tables(speed: list, bots: list, args) -> None:
    if speed:
        before = len(speed[0]) > 4
        print("| ruleset | players | cardrules games/s | yardstick games/s | ratio |"
              + (" before: games/s | speed-up |" if before else "") + "\n|---|---|---|---|---|"
              + ("---|---|" if before else ""))
        for name, n, a, b, *old in speed:
            print(f"| {name} | {n} | {a:,.0f} | {b:,.0f} | {a / b:.2f}× |"
                  + (f" {old[0]:,.0f} | {a / old[0]:.2f}× |" if old else ""))
        print(f"\n(`cardrules bench … --seconds {args.seconds:g}` against `benchmarks/yardsticks/`, random bots, "
              f"one core, median of {args.rounds} alternate rounds)\n")
    if bots:
        before = len(bots[0]) > 7
        print("| bot | ruleset | players | bots | games | s a game | seat 0 win share |"
              + (" before: s a game | win share | cost |" if before else "")
              + "\n|---|---|---|---|---|---|---|" + ("---|---|---|" if before else ""))
        for bot, name, n, names, games, seconds, share, *old in bots:
            line = f"| {bot} | {name} | {n} | {names} | {games} | {seconds:.3f} | {percent(share)} |"
            if old:
                line += f" {old[0]:.3f} | {percent(old[1])} | {seconds / old[0]:.2f}× |"
            print(line)
        if before:
            print(f"\n(before: the checkout at {args.against}, alternate runs, median of {args.rounds})")


def percent(share: dict) -> str:
    if share["ci95"] is None:          # an old checkout gives no interval
        return f"{100 * share['value']:.1f} %"
    lo, hi = share["ci95"]
    return f"{100 * share['value']:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="seconds per bench run (default 5)")
    ap.add_argument("--rounds", type=int, default=2, help="alternate rounds per row (default 2)")
    ap.add_argument("--only", action="append", metavar="RULESET[:N]", help="only these rows; repeatable")
    ap.add_argument("--no-bots", action="store_true", help="leave out the bots' seconds per game")
    ap.add_argument("--no-speed", action="store_true", help="leave out random self-play (the bots only)")
    ap.add_argument("--bot-games", type=float, default=1.0, metavar="SCALE",
                    help="scale the bots' games (default 1: greedy 200, automa 60, memory 10)")
    ap.add_argument("--against", metavar="DIR", help="another checkout (e.g. a clone of an older commit): "
                    "its games per second and its bots' cost too, side by side, and the ratios")
    args = ap.parse_args()
    if args.against and not os.path.isfile(os.path.join(args.against, "cli.py")):
        ap.error(f"--against {args.against}: no cli.py there (give the top folder of a checkout)")
    speed = [] if args.no_speed else speed_rows(args)
    bots = [] if args.no_bots else bot_rows(args)
    print_tables(speed, bots, args)


if __name__ == "__main__":
    main()
