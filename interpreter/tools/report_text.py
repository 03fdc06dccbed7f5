"""Compact histograms for the terminal: a few lines of block characters under simulate's table.

    text_histogram([41, 37, 52, …], width=60)          raw values (whole numbers: a column per value
                                                        where they fit, else equal-width bins)
    text_histogram([[28, 32, 10], [32, 36, 25]], 60)   bins as [lo, hi, count]
    text_histogram({"1": 12, "3": 40}, 60)             counts by value

returns `height` lines of bars (the tallest column full) and an axis line with the lowest and
highest value, each line at most `width` characters.
"""
from __future__ import annotations

import math

BLOCKS = " ▁▂▃▄▅▆▇█"
LEVELS = len(BLOCKS) - 1


def _num(x):
    """x as a finite float, or None."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        try:
            x = float(x)
        except (TypeError, ValueError):
            return None
    return float(x) if math.isfinite(x) else None


def as_bins(data) -> list:
    """(lo, hi, count) rows from raw values, [lo, hi, count] rows or {value: count}, sorted."""
    if isinstance(data, dict):
        rows = [(_num(k), _num(c)) for k, c in data.items()]
        return sorted((v, v, c) for v, c in rows if v is not None and c is not None)
    data = list(data or [])
    if data and all(isinstance(row, (list, tuple)) and len(row) == 3 for row in data):
        rows = [tuple(_num(x) for x in row) for row in data]
        return sorted(row for row in rows if None not in row)
    values = [v for v in (_num(x) for x in data) if v is not None]
    return sorted((v, v, 1.0) for v in values)


def columns(bins: list, width: int) -> list:
    """At most `width` (lo, hi, count) columns: given bins as they are (neighbours merged to fit),
    values in about 2·n^(1/3) equal steps (Rice's rule; a whole step for whole numbers)."""
    if any(lo != hi for lo, hi, _ in bins):
        group = -(-len(bins) // width)
        return [(bins[i][0], bins[min(i + group, len(bins)) - 1][1], sum(c for _, _, c in bins[i:i + group]))
                for i in range(0, len(bins), group)]
    lo, hi = bins[0][0], bins[-1][0]
    target = min(width, max(8, math.ceil(2 * sum(c for _, _, c in bins) ** (1 / 3))))
    if all(float(v).is_integer() for v, _, _ in bins):
        step = math.ceil((hi - lo + 1) / target)
        cols = [[lo + i * step, lo + (i + 1) * step - 1, 0.0] for i in range(math.ceil((hi - lo + 1) / step))]
    else:
        step = (hi - lo) / target or 1.0
        cols = [[lo + i * step, lo + (i + 1) * step, 0.0] for i in range(target if hi > lo else 1)]
    for v, _, c in bins:
        cols[min(len(cols) - 1, int((v - lo) // step))][2] += c
    return [tuple(col) for col in cols]


def bar_rows(counts: list, height: int) -> list:
    """`height` lines of block characters, top line first; a non-zero count shows at least ▁."""
    top = max(counts) or 1
    units = [0 if c <= 0 else max(1, round(c / top * height * LEVELS)) for c in counts]
    rows = []
    for line in range(height - 1, -1, -1):
        rows.append("".join(BLOCKS[min(LEVELS, max(0, u - line * LEVELS))] for u in units).rstrip())
    return rows


def label(v: float) -> str:
    """An axis value: whole numbers without a point, others to three significant digits."""
    return str(int(v)) if float(v).is_integer() else f"{v:.3g}"


def axis(lo: float, hi: float, span: int, width: int) -> str:
    """The lowest value under the first column and the highest under the last (within width)."""
    left, right = label(lo), label(hi)
    if lo == hi:
        return left[:width]
    gap = max(span, len(left) + len(right) + 1) - len(left) - len(right)
    line = left + " " * gap + right
    short = f"{left}…{right}"
    return line if len(line) <= width else short if len(short) <= width else (left + "…")[:width]


def text_histogram(data, width: int = 60, height: int = 2) -> list:
    """A histogram of values or bins as `height` lines of block characters and an axis line."""
    width, height = max(1, int(width)), max(1, int(height))
    bins = as_bins(data)
    if not bins or sum(c for _, _, c in bins) <= 0:
        return ["(no values)"[:width]]
    cols = columns(bins, width)
    stretch = max(1, min(4, width // len(cols)))      # a few characters a column where there is room
    counts = [c for _, _, c in cols for _ in range(stretch)]
    return bar_rows(counts, height) + [axis(cols[0][0], cols[-1][1], len(counts), width)]


def labelled_histograms(rows: list, width: int = 80, height: int = 2) -> list:
    """Histograms one under another, each (label, data) with its label left of its bottom bar line."""
    rows = list(rows)
    pad = max((len(str(name)) for name, _ in rows), default=0) + 2
    out = []
    for name, data in rows:
        lines = text_histogram(data, width - pad, height)
        bars = len(lines) - 1
        for i, line in enumerate(lines):
            out.append(((str(name) if i == bars - 1 or bars == 0 else "").ljust(pad) + line).rstrip())
    return out
