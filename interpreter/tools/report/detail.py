"""The sections of a summary that are tables only: designer stats, rule coverage, skill gap."""
from __future__ import annotations

from .page import cell, esc, fmt, fmt_count, fmt_number, interval, not_measured, number, table
from .summary import dig, items, seat_names


def stats_section(summary: dict) -> str:
    """The ruleset's `stats:`: per seat in one table, per game in another."""
    stats = dig(summary, "metrics", "stats")
    if not isinstance(stats, dict) or not stats:
        return not_measured("designer stats (the ruleset's stats: section)")
    names = seat_names(summary)
    per_seat, per_game = [], []
    for name, entry in stats.items():
        by_seat = dig(entry, "by_seat")
        if isinstance(by_seat, list):
            per_seat.append([cell(esc(name))] + [cell(fmt(v), True) for v in by_seat])
        else:
            per_game.append([cell(esc(name)), cell(fmt(dig(entry, "all")), True)])
    parts = []
    if per_seat:
        width = max(len(r) for r in per_seat) - 1
        heads = [names[k] if k < len(names) else f"seat {k}" for k in range(width)]
        parts.append(table(["per seat (mean, 95 % CI)"] + heads,
                           [r + [cell(fmt(None))] * (width + 1 - len(r)) for r in per_seat]))
    if per_game:
        parts.append(table(["per game", "mean (95 % CI)"], per_game))
    return "".join(parts)


def coverage_row(point: dict):
    """One coverage point's cells and its highlight: never run, or run but never moved a card."""
    games, share, moved, runs = (number(dig(point, k)) for k in ("games", "share", "moved", "runs"))
    kind = dig(point, "kind")
    never = games == 0
    unmoved = not never and kind == "move" and moved == 0
    cells = [cell(esc(kind if kind is not None else "?")), cell(esc(dig(point, "where") or "?")),
             cell(esc(dig(point, "text") or "")),
             cell(fmt_count(games) if games is not None else fmt(None), True),
             cell(fmt_number(share, percent=True) if share is not None else fmt(None), True),
             cell(fmt_count(runs) if runs is not None else "", True),
             cell(fmt_count(moved) if moved is not None else "", True)]   # None: a point that moves no card
    return cells, "never" if never else "unmoved" if unmoved else ""


def coverage_section(summary: dict) -> str:
    """Every coverage point: in how many games it ran; never-run rows highlighted."""
    points = [p for p in items(dig(summary, "metrics", "coverage")) if isinstance(p, dict)]
    if not points:
        return not_measured("rule coverage")
    rows = [coverage_row(p) for p in points]
    never = sum(1 for _, cls in rows if cls == "never")
    text = (f'<p class="note">{len(points)} points; {never} never ran (red); '
            "a move that ran but never moved a card is yellow.</p>")
    text += table(["kind", "where", "rule", "games it ran in", "share of games", "times it ran", "cards moved"],
                  [cells for cells, _ in rows], row_classes=[cls for _, cls in rows])
    warnings = [w for w in items(dig(summary, "metrics", "coverage_warnings"))]
    if warnings:
        text += '<ul class="warnings">' + "".join(f"<li>{esc(w)}</li>" for w in warnings) + "</ul>"
    return text


def skill_section(summary: dict) -> str:
    """With bots of different strength: each bot's win share against its fair share."""
    rows = [r for r in items(dig(summary, "metrics", "skill_gap")) if isinstance(r, dict)]
    if not rows:
        return not_measured("skill gap (needs bots of different kinds at the table)")
    body = []
    for r in rows:
        fair, share = number(r.get("fair_share")), interval(r.get("share"))
        verdict = ""
        if fair is not None and share is not None and share[1] is not None:
            verdict = ("above its fair share" if share[1] > fair else "below its fair share" if share[2] < fair
                       else "not told apart from its fair share")
        seats = ", ".join(esc(s) for s in r["seats"]) if isinstance(r.get("seats"), list) else esc(r.get("seats", ""))
        body.append([cell(esc(r.get("bot", "?"))), cell(seats),
                     cell(fmt_number(fair, percent=True) if fair is not None else fmt(None), True),
                     cell(fmt(r.get("share"), percent=True), True), cell(verdict)])
    return table(["bot", "seats", "fair share", "win share (95 % CI)", ""], body)
