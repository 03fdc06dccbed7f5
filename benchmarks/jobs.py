"""How much faster a batch is on two cores: the same `cardrules simulate` command with --jobs 1 and
--jobs N, run alternately (so both see the same machine), each timed from start to exit, and their
JSON compared (identical apart from timings).

    python benchmarks/jobs.py                       # 2,000 R-Eco games, greedy,random,random,random
    python benchmarks/jobs.py --games 500 --rounds 1 --ruleset rulesets/lixo.yaml --bots random
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMING = ("seconds", "games_per_second", "timing")


def timed(command: list) -> tuple:
    """(wall seconds from start to exit, the JSON it printed)."""
    start = time.perf_counter()
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - start, json.loads(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="rulesets/r_eco.yaml")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bots", default="greedy,random,random,random")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2, help="alternate runs of each (default 2)")
    args = ap.parse_args()
    base = [sys.executable, "cli.py", "simulate", args.ruleset, "--players", str(args.players), "--bots", args.bots,
            "--games", str(args.games), "--json"]
    walls = {1: [], args.jobs: []}
    docs = {}
    for _ in range(args.rounds):
        for jobs in (1, args.jobs):
            wall, doc = timed(base + ["--jobs", str(jobs)])
            walls[jobs].append(wall)
            docs[jobs] = {k: v for k, v in doc.items() if k not in TIMING}
            print(f"--jobs {jobs}: {wall:.2f} s ({args.games / wall:.1f} games/s)", flush=True)
    same = docs[1] == docs[args.jobs]
    one, many = statistics.median(walls[1]), statistics.median(walls[args.jobs])
    print(f"{args.games:,} games of {args.ruleset} ({args.players} players, bots {args.bots}), median of "
          f"{args.rounds} alternate runs: --jobs 1 {one:.2f} s, --jobs {args.jobs} {many:.2f} s: "
          f"{one / many:.2f}x as fast; numbers identical apart from timings: {'yes' if same else 'NO'}")
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
