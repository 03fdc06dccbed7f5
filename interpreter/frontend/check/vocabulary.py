"""The fixed words of the rules language and the kinds of plain YAML values.

Built-in names, functions and keywords (which no declaration may take), what each built-in
function takes and gives, the player-count limits and key format of by_players tables.
"""
from __future__ import annotations

import re

from ...errors import Pos

BUILTIN_NAMES = {"current": "player", "me": "player", "players": "int", "seats": "list", "turn": "int",
                 "in_play": "list"}
AGGREGATES = {"count", "sum", "min", "max", "any", "all"}
RANKED = {"highest", "lowest"}      # the item of a generator whose `by` number is largest, or smallest
FUNCTIONS = AGGREGATES | RANKED | {"first", "last", "reversed", "next", "prev", "abs", "size", "index_of", "numbers",
                                     "seats_from"}
KEYWORDS = {"move", "to", "shuffle", "deal", "from", "starting", "let", "set", "extra", "turn", "call",
            "end", "game", "where", "top", "bottom", "of", "if", "then", "else", "and", "or", "not", "in",
            "for", "true", "false", "reveal", "eliminate", "restore", "reverse", "tell", "about"}
CARDISH = {"cards", "zone", "any"}
SET_POS = Pos("--set", 1, 1)   # where errors about a --set option are reported (docs: "--set:1:1")
MAX_PLAYERS = 32        # every player count is compiled and checked; seats are bits in visibility masks
RANGE_KEY = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+))?\s*$")

ARITY = {"count": 1, "size": 1, "sum": 1, "min": 1, "max": 1, "any": 1, "all": 1, "first": 1, "last": 1,
         "reversed": 1, "next": 1, "prev": 1, "abs": 1, "index_of": 2, "seats_from": 1}
RESULT = {"count": "int", "size": "int", "sum": "int", "min": "int", "max": "int", "any": "bool", "all": "bool",
          "first": "any", "last": "any", "reversed": "list", "next": "player", "prev": "player", "abs": "int",
          "index_of": "int", "seats_from": "list"}

# What == can compare: values of different kinds here are never equal.
KIND_OF = {"int": "number", "player": "number", "str": "text", "value": "scalar", "bool": "bool", "list": "list",
           "cards": "cards", "zone": "cards", "card": "card"}


def value_type(value) -> str:
    """The type of a plain YAML value: 'null', 'bool', 'int', 'str', 'list', else 'any'."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list):
        return "list"
    return "any"


def fraction(value, path=()):
    """(path, value) of the first float inside a parameter's value, else None."""
    if isinstance(value, float):
        return path, value
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = fraction(item, path + (key,))
        if found is not None:
            return found
    return None


def covers(key, n: int) -> bool:
    """Whether the by_players key (3 or 3-4) includes player count n."""
    m = RANGE_KEY.match(str(key))
    return bool(m) and int(m.group(1)) <= n <= int(m.group(2) or m.group(1))
