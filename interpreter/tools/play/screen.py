"""The screen of a decision: the seats' panels, the table and the legal moves, from one seat's view."""
from __future__ import annotations

from collections import Counter

from rich.console import Group
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ...runtime.decisions import show
from .words import counts_text, plural

STAR = "★"
HELP = ("type a move (as listed, or any part of its text) · u undo · s piles in draw order · o overview · "
        "r screen again · ? help · q quit")


class Screen:
    """The display part of a Session."""

    def zone_label(self, z: int) -> str:
        decl, name = self.program.zone_decl[z], self.program.zone_names[z]
        name = name.replace(f"({self.program.zone_owner[z]})", "") if decl.per_player else name
        return self.display.label(decl.name) + name[len(decl.name):]

    def zone_text(self, v, z: int) -> str:
        """What the seat knows of one zone: faces if it sees them, else the size (and, when knowledge
        is shown, the cards known to be there)."""
        names, size = self.program.type_names, v.size(z)
        if v.sees(z):
            if not size:
                return "—"
            cards = v.cards(z)
            if self.program.zone_decl[z].name in self.display.piles:
                top = cards[-1]
                return f"top {'?' if top is None else names[top]} ({size})"
            text = counts_text(names, Counter(t for t in cards if t is not None), cards.count(None))
            return text if size == 1 else f"{text} ({size})"
        text = plural(size)
        if self.full and size:
            known = v.known_cards(z)
            if known:
                text += f" — known: {counts_text(names, known, v.unknown(z))}"
        return text

    def seat_panel(self, v, p: int) -> Panel:
        """One seat's zones and variables, as seat v.seat knows them."""
        prog = self.program
        lines = [f"{self.zone_label(z)}: {self.zone_text(v, z)}"
                 for z in range(len(prog.zone_names)) if prog.zone_owner[z] == p and prog.zone_decl[z].per_player
                 and prog.zone_decl[z].name not in self.display.hidden]
        lines += [f"{self.display.label(name)} = {show(value)}" for (name, owner), value in v.vars if owner == p]
        score = self.running_scores(v.seat)[p]
        lines.append(f"score now: {'?' if score is None else score}")
        lines += [f"{label}: {text}" for owner, label, text in self.shown_values(v.seat) if owner == p]
        title = f"seat {p} · {self.who(p)}"
        if p == self.starter():
            title += f" {STAR} started"
        if p == v.current:
            title += " · to play"
        return Panel(Text("\n".join(lines) or "(nothing)"), title=Text(title), title_align="left",
                     border_style="bold" if p == v.seat else "dim")

    def table_view(self, v) -> list:
        """The table: the grid, families with the same index list as one table, other zones as lines."""
        prog = self.program
        groups: dict = {}
        lines = []
        in_grid = set(self.grid[0]) if self.grid else set()
        for decl in prog.rules.zones:
            if decl.per_player or decl.name in in_grid or decl.name in self.display.hidden:
                continue
            base = prog.zone_base[decl.name]
            if decl.per is None:
                lines.append(f"{self.display.label(decl.name)}: {self.zone_text(v, base)}")
            else:
                groups.setdefault(tuple(prog.family[decl.name]), []).append(decl)
        lines += [f"{self.display.label(name)} = {show(value)}" for (name, owner), value in v.vars if owner is None]
        lines += [f"{label}: {text}" for owner, label, text in self.shown_values(v.seat) if owner is None]
        out = self.grid_view(v) if self.grid else []
        if out and (groups or lines):
            out.append(Text(""))
        for values, decls in groups.items():
            table = Table(show_header=True, expand=False, box=None, padding=(0, 2))
            table.add_column("")
            for decl in decls:
                table.add_column(Text(self.display.label(decl.name)))
            for value in values:
                row = [Text(str(value))]
                for decl in decls:
                    z = prog.zone_base[decl.name] + prog.family[decl.name][value]
                    row.append(Text(self.zone_text(v, z)))
                table.add_row(*row)
            out.append(table)
        if lines:
            out.append(Text("\n".join(lines)))
        return out

    def show(self, seat: int, legal: list) -> None:
        """The whole screen of a decision, from the seat's view."""
        v, st = self.view(seat), self.st
        self.seen[seat] = len(st.log)
        whose = "" if st.current == seat else f" (seat {st.current}'s turn)"
        self.say()
        self.console.print(Rule(Text(f"turn {st.turn}{whose} — seat {seat} decides: {st.pending.name}")))
        order = [seat] + [p for p in range(self.players) if p != seat]
        for p in order:
            self.console.print(self.seat_panel(v, p))
        self.console.print(Panel(Group(*self.table_view(v)), title=Text("table"), title_align="left"))
        self.show_moves(legal)

    def show_moves(self, legal: list) -> None:
        shown = self.shown_moves(legal)
        if shown.hint is not None:
            self.say(shown.hint)
        else:
            self.say("legal moves:")
            for key, _, text in shown.entries:
                self.say(f"  {key:>2}. {text}")
        self.say(HELP)
