"""One bot against another, seat-rotated: the same deals played once with the bot in every seat.

`cardrules simulate RULESET --seed S --games G --bots …` is run once per seating, the bot in that
seat and the opponent in every other, so every seating sees the same G deals; the bot's win share
(ties shared) over all the games, with Wilson's 95 % interval, beside the fair share 1/players.

    python benchmarks/rotated.py rulesets/lixo.yaml --players 4 --bot ismcts --opponent automa --games 50
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from interpreter.analysis.intervals import wilson  # noqa: E402


def seating(args, seat: int) -> tuple:
    """(the bot's win share in `seat`, wall seconds) over the run's games."""
    bots = [args.opponent] * args.players
    bots[seat] = args.bot
    command = [sys.executable, "cli.py", "simulate", args.ruleset, "--players", str(args.players),
               "--games", str(args.games), "--seed", str(args.seed), "--jobs", str(args.jobs),
               "--no-coverage", "--bots", ",".join(bots), "--json"]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode:         # simulate's own message (a bad bot name, ruleset or count)
        print(done.stderr.rstrip(), file=sys.stderr)
        sys.exit(done.returncode)
    return json.loads(done.stdout)["wins_by_seat"][seat], time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset", help="a ruleset file (relative to the repository)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bot", default="ismcts", help="the bot measured, with its options (NAME:KEY=VALUE)")
    ap.add_argument("--opponent", default="automa", help="the bot in every other seat")
    ap.add_argument("--games", type=int, default=50, help="games per seating (default 50)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes of each simulate")
    args = ap.parse_args()
    wins, seconds = 0.0, 0.0
    for seat in range(args.players):
        share, took = seating(args, seat)
        wins, seconds = wins + share * args.games, seconds + took
        print(f"seat {seat}: {100 * share:.1f} % of {args.games} games", flush=True)
    n = args.games * args.players
    lo, hi = wilson(wins, n)
    print(f"{args.bot} against {args.opponent}, {args.ruleset}, {args.players} players, seed {args.seed}: "
          f"{wins:g} of {n} games = {100 * wins / n:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}] "
          f"(fair share {100 / args.players:.0f} %; {seconds / n:.2f} s a game)")


if __name__ == "__main__":
    main()
