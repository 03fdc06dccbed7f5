"""The oracle: the list-based summary as it was before the streaming tally (issue 15), copied verbatim
from interpreter/analysis/metrics.py, values.py, intervals.py (mean_ci, median_ci) and
tools/simulate.py (the older fields), with only these changes: the win sums (wins, comeback credits,
skill-gap shares) add exact fractions, and the ratio estimator's residual Σ(y − r·x)² is an exact
fraction (its square root correctly rounded). tests/test_tally.py checks the Tally against it.
"""
from __future__ import annotations

import math
import statistics
from fractions import Fraction

from interpreter.analysis import pergame
from interpreter.analysis.coverage import coverage_rows, coverage_warnings
from interpreter.analysis.intervals import LEVEL, chi2_sf, fraction_sqrt, median_coverage, median_rank, t_quantile, wilson

ONE_GAME = "one game: no interval"
NO_GAMES = "no games"
NO_SPREAD = "every game gave the same value: the interval has width 0"


def exact_fractions(record: dict, players: int) -> list:
    """pergame.win_fractions with exact fractions: 1/k to each of k winners."""
    fractions = [Fraction(0)] * players
    for seat in record["winners"]:
        fractions[seat] += Fraction(1, len(record["winners"]))
    return fractions


def exact_comeback(record: dict, players: int):
    """pergame.comeback with exact fractions."""
    last = pergame.half_time_last(record)
    return None if last is None else exact_fractions(record, players)[last]


def spread(values: list) -> dict:
    """Mean, population standard deviation, min and max of a non-empty list."""
    return {"mean": statistics.fmean(values), "sd": statistics.pstdev(values),
            "min": min(values), "max": max(values)}


def older_fields(records: list, players: int) -> dict:
    """The fields tools/simulate.py::summary builds from the list (wins added exactly)."""
    games = len(records)
    scores = [[r["scores"][k] for r in records] for k in range(players)]
    fractions = [exact_fractions(r, players) for r in records]
    return {"turns": spread([r["turns"] for r in records]),
            "moves": spread([r["moves"] for r in records]),
            "score": {"mean_by_seat": [statistics.fmean(s) for s in scores],
                      "sd_by_seat": [statistics.pstdev(s) for s in scores]},
            "wins_by_seat": [float(sum(f[k] for f in fractions)) / games for k in range(players)]}


def summary(records: list, players: int, bots: list, points=None) -> dict:
    """What Tally.summary(points) gives: the older fields and summarise's parts."""
    return {**older_fields(records, players), **summarise(records, players, bots, points)}


def mean_ci(values: list) -> tuple:
    """The mean and its Student-t interval: (mean, lo, hi); (None, …) with no values, no interval for one."""
    n = len(values)
    if n == 0:
        return (None, None, None)
    mean = statistics.fmean(values)
    if n == 1:
        return (mean, None, None)
    if all(v == values[0] for v in values):     # no spread: the interval is the single value, width 0
        return (mean, mean, mean)
    half = t_quantile(0.5 + LEVEL / 2, n - 1) * statistics.stdev(values) / math.sqrt(n)
    return (mean, mean - half, mean + half)


def median_ci(values: list) -> tuple:
    """The median and a distribution-free interval from order statistics: (median, lo, hi)."""
    n = len(values)
    if n == 0:
        return (None, None, None)
    ordered = sorted(values)
    median = statistics.median(ordered)
    if n == 1:
        return (median, None, None)
    k = median_rank(n)
    return (median, ordered[k - 1], ordered[n - k])


def number(value, lo=None, hi=None, note: str | None = None) -> dict:
    """A number and its 95 % interval (with a note when the interval is missing or degenerate)."""
    out = {"value": value, "ci95": [lo, hi]}
    if note:
        out["note"] = note
    return out


def mean_number(values: list) -> dict:
    """The mean of per-game values with its Student-t interval."""
    mean, lo, hi = mean_ci(values)
    if not values:
        return number(None, note=NO_GAMES)
    if len(values) == 1:
        return number(mean, note=ONE_GAME)
    return number(mean, lo, hi, NO_SPREAD if lo == hi else None)


def median_number(values: list) -> dict:
    """The median of per-game values with its distribution-free order-statistic interval."""
    median, lo, hi = median_ci(values)
    if not values:
        return number(None, note=NO_GAMES)
    if len(values) == 1:
        return number(median, note=ONE_GAME)
    if len(values) < 6:
        cover = round(100 * median_coverage(len(values)))
        return number(median, lo, hi, f"fewer than 6 games: smallest to largest, which holds the median only "
                                      f"{cover} % of the time")
    return number(median, lo, hi, NO_SPREAD if lo == hi else None)


def share_number(successes: float, n: int) -> dict:
    """A share of n games (fractional successes allowed) with its Wilson score interval."""
    if n <= 0:
        return number(None, note=NO_GAMES)
    lo, hi = wilson(successes, n)
    return number(successes / n, lo, hi)


SIGNIFICANCE = 1 - LEVEL
MAX_BINS = 20
NOT_MEASURED_TRACK = None         # a metric that needs `track` in a run made without it: not measured


def summarise(records: list, players: int, bots: list, points=None) -> dict:
    """The summary's "intervals", "metrics" and "score_histogram" of a run; `points` are the program's
    coverage points."""
    fractions = [exact_fractions(r, players) for r in records]
    return {"intervals": intervals(records, players, fractions),
            "metrics": {"seat_advantage": seat_advantage(fractions, players),
                        "length": length(records, players),
                        "closeness": closeness(records),
                        "lead_changes": measured(records, pergame.lead_changes),
                        "decisiveness": measured(records, pergame.decisiveness),
                        "comeback": comeback(records, players),
                        "choice": choice(records),
                        **coverage(points, records),
                        "skill_gap": skill_gap(records, players, bots, fractions),
                        "stats": stats(records)},
            "score_histogram": seat_histograms([[r["scores"][k] for r in records] for k in range(players)])}


def intervals(records: list, players: int, fractions: list) -> dict:
    """Intervals on today's numbers: win share and mean score by seat, mean turns and moves."""
    return {"wins_by_seat": [share_number(float(sum(f[k] for f in fractions)), len(records)) for k in range(players)],
            "score_by_seat": [mean_number([r["scores"][k] for r in records]) for k in range(players)],
            "turns": mean_number([r["turns"] for r in records]),
            "moves": mean_number([r["moves"] for r in records])}


def seat_advantage(fractions: list, players: int) -> dict:
    """Win share by seat against the fair share 1/P, with a chi-square goodness-of-fit test over seats."""
    games = len(fractions)
    wins = [float(sum(f[k] for f in fractions)) for k in range(players)]
    out = {"fair_share": 1 / players, "by_seat": [share_number(w, games) for w in wins],
           "chi2": None, "df": players - 1, "p": None, "distinguishable": False}
    total = sum(wins)                            # games with a winner; each seat expects total / P
    if players < 2 or total <= 0:
        out["verdict"] = "one seat, or no game with a winner: nothing to tell apart"
        return out
    expected = total / players
    out["chi2"] = sum((w - expected) ** 2 / expected for w in wins)
    out["p"] = chi2_sf(out["chi2"], players - 1)
    out["distinguishable"] = out["p"] < SIGNIFICANCE
    out["verdict"] = seat_verdict(out, wins, games, expected)
    return out


def seat_verdict(out: dict, wins: list, games: int, expected: float) -> str:
    """One line on whether the seats' win shares can be told apart at this sample size."""
    test = f"chi-square {out['chi2']:.2f}, df {out['df']}, p = {out['p']:.2g}, {games} games"
    small = " (fewer than 5 expected wins per seat: the test is rough)" if expected < 5 else ""
    if not out["distinguishable"]:
        return f"the seats cannot be told apart at this sample size ({test}){small}"
    best = max(range(len(wins)), key=lambda k: wins[k])
    return (f"the seats differ: seat {best} wins {100 * wins[best] / games:.1f} % against a fair "
            f"{100 / len(wins):.1f} % ({test}){small}")


def length(records: list, players: int) -> dict:
    """Turns and moves (mean, median, histogram) and decisions per seat (mean)."""
    out = {}
    for key in ("turns", "moves"):
        values = [r[key] for r in records]
        out[key] = {"mean": mean_number(values), "median": median_number(values), "histogram": histogram(values)}
    out["decisions_by_seat"] = [mean_number([r["decisions"][k] for r in records if "decisions" in r])
                                for k in range(players)]
    return out


def histogram(values: list) -> list:
    """[[lo, hi, count], …]: equal bins lo <= x < hi (the last one holds the largest value), at most 20."""
    if not values:
        return []
    low, high = min(values), max(values)
    bins = min(MAX_BINS, math.ceil(math.log2(len(values))) + 1)     # Sturges' rule, capped
    if all(float(v).is_integer() for v in values):
        width = max(1, math.ceil((high - low + 1) / bins))          # whole numbers: whole-number bins
        edges = list(range(int(low), int(high) + width + 1, width))
    else:
        width = (high - low) / bins or 1.0
        edges = [low + i * width for i in range(bins + 1)]
    counts = [0] * (len(edges) - 1)
    for v in values:
        counts[min(int((v - edges[0]) // width), len(counts) - 1)] += 1
    while len(counts) > 1 and counts[-1] == 0:                      # whole-number bins may overshoot by one
        counts.pop()
    return [[edges[i], edges[i + 1], c] for i, c in enumerate(counts)]


def seat_histograms(columns: list) -> list:
    """Each seat's scores in bins shared by every seat ([[lo, hi, count], …] per seat), so they compare."""
    edges = [(lo, hi) for lo, hi, _ in histogram([x for column in columns for x in column])]
    if not edges:
        return [[] for _ in columns]
    top = len(edges) - 1
    out = []
    for column in columns:
        counts = [0] * len(edges)
        for x in column:
            counts[next((i for i, (lo, hi) in enumerate(edges) if x < hi), top)] += 1
        out.append([[lo, hi, c] for (lo, hi), c in zip(edges, counts)])
    return out


def closeness(records: list) -> dict:
    """The winners' margin over the runner-up (mean) and the share of games with a shared win."""
    margins = [m for m in (pergame.margin(r) for r in records) if m is not None]
    return {"margin": mean_number(margins),
            "shared_wins": share_number(sum(pergame.shared_win(r) for r in records), len(records))}


def measured(records: list, per_game) -> dict | None:
    """The mean of a per-game value over the games that give one; None (not measured) if none does."""
    values = [v for v in (per_game(r) for r in records) if v is not None]
    if not values:
        return NOT_MEASURED_TRACK
    return {**mean_number(values), "games": len(values)}


def comeback(records: list, players: int) -> dict | None:
    """The share of games with a unique last seat at half-time that this seat went on to win (ties split)."""
    if not any(r.get("track") for r in records):
        return NOT_MEASURED_TRACK
    credits = [c for c in (exact_comeback(r, players) for r in records) if c is not None]
    return {**share_number(float(sum(credits)), len(credits)), "games": len(credits)}


def ratio_number(pairs: list) -> dict:
    """Σy / Σx over games with its interval from the ratio estimator (delta method, clustered by game)."""
    pairs = [(x, y) for x, y in pairs if x > 0]
    n = len(pairs)
    if n == 0:
        return number(None, note=NO_GAMES)
    ratio = sum(y for _, y in pairs) / sum(x for x, _ in pairs)
    if n == 1:
        return number(ratio, note=ONE_GAME)
    mean_x = statistics.fmean(x for x, _ in pairs)
    exact = Fraction(sum(y for _, y in pairs), sum(x for x, _ in pairs))
    residual = sum((y - exact * x) ** 2 for x, y in pairs) / (n - 1)
    half = t_quantile(0.5 + LEVEL / 2, n - 1) * fraction_sqrt(residual / n) / mean_x
    return number(ratio, ratio - half, ratio + half, NO_SPREAD if half == 0 else None)


def choice(records: list) -> dict:
    """Legal moves per decision (over all decisions, interval over games), forced share and histogram."""
    totals = [pergame.choice_totals(r) for r in records]
    forced = ratio_number([(d, f) for d, _, f in totals])
    if forced["value"] is not None and forced["ci95"][0] is not None:
        forced["ci95"] = [max(0.0, forced["ci95"][0]), min(1.0, forced["ci95"][1])]
    merged = {}
    for r in records:
        for legal, count in r.get("choices", {}).items():
            merged[legal] = merged.get(legal, 0) + count
    return {"mean": ratio_number([(d, m) for d, m, _ in totals]), "forced": forced,
            "histogram": {k: merged[k] for k in sorted(merged, key=int)}}


def coverage(points, records: list) -> dict:
    """Rule coverage rows and their warnings; None when the run counted none (or its points are unknown)."""
    rows = coverage_rows(points, records) if points is not None else []
    if not rows:
        return {"coverage": None, "coverage_warnings": None}
    return {"coverage": rows, "coverage_warnings": coverage_warnings(rows, len(records))}


def skill_gap(records: list, players: int, bots: list, fractions: list) -> list | None:
    """For each bot (when the bots differ): the share of each game's win its seats took, against seats / P."""
    names = list(dict.fromkeys(bots))
    if len(names) < 2:
        return None
    out = []
    for name in names:
        shares = [sum((f[k] for k in range(players) if r.get("bots", bots)[k] == name), Fraction(0))
                  for r, f in zip(records, fractions)]
        seats = sum(1 for b in bots if b == name)
        out.append({"bot": name, "seats": seats, "fair_share": seats / players,
                    "share": share_number(float(sum(shares)), len(shares))})
    return out


def stats(records: list) -> dict:
    """Designer stats: a per-seat stat's mean (or share, for a yes/no stat) by seat, a per-game stat's overall."""
    names = list(dict.fromkeys(name for r in records for name in r.get("stats", {})))
    out = {}
    for name in names:
        values = [r["stats"][name] for r in records if name in r.get("stats", {})]
        flat = [x for v in values for x in (v if isinstance(v, list) else [v])]
        share = bool(flat) and all(isinstance(x, bool) for x in flat)      # a yes/no stat: a share of games
        if values and isinstance(values[0], list):
            seats = len(values[0])
            out[name] = {"per_seat": True, "share": share,
                         "by_seat": [stat_number([v[k] for v in values]) for k in range(seats)]}
        else:
            out[name] = {"per_seat": False, "share": share, "all": stat_number(values)}
    return out


def stat_number(values: list) -> dict:
    """A yes/no stat as a share with Wilson, a number as a mean with its t interval."""
    if values and all(isinstance(v, bool) for v in values):
        return share_number(sum(values), len(values))
    return mean_number([float(v) for v in values])
