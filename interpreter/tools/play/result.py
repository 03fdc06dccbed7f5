"""The running scores, the values the ruleset shows, and the end screen (scores in parts, tie-breaks,
the winners, the hidden cards revealed).

A value worked out on the real state is shown to a seat only when that seat sees every zone whose
card faces the value reads (compiler/reads.py): sizes and variables are public, so such a value is
the same as one worked out from the seat's own view. Otherwise it is None (shown as ?).
"""
from __future__ import annotations

from collections import Counter

from rich.table import Table
from rich.text import Text

from ...errors import RuleRuntimeError
from ...runtime.decisions import show
from .words import counts_text

NO_VALUE = "—"      # a value that cannot be worked out as the game stands (a card of an empty zone)


class Result:
    """The running scores, the shown values and the end screen of a Session."""

    def known_value(self, expr, fn, seat: int, viewer: int):
        """expr worked out for seat (as `me`) as viewer may know it: its text, or None when it reads
        cards hidden from viewer."""
        if not self.display.reads.known_to(expr, seat, viewer):
            return None
        try:
            got = self.program.as_seat(self.st, seat, fn, expr.pos)
        except RuleRuntimeError:
            return NO_VALUE
        return NO_VALUE if got is None else show(got)

    def running_scores(self, seat: int) -> list:
        """Every seat's score as it would be if the game ended now, as far as `seat` may know it
        (None where it depends on cards hidden from that seat)."""
        score, fn = self.program.rules.score, self.program.score_fn
        if self.program.cooperative_fn is not None:     # the table's one score, as seat 0 sees it
            return [self.known_value(score, fn, 0, seat)] * self.players
        return [self.known_value(score, fn, p, seat) for p in range(self.players)]

    def shown_values(self, seat: int) -> list:
        """The values the ruleset's display section asks to show, as `seat` may know them:
        [(owning seat or None for the table, label, text)], ? for a value hidden from the seat."""
        out = []
        for entry in self.display.shown:
            fn = self.program.function(entry.expr)
            for p in (range(self.players) if entry.per_seat else [None]):
                got = self.known_value(entry.expr, fn, seat if p is None else p, seat)
                out.append((p, entry.label, "?" if got is None else got))
        return out

    # ---- the end screen ----
    def final_table(self) -> tuple:
        """The final scores as words: (title, column heads, rows, tie-break lines, winners line)."""
        prog, st = self.program, self.st
        result = prog.result(st)
        winners = result["winners"]
        together = prog.cooperative_fn is not None     # no seat wins alone: no column marks a winner
        heads = ["seat", "player", "score (lowest wins)" if prog.rules.lowest_wins else
                 "score (the table's, shared)" if together else "score"]
        heads += [f"tie-break {i} ({'most' if sign > 0 else 'fewest'})" for i, (sign, _) in enumerate(prog.rules.tiebreak, 1)]
        heads += [] if together else [""]
        shared = len(winners) > 1
        rows = []
        for k in range(self.players):
            key = prog.ranking_key(st, k)
            tb = [str(sign * x) for (sign, _), x in zip(prog.rules.tiebreak, key[1:])]
            mark = ("shared victory" if shared else "winner") if k in winners else ""
            rows.append([str(k), self.who(k), str(result["scores"][k]), *tb] + ([] if together else [mark]))
        ties = [f"tie-break {i}: {'most' if sign > 0 else 'fewest'} {self.display.text(expr)}"
                for i, (sign, expr) in enumerate(prog.rules.tiebreak, 1)]
        if prog.rules.lowest_wins:
            ties.append("the lowest score wins")
        label = "winner" if not shared else "shared victory"
        won = f"{label}: " + ", ".join(f"seat {k} ({self.who(k)})" for k in winners)
        if together:                                # the table won or lost together
            won = "the table wins together" if winners else "the table loses together"
        return f"{self.game.name}: final scores after {result['turns']} turns", heads, rows, ties, won

    def show_result(self) -> None:
        self.flush_story()
        title, heads, rows, ties, won = self.final_table()
        table = Table(title=Text(title))
        for i, head in enumerate(heads):
            table.add_column(head, justify="left" if i == 1 or head == "" else "right")
        for row in rows:
            table.add_row(*row[:1], Text(row[1]), *row[2:])
        self.console.print(table)
        for line in ties:
            self.say(line)
        self.show_parts()
        self.show_revealed()
        self.say(won)

    def parts_table(self):
        """Every seat's score in the terms it adds up (a score of one term: the per-seat stats), as
        words: (title, rows [(words, [text per seat])]), or None when there is nothing to show."""
        prog, st = self.program, self.st
        parts = self.display.score_parts(prog.rules.score)
        seats = range(self.players)
        if len(parts) > 1:
            title = "the score in parts"
            # each term's own value under its sign, so the column reads as the sum: 11 − 4 − 3 = 4
            rows = [(("− " if sign < 0 else "") + words, [prog.as_seat(st, p, prog.function(e), e.pos)
                                                           for p in seats]) for sign, e, words in parts]
            rows.append(("score", [prog.score(st, p) for p in seats]))
        else:
            stats = [(stat, fn) for stat, fn in prog.stats if stat.per_seat]
            if not stats:
                return None
            title = "per seat (the ruleset's stats)"
            rows = [(stat.name, [prog.stat_value(st, stat, fn, p) for p in seats]) for stat, fn in stats]
        return title, [(words, [show(v) for v in values]) for words, values in rows]

    def show_parts(self) -> None:
        """Every seat's score in the terms it adds up; a score of one term, by the per-seat stats."""
        got = self.parts_table()
        if got is None:
            return
        title, rows = got
        table = Table(title=Text(title))
        table.add_column("")
        for p in range(self.players):
            table.add_column(f"seat {p}", justify="right")
        for words, values in rows:
            table.add_row(Text(words), *values)
        self.console.print(table)

    def revealed_lines(self) -> list:
        """The cards that stayed hidden from someone, now shown to all: each seat's, then the table's
        (a family as one line); zones display.hide names are left out."""
        prog, st = self.program, self.st
        everyone = (1 << self.players) - 1
        held: dict = {}
        for z, cards in enumerate(st.zones):
            decl = prog.zone_decl[z]
            if cards and prog.zone_vis[z] != everyone and decl.name not in self.display.hidden:
                key = (prog.zone_owner[z], decl.name)
                held.setdefault(key, Counter()).update(prog.card_type[c] for c in cards)
        out = []
        for (owner, name), counts in sorted(held.items(), key=lambda kv: (kv[0][0] is None, kv[0][0] or 0)):
            whose = "table" if owner is None else f"seat {owner}"
            out.append(f"{whose} · {self.display.label(name)}: {counts_text(prog.type_names, counts)}")
        return out

    def show_revealed(self) -> None:
        """The hidden cards, revealed at the end (revealed_lines)."""
        lines = self.revealed_lines()
        if not lines:
            return
        self.say("hidden cards, revealed:")
        for line in lines:
            self.say(f"  {line}")
