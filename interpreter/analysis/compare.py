"""Paired comparison of two runs on the same seeds and bots (manual, "Analysing a game", comparing variants).

Game i of A pairs with game i of B: for every metric with a per-game value, B − A is the mean of
the per-game differences with a paired t interval and p-value, and a verdict says it in words.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from ..errors import UsageError
from . import pergame
from .intervals import LEVEL, games_needed, paired_diff
from .values import mean_number, share_number

SIGNIFICANCE = 1 - LEVEL
SHARE_DELTA = 0.02            # a difference worth detecting in a share: 2 points
DECISIVE_DELTA = 0.05         # in decisiveness (a share of the game): 5 points
TURN_DELTA = 1.0              # in game length: 1 turn
RELATIVE_DELTA = 0.10         # in any other count: 10 % of A's mean (1 when A's mean is 0)
ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]


@dataclass(frozen=True)
class Metric:
    """A metric with a per-game value: how to name it, its unit, and the difference worth detecting."""

    key: str
    label: str                # "the first seat's win share"
    unit: str                 # "turns", "points" (a share, shown ×100), "" for a bare number
    share: bool = False       # a share of games: A and B get Wilson intervals, differences are in points
    delta: float | None = None    # None: RELATIVE_DELTA of A's mean
    up: str = ""              # the verb phrase when B is higher ("lengthens games"); default "raises LABEL"
    down: str = ""


def seat_word(seat: int) -> str:
    """'first', 'second', … for a 0-based seat."""
    return ORDINALS[seat] if seat < len(ORDINALS) else f"number {seat + 1}"


def check_pairing(a: list, b: list) -> None:
    """Refuse two runs whose games do not pair: same number of games, seeds and bots game by game."""
    if len(a) != len(b):
        raise UsageError(f"the two runs do not pair: A has {len(a)} games and B has {len(b)} "
                         f"(compare runs made with the same --games and --seed)")
    for i, (x, y) in enumerate(zip(a, b)):
        if x.get("seed") != y.get("seed"):
            raise UsageError(f"the two runs do not pair: game {i} has seed {x.get('seed')} in A and "
                             f"{y.get('seed')} in B (compare runs made with the same --seed)")
        if x.get("bots") != y.get("bots") or len(x["scores"]) != len(y["scores"]):
            raise UsageError(f"the two runs do not pair: game {i} has bots {x.get('bots')} in A and "
                             f"{y.get('bots')} in B (compare runs made with the same --bots and --players)")


def is_cooperative(records: list) -> bool:
    """Whether the run of these records is a cooperative game's (its lines say so in `run`)."""
    return bool(records) and (records[0].get("run") or {}).get("cooperative") is True


def check_same_kind(a: bool, b: bool) -> None:
    """Refuse to pair a cooperative run with a competitive one: their win numbers measure different things."""
    if a != b:
        coop, other = ("A", "B") if a else ("B", "A")
        raise UsageError(f"{coop} is a cooperative game (the table wins or loses together) and {other} is not: "
                         "a table's win rate and the seats' win shares do not compare; simulate each on its own")


def metrics_of(records: list, players: int) -> list:
    """Every metric with a per-game value, with its values over `records` (None where a game gives none);
    a cooperative run's: the table's win rate and the shared score instead of the seats' and the lead's."""
    out = [(Metric("turns", "game length", "turns", delta=TURN_DELTA, up="lengthens games",
                   down="shortens games"), [r["turns"] for r in records]),
           (Metric("moves", "moves per game", "moves"), [r["moves"] for r in records])]
    if is_cooperative(records):
        return out + table_metrics(records) + choice_metrics(records) + \
            [decisions_metric(k, records) for k in range(players)] + stat_metrics(records)
    fractions = [pergame.win_fractions(r, players) for r in records]
    out += [(Metric("margin", "the winner's margin", "points of score"), [pergame.margin(r) for r in records]),
            (Metric("shared_wins", "the share of shared wins", "points", share=True),
             [1.0 if pergame.shared_win(r) else 0.0 for r in records]),
            (Metric("lead_changes", "lead changes per game", ""), [pergame.lead_changes(r) for r in records]),
            (Metric("decisiveness", "decisiveness", "points", delta=DECISIVE_DELTA),
             [pergame.decisiveness(r) for r in records]),
            (Metric("comeback", "the comeback rate", "points", share=True),
             [pergame.comeback(r, players) for r in records])] + choice_metrics(records)
    for k in range(players):
        seat = seat_word(k)
        out += [(Metric(f"wins_by_seat.{k}", f"{seat}-seat advantage", "points", share=True),
                 [f[k] for f in fractions]),
                (Metric(f"score_by_seat.{k}", f"the {seat} seat's score", "points of score"),
                 [r["scores"][k] for r in records]),
                decisions_metric(k, records)]
    return out + stat_metrics(records)


def table_metrics(records: list) -> list:
    """A cooperative run's own: the table's win rate (a share) and the shared score (every seat's)."""
    return [(Metric("table_wins", "the table's win rate", "points", share=True),
             [1.0 if r["winners"] else 0.0 for r in records]),
            (Metric("shared_score", "the shared score", "points of score"), [r["scores"][0] for r in records])]


def choice_metrics(records: list) -> list:
    return [(Metric("choice.mean", "legal moves per decision", ""), [pergame.choice_mean(r) for r in records]),
            (Metric("choice.forced", "the share of forced decisions", "points", delta=SHARE_DELTA),
             [pergame.forced_share(r) for r in records])]


def decisions_metric(k: int, records: list) -> tuple:
    return (Metric(f"decisions_by_seat.{k}", f"the {seat_word(k)} seat's decisions per game", "decisions"),
            [r["decisions"][k] if "decisions" in r else None for r in records])


def stat_metrics(records: list) -> list:
    """Each designer stat as a metric (a per-seat stat once per seat); a yes/no stat is a share."""
    names = list(dict.fromkeys(name for r in records for name in r.get("stats", {})))
    out = []
    for name in names:
        values = [r.get("stats", {}).get(name) for r in records]
        present = [v for v in values if v is not None]
        if present and isinstance(present[0], list):
            for k in range(len(present[0])):
                column = [None if v is None else v[k] for v in values]
                out.append((stat_metric(f"stats.{name}.{k}", f"stat {name} of the {seat_word(k)} seat", column),
                            as_numbers(column)))
        else:
            out.append((stat_metric(f"stats.{name}", f"stat {name}", values), as_numbers(values)))
    return out


def stat_metric(key: str, label: str, values: list) -> Metric:
    """A stat's metric: a share when every value is yes/no, else a bare number."""
    flags = [v for v in values if v is not None]
    if flags and all(isinstance(v, bool) for v in flags):
        return Metric(key, f"the share of games with {label}", "points", share=True)
    return Metric(key, label, "")


def as_numbers(values: list) -> list:
    """Yes/no as 1/0, numbers as floats, missing as None."""
    return [None if v is None else float(v) for v in values]


def compare(records_a: list, records_b: list) -> dict:
    """B − A for every metric with a per-game value, paired game by game: {"games", "diff": {key: …}}."""
    check_pairing(records_a, records_b)
    check_same_kind(is_cooperative(records_a), is_cooperative(records_b))
    players = len(records_a[0]["scores"]) if records_a else 0
    series_a = metrics_of(records_a, players)
    series_b = dict((m.key, values) for m, values in metrics_of(records_b, players))
    diff = {}
    for metric, values_a in series_a:
        values_b = series_b.get(metric.key, [None] * len(values_a))
        diff[metric.key] = compare_one(metric, values_a, values_b)
    for metric, values_b in metrics_of(records_b, players):        # a stat only B has: nothing to pair
        if metric.key not in diff:
            diff[metric.key] = compare_one(metric, [None] * len(values_b), values_b)
    return {"games": len(records_a), "diff": diff}


def compare_one(metric: Metric, values_a: list, values_b: list) -> dict:
    """One metric: A, B, B − A with interval and p over the games where both give a value, and a verdict."""
    pairs = [(x, y) for x, y in zip(values_a, values_b) if x is not None and y is not None]
    a, b = [x for x, _ in pairs], [y for _, y in pairs]
    out = {**paired_diff(a, b), "a": side(metric, a), "b": side(metric, b), "games": len(pairs),
           "share": metric.unit == "points"}       # a share of games (or of a game): shown in points
    out["delta"] = worth_detecting(metric, a)
    diffs = [y - x for x, y in pairs]
    out["games_needed"] = (games_needed(statistics.stdev(diffs), out["delta"])
                           if len(diffs) >= 2 and out["delta"] > 0 else None)
    out["verdict"] = verdict(metric, out)
    return out


def side(metric: Metric, values: list) -> dict:
    """One run's value of a metric over the paired games: a share with Wilson, or a mean with its t interval."""
    return share_number(sum(values), len(values)) if metric.share else mean_number(values)


def worth_detecting(metric: Metric, a: list) -> float:
    """The difference worth detecting: the metric's own, 2 points for a share, else 10 % of A's mean (or 1)."""
    if metric.delta is not None:
        return metric.delta
    if metric.share:
        return SHARE_DELTA
    mean = abs(statistics.fmean(a)) if a else 0.0
    return RELATIVE_DELTA * mean if mean > 0 else 1.0


def verdict(metric: Metric, out: dict) -> str:
    """The difference in words: a detected change with its interval, or none with the games that would see one."""
    n, value, p = out["games"], out["value"], out["p"]
    if n == 0:
        return f"{metric.label}: not measured in these games"
    if p is None:
        return f"{metric.label}: too few paired games to compare ({n})"
    if out["ci95"][0] == out["ci95"][1] == 0:
        return f"no difference in {metric.label}: A and B gave the same value in every game"
    phrase = (metric.up or f"raises {metric.label}") if value > 0 else (metric.down or f"lowers {metric.label}")
    if out["ci95"][0] == out["ci95"][1]:
        return f"B {phrase} by {amount(metric, abs(value))} in every game"
    if p < SIGNIFICANCE:
        lo, hi = sorted(abs(x) for x in out["ci95"]) if value > 0 else sorted(-x for x in out["ci95"])
        return (f"B {phrase} by {amount(metric, abs(value))} (95 % CI {amount(metric, lo, False)} to "
                f"{amount(metric, hi, False)}; {p_text(p)})")
    need = out["games_needed"]
    tail = f"; about {about(need)} games would detect {amount(metric, out['delta'])}" if need else ""
    return f"no detectable difference in {metric.label} ({p_text(p)}){tail}"


def amount(metric: Metric, x: float, unit: bool = True) -> str:
    """A difference as a designer reads it: shares in points (×100), counts to a sensible precision."""
    scaled = 100 * x if metric.unit == "points" else x
    text = decimal(scaled)
    if not unit or not metric.unit:
        return text
    first, _, rest = metric.unit.partition(" ")
    words = metric.unit if text != "1" else " ".join(w for w in (first.removesuffix("s"), rest) if w)
    return f"{text} {words}"


def decimal(x: float) -> str:
    """Whole numbers and numbers from 100 up without decimals, 1 decimal from 1 up, 2 significant digits below."""
    if abs(x) >= 100 or (x == int(x) and x != 0):
        return f"{x:,.0f}"
    if abs(x) >= 1 or x == 0:
        return f"{x:.1f}"
    return f"{x:.2g}"


def p_text(p: float) -> str:
    """'p = 0.41' (three decimals below 0.01), or 'p < 0.001'."""
    return "p < 0.001" if p < 0.001 else f"p = {p:.2f}" if p >= 0.01 else f"p = {p:.3f}"


def about(n: int) -> str:
    """A number of games rounded up to two significant digits, with thousands separators."""
    if n < 100:
        return str(n)
    step = 10 ** (len(str(n)) - 2)
    return f"{math.ceil(n / step) * step:,}"
