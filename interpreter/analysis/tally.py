"""STAND-IN (replaced by the tally branch): a list-based Tally with the contract's interface."""
from __future__ import annotations

import statistics

from . import pergame
from .metrics import summarise


class Tally:
    def __init__(self, players: int, bots: list):
        self.players, self.bots, self.records = players, list(bots), []

    @property
    def games(self) -> int:
        return len(self.records)

    def add(self, record: dict) -> None:
        self.records.append(record)

    def merge(self, other: "Tally") -> None:
        self.records.extend(other.records)
        self.records.sort(key=lambda r: r["game"])

    def win_shares(self) -> list:
        fr = [pergame.win_fractions(r, self.players) for r in self.records]
        return [sum(f[k] for f in fr) / len(fr) for k in range(self.players)]

    def summary(self, points=None) -> dict:
        rs, P = self.records, self.players
        sp = lambda v: {"mean": statistics.fmean(v), "sd": statistics.pstdev(v), "min": min(v), "max": max(v)}
        scores = [[r["scores"][k] for r in rs] for k in range(P)]
        return {"turns": sp([r["turns"] for r in rs]), "moves": sp([r["moves"] for r in rs]),
                "score": {"mean_by_seat": [statistics.fmean(s) for s in scores],
                          "sd_by_seat": [statistics.pstdev(s) for s in scores]},
                "wins_by_seat": self.win_shares(), **summarise(rs, P, self.bots, points)}
