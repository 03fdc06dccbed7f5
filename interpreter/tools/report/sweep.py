"""A sweep's report: one row per varied value, and each metric plotted against it."""
from __future__ import annotations

from .page import cell, esc, fmt, interval, not_measured, number, table
from .summary import dig, figure, header, is_cooperative, length_entry, seat_names, win_rows
from . import plots as draw

SCALARS = [("table wins", lambda s: dig(s, "cooperative", "table_wins"), True),      # cooperative runs only
           ("shared score", lambda s: dig(s, "cooperative", "score"), False),
           ("turns per game", lambda s: length_entry(s, "turns", "mean"), False),
           ("winner's margin", lambda s: dig(s, "metrics", "closeness", "margin"), False),
           ("lead changes per game", lambda s: dig(s, "metrics", "lead_changes"), False),
           ("decisiveness", lambda s: dig(s, "metrics", "decisiveness"), True),
           ("comeback rate", lambda s: dig(s, "metrics", "comeback"), True),
           ("legal moves per decision", lambda s: dig(s, "metrics", "choice", "mean"), False),
           ("forced decisions", lambda s: dig(s, "metrics", "choice", "forced"), True)]


def seat_series(summaries: list, rows_of) -> list:
    """(seat name, [one (v, lo, hi) or None per sweep row]) for every seat any row has."""
    per_row = [rows_of(s) for s in summaries]
    seats = max((len(r) for r in per_row), default=0)
    names = max((seat_names(s) for s in summaries), key=len, default=[])
    return [(names[k] if k < len(names) else f"seat {k}", [r[k] if k < len(r) else None for r in per_row])
            for k in range(seats)]


def panels(summaries: list) -> list:
    """(title, series, percent) of every metric that at least one row has."""
    found = [("win share by seat", seat_series(summaries, win_rows), True),
             ("mean score by seat", seat_series(summaries, seat_scores), False)]
    found += [(title, [("", [interval(get(s)) for s in summaries])], percent) for title, get, percent in SCALARS]
    return [(t, series, p) for t, series, p in found
            if any(point is not None for _, points in series for point in points)]


def seat_scores(summary: dict) -> list:
    """Every seat's mean score as (v, lo, hi); none in a cooperative run (the shared score is one number)."""
    if is_cooperative(summary):
        return []
    return [interval(e) for e in (dig(summary, "intervals", "score_by_seat") or dig(summary, "score", "mean_by_seat")
                                  or [])]


def numeric_axis(labels: list):
    """The varied values as numbers when every label is NAME=number for one NAME, else None."""
    names, values = set(), []
    for text in labels:
        name, found, value = str(text).rpartition("=")
        if "," in value:
            return None
        got = number(_float(value))
        if got is None:
            return None
        names.add(name if found else "")
        values.append(got)
    return values if len(names) == 1 and len(set(values)) == len(values) else None


def _float(text):
    """text as a float, or None."""
    try:
        return float(text)
    except ValueError:
        return None


def as_entry(point):
    """A (v, lo, hi) triple as an entry fmt can show."""
    return None if point is None else {"value": point[0], "ci95": None if point[1] is None else [point[1], point[2]]}


def common_run(summaries: list) -> dict:
    """The first row's run with only the overrides every row shares (the varied ones differ)."""
    first = dict(summaries[0])
    shared = first.get("overrides") if isinstance(first.get("overrides"), dict) else {}
    for s in summaries[1:]:
        other = s.get("overrides") if isinstance(s.get("overrides"), dict) else {}
        shared = {k: v for k, v in shared.items() if k in other and other[k] == v}
    first["overrides"] = shared
    return first


def sweep_table(labels: list, found: list) -> str:
    """One row per varied value, one column per metric (and per seat)."""
    heads = ["value"] + [f"{title}: {name}" if name else title for title, series, _ in found for name, _ in series]
    rows = []
    for i, text in enumerate(labels):
        row = [cell(esc(text))]
        for _, series, percent in found:
            row += [cell(fmt(as_entry(points[i]), percent), True) for _, points in series]
        rows.append(row)
    return table(heads, rows)


def sweep_sections(rows: list, plots) -> list:
    """The sections of a sweep report over (label, summary) rows."""
    rows = [tuple(row) for row in rows if isinstance(row, (list, tuple)) and len(row) == 2 and isinstance(row[1], dict)]
    if not rows:
        return [("sweep", "sweep", not_measured("sweep rows"))]
    labels, summaries = [label for label, _ in rows], [s for _, s in rows]
    found = panels(summaries)
    parts = [("run", "run", header(common_run(summaries)) + '<p class="note">varied: ' +
              ", ".join(esc(t) for t in labels) + "; every value played on the same seeds.</p>")]
    if not found:
        return parts + [("metrics", "metrics by value", not_measured("metrics"))]
    parts.append(("metrics", "metrics by value", sweep_table(labels, found)))
    columns = min(3, len(found))
    xs = numeric_axis(labels)
    svg = plots.draw(draw.sweep_panels, found, labels, xs, str(labels[0]).rpartition("=")[0] if xs else "",
                     width=3.0 * columns, height=2.4 * -(-len(found) // columns))
    parts.append(("plots", "metrics against the varied value",
                  figure("sweep", svg, "each metric against the varied value, with 95 % intervals", wide=True)))
    return parts
