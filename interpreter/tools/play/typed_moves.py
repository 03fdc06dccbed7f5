"""A move typed by a human: by number or by text, any line refused with a reason."""
from __future__ import annotations

import re

from ...errors import IllegalMove
from ..safe_text import clipped

NUMBER = re.compile(r"[+-]?[0-9]+")          # ASCII digits only: int() of other digits may fail


class MoveList:
    """The legal moves as shown: (key typed to choose it, move, its text) in the order shown, and
    a hint printed instead of the list when the moves are better chosen another way (or None)."""

    def __init__(self, entries: list, hint: str | None = None):
        self.entries, self.hint = entries, hint


class TypedMoves:
    """The input part of a Session: a typed line to a legal move."""

    def shown_moves(self, legal: list) -> MoveList:
        """The legal moves in the order the screen lists them, each with the key that chooses it."""
        return MoveList([(str(i), m, self.program.move_text(self.st, m)) for i, m in enumerate(legal, 1)])

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
