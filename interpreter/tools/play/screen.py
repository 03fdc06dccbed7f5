"""The screen of a decision, from one seat's view, fitted to the terminal: a header, the other seats
one line each, the table compact, then the seat's own panel and its legal moves side by side (in
columns, and in pages when they do not fit); `d` shows everything in full (panels, every zone)."""
from __future__ import annotations

from collections import Counter

from rich.console import Group
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ...runtime.decisions import show
from .layout import SEP, Cut, MovePage, brief_counts, height, pack
from .words import counts_text, plural

STAR = "★"
TO_PLAY = "▶"
HELP_LONG = ("type a move (as listed, or any part of its text)", "n/p more moves",
             "d detail · u undo · s piles in draw order · o overview · l log · r screen again · ? help · q quit")
HELP_SHORT = ("", "n/p more moves", "d detail · u undo · s piles · o overview · l log · r again · ? help · q quit")
HELP_TINY = ("", "n/p pages", "d detail · u undo · s piles · o overview · l log · ? help · q quit")
SIDE_BY_SIDE = 56      # narrower than this, the moves go under the own panel
BODY_GAP = 3           # spaces between the own panel and the moves
MIN_MOVE_ROWS = 3      # the fewest rows of moves a page shows before the table gives way
MIN_LEFT = 28          # the own panel's narrowest width side by side
ONE_COLUMN = 8         # up to this many moves are listed in one column when they all fit
CUT_NOTE = "d shows the whole table"


class Screen:
    """The display part of a Session."""

    move_page = 0          # the page of moves shown last
    move_pages = 1

    # ---- zones and values as words ----
    def zone_label(self, z: int) -> str:
        """A zone's name as shown: its declaration's label, then the index of a family's zone (a
        seat's own zone without the seat: the seat's panel or line says whose)."""
        decl, name = self.program.zone_decl[z], self.program.zone_names[z]
        rest = name[len(decl.name):]
        if decl.per_player:
            rest = rest.replace(f"({self.program.zone_owner[z]})", "", 1)
        return self.display.label(decl.name) + rest

    def shown_zones(self, owner) -> list:
        """The zone instances of a seat (per-player zones) or of the table, without hidden ones."""
        prog, hidden = self.program, self.display.hidden
        return [z for z in range(len(prog.zone_names))
                if prog.zone_decl[z].name not in hidden and prog.zone_owner[z] == owner
                and (owner is None or prog.zone_decl[z].per_player)]

    def faces_text(self, v, z: int, brief: bool) -> str:
        """A zone the seat sees: '—' when empty, a pile's top card and size, a hand held facing away
        card by card in order, else its cards ('2×red:1, 1×blue:2 (3)', or 'blue:2, 2×red:1' when brief)."""
        names, size = self.program.type_names, v.size(z)
        if not size:
            return "—"
        cards = v.cards(z)
        if self.program.zone_decl[z].name in self.display.piles:
            return f"top {'?' if cards[-1] is None else names[cards[-1]]} ({size})"
        if self.program.zone_decl[z].visible == "others":     # held facing away: its owner picks by place
            return ", ".join("?" if t is None else names[t] for t in cards)
        counts, unknown = Counter(t for t in cards if t is not None), cards.count(None)
        if brief:
            return brief_counts(names, counts, unknown)
        text = counts_text(names, counts, unknown)
        return text if size == 1 else f"{text} ({size})"

    def zone_text(self, v, z: int) -> str:
        """What the seat knows of one zone: faces if it sees them, else the size (and, when knowledge
        is shown, the cards known to be there)."""
        if v.sees(z):
            return self.faces_text(v, z, brief=False)
        size = v.size(z)
        text = plural(size)
        told = self.told_text(v, z) if self.full else ""
        if self.full and size:
            known = v.known_cards(z) if not (told and self.by_place(z)) else None     # told place by place
            if known:
                text += f" — known: {counts_text(self.program.type_names, known, v.unknown(z))}"
            absent = sorted(t for t, n in v.at_most(z).items() if n == 0)
            if absent:      # announced (announce none of): types the zone holds none of
                text += " — none of: " + ", ".join(self.program.type_names[t] for t in absent)
        return f"{text} — {told}" if told else text

    def by_place(self, z: int) -> bool:
        """Whether the zone is held facing away: its owner knows and picks its cards by place."""
        return self.program.zone_decl[z].visible == "others"

    def told_text(self, v, z: int) -> str:
        """What the seat was told (tell) about the cards of a zone it cannot see, place by place from
        the bottom as a choice of place counts them: '1: colour red · 2: not colour red, not rank 5 · 3: ?';
        '' when it was told nothing there. Knowledge, as 'known:': shown with display knowledge full."""
        words, names = v.told_words(z), self.program.type_names
        # in a hand held facing away, a card known where it lies (shown by reveal) is named at its place
        faces = {i: names[t] for i, t in enumerate(v.cards(z)) if t is not None} if self.by_place(z) else {}
        if not words and not faces:
            return ""
        return " · ".join(f"{i + 1}: {faces[i] if i in faces else ', '.join(words[i]) if i in words else '?'}"
                          for i in range(v.size(z)))

    def brief_text(self, v, z: int, knowledge: bool = True, short: bool = False) -> str:
        """zone_text in fewer characters: 'red:1, 2×blue' for the faces, '5 cards, known: red:1' (or
        '5' when short) for a zone the seat cannot see."""
        if v.sees(z):
            return self.faces_text(v, z, brief=True)
        size = v.size(z)
        if short:
            return str(size)
        text = plural(size)
        told = self.told_text(v, z) if knowledge and self.full else ""
        known = v.known_cards(z) if knowledge and self.full and size and not (told and self.by_place(z)) else None
        text = f"{text}, known: {brief_counts(self.program.type_names, known)}" if known else text
        return f"{text} — {told}" if told else text

    def var_items(self, v, owner) -> list:
        """A seat's (or, owner None, the table's) variables, with who is out of play and the direction."""
        items = [f"{self.display.label(name)}: {show(value)}" for (name, who), value in v.vars if who == owner]
        if owner is None:
            return items + (["play goes the other way"] if v.way == -1 else [])
        return (["out of play"] if not v.in_play(owner) else []) + items

    def value_items(self, values: list, owner) -> list:
        return [f"{label}: {text}" for who, label, text in values if who == owner]

    def score_text(self, scores: list, p: int) -> str:
        return "?" if scores[p] is None else show(scores[p])

    # ---- the compact screen ----
    def show(self, seat: int, legal: list, page: int = 0) -> None:
        """The whole screen of a decision, from the seat's view, in the console's size."""
        v, st, width = self.view(seat), self.st, self.console.width
        self.seen[seat] = len(st.log)
        scores, values = self.running_scores(seat), self.shown_values(seat)
        whose = "" if st.current == seat else f" (seat {st.current}'s turn)"
        head = [Rule(Text(f"turn {st.turn}{whose} — seat {seat} decides: {st.pending.name}"))]
        head += self.other_lines(v, seat, scores, values, width)
        own = self.own_items(v, seat, values)
        shown = self.shown_moves(legal)
        room = self.console.height - 1 - len(head) - 2       # the prompt's line, the own title, the help
        table, body, moves = self.fit(v, own, shown, values, room, page)
        screen = Group(*head, *table, self.own_title(v, seat, scores), body, self.help_line(width, moves))
        self.flush_story(self.console.height - 1 - height(self.console, screen, width), seat)
        self.console.print(screen)
        self.move_page, self.move_pages = (moves.page, moves.pages) if moves else (0, 1)

    def fit(self, v, own, shown, values: list, room: int, page: int) -> tuple:
        """The table and the body (own panel | moves) in `room` lines: all the moves and the whole
        table if they fit, then the table without knowledge, then the moves in pages (each with
        the panel beside the moves, as wide as they leave or at most half the width), then the same with the
        panel above the moves, then the table cut; (table parts, body, MovePage or None)."""
        width, tables = self.console.width, {}
        for shapes in (("half", "wide"), ("stacked",)):
            for brief, paged in ((False, False), (True, False), (False, True), (True, True)):
                if paged and shapes == ("stacked",) and shown.hint is None:
                    continue            # a page of moves under the panel would be too short a page
                if brief not in tables:
                    table = self.table_blocks(v, brief, values)
                    tables[brief] = table, (height(self.console, Group(*table), width) if table else 0)
                table, table_h = tables[brief]
                # every move shown: the panel as wide as they leave, in fewer lines; pages: more columns
                for shape in (shapes if paged else shapes[::-1]):
                    body, moves = self.body(own, shown, room - table_h, page, paged, shape=shape)
                    if body is not None:
                        return table, body, moves
        table = tables[True][0]
        body, moves, body_h = self.shortest_body(own, shown, page, MIN_MOVE_ROWS)
        if shown.hint is None and moves is not None and moves.pages > 1:
            body, moves = self.body(own, shown, room, page, True, least=1)    # many moves: pages fill the room
            body_h = None if body is None else height(self.console, body, width)
        if body is None or body_h > room:     # too small a terminal: as few lines as can be, all the same
            body, moves, body_h = self.shortest_body(own, shown, page, 1)
        left = room - body_h
        return [Cut(Group(*table), left, width, CUT_NOTE)] if table else [], body, moves

    def shortest_body(self, own: list, shown, page: int, least: int) -> tuple:
        """The body in its fewest lines, whatever its shape, with at least `least` rows of moves:
        (body, MovePage or None, its height)."""
        best = None
        for shape in ("half", "wide", "stacked"):
            body, moves = self.body(own, shown, None, page, True, least=least, force=True, shape=shape)
            h = None if body is None else height(self.console, body, self.console.width)
            if h is not None and (best is None or h < best[2]):
                best = body, moves, h
        return best

    def body(self, own: list, shown, room, page: int, paged: bool, least: int = MIN_MOVE_ROWS,
             force: bool = False, shape: str = "half") -> tuple:
        """The own panel (its items packed) and the moves next to each other in at most room lines
        (None: as few as the own panel takes), or (None, None) when they cannot fit with at least
        `least` rows of moves. Every page of moves has the same rows, so that n and p keep the keys
        in place. force: `least` rows even when they do not fit; shape: the panel at most half the
        width, as wide as the moves leave ("wide"), or above the moves ("stacked")."""
        width = self.console.width
        side, left, right = (False, width, width) if shape == "stacked" else self.widths(own, shown, shape == "wide")
        panel = Text("\n".join(pack(own, left)) or "(nothing)")
        own_h = height(self.console, panel, left)
        if room is None:
            room = max(own_h, least + 1) if side else own_h + least + 1
        free = room if side else room - own_h
        cells: dict = {}

        def fits(rows, whole=False) -> bool:
            if side and own_h > room:
                return False
            if shown.hint is not None:
                return height(self.console, Text(shown.hint), right) <= free
            return MovePage(shown.entries, right, rows, 0, whole).tallest(self.console, right, cells) <= free

        if not paged or shown.hint is not None:
            rows = max(min(max(own_h - 1, ONE_COLUMN), free - 1), 1)
            if not fits(rows, whole=True) and not force:
                return None, None
            part, moves = self.moves_block(shown, right, rows, page, whole=True)
            return self.joined(panel, part, left, right, side), moves
        rows = next((r for r in range(free - 1, least - 1, -1) if fits(r)), least if force else None)
        if rows is None:
            return None, None
        part, moves = self.moves_block(shown, right, rows, page)
        return self.joined(panel, part, left, right, side), moves

    def widths(self, own: list, shown, wide: bool = False) -> tuple:
        """(side by side, own panel's width, moves' width): the moves as wide as their longest
        entry, the panel at least MIN_LEFT wide and at most half the screen (unless wide)."""
        width = self.console.width
        if width < SIDE_BY_SIDE:
            return False, width, width
        cell = len(shown.hint) if shown.hint is not None else MovePage(shown.entries, width, None).cell
        half = width - BODY_GAP - cell if wide else (width - BODY_GAP) // 2
        left = max(MIN_LEFT, min(half, width - BODY_GAP - cell))
        left = min(left, max((len(line) for line in pack(own, left)), default=1))
        return True, left, width - left - BODY_GAP

    def joined(self, own, moves, left: int, right: int, side: bool):
        if not side:
            return Group(own, moves)
        grid = Table.grid(padding=(0, BODY_GAP, 0, 0))
        grid.add_column(width=left)
        grid.add_column(width=right)
        grid.add_row(own, moves)
        return grid

    def moves_block(self, shown, width: int, rows, page: int, whole: bool = False) -> tuple:
        """The legal moves: a page of `rows` rows (or, when whole, all of them in at least that
        many rows), or the hint shown instead of them."""
        if shown.hint is not None:
            return Text(shown.hint), None
        moves = MovePage(shown.entries, width, rows, page, whole)
        return Group(Text(moves.title(width)), moves.table()), moves

    def other_lines(self, v, seat: int, scores: list, values: list, width: int) -> list:
        """The other seats one line each, each in its longest form that fits (cut with … if none)."""
        out = []
        for p in range(self.players):
            if p == seat:
                continue
            for short, empty in ((False, True), (True, True), (True, False)):
                line = self.other_line(v, p, scores, values, short, empty)
                if len(line) <= width:
                    break
            out.append(Text(line, no_wrap=True, overflow="ellipsis"))
        return out

    def other_line(self, v, p: int, scores: list, values: list, short: bool, empty: bool) -> str:
        """Another seat in one line: who, the starter's star, the score, its zones (sizes only when
        short; without the empty ones unless empty) and values."""
        mark = f"{TO_PLAY} " if p == v.current else "  "
        head = f"{mark}seat {p} · {self.who(p)}" + (f" {STAR}" if p == self.starter() else "")
        head += f" · score {self.score_text(scores, p)}"
        items = [f"{self.zone_label(z)}: {self.brief_text(v, z, short=short)}"
                 for z in self.shown_zones(p) if empty or v.size(z)]
        return SEP.join([head] + self.value_items(values, p) + items + self.var_items(v, p))

    def own_items(self, v, seat: int, values: list) -> list:
        """The deciding seat's own zones card by card, its variables and values."""
        items = [f"{self.zone_label(z)}: {self.brief_text(v, z)}" for z in self.shown_zones(seat)]
        return items + self.var_items(v, seat) + self.value_items(values, seat)

    def own_title(self, v, seat: int, scores: list) -> Rule:
        title = f"seat {seat} · {self.who(seat)}"
        if seat == self.starter():
            title += f" {STAR} started"
        if seat == v.current:
            title += " · to play"
        lowest = " (lowest wins)" if self.program.rules.lowest_wins else ""
        lowest += " (the table's, shared)" if self.program.cooperative_fn is not None else ""
        return Rule(Text(f"{title} · score {self.score_text(scores, seat)}{lowest}"), align="left")

    def table_blocks(self, v, brief: bool, values: list) -> list:
        """The table compact: the grid, families sharing an index list as one table (a line per
        index value), a family alone and the other zones and values packed in lines."""
        prog, width = self.program, self.console.width
        in_grid = set(self.grid[0]) if self.grid else set()
        groups: dict = {}
        items = []
        for decl in prog.rules.zones:
            if decl.per_player or decl.name in in_grid or decl.name in self.display.hidden:
                continue
            if decl.per is None:
                items.append(f"{self.display.label(decl.name)}: "
                             f"{self.brief_text(v, prog.zone_base[decl.name], not brief)}")
            else:
                groups.setdefault(tuple(prog.family[decl.name]), []).append(decl)
        out = self.grid_view(v) if self.grid else []
        alone = []
        for index, decls in groups.items():
            if len(decls) == 1:
                alone += [f"{self.zone_label(prog.zone_base[decls[0].name] + i)}: "
                          f"{self.brief_text(v, prog.zone_base[decls[0].name] + i, not brief)}"
                          for i in range(len(index))]
            else:
                out.append(self.family_table(index, decls, lambda z: self.brief_text(v, z, not brief)))
        items = alone + items + self.var_items(v, None) + self.value_items(values, None)
        out += [Text(line) for line in pack(items, width)]
        return out

    def family_table(self, values, decls, text, compact: bool = True) -> Table:
        """Zone families of one index list as a table: a row per index value, a column per family,
        text(z) in each cell; compact tables have no padding at their edges."""
        prog = self.program
        table = Table(show_header=True, expand=False, box=None, padding=(0, 2, 0, 0) if compact else (0, 2),
                      pad_edge=not compact)
        table.add_column("")
        for decl in decls:
            table.add_column(Text(self.display.label(decl.name)))
        for value in values:
            row = [Text(str(value))]
            for decl in decls:
                row.append(Text(text(prog.zone_base[decl.name] + prog.family[decl.name][value])))
            table.add_row(*row)
        return table

    def help_line(self, width: int, moves) -> Text:
        """The commands in one line (n/p only when the moves take more than one page)."""
        paged = moves is not None and moves.pages > 1
        for words in (HELP_LONG, HELP_SHORT, HELP_TINY):
            text = SEP.join(w for i, w in enumerate(words) if w and (i != 1 or paged))
            if len(text) <= width:
                break
        return Text(text, no_wrap=True, overflow="ellipsis")

    # ---- commands ----
    def turn_page(self, seat: int, legal: list, step: int) -> None:
        """n / p: the next or previous page of the legal moves, on the whole screen again."""
        if self.move_pages <= 1:
            self.say("all the legal moves are on the screen")
        elif not 0 <= self.move_page + step < self.move_pages:
            self.say("this is the " + ("last" if step > 0 else "first") + " page of moves: "
                     + ("p" if step > 0 else "n") + f" for the {'previous' if step > 0 else 'next'} one")
        else:
            self.show(seat, legal, self.move_page + step)

    def show_moves(self, legal: list) -> None:
        """The legal moves again (the page shown last), as many columns as the width allows."""
        shown = self.shown_moves(legal)
        rows = max(self.console.height - 3, MIN_MOVE_ROWS)
        part, moves = self.moves_block(shown, self.console.width, rows, self.move_page)
        self.console.print(Group(part, self.help_line(self.console.width, moves)))

    # ---- the whole detail (d) ----
    def show_detail(self, seat: int, legal: list) -> None:
        """Every seat's panel, every zone of the table, every legal move: the screen in full."""
        v, st = self.view(seat), self.st
        scores = self.running_scores(seat)
        values = self.shown_values(seat)
        self.console.print(Rule(Text(f"turn {st.turn} — everything seat {seat} knows")))
        for p in [seat] + [p for p in range(self.players) if p != seat]:
            self.console.print(self.seat_panel(v, p, scores, values))
        self.console.print(Panel(Group(*self.table_view(v, values)), title=Text("table"), title_align="left"))
        moves = MovePage(self.shown_moves(legal).entries, self.console.width, None)
        self.console.print(Group(Text(moves.title()), moves.table()))

    def seat_panel(self, v, p: int, scores: list, values: list) -> Panel:
        """One seat's zones and variables, as seat v.seat knows them."""
        lines = [f"{self.zone_label(z)}: {self.zone_text(v, z)}" for z in self.shown_zones(p)]
        lines += self.var_items(v, p) + self.value_items(values, p)
        title = f"seat {p} · {self.who(p)}"
        if p == self.starter():
            title += f" {STAR} started"
        if p == v.current:
            title += " · to play"
        title += f" · score {self.score_text(scores, p)}"
        return Panel(Text("\n".join(lines) or "(nothing)"), title=Text(title), title_align="left",
                     border_style="bold" if p == v.seat else "dim")

    def table_view(self, v, values: list) -> list:
        """The table in full: the grid, families with the same index list as one table, other zones
        and values as lines."""
        groups, lines = self.table_parts(v, values)
        out = self.grid_view(v) if self.grid else []
        if out and (groups or lines):
            out.append(Text(""))
        for index, decls in groups.items():
            out.append(self.family_table(index, decls, lambda z: self.zone_text(v, z), compact=False))
        if lines:
            out.append(Text("\n".join(lines)))
        return out

    def table_parts(self, v, values: list) -> tuple:
        """The table outside the grid, in full: ({index values: [zone declarations]} of the families,
        lines of the other zones and of the table's values)."""
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
        return groups, lines + self.var_items(v, None) + self.value_items(values, None)
