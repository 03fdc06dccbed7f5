"""Terminal play as on Yucata: humans and bots at one table, one decision at a time (`cardrules play`).

Everything a human is shown comes from the deciding seat's View (views.py), fed the events of the
game as that seat saw them (events.for_seat) — never from the real state. The layout is generic:
  - the seat's own panel first (its own zones, card by card), a ★ on the starting player;
  - one panel per other seat: its zones, with sizes, the cards known to be in its hidden zones
    (when the ruleset shows knowledge) and its public zones card by card;
  - the table: the ruleset's `display.grid` families as a grid of positions (`columns` a row; a cell
    shows the index and the card of the first family holding one: its name, ? when hidden, [name]
    when remembered and knowledge is shown, · when empty), then the other zone families sharing the
    same index list as one table (a row per index value, a column per family), the other table
    zones as lines;
  - the legal moves, numbered, in canonical text; typed by number or by text.
Commands: u undo, s the ordered public piles in draw order (next first), o what may still be in
each hidden table zone, ? show again, q quit.

How much knowledge is shown is the ruleset's `display.knowledge`: full (perfect memory) or faces
(only the cards visible now); `--memory-aid` shows the knowledge anyway.

Undo: a seat's own moves can be undone back to the last point where new information reached
anyone: a move whose events show a seat a card the deciding seat could not see before (a move out
of a zone hidden from it, with faces shown to someone), a shuffle, or another seat deciding. Such a
move, and any move that ends the seat's decisions (the turn passes, the game ends), is first
applied to a copy and only kept once the human confirms it (c), or dropped (u).

Output is plain sequential rich output (no full-screen UI), so it works with piped input.
Seats are numbered from 0; seat k's bot is seeded with `rng.derive(seed, k)`.
"""
from __future__ import annotations

import dataclasses
import re
import sys
from collections import Counter

from rich.console import Console, Group
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ..frontend import ir

from ..runtime import rng
from ..seats.bots import make_bot
from ..runtime.decisions import show
from ..runtime.engine import MOVE, SET, SHUFFLE, TURN
from ..errors import IllegalMove, RuleRuntimeError
from ..runtime.events import describe, for_seat, group
from ..seats.views import Observer
from .safe_text import clipped

STAR = "★"
NUMBER = re.compile(r"[+-]?[0-9]+")          # ASCII digits only: int() of other digits may fail
QUIT = ("q", "quit", "exit")
HELP = "type a move's number or its text · u undo · s piles in draw order · o overview · ? again · q quit"
BLANK_LINES = 40          # what "clears" the screen between two human seats (a pipe cannot be cleared)
GRID_GAP = 2              # spaces between two cells of a grid (1 when cells would be narrower than…
GRID_CELL = 8             # …this many characters)
PANEL_EDGE = 4            # a panel's borders and padding, left and right


class Quit(Exception):
    """The human typed q (or the input ended)."""


# ---- what the rules say about the zones ----
def ordered_families(rules) -> set:
    """Zone declarations whose order matters: the rules take cards from their top or bottom
    (`top … of Z`, `deal … from Z`)."""
    names, seen, todo = set(), set(), [rules]
    while todo:
        x = todo.pop()
        if isinstance(x, (list, tuple, set, frozenset)):
            todo.extend(x)
            continue
        if isinstance(x, dict):
            todo.extend(x.values())
            continue
        if not dataclasses.is_dataclass(x) or isinstance(x, type) or id(x) in seen:
            continue
        seen.add(id(x))
        if isinstance(x, ir.TopN):
            names |= _zones_in(x.cards)
        elif isinstance(x, ir.DealS):
            names.add(x.source.decl.name)
        todo.extend(getattr(x, f.name) for f in dataclasses.fields(x))
    return names


def _zones_in(e) -> set:
    """The zone declarations an expression of cards reads from."""
    if isinstance(e, ir.ZoneRef):
        return {e.decl.name}
    out = set()
    if isinstance(e, ir.Expr):
        for f in dataclasses.fields(e):
            v = getattr(e, f.name)
            for x in (v if isinstance(v, tuple) else (v,)):
                if isinstance(x, ir.Expr):
                    out |= _zones_in(x)
    return out


def counts_text(names: list, counts, unknown: int = 0) -> str:
    """'2×red:1, 1×blue:2' (type order), with '?×n' for n unknown cards."""
    parts = [f"{n}×{names[t]}" for t, n in sorted(dict(counts).items()) if n > 0]
    if unknown:
        parts.append(f"?×{unknown}")
    return ", ".join(parts) or "—"


def grid_layout(program, grid):
    """display.grid worked out for this player count: (family names, columns), or None."""
    if not grid or not grid.get("families"):
        return None
    columns = program.const(grid["columns"])
    if isinstance(columns, bool) or not isinstance(columns, int) or columns < 1:
        raise RuleRuntimeError(grid["columns"].pos, f"the grid's columns must be a positive whole number, "
                                                     f"not {show(columns, True)} with {program.players} players")
    return list(grid["families"]), columns


def abbreviate(name: str, width: int) -> tuple:
    """name in at most width characters, and {short word: word} for the words shortened: the longest
    words lose letters first, numbers never ('organic:4' -> 'organ:4', {'organ': 'organic'}); cut
    with '…' only when every word is down to one letter."""
    if len(name) <= width:
        return name, {}
    parts = re.split(r"([^\W_]+)", name)          # separators at even indices, words at odd ones
    whole = list(parts)
    words = [i for i in range(1, len(parts), 2) if not parts[i].isdigit()]
    excess = len(name) - width
    while excess > 0:
        longest = max(words, key=lambda i: len(parts[i]), default=None)
        if longest is None or len(parts[longest]) <= 1:
            break
        parts[longest] = parts[longest][:-1]
        excess -= 1
    short = "".join(parts)
    if len(short) > width:
        short = short[:max(width - 1, 0)] + "…"
    return short, {parts[i]: whole[i] for i in words if parts[i] != whole[i]}


def plural(n: int, word: str = "card") -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Session:
    """One game in the terminal: who sits where, the state, the seats' memories, input and output."""

    def __init__(self, game, players: int, seed: int, seat_bots: dict, ask=None, console=None,
                 memory_aid: bool = False):
        self.game, self.players, self.seed = game, players, seed
        self.program = p = game.program(players)
        self.console = console or Console(highlight=False)
        self.ask = ask
        self.bot_names = dict(seat_bots)
        self.bots = {k: make_bot(name, rng.derive(seed, k)) for k, name in seat_bots.items()}
        self.humans = [k for k in range(players) if k not in self.bots]
        display = getattr(p.rules, "display", None) or {}
        self.full = memory_aid or display.get("knowledge", "full") == "full"
        self.ordered = ordered_families(p.rules)
        self.grid = grid_layout(p, display.get("grid"))
        self.st = p.new_state(seed, log=True)
        self.undo_stack: list = []          # (state before, move text) of the decider's own moves
        self.no_undo = "you have made no move yet"
        self.memory: dict = {}              # seat -> (Observer, events of st.log read)
        self.seen: dict = {}                # human seat -> events of st.log shown to it
        self.last_human = None
        self._starter = None

    # ---- output ----
    def say(self, text: str = "") -> None:
        self.console.print(Text(text))

    def who(self, seat: int) -> str:
        return self.bot_names.get(seat, "you" if len(self.humans) == 1 else "human")

    def read(self, prompt: str) -> str:
        """One line of input; read lines are echoed (unless typed at a terminal) so that a transcript
        reads like a session."""
        if self.ask is None:
            if _isatty(sys.stdin) and self.console.is_terminal:
                try:
                    return self.console.input(prompt)
                except EOFError:
                    self.say()
                    raise Quit from None
            self.console.print(Text(prompt), end="")
            line = sys.stdin.readline()
            if not line:
                self.say()
                raise Quit
            line = line.rstrip("\r\n")
        else:
            try:
                line = self.ask(prompt)
            except (EOFError, StopIteration):
                self.say(prompt)
                raise Quit from None
            self.console.print(Text(prompt), end="")
        self.say(clipped(line, 200))      # the echo: short, control characters escaped
        return line

    # ---- the seats' memories ----
    def view(self, seat: int):
        """What `seat` knows now, from the events it saw (kept up to date incrementally)."""
        log = self.st.log
        obs, n = self.memory.get(seat, (None, 0))
        if obs is None or n > len(log):
            obs, n = Observer(self.program, seat), 0
        obs.observe_all(for_seat(self.program, log[n:], seat))
        self.memory[seat] = (obs, len(log))
        return obs.view()

    def set_state(self, st) -> None:
        """Go back to an earlier state: the memories are rebuilt from its log."""
        self.st = st
        self.memory.clear()

    def starter(self):
        """The seat of the first turn (everyone sees whose turn it is)."""
        if self._starter is None:
            self._starter = next((e[1] for e in self.st.log if e[0] == TURN), None)
        return self._starter

    def reveals(self, events: list, seat: int) -> bool:
        """Whether events bring new information to anyone: a card face out of a zone `seat` cannot see
        shown to some seat, or a shuffle."""
        vis, bit = self.program.zone_vis, 1 << seat
        for e in events:
            if e[0] == SHUFFLE or (e[0] == MOVE and e[4] and not vis[e[1]] & bit):
                return True
        return False

    # ---- the loop ----
    def run(self) -> bool:
        """Play to the end; False when a human quit (q or end of input)."""
        seats = ", ".join(f"seat {k}: {self.who(k)}" for k in range(self.players))
        self.say(f"{self.game.name}, {self.players} players, seed {self.seed} ({seats})")
        if not self.full:
            self.say("this ruleset shows only the cards visible now (display.knowledge: faces); "
                     "--memory-aid shows what you know")
        try:
            while not self.st.over:
                st = self.st
                legal = self.program.legal_moves(st)
                if not legal:
                    raise RuleRuntimeError(st.pending.pos, f"decision '{st.pending.name}' has no legal "
                                           f"option for seat {st.decider} in turn {st.turn}")
                if st.decider in self.bots:
                    self.bot_move(legal)
                else:
                    self.human_decision(legal)
        except Quit:
            self.say(f"game abandoned in turn {self.st.turn}.")
            return False
        self.show_result()
        return True

    def bot_move(self, legal: list) -> None:
        """A bot decides; its move is shown through the events the humans saw."""
        st, seat = self.st, self.st.decider
        n = len(st.log)
        move = self.bots[seat].choose(self.program, st, legal)
        self.program.apply(st, move)
        self.undo_stack.clear()
        self.no_undo = f"seat {seat} decided since your last move"
        self.report(f"seat {seat} ({self.bot_names[seat]})", st.log[n:], self.humans)

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

    def human_decision(self, legal: list) -> None:
        """Ask the deciding human until the state changes (a move kept, or an undo)."""
        seat = self.st.decider
        if len(self.humans) > 1 and seat != self.last_human:
            self.pass_screen(seat)
        self.last_human = seat
        self.show(seat, legal)
        while True:
            line = self.read(f"seat {seat}> ").strip()
            cmd = line.lower()
            if not line:
                continue
            if cmd in QUIT:
                raise Quit
            if cmd in ("?", "h", "help"):
                self.show(seat, legal)
            elif cmd == "s":
                self.show_piles(seat)
            elif cmd == "o":
                self.show_overview(seat)
            elif cmd == "c":
                self.say("nothing to confirm: choose a move first")
            elif cmd == "u":
                if self.undo():
                    return
            else:
                move = self.parse(line, legal)
                if move is not None and self.try_move(seat, move):
                    return
                if move is not None:
                    self.show_moves(legal)

    def parse(self, line: str, legal: list):
        """The move a line names (by number or canonical text), or None after saying why not; any
        line (a number of any length, any characters) gets a reason, never an error."""
        if NUMBER.fullmatch(line):
            n = int(line) if len(line) <= 9 else 0          # beyond Python's digit limit too: no such move
            if 1 <= n <= len(legal):
                return legal[n - 1]
            self.say(f"there is no move {clipped(line, 20)}: type 1 to {len(legal)}, a move's text, or ? for help")
            return None
        longest = max(len(self.program.move_text(self.st, m)) for m in legal)
        if len(line) > 2 * longest + 20:
            self.say(f"that is not a move: {len(line):,} characters, longer than any legal move; type 1 to "
                     f"{len(legal)}, a move's text, or ? for help")
            return None
        try:
            return self.program.parse_move(self.st, line)
        except IllegalMove as exc:
            self.say(clipped(str(exc), 2000))
            return None

    def try_move(self, seat: int, move) -> bool:
        """Apply the move on a copy; keep it at once, or after confirmation when it reveals new cards
        or ends the seat's decisions. True when the move was kept."""
        st, program = self.st, self.program
        text = program.move_text(st, move)
        trial = st.clone()
        n = len(st.log)
        program.apply(trial, move)
        new = trial.log[n:]
        if self.reveals(new, seat):
            why = "this reveals new cards"
        elif trial.over:
            why = "this ends the game"
        elif trial.decider != seat:
            why = f"this ends your decisions (seat {trial.decider} decides next)"
        else:
            why = None
        if why:
            self.say(f"{text} — {why}: c to confirm, u to undo")
            while True:
                answer = self.read(f"seat {seat} confirm (c/u)> ").strip().lower()
                if answer == "c":
                    break
                if answer == "u":
                    self.say(f"undone: {text}")
                    return False
                if answer in QUIT:
                    raise Quit
                self.say("type c to confirm or u to undo")
            self.undo_stack.clear()
            self.no_undo = f"you confirmed '{text}'" + (" and new cards were revealed" if "reveals" in why else "")
        else:
            self.undo_stack.append((st, text))
        self.st = trial
        self.report("you" if len(self.humans) == 1 else f"seat {seat}",
                    for_seat(program, new, seat), [seat])
        return True

    def undo(self) -> bool:
        """Take back the seat's last move of this turn; False (and why) when there is none."""
        if not self.undo_stack:
            self.say(f"nothing to undo: {self.no_undo}")
            return False
        st, text = self.undo_stack.pop()
        self.set_state(st)
        self.say(f"undone: {text}")
        return True

    def pass_screen(self, seat: int) -> None:
        """Between two human seats: hide the previous seat's screen, wait, then recap for the next."""
        self.console.print(Rule())
        for _ in range(BLANK_LINES):
            self.console.print()
        self.console.print(Rule(Text(f"pass to seat {seat}")))
        self.say(f"— pass to seat {seat} —")
        self.read(f"seat {seat}, press Enter when ready ")
        start = self.seen.get(seat)
        if start is not None and start < len(self.st.log):
            self.report(f"seat {seat}, since you last looked",
                        for_seat(self.program, self.st.log[start:], seat), [seat])

    # ---- display ----
    def zone_label(self, z: int) -> str:
        decl, name = self.program.zone_decl[z], self.program.zone_names[z]
        return name.replace(f"({self.program.zone_owner[z]})", "") if decl.per_player else name

    def zone_text(self, v, z: int) -> str:
        """What the seat knows of one zone: faces if it sees them, else the size (and, when knowledge
        is shown, the cards known to be there)."""
        names, size = self.program.type_names, v.size(z)
        if v.sees(z):
            if not size:
                return "—"
            cards = v.cards(z)
            if self.program.zone_decl[z].name in self.ordered:
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
                 for z in range(len(prog.zone_names)) if prog.zone_owner[z] == p and prog.zone_decl[z].per_player]
        lines += [f"{name} = {show(value)}" for (name, owner), value in v.vars if owner == p]
        title = f"seat {p} · {self.who(p)}"
        if p == self.starter():
            title += f" {STAR} started"
        if p == v.current:
            title += " · to play"
        return Panel(Text("\n".join(lines) or "(nothing)"), title=Text(title), title_align="left",
                     border_style="bold" if p == v.seat else "dim")

    def grid_cell(self, v, value) -> tuple:
        """What the seat knows at one grid position: (card type or None, how, cards there), how being
        'face' (seen now), 'remembered' (face down, known, knowledge shown), 'hidden' or 'empty'."""
        prog = self.program
        for name in self.grid[0]:
            z = prog.zone_base[name] + prog.family[name][value]
            size = v.size(z)
            if not size:
                continue
            top = v.cards(z)[-1]
            if v.sees(z):
                return top, ("hidden" if top is None else "face"), size
            if not self.full:
                return None, "hidden", size
            known = v.known_cards(z)
            if top is None and len(known) == 1 and sum(known.values()) == size:
                top = next(iter(known))
            return top, ("hidden" if top is None else "remembered"), size
        return None, "empty", 0

    def grid_view(self, v) -> list:
        """The grid families as `columns` cells a row: index (and card count above one), then the card."""
        prog, (families, columns) = self.program, self.grid
        names = prog.type_names
        positions = list(prog.family[families[0]])
        cells = [(value, *self.grid_cell(v, value)) for value in positions]
        longest = max(max(len(n) for n in names) + (2 if self.full else 0),
                      max(len(str(value)) for value in positions))
        for gap in (GRID_GAP, 1):          # closer cells rather than cells too narrow for a name
            room = (self.console.width - PANEL_EDGE - gap * (columns - 1)) // columns
            if room >= min(longest, GRID_CELL):
                break
        width = max(3, min(room, longest))
        grid = Table(show_header=False, box=None, padding=(0, gap, 0, 0), pad_edge=False, expand=False)
        for _ in range(columns):
            grid.add_column(width=width, no_wrap=True, overflow="ellipsis")
        short: dict = {}             # short word -> the words it stands for
        fit = width - 2 if self.full else width      # the same abbreviation face up and remembered
        row = []
        for value, t, how, size in cells:
            cell = Text(str(value) + (f" ×{size}" if size > 1 else ""), style="dim")
            cell.append("\n")
            if how == "face" or how == "remembered":
                text, words = abbreviate(names[t], fit)
                for a, b in words.items():
                    short.setdefault(a, set()).add(b)
                if how == "face":
                    cell.append(text, style="bold")
                else:
                    cell.append(f"[{text}]", style="dim italic")
            else:
                cell.append("?" if how == "hidden" else "·", style="dim")
            row.append(cell)
            if len(row) == columns:
                grid.add_row(*row)
                row = []
        if row:
            grid.add_row(*row, *[""] * (columns - len(row)))
        held = Counter(how for _, _, how, _ in cells)
        down = f"{held['hidden'] + held['remembered']} face down"
        if held["remembered"]:
            down += f" ({held['remembered']} remembered)"
        summary = ([f"{held['face']} face up"] if held["face"] else []) + [down, f"{held['empty']} empty"]
        title = Text(f"{' / '.join(families)}: {len(positions)} positions, {columns} a row — " + ", ".join(summary))
        out = [title, grid]
        if short:
            out.append(Text("abbreviated: " + ", ".join(f"{a} = {' / '.join(sorted(b))}"
                                                        for a, b in sorted(short.items())), style="dim"))
        return out

    def table_view(self, v) -> list:
        """The table: the grid, families with the same index list as one table, other zones as lines."""
        prog = self.program
        groups: dict = {}
        lines = []
        in_grid = set(self.grid[0]) if self.grid else set()
        for decl in prog.rules.zones:
            if decl.per_player or decl.name in in_grid:
                continue
            base = prog.zone_base[decl.name]
            if decl.per is None:
                lines.append(f"{decl.name}: {self.zone_text(v, base)}")
            else:
                groups.setdefault(tuple(prog.family[decl.name]), []).append(decl)
        lines += [f"{name} = {show(value)}" for (name, owner), value in v.vars if owner is None]
        out = self.grid_view(v) if self.grid else []
        if out and (groups or lines):
            out.append(Text(""))
        for values, decls in groups.items():
            table = Table(show_header=True, expand=False, box=None, padding=(0, 2))
            table.add_column("")
            for decl in decls:
                table.add_column(Text(decl.name))
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
        self.say("legal moves:")
        for i, m in enumerate(legal, 1):
            self.say(f"  {i:>2}. {self.program.move_text(self.st, m)}")
        self.say(HELP)

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


def play(game, players: int, seed: int, seat_bots: dict, ask=None, console=None,
         memory_aid: bool = False) -> bool:
    """Play one game in the terminal; False when a human quit before the end.

    ask(prompt) -> line replaces reading stdin (tests); console receives all output."""
    return Session(game, players, seed, seat_bots, ask, console, memory_aid).run()
