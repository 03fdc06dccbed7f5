"""The "intervals" and "metrics" parts of the summary from a list of per-game records (manual,
"Analysing a game"): the records are tallied (`tally.Tally`) and the tally makes them, so a list
and a stream of the same games give the same numbers.
"""
from __future__ import annotations

from .tally import Tally
from .values import histogram   # noqa: F401  (the histogram of a list of values, named here as before)

PARTS = ("intervals", "metrics", "score_histogram", "score_histogram_note")


def summarise(records: list, players: int, bots: list, points=None) -> dict:
    """The summary's "intervals", "metrics" and "score_histogram" of a run; `points` are the program's
    coverage points."""
    t = Tally(players, bots)
    for r in records:
        t.add(r)
    whole = t.summary(points)
    return {k: whole[k] for k in PARTS if k in whole}
