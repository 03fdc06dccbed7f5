"""Numbers with their intervals in the JSON form of the summary: {"value": v, "ci95": [lo, hi]}.

A number that is undefined is null (None), never NaN; a "note" says why an interval is missing
or has width 0, so a reader never takes a degenerate interval for certainty.
"""
from __future__ import annotations

from .intervals import mean_ci, median_ci, median_coverage, wilson

ONE_GAME = "one game: no interval"
NO_GAMES = "no games"
NO_SPREAD = "every game gave the same value: the interval has width 0"


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
