"""Reports over several runs: a paired comparison of A and B, and a sweep over a varied value."""
from __future__ import annotations

from .page import cell, esc, fmt, fmt_p, interval, not_measured, pair, table
from .summary import dig, fair_share, figure, header, length_entry, seat_names, win_rows
from . import plots as draw

SHARE_WORDS = ("share", "wins", "win_", "decisiveness", "comeback", "forced")
# where a metric named in a comparison's "diff" lives in a summary (besides its own dotted path)
ALIASES = {"turns": lambda s: length_entry(s, "turns", "mean"), "moves": lambda s: length_entry(s, "moves", "mean"),
           "margin": lambda s: dig(s, "metrics", "closeness", "margin"),
           "shared_wins": lambda s: dig(s, "metrics", "closeness", "shared_wins"),
           "choice": lambda s: dig(s, "metrics", "choice", "mean"),
           "forced": lambda s: dig(s, "metrics", "choice", "forced"),
           "table_wins": lambda s: dig(s, "cooperative", "table_wins"),
           "shared_score": lambda s: dig(s, "cooperative", "score")}
SEATED = {"wins_by_seat": win_rows, "win_share": win_rows, "seat_advantage": win_rows,
          "score_by_seat": lambda s: [interval(e) for e in dig(s, "intervals", "score_by_seat") or []],
          "decisions_by_seat": lambda s: [interval(e) for e in dig(s, "metrics", "length", "decisions_by_seat") or []]}


def is_share(name: str) -> bool:
    """Whether a metric's values are shares (shown as percent)."""
    return any(word in name for word in SHARE_WORDS)


def resolve(summary: dict, key: str):
    """The entry a comparison's metric name stands for in one summary, or None."""
    if key in ALIASES:
        return ALIASES[key](summary)
    for sep in (".", "[", "_"):
        base, found, seat = key.rstrip("]").rpartition(sep)
        if found and base in SEATED and seat.isdigit():
            rows = SEATED[base](summary)
            return rows[int(seat)] if int(seat) < len(rows) else None
    path = [int(p) if p.isdigit() else p for p in key.split(".")]
    got = dig(summary, "metrics", *path)
    return got if got is not None else dig(summary, *path)


def as_entry(got):
    """A (v, lo, hi) triple back as an entry fmt can show."""
    return None if got is None else {"value": got[0], "ci95": [got[1], got[2]] if got[1] is not None else None}


def compare_table(data: dict) -> str:
    """Every metric of the comparison: A, B, B − A with interval and p, and the verdict in words."""
    diff = data.get("diff")
    if not isinstance(diff, dict) or not diff:
        return not_measured("differences between A and B")
    a, b = (data.get(k) if isinstance(data.get(k), dict) else {} for k in ("a", "b"))
    rows = []
    for key, entry in diff.items():
        share = is_share(str(key))
        # the comparison's own A and B (over the paired games) where it gives them, else the runs' summaries
        got_a = entry.get("a") if isinstance(entry, dict) and isinstance(entry.get("a"), dict) else resolve(a, str(key))
        got_b = entry.get("b") if isinstance(entry, dict) and isinstance(entry.get("b"), dict) else resolve(b, str(key))
        got_a = as_entry(got_a) if isinstance(got_a, tuple) else got_a
        got_b = as_entry(got_b) if isinstance(got_b, tuple) else got_b
        rows.append([cell(esc(key)), cell(fmt(got_a, share), True), cell(fmt(got_b, share), True),
                     cell(fmt(entry, share).replace(" %", " pts"), True), cell(fmt_p(dig(entry, "p")), True),
                     cell(esc(dig(entry, "verdict") or ""))])
    return table(["metric", "A", "B", "B − A (95 % CI)", "p", "verdict"], rows)


def forest_rows(diff) -> list:
    """(name, v, lo, hi, None) of every difference with a value; shares in points."""
    rows = []
    for key, entry in (diff.items() if isinstance(diff, dict) else ()):
        got = interval(entry)
        if got is not None:
            scale = 100 if is_share(str(key)) else 1
            rows.append((f"{key} (pts)" if scale == 100 else str(key),
                         *(None if x is None else scale * x for x in got), None))
    return rows


def compare_sections(data: dict, plots, single) -> list:
    """The sections of a comparison report; `single(summary, plots, prefix)` gives a run's own sections."""
    a, b = (data.get(k) if isinstance(data.get(k), dict) else {} for k in ("a", "b"))
    runs = f'<div class="pair"><div><h3>A</h3>{header(a)}</div><div><h3>B</h3>{header(b)}</div></div>'
    parts = [("runs", "A and B", runs)]
    body = compare_table(data)
    rows = forest_rows(data.get("diff"))
    if rows:
        svg = plots.draw(draw.forest, rows, True, width=5.2, height=0.7 + 0.55 * len(rows))
        body = pair(body, figure("differences", svg, "B − A with 95 % intervals, each on its own scale; "
                                                    "red: the interval excludes 0"))
    parts.append(("differences", "B − A", body))
    wins_a, wins_b = win_rows(a), win_rows(b)
    if wins_a or wins_b:
        names = seat_names(a) if len(seat_names(a)) >= len(seat_names(b)) else seat_names(b)
        width = max(len(wins_a), len(wins_b))
        groups = [("A", wins_a + [None] * (width - len(wins_a))), ("B", wins_b + [None] * (width - len(wins_b)))]
        svg = plots.draw(draw.seat_shares, names[:width], groups, fair_share(a))
        parts.append(("shares", "win share per seat, A and B",
                      figure("compare-win-share", svg, "win share per seat in A and in B, with 95 % intervals")))
    for side, run in (("a", a), ("b", b)):
        parts += [(f"{side}-{anchor}", f"{side.upper()}: {title}", html_) for anchor, title, html_
                  in single(run, plots, f"{side}-")]
    return parts
