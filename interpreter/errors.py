"""One exception tree for everything a user can get wrong, with positions."""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Pos:
    """A place in a source file: 1-based line and column."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        if self.line == 0:          # not in a file: a command-line option such as --set
            return self.file
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True)
class Diagnostic:
    """One error or warning about a ruleset, at a position."""

    pos: Pos
    message: str
    code: str = "error"
    hint: str = ""
    severity: str = "error"

    def __str__(self) -> str:
        text = f"{self.pos}: {self.message}"
        return f"{text} ({self.hint})" if self.hint else text

    def to_json(self) -> dict:
        """The form `validate --json` prints."""
        return {"file": self.pos.file, "line": self.pos.line, "column": self.pos.col,
                "code": self.code, "message": self.message, "hint": self.hint}


class CardrulesError(Exception):
    """Root of every error cardrules reports to a user."""

    exit_code = 1


class RulesetError(CardrulesError):
    """A ruleset is invalid; carries every diagnostic found."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = sorted(diagnostics, key=lambda d: (d.pos.file, d.pos.line, d.pos.col))
        super().__init__("\n".join(str(d) for d in self.diagnostics))

    def __reduce__(self):
        return (type(self), (self.diagnostics,))


class UsageError(CardrulesError):
    """Bad command-line use or an unreadable file."""

    exit_code = 2


class IllegalMove(CardrulesError):
    """A move that is not legal now; the state is unchanged."""


class RecordError(CardrulesError):
    """A record that does not replay."""


class BotError(CardrulesError):
    """A user's bot failed: it raised, or returned what is not one of its legal moves."""


class WorkerError(CardrulesError):
    """A worker process of a batch stopped before its games were done (killed, out of memory)."""


class RuleRuntimeError(CardrulesError):
    """A ruleset that fails while running (a guard tripped), naming the rule."""

    def __init__(self, pos: Pos | None, message: str):
        self.pos, self.message = pos, message
        super().__init__(f"{pos}: {message}" if pos else message)

    def __reduce__(self):
        return (type(self), (self.pos, self.message))       # from a worker process, as it was raised


@dataclass
class Collector:
    """Gathers diagnostics so a stage can report all of them at once."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def error(self, pos: Pos, message: str, code: str = "error", hint: str = "") -> None:
        self.diagnostics.append(Diagnostic(pos, message, code, hint))

    def raise_if_any(self) -> None:
        if self.diagnostics:
            raise RulesetError(self.diagnostics)


def _distance(a: str, b: str) -> int:
    """Edits (insert, delete, replace, swap two neighbours) that turn a into b."""
    prev2, prev = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], prev2[j - 2] + 1)
        prev2, prev = prev, row
    return prev[-1]


def closest(word, candidates, prefer=()) -> str | None:
    """The candidate a misspelt word most likely meant, or None when none is close enough.

    Close means a few typing slips away (one for short words, up to three for long ones, none
    for a single letter), or a word that is part of the candidate ('bonus' for 'bonus_order').
    The fewest slips always win; among equally close candidates one in `prefer` (say, a key the
    mapping lacks), then the one with the same first letter, then the most similar, wins (so
    'dwon' means 'down', not 'won')."""
    word = str(word)
    low = word.lower()
    preferred = set(map(str, prefer))
    best = None
    for cand in sorted(set(map(str, candidates)) | preferred):
        c = cand.lower()
        if c == low:
            return cand
        slips = 0 if len(low) <= 1 else 1 if len(low) <= 4 else 2 if len(low) <= 8 else 3
        d = _distance(low, c)
        if d > slips and not (len(low) >= 4 and low in c):
            continue
        rank = (d, cand not in preferred, c[:1] != low[:1], -difflib.SequenceMatcher(None, low, c).ratio(), cand)
        if best is None or rank < best[0]:
            best = (rank, cand)
    return best[1] if best else None


def did_you_mean(word, candidates) -> str:
    """'did you mean 'x'?' for the closest candidate, else ''."""
    match = closest(word, candidates)
    return f"did you mean '{match}'?" if match else ""
