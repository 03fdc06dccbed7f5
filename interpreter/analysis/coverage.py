"""Rule coverage over many games: in how many games each coverage point ran, and what never did.

A point is a plain dict {"kind", "where", "text"} or a tuple (kind, where, text) (`where` is the
rule's file:line:col); a record is a per-game record whose "coverage" and "moved" lists are
aligned with the points (see the issue-14 contract, and runtime/coverage.py for the kinds).
"""
from __future__ import annotations

from ..errors import UsageError

MOVE_KINDS = ("move",)      # the kinds whose points move cards: their rows say how many


def as_point(point) -> dict:
    """A point as {"kind", "where", "text"}, from a dict or a (kind, where, text) tuple."""
    if isinstance(point, dict):
        return {"kind": point["kind"], "where": str(point["where"]), "text": point["text"]}
    kind, where, text = point
    return {"kind": kind, "where": str(where), "text": text}


def coverage_rows(points, records) -> list:
    """One row per point: {kind, where, text, games (it ran in), share (of the games), runs, moved}.

    `moved` is the cards a move point moved over all games (None for points that move none).
    Records made without coverage (no "coverage" list) leave coverage unmeasured: no rows."""
    points = [as_point(p) for p in points]
    counted = [r for r in records if r.get("coverage") is not None]
    if not counted:
        return []
    if len(counted) < len(records):
        raise UsageError(f"{len(records) - len(counted)} of {len(records)} games have no coverage: "
                         "analyse runs made with coverage together, not mixed with runs made without")
    rows = []
    for i, p in enumerate(points):
        runs = [at(r, "coverage", i, len(points)) for r in counted]
        moved = sum(at(r, "moved", i, len(points)) for r in counted) if p["kind"] in MOVE_KINDS else None
        games = sum(1 for n in runs if n > 0)
        rows.append(dict(p, games=games, share=games / len(counted), runs=sum(runs), moved=moved))
    return rows


def at(record: dict, field: str, i: int, size: int) -> int:
    """A record's count for point i; a record whose list does not fit the points is refused."""
    values = record.get(field)
    if not isinstance(values, list) or len(values) != size:
        raise UsageError(f"game {record.get('game', '?')} has {len(values) if isinstance(values, list) else 'no'} "
                         f"{field} counts, but the ruleset has {size} coverage points: the results come from "
                         "another version of the rules")
    return values[i]


def coverage_warnings(rows: list, games: int) -> list:
    """A warning ("where: what") for every point that never ran in any of the `games`, and every move
    that ran but never moved a card."""
    played = f"{games} game{'s' if games != 1 else ''}"
    out = []
    for r in rows:
        if r["games"] == 0:
            out.append(f"{r['where']}: {r['text']} never ran in {played}")
        elif r["moved"] == 0:
            out.append(f"{r['where']}: {r['text']} ran in {r['games']} of {played} but never moved a card")
    return out
