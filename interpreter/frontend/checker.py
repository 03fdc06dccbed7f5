"""Resolve every name of a schema-valid ruleset and check types: document -> ir.Ruleset.

Reports every error of the file in one run, each once, at its file:line:col (inside DSL strings
too, via Document.text_pos), with a hint on what to do and "did you mean" for misspelt names.
Locals (let, for, choose) get the type of what they are bound to; since a name may be used above
its binding, `check` first runs quick passes that only learn those types, then the real one.
Things worked out before the game starts (card counts and attributes, 'for' and 'per' lists)
may not use the game state, and procedures and functions may not call themselves.
"""
from __future__ import annotations

import dataclasses
import os
import re

from . import ir
from . import syntax as S
from ..errors import Collector, Pos, RulesetError, did_you_mean
from .loader import Document
from .parser import DSLSyntaxError, parse

BUILTIN_NAMES = {"current": "player", "me": "player", "players": "int", "seats": "list", "turn": "int"}
AGGREGATES = {"count", "sum", "min", "max", "any", "all"}
FUNCTIONS = AGGREGATES | {"first", "last", "reversed", "next", "prev", "abs", "size", "index_of", "numbers"}
KEYWORDS = {"move", "to", "shuffle", "deal", "from", "starting", "let", "set", "extra", "turn", "call",
            "end", "game", "where", "top", "bottom", "of", "if", "then", "else", "and", "or", "not", "in",
            "for", "true", "false"}
CARDISH = {"cards", "zone", "any"}
SET_POS = Pos("--set", 1, 1)   # where errors about a --set option are reported (docs: "--set:1:1")
MAX_PLAYERS = 32        # every player count is compiled and checked; seats are bits in visibility masks
RANGE_KEY = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+))?\s*$")


class _Unresolved(Exception):
    """Raised inside resolution after an error has been recorded; the node becomes `any`."""


class Scope:
    """What bare names may denote at one place in the rules."""

    def __init__(self, card: bool = False, fn_params: dict | None = None, in_trigger: bool = False):
        self.card = card
        self.fn_params = fn_params or {}
        self.in_trigger = in_trigger

    def with_card(self) -> "Scope":
        return Scope(True, self.fn_params, self.in_trigger)


class Checker:
    """One pass over the document: declarations first, then every rule."""

    def __init__(self, doc: Document, overrides: dict | None = None, local_types: dict | None = None):
        self.doc = doc
        self.local_types = local_types or {}    # local name -> type, from a first pass over the whole file
        self.bound: dict = {}                   # local name -> set of types it is bound to in this pass
        self.slot_types: dict = {}              # slot of a card's 'for' variable -> type of its values
        self.var_types: dict = {}               # game variable -> the type of its initial value
        self.data = doc.data
        self.err = Collector()
        self.overrides = dict(overrides or {})
        self.params: dict = {}
        self.param_types: dict = {}
        self.zones: dict = {}
        self.vars: dict = {}
        self.functions: dict = {}
        self.procedures: dict = {}
        self.proc_paths: dict = {}
        self.attrs: set = set()
        self.slots: dict = {}
        self.step_names: list = []
        self.reported: set = set()
        self.attr_types: dict = {}      # card attribute -> set of value types ('int', 'str', ...), None if unknown
        self.const_checks: list = []    # (expr, what, allowed local slots): worked out before the game starts

    # ---- helpers ----
    def pos(self, path) -> Pos:
        return self.doc.pos(path)

    def error(self, path_or_pos, message: str, code: str = "error", hint: str = "") -> None:
        pos = path_or_pos if isinstance(path_or_pos, Pos) else self.pos(path_or_pos)
        if (pos, message) in self.reported:
            return
        self.reported.add((pos, message))
        self.err.error(pos, message, code, hint)

    def get(self, path, default=None):
        data = self.data
        for key in path:
            if isinstance(data, dict) and key in data:
                data = data[key]
            elif isinstance(data, list) and isinstance(key, int) and key < len(data):
                data = data[key]
            else:
                return default
        return data

    def slot(self, name: str) -> int:
        """The local slot of a name bound by let, for, choose or a function parameter."""
        if name not in self.slots:
            self.slots[name] = len(self.slots)
        return self.slots[name]

    def bind(self, name: str, typ: str, pos: Pos) -> int:
        """The slot of a local bound here to a value of type typ (recorded for the type of its uses)."""
        if name in KEYWORDS or name in BUILTIN_NAMES or name in FUNCTIONS:
            self.error(pos, f"'{name}' is a built-in name and cannot name a value of your own", "name",
                       "pick another name")
            return self.slot("!" + name)    # a slot nothing refers to: the name keeps its built-in meaning
        taken = next((kind for kind, names in (("parameter", self.params), ("zone", self.zones),
                                               ("variable", self.vars), ("function", self.functions))
                      if name in names), None)
        if taken:
            self.error(pos, f"'{name}' already names a {taken}; a name bound by let, for or choose must differ",
                       "name", "pick another name")
            return self.slot("!" + name)
        self.bound.setdefault(name, set()).add(typ)
        return self.slot(name)

    def local_type(self, name: str) -> str:
        """The type of a local's uses: the one type every binding of the name gives it, else any."""
        return self.local_types.get(name, "any")

    def elem_type(self, expr) -> str:
        """The type of the items of a list, zone or set of cards ('any' when unknown)."""
        if expr.type in ("zone", "cards"):
            return "card"
        if expr.type != "list":
            return "any"
        kinds: set = set()
        if isinstance(expr, ir.ListLit):
            kinds = {item.type for item in expr.items}
        elif isinstance(expr, ir.Lit) and isinstance(expr.value, list):
            kinds = {_value_type(v) for v in expr.value}
        elif isinstance(expr, ir.Param):
            values = self.constant_values(expr.name)
            if values is None:
                return "any"
            kinds = {_value_type(v) for v in values}
        elif isinstance(expr, ir.GetAttr):
            kinds = {self.attr_type(expr.attr)}
        elif isinstance(expr, ir.Func) and expr.name == "reversed":
            return self.elem_type(expr.args[0])
        elif isinstance(expr, ir.Builtin) and expr.name == "seats":
            return "player"
        elif isinstance(expr, ir.Func) and expr.name == "numbers":
            return "int"
        elif isinstance(expr, ir.Bin) and expr.op == "+":
            a, b = self.elem_type(expr.left), self.elem_type(expr.right)
            return a if a == b else "any"
        return kinds.pop() if len(kinds) == 1 and "any" not in kinds else "any"

    def suggest(self, name: str, candidates) -> str:
        return did_you_mean(name, candidates)

    # ---- entry ----
    def check(self) -> ir.Ruleset:
        players = self.get(("players",), {})
        lo, hi = players.get("min", 1), players.get("max", 1)
        if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
            self.error(("players", "min"), f"players: min {lo} is more than max {hi}", "players",
                       "min is the fewest players, max the most")
        if isinstance(hi, int) and hi > MAX_PLAYERS:
            self.error(("players", "max"), f"players: max {hi} is more than cardrules plays ({MAX_PLAYERS})",
                       "players", f"a game is checked and compiled for every player count: give at most "
                       f"{MAX_PLAYERS}")
            hi = None           # no further complaints about tables missing rows for thousands of players
        self.lo, self.hi = lo, hi
        self.declare_params()
        self.declare_zones()
        self.declare_vars()
        self.declare_functions()
        self.declare_procedures()
        cards = self.declare_cards()
        for decl in self.vars.values():
            decl.initial = self.value(("vars", decl.name, "initial"), Scope(), default=0)
            self.var_types[decl.name] = decl.initial.type if decl.initial.type not in ("null", "value") else "any"
        for decl in self.zones.values():
            self.finish_zone(decl)
        for name, fn in self.functions.items():
            fn.body = self.value(("functions", self.fn_keys[name]), Scope(fn_params=self.fn_scopes[name]))
        self.check_function_recursion()
        for expr, what, allowed in self.const_checks:
            self.check_constant(expr, what, allowed)
        procedures = {name: self.block(path, Scope()) for name, path in self.proc_paths.items()}
        setup = self.block(("setup",), Scope())
        first = self.value(("turn", "first"), Scope(), default=0)
        self.expect(first, {"player"}, "the first player")
        nxt = self.value(("turn", "next"), Scope(), default=None)
        self.expect(nxt, {"player"}, "the next player")
        steps = self.block(("turn", "steps"), Scope(), top=True)
        end_when = self.value(("end", "when"), Scope(), default=False)
        self.expect(end_when, {"bool"}, "the end condition")
        finish = self.check_finish()
        score = self.value(("score",), Scope(), default=0)
        self.expect(score, {"int"}, "the score")
        tiebreak = self.check_tiebreak()
        bot_eval = self.value(("bots", "eval"), Scope(), default=None)
        self.expect(bot_eval, {"int"}, "the bots' rating")
        self.check_recursion(procedures)
        display = self.check_display()
        self.err.raise_if_any()
        return ir.Ruleset(
            name=str(self.get(("name",), "")), file=self.doc.file, min_players=lo, max_players=hi,
            params=self.params, cards=cards, zones=list(self.zones.values()), zone_by_name=self.zones,
            vars=list(self.vars.values()), functions=self.functions, procedures=procedures, setup=setup,
            first=first, next=nxt, steps=steps, end_when=end_when, finish=finish, score=score,
            tiebreak=tiebreak, bot_eval=bot_eval, slots=list(self.slots), sources=self.doc.sources,
            overrides=self.overrides, display=display)

    # ---- parameters ----
    def declare_params(self) -> None:
        for name, raw in (self.get(("params",), {}) or {}).items():
            path = ("params", name)
            if name in KEYWORDS or name in BUILTIN_NAMES:
                self.error(self.doc.key_pos(path), f"'{name}' is a reserved word and cannot name a parameter", "name",
                           "pick another name")
            fraction = _fraction(raw)
            if fraction is not None:
                sub, value = fraction
                self.error(path + sub, f"param '{name}' holds {value!r}, a fraction: the rules work with whole "
                           "numbers only", "type", "write a whole number, such as 2")
            if isinstance(raw, dict) and "by_players" in raw:
                table = self.player_table(path + ("by_players",), raw["by_players"])
                self.params[name] = (table, self.pos(path))
                self.param_types[name] = self.row_type(path + ("by_players",), raw["by_players"])
            else:
                self.params[name] = (raw, self.pos(path))
                self.param_types[name] = _value_type(raw)
        self.apply_overrides()

    def player_table(self, path, rows: dict) -> dict:
        """A by_players table: keys 'N' or 'N-M'; every allowed player count exactly once."""
        table: dict = {}
        for key, value in rows.items():
            m = RANGE_KEY.match(str(key))
            if not m:
                self.error(self.doc.key_pos(path + (key,)), f"'{key}' is not a player count or range like 3-4",
                           "player-table", "write a key like 3, or 3-5 for 3 to 5 players")
                continue
            a, b = int(m.group(1)), int(m.group(2) or m.group(1))
            if a > b:
                self.error(self.doc.key_pos(path + (key,)), f"'{key}' is an empty range of player counts",
                           "player-table", f"write the smaller count first: {b}-{a}")
            counts = range(a, min(b, MAX_PLAYERS) + 1)     # no game has more players: a huge range stays cheap
            twice = [n for n in counts if n in table]
            if twice:
                first = next(k for k in rows if k != key and _covers(k, twice[0]))
                self.error(self.doc.key_pos(path + (key,)),
                           f"player count {twice[0]} appears twice in this table (also in row '{first}')",
                           "player-table", "give every player count exactly one row")
            for n in counts:
                table.setdefault(n, value)
        if isinstance(self.lo, int) and isinstance(self.hi, int):
            missing = [n for n in range(self.lo, self.hi + 1) if n not in table]
            if missing:
                self.error(path, f"this table has no row for {', '.join(map(str, missing))} players",
                           "player-table", f"add a row for every player count from {self.lo} to {self.hi}")
        return table

    def row_type(self, path, rows: dict) -> str:
        """The one kind of value all rows of a by_players table hold ('any' after reporting a mix)."""
        kinds = [(key, _value_type(value)) for key, value in rows.items()]
        first_key, first = kinds[0] if kinds else (None, "any")
        for key, kind in kinds[1:]:
            if kind != first:
                self.error(path + (key,), f"row '{key}' is {_A(kind)}, but row '{first_key}' is {_A(first)}",
                           "player-table", "every row of a by_players table needs the same kind of value")
                return "any"
        return first

    def apply_overrides(self) -> None:
        """--set NAME=VALUE or NAME.PLAYERS=VALUE replaces a parameter for one run."""
        for key, value in self.overrides.items():
            name, _, row = key.partition(".")
            if name not in self.params:
                hint = self.suggest(name, self.params) or f"its parameters are {', '.join(self.params) or 'none'}"
                self.error(SET_POS, f"{key}: the ruleset has no parameter '{name}'", "bad-set", hint)
                continue
            old, pos = self.params[name]
            if row:
                if not isinstance(old, dict) or not row.isdigit() or int(row) not in old:
                    outside = row.isdigit() and isinstance(self.lo, int) and isinstance(self.hi, int) \
                        and not self.lo <= int(row) <= self.hi
                    allowed = f"the game is for {self.lo} to {self.hi} players; " if outside else ""
                    self.error(SET_POS, f"{key}: '{name}' has no row for {row} players", "bad-set",
                               f"{allowed}the rows are for {', '.join(map(str, old))} players" if isinstance(old, dict)
                               else f"'{name}' does not depend on the player count: write --set {name}=VALUE")
                    continue
                old = dict(old)
                old[int(row)] = value
                self.params[name] = (old, pos)
            else:
                self.params[name] = (value, pos)
            if _value_type(value) != self.param_types[name] and self.param_types[name] != "any":
                want = self.param_types[name]
                own = self.get(("params", name))
                own = f" ({_show(own)})" if isinstance(own, (int, str)) and not isinstance(own, bool) else ""
                self.error(SET_POS, f"{key}: '{name}' must be {_A(want)}, not {value!r}", "bad-set",
                           f"give {_A(want)}, like the ruleset's own value{own}")

    # ---- zones, vars, functions, procedures ----
    def declare_zones(self) -> None:
        for i, (name, spec) in enumerate((self.get(("zones",), {}) or {}).items()):
            path = ("zones", name)
            self.check_new_name(name, path, "zone")
            spec = spec or {}
            per_player = spec.get("owner", "table") == "each"
            visible = spec.get("visible", "owner" if per_player else "everyone")
            if visible == "owner" and not per_player:
                self.error(path + ("visible",), f"zone '{name}' belongs to the table, so it has no owner to see it",
                           "zone", "use visible: everyone or nobody, or owner: each")
            self.zones[name] = ir.ZoneDecl(name, i, per_player, spec.get("per"), visible, [], self.pos(path),
                                           spec.get("alike") is True)

    def finish_zone(self, decl: ir.ZoneDecl) -> None:
        path = ("zones", decl.name)
        if decl.per is not None:
            decl.per = self.value(path + ("per",), Scope())
            self.expect(decl.per, {"list"}, "the index list of a zone family",
                        "give a list, or the name of a param holding one, e.g. per: suits")
            self.const_checks.append((decl.per, "the index list of a zone family", set()))
            self.check_scalar_items(path + ("per",), f"the values of zone family '{decl.name}'", unique=True)
        decl.on_empty = self.block(path + ("on_empty",), Scope(in_trigger=True))

    def declare_vars(self) -> None:
        for i, (name, spec) in enumerate((self.get(("vars",), {}) or {}).items()):
            path = ("vars", name)
            self.check_new_name(name, path, "variable")
            spec = spec if isinstance(spec, dict) else {"initial": spec}
            self.vars[name] = ir.VarDecl(name, i, spec.get("owner", "table") == "each", None, self.pos(path))

    def declare_functions(self) -> None:
        self.fn_keys, self.fn_scopes = {}, {}
        for key in (self.get(("functions",), {}) or {}):
            path = ("functions", key)
            try:
                sig = parse(str(key), "sig")
            except DSLSyntaxError as exc:
                self.error(self.doc.key_pos(path), f"'{key}' is not a function name like f or f(a, b)", "syntax",
                           "parameters are names separated by commas")
                continue
            if sig.name in self.functions:
                self.error(self.doc.key_pos(path), f"function '{sig.name}' is declared twice", "name",
                           f"the first is '{self.fn_keys[sig.name]}'; give each function its own name")
                continue
            self.check_new_name(sig.name, path, "function")
            scope = {p: self.slot(f"{sig.name}.{p}") for p in sig.params}
            self.fn_keys[sig.name], self.fn_scopes[sig.name] = key, scope
            self.functions[sig.name] = ir.FunctionDecl(sig.name, list(scope.values()), None, self.pos(path))

    def declare_procedures(self) -> None:
        for name in (self.get(("procedures",), {}) or {}):
            self.check_new_name(name, ("procedures", name), "procedure")
            self.proc_paths[name] = ("procedures", name)

    def check_new_name(self, name: str, path, what: str) -> None:
        """Zones, params, vars and functions share one namespace."""
        taken = {"parameter": self.params, "zone": self.zones, "variable": self.vars,
                 "function": getattr(self, "functions", {})}
        for kind, names in taken.items():
            if name in names and kind != what:
                self.error(self.doc.key_pos(path), f"'{name}' names both a {kind} and a {what}", "name",
                           "give each its own name")
        if name in KEYWORDS or name in BUILTIN_NAMES or name in FUNCTIONS:
            self.error(self.doc.key_pos(path), f"'{name}' is a reserved word and cannot name a {what}", "name",
                       "pick another name")

    # ---- cards ----
    def declare_cards(self) -> list:
        kinds = []
        specs = self.get(("cards",), {}) or {}
        for name, spec in specs.items():
            for var in (spec or {}).get("for", {}) or {}:
                self.attrs.add(var)
            for attr in (spec or {}).get("attrs", {}) or {}:
                self.attrs.add(attr)
        self.attrs |= {"kind", "name"}
        self.attr_types = self.card_attr_types(specs)
        for name, spec in specs.items():
            kinds.append(self.card_kind(name, spec or {}))
        return kinds

    def card_attr_types(self, specs: dict) -> dict:
        """The kinds of value each card attribute takes, where the YAML shows them (None: not known)."""
        types: dict = {"kind": {"str"}, "name": {"str"}}

        def add(attr, values):
            if values is None or types.get(attr, set()) is None:
                types[attr] = None
            else:
                types.setdefault(attr, set()).update(_value_type(v) for v in values)

        for spec in specs.values():
            spec = spec if isinstance(spec, dict) else {}
            for var, raw in (spec.get("for") or {}).items():
                add(var, self.constant_values(raw))
            for attr, raw in (spec.get("attrs") or {}).items():
                add(attr, None if isinstance(raw, str) else [raw])
        return types

    def constant_values(self, raw):
        """The values a 'for' list can take: a YAML list, or a param holding one (any row); else None."""
        if isinstance(raw, list):
            return raw
        if isinstance(raw, str) and raw.strip() in self.params:
            value = self.params[raw.strip()][0]
            rows = list(value.values()) if isinstance(value, dict) else [value]
            if all(isinstance(row, list) for row in rows):
                return [v for row in rows for v in row]
        return None

    def check_scalar_items(self, path, what: str, unique: bool = False) -> None:
        """The list at path (given in place, or as the name of a param) must hold numbers or words only."""
        raw = self.get(path)
        lists = []
        if isinstance(raw, list):
            lists.append((path, raw))
        elif isinstance(raw, str) and raw.strip() in self.params:
            name = raw.strip()
            value = self.get(("params", name))
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
                    if self.pos(lpath + (i,)) in {d.pos for d in self.err.diagnostics}:
                        return      # one mistake in a param used twice is reported once
                    self.error(lpath + (i,), f"{what} must be numbers or words, but this is {_show(item)}", "type",
                               "list plain values, e.g. [red, blue] or [1, 2, 3]")
                    return
                if unique and item in seen:
                    self.error(lpath + (i,), f"{what} must differ, but {item!r} appears twice", "zone",
                               "list each value once")
                    return
                seen.append(item)

    def attr_type(self, attr: str) -> str:
        """'int' or 'str' when every value of a card attribute is one, else 'value'."""
        kinds = self.attr_types.get(attr)
        if kinds is None:
            return "any"        # computed by an expression: its kind shows only when the game runs
        return next(iter(kinds)) if kinds and len(kinds) == 1 and kinds <= {"int", "str", "bool", "list"} else "value"

    def card_kind(self, name: str, spec: dict) -> ir.CardKind:
        path = ("cards", name)
        loops = []
        for var in spec.get("for", {}) or {}:
            values = self.value(path + ("for", var), Scope())
            self.expect(values, {"list"}, f"the values of '{var}'", "give a list, or the name of a param holding one")
            self.const_checks.append((values, f"the values of '{var}'", set()))
            self.check_scalar_items(path + ("for", var), f"the values of '{var}'")
            loops.append((var, values, self.slot(f"{name}.{var}")))
            self.slot_types[loops[-1][2]] = self.elem_type(values)
        scope = Scope(fn_params={var: slot for var, _, slot in loops})
        loop_slots = {slot for _, _, slot in loops}
        template = spec.get("name", name)
        variables = [v for v, _, _ in loops]
        for m in re.finditer(r"\{([^}]*)\}", template):
            if m.group(1) not in variables:
                where = self.doc.text_pos(path + ("name",), *_line_col(template, m.start()))
                hint = self.suggest(m.group(1), variables) or (
                    f"a name template can use the 'for' variables {', '.join(variables)}" if variables
                    else "this card kind has no 'for' variables; write its name without {...}")
                self.error(where, f"the name template uses '{{{m.group(1)}}}', which is not a 'for' variable",
                           "template", hint)
        count = self.value(path + ("count",), scope, default=1)
        self.expect(count, {"int"}, "a card count")
        self.const_checks.append((count, "a card count", loop_slots))
        attrs = [(a, self.value(path + ("attrs", a), scope)) for a in spec.get("attrs", {}) or {}]
        for a, value in attrs:
            self.const_checks.append((value, f"the attribute '{a}'", loop_slots))
        start = self.zones.get(spec.get("start"))
        if start is None:
            start_name = spec.get("start")
            self.error(path + ("start",), f"unknown zone '{start_name}' for the cards to start in", "name",
                       self.suggest(str(start_name), self.zones) or "declare it under zones")
        elif start.per is not None or start.per_player:
            self.error(path + ("start",), f"cards must start in a single zone, and '{start.name}' is one per "
                       f"{'player' if start.per_player else 'value'}", "zone", "start them in a table zone and deal")
        return ir.CardKind(name, loops, template, count, attrs, start, self.pos(path))

    # ---- statements ----
    def block(self, path, scope: Scope, top: bool = False) -> list:
        items = self.get(path)
        if items is None:
            return []
        if not isinstance(items, list):
            self.error(path, "expected a list of statements", "schema", "write each statement as an item '- ...'")
            return []
        out = []
        for i, item in enumerate(items):
            try:
                stmt = self.statement(path + (i,), item, scope, top)
            except _Unresolved:
                continue
            if isinstance(stmt, list):
                out.extend(stmt)
            elif stmt is not None:
                out.append(stmt)
        return out

    def statement(self, path, item, scope: Scope, top: bool):
        pos = self.pos(path)
        if isinstance(item, str):
            node = self.parse(path, item, "stmt")
            return self.simple(node, path, scope)
        if not isinstance(item, dict):
            self.error(path, "a statement is a string or a mapping such as if/for/while/around/choose/step", "schema",
                       'e.g. - "shuffle draw" or - if: ... then: [...]')
            return None
        if "step" in item:
            name = str(item["step"])
            if not top:
                self.error(path + ("step",), f"step '{name}' must be at the top level of turn.steps", "step",
                           "a step groups statements of the turn; inside it, list the statements directly")
            if name in self.step_names:
                self.error(path + ("step",), f"two steps are named '{name}'", "step", "give each step its own name")
            self.step_names.append(name)
            return ir.StepS(pos, name, self.block(path + ("do",), scope))
        if "if" in item:
            cond = self.value(path + ("if",), scope)
            self.expect(cond, {"bool"}, "an if condition")
            return ir.IfS(pos, cond, self.block(path + ("then",), scope), self.block(path + ("else",), scope))
        if "for" in item:
            head = self.parse(path + ("for",), str(item["for"]), "for")
            iterable = self.resolve(head.iterable, path + ("for",), scope)
            self.expect(iterable, {"list", "cards", "zone"}, "what a for loop goes over")
            slot = self.bind(head.var, self.elem_type(iterable), self.at(path + ("for",), head))
            return ir.ForS(pos, slot, iterable, self.block(path + ("do",), scope))
        if "while" in item:
            cond = self.value(path + ("while",), scope)
            self.expect(cond, {"bool"}, "a while condition")
            return ir.WhileS(pos, cond, self.block(path + ("do",), scope))
        if "around" in item:
            return self.around(path, item, scope)
        if "choose" in item:
            if scope.in_trigger:
                self.error(path, "a trigger runs in the middle of a move, so it cannot ask for a decision", "trigger",
                           "on_empty may only move, shuffle, deal, let and set; let the player choose in a turn step")
            return self.choose(path, item, scope)
        self.error(path, f"unknown kind of step with keys {', '.join(map(str, item))}", "schema",
                   "a step is a statement string or one of if, for, while, around, choose, step")
        return None

    def around(self, path, item, scope: Scope) -> list:
        """'around: p' goes round the table from a seat: once, or until a condition holds.

        It is written out as a let and a while, so both backends run it as they run those.
        """
        pos = self.pos(path)
        name = str(item["around"]).strip()
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            self.error(path + ("around",), f"'{name}' is not a name for the seat going round", "syntax",
                       "write around: p, then use p in the loop")
            raise _Unresolved
        start = self.value(path + ("from",), scope, default=None) if "from" in item else ir.Builtin(pos, "player", "current")
        if start is not None:
            self.expect(start, {"player"}, "the seat that goes first")
        until = self.value(path + ("until",), scope, default=None) if "until" in item else None
        if until is not None:
            self.expect(until, {"bool"}, "an until condition")
        seat = self.bind(name, "player", self.pos(path + ("around",)))
        here = ir.Local(pos, "player", seat, name)
        advance = ir.LetS(pos, seat, ir.Func(pos, "player", "next", (here,)))
        body = self.block(path + ("do",), scope) + [advance]
        if until is not None:
            return [ir.LetS(pos, seat, start), ir.WhileS(pos, ir.NotOp(pos, "bool", until), body)]
        done = self.slot(f"#around@{pos.line}:{pos.col}")      # seats served so far; no rule can name it
        served = ir.Local(pos, "int", done, "#around")
        body.append(ir.LetS(pos, done, ir.Bin(pos, "int", "+", served, ir.Lit(pos, "int", 1))))
        return [ir.LetS(pos, done, ir.Lit(pos, "int", 0)), ir.LetS(pos, seat, start),
                ir.WhileS(pos, ir.Cmp(pos, "bool", "<", served, ir.Builtin(pos, "int", "players")), body)]

    def simple(self, node, path, scope: Scope):
        """A one-line statement."""
        pos = self.at(path, node)
        if isinstance(node, S.Move):
            cards = self.resolve(node.cards, path, scope)
            self.expect(cards, CARDISH, "what to move")
            dest, bottom = node.dest, False
            if isinstance(dest, S.Top) and dest.bottom and dest.count is None:
                dest, bottom = dest.cards, True       # move ... to bottom of ZONE
            elif isinstance(dest, S.Top):
                zone = dest.cards.id if isinstance(dest.cards, S.Name) else "ZONE"
                if dest.bottom:
                    self.error(self.at(path, dest), "cards go to the bottom of a zone, not to 'bottom N of' it",
                               "type", f"write 'to bottom of {zone}': only the bottom of a zone can receive cards; "
                               f"say how many cards on the left, e.g. move top 2 of ... to bottom of {zone}")
                else:
                    self.error(self.at(path, dest), "cards moved to a zone go on its top: write the zone alone, "
                               "not 'top of' it", "type", f"write 'to {zone}' (or 'to bottom of {zone}' to put "
                               "them under it)")
                raise _Unresolved
            return ir.MoveS(pos, cards, self.zone_instance(dest, path, scope), bottom)
        if isinstance(node, S.Shuffle):
            return ir.ShuffleS(pos, self.zone_instance(node.zone, path, scope))
        if isinstance(node, S.Deal):
            count = self.resolve(node.count, path, scope)
            self.expect(count, {"int"}, "how many cards each player is dealt")
            source = self.zone_instance(node.source, path, scope)
            dest = self.deal_target(node, path)
            starting = self.resolve(node.starting, path, scope) if node.starting else None
            if starting is not None:
                self.expect(starting, {"player"}, "the player dealt to first")
            return ir.DealS(pos, count, source, dest, starting)
        if isinstance(node, S.Let):
            value = self.resolve(node.value, path, scope)
            where = self.find(path, node, r"\blet\s+(" + re.escape(node.name) + r")\b")
            return ir.LetS(pos, self.bind(node.name, value.type, where), value)
        if isinstance(node, S.SetVar):
            decl = self.vars.get(node.name)
            if decl is None:
                where = self.find(path, node, r"\bset\s+(" + re.escape(node.name) + r")\b")
                local = node.name in self.slots or node.name in self._all_binders()
                hint = self.suggest(node.name, self.vars) or (
                    f"'{node.name}' is a local name: give it a new value with let {node.name} = ..." if local
                    else f"declare it under vars, e.g. vars: {{{node.name}: {{initial: 0}}}}, or use let for a local")
                self.error(where, f"'{node.name}' is not a variable declared under vars", "name", hint)
                raise _Unresolved
            owner = self.resolve(node.owner, path, scope) if node.owner else None
            if owner is not None and not decl.per_player:
                self.error(owner.pos, f"variable '{decl.name}' belongs to the table; it takes no player", "type",
                           f"write set {decl.name} = ...")
            elif owner is not None:
                self.expect(owner, {"player"}, "a variable's owner")
            value = self.resolve(node.value, path, scope)
            kind = self.var_types.get(decl.name, "any")
            if kind != "any":
                fits = {kind, "cards", "zone"} if kind == "list" else {kind}
                self.expect(value, fits, f"the new value of '{decl.name}'",
                            f"'{decl.name}' starts as {_A(kind)} (its initial value), so it always holds one")
            return ir.SetS(pos, decl, owner, value)
        if isinstance(node, S.ExtraTurn):
            return ir.ExtraS(pos)
        if isinstance(node, S.EndGame):
            return ir.EndS(pos)
        if isinstance(node, S.CallProc):
            if node.name not in self.proc_paths:
                where = self.find(path, node, r"\bcall\s+(" + re.escape(node.name) + r")\b")
                hint = self.suggest(node.name, self.proc_paths) or "declare it under procedures"
                self.error(where, f"unknown procedure '{node.name}'", "name", hint)
                raise _Unresolved
            return ir.CallS(pos, node.name)
        self.error(pos, "an expression on its own does nothing here", "statement",
                   "a step starts with move, shuffle, deal, let, set, extra turn, call or end game")
        return None

    def deal_target(self, node: S.Deal, path):
        """The zone a deal gives cards to: one that each player has (not a family)."""
        where = self.find(path, node, r"\bto\s+(" + re.escape(node.dest) + r")\b")
        dest = self.zones.get(node.dest)
        if dest is None:
            hint = self.suggest(node.dest, [z for z, d in self.zones.items() if d.per_player]) or \
                self.suggest(node.dest, self.zones) or "declare it under zones with owner: each"
            self.error(where, f"unknown zone '{node.dest}'", "name", hint)
        elif not dest.per_player:
            self.error(where, f"deal gives cards to every player, but zone '{dest.name}' belongs to the table",
                       "deal", f"deal to a zone with owner: each, like hand; to lay cards on '{dest.name}', write "
                       f"move top N of ... to {dest.name}")
        elif dest.per is not None:
            self.error(where, f"deal cannot give cards to the zone family '{dest.name}'", "deal",
                       "deal to a zone with owner: each and no per; then move cards on from there")
        else:
            return dest
        return None

    def choose(self, path, item: dict, scope: Scope) -> ir.ChooseS:
        pos = self.pos(path)
        name = str(item["choose"])
        by = self.value(path + ("by",), scope, default=None)
        if by is not None:
            self.expect(by, {"player", "int"}, "who decides")
        stmt = ir.ChooseS(pos, name, None, by)
        where = self.pos(path + ("choose",))
        forms = [k for k in ("cards", "from", "options") if k in item]
        if len(forms) != 1 or "options" in item:
            stmt.slot = self.bind(name, "str" if forms == ["options"] else "any", where)
        if not forms:
            self.error(path, f"choose '{name}' needs one of cards, from or options", "choose",
                       "cards: a zone to pick cards from; from: a list to pick one value of; options: named choices")
            return stmt
        if len(forms) > 1:
            self.error(self.doc.key_pos(path + (forms[1],)), f"choose '{name}' has both {forms[0]} and {forms[1]}",
                       "choose", "a choice is of cards (cards), of one value of a list (from) or of named options "
                       "(options): keep one of them")
            return stmt
        if "cards" in item:
            stmt.slot = self.bind(name, "cards", where)
            stmt.cards = self.card_choice(path, item, scope)
        elif "from" in item:
            stmt.values = self.value(path + ("from",), scope)
            stmt.slot = self.bind(name, self.elem_type(stmt.values), where)
            self.expect(stmt.values, {"list"}, "the values to choose from")
            if "where" in item:
                stmt.where = self.value(path + ("where",), scope)
                self.expect(stmt.where, {"bool"}, "a where condition")
        else:
            for opt, spec in (item.get("options") or {}).items():
                opath = path + ("options", opt)
                spec = spec or {}
                cards = self.card_choice(opath, spec, scope) if "cards" in spec else None
                slot = self.bind(str(opt), "cards", self.doc.key_pos(opath)) if cards else None
                stmt.options.append(ir.Option(str(opt), slot, cards, self.block(opath + ("do",), scope)))
            if not stmt.options:
                self.error(path + ("options",), "a choice needs at least one option", "choose",
                           "name each option under options, e.g. options: {pass: {}, take: {do: [...]}}")
        return stmt

    def card_choice(self, path, spec: dict, scope: Scope) -> ir.CardChoice:
        cards = self.value(path + ("cards",), scope)
        self.expect(cards, CARDISH, "the cards to choose from")
        base = ir.base_of(cards)
        if isinstance(base, ir.ZoneRef) and base.decl.visible == "nobody":
            self.error(cards.pos, f"zone '{base.decl.name}' is face down (visible: nobody), so choosing among its "
                       "cards would show their faces in the list of moves", "choose",
                       "choose a place instead (a value of a list, e.g. a position or a pile), then move top of it")
        where = self.value(path + ("where",), scope.with_card(), default=None)
        self.expect(where, {"bool"}, "a where condition")
        if "count" in spec:
            lo = hi = self.value(path + ("count",), scope)
        else:
            lo = self.value(path + ("min",), scope, default=1)
            hi = self.value(path + ("max",), scope, default=None)
        for bound in (lo, hi):
            if bound is not None:
                self.expect(bound, {"int"}, "how many cards to choose")
        same = spec.get("same")
        if same is not None and same not in self.attrs:
            hint = self.suggest(same, self.attrs) or f"the card attributes are {_either(sorted(self.attrs))}"
            self.error(path + ("same",), f"same: '{same}' is not a card attribute", "name", hint)
        return ir.CardChoice(cards, where, lo, hi, same)

    def check_finish(self) -> set:
        names = self.get(("end", "finish"), []) or []
        for i, name in enumerate(names):
            if name not in self.step_names:
                hint = self.suggest(str(name), self.step_names) or (
                    f"the steps are {_and([repr(n) for n in dict.fromkeys(self.step_names)])}" if self.step_names
                    else "name the steps of turn.steps with step: NAME")
                at, steps_at = self.pos(("end", "finish", i)), self.doc.key_pos(("turn", "steps"))
                if at.file != steps_at.file and steps_at.file == self.doc.file:
                    # a variant replaced the steps and dropped one its base's end.finish names
                    self.error(steps_at, f"end.finish names the step '{name}' ({_relative(at, self.doc.file)}), "
                               "but these steps have none of that name", "name", f"{hint}; a variant's steps "
                               "replace the base's whole list: keep that step here, or give end: {finish: [...]} "
                               "in this file too")
                    continue
                self.error(("end", "finish", i), f"no step of the turn is named '{name}'", "name", hint)
        return set(names)

    def check_tiebreak(self) -> list:
        out = []
        for i, rule in enumerate(self.get(("tiebreak",), []) or []):
            key = "most" if "most" in rule else "fewest"
            value = self.value(("tiebreak", i, key), Scope())
            self.expect(value, {"int"}, f"a tiebreak ({key})")
            out.append((1 if key == "most" else -1, value))
        return out

    def check_display(self) -> dict:
        """How `play` shows a seat's view (the schema checked the values): defaults filled in."""
        display = {"knowledge": "full"}
        display.update(self.get(("display",), None) or {})
        if "grid" in display:
            display["grid"] = self.check_grid(("display", "grid"))
        return display

    def check_grid(self, path) -> dict:
        """display.grid: table zone families of one index list, laid out `columns` positions a row.
        Gives {'families': [names], 'columns': an int expression worked out before the game}."""
        names = self.get(path + ("families",), []) or []
        families, per = [], None
        for i, name in enumerate(names):
            where = path + ("families", i)
            decl = self.zones.get(name)
            if decl is None:
                families = [z for z, d in self.zones.items() if d.per is not None and not d.per_player]
                hint = self.suggest(str(name), families) or self.suggest(str(name), self.zones) or (
                    f"the zone families are {_and([repr(d.name) for d in self.zones.values() if d.per is not None])}"
                    if any(d.per is not None for d in self.zones.values()) else
                    "declare a zone family first, e.g. down: {per: cells, visible: nobody}")
                self.error(where, f"the grid names '{name}', which is not a zone", "name", hint)
                continue
            if decl.per is None or decl.per_player:
                why = "is a single zone" if decl.per is None else "belongs to each player"
                self.error(where, f"the grid needs zone families of the table, but '{name}' {why}", "display",
                           "lay out zones declared with per: LIST (and no owner: each)")
                continue
            text = " ".join(str(self.get(("zones", name, "per"))).split())
            if per is None:
                per = (name, text)
            elif text != per[1]:
                self.error(where, f"the grid's families must share one index list, but '{name}' is per "
                           f"'{text}' and '{per[0]}' per '{per[1]}'", "display",
                           "a grid lays out positions of one list: declare its families with the same per: list")
                continue
            families.append(name)
        columns = self.value(path + ("columns",), Scope())
        if self.expect(columns, {"int"}, "the grid's columns", "give a number, or a param holding one, e.g. cols"):
            self.check_constant(columns, "the grid's columns", set())
            if isinstance(columns, ir.Param):
                value = self.params[columns.name][0]
                values = list(value.values()) if isinstance(value, dict) else [value]
            else:
                values = [columns.value] if isinstance(columns, ir.Lit) else []
            bad = next((v for v in values if isinstance(v, int) and not isinstance(v, bool) and v < 1), None)
            if bad is not None:
                self.error(path + ("columns",), f"the grid's columns must be a positive whole number, not {bad}",
                           "display", "give how many positions a row of the grid shows, e.g. 10")
        return {"families": families, "columns": columns}

    def check_recursion(self, procedures: dict) -> None:
        """Procedures may call each other but not themselves, directly or through others."""
        calls = {name: [(s.name, s.pos) for s in _walk(body) if isinstance(s, ir.CallS) and s.name in procedures]
                 for name, body in procedures.items()}
        for cycle, pos in _cycles(calls):
            through = f" through {_either([repr(n) for n in cycle[1:-1]])} ({' -> '.join(cycle)})" \
                if len(cycle) > 2 else ""
            self.error(pos, f"procedure '{cycle[0]}' calls itself{through}", "recursion",
                       "rules have no recursion; repeat statements with a while loop instead")

    def check_function_recursion(self) -> None:
        """Functions may use each other but not themselves, directly or through others."""
        calls = {name: [(e.fn.name, e.pos) for e in _exprs(fn.body) if isinstance(e, ir.UserCall)]
                 for name, fn in self.functions.items() if fn.body is not None}
        for cycle, pos in _cycles(calls):
            through = f" through {_either([repr(n) for n in cycle[1:-1]])} ({' -> '.join(cycle)})" \
                if len(cycle) > 2 else ""
            self.error(pos, f"function '{cycle[0]}' calls itself{through}", "recursion",
                       "rules have no recursion; count, sum, min, max, any and all go over lists instead")
            for name in cycle:
                self.functions[name].body = ir.Lit(pos, "any", None)    # so nothing runs it

    def check_constant(self, expr, what: str, allowed: set) -> None:
        """Report a use of the game state in something worked out before the game starts."""
        found = self.state_use(expr, allowed, set())
        if found is not None:
            node, reason = found
            self.error(node.pos, f"{what} is worked out before the game starts, so it cannot use {reason}",
                       "constant", "use numbers, lists, params and the card's 'for' variables here")

    def state_use(self, expr, allowed: set, seen: set):
        """The first node of expr that needs the game state, with a description; None if there is none."""
        for node in _exprs(expr):
            if isinstance(node, ir.Gen):
                allowed = allowed | {node.slot}
            if isinstance(node, ir.ZoneRef):
                return node, f"the zone '{node.decl.name}'"
            if isinstance(node, ir.Var):
                return node, f"the variable '{node.decl.name}'"
            if isinstance(node, ir.Builtin) and node.name in ("current", "me", "turn"):
                return node, f"'{node.name}'"
            if isinstance(node, ir.Local) and node.slot not in allowed:
                return node, f"'{node.name}', which is only known during play"
            if isinstance(node, ir.UserCall) and node.fn.name not in seen and node.fn.body is not None:
                inner = self.state_use(node.fn.body, set(node.fn.params), seen | {node.fn.name})
                if inner is not None:
                    return node, f"the function '{node.fn.name}', which uses {inner[1]}"
        return None

    # ---- expressions ----
    def parse(self, path, text: str, kind: str):
        try:
            return parse(text, kind)
        except DSLSyntaxError as exc:
            self.error(self.doc.text_pos(path, exc.line, exc.col), exc.message, "syntax", exc.hint)
            raise _Unresolved from None

    def at(self, path, node) -> Pos:
        return self.doc.text_pos(path, *node.at)

    def value(self, path, scope: Scope, default=...):
        """The expression at path: a DSL string, or a YAML number, boolean or list."""
        raw = self.get(path, ...)
        if isinstance(raw, float):
            self.error(path, f"{raw!r} is a fraction: the rules work with whole numbers only", "type",
                       "write a whole number, such as 2")
            return ir.Lit(self.pos(path), "any", None)
        if raw is ... or raw is None:
            if default is ...:
                self.error(path, f"missing value for '{path[-1]}'", "schema", "write an expression here")
                return ir.Lit(self.pos(path), "any", None)
            return default if default is None else ir.Lit(self.pos(path), _value_type(default), default)
        if isinstance(raw, str):
            try:
                node = self.parse(path, raw, "expr")
                return self.resolve(node, path, scope)
            except _Unresolved:
                return ir.Lit(self.pos(path), "any", None)
        return ir.Lit(self.pos(path), _value_type(raw), raw)

    def expect(self, expr, types: set, what: str, hint: str = "") -> bool:
        """Report expr unless its type is one of types; True when it fits."""
        if expr is None or expr.type == "any" or expr.type in types:
            return True
        if "int" in types and expr.type == "player" or "player" in types and expr.type == "int":
            return True
        if expr.type == "value" and types & {"int", "str", "player", "value"}:
            return True     # a card attribute of unknown kind: checked while playing
        if isinstance(expr, ir.Param) and self.params[expr.name][1].file != expr.pos.file:
            # a variant changed a base parameter: the mistake is the variant's value, not the base's rule
            used = _relative(expr.pos, self.doc.file)
            self.error(self.params[expr.name][1], f"param '{expr.name}' is {_A(expr.type)} here, but the rules "
                       f"need {_wanted(types)}", "type", f"it is used as {what} at {used}")
            return False
        if isinstance(expr, ir.Param) and expr.type == "null":
            hint = f"param '{expr.name}' has no value: give it one under params"
        elif isinstance(expr, ir.Param) and not hint and expr.type in ("int", "str", "bool") \
                and not isinstance(self.params[expr.name][0], dict):
            raw, where = self.params[expr.name]
            shown = ("true" if raw else "false") if isinstance(raw, bool) else _show(raw)
            hint = f"param '{expr.name}' is {shown} (line {where.line}): give it {_wanted(types)} there, " \
                   "or change the rule"
        self.error(expr.pos, f"{what} must be {_wanted(types)}, but this is {_A(expr.type)}", "type",
                   hint or _type_hint(types, expr.type))
        return False

    def zone_instance(self, node, path, scope: Scope) -> ir.Expr:
        """A single zone: families need an index, per-player zones default to `me`."""
        z = self.resolve(node, path, scope)
        if isinstance(z, ir.Lit) and z.type == "any":
            return z        # already reported
        if not isinstance(z, ir.ZoneRef):
            what = f"'{z.name}', a name for a value" if isinstance(z, ir.Local) else _A(z.type)
            self.error(z.pos, f"expected a zone here, but this is {what}", "type",
                       "name the zone itself, e.g. hand, draw or side[m]")
            return ir.Lit(z.pos, "any", None)
        return z

    def resolve(self, node, path, scope: Scope) -> ir.Expr:
        """Resolve one syntax node (recursively) to an ir expression."""
        pos = self.at(path, node)
        method = getattr(self, "r_" + type(node).__name__)
        try:
            return method(node, pos, path, scope)
        except _Unresolved:
            return ir.Lit(pos, "any", None)

    def r_Num(self, node, pos, path, scope):
        return ir.Lit(pos, "int", node.value)

    def r_Str(self, node, pos, path, scope):
        return ir.Lit(pos, "str", node.value)

    def r_Bool(self, node, pos, path, scope):
        return ir.Lit(pos, "bool", node.value)

    def r_ListExpr(self, node, pos, path, scope):
        return ir.ListLit(pos, "list", tuple(self.resolve(i, path, scope) for i in node.items))

    def r_Name(self, node, pos, path, scope):
        name = node.id
        if name in scope.fn_params:
            slot = scope.fn_params[name]
            return ir.Local(pos, self.slot_types.get(slot, "any"), slot, name)
        if scope.card and name in self.attrs:
            return ir.CardAttr(pos, self.attr_type(name), name)
        if name in self.slots and "." not in name:
            return ir.Local(pos, self.local_type(name), self.slots[name], name)
        if name in self.vars:
            decl = self.vars[name]
            return ir.Var(pos, self.var_types.get(name, "any"), decl, None)
        if name in self.params:
            return ir.Param(pos, self.param_types[name], name)
        if name in self.zones:
            decl = self.zones[name]
            if decl.per is not None:
                self.family_without_index(decl, pos)
                raise _Unresolved
            return ir.ZoneRef(pos, "zone", decl, None, None)
        if name in BUILTIN_NAMES:
            return ir.Builtin(pos, BUILTIN_NAMES[name], name)
        if name in self.functions and not self.functions[name].params:
            return ir.UserCall(pos, "any", self.functions[name], ())
        if name in self.attrs:
            values = list(self.params) + list(self.zones) + list(self.vars) + list(scope.fn_params)
            close = self.suggest(name, [k for k in values if k != name])
            self.error(pos, f"'{name}' is a card attribute, usable only inside a where condition or after a '.'",
                       "name", f"{close} (a card's {name} is read as e.g. first(cards).{name})" if close
                       else f"e.g. first(cards).{name}")
            raise _Unresolved
        late = self.late_local(name, path)
        if late is not None:
            return ir.Local(pos, self.local_type(name), late, name)
        if name in KEYWORDS:
            self.error(pos, f"'{name}' is a keyword and cannot stand here", "syntax",
                       "a value was expected: a name, a number, a quoted text, a list [...] or (...)")
            raise _Unresolved
        known = list(self.params) + list(self.zones) + list(self.vars) + list(self.slots) + list(BUILTIN_NAMES)
        known += list(self.functions) + list(scope.fn_params) + (list(self.attrs) if scope.card else [])
        known += ["true", "false"]
        if name in self.text_values():      # suit == red, for the text 'red' of a param's list
            hint = f"to mean the text '{name}', quote it: '{name}'"
        else:
            hint = self.suggest(name, [k for k in known if "." not in k and "!" not in k]) or \
                _unknown_name_hint(name, path)
        self.error(pos, f"unknown name '{name}'", "name", hint)
        raise _Unresolved

    def text_values(self) -> set:
        """Every text written in a list of the params, the cards' for lists and the zones' per lists."""
        if not hasattr(self, "_texts"):
            lists = [self.get(("params",), {})]
            lists += [kind.get("for") for kind in (self.get(("cards",), {}) or {}).values() if isinstance(kind, dict)]
            lists += [zone.get("per") for zone in (self.get(("zones",), {}) or {}).values() if isinstance(zone, dict)]
            self._texts = set()
            todo = [v for v in lists if isinstance(v, (dict, list))]
            while todo:
                value = todo.pop()
                for item in (value.values() if isinstance(value, dict) else value):
                    if isinstance(item, (dict, list)):
                        todo.append(item)
                    elif isinstance(item, str) and isinstance(value, list):
                        self._texts.add(item)
        return self._texts

    def family_without_index(self, decl: ir.ZoneDecl, pos: Pos) -> None:
        """A zone family named without saying which of its zones."""
        values = self.constant_values(self.get(("zones", decl.name, "per")))
        example = repr(values[0]) if values else "..."
        owner = "(p)" if decl.per_player else ""
        self.error(pos, f"'{decl.name}' is a family of zones, one per value of its 'per' list; say which one",
                   "zone", f"e.g. {decl.name}{owner}[{example}], or {decl.name}{owner}[m] inside a for loop over them")

    def late_local(self, name: str, path) -> int | None:
        """A local bound later in the file (e.g. by a choose in a later step) is still a local."""
        if name in self._all_binders():
            return self.slot(name)
        return None

    def _all_binders(self) -> set:
        if not hasattr(self, "_binders"):
            self._binders = set()
            self._collect_binders(self.data)
        return self._binders

    def _collect_binders(self, data) -> None:
        if isinstance(data, dict):
            if "choose" in data:
                self._binders.add(str(data["choose"]))
                for opt in (data.get("options") or {}):
                    self._binders.add(str(opt))
            if isinstance(data.get("for"), str):
                self._binders.add(data["for"].split(" in ")[0].strip())
            if isinstance(data.get("around"), str):
                self._binders.add(data["around"].strip())
            for value in data.values():
                self._collect_binders(value)
        elif isinstance(data, list):
            for value in data:
                self._collect_binders(value)
        elif isinstance(data, str) and data.lstrip().startswith("let "):
            self._binders.add(data.split("=")[0][4:].strip())

    def r_Attr(self, node, pos, path, scope):
        obj = self.resolve(node.obj, path, scope)
        name_pos = self.find(path, node, r"\.\s*(" + re.escape(node.name) + r")\b")
        if node.name not in self.attrs:
            hint = self.suggest(node.name, self.attrs) or f"the card attributes are {_either(sorted(self.attrs))}"
            self.error(name_pos, f"no card has the attribute '{node.name}'", "name", hint)
            raise _Unresolved
        if obj.type in ("cards", "zone"):
            return ir.GetAttr(pos, "list", obj, node.name)
        if obj.type not in ("card", "any"):
            self.error(name_pos, f"'.{node.name}' needs a card or cards, but this is {_A(obj.type)}", "type",
                       "attributes belong to cards, e.g. first(hand).{node.name} or hand.{node.name}")
            raise _Unresolved
        return ir.GetAttr(pos, self.attr_type(node.name), obj, node.name)

    def find(self, path, node, pattern: str) -> Pos:
        """The position of group 1 of pattern in the DSL text at path, searched from node on."""
        text = self.get(path)
        if isinstance(text, str):
            lines = text.split("\n")
            line, col = node.at
            start = sum(len(t) + 1 for t in lines[:line]) + col
            m = re.compile(pattern).search(text, start)
            if m:
                return self.doc.text_pos(path, *_line_col(text, m.start(1)))
        return self.at(path, node)

    def r_Index(self, node, pos, path, scope):
        base = node.obj
        if isinstance(base, S.Name) and base.id in self.zones and self.zones[base.id].per is not None:
            decl = self.zones[base.id]
            return ir.ZoneRef(pos, "zone", decl, self.family_index(decl, node.index, path, scope), None)
        if isinstance(base, S.Call) and base.fn in self.zones and self.zones[base.fn].per is not None \
                and base.fn not in FUNCTIONS:
            ref = self.r_Call(base, pos, path, scope, allow_family=True)
            ref.index = self.family_index(self.zones[base.fn], node.index, path, scope)
            return ref
        obj = self.resolve(base, path, scope)
        idx = self.resolve(node.index, path, scope)
        if obj.type == "any" and isinstance(obj, ir.Lit) and obj.value is None:
            return ir.Lit(pos, "any", None)     # the name was already reported: no second error
        if obj.type in ("zone", "cards"):
            self.error(obj.pos, f"{_A(obj.type)} cannot be indexed with [...]", "type",
                       "take cards with top N of ..., bottom N of ... or first(...)"
                       if obj.type == "cards" or obj.decl.per is None else
                       f"this is already one zone of the family '{obj.decl.name}': a family takes one index")
            return ir.Lit(pos, "any", None)     # reported: no second error about the index or its use
        else:
            self.expect(obj, {"list"}, "what is indexed with [...]")
        self.expect(idx, {"int"}, "a list index")
        items = obj.items if isinstance(obj, ir.ListLit) else obj.value if isinstance(obj, ir.Lit) else None
        if isinstance(items, (list, tuple)) and isinstance(idx, ir.Lit) and isinstance(idx.value, int) \
                and not isinstance(idx.value, bool) and not 0 <= idx.value < len(items):
            self.error(idx.pos, f"index {idx.value} is outside the list, which has {len(items)} items", "type",
                       f"the first item is [0], the last [{len(items) - 1}]" if items else "the list is empty")
        item = self.elem_type(obj) if obj.type == "list" else "any"
        return ir.Func(pos, "value" if item == "any" and obj.type == "list" else item, "at", (obj, idx))

    def family_index(self, decl: ir.ZoneDecl, node, path, scope: Scope) -> ir.Expr:
        """The index of a zone family: one of the values of its 'per' list."""
        idx = self.resolve(node, path, scope)
        if not self.expect(idx, {"int", "str", "value"}, f"the index of zone family '{decl.name}'",
                           f"name one of its values, e.g. {decl.name}[m] inside a for loop over them"):
            return ir.Lit(idx.pos, "any", None)
        values = self.constant_values(self.get(("zones", decl.name, "per")))
        if values is None:
            return idx
        if isinstance(idx, ir.Lit) and idx.type != "any":
            keys = [idx.value]
        elif isinstance(idx, ir.Param):
            value = self.params[idx.name][0]
            keys = list(value.values()) if isinstance(value, dict) else [value]
        else:
            return idx
        for key in keys:
            if isinstance(key, (list, dict)) or key not in values:
                shown = ", ".join(repr(v) for v in values)
                hint = self.suggest(str(key), [str(v) for v in values]) or f"its values are {shown}"
                self.error(idx.pos, f"{key!r} is not one of the values of zone family '{decl.name}'", "zone", hint)
                return ir.Lit(idx.pos, "any", None)
        return idx

    def r_Call(self, node, pos, path, scope, allow_family: bool = False):
        fn = node.fn
        if fn in FUNCTIONS:         # built-ins first: a zone or variable cannot take their names
            return self.builtin_call(fn, node, pos, path, scope)
        if fn in self.zones:
            return self.zone_call(node, pos, path, scope, allow_family)
        if fn in self.vars:
            decl = self.vars[fn]
            if not decl.per_player:
                self.error(pos, f"variable '{fn}' belongs to the table; it takes no player", "type", f"write {fn}")
                raise _Unresolved
            if len(node.args) != 1:
                self.error(pos, f"'{fn}(...)' takes exactly one player, not {len(node.args)} values", "type",
                           f"e.g. {fn}(current)")
                raise _Unresolved
            owner = self.resolve(node.args[0], path, scope)
            self.expect(owner, {"player"}, "a variable's owner")
            return ir.Var(pos, self.var_types.get(fn, "any"), decl, owner)
        if fn in self.functions:
            decl = self.functions[fn]
            if len(node.args) != len(decl.params):
                key = self.fn_keys[fn]
                self.error(pos, f"function '{fn}' takes {len(decl.params)} argument(s), not {len(node.args)}",
                           "type", f"it is declared as {key}")
                raise _Unresolved
            return ir.UserCall(pos, "any", decl, tuple(self.resolve(a, path, scope) for a in node.args))
        known = list(FUNCTIONS) + list(self.functions) + [z for z, d in self.zones.items() if d.per_player]
        hint = self.suggest(fn, known) or (
            f"the built-in functions are {', '.join(sorted(FUNCTIONS))}; declare others under functions")
        self.error(pos, f"unknown function '{fn}'", "name", hint)
        raise _Unresolved

    def zone_call(self, node, pos, path, scope, allow_family):
        decl = self.zones[node.fn]
        if not decl.per_player:
            self.error(pos, f"zone '{decl.name}' belongs to the table; it takes no player", "type",
                       f"write {decl.name}" + ("[...]" if decl.per is not None else "")
                       + " without (...); only zones with owner: each belong to a player")
            raise _Unresolved
        if len(node.args) != 1:
            self.error(pos, f"'{decl.name}(...)' takes exactly one player, not {len(node.args)} values", "type",
                       f"e.g. {decl.name}(current)")
            raise _Unresolved
        if decl.per is not None and not allow_family:
            self.family_without_index(decl, pos)
            raise _Unresolved
        owner = self.resolve(node.args[0], path, scope)
        self.expect(owner, {"player"}, "a zone's owner")
        return ir.ZoneRef(pos, "zone", decl, None, owner)

    def builtin_call(self, fn, node, pos, path, scope):
        args = node.args
        if len(args) == 1 and isinstance(args[0], S.Gen):
            if fn not in AGGREGATES:
                self.error(pos, f"'{fn}' does not take a 'for' generator", "type",
                           "only count, sum, min, max, any and all do")
                raise _Unresolved
            gen = args[0]
            gpath_pos = self.at(path, gen)
            iterable = self.resolve(gen.iterable, path, scope)
            self.expect(iterable, {"list", "cards", "zone"}, "what a generator goes over")
            where = self.find(path, gen, r"\bfor\s+(" + re.escape(gen.var) + r")\b")
            slot = self.bind(gen.var, self.elem_type(iterable), where)
            expr = self.resolve(gen.expr, path, scope)
            if fn in ("sum", "min", "max"):
                self.expect(expr, {"int"}, f"each value {fn} goes over")
                self.numeric_attr(fn, expr)
            elif fn in ("any", "all"):
                self.expect(expr, {"bool"}, f"each value {fn} tests")
            cond = self.resolve(gen.cond, path, scope) if gen.cond is not None else None
            if cond is not None:
                self.expect(cond, {"bool"}, "the condition after 'if'")
            g = ir.Gen(gpath_pos, "list", expr, slot, iterable, cond)
            return ir.Func(pos, _RESULT[fn], fn, (g,))
        rargs = tuple(self.resolve(a, path, scope) for a in args)
        if fn == "numbers":     # numbers(n) = 1..n, numbers(a, b) = a..b, both ends included
            if len(rargs) not in (1, 2):
                self.error(pos, f"numbers takes 1 or 2 arguments, not {len(rargs)}", "type",
                           "numbers(5) is [1, 2, 3, 4, 5]; numbers(0, 4) is [0, 1, 2, 3, 4]")
                raise _Unresolved
            for a in rargs:
                self.expect(a, {"int"}, "each argument of numbers")
            return ir.Func(pos, "list", fn, rargs)
        want = _ARITY.get(fn, 1)
        if fn in ("min", "max") and len(rargs) >= 2:
            for a in rargs:
                self.expect(a, {"int"}, f"each argument of {fn}")
            return ir.Func(pos, "int", fn, rargs)
        if len(rargs) != want:
            self.error(pos, f"{fn} takes {want} argument{'s' if want > 1 else ''}, not {len(rargs)}", "type",
                       "give several values as one list, e.g. [a, b]" if fn in AGGREGATES else "")
            raise _Unresolved
        a = rargs[0]
        if fn in ("count", "size"):
            self.expect(a, {"list", "cards", "zone"}, f"the argument of {fn}")
        elif fn in ("sum", "min", "max") and a.type in ("zone", "cards"):
            example = next((t for t in sorted(self.attrs) if self.attr_type(t) == "int"), "ATTRIBUTE")
            what = args[0].id if isinstance(args[0], S.Name) else "..."
            self.error(a.pos, f"{fn} works on numbers, but this is {_A(a.type)}", "type",
                       f"name a number attribute of its cards, e.g. {fn}({what}.{example})")
        elif fn in AGGREGATES:
            if self.expect(a, {"list"}, f"the argument of {fn}") and fn in ("sum", "min", "max"):
                self.numeric_attr(fn, a)
        elif fn in ("first", "last"):
            self.expect(a, {"list", "cards", "zone"}, f"the argument of {fn}")
            return ir.Func(pos, self.elem_type(a), fn, rargs)
        elif fn in ("next", "prev"):
            self.expect(a, {"player"}, f"the argument of {fn}")
        elif fn == "reversed":
            self.expect(a, {"list", "cards", "zone"}, "the argument of reversed")
            return ir.Func(pos, "list" if a.type == "list" else "cards", fn, rargs)
        elif fn == "abs":
            self.expect(a, {"int"}, "the argument of abs")
        elif fn == "index_of":
            self.expect(a, {"list"}, "the first argument of index_of (the list to look in)")
        return ir.Func(pos, _RESULT[fn], fn, rargs)

    def numeric_attr(self, fn: str, expr) -> None:
        """sum, min and max of a card attribute need an attribute whose values are numbers."""
        if isinstance(expr, (ir.GetAttr, ir.CardAttr)) and self.attr_type(expr.attr) == "str":
            self.error(expr.pos, f"{fn} works on numbers, but the card attribute '{expr.attr}' holds texts", "type",
                       f"count the cards instead, e.g. count(... where {expr.attr} == 'x')")
            return
        if isinstance(expr, (ir.GetAttr, ir.CardAttr)) and self.attr_type(expr.attr) == "value":
            kinds = self.attr_types.get(expr.attr)
            if kinds and "str" in kinds:
                self.error(expr.pos, f"{fn} works on numbers, but some values of the card attribute "
                           f"'{expr.attr}' are texts", "type", f"make every value of '{expr.attr}' a number")

    def r_Gen(self, node, pos, path, scope):
        self.error(pos, "a 'for' generator may only stand inside count, sum, min, max, any or all", "syntax",
                   "e.g. sum(v for v in values if v > 0)")
        raise _Unresolved

    def r_BinOp(self, node, pos, path, scope):
        left, right = self.resolve(node.left, path, scope), self.resolve(node.right, path, scope)
        if node.op == "+" and {left.type, right.type} in ({"list"}, {"list", "any"}):
            return ir.Bin(pos, "list", "+", left, right)      # joins two lists
        for side in (left, right):
            self.expect(side, {"int"}, f"each side of '{node.op}'")
        if node.op in ("/", "%") and isinstance(right, ir.Lit) and right.value == 0 and right.type == "int":
            self.error(right.pos, "division by zero", "type", f"'{node.op}' needs a number other than 0 on its right")
        return ir.Bin(pos, "int", node.op, left, right)

    def r_Compare(self, node, pos, path, scope):
        left, right = self.resolve(node.left, path, scope), self.resolve(node.right, path, scope)
        if node.op not in ("==", "!="):
            for side in (left, right):
                self.expect(side, {"int"}, f"each side of '{node.op}'")
        else:
            kinds = {_KIND_OF.get(left.type), _KIND_OF.get(right.type)}
            if None not in kinds and len(kinds) == 2 and kinds != {"number", "scalar"} and kinds != {"text", "scalar"}:
                self.error(pos, f"'{node.op}' compares {_A(left.type)} with {_A(right.type)}, which are never equal",
                           "type", _type_hint({"int"}, "zone") if kinds == {"cards", "number"}
                           else "compare values of the same kind")
        return ir.Cmp(pos, "bool", node.op, left, right)

    def r_In(self, node, pos, path, scope):
        left, right = self.resolve(node.left, path, scope), self.resolve(node.right, path, scope)
        self.expect(right, {"list", "cards", "zone"}, "the right side of 'in'")
        return ir.InOp(pos, "bool", left, right, node.negate)

    def r_BoolOp(self, node, pos, path, scope):
        left, right = self.resolve(node.left, path, scope), self.resolve(node.right, path, scope)
        for side in (left, right):
            self.expect(side, {"bool"}, f"each side of '{node.op}'")
        return ir.Logic(pos, "bool", node.op, left, right)

    def r_Not(self, node, pos, path, scope):
        operand = self.resolve(node.operand, path, scope)
        self.expect(operand, {"bool"}, "the operand of 'not'")
        return ir.NotOp(pos, "bool", operand)

    def r_Neg(self, node, pos, path, scope):
        operand = self.resolve(node.operand, path, scope)
        self.expect(operand, {"int"}, "the operand of '-'")
        return ir.NegOp(pos, "int", operand)

    def r_IfExpr(self, node, pos, path, scope):
        cond = self.resolve(node.cond, path, scope)
        self.expect(cond, {"bool"}, "the condition of if")
        then, orelse = self.resolve(node.then, path, scope), self.resolve(node.orelse, path, scope)
        kinds = {_KIND_OF.get(then.type), _KIND_OF.get(orelse.type)}
        if None not in kinds and len(kinds) == 2 and kinds != {"number", "scalar"} and kinds != {"text", "scalar"}:
            self.error(orelse.pos, f"the two branches of this if give different kinds of values: "
                       f"{_A(then.type)} after then, {_A(orelse.type)} after else", "type",
                       "both branches must give the same kind of value")
        typ = then.type if then.type == orelse.type else "any"
        return ir.Cond(pos, typ, cond, then, orelse)

    def r_Where(self, node, pos, path, scope):
        cards = self.resolve(node.cards, path, scope)
        self.expect(cards, {"cards", "zone"}, "the left side of 'where'")
        cond = self.resolve(node.cond, path, scope.with_card())
        self.expect(cond, {"bool"}, "a where condition")
        return ir.Filter(pos, "cards", cards, cond)

    def r_Top(self, node, pos, path, scope):
        count = self.resolve(node.count, path, scope) if node.count is not None else None
        if count is not None:
            self.expect(count, {"int"}, "how many cards")
        cards = self.resolve(node.cards, path, scope)
        self.expect(cards, {"cards", "zone"}, "what 'top ... of' takes from")
        return ir.TopN(pos, "cards", count, cards, node.bottom)


_ARITY = {"count": 1, "size": 1, "sum": 1, "min": 1, "max": 1, "any": 1, "all": 1, "first": 1, "last": 1,
          "reversed": 1, "next": 1, "prev": 1, "abs": 1, "index_of": 2}
_RESULT = {"count": "int", "size": "int", "sum": "int", "min": "int", "max": "int", "any": "bool", "all": "bool",
           "first": "any", "last": "any", "reversed": "list", "next": "player", "prev": "player", "abs": "int",
           "index_of": "int"}


def _line_col(text: str, offset: int) -> tuple:
    """0-based (line, col) of a character offset in text."""
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)


def _relative(pos: Pos, beside: str) -> str:
    """pos with its file named relative to the directory of the file `beside`."""
    return f"{os.path.relpath(pos.file, os.path.dirname(os.path.abspath(beside)))}:{pos.line}:{pos.col}"


def _covers(key, n: int) -> bool:
    """Whether the by_players key (3 or 3-4) includes player count n."""
    m = RANGE_KEY.match(str(key))
    return bool(m) and int(m.group(1)) <= n <= int(m.group(2) or m.group(1))


# What == can compare: values of different kinds here are never equal.
_KIND_OF = {"int": "number", "player": "number", "str": "text", "value": "scalar", "bool": "bool", "list": "list",
            "cards": "cards", "zone": "cards", "card": "card"}


def _fraction(value, path=()):
    """(path, value) of the first float inside a parameter's value, else None."""
    if isinstance(value, float):
        return path, value
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _fraction(item, path + (key,))
        if found is not None:
            return found
    return None


def _value_type(value) -> str:
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


def _show(value) -> str:
    """A YAML value in words, for a message."""
    if value is None:
        return "empty (null)"
    return "a list" if isinstance(value, list) else "a mapping" if isinstance(value, dict) else repr(value)


def _A(t: str) -> str:
    """Type name with its article, for messages."""
    words = {"int": "a number", "bool": "a condition (true or false)", "str": "a text", "list": "a list",
             "card": "a card", "cards": "a set of cards", "zone": "a zone", "player": "a player",
             "value": "a value", "any": "a value", "null": "an empty value (null)"}
    return words.get(t, t)


_TYPE_ORDER = ["zone", "cards", "list", "card", "int", "str", "bool", "player", "value"]


def _wanted(types: set) -> str:
    """What a place needs, in words: 'a number', 'true or false', 'a zone, a set of cards or a list'."""
    ordered = sorted((t for t in types if t != "any"), key=lambda t: _TYPE_ORDER.index(t) if t in _TYPE_ORDER else 99)
    return _either(["true or false" if t == "bool" else _A(t) for t in ordered])


def _type_hint(want: set, got: str) -> str:
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


def _and(words: list) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _either(words: list) -> str:
    """'a', 'a or b', 'a, b or c'."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _exprs(expr):
    """expr and every expression inside it (not into the bodies of the functions it calls)."""
    if not isinstance(expr, ir.Expr):
        return
    yield expr
    for f in dataclasses.fields(expr):
        value = getattr(expr, f.name)
        if isinstance(value, ir.Expr):
            yield from _exprs(value)
        elif isinstance(value, (list, tuple)):
            for item in value:
                yield from _exprs(item)


def _cycles(calls: dict):
    """Each cycle of a call graph {name: [(callee, pos)]} once: (names from first to first again, pos of its
    first call)."""
    reported: set = set()
    for start in calls:
        path: list = []

        def visit(name, pos):
            if name in [n for n, _ in path]:
                i = [n for n, _ in path].index(name)
                cycle = path[i:]
                key = frozenset(n for n, _ in cycle)
                if key not in reported and cycle[0][0] == start:
                    reported.add(key)
                    names = [n for n, _ in cycle] + [name]
                    return names, (cycle[1][1] if len(cycle) > 1 else pos)
                return None
            path.append((name, pos))
            try:
                for callee, cpos in calls.get(name, ()):
                    if callee in calls:
                        found = visit(callee, cpos)
                        if found:
                            return found
            finally:
                path.pop()
            return None

        found = visit(start, None)
        if found:
            yield found


def _walk(stmts):
    """Every statement in a block, nested ones included."""
    for s in stmts:
        yield s
        for attr in ("then", "orelse", "body"):
            yield from _walk(getattr(s, attr, []) or [])
        for opt in getattr(s, "options", []) or []:
            yield from _walk(opt.body)


def check(doc: Document, overrides: dict | None = None) -> ir.Ruleset:
    """Resolve and check a loaded, schema-valid document; raise RulesetError with every error."""
    types: dict = {}
    for _ in range(3):      # first passes learn what each local name is bound to (a let may copy another)
        trial = Checker(doc, overrides, types)
        try:
            trial.check()
        except (RulesetError, _Unresolved):
            pass
        learnt = {name: next(iter(kinds)) if len(kinds) == 1 else "any" for name, kinds in trial.bound.items()}
        if learnt == types:
            break
        types = learnt
    checker = Checker(doc, overrides, types)
    try:
        return checker.check()
    except RulesetError:
        raise
    except _Unresolved:
        checker.err.raise_if_any()
        raise


def _unknown_name_hint(name: str, path) -> str:
    """What to do about an unknown name that resembles no known one, for the place it stands."""
    path = tuple(path)
    if path[:1] == ("cards",) and "count" in path:
        return f"a card count is a number, or an expression of params and the kind's for variables: " \
               f"declare '{name}' under params, or write a number"
    if path[:1] == ("cards",) or path[:1] == ("vars",):
        return f"declare '{name}' under params; for a text, quote it inside the string: \"'{name}'\""
    return "declare it under params, zones or vars, or bind it first with let, for or choose"
