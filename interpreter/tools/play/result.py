"""The end screen: scores, tie-breaks and the winners."""
from __future__ import annotations

from rich.table import Table
from rich.text import Text


class Result:
    """The running scores and the end screen of a Session."""

    def running_scores(self, seat: int) -> list:
        """Every seat's score as it would be if the game ended now, as far as `seat` may know it
        (None where it depends on cards hidden from that seat)."""
        return [None] * self.players

    def shown_values(self, seat: int) -> list:
        """The values the ruleset's display section asks to show, as `seat` may know them:
        [(owning seat or None for the table, label, text)]."""
        return []

    def show_result(self) -> None:
        prog, st = self.program, self.st
        result = prog.result(st)
        winners = result["winners"]
        table = Table(title=Text(f"{self.game.name}: final scores after {result['turns']} turns"))
        table.add_column("seat", justify="right")
        table.add_column("player")
        table.add_column("score", justify="right")
        for i, (sign, _) in enumerate(prog.rules.tiebreak, 1):
            table.add_column(f"tie-break {i} ({'most' if sign > 0 else 'fewest'})", justify="right")
        table.add_column("")
        shared = len(winners) > 1
        for k in range(self.players):
            key = prog.ranking_key(st, k)
            tb = [str(sign * x) for (sign, _), x in zip(prog.rules.tiebreak, key[1:])]
            mark = ("shared victory" if shared else "winner") if k in winners else ""
            table.add_row(str(k), Text(self.who(k)), str(key[0]), *tb, mark)
        self.console.print(table)
        label = "winner" if not shared else "shared victory"
        self.say(f"{label}: " + ", ".join(f"seat {k} ({self.who(k)})" for k in winners))
