"""The log of play: what happened, as the seats watching saw it."""
from __future__ import annotations

from ...runtime.engine import MOVE, SET, SHUFFLE, TURN
from ...runtime.events import describe, group


class Story:
    """The log part of a Session: events told as lines of text."""

    def report(self, actor: str, events: list, viewers: list) -> None:
        """What happened, as every one of `viewers` saw it (faces only where they all saw them)."""
        everyone = sum(1 << k for k in viewers)
        lines = []
        deal: list = []         # consecutive moves from one zone to one player zone each: a deal
        for e in events:
            if e[0] == MOVE:
                seen = not isinstance(e[3], int) and e[4] & everyone == everyone
                shown = e if seen else (MOVE, e[1], e[2], e[3] if isinstance(e[3], int) else len(e[3]), 0) + tuple(e[5:])
                if deal and not self.same_deal(deal[-1], shown):
                    lines.append(self.describe_deal(deal))
                    deal = []
                deal.append(shown)
                continue
            if deal:
                lines.append(self.describe_deal(deal))
                deal = []
            if e[0] in (SHUFFLE, SET):
                lines.append(describe(self.program, e))
            elif e[0] == TURN:
                lines.append(f"— turn {e[2]}: seat {e[1]} ({self.who(e[1])}) —")
        if deal:
            lines.append(self.describe_deal(deal))
        self.say(f"{actor}: " + (lines[0] if lines else "(nothing visible)"))
        for line in lines[1:]:
            self.say(f"    {line}")

    def same_deal(self, a: tuple, b: tuple) -> bool:
        """Whether two moves belong to one deal: same source, destinations of one per-player zone."""
        decl = self.program.zone_decl
        return a[1] == b[1] and decl[a[2]] is decl[b[2]] and decl[a[2]].per_player

    def describe_deal(self, moves: list) -> str:
        """One line for a run of moves: 'deck → hand: seat 0 2×red · seat 1 2 hidden cards'."""
        if len(moves) == 1:
            return describe(self.program, moves[0])
        prog = self.program
        got: dict = {}
        for _, _, dst, cards, *_ in moves:
            got.setdefault(dst, []).append(cards)
        parts = []
        for dst, items in got.items():
            hidden = sum(c for c in items if isinstance(c, int))
            faces = [c for cs in items if not isinstance(cs, int) for c in cs]
            text = ", ".join(x for x in (group(prog, faces) if faces else "",
                                          f"{hidden} hidden card{'s' if hidden != 1 else ''}" if hidden else "") if x)
            parts.append(f"seat {prog.zone_owner[dst]} {text}")
        return f"{prog.zone_names[moves[0][1]]} → {self.zone_label(moves[0][2])}: " + " · ".join(parts)
