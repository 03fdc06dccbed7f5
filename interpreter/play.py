"""Terminal play: humans and bots at one table, one decision at a time (`cardrules play`).

A first, plain version: text in, text out, through `input()` and `print()` so that tests can
drive it through stdin. Seats are numbered from 0, as in records and error messages.
Seat k's bot is seeded with `rng.derive(seed, k)` (the same rule as `cardrules record`).
"""
from __future__ import annotations

import sys

from . import rng
from .bots import make_bot
from .errors import IllegalMove, RuleRuntimeError
from .game import Game


class Quit(Exception):
    """The human typed q (or stdin ended)."""


def group_cards(program, cards: list) -> str:
    """Cards as counts by type in type order: '2×red:1, 1×blue:2'."""
    counts: dict = {}
    for c in cards:
        t = program.card_type[c]
        counts[t] = counts.get(t, 0) + 1
    return ", ".join(f"{n}×{program.type_names[t]}" for t, n in sorted(counts.items()))


def zone_lines(program, st, seat: int) -> list:
    """What `seat` may know of every zone: its own and public zones card by card, the rest by size."""
    everyone = (1 << program.players) - 1
    mine, table, hidden = [], [], []
    for z, name in enumerate(program.zone_names):
        cards, vis = st.zones[z], program.zone_vis[z]
        if vis & (1 << seat):
            text = group_cards(program, cards) if cards else "—"
            if len({program.card_type[c] for c in cards}) > 1:
                text += f"   (top: {program.type_names[program.card_type[cards[-1]]]})"
            (table if vis == everyone else mine).append(f"  {name}: {text}")
        else:
            hidden.append(f"  {name}: {len(cards)} card{'s' if len(cards) != 1 else ''}")
    out = []
    if mine:
        out += [f"seat {seat}, your cards:"] + mine
    if table:
        out += ["on the table:"] + table
    if hidden:
        out += ["hidden from you (sizes):"] + hidden
    return out


def chosen_cards(dec, st, move) -> list:
    """The cards a move of this decision would take (empty for value moves)."""
    if dec.kind == "cards":
        return dec.cards.bind(st, move)
    if dec.kind == "options":
        i, payload = move
        spec = dec.options[i][2]
        return spec.bind(st, payload) if spec is not None and payload is not None else []
    return []


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Table:
    """One game in the terminal: who sits where, the state, and the input/output functions."""

    def __init__(self, game: Game, players: int, seed: int, seat_bots: dict, ask=input, say=print):
        self.game, self.players, self.seed = game, players, seed
        self.program = game.program(players)
        self.bot_names = dict(seat_bots)
        self.bots = {k: make_bot(name, rng.derive(seed, k)) for k, name in seat_bots.items()}
        self.humans = [k for k in range(players) if k not in self.bots]
        self.ask, self.say = ask, say
        self.st = self.program.new_state(seed)
        self.last_human = None

    def who(self, seat: int) -> str:
        return self.bot_names.get(seat, "you" if len(self.humans) == 1 else "human")

    # ---- the loop ----
    def run(self) -> bool:
        """Play to the end; False when a human quit (q or end of input)."""
        seats = ", ".join(f"seat {k}: {self.who(k)}" for k in range(self.players))
        self.say(f"{self.game.name}, {self.players} players, seed {self.seed} ({seats})")
        program, st = self.program, self.st
        try:
            while not st.over:
                legal = program.legal_moves(st)
                if not legal:
                    raise RuleRuntimeError(st.pending.pos, f"decision '{st.pending.name}' has no legal option "
                                           f"for seat {st.decider} in turn {st.turn}")
                if st.decider in self.bots:
                    self.bot_move(legal)
                else:
                    program.apply(st, self.human_move(legal))
        except Quit:
            self.say(f"game abandoned in turn {st.turn}.")
            return False
        self.show_result()
        return True

    def bot_move(self, legal: list) -> None:
        """Let a bot decide, apply its move and announce it (cards hidden from the humans stay hidden)."""
        program, st = self.program, self.st
        seat, dec = st.decider, st.pending
        move = self.bots[seat].choose(program, st, legal)
        text = program.move_text(st, move)
        cards = chosen_cards(dec, st, move)
        before = [st.loc[c] for c in cards]
        program.apply(st, move)
        humans = sum(1 << k for k in self.humans)
        vis = program.zone_vis
        if any((vis[b] | vis[st.loc[c]]) & humans != humans for b, c in zip(before, cards)):
            text = f"{text.split(':')[0]}: {len(cards)} card{'s' if len(cards) != 1 else ''}"
        self.say(f"seat {seat} ({self.bot_names[seat]}): {text}")

    def human_move(self, legal: list):
        """Ask the deciding human until they give a legal move (by number or text)."""
        program, st = self.program, self.st
        seat = st.decider
        if len(self.humans) > 1 and seat != self.last_human:
            self.say(f"— pass to seat {seat} —")
            self.read(f"seat {seat}, press Enter when ready ")
        self.last_human = seat
        self.show(legal)
        while True:
            line = self.read(f"seat {seat}> ").strip()
            if not line:
                continue
            if line.lower() in ("q", "quit", "exit"):
                raise Quit
            if line == "?":
                self.show(legal)
                continue
            if line.isdigit():
                n = int(line)
                if 1 <= n <= len(legal):
                    return legal[n - 1]
                self.say(f"there is no move {n}: type 1 to {len(legal)}, a move's text, ? or q")
                continue
            try:
                return program.parse_move(st, line)
            except IllegalMove as exc:
                self.say(str(exc))

    def read(self, prompt: str) -> str:
        """One line of input; piped input is echoed so that the transcript reads like a session."""
        try:
            line = self.ask(prompt)
        except EOFError:
            self.say("")
            raise Quit from None
        if self.ask is input and not _isatty(sys.stdin):
            self.say(line)
        return line

    # ---- display ----
    def show(self, legal: list) -> None:
        program, st = self.program, self.st
        seat = st.decider
        whose = "" if st.current == seat else f" (seat {st.current}'s turn)"
        self.say("")
        self.say(f"turn {st.turn}{whose} — seat {seat} decides: {st.pending.name}")
        for line in zone_lines(program, st, seat):
            self.say(line)
        self.say("legal moves:")
        for i, m in enumerate(legal, 1):
            self.say(f"  {i:>2}. {program.move_text(st, m)}")
        self.say("type a number or a move's text; ? shows this again, q quits")

    def show_result(self) -> None:
        from rich.console import Console
        from rich.table import Table as RichTable

        result = self.program.result(self.st)
        table = RichTable(title=f"{self.game.name}: final scores after {result['turns']} turns")
        table.add_column("seat", justify="right")
        table.add_column("player")
        table.add_column("score", justify="right")
        table.add_column("")
        for k, s in enumerate(result["scores"]):
            table.add_row(str(k), self.who(k), str(s), "winner" if k in result["winners"] else "")
        Console(file=sys.stdout, highlight=False).print(table)
        winners = result["winners"]
        label = "winner" if len(winners) == 1 else "shared victory"
        self.say(f"{label}: " + ", ".join(f"seat {k} ({self.who(k)})" for k in winners))


def play(game: Game, players: int, seed: int, seat_bots: dict, ask=input, say=print) -> bool:
    """Play one game in the terminal; False when a human quit before the end."""
    return Table(game, players, seed, seat_bots, ask, say).run()
