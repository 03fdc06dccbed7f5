"""One exception tree for everything a user can get wrong, with positions."""
from __future__ import annotations

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


class UsageError(CardrulesError):
    """Bad command-line use or an unreadable file."""

    exit_code = 2


class IllegalMove(CardrulesError):
    """A move that is not legal now; the state is unchanged."""


class RecordError(CardrulesError):
    """A record that does not replay."""


class RuleRuntimeError(CardrulesError):
    """A ruleset that fails while running (a guard tripped), naming the rule."""

    def __init__(self, pos: Pos | None, message: str):
        self.pos = pos
        super().__init__(f"{pos}: {message}" if pos else message)


@dataclass
class Collector:
    """Gathers diagnostics so a stage can report all of them at once."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def error(self, pos: Pos, message: str, code: str = "error", hint: str = "") -> None:
        self.diagnostics.append(Diagnostic(pos, message, code, hint))

    def raise_if_any(self) -> None:
        if self.diagnostics:
            raise RulesetError(self.diagnostics)
