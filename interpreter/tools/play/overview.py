"""On request: the piles in draw order (s) and what may still be in each hidden zone (o)."""
from __future__ import annotations

from ...compiler.reach import zone_types
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
        """For every hidden table zone, and every zone of the seat's own it cannot see (a hand held
        facing away), one line: the cards that may still be there (only types the rules can ever
        bring there); zones of one family with the same line are grouped."""
        if not self.full:
            self.say("this ruleset shows only the cards visible now (display.knowledge: faces); "
                     "play with --memory-aid for the overview")
            return
        v, prog = self.view(seat), self.program
        groups: dict = {}               # (declaration, what is shown) -> the zones showing it
        for z, decl in enumerate(prog.zone_decl):
            if prog.zone_owner[z] not in (None, seat) or v.sees(z) or not v.size(z) or decl.name in self.display.hidden:
                continue
            groups.setdefault((decl.name, self.overview_text(v, z)), []).append(z)
        if not groups:
            self.say("no hidden zone on the table")
            return
        self.say("what may still be in each hidden zone (only cards the rules can bring there):")
        for (name, text), zones in groups.items():
            self.say(f"  {self.zones_label(name, zones)}: {text}")
        self.say("(counts include every card whose place you do not know, wherever it may be)")

    def overview_text(self, v, z: int) -> str:
        """One hidden zone: its size, the cards known there, the others that may be there."""
        names, size = self.program.type_names, v.size(z)
        known = v.known_cards(z)
        if not v.unknown(z):
            return f"{plural(size)}, known exactly: {counts_text(names, known)}"
        can = self.reachable()[z]
        may = {t: min(n, size) for t, n in v.could_be_in(z).items() if t in can}
        shown = ", ".join(names[t] for t in sorted(may)) if size == 1 else counts_text(names, may)
        text = f"{plural(size)}, may be {shown or '—'}"
        return text + (f" (known there: {counts_text(names, known)})" if known else "")

    def reachable(self) -> list:
        """Per zone, the card types the rules can ever bring there (worked out once per game)."""
        if getattr(self, "_reach", None) is None:
            self._reach = zone_types(self.program)
        return self._reach

    def zones_label(self, name: str, zones: list) -> str:
        """'down[1–4, 7]' for zones of one family, 'draw' for a lone zone."""
        if self.program.zone_width[name] == 1:
            return self.program.zone_names[zones[0]]
        keys = list(self.program.family[name])
        base = self.program.zone_base[name]
        return f"{name}[{runs([keys[z - base] for z in zones])}]"


def runs(keys: list) -> str:
    """Index values as text, runs of consecutive whole numbers joined: '1–4, 7, 9–10'."""
    out, i = [], 0
    while i < len(keys):
        j = i
        if isinstance(keys[i], int):
            while j + 1 < len(keys) and isinstance(keys[j + 1], int) and keys[j + 1] == keys[j] + 1:
                j += 1
        out.append(str(keys[i]) if j == i else f"{keys[i]}{'–' if j > i + 1 else ', '}{keys[j]}")
        i = j + 1
    return ", ".join(out)
