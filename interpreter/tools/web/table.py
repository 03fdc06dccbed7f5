"""One table in the browser: the game, its seats and their tokens, the bots, undo and confirmation.

The rules of play are the terminal's (play/session.py): a seat's own moves can be undone back to
the last point where new information reached anyone; a move that reveals new cards or ends the
seat's decisions waits for the seat to confirm it (the copy it was applied to is never shown).
What the other viewers see is only what can no longer be undone: their pages are rebuilt when a
move is final (confirmed, a bot's, or one that needs no confirmation but after which nothing can
be undone), so a move taken back was never shown to anyone else.

Every change goes through `act` under the table's one lock, and carries the table's version as the
client saw it: a request made on an older page (a second click, a duplicate sent at once) is
refused, so a move is applied at most once. Bots play on the server, one move at a time in a
worker thread, each followed by the viewers' pages.
"""
from __future__ import annotations

import asyncio
import hmac
import io
import json
import secrets

from rich.console import Console

from ...errors import RuleRuntimeError
from ..play.session import Session
from .pages import Pages

PUBLIC = "public"       # the spectator's key among the tokens


class Refused(Exception):
    """A request that changes nothing, with the reason and an HTTP status."""

    def __init__(self, reason: str, status: int = 409):
        super().__init__(reason)
        self.reason, self.status = reason, status


class WebTable(Pages, Session):
    """One game at one web table: its seats' tokens, state, pages and listeners."""

    def __init__(self, game, players: int, seed: int, seat_bots: dict, keeper=None, start=None,
                 memory_aid: bool = False):
        console = Console(file=io.StringIO(), width=100, highlight=False)
        super().__init__(game, players, seed, seat_bots, console=console, memory_aid=memory_aid,
                         keeper=keeper, start=start)
        self.tokens = {secrets.token_urlsafe(24): k for k in self.humans}
        self.tokens[secrets.token_urlsafe(24)] = PUBLIC
        self.version = 0
        self.confirming: dict = {}      # seat -> (state after the move, its text, why it asks)
        self.notes: list = []           # what the session says (a typed line's reason)
        self.pages: dict = {}           # viewer -> its page as JSON text
        self.listeners: set = set()     # one asyncio.Queue per open socket
        self.error = None
        self._lock = None
        self.keep()
        while self.bot_to_move():
            self.bot_step()
        self.refresh(self.viewers())

    # ---- tokens ----
    def viewer_of(self, token: str):
        """The seat (or PUBLIC) a token stands for; None for any other string."""
        found = None
        for known, viewer in self.tokens.items():
            if hmac.compare_digest(known.encode(), token.encode("utf-8", "replace")):
                found = viewer
        return found

    def links(self) -> list:
        """(who, token) for every human seat, then the spectator."""
        return sorted(((f"seat {v}" if v != PUBLIC else "spectator", t) for t, v in self.tokens.items()),
                      key=lambda x: (x[0] == "spectator", x[0]))

    # ---- pages ----
    def say(self, text: str = "") -> None:
        self.notes.append(text)

    def say_whole(self, text: str) -> None:
        self.notes.append(text)

    def refresh(self, viewers) -> None:
        for viewer in viewers:
            self.pages[viewer] = json.dumps(self.page(viewer), ensure_ascii=False)

    def page_of(self, viewer) -> str:
        return self.pages[None if viewer == PUBLIC else viewer]

    def notify(self) -> None:
        for queue in list(self.listeners):
            queue.put_nowait(self.version)

    # ---- changes (each under the lock, in a worker thread) ----
    @property
    def lock(self) -> asyncio.Lock:
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    async def act(self, change, *args):
        """Make one change, then let the bots play; every viewer is told after each step."""
        async with self.lock:
            result = await asyncio.to_thread(change, *args)
            self.notify()
            while self.bot_to_move():
                await asyncio.to_thread(self.bot_step)
                self.notify()
            return result

    def bot_to_move(self) -> bool:
        return not self.st.over and self.error is None and self.st.decider in self.bots

    def bot_step(self) -> None:
        """The deciding bot moves; every viewer sees it."""
        st, seat = self.st, self.st.decider
        try:
            move = self.bots[seat].choose(self.program, st, self.legal(st))
            self.befores()[st.moves] = st.clone(log=False)
            self.program.apply(st, move)
        except RuleRuntimeError as exc:
            self.error = f"the rules failed: {exc}"
            raise Refused(self.error, 500) from None
        self.undo_stack.clear()
        self.no_undo = f"seat {seat} decided since your last move"
        self.changed(self.viewers())

    def legal(self, st) -> list:
        legal = self.program.legal_moves(st)
        if not legal:
            raise RuleRuntimeError(st.pending.pos, f"decision '{st.pending.name}' has no legal option for seat "
                                   f"{st.decider} in turn {st.turn}")
        return legal

    def changed(self, viewers) -> None:
        self.version += 1
        self.keep()
        self.refresh(viewers)

    def checked(self, seat, version, deciding: bool = True) -> None:
        """Refuse a request made on an older page, from the spectator, or from a seat not deciding."""
        if seat == PUBLIC:
            raise Refused("a spectator cannot move", 403)
        if self.error is not None:
            raise Refused(self.error, 500)
        if self.st.over:
            raise Refused("the game is over")
        if version != self.version:
            raise Refused(f"the table has changed since your page was made (version {version}, now "
                          f"{self.version}): nothing was done; look again")
        if deciding and self.st.decider != seat:
            raise Refused(f"it is seat {self.st.decider}'s decision, not yours: nothing was done")

    def move(self, seat, version: int, index=None, text=None) -> None:
        """A move of the seat, by its place in the listed moves or by typed text."""
        self.checked(seat, version)
        if seat in self.confirming:
            raise Refused(f"confirm or take back '{self.confirming[seat][1]}' first")
        legal = self.legal(self.st)
        if index is not None:
            entries = self.shown_moves(legal).entries
            if not 0 <= index < len(entries):
                raise Refused(f"there is no move {index}: the moves are 0 to {len(entries) - 1}", 422)
            move = entries[index][1]
        else:
            self.notes = []
            move = self.parse(text, legal)
            if move is None:
                raise Refused(" ".join(self.notes) or "that is not a legal move", 422)
        self.try_web_move(seat, move)

    def try_web_move(self, seat: int, move) -> None:
        """The move applied to a copy; kept at once, or held until the seat confirms it."""
        st, program = self.st, self.program
        text = program.move_text(st, move)
        trial, n = st.clone(), len(st.log)
        program.apply(trial, move)
        why = self.confirm_reason(trial, trial.log[n:], seat)
        if why is not None:
            self.confirming[seat] = (trial, text, why)
            self.version += 1
            self.refresh([seat])
            return
        self.befores()[st.moves] = st.clone(log=False)
        self.undo_stack.append((st, text))
        self.st = trial
        self.changed([seat])            # undoable: nobody else is shown it yet

    def confirm(self, seat, version: int) -> None:
        """Keep the move waiting for confirmation: from now on everyone sees it."""
        self.checked(seat, version)
        if seat not in self.confirming:
            raise Refused("nothing to confirm: choose a move first")
        trial, text, why = self.confirming.pop(seat)
        self.befores()[self.st.moves] = self.st.clone(log=False)
        self.undo_stack.clear()
        self.no_undo = f"you confirmed '{text}'" + (" and new cards were revealed" if "reveals" in why else "")
        self.st = trial
        self.changed(self.viewers())

    def cancel(self, seat, version: int) -> None:
        """Drop the move waiting for confirmation."""
        self.checked(seat, version)
        if self.confirming.pop(seat, None) is None:
            raise Refused("nothing to take back: no move waits for confirmation")
        self.version += 1
        self.refresh([seat])

    def undo(self, seat, version: int) -> None:
        """Take back the seat's last move of this decision run."""
        self.checked(seat, version)
        if seat in self.confirming:
            raise Refused(f"confirm or take back '{self.confirming[seat][1]}' first")
        if not self.undo_stack:
            raise Refused(f"nothing to undo: {self.no_undo}")
        st, _ = self.undo_stack.pop()
        self.set_state(st)
        self.changed([seat])
