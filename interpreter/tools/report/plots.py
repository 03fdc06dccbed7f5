"""The report's plots, drawn with matplotlib as SVG text to put inline in the page.

matplotlib is imported when the first plot is drawn, not when cardrules starts: it takes over a
second to import, and only a report needs it. Figures are made with `matplotlib.figure.Figure`
(no pyplot, no display, no GUI backend) and saved by the SVG backend, with a fixed hash salt per
figure and no date or creator in the metadata, so that the same summary gives the same file.
Text is kept as SVG text (no font files), and mathtext is off: a `$` in a name stays a `$`.
"""
from __future__ import annotations

import importlib
import io
import re

from ..safe_text import clipped

RC = {"svg.fonttype": "none", "text.parse_math": False, "font.size": 9, "axes.spines.top": False,
      "axes.spines.right": False, "axes.grid": True, "grid.alpha": 0.3, "figure.dpi": 72}
NO_METADATA = {"Date": None, "Creator": None, "Format": None, "Type": None}
LABEL = 32                      # characters of a label shown on an axis


def label(text) -> str:
    """An outside label, short enough for an axis, control characters shown."""
    return clipped(str(text), LABEL)


class Plots:
    """Draws figures to SVG; the nth figure of a report gets the hash salt n, so ids never clash."""

    def __init__(self):
        # imported here, not at the top: matplotlib costs >1 s to import and only reports need it
        self.mpl = importlib.import_module("matplotlib")
        self.figure_class = importlib.import_module("matplotlib.figure").Figure
        self.drawn = 0

    def svg(self, fig) -> str:
        """The figure as an inline <svg> element: no XML prolog, no DOCTYPE, no namespace URLs."""
        self.drawn += 1
        out = io.StringIO()
        with self.mpl.rc_context({**RC, "svg.hashsalt": f"cardrules-report-{self.drawn}"}):
            fig.savefig(out, format="svg", metadata=NO_METADATA)
        text = out.getvalue()
        start = text.index("<svg")
        end = text.index(">", start)
        opening = re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", text[start:end])
        return own_ids(opening + text[end:].rstrip() + "\n", f"f{self.drawn}-")

    def draw(self, build, *args, width: float = 4.6, height: float = 2.8) -> str:
        """build(fig, *args) under the report's settings, returned as SVG."""
        with self.mpl.rc_context(RC):
            fig = self.figure_class(figsize=(width, height), layout="constrained")
            build(fig, *args)
            return self.svg(fig)


def own_ids(svg: str, prefix: str) -> str:
    """Every id of a figure, and every reference to one, prefixed: figures share a page, and matplotlib
    names every figure's parts alike (figure_1, axes_1). Only tags change, never drawn text."""
    def retag(match):
        tag = re.sub(r'(?<=\s)id="([^"]*)"', lambda m: f'id="{prefix}{m.group(1)}"', match.group(0))
        tag = re.sub(r"url\(#([^)]*)\)", lambda m: f"url(#{prefix}{m.group(1)})", tag)
        return re.sub(r'href="#([^"]*)"', lambda m: f'href="#{prefix}{m.group(1)}"', tag)
    return re.sub(r"<[^>]+>", retag, svg)


def error_bars(rows):
    """Values and asymmetric error lengths of (v, lo, hi) rows (None when no row has an interval)."""
    values = [v for v, _, _ in rows]
    if all(lo is None for _, lo, _ in rows):
        return values, None
    below = [v - lo if lo is not None else 0 for v, lo, _ in rows]
    above = [hi - v if hi is not None else 0 for v, _, hi in rows]
    return values, [below, above]


def scaled(err, factor: float):
    """Error lengths times factor (None stays None)."""
    return None if err is None else [[factor * e for e in side] for side in err]


def seat_shares(fig, seats: list, groups: list, fair):
    """Win share per seat, one bar per group (a run, or A and B), interval bars and the fair share."""
    ax = fig.add_subplot()
    width = 0.8 / max(len(groups), 1)
    for g, (name, rows) in enumerate(groups):
        xs = [i + (g - (len(groups) - 1) / 2) * width for i, row in enumerate(rows) if row is not None]
        got = [row for row in rows if row is not None]
        values, err = error_bars(got)
        ax.bar(xs, [100 * v for v in values], width * 0.9, yerr=scaled(err, 100),
               capsize=3, color=f"C{g}", label=label(name) if name else None)
    if fair is not None:
        ax.axhline(100 * fair, color="#444", linestyle="--", linewidth=1, label=f"fair share {100 * fair:.1f} %")
    ax.set_xticks(range(len(seats)), [label(s) for s in seats])
    ax.set_ylabel("win share (%)")
    ax.set_ylim(bottom=0)
    fig.legend(loc="outside upper center", ncols=len(groups) + 1, fontsize=8, frameon=False)


def histograms(fig, series: list, xlabel: str):
    """One histogram per series of (lo, hi, count) bins: bars for one series, outlines for several."""
    histogram_on(fig.add_subplot(), series, xlabel)


def histogram_panels(fig, panels: list):
    """Histograms side by side: one panel per (name, bins, xlabel)."""
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, (name, rows, xlabel) in zip(axes, panels):
        histogram_on(ax, [(name, rows)], xlabel)


def histogram_on(ax, series: list, xlabel: str):
    """Draw (name, bins) series on one axes."""
    for k, (name, bins) in enumerate(series):
        lefts = [lo for lo, _, _ in bins]
        widths = [max(hi - lo, 0) or 1 for lo, hi, _ in bins]
        counts = [c for _, _, c in bins]
        if len(series) == 1:
            ax.bar(lefts, counts, widths, align="edge", color="C0", edgecolor="white", linewidth=0.5)
        else:
            edges, heights = contiguous(bins)
            ax.stairs(heights, edges, color=f"C{k}", linewidth=1.5, label=label(name))
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    if len(series) > 1:
        ax.legend(fontsize=8)


def contiguous(bins: list):
    """Edges and heights of sorted (lo, hi, count) bins for a step outline, a gap between bins at zero."""
    edges, heights = [bins[0][0]], []
    for lo, hi, count in bins:
        if lo > edges[-1]:
            edges.append(lo)
            heights.append(0)
        edges.append(max(hi, edges[-1] + 1e-9))
        heights.append(count)
    return edges, heights


def bar_counts(fig, keys: list, counts: list, xlabel: str, ylabel: str):
    """A bar per number (e.g. decisions by number of legal moves); a number never seen leaves a gap."""
    ax = fig.add_subplot()
    ax.bar(keys, counts, 0.8, color="C0")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)


def forest(fig, rows: list, zero: bool):
    """One row per estimate (name, v, lo, hi, limits), each on its own scale; a zero line for differences."""
    axes = fig.subplots(len(rows), 1, squeeze=False)[:, 0]
    for ax, (name, v, lo, hi, limits) in zip(axes, rows):
        (values, err) = error_bars([(v, lo, hi)])
        clear = lo is not None and zero and (lo > 0 or hi < 0)
        ax.errorbar(values, [0], xerr=err, fmt="o", color="C3" if clear else "C0", capsize=4)
        if zero:
            ax.axvline(0, color="#444", linestyle="--", linewidth=1)
        if limits is not None:
            ax.set_xlim(*limits)
        ax.set_yticks([0], [label(name)])
        ax.set_ylim(-1, 1)
        ax.grid(axis="y", visible=False)


def sweep_panels(fig, panels: list, ticks: list, numeric_x, xlabel: str):
    """Small multiples: each metric against the varied value, with interval bars."""
    columns = min(3, len(panels))
    rows = -(-len(panels) // columns)
    axes = fig.subplots(rows, columns, squeeze=False).ravel()
    xs = numeric_x if numeric_x is not None else list(range(len(ticks)))
    for ax, (title, series, percent) in zip(axes, panels):
        scale = 100 if percent else 1
        for k, (name, points) in enumerate(series):
            got = [(x, p) for x, p in zip(xs, points) if p is not None]
            if not got:
                continue
            values, err = error_bars([p for _, p in got])
            ax.errorbar([x for x, _ in got], [scale * v for v in values], yerr=scaled(err, scale),
                        fmt="o-", capsize=3, color=f"C{k}", label=label(name) if len(series) > 1 else None)
        ax.set_title(label(title) + (" (%)" if percent else ""), fontsize=9)
        if xlabel:
            ax.set_xlabel(label(xlabel))
        if numeric_x is None:
            ax.set_xticks(xs, [label(t) for t in ticks], rotation=30 if len(ticks) > 4 else 0)
        if len(series) > 1:
            ax.legend(fontsize=7)
    for ax in axes[len(panels):]:
        ax.set_visible(False)
