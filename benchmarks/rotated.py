"""One bot against another, seat-rotated: the same deals played once with the bot in every seat.

`cardrules simulate RULESET --seed S --games G --bots …` is run once per seating, the bot in that
seat and the opponent in every other, so every seating sees the same G deals; the bot's win share
(ties shared) over all the games, with Wilson's 95 % interval, beside the fair share 1/players.

    python benchmarks/rotated.py rulesets/lixo.yaml --players 4 --bot ismcts --opponent automa --games 50

A long run can keep its games (`--results DIR`: each seating's in DIR/seatK.jsonl, as `simulate
--results` writes them); run again with the same command after an interruption, it plays only the
games each seating lacks (`simulate --resume`) and gives the share over all of them.
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
    """(the bot's win share in `seat` over the run's games, wall seconds, games played now: not kept before)."""
    bots = [args.opponent] * args.players
    bots[seat] = args.bot
    command = [sys.executable, "cli.py", "simulate", args.ruleset, "--players", str(args.players),
               "--games", str(args.games), "--seed", str(args.seed), "--jobs", str(args.jobs),
               "--no-coverage", "--bots", ",".join(bots), "--json"]
    if args.results:            # the seating's games kept, and those kept before not played again
        os.makedirs(args.results, exist_ok=True)
        command += ["--results", os.path.join(os.path.abspath(args.results), f"seat{seat}.jsonl"), "--resume"]
    if args.progress:
        command.append("--progress")
        print(f"seat {seat}: {args.bot} here, {args.opponent} in every other seat", file=sys.stderr, flush=True)
    start = time.perf_counter()
    # simulate's progress lines go straight to stderr; without them its stderr is kept for an error
    done = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, text=True,
                          stderr=None if args.progress else subprocess.PIPE)
    if done.returncode:         # simulate's own message (a bad bot name, ruleset or count)
        if done.stderr:
            print(done.stderr.rstrip(), file=sys.stderr)
        sys.exit(done.returncode)
    doc = json.loads(done.stdout)
    return doc["wins_by_seat"][seat], time.perf_counter() - start, doc["timing"]["games"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset", help="a ruleset file (relative to the repository)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bot", default="ismcts", help="the bot measured, with its options (NAME:KEY=VALUE)")
    ap.add_argument("--opponent", default="automa", help="the bot in every other seat")
    ap.add_argument("--games", type=int, default=50, help="games per seating (default 50)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes of each simulate")
    ap.add_argument("--results", metavar="DIR", help="keep each seating's games in DIR/seatK.jsonl; the same "
                    "command run again after an interruption plays only the games not kept yet")
    ap.add_argument("--progress", action="store_true", help="simulate's progress lines on stderr")
    args = ap.parse_args()
    wins, seconds, played = 0.0, 0.0, 0
    for seat in range(args.players):
        share, took, now = seating(args, seat)
        wins, seconds, played = wins + share * args.games, seconds + took, played + now
        print(f"seat {seat}: {100 * share:.1f} % of {args.games} games", flush=True)
    n = args.games * args.players
    lo, hi = wilson(wins, n)
    print(f"{args.bot} against {args.opponent}, {args.ruleset}, {args.players} players, seed {args.seed}: "
          f"{wins:g} of {n} games = {100 * wins / n:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}] "
          f"(fair share {100 / args.players:.0f} %; " + cost(seconds, played, n) + ")")


def cost(seconds: float, played: int, n: int) -> str:
    """The wall time a game of this run took (games kept from an earlier run cost it nothing)."""
    if not played:
        return "every game kept from before"
    return f"{seconds / played:.2f} s a game" + (f", {played} played now" if played < n else "")


if __name__ == "__main__":
    main()
