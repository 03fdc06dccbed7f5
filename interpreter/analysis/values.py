"""Numbers with their intervals in the JSON form of the summary: {"value": v, "ci95": [lo, hi]}, and
the exact running sums and value counts they are made from.

A number that is undefined is null (None), never NaN; a "note" says why an interval is missing
or has width 0, so a reader never takes a degenerate interval for certainty. The sums are exact
(as `statistics` keeps them) and the counts are counts, so a number made from many partial sums
merged in any order is the same number, bit for bit, as one made from the list of values.
"""
from __future__ import annotations

import bisect
import math
from fractions import Fraction

from .intervals import fraction_sqrt, mean_interval, median_coverage, ranked_median_ci, wilson

ONE_GAME = "one game: no interval"
NO_GAMES = "no games"
NO_SPREAD = "every game gave the same value: the interval has width 0"
MAX_BINS = 20
CAP = 4096                  # the distinct values a count keeps before it bins them (memory stays flat)
FINEST = -32                # the finest bin width tried then: 2 ** -32


class Moments:
    """The count, exact sum and exact sum of squares of some numbers (partials keyed by denominator,
    as statistics._ss keeps them), and their smallest and largest."""

    def __init__(self):
        self.n = 0
        self.sx = {}            # denominator → sum of numerators
        self.sxx = {}           # denominator → sum of squared numerators (over denominator²)
        self.low = self.high = None

    @classmethod
    def of(cls, values) -> Moments:
        out = cls()
        for v in values:
            out.add(v)
        return out

    def add(self, x) -> None:
        num, den = x.as_integer_ratio()
        self.n += 1
        self.sx[den] = self.sx.get(den, 0) + num
        self.sxx[den] = self.sxx.get(den, 0) + num * num
        self.bound(x, x)

    def bound(self, low, high) -> None:
        """Widen [low, high] to hold these; of two equal bounds the float one stands (order-free)."""
        if self.low is None or low < self.low or (low == self.low and type(low) is float):
            self.low = low
        if self.high is None or high > self.high or (high == self.high and type(high) is float):
            self.high = high

    def merge(self, other: Moments) -> None:
        if not other.n:
            return
        self.n += other.n
        for mine, theirs in ((self.sx, other.sx), (self.sxx, other.sxx)):
            for den, num in theirs.items():
                mine[den] = mine.get(den, 0) + num
        self.bound(other.low, other.high)

    def total(self) -> Fraction:
        return sum((Fraction(num, den) for den, num in self.sx.items()), Fraction(0))

    def mean(self) -> float:
        """The mean as statistics.fmean gives it: the correctly rounded sum over n."""
        return float(self.total()) / self.n

    def squares(self) -> Fraction:
        """The exact sum of squared deviations from the mean."""
        sx = self.total()
        sxx = sum((Fraction(num, den * den) for den, num in self.sxx.items()), Fraction(0))
        return (self.n * sxx - sx * sx) / self.n

    def pstdev(self) -> float:
        return fraction_sqrt(self.squares() / self.n)

    def stdev(self) -> float:
        return fraction_sqrt(self.squares() / (self.n - 1))


def coarse(x, exponent: int):
    """x rounded down to a multiple of 2 ** exponent (whole numbers stay whole, floats too large to
    have a finer part stay as they are)."""
    width = 1 << exponent if exponent >= 0 else 2.0 ** exponent
    if type(x) is int:
        return x if exponent < 0 else x // width * width
    if abs(x) >= 2.0 ** 52 * width:
        return x
    q = math.floor(x / width)
    if q * width > x:           # x / width rounded up to a whole number (-5e-324 / 2 is -0.0)
        q -= 1
    return q * width


class Counts:
    """How often each value came (value → count). Past `cap` distinct values the values are binned to
    multiples of the smallest power of two 2 ** exponent that fits: binning commutes with adding, so
    the width depends on the values only, never on their order or on how the counts were split."""

    def __init__(self, cap: int | None = CAP):
        self.counts = {}
        self.floats = set()     # whole values that came as floats (3.0): shown as floats
        self.n = 0
        self.exponent = None    # None: exact
        self.cap = cap

    @classmethod
    def of(cls, values, cap: int | None = CAP) -> Counts:
        out = cls(cap)
        for v in values:
            out.add(v)
        return out

    def key(self, k):
        return float(k) if k in self.floats else k

    def add(self, x, times: int = 1) -> None:
        if self.exponent is not None:
            x = coarse(x, self.exponent)
        self.counts[x] = self.counts.get(x, 0) + times
        self.n += times
        if type(x) is float and x.is_integer():
            self.floats.add(x)
        if self.cap is not None and len(self.counts) > self.cap:
            self.coarsen()

    def merge(self, other: Counts) -> None:
        if other.exponent is not None and (self.exponent is None or other.exponent > self.exponent):
            self.rebin(other.exponent)
        for k, times in other.counts.items():
            self.add(other.key(k), times)

    def coarsen(self) -> None:
        """Bin to the finest width past the present one at which the values fit the cap."""
        exponent = FINEST if self.exponent is None else self.exponent + 1
        keys = [self.key(k) for k in self.counts]
        while len({coarse(k, exponent) for k in keys}) > self.cap:
            exponent += 1
        self.rebin(exponent)

    def rebin(self, exponent: int) -> None:
        old = [(self.key(k), times) for k, times in self.counts.items()]
        self.counts, self.floats, self.n, self.exponent = {}, set(), 0, exponent
        for k, times in old:
            self.add(k, times)

    def items(self) -> list:
        """[(value, count), …] by value."""
        return [(self.key(k), self.counts[k]) for k in sorted(self.counts)]

    def width(self):
        """The width the values were binned to (None: exact)."""
        return None if self.exponent is None else 2.0 ** self.exponent

    def ranked(self):
        """at(i): the i-th smallest value (from 0)."""
        items = self.items()
        ends = []
        total = 0
        for _, times in items:
            total += times
            ends.append(total)
        return lambda i: items[bisect.bisect_right(ends, i)][0]


def approximate(width) -> str:
    return f"approximate: the values were binned to multiples of {width:g} to keep memory flat"


def number(value, lo=None, hi=None, note: str | None = None) -> dict:
    """A number and its 95 % interval (with a note when the interval is missing or degenerate)."""
    out = {"value": value, "ci95": [lo, hi]}
    if note:
        out["note"] = note
    return out


def mean_number(values: list) -> dict:
    """The mean of per-game values with its Student-t interval."""
    return mean_of(Moments.of(values))


def mean_of(m: Moments) -> dict:
    """`mean_number` from the values' exact sums."""
    if not m.n:
        return number(None, note=NO_GAMES)
    mean = m.mean()
    if m.n == 1:
        return number(mean, note=ONE_GAME)
    if m.low == m.high:                          # no spread: the interval is the single value, width 0
        return number(mean, mean, mean, NO_SPREAD)
    lo, hi = mean_interval(mean, m.stdev(), m.n)
    return number(mean, lo, hi, NO_SPREAD if lo == hi else None)


def median_number(values: list) -> dict:
    """The median of per-game values with its distribution-free order-statistic interval."""
    return median_of(Counts.of(values, cap=None))


def median_of(c: Counts) -> dict:
    """`median_number` from the values' counts (approximate, with a note, when they were binned)."""
    median, lo, hi = ranked_median_ci(c.n, c.ranked())
    if not c.n:
        return number(None, note=NO_GAMES)
    if c.n == 1:
        return number(median, note=ONE_GAME)
    if c.n < 6:
        cover = round(100 * median_coverage(c.n))
        return number(median, lo, hi, f"fewer than 6 games: smallest to largest, which holds the median only "
                                      f"{cover} % of the time")
    if c.exponent is not None:
        return number(median, lo, hi, approximate(c.width()))
    return number(median, lo, hi, NO_SPREAD if lo == hi else None)


def share_number(successes: float, n: int) -> dict:
    """A share of n games (fractional successes allowed) with its Wilson score interval."""
    if n <= 0:
        return number(None, note=NO_GAMES)
    lo, hi = wilson(successes, n)
    return number(successes / n, lo, hi)


def histogram(values: list) -> list:
    """[[lo, hi, count], …]: equal bins lo <= x < hi (the last one holds the largest value), at most 20."""
    return histogram_of(Counts.of(values, cap=None).items())


def histogram_of(items: list) -> list:
    """`histogram` from [(value, count), …] by value."""
    if not items:
        return []
    n = sum(times for _, times in items)
    low, high = items[0][0], items[-1][0]
    bins = min(MAX_BINS, math.ceil(math.log2(n)) + 1)               # Sturges' rule, capped
    if all(float(v).is_integer() for v, _ in items):
        width = max(1, math.ceil((high - low + 1) / bins))          # whole numbers: whole-number bins
        edges = list(range(int(low), int(high) + width + 1, width))
    else:
        width = (high - low) / bins or 1.0
        edges = [low + i * width for i in range(bins + 1)]
    counts = [0] * (len(edges) - 1)
    for v, times in items:
        counts[min(int((v - edges[0]) // width), len(counts) - 1)] += times
    while len(counts) > 1 and counts[-1] == 0:                      # whole-number bins may overshoot by one
        counts.pop()
    return [[edges[i], edges[i + 1], c] for i, c in enumerate(counts)]


def seat_histograms_of(columns: list) -> list:
    """Each seat's values ([(value, count), …] per seat) in bins shared by every seat, so they compare."""
    pooled = Counts(cap=None)
    for items in columns:
        for v, times in items:
            pooled.add(v, times)
    edges = [(lo, hi) for lo, hi, _ in histogram_of(pooled.items())]
    if not edges:
        return [[] for _ in columns]
    top = len(edges) - 1
    out = []
    for items in columns:
        counts = [0] * len(edges)
        for x, times in items:
            counts[next((i for i, (lo, hi) in enumerate(edges) if x < hi), top)] += times
        out.append([[lo, hi, c] for (lo, hi), c in zip(edges, counts)])
    return out
