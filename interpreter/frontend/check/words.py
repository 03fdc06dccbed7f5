"""The wording of the checker's messages: types in words, lists of names, places in files."""
from __future__ import annotations

import os

from ...errors import Pos

_TYPE_ORDER = ["zone", "cards", "list", "card", "int", "str", "bool", "player", "value"]


def a_type(t: str) -> str:
    """Type name with its article, for messages."""
    words = {"int": "a number", "bool": "a condition (true or false)", "str": "a text", "list": "a list",
             "card": "a card", "cards": "a set of cards", "zone": "a zone", "player": "a player",
             "value": "a value", "any": "a value", "null": "an empty value (null)"}
    return words.get(t, t)


def wanted(types: set) -> str:
    """What a place needs, in words: 'a number', 'true or false', 'a zone, a set of cards or a list'."""
    ordered = sorted((t for t in types if t != "any"), key=lambda t: _TYPE_ORDER.index(t) if t in _TYPE_ORDER else 99)
    return either(["true or false" if t == "bool" else a_type(t) for t in ordered])


def type_hint(want: set, got: str) -> str:
    """What to write instead, for the common type mistakes."""
    if "int" in want and got in ("zone", "cards"):
        return "count(...) gives how many cards there are"
    if "int" in want and got == "list":
        return "count(...) gives how many items a list has, sum(...) their total"
    if "int" in want and got == "str":
        return "a text is not a number"
    if "int" in want and got == "bool":
        return "a condition is true or false, not a number; write if ... then 1 else 0"
    if "bool" in want and got in ("int", "value", "str", "player"):
        return "compare it to get true or false, e.g. ... > 0 or ... == 'x'"
    if "bool" in want and got in ("zone", "cards", "list"):
        return "test it, e.g. count(...) > 0"
    if "player" in want:
        return "a player is current, me, a seat number or next(current)"
    if "cards" in want and got == "card":
        return "this is a single card; take a set of cards instead, e.g. top of hand or hand where ..."
    if want <= {"list", "cards", "zone", "any"} and got in ("int", "str", "bool", "value", "player", "card"):
        if "list" not in want:
            return "give a zone or a set of cards, e.g. hand or top 2 of draw"
        return "give a zone, a set of cards or a list, e.g. hand or [1, 2]"
    return ""


def unknown_name_hint(name: str, path) -> str:
    """What to do about an unknown name that resembles no known one, for the place it stands."""
    path = tuple(path)
    if path[:1] == ("cards",) and "count" in path:
        return f"a card count is a number, or an expression of params and the kind's for variables: " \
               f"declare '{name}' under params, or write a number"
    if path[:1] == ("cards",) or path[:1] == ("vars",):
        return f"declare '{name}' under params; for a text, quote it inside the string: \"'{name}'\""
    return "declare it under params, zones or vars, or bind it first with let, for or choose"


def show(value) -> str:
    """A YAML value in words, for a message."""
    if value is None:
        return "empty (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    return "a list" if isinstance(value, list) else "a mapping" if isinstance(value, dict) else repr(value)


def and_(words: list) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def either(words: list) -> str:
    """'a', 'a or b', 'a, b or c'."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def relative(pos: Pos, beside: str) -> str:
    """pos with its file named relative to the directory of the file `beside`."""
    return f"{os.path.relpath(pos.file, os.path.dirname(os.path.abspath(beside)))}:{pos.line}:{pos.col}"


def line_col(text: str, offset: int) -> tuple:
    """0-based (line, col) of a character offset in text."""
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)
