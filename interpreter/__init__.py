"""cardrules: a declarative rules interpreter for tabletop card games."""
from .errors import CardrulesError, IllegalMove, RecordError, RulesetError, UsageError
from .compiler import game as _game
from .compiler.game import Game
from .seats.registry import ruleset_options as _bot_options

__all__ = ["CardrulesError", "Game", "IllegalMove", "RecordError", "RulesetError", "UsageError",
           "load_game", "validate_file"]


def load_game(path: str, overrides: dict | None = None, limits=None, texts: dict | None = None) -> Game:
    """Load and check a ruleset (its bots.options too, against the bots of cardrules): the door of
    every command; raise RulesetError with every problem, each at its file:line:col."""
    return _game.load_game(path, overrides, limits, texts, bots=_bot_options)


def validate_file(path: str, overrides: dict | None = None) -> list:
    """Every error for a ruleset file, its bots.options among them (empty when it is valid)."""
    return _game.validate_file(path, overrides, bots=_bot_options)
