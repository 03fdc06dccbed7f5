"""Players and parameters: players min..max, params and their by_players tables, --set overrides.

Also the check that a 'for' or 'per' list, written in place or held by a param, holds plain values.
"""
from __future__ import annotations

import dataclasses

from .. import ir
from .context import Context
from .trees import nodes
from .vocabulary import BUILTIN_NAMES, KEYWORDS, MAX_PLAYERS, RANGE_KEY, SET_POS, covers, fraction, value_type
from .words import a_type, show


def check_players(cx: Context) -> None:
    """players: min and max, read into cx.lo and cx.hi (hi None when it is beyond what cardrules plays)."""
    players = cx.get(("players",), {})
    lo, hi = players.get("min", 1), players.get("max", 1)
    if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
        cx.error(("players", "min"), f"players: min {lo} is more than max {hi}", "players",
                 "min is the fewest players, max the most")
    if isinstance(hi, int) and hi > MAX_PLAYERS:
        cx.error(("players", "max"), f"players: max {hi} is more than cardrules plays ({MAX_PLAYERS})",
                 "players", f"a game is checked and compiled for every player count: give at most "
                 f"{MAX_PLAYERS}")
        hi = None           # no further complaints about tables missing rows for thousands of players
    cx.lo, cx.hi = lo, hi


def declare_params(cx: Context) -> None:
    for name, raw in (cx.get(("params",), {}) or {}).items():
        path = ("params", name)
        if name in KEYWORDS or name in BUILTIN_NAMES:
            cx.error(cx.doc.key_pos(path), f"'{name}' is a reserved word and cannot name a parameter", "name",
                     "pick another name")
        found = fraction(raw)
        if found is not None:
            sub, value = found
            cx.error(path + sub, f"param '{name}' holds {value!r}, a fraction: the rules work with whole "
                     "numbers only", "type", "write a whole number, such as 2")
        if isinstance(raw, dict) and "by_players" in raw:
            table = player_table(cx, path + ("by_players",), raw["by_players"])
            cx.params[name] = (table, cx.pos(path))
            cx.param_types[name] = row_type(cx, path + ("by_players",), raw["by_players"])
        else:
            cx.params[name] = (raw, cx.pos(path))
            cx.param_types[name] = value_type(raw)
    apply_overrides(cx)


def player_table(cx: Context, path, rows: dict) -> dict:
    """A by_players table: keys 'N' or 'N-M'; every allowed player count exactly once."""
    table: dict = {}
    for key, value in rows.items():
        m = RANGE_KEY.match(str(key))
        if not m:
            cx.error(cx.doc.key_pos(path + (key,)), f"'{key}' is not a player count or range like 3-4",
                     "player-table", "write a key like 3, or 3-5 for 3 to 5 players")
            continue
        a, b = int(m.group(1)), int(m.group(2) or m.group(1))
        if a > b:
            cx.error(cx.doc.key_pos(path + (key,)), f"'{key}' is an empty range of player counts",
                     "player-table", f"write the smaller count first: {b}-{a}")
        counts = range(a, min(b, MAX_PLAYERS) + 1)     # no game has more players: a huge range stays cheap
        twice = [n for n in counts if n in table]
        if twice:
            first = next(k for k in rows if k != key and covers(k, twice[0]))
            cx.error(cx.doc.key_pos(path + (key,)),
                     f"player count {twice[0]} appears twice in this table (also in row '{first}')",
                     "player-table", "give every player count exactly one row")
        for n in counts:
            table.setdefault(n, value)
    if isinstance(cx.lo, int) and isinstance(cx.hi, int):
        missing = [n for n in range(cx.lo, cx.hi + 1) if n not in table]
        if missing:
            cx.error(path, f"this table has no row for {', '.join(map(str, missing))} players",
                     "player-table", f"add a row for every player count from {cx.lo} to {cx.hi}")
    return table


def row_type(cx: Context, path, rows: dict) -> str:
    """The one kind of value all rows of a by_players table hold ('any' after reporting a mix). The
    first row sets the kind; in a variant that is a row of the base (the merge puts them first), so
    a variant's row of the wrong kind is the one reported."""
    kinds = [(key, value_type(value)) for key, value in rows.items()]
    first_key, first = kinds[0] if kinds else (None, "any")
    for key, kind in kinds[1:]:
        if kind != first:
            where = cx.pos(path + (first_key,))
            elsewhere = f" (row '{first_key}' is at {where})" if where.file != cx.pos(path + (key,)).file else ""
            cx.error(path + (key,), f"row '{key}' is {a_type(kind)}, but row '{first_key}' is {a_type(first)}",
                     "player-table", f"every row of a by_players table needs the same kind of value{elsewhere}")
            return "any"
    return first


def apply_overrides(cx: Context) -> None:
    """--set NAME=VALUE or NAME.PLAYERS=VALUE replaces a parameter for one run."""
    for key, value in cx.overrides.items():
        name, _, row = key.partition(".")
        if name not in cx.params:
            hint = cx.suggest(name, cx.params) or f"its parameters are {', '.join(cx.params) or 'none'}"
            cx.error(SET_POS, f"{key}: the ruleset has no parameter '{name}'", "bad-set", hint)
            continue
        old, pos = cx.params[name]
        if row:
            if not isinstance(old, dict) or not row.isdigit() or int(row) not in old:
                outside = row.isdigit() and isinstance(cx.lo, int) and isinstance(cx.hi, int) \
                    and not cx.lo <= int(row) <= cx.hi
                allowed = f"the game is for {cx.lo} to {cx.hi} players; " if outside else ""
                cx.error(SET_POS, f"{key}: '{name}' has no row for {row} players", "bad-set",
                         f"{allowed}the rows are for {', '.join(map(str, old))} players" if isinstance(old, dict)
                         else f"'{name}' does not depend on the player count: write --set {name}=VALUE")
                continue
            old = dict(old)
            old[int(row)] = value
            cx.params[name] = (old, pos)
        else:
            cx.params[name] = (value, pos)
        if value_type(value) != cx.param_types[name] and cx.param_types[name] != "any":
            want = cx.param_types[name]
            own = cx.get(("params", name))
            own = f" ({show(own)})" if isinstance(own, (int, str)) and not isinstance(own, bool) else ""
            cx.error(SET_POS, f"{key}: '{name}' must be {a_type(want)}, not {show(value)}", "bad-set",
                     f"give {a_type(want)}, like the ruleset's own value{own}")


def check_scalar_items(cx: Context, path, what: str, unique: bool = False) -> None:
    """The list at path (given in place, or as the name of a param) must hold numbers or words only;
    a param's list is checked as it stands after --set (an error in a --set value is at --set)."""
    raw = cx.get(path)
    lists = []
    if isinstance(raw, list):
        lists.append((path, raw))
    elif isinstance(raw, str) and raw.strip() in cx.params:
        lists = _param_lists(cx, raw.strip())
    for lpath, items in lists:
        if isinstance(items, list):
            _plain_items(cx, lpath, items, what, unique)


def _plain_items(cx: Context, lpath, items: list, what: str, unique: bool) -> None:
    """One list's check for check_scalar_items; lpath is its path, or (SET_POS, name) for a --set value."""
    given = lpath[0] == SET_POS
    at = (lambda i: SET_POS) if given else (lambda i: lpath + (i,))
    lead, code = (f"{lpath[1]}: ", "bad-set") if given else ("", None)
    seen: list = []
    for i, item in enumerate(items):
        if isinstance(item, (list, dict)) or item is None:
            once = ("plain items", at(i) if given else cx.pos(at(i)))
            if once in cx.reported:
                return      # one mistake in a param used twice is reported once
            cx.reported.add(once)
            cx.error(at(i), f"{lead}{what} must be numbers or words, but this is {show(item)}", code or "type",
                     "list plain values, e.g. [red, blue] or [1, 2, 3]")
            return
        if unique and item in seen:
            cx.error(at(i), f"{lead}{what} must differ, but {show(item)} appears twice", code or "zone",
                     "list each value once")
            return
        seen.append(item)


def _param_lists(cx: Context, name: str) -> list:
    """(path, list) for the value of a param, or for each row of its by_players table; SET_POS in place
    of the path for a value or row that --set gave."""
    value = cx.params[name][0]
    own = cx.get(("params", name))
    table = own.get("by_players") if isinstance(own, dict) else None
    if not isinstance(value, dict):
        return [((SET_POS, name) if name in cx.overrides else ("params", name), value)]
    rows = []
    for n, row in value.items():
        key = next((k for k in table if covers(k, n)), None) if isinstance(table, dict) else None
        given = name in cx.overrides or f"{name}.{n}" in cx.overrides or key is None
        rows.append(((SET_POS, name) if given else ("params", name, "by_players", key), row))
    return list({id(row): (p, row) for p, row in rows}.values())    # a range's rows are one list


def check_added_params(cx: Context, rules: ir.Ruleset) -> None:
    """A param that a variant sets but its base does not have, and that no rule reads, is an error:
    it would change nothing (most often it is a misspelt parameter of the base)."""
    added = [name for name in cx.params if ("params", name) in cx.doc.added or ("params",) in cx.doc.added]
    if not added:
        return
    read = params_read(rules)
    known = [name for name in cx.params if name not in added]
    for name in added:
        if name in read:
            continue
        base = cx.doc.added.get(("params", name)) or cx.doc.added.get(("params",))
        hint = cx.suggest(name, known) or (f"the base's parameters are {', '.join(known)}" if known else
                                           "the base has no parameters") + "; a new parameter must be used in a rule"
        cx.error(cx.doc.key_pos(("params", name)), f"param '{name}' is not a parameter of the base ruleset "
                 f"({base}), and no rule reads it: setting it changes nothing", "name", hint)


def params_read(rules: ir.Ruleset) -> set:
    """The names of the params some rule reads (every ir.Param reachable from the rules)."""
    skip = {"params", "overrides", "sources"}
    rest = [getattr(rules, f.name) for f in dataclasses.fields(rules) if f.name not in skip]
    return {x.name for x in nodes(rest) if isinstance(x, ir.Param)}
