"""cardrules: a declarative rules interpreter for tabletop card games."""
from .errors import CardrulesError, IllegalMove, RecordError, RulesetError, UsageError
from .compiler.game import Game, load_game, validate_file

__all__ = ["CardrulesError", "Game", "IllegalMove", "RecordError", "RulesetError", "UsageError",
           "load_game", "validate_file"]
