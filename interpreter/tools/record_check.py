"""Records are untrusted input: their structure is checked here, in one place, before a replay.

Every field a replay reads must have the shape `record` or `play -o` writes (the result null for a
game not over yet); anything else is a RecordError (exit 1) naming the field, e.g.
"field 'moves[3].seat' must be a seat number (0 to 2), not a text".
Texts from a record are quoted short and with control characters shown as escapes, so a hostile
record cannot flood or drive the terminal. The ruleset a record names is looked up only as a
.yaml/.yml file under the current directory or the record's folder.
"""
from __future__ import annotations

import os

from ..errors import RecordError, UsageError
from .safe_text import clipped, quoted

FORMAT = "cardrules-record/1"
RULESET_SUFFIXES = (".yaml", ".yml")
MAX_PLAYERS = 1_000              # far above any ruleset (the language allows 32); the game checks its own
MAX_SEED_BITS = 256              # `record` and `simulate` seeds are far smaller
MAX_TEXT = 100_000               # characters of one move's text or one name


def kind(value) -> str:
    """What a JSON value is, in words."""
    if value is None:
        return "empty (null)"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return f"a number with {len(str(abs(value))):,} digits" if value.bit_length() > 64 else f"the number {value}"
    if isinstance(value, float):
        if value != value:
            return "NaN (no number)"
        return "an infinite number" if abs(value) == float("inf") else "a number with a fraction"
    if isinstance(value, str):
        return "a text"
    return "a list" if isinstance(value, list) else "a mapping" if isinstance(value, dict) else "something else"


def bad(field: str, want: str, value) -> RecordError:
    return RecordError(f"field '{field}' must be {want}, not {kind(value)}")


def whole(value, field: str, lo: int, hi: int, want: str = "a whole number") -> int:
    """value as a whole number in [lo, hi], else an error naming the field."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad(field, want, value)
    if value.bit_length() > 64 or not lo <= value <= hi:
        raise RecordError(f"field '{field}' must be {want} from {lo:,} to {hi:,}, not {kind(value)}")
    return value


def text(value, field: str) -> str:
    if not isinstance(value, str):
        raise bad(field, "a text", value)
    if len(value) > MAX_TEXT:
        raise RecordError(f"field '{field}' is a text of {len(value):,} characters, more than {MAX_TEXT:,}")
    return value


def listed(value, field: str, what: str) -> list:
    if not isinstance(value, list):
        raise bad(field, f"a list of {what}", value)
    return value


def mapping(value, field: str, keys: tuple) -> dict:
    if not isinstance(value, dict):
        raise bad(field, f"a mapping with {' and '.join(keys)}", value)
    for key in keys:
        if key not in value:
            raise RecordError(f"field '{field}' has no '{key}'")
    return value


def check_seed(value) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad("seed", "a whole number", value)
    if value.bit_length() > MAX_SEED_BITS:
        raise RecordError(f"field 'seed' must be a seed `record` writes, not {kind(value)}")


def check_overrides(value) -> None:
    """Parameter names mapped to values: a number, a text, true or false, or a list of those."""
    if not isinstance(value, dict):
        raise bad("overrides", "a mapping of parameter names to values", value)
    for name, v in value.items():
        field = f"overrides.{clipped(name, 60)}"
        text(name, "overrides")
        items = v if isinstance(v, list) else [v]
        for item in items:
            if isinstance(item, float) or not isinstance(item, (int, str)):
                raise bad(field, "a number, a text, true or false, or a list of those", item if isinstance(v, list) else v)
            if isinstance(item, int) and not isinstance(item, bool) and item.bit_length() > 64:
                raise RecordError(f"field '{field}' must be a number a parameter can hold, not {kind(item)}")
            if isinstance(item, str):
                text(item, field)


def check_moves(value, players: int) -> None:
    for i, m in enumerate(listed(value, "moves", "moves")):
        field = f"moves[{i}]"
        mapping(m, field, ("seat", "move"))
        whole(m["seat"], f"{field}.seat", 0, players - 1, "a seat number")
        text(m["move"], f"{field}.move")


def check_chance(value) -> None:
    for i, entry in enumerate(listed(value, "chance", "shuffles")):
        field = f"chance[{i}]"
        mapping(entry, field, ("zone", "order"))
        text(entry["zone"], f"{field}.zone")
        for j, t in enumerate(listed(entry["order"], f"{field}.order", "card type names")):
            text(t, f"{field}.order[{j}]")


def check_result(value, players: int) -> None:
    """Scores and winners; null for a game not over yet (a record `play -o` keeps as it goes)."""
    if value is None:
        return
    mapping(value, "result", ("scores", "winners"))
    scores = listed(value["scores"], "result.scores", "numbers")
    if len(scores) != players:
        raise RecordError(f"field 'result.scores' must hold one score per seat ({players}), not {len(scores)}")
    for k, s in enumerate(scores):
        if isinstance(s, bool) or not isinstance(s, int):
            raise bad(f"result.scores[{k}]", "a whole number", s)
    for k, w in enumerate(listed(value["winners"], "result.winners", "seat numbers")):
        whole(w, f"result.winners[{k}]", 0, players - 1, "a seat number")


def check_record(record) -> None:
    """Every field a replay reads has the shape `record` writes; else a RecordError naming it.
    (`format` is the file's business: the command line checks it when it reads the file.)"""
    if not isinstance(record, dict):
        raise RecordError(f"a record is a mapping of fields, not {kind(record)}")
    for key in ("players", "moves", "result"):
        if key not in record:
            raise RecordError(f"the record has no field '{key}'")
    players = whole(record["players"], "players", 1, MAX_PLAYERS, "a number of players")
    check_seed(record.get("seed", 0))
    if "ruleset" in record:
        text(record["ruleset"], "ruleset")
    if "sha256" in record and not (isinstance(record["sha256"], str) and len(record["sha256"]) == 64):
        raise bad("sha256", "the 64 hex digits of the ruleset's SHA-256", record["sha256"])
    check_overrides(record.get("overrides") or {})
    if "bots" in record:
        for k, name in enumerate(listed(record["bots"], "bots", "bot names")):
            text(name, f"bots[{k}]")
    check_chance(record.get("chance", []))
    check_moves(record["moves"], players)
    check_result(record["result"], players)


def inside(path: str, folder: str) -> bool:
    """Whether path (resolved, links followed) lies in folder or below it."""
    real, top = os.path.realpath(path), os.path.realpath(folder)
    return os.path.commonpath([real, top]) == top


def find_ruleset(name, record_path: str) -> str:
    """The record's ruleset: a .yaml/.yml file under the current directory, else under the record's
    folder; a name pointing anywhere else is refused (RecordError) before any file is opened, a
    file not found is a UsageError."""
    if not isinstance(name, str) or not name:
        raise RecordError(f"{record_path}: the record names no ruleset (field 'ruleset'); give one with --ruleset")
    shown = quoted(name)
    if "\0" in name or not name.lower().endswith(RULESET_SUFFIXES):
        raise RecordError(f"{record_path}: field 'ruleset' names {shown}, not a .yaml or .yml file; give the ruleset "
                          "with --ruleset")
    folder = os.path.dirname(os.path.abspath(record_path))
    tried = [name] + ([os.path.join(folder, name)] if not os.path.isabs(name) else [])
    found_outside = False
    for path, top in zip(tried, (os.getcwd(), folder)):
        if not os.path.isfile(path):
            continue
        if inside(path, top) and os.path.realpath(path).lower().endswith(RULESET_SUFFIXES):
            return path
        found_outside = True
    if found_outside or (os.path.isabs(name) and not inside(name, os.getcwd())):
        raise RecordError(f"{record_path}: field 'ruleset' names {shown}, outside the current directory and the record's "
                          "folder: a record may name only a ruleset there; give it with --ruleset")
    raise UsageError(f"{record_path}: cannot find the record's ruleset {shown} (looked in the current directory and next "
                     "to the record); give it with --ruleset")
