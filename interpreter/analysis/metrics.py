"""The "intervals" and "metrics" parts of the summary from per-game records (manual, "Analysing a game").

Every number is {"value": v, "ci95": [lo, hi]}: shares use the Wilson score interval (ties split),
means the Student-t interval over games, medians order statistics, ratios over decisions a ratio
estimator over games (decisions within one game are not independent).
"""
from __future__ import annotations

import math
import statistics

from . import pergame
from .coverage import coverage_rows, coverage_warnings
from .intervals import LEVEL, chi2_sf, t_quantile
from .values import NO_GAMES, NO_SPREAD, ONE_GAME, mean_number, median_number, number, share_number

SIGNIFICANCE = 1 - LEVEL
MAX_BINS = 20
NOT_MEASURED_TRACK = None         # a metric that needs `track` in a run made without it: not measured


def summarise(records: list, players: int, bots: list, points=None) -> dict:
    """The summary's "intervals", "metrics" and "score_histogram" of a run; `points` are the program's
    coverage points."""
    fractions = [pergame.win_fractions(r, players) for r in records]
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
    return {"wins_by_seat": [share_number(sum(f[k] for f in fractions), len(records)) for k in range(players)],
            "score_by_seat": [mean_number([r["scores"][k] for r in records]) for k in range(players)],
            "turns": mean_number([r["turns"] for r in records]),
            "moves": mean_number([r["moves"] for r in records])}


def seat_advantage(fractions: list, players: int) -> dict:
    """Win share by seat against the fair share 1/P, with a chi-square goodness-of-fit test over seats."""
    games = len(fractions)
    wins = [sum(f[k] for f in fractions) for k in range(players)]
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
    credits = [c for c in (pergame.comeback(r, players) for r in records) if c is not None]
    return {**share_number(sum(credits), len(credits)), "games": len(credits)}


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
    residual = sum((y - ratio * x) ** 2 for x, y in pairs) / (n - 1)
    half = t_quantile(0.5 + LEVEL / 2, n - 1) * math.sqrt(residual / n) / mean_x
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
        shares = [sum(f[k] for k in range(players) if r.get("bots", bots)[k] == name)
                  for r, f in zip(records, fractions)]
        seats = sum(1 for b in bots if b == name)
        out.append({"bot": name, "seats": seats, "fair_share": seats / players,
                    "share": share_number(sum(shares), len(shares))})
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
