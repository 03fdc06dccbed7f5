"""The front door: load a ruleset file through every stage, get a Game."""
from __future__ import annotations

import hashlib

from ..errors import Diagnostic, Pos, RuleRuntimeError, RulesetError, UsageError
from ..frontend import checker, loader, schema
from ..frontend.lint import lint_file
from ..runtime.engine import DEFAULT_LIMITS, Limits
from ..runtime.program import Program
from .audit import setup_warnings, start_error
from .build import compile_program


class Game:
    """A checked ruleset; `program(n)` compiles it (once) for n players."""

    def __init__(self, rules, path: str, sha256: str, overrides: dict, limits: Limits | None = None,
                 texts: dict | None = None):
        self.rules, self.path, self.sha256, self.overrides = rules, path, sha256, overrides
        self.limits = limits or DEFAULT_LIMITS      # the run-time guards of every program compiled here
        self.texts = texts or {}        # {path: bytes} of the file and its bases: load_game(texts=) again
        self._programs: dict = {}

    @property
    def name(self) -> str:
        return self.rules.name

    def check_players(self, players: int) -> None:
        lo, hi = self.rules.min_players, self.rules.max_players
        if not lo <= players <= hi:
            raise UsageError(f"{self.name} is for {lo} to {hi} players, not {players}")

    def program(self, players: int, coverage: bool = False) -> Program:
        """The ruleset compiled for this many players; with `coverage`, a separate program that counts
        its coverage points (slower: for analysis, never the plain program's code)."""
        self.check_players(players)
        key = (players, True) if coverage else players
        if key not in self._programs:
            self._programs[key] = compile_program(self.rules, players, self.limits, coverage=coverage)
        return self._programs[key]


def load_game(path: str, overrides: dict | None = None, limits: Limits | None = None,
              texts: dict | None = None, bots=None) -> Game:
    """Load, schema-check, parse and check a ruleset; raise RulesetError with every problem.
    `limits` are the run-time guards of its programs (engine.Limits; the defaults when None);
    `texts` ({path: bytes}, a Game's own `texts`) loads the same files again without a disk;
    `bots` checks bots.options (checker.check; the package's load_game passes the bots' own check)."""
    doc = loader.load(path, texts=texts)
    problems = schema.validate(doc)
    if problems:
        raise RulesetError(problems)
    rules = checker.check(doc, overrides, bots)
    digest = hashlib.sha256()
    for raw in doc.raw:         # the bytes the loader read: no second, unbounded read of each file
        digest.update(raw)
    return Game(rules, path, digest.hexdigest(), dict(overrides or {}), limits, dict(zip(doc.sources, doc.raw)))


def validate_file(path: str, overrides: dict | None = None, bots=None) -> list:
    """Every error for a ruleset file (empty when it is valid), compiling every player count and
    running what every game starts with (turn.first, the setup up to its first shuffle or decision);
    `bots` as for load_game."""
    n = None
    try:
        game = load_game(path, overrides, bots=bots)
        for n in range(game.rules.min_players, game.rules.max_players + 1):
            program = game.program(n)       # a constant that does not fit fails here, below
            try:
                program.initial()
            except RuleRuntimeError as exc:
                raise RulesetError([start_error(exc, n, path)]) from None
    except RulesetError as exc:
        return exc.diagnostics
    except RuleRuntimeError as exc:
        # a rule that fails while being compiled for a player count (a constant that does not fit)
        pos = exc.pos or Pos(path, 1, 1)
        return [Diagnostic(pos, str(exc).removeprefix(f"{pos}: "), "compile",
                           f"this happens with {n} players" if n else "")]
    return []


def file_warnings(path: str, overrides: dict | None = None, game: Game | None = None) -> list:
    """Every warning for a valid ruleset file: the linter's, then the setup audit's (RulesetError if
    the file is invalid). `game`, when given, is the file already loaded with these overrides."""
    warnings = lint_file(path, overrides)
    return warnings + setup_warnings(game or load_game(path, overrides))
