"""One game at the table: the seats, the state, the seats' memories, the loop, input and undo."""
from __future__ import annotations

import sys

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from ...runtime import rng
from ...seats.registry import make_bot
from ...runtime.engine import MOVE, REVEAL, SHUFFLE, TURN
from ...runtime.tell import TELL
from ...errors import RuleRuntimeError
from ...runtime.events import for_seat
from ...seats.views import Observer
from ..safe_text import clipped
from .display import Display
from .grid import Grid
from .overview import Overview
from .recent import Recent
from .result import Result
from .screen import Screen
from .story import Story
from .typed_moves import MOVE_MARK, TypedMoves
from .words import plural

QUIT = ("q", "quit", "exit")
HELP = ("?", "h", "help")
YES = ("y", "yes") + QUIT   # answers to "quit?" that quit (q twice quits too)
CLEAR = "\x1b[H\x1b[2J\x1b[3J"   # home, clear the screen, and clear the scrollback (xterm, tmux, …)


class Quit(Exception):
    """The human typed q (or the input ended)."""


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Session(Screen, Grid, Story, Recent, TypedMoves, Overview, Result):
    """One game in the terminal: who sits where, the state, the seats' memories, input and output."""

    def __init__(self, game, players: int, seed: int, seat_bots: dict, ask=None, console=None,
                 memory_aid: bool = False, keeper=None, start=None):
        """keeper (a keeping.Keeper) keeps the game in its file; start = (state, {seat: bot}) goes on
        with a game played that far (records.continue_game) instead of a new one."""
        self.game, self.players, self.seed = game, players, seed
        self.program = p = game.program(players)
        self.console = console or Console(highlight=False)
        self.ask = ask
        self.bot_names = dict(seat_bots)
        self.bots = {k: make_bot(name, rng.derive(seed, k)) for k, name in seat_bots.items()}
        self.humans = [k for k in range(players) if k not in self.bots]
        self.display = Display(p, memory_aid)
        self.full, self.ordered, self.grid = self.display.full, self.display.ordered, self.display.grid
        if start is None:
            self.st = p.new_state(seed, log=True, record=True)     # record: the shuffles, for the kept record
        else:
            self.st, self.bots = start
        self.keeper = keeper
        self.resumed = start is not None    # a game played that far: its seats are told it first
        self.undo_stack: list = []          # (state before, move text) of the decider's own moves
        self.no_undo = "you have made no move yet"
        self.memory: dict = {}              # seat -> (Observer, events of st.log read)
        self.seen: dict = {}                # human seat -> events of st.log shown to it
        self.last_human = None
        self._starter = None

    # ---- output ----
    def say(self, text: str = "") -> None:
        self.flush_story()
        self.console.print(Text(text))

    def say_whole(self, text: str) -> None:
        """A line the terminal wraps, not rich: a file name in it stays whole, to be copied."""
        self.flush_story()
        self.console.print(Text(text), soft_wrap=True)

    def who(self, seat: int) -> str:
        return self.bot_names.get(seat, "you" if len(self.humans) == 1 else "human")

    def read(self, prompt: str) -> str:
        """One line of input; read lines are echoed (unless typed at a terminal) so that a transcript
        reads like a session."""
        self.flush_story()
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
            if e[0] in (SHUFFLE, REVEAL) or (e[0] == MOVE and e[4] and not vis[e[1]] & bit):
                return True
        return False

    # ---- the loop ----
    def run(self) -> bool:
        """Play to the end; False when a human quit (q or end of input). A kept game is written
        before the first move and after every change."""
        seats = ", ".join(f"seat {k}: {self.who(k)}" for k in range(self.players))
        self.say(f"{self.game.name}, {self.players} players, seed {self.seed} ({seats})")
        if not self.full:
            self.say("this ruleset shows only the cards visible now (display.knowledge: faces); "
                     "--memory-aid shows what you know")
        if self.st.moves:
            self.say(f"resumed after {plural(self.st.moves, 'move')}, in turn {self.st.turn}")
            if len(self.humans) == 1:           # the game so far, as the human saw it (at a hot
                self.report_since(self.humans[0], 0)        # seat: after the first pass screen)
        else:
            self.report_opening()
        self.keep()
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
                self.keep()
        except Quit:
            self.say(f"game abandoned in turn {self.st.turn}.")
            if self.keeper is not None:
                path, moves = self.keeper.path, plural(self.keeper.moves, "move")
                self.say_whole(f"the game is saved to {path} ({moves}): "
                               f"continue it with cardrules play --resume {path}")
            return False
        self.show_result()
        if self.keeper is not None:
            path = self.keeper.path
            self.say_whole(f"the game's record is in {path} (cardrules replay {path} checks it)")
        return True

    def keep(self) -> None:
        """Write the game as it stands to its record file, when it is kept."""
        if self.keeper is not None:
            self.keeper.keep(self)

    def confirm_quit(self) -> None:
        """q: quit (raise Quit) once the human says yes; the end of the input quits without asking."""
        if self.keeper is not None:
            where = f"the game is saved to {self.keeper.path}"
        else:
            where = "the game is not saved (play -o FILE keeps a game)"
        if self.read(f"quit? {where}: y/n ").strip().lower() in YES:
            raise Quit
        self.say("not quitting: the game goes on")

    def bot_move(self, legal: list) -> None:
        """A bot decides; its move is shown through the events the humans saw."""
        st, seat = self.st, self.st.decider
        n = len(st.log)
        move = self.bots[seat].choose(self.program, st, legal)
        before = st.clone(log=False)        # what the humans may learn of the move is worked out from it
        self.program.apply(st, move)
        self.undo_stack.clear()
        self.no_undo = f"seat {seat} decided since your last move"
        self.report(f"seat {seat} ({self.bot_names[seat]})", st.log[n:], self.humans, before)

    def human_decision(self, legal: list) -> None:
        """Ask the deciding human until the state changes (a move kept, or an undo); a decision
        with one legal move is taken without asking (see try_move)."""
        seat = self.st.decider
        if len(self.humans) > 1 and seat != self.last_human:
            self.pass_screen(seat)
            if self.last_human is not None:     # the last seat's move is not this seat's to read
                self.no_undo = f"seat {self.last_human} decided since your last move"
        self.last_human = seat
        if len(legal) == 1 and self.try_move(seat, legal[0], only=True):
            return
        self.show(seat, legal)
        while True:
            line = self.read(f"seat {seat}> ").strip()
            cmd = line.lower()
            if not line or line == MOVE_MARK:
                continue
            if line.startswith(MOVE_MARK):
                cmd = None              # '=d': the move d, not the command
            if cmd in QUIT:
                self.confirm_quit()
            elif cmd in HELP:
                self.show_help(legal)
            elif cmd == "r":
                self.show(seat, legal)
            elif cmd in ("n", "p"):
                self.turn_page(seat, legal, 1 if cmd == "n" else -1)
            elif cmd == "d":
                self.show_detail(seat, legal)
            elif cmd == "s":
                self.show_piles(seat)
            elif cmd == "o":
                self.show_overview(seat)
            elif cmd == "l":
                self.show_log(seat)
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

    def confirm_reason(self, trial, new: list, seat: int):
        """Why a move must be confirmed before it is kept (or None): after it nothing can be undone."""
        if self.reveals(new, seat):
            return "this reveals new cards"
        if any(e[0] == TELL for e in new):     # what a player was told cannot be taken back
            return "this tells players about cards"
        if trial.over:
            return "this ends the game"
        if trial.decider != seat:
            return f"this ends your decisions (seat {trial.decider} decides next)"
        return None

    def try_move(self, seat: int, move, only: bool = False) -> bool:
        """Apply the move on a copy; keep it at once, or after confirmation when it reveals new cards
        or ends the seat's decisions. True when the move was kept. The only legal move (`only`) is
        taken with a note: asking could only let the player take back an earlier move of the turn,
        so it asks only when there is one that this move would make final; it is never undone by
        itself (undo goes back past it to the move chosen before)."""
        st, program = self.st, self.program
        text = program.move_text(st, move)
        trial = st.clone()
        n = len(st.log)
        program.apply(trial, move)
        new = trial.log[n:]
        why = self.confirm_reason(trial, new, seat)
        asked = why is not None and (bool(self.undo_stack) or not only)
        if only:
            self.say(f"only one move: {text} — " + (f"{why}: c to confirm, u to go back (then u takes back "
                                                   f"'{self.undo_stack[-1][1]}')" if asked else "taken"))
        elif asked:
            self.say(f"{text} — {why}: c to confirm, u to undo")
        if asked:
            while True:
                answer = self.read(f"seat {seat} confirm (c/u)> ").strip().lower()
                if answer == "c":
                    break
                if answer == "u":
                    self.say(f"undone: {text}")
                    return False
                if answer in QUIT:
                    self.confirm_quit()
                    continue
                self.say("type c to confirm or u to undo")
        revealed = why is not None and "reveals" in why
        if asked:
            self.no_undo = f"you confirmed '{text}'" + (" and new cards were revealed" if revealed else "")
        elif why:
            self.no_undo = f"'{text}' was your only move" + (" and revealed new cards" if revealed else "")
        if why:
            self.undo_stack.clear()
        elif not only:
            self.undo_stack.append((st, text))
        self.st = trial
        self.report("you" if len(self.humans) == 1 else f"seat {seat}",
                    for_seat(program, new, seat), [seat], st)
        if only:                # not shown a screen: what it saw until now was just reported
            self.seen[seat] = len(trial.log)
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
        """Between two human seats: hide the previous seat's screen, wait, then recap for the next.
        A terminal is cleared with its scrollback (once a seat has seen its screen: before, the
        game's title stays); a pipe (or a dumb terminal) gets a separator."""
        terminal = self.console.is_terminal and not self.console.is_dumb_terminal
        self.flush_story()          # the last seat's lines, before its screen is cleared
        if terminal and self.last_human is not None:
            self.console.file.write(CLEAR)
            self.console.file.flush()
        else:
            self.console.print(Rule())
            self.say()
        self.console.print(Rule(Text(f"pass to seat {seat}")))
        self.say(f"— pass to seat {seat} —")
        while self.read(f"seat {seat}, press Enter when ready ").strip().lower() in QUIT:
            self.confirm_quit()
        # a seat's first look after the screen was cleared tells the game from its beginning
        start = self.seen.get(seat, 0 if self.last_human is not None or self.resumed else None)
        if start is not None and start < len(self.st.log):
            self.report_since(seat, start)
