"""The caller's side of a bot: a `Player` takes the real state, gives its bot a Seat, checks the answer.

Callers (records, observe, play) hold Players, made by registry.make_bot, and call
`player.choose(program, st, moves)`. The Player keeps the seat's memory of the game (an Observer
fed the events as the seat saw them), builds the Seat the bot decides from (seat.py) and, for a
user's bot, turns what goes wrong in it into a BotError naming the bot: an exception it raised, or
an answer that is not one of the legal moves. A decision with one legal move is not asked: that
move is played (no bot draws from its generator there).
"""
from __future__ import annotations

import gc

from ..errors import BotError, CardrulesError
from ..runtime.events import for_seat
from .seat import Seat
from .views import Observer
from .worlds import sanitised

OWN = frozenset(("bot", "spec", "builtin", "_memory", "choose", "choose_from"))


class Player:
    """One bot in one seat's place; it stands in for its bot (its options and generator read and
    set through it)."""

    def __init__(self, bot, spec: str, builtin: bool = True):
        object.__setattr__(self, "bot", bot)
        object.__setattr__(self, "spec", spec)          # the canonical spec text (what records store)
        object.__setattr__(self, "builtin", builtin)    # one of ours: trusted to answer a legal move
        object.__setattr__(self, "_memory", None)       # follow(): [.., (Observer, events seen)]
        # choose_from(moves) -> move: one of our bots that decides from the legal moves alone (random), else None
        object.__setattr__(self, "choose_from", getattr(bot, "choose_from", None) if builtin else None)
        if self.choose_from is not None:
            object.__setattr__(self, "choose", _plain(self.choose_from))

    def __getattr__(self, name):
        if name in OWN:
            raise AttributeError(name)
        return getattr(self.bot, name)

    def __setattr__(self, name, value):
        if name in OWN:
            object.__setattr__(self, name, value)
        else:
            setattr(self.bot, name, value)

    def __delattr__(self, name):
        delattr(self.bot, name)

    def choose(self, program, st, moves: list):
        """The bot's move at this decision of st (moves: its legal moves)."""
        if len(moves) == 1:
            return moves[0]
        # a user's bot gets its own list of the moves: what it does to it changes nothing here
        seat = self.seat_for(program, st, moves if self.builtin else list(moves))
        if not self.bot.looks_ahead:
            return self.ask(seat, moves)
        # A look-ahead makes thousands of state copies, acyclic lists that reference counting
        # frees; each batch of them would otherwise start a collection that walks every live object.
        if not gc.isenabled():
            return self.ask(seat, moves)
        gc.disable()
        try:
            return self.ask(seat, moves)
        finally:
            gc.enable()

    def ask(self, seat: Seat, moves: list):
        """bot.choose(seat); a user's bot is checked: what goes wrong is a BotError naming it."""
        if self.builtin:
            return self.bot.choose(seat)
        where = f"bot {self.spec} (seat {seat.number}, turn {seat.turn})"
        try:
            move = self.bot.choose(seat)
            legal = next((m for m in moves if m == move), None)
        except CardrulesError:          # the rules failed on a world: the ruleset's error, as it is
            raise
        except Exception as exc:
            raise BotError(f"{where} failed: {type(exc).__name__}: {one_line(str(exc))}") from None
        if legal is None:
            raise BotError(f"{where} answered {one_line(shown(move))}, which is not one of its {len(moves)} "
                           "legal moves (choose must return one of seat.moves)")
        return legal

    def seat_for(self, program, st, moves: list) -> Seat:
        """The Seat of st's deciding seat, as its bot is given it (a caller that decides otherwise,
        e.g. an environment for learning agents, may build one so)."""
        bot = self.bot
        seat = Seat(program, st.decider, moves, st.turn, st.pending)
        self.remember(program, st, seat)
        if bot.looks_ahead:
            seat._base, seat._rng = sanitised(program, st, seat.number), bot.rng
        return seat

    def remember(self, program, st, seat: Seat) -> None:
        """The seat's view and events, from its memory of the game fed the events it has not read."""
        if not self.bot.uses_view or st.log is None:
            return
        number = seat.number
        events = self.bot.reads_events
        self._memory = mem = follow(self._memory, program, number, st.log,
                                    lambda: (Observer(program, number), [] if events else None),
                                    _feed(program, number))
        seat.view, seat.events = mem[5][0].view(), mem[5][1]


def _plain(choose_from):
    """choose() for one of our bots that reads the legal moves alone: no Seat is made for it."""
    def plain(program, st, moves: list):
        return choose_from(moves)
    return plain


def _feed(program, seat: int):
    """feed(memory, new events): the events as the seat saw them, to its Observer and its list;
    without a list (a bot that reads no events), the game's events to the Observer, which reads of
    each only what the seat saw (views.py), as it would of them as the seat saw them."""
    def feed(mem, new):
        if mem[1] is None:
            mem[0].observe_all(new)
            return
        seen = for_seat(program, new, seat)
        mem[0].observe_all(seen)
        mem[1].extend(seen)
    return feed


def follow(mem, program, seat: int, log: list, make, feed):
    """A memory that follows a game's event log: [program, seat, log, events fed, last event, thing].

    The thing (made by make()) is fed (feed(thing, events)) only the events it has not read yet;
    it is made again when the log is another one or was cut back (an undo)."""
    if (mem is None or mem[0] is not program or mem[1] != seat or mem[2] is not log
            or mem[3] > len(log) or (mem[3] and log[mem[3] - 1] is not mem[4])):
        mem = [program, seat, log, 0, None, make()]
    if mem[3] < len(log):
        feed(mem[5], log[mem[3]:])
        mem[3], mem[4] = len(log), log[-1]
    return mem


def shown(value) -> str:
    """repr(value), or what it is when its repr fails (a user's object)."""
    try:
        return repr(value)
    except Exception:
        return f"a {type(value).__name__}"


def one_line(text: str, width: int = 200) -> str:
    """The first line of a text, cut to width, control characters shown as \\xNN."""
    line = text.strip().splitlines()[0] if text.strip() else ""
    line = line if len(line) <= width else line[:width - 1] + "…"
    return "".join(ch if ch.isprintable() else f"\\x{ord(ch) % 256:02x}" for ch in line)
