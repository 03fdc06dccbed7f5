"""Players and parameters: players min..max, params and their by_players tables, --set overrides.

Also the check that a 'for' or 'per' list, written in place or held by a param, holds plain values.
"""
from __future__ import annotations

from .context import Context
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
    """The one kind of value all rows of a by_players table hold ('any' after reporting a mix)."""
    kinds = [(key, value_type(value)) for key, value in rows.items()]
    first_key, first = kinds[0] if kinds else (None, "any")
    for key, kind in kinds[1:]:
        if kind != first:
            cx.error(path + (key,), f"row '{key}' is {a_type(kind)}, but row '{first_key}' is {a_type(first)}",
                     "player-table", "every row of a by_players table needs the same kind of value")
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
    """The list at path (given in place, or as the name of a param) must hold numbers or words only."""
    raw = cx.get(path)
    lists = []
    if isinstance(raw, list):
        lists.append((path, raw))
    elif isinstance(raw, str) and raw.strip() in cx.params:
        name = raw.strip()
        value = cx.get(("params", name))
        if isinstance(value, dict) and isinstance(value.get("by_players"), dict):
            lists += [(("params", name, "by_players", k), v) for k, v in value["by_players"].items()]
        else:
            lists.append((("params", name), value))
    for lpath, items in lists:
        if not isinstance(items, list):
            continue
        seen: list = []
        for i, item in enumerate(items):
            if isinstance(item, (list, dict)) or item is None:
                if cx.pos(lpath + (i,)) in {d.pos for d in cx.err.diagnostics}:
                    return      # one mistake in a param used twice is reported once
                cx.error(lpath + (i,), f"{what} must be numbers or words, but this is {show(item)}", "type",
                         "list plain values, e.g. [red, blue] or [1, 2, 3]")
                return
            if unique and item in seen:
                cx.error(lpath + (i,), f"{what} must differ, but {item!r} appears twice", "zone",
                         "list each value once")
                return
            seen.append(item)
