"""The Sorting Memo yardstick (benchmarks/yardsticks/sorting_memo.py) plays the game cardrules plays.

Seeds differ, so only distributions can agree: over 400 random games per player count, its mean
turns, mean score per seat and win share per seat agree with `cardrules simulate` within their
99.9 % intervals (Welch: |a - b| < 3.29 * sqrt(sa²/na + sb²/nb)).
"""
import importlib.util
import json
import math
import os
import statistics
import subprocess
import sys

import pytest

from helpers import ROOT

pytestmark = pytest.mark.soak

RULESET = os.path.join("rulesets", "sorting_memo.yaml")
YARDSTICK = os.path.join(ROOT, "benchmarks", "yardsticks", "sorting_memo.py")
PLAYERS = [2, 3, 4]
GAMES = 400
Z_999 = 3.29


def yardstick():
    """The yardstick module, loaded from its file (benchmarks/ is not a package of the project)."""
    spec = importlib.util.spec_from_file_location("yardstick_sorting_memo", YARDSTICK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fractions(winners: list, players: int) -> list:
    """Each seat's share of one game's victory (a tie is split between the winners)."""
    return [1 / len(winners) if k in winners else 0.0 for k in range(players)]


def yardstick_games(players: int) -> list:
    """(scores, win fractions, turns) of the yardstick's games, seeds 0 .. GAMES - 1."""
    play = yardstick().play_game
    return [(s, fractions(w, players), t) for s, w, t in (play(players, seed) for seed in range(GAMES))]


def cardrules_games(players: int, tmp_path) -> tuple:
    """`cardrules simulate --json` of random bots, and (scores, win fractions, turns) of its games."""
    results = tmp_path / f"memo{players}.jsonl"
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "cli.py"), "simulate", RULESET, "--players",
                           str(players), "--games", str(GAMES), "--json", "--no-coverage", "--results",
                           str(results)], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    games = [(r["scores"], fractions(r["winners"], players), r["turns"]) for r in lines]
    return json.loads(proc.stdout), games


def disagreement(name: str, a: list, b: list) -> list:
    """[a message] when two samples' means differ by Welch's 99.9 % interval or more, else []."""
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    half = Z_999 * math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    return [] if abs(ma - mb) < half else [f"{name}: yardstick {ma:.3f}, cardrules {mb:.3f} (allowed ±{half:.3f})"]


@pytest.mark.parametrize("players", PLAYERS)
def test_the_yardstick_plays_the_game_cardrules_plays(players, tmp_path):
    """Same mean turns, and per seat the same mean score and win share, as cardrules' random self-play."""
    summary, theirs = cardrules_games(players, tmp_path)
    assert summary["games"] == len(theirs) == GAMES
    assert summary["turns"]["mean"] == pytest.approx(statistics.fmean(t for _, _, t in theirs))
    ours = yardstick_games(players)
    wrong = disagreement("turns", [t for _, _, t in ours], [t for _, _, t in theirs])
    for k in range(players):
        wrong += disagreement(f"seat {k} score", [s[k] for s, _, _ in ours], [s[k] for s, _, _ in theirs])
        wrong += disagreement(f"seat {k} win share", [f[k] for _, f, _ in ours], [f[k] for _, f, _ in theirs])
    assert not wrong, "\n".join(wrong)
