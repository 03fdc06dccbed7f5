"""Peak memory of a long `cardrules simulate` run without --results: the memory of the command and
of every worker process it starts (proportional set size, so pages a forked worker shares with the
command count once), sampled every 0.2 s from /proc (Linux).

    python benchmarks/memory.py --games 1000000        # R-Eco, 4 players, random bots, every core
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def memory_kb(pid: int) -> int:
    """The process's proportional set size: its own pages, and its share of pages shared with others
    (forked workers share the parent's compiled program: counting it once per process would overstate)."""
    for path, key in ((f"/proc/{pid}/smaps_rollup", "Pss:"), (f"/proc/{pid}/status", "VmRSS:")):
        try:
            with open(path, encoding="ascii") as fh:
                return next(int(line.split()[1]) for line in fh if line.startswith(key))
        except (OSError, StopIteration):
            continue
    return 0


def children(pid: int) -> list:
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as fh:
            return [int(c) for c in fh.read().split()]
    except OSError:
        return []


def tree(pid: int) -> list:
    found = [pid]
    for child in children(pid):
        found += tree(child)
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="rulesets/r_eco.yaml")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--jobs", type=int, default=None)
    args = ap.parse_args()
    command = [sys.executable, "cli.py", "simulate", args.ruleset, "--players", str(args.players), "--games",
               str(args.games), "--progress"] + (["--jobs", str(args.jobs)] if args.jobs else [])
    start = time.perf_counter()
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    peak_total = peak_main = peak_worker = 0
    while proc.poll() is None:
        pids = tree(proc.pid)
        sizes = [memory_kb(p) for p in pids]
        peak_total, peak_main = max(peak_total, sum(sizes)), max(peak_main, sizes[0])
        peak_worker = max([peak_worker] + sizes[1:])
        time.sleep(0.2)
    out = proc.stdout.read()
    print(out.strip().splitlines()[-3:] and "\n".join(out.strip().splitlines()[-3:]))
    print(f"{args.games:,} games in {time.perf_counter() - start:.0f} s: peak memory {peak_total / 1024:.0f} MB "
          f"in all (the command {peak_main / 1024:.0f} MB, the largest worker {peak_worker / 1024:.0f} MB)")
    sys.exit(proc.returncode)


if __name__ == "__main__":
    main()
