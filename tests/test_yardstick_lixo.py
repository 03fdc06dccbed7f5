"""The Lixo yardstick of the speed benchmark (benchmarks/yardsticks/lixo.py) plays the game cardrules plays.

Seeds differ, so only distributions can agree: over 2,000 random games per player count its mean turns,
mean decisions, mean score of each seat and win share of each seat (ties shared) lie within the 99.9 %
Welch interval of `cardrules simulate --json` on the same ruleset (|a - b| < 3.29 * sqrt(va/na + vb/nb)).
A soak test: about a minute per ruleset and player count on a loaded machine.
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

GAMES = 2000
Z = 3.29                      # two-sided 99.9 %
PLAYERS = [2, 3, 4, 5, 6]
RULESETS = {False: "rulesets/lixo.yaml", True: "rulesets/lixo_two_colour.yaml"}


def yardstick():
    """benchmarks/yardsticks/lixo.py, imported from its file (benchmarks/ is not an installed package)."""
    path = os.path.join(ROOT, "benchmarks", "yardsticks", "lixo.py")
    spec = importlib.util.spec_from_file_location("yardstick_lixo", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sample(values):
    """(mean, sample variance, size) of a list of numbers."""
    return statistics.fmean(values), statistics.variance(values), len(values)


def from_summary(mean, pop_sd, n):
    """(mean, sample variance, size) from simulate's mean and population standard deviation."""
    return mean, pop_sd ** 2 * n / (n - 1), n


def win_fractions(scores):
    """Each seat's share of one game's win: 1/k to each of k tied winners."""
    best = max(scores)
    winners = [s == best for s in scores]
    return [1 / sum(winners) if w else 0.0 for w in winners]


def disagreement(name, a, b):
    """A line naming the quantity if the two samples' means differ beyond the 99.9 % Welch bound, else None."""
    (ma, va, na), (mb, vb, nb) = a, b
    bound = Z * math.sqrt(va / na + vb / nb)
    if abs(ma - mb) <= bound:       # <=: two constant samples agree only when equal
        return None
    return f"{name}: yardstick {ma:.3f}, cardrules {mb:.3f}, |difference| {abs(ma - mb):.3f} > {bound:.3f}"


def yardstick_samples(players, two_colour):
    """The yardstick's samples of every compared quantity, over GAMES seeds."""
    games = [yardstick().play_game(players, seed, two_colour) for seed in range(GAMES)]
    out = {"turns": sample([g[1] for g in games]), "decisions": sample([g[2] for g in games])}
    wins = [win_fractions(g[0]) for g in games]
    for k in range(players):
        out[f"score of seat {k}"] = sample([g[0][k] for g in games])
        out[f"win share of seat {k}"] = sample([w[k] for w in wins])
    return out


def cardrules_samples(players, two_colour, tmp_path):
    """The same quantities from `cardrules simulate --json` (win-share variances from its per-game results)."""
    results = tmp_path / "results.jsonl"
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "cli.py"), "simulate", RULESETS[two_colour],
                           "--players", str(players), "--games", str(GAMES), "--json", "--no-coverage",
                           "--results", str(results)], cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    n = doc["games"]
    out = {"turns": from_summary(doc["turns"]["mean"], doc["turns"]["sd"], n),
           "decisions": from_summary(doc["moves"]["mean"], doc["moves"]["sd"], n)}
    wins = [win_fractions(json.loads(line)["scores"]) for line in results.read_text().splitlines()]
    for k in range(players):
        out[f"score of seat {k}"] = from_summary(doc["score"]["mean_by_seat"][k], doc["score"]["sd_by_seat"][k], n)
        out[f"win share of seat {k}"] = (doc["wins_by_seat"][k], statistics.variance([w[k] for w in wins]), n)
    return out


@pytest.mark.parametrize("two_colour", [False, True], ids=["lixo", "two_colour"])
@pytest.mark.parametrize("players", PLAYERS)
def test_yardstick_turns_decisions_scores_and_win_shares_agree_with_cardrules(players, two_colour, tmp_path):
    ours = yardstick_samples(players, two_colour)
    theirs = cardrules_samples(players, two_colour, tmp_path)
    wrong = [line for name in ours if (line := disagreement(name, ours[name], theirs[name])) is not None]
    assert not wrong, "\n".join(wrong)
