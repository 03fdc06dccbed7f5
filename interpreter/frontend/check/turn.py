"""The order of play: turn.first must name a seat that every allowed player count has."""
from __future__ import annotations

from .. import ir
from .context import Context


def check_first(cx: Context, first) -> None:
    """A seat number written as turn.first must exist at the fewest players (computed ones are checked
    when the game starts: see the manual, section 9)."""
    if not (isinstance(first, ir.Lit) and first.type == "int") or cx.lo is None:
        return
    seat = first.value
    if 0 <= seat < cx.lo:
        return
    cx.error(first.pos, f"turn.first is seat {seat}, but with {cx.lo} players the seats are 0 to {cx.lo - 1}",
             "turn", "give a seat every player count has, e.g. first: 0, or first: players - 1 for the last seat")
