"""On request: the piles in draw order (s) and what may still be in each hidden zone (o)."""
from __future__ import annotations

from rich.table import Table
from rich.text import Text

from .words import counts_text, plural


class Overview:
    """The s and o commands of a Session."""

    def show_piles(self, seat: int) -> None:
        """Every ordered pile the seat sees, in draw order (next card first)."""
        v, prog = self.view(seat), self.program
        names, lines = prog.type_names, []
        for z, label in enumerate(prog.zone_names):
            if prog.zone_decl[z].name not in self.ordered:
                continue
            if not v.sees(z):
                continue
            cards = v.cards(z)
            shown = ", ".join("?" if t is None else names[t] for t in reversed(cards)) or "empty"
            lines.append(f"{label}: {shown}")
        if not lines:
            self.say("no pile you can see has an order that matters")
            return
        self.say("piles in draw order (next card first):")
        for line in lines:
            self.say(f"  {line}")

    def show_overview(self, seat: int) -> None:
        """For every hidden table zone: how many of each card type may still be there."""
        if not self.full:
            self.say("this ruleset shows only the cards visible now (display.knowledge: faces); "
                     "play with --memory-aid for the overview")
            return
        v, prog = self.view(seat), self.program
        names, shown = prog.type_names, False
        for z, label in enumerate(prog.zone_names):
            if prog.zone_owner[z] is not None or v.sees(z) or not v.size(z):
                continue
            shown = True
            if not v.unknown(z):
                self.say(f"{label}: {plural(v.size(z))}, known exactly: {counts_text(names, v.known_cards(z))}")
                continue
            table = Table(title=Text(f"{label}: {plural(v.size(z))} — what may still be there"),
                          title_justify="left", box=None, padding=(0, 2))
            table.add_column("card")
            table.add_column("may be there", justify="right")
            table.add_column("of which known there", justify="right")
            known = v.known_cards(z)
            for t, n in v.could_be_in(z).items():
                table.add_row(Text(names[t]), str(n), str(known.get(t, 0) or ""))
            self.console.print(table)
        if shown:
            self.say("(counts include every card whose place you do not know: other seats' hidden cards too)")
        else:
            self.say("no hidden zone on the table")
