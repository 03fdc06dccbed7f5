"""The log lines told since a screen, held back until the next screen so that they fit above it.

On a terminal the screen of a decision fills the window; the lines told before it (the bots'
moves, what the rules did) would scroll off its top unseen. They are kept until the screen is
drawn, then shown in the rows the screen leaves free: all of them when they fit, else every
decision's first line (who did what) with the latest of the rest, and a note that `l` prints them
all. Anything else printed first (a message, a prompt, a pass screen) prints them all before it.
Away from a terminal (a pipe, a transcript) nothing is cut.
"""
from __future__ import annotations

from rich.text import Text

from .layout import height

LOG_NOTE = "l shows them all"


class Recent:
    """The held-back log of a Session: lines told since the last screen, and the last screen's."""

    def story_line(self, text: str, head: bool) -> None:
        """A line of the log; head: the first line of a decision or of a seat's report."""
        self.__dict__.setdefault("_held", []).append((head, text))

    def flush_story(self, free: int | None = None, seat=None) -> None:
        """Print the held lines: all of them, or (free given, on a terminal) as many as fit in
        `free` rows; a seat's screen remembers them for `l`."""
        held = self.__dict__.pop("_held", [])
        if seat is not None:
            self.__dict__.setdefault("_told", {})[seat] = held
        if not held:
            return
        cut = free is not None and self.console.is_terminal and not self.console.is_dumb_terminal
        for text in (self.fitted(held, free) if cut else [t for _, t in held]):
            self.console.print(Text(text))

    def fitted(self, held: list, free: int) -> list:
        """The held lines in `free` rows: every head, then the latest other lines, in their order,
        with a last line saying how many were left out."""
        width = self.console.width
        rows = [height(self.console, Text(t), width) for _, t in held]
        if sum(rows) <= free:
            return [t for _, t in held]
        if free < 1:
            return []
        budget = free - 1                                   # the note's row
        keep = set()
        for order in ([i for i, (h, _) in enumerate(held) if h], range(len(held))):
            for i in sorted(order, reverse=True):           # the latest first
                if i not in keep and rows[i] <= budget:
                    keep.add(i)
                    budget -= rows[i]
        left = len(held) - len(keep)
        note = f"… {left} more line{'s' if left != 1 else ''} of the log since your last screen: {LOG_NOTE}"
        return [held[i][1] for i in sorted(keep)] + [note]

    def show_log(self, seat: int) -> None:
        """l: the whole log told before the seat's last screen."""
        told = self.__dict__.get("_told", {}).get(seat)
        if not told:
            self.say("nothing was told since your previous screen")
            return
        self.say("the log before this screen:")
        for _, text in told:
            self.say(text)
