"""The hand-written R-Eco yardstick (benchmarks/yardsticks/r_eco.py) plays the game cardrules plays.

Its seeds are not cardrules' seeds, so only distributions can agree: for every player count, the mean
turns, each seat's mean score and each seat's win share over 2,000 random games agree with
`cardrules simulate rulesets/r_eco.yaml --json` within their 99.9 % intervals (Welch:
|a − b| < 3.29 · √(sa²/na + sb²/nb)). A soak test: `pytest -m soak tests/test_yardstick_r_eco.py`.
"""
import functools
import importlib.util
import json
import math
import os
import random
import statistics
import subprocess
import sys

import pytest

pytestmark = pytest.mark.soak

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULESET = os.path.join(ROOT, "rulesets", "r_eco.yaml")
GAMES = 2000
Z = 3.29        # two-sided 99.9 %
PLAYERS = [2, 3, 4, 5]

_spec = importlib.util.spec_from_file_location("yardstick_r_eco", os.path.join(ROOT, "benchmarks", "yardsticks", "r_eco.py"))
yardstick = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(yardstick)


@functools.cache
def cardrules_summary(players: int) -> dict:
    """`cardrules simulate --json` of GAMES random games."""
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "cli.py"), "simulate", RULESET, "--players", str(players),
                           "--games", str(GAMES), "--json", "--no-coverage"], capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)


@functools.cache
def yardstick_games(players: int) -> list:
    """GAMES random games of the yardstick: (scores, win fraction by seat, turns)."""
    games = []
    for seed in range(GAMES):
        scores, disposed, turns = yardstick.play_game(players, random.Random(seed))
        won = yardstick.winners(scores, disposed)
        games.append((scores, [1 / len(won) if p in won else 0.0 for p in range(players)], turns))
    return games


def agree(mean_a: float, sd_a: float, mean_b: float, sd_b: float, n: int = GAMES) -> bool:
    """Welch: do two means of n games each agree within their 99.9 % interval?"""
    return abs(mean_a - mean_b) < Z * math.sqrt(sd_a ** 2 / n + sd_b ** 2 / n)


def share_sd(p: float) -> float:
    """The largest standard deviation a per-game share in [0, 1] with mean p can have."""
    return math.sqrt(p * (1 - p))


@pytest.mark.parametrize("players", PLAYERS)
def test_a_game_lasts_as_many_turns_as_in_cardrules(players):
    turns = [t for _, _, t in yardstick_games(players)]
    ref = cardrules_summary(players)["turns"]
    assert agree(statistics.fmean(turns), statistics.pstdev(turns), ref["mean"], ref["sd"]), \
        (statistics.fmean(turns), ref["mean"])


@pytest.mark.parametrize("players", PLAYERS)
def test_every_seat_scores_as_in_cardrules(players):
    ref = cardrules_summary(players)["score"]
    for seat in range(players):
        scores = [s[seat] for s, _, _ in yardstick_games(players)]
        mean, sd = statistics.fmean(scores), statistics.pstdev(scores)
        assert agree(mean, sd, ref["mean_by_seat"][seat], ref["sd_by_seat"][seat]), \
            (seat, mean, ref["mean_by_seat"][seat])


@pytest.mark.parametrize("players", PLAYERS)
def test_every_seat_wins_as_often_as_in_cardrules(players):
    ref = cardrules_summary(players)["wins_by_seat"]
    for seat in range(players):
        share = statistics.fmean(w[seat] for _, w, _ in yardstick_games(players))
        assert agree(share, share_sd(share), ref[seat], share_sd(ref[seat])), (seat, share, ref[seat])
