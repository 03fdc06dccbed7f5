"""Speed baseline: play random 4-player R-Eco games with the hand-written reference
for N seconds (default 5, argv[1]) on one core and print games per second."""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from reference.r_eco import random_game  # noqa: E402


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    try:  # stay on one core
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    except (AttributeError, OSError):
        pass
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        random_game(4, games)
        games += 1
    elapsed = time.perf_counter() - start
    print("%.1f games/s" % (games / elapsed))


if __name__ == "__main__":
    main()
