"""Resolve every name of a schema-valid ruleset and check types: document -> ir.Ruleset.

Reports every error of the file in one run, each at its file:line:col.
"""
from __future__ import annotations

import difflib
import re

from . import ir
from . import syntax as S
from .errors import Collector, Pos, RulesetError
from .loader import Document
from .parser import DSLSyntaxError, parse

BUILTIN_NAMES = {"current": "player", "me": "player", "players": "int", "seats": "list", "turn": "int"}
AGGREGATES = {"count", "sum", "min", "max", "any", "all"}
FUNCTIONS = AGGREGATES | {"first", "last", "reversed", "next", "prev", "abs", "size"}
KEYWORDS = {"move", "to", "shuffle", "deal", "from", "starting", "let", "set", "extra", "turn", "call",
            "end", "game", "where", "top", "bottom", "of", "if", "then", "else", "and", "or", "not", "in",
            "for", "true", "false"}
CARDISH = {"cards", "zone", "any"}
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

    def __init__(self, doc: Document, overrides: dict | None = None):
        self.doc = doc
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

    # ---- helpers ----
    def pos(self, path) -> Pos:
        return self.doc.pos(path)

    def error(self, path_or_pos, message: str, code: str = "error", hint: str = "") -> None:
        pos = path_or_pos if isinstance(path_or_pos, Pos) else self.pos(path_or_pos)
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

    def suggest(self, name: str, candidates) -> str:
        close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
        return f"did you mean '{close[0]}'?" if close else ""

    # ---- entry ----
    def check(self) -> ir.Ruleset:
        players = self.get(("players",), {})
        lo, hi = players.get("min", 1), players.get("max", 1)
        if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
            self.error(("players",), f"players: min {lo} is more than max {hi}", "players")
        self.lo, self.hi = lo, hi
        self.declare_params()
        self.declare_zones()
        self.declare_vars()
        self.declare_functions()
        self.declare_procedures()
        cards = self.declare_cards()
        for decl in self.zones.values():
            self.finish_zone(decl)
        for decl in self.vars.values():
            decl.initial = self.value(("vars", decl.name, "initial"), Scope(), default=0)
        for name, fn in self.functions.items():
            fn.body = self.value(("functions", self.fn_keys[name]), Scope(fn_params=self.fn_scopes[name]))
        procedures = {name: self.block(path, Scope()) for name, path in self.proc_paths.items()}
        setup = self.block(("setup",), Scope())
        first = self.value(("turn", "first"), Scope(), default=0)
        nxt = self.value(("turn", "next"), Scope(), default=None)
        steps = self.block(("turn", "steps"), Scope(), top=True)
        end_when = self.value(("end", "when"), Scope(), default=False)
        finish = self.check_finish()
        score = self.value(("score",), Scope(), default=0)
        tiebreak = self.check_tiebreak()
        bot_eval = self.value(("bots", "eval"), Scope(), default=None)
        self.check_recursion(procedures)
        self.err.raise_if_any()
        return ir.Ruleset(
            name=str(self.get(("name",), "")), file=self.doc.file, min_players=lo, max_players=hi,
            params=self.params, cards=cards, zones=list(self.zones.values()), zone_by_name=self.zones,
            vars=list(self.vars.values()), functions=self.functions, procedures=procedures, setup=setup,
            first=first, next=nxt, steps=steps, end_when=end_when, finish=finish, score=score,
            tiebreak=tiebreak, bot_eval=bot_eval, slots=list(self.slots), sources=self.doc.sources,
            overrides=self.overrides)

    # ---- parameters ----
    def declare_params(self) -> None:
        for name, raw in (self.get(("params",), {}) or {}).items():
            path = ("params", name)
            if name in KEYWORDS or name in BUILTIN_NAMES:
                self.error(self.doc.key_pos(path), f"'{name}' is a reserved word and cannot name a parameter", "name")
            if isinstance(raw, dict) and "by_players" in raw:
                table = self.player_table(path + ("by_players",), raw["by_players"])
                self.params[name] = (table, self.pos(path))
                types = {_value_type(v) for v in table.values()}
                self.param_types[name] = types.pop() if len(types) == 1 else "any"
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
                           "player-table")
                continue
            a, b = int(m.group(1)), int(m.group(2) or m.group(1))
            for n in range(a, b + 1):
                if n in table:
                    self.error(self.doc.key_pos(path + (key,)), f"player count {n} appears twice in this table",
                               "player-table")
                table[n] = value
        if isinstance(self.lo, int) and isinstance(self.hi, int):
            missing = [n for n in range(self.lo, self.hi + 1) if n not in table]
            if missing:
                self.error(path, f"this table has no row for {', '.join(map(str, missing))} players",
                           "player-table", f"add a row for every player count from {self.lo} to {self.hi}")
        return table

    def apply_overrides(self) -> None:
        """--set NAME=VALUE or NAME.PLAYERS=VALUE replaces a parameter for one run."""
        for key, value in self.overrides.items():
            name, _, row = key.partition(".")
            if name not in self.params:
                hint = self.suggest(name, self.params) or "see the params of the ruleset"
                self.error(Pos("--set", 1, 1), f"--set {key}: the ruleset has no parameter '{name}'", "bad-set", hint)
                continue
            old, pos = self.params[name]
            if row:
                if not isinstance(old, dict) or not row.isdigit() or int(row) not in old:
                    self.error(Pos("--set", 1, 1), f"--set {key}: '{name}' has no row for {row} players", "bad-set")
                    continue
                old = dict(old)
                old[int(row)] = value
                self.params[name] = (old, pos)
            else:
                self.params[name] = (value, pos)
            if _value_type(value) != self.param_types[name] and self.param_types[name] != "any":
                want = self.param_types[name]
                self.error(Pos("--set", 1, 1), f"--set {key}: '{name}' must be {_A(want)}, not {value!r}", "bad-set")

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
            self.zones[name] = ir.ZoneDecl(name, i, per_player, spec.get("per"), visible, [], self.pos(path))

    def finish_zone(self, decl: ir.ZoneDecl) -> None:
        path = ("zones", decl.name)
        if decl.per is not None:
            decl.per = self.value(path + ("per",), Scope())
            self.expect(decl.per, {"list"}, "the index list of a zone family")
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
                           exc.hint)
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
            self.error(self.doc.key_pos(path), f"'{name}' is a reserved word and cannot name a {what}", "name")

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
        for name, spec in specs.items():
            kinds.append(self.card_kind(name, spec or {}))
        return kinds

    def card_kind(self, name: str, spec: dict) -> ir.CardKind:
        path = ("cards", name)
        loops = []
        for var in spec.get("for", {}) or {}:
            values = self.value(path + ("for", var), Scope())
            self.expect(values, {"list"}, f"the values of '{var}'")
            loops.append((var, values, self.slot(f"{name}.{var}")))
        scope = Scope(fn_params={var: slot for var, _, slot in loops})
        template = spec.get("name", name)
        for field in re.findall(r"\{([^}]*)\}", template):
            if field not in dict((v, 1) for v, _, _ in loops):
                self.error(path + ("name",), f"the name template uses '{{{field}}}', which is not a 'for' variable",
                           "template", self.suggest(field, [v for v, _, _ in loops]))
        count = self.value(path + ("count",), scope, default=1)
        self.expect(count, {"int"}, "a card count")
        attrs = [(a, self.value(path + ("attrs", a), scope)) for a in spec.get("attrs", {}) or {}]
        start = self.zones.get(spec.get("start"))
        if start is None:
            start_name = spec.get("start")
            self.error(path + ("start",), f"unknown zone '{start_name}' for the cards to start in", "name",
                       self.suggest(str(start_name), self.zones))
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
            self.error(path, "expected a list of steps", "schema")
            return []
        out = []
        for i, item in enumerate(items):
            try:
                stmt = self.statement(path + (i,), item, scope, top)
            except _Unresolved:
                continue
            if stmt is not None:
                out.append(stmt)
        return out

    def statement(self, path, item, scope: Scope, top: bool):
        pos = self.pos(path)
        if isinstance(item, str):
            node = self.parse(path, item, "stmt")
            return self.simple(node, path, scope)
        if not isinstance(item, dict):
            self.error(path, "a step is a statement string or a mapping such as if/for/while/choose/step", "schema")
            return None
        if "step" in item:
            name = str(item["step"])
            if not top:
                self.error(path + ("step",), f"step '{name}' must be at the top level of turn.steps", "step")
            if name in self.step_names:
                self.error(path + ("step",), f"two steps are named '{name}'", "step")
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
            return ir.ForS(pos, self.slot(head.var), iterable, self.block(path + ("do",), scope))
        if "while" in item:
            cond = self.value(path + ("while",), scope)
            self.expect(cond, {"bool"}, "a while condition")
            return ir.WhileS(pos, cond, self.block(path + ("do",), scope))
        if "choose" in item:
            if scope.in_trigger:
                self.error(path, "a trigger runs in the middle of a move, so it cannot ask for a decision", "trigger")
            return self.choose(path, item, scope)
        self.error(path, f"unknown kind of step with keys {', '.join(map(str, item))}", "schema",
                   "a step is a statement string or one of if, for, while, choose, step")
        return None

    def simple(self, node, path, scope: Scope):
        """A one-line statement."""
        pos = self.at(path, node)
        if isinstance(node, S.Move):
            cards = self.resolve(node.cards, path, scope)
            self.expect(cards, CARDISH, "what to move")
            return ir.MoveS(pos, cards, self.zone_instance(node.dest, path, scope))
        if isinstance(node, S.Shuffle):
            return ir.ShuffleS(pos, self.zone_instance(node.zone, path, scope))
        if isinstance(node, S.Deal):
            dest = self.zones.get(node.dest)
            if dest is None or not dest.per_player or dest.per is not None:
                self.error(pos, f"deal needs a zone that each player has, like hand; '{node.dest}' is not one",
                           "deal", self.suggest(node.dest, [z for z, d in self.zones.items() if d.per_player]))
            starting = self.resolve(node.starting, path, scope) if node.starting else None
            count = self.resolve(node.count, path, scope)
            self.expect(count, {"int"}, "how many cards each player is dealt")
            return ir.DealS(pos, count, self.zone_instance(node.source, path, scope), dest, starting)
        if isinstance(node, S.Let):
            return ir.LetS(pos, self.slot(node.name), self.resolve(node.value, path, scope))
        if isinstance(node, S.SetVar):
            decl = self.vars.get(node.name)
            if decl is None:
                self.error(pos, f"'{node.name}' is not a variable declared under vars", "name",
                           self.suggest(node.name, self.vars) or "declare it under vars, or use let for a local name")
                raise _Unresolved
            owner = self.resolve(node.owner, path, scope) if node.owner else None
            if owner is not None and not decl.per_player:
                self.error(pos, f"variable '{decl.name}' belongs to the table; it takes no player", "type")
            return ir.SetS(pos, decl, owner, self.resolve(node.value, path, scope))
        if isinstance(node, S.ExtraTurn):
            return ir.ExtraS(pos)
        if isinstance(node, S.EndGame):
            return ir.EndS(pos)
        if isinstance(node, S.CallProc):
            if node.name not in self.proc_paths:
                self.error(pos, f"unknown procedure '{node.name}'", "name", self.suggest(node.name, self.proc_paths))
            return ir.CallS(pos, node.name)
        self.error(pos, "an expression on its own does nothing here", "statement",
                   "a step starts with move, shuffle, deal, let, set, extra turn, call or end game")
        return None

    def choose(self, path, item: dict, scope: Scope) -> ir.ChooseS:
        pos = self.pos(path)
        name = str(item["choose"])
        by = self.value(path + ("by",), scope, default=None)
        if by is not None:
            self.expect(by, {"player", "int"}, "who decides")
        stmt = ir.ChooseS(pos, name, self.slot(name), by)
        forms = [k for k in ("cards", "from", "options") if k in item]
        if len(forms) != 1:
            self.error(path, f"choose '{name}' needs exactly one of cards, from or options", "choose")
            return stmt
        if "cards" in item:
            stmt.cards = self.card_choice(path, item, scope)
        elif "from" in item:
            stmt.values = self.value(path + ("from",), scope)
            self.expect(stmt.values, {"list"}, "the values to choose from")
            if "where" in item:
                stmt.where = self.value(path + ("where",), scope)
        else:
            for opt, spec in (item.get("options") or {}).items():
                opath = path + ("options", opt)
                spec = spec or {}
                cards = self.card_choice(opath, spec, scope) if "cards" in spec else None
                slot = self.slot(str(opt)) if cards else None
                stmt.options.append(ir.Option(str(opt), slot, cards, self.block(opath + ("do",), scope)))
            if not stmt.options:
                self.error(path + ("options",), "a choice needs at least one option", "choose")
        return stmt

    def card_choice(self, path, spec: dict, scope: Scope) -> ir.CardChoice:
        cards = self.value(path + ("cards",), scope)
        self.expect(cards, CARDISH, "the cards to choose from")
        where = self.value(path + ("where",), scope.with_card(), default=None)
        if "count" in spec:
            lo = hi = self.value(path + ("count",), scope)
        else:
            lo = self.value(path + ("min",), scope, default=1)
            hi = self.value(path + ("max",), scope, default=None)
        for bound in (lo, hi):
            if bound is not None:
                self.expect(bound, {"int"}, "a number of cards")
        same = spec.get("same")
        if same is not None and same not in self.attrs:
            self.error(path + ("same",), f"'{same}' is not a card attribute", "name", self.suggest(same, self.attrs))
        return ir.CardChoice(cards, where, lo, hi, same)

    def check_finish(self) -> set:
        names = self.get(("end", "finish"), []) or []
        for i, name in enumerate(names):
            if name not in self.step_names:
                self.error(("end", "finish", i), f"no step of the turn is named '{name}'", "name",
                           self.suggest(str(name), self.step_names))
        return set(names)

    def check_tiebreak(self) -> list:
        out = []
        for i, rule in enumerate(self.get(("tiebreak",), []) or []):
            key = "most" if "most" in rule else "fewest"
            out.append((1 if key == "most" else -1, self.value(("tiebreak", i, key), Scope())))
        return out

    def check_recursion(self, procedures: dict) -> None:
        """Procedures may call each other but not themselves, directly or not."""
        calls = {name: {s.name for s in _walk(body) if isinstance(s, ir.CallS)} for name, body in procedures.items()}
        for start in calls:
            seen, todo = set(), list(calls[start])
            while todo:
                name = todo.pop()
                if name == start:
                    self.error(self.proc_paths[start], f"procedure '{start}' calls itself", "recursion",
                               "use a while loop instead")
                    break
                if name not in seen:
                    seen.add(name)
                    todo.extend(calls.get(name, ()))

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
        if raw is ... or raw is None:
            if default is ...:
                self.error(path, f"missing value for '{path[-1]}'", "schema")
                return ir.Lit(self.pos(path), "any", None)
            return default if default is None else ir.Lit(self.pos(path), _value_type(default), default)
        if isinstance(raw, str):
            try:
                node = self.parse(path, raw, "expr")
                return self.resolve(node, path, scope)
            except _Unresolved:
                return ir.Lit(self.pos(path), "any", None)
        return ir.Lit(self.pos(path), _value_type(raw), raw)

    def expect(self, expr, types: set, what: str) -> None:
        if expr is None or expr.type == "any" or expr.type in types:
            return
        if "int" in types and expr.type == "player" or "player" in types and expr.type == "int":
            return
        if "list" in types and expr.type in ("cards", "zone"):
            pass
        want = " or ".join(sorted(_A(t) for t in types))
        self.error(expr.pos, f"{what} must be {want}, but this is {_A(expr.type)}", "type")

    def zone_instance(self, node, path, scope: Scope) -> ir.Expr:
        """A single zone: families need an index, per-player zones default to `me`."""
        z = self.resolve(node, path, scope)
        if z.type == "any":
            return z
        if not isinstance(z, ir.ZoneRef):
            self.error(z.pos, f"expected a zone here, but this is {_A(z.type)}", "type",
                       "name a zone, e.g. hand, draw or side[m]")
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
            return ir.Local(pos, "any", scope.fn_params[name], name)
        if scope.card and name in self.attrs:
            return ir.CardAttr(pos, "value", name)
        if name in self.slots and "." not in name:
            return ir.Local(pos, "any", self.slots[name], name)
        if name in self.vars:
            decl = self.vars[name]
            return ir.Var(pos, "any", decl, None)
        if name in self.params:
            return ir.Param(pos, self.param_types[name], name)
        if name in self.zones:
            decl = self.zones[name]
            if decl.per is not None:
                self.error(pos, f"'{name}' is one zone per value of its family; say which, e.g. {name}[...]",
                           "zone")
                raise _Unresolved
            return ir.ZoneRef(pos, "zone", decl, None, None)
        if name in BUILTIN_NAMES:
            return ir.Builtin(pos, BUILTIN_NAMES[name], name)
        if name in self.functions and not self.functions[name].params:
            return ir.UserCall(pos, "any", self.functions[name], ())
        if name in self.attrs:
            self.error(pos, f"'{name}' is a card attribute, usable only inside a where condition or after a '.'",
                       "name", f"e.g. first(cards).{name}")
            raise _Unresolved
        late = self.late_local(name, path)
        if late is not None:
            return ir.Local(pos, "any", late, name)
        known = list(self.params) + list(self.zones) + list(self.vars) + list(self.slots) + list(BUILTIN_NAMES)
        known += list(self.attrs) if scope.card else []
        self.error(pos, f"unknown name '{name}'", "name", self.suggest(name, [k for k in known if "." not in k]))
        raise _Unresolved

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
            for value in data.values():
                self._collect_binders(value)
        elif isinstance(data, list):
            for value in data:
                self._collect_binders(value)
        elif isinstance(data, str) and data.lstrip().startswith("let "):
            self._binders.add(data.split("=")[0][4:].strip())

    def r_Attr(self, node, pos, path, scope):
        obj = self.resolve(node.obj, path, scope)
        if node.name not in self.attrs:
            self.error(pos, f"no card has the attribute '{node.name}'", "name", self.suggest(node.name, self.attrs))
            raise _Unresolved
        if obj.type in ("cards", "zone"):
            return ir.GetAttr(pos, "list", obj, node.name)
        if obj.type not in ("card", "any"):
            self.error(pos, f"'.{node.name}' needs a card or cards, but this is {_A(obj.type)}", "type")
            raise _Unresolved
        return ir.GetAttr(pos, "value", obj, node.name)

    def r_Index(self, node, pos, path, scope):
        base = node.obj
        if isinstance(base, S.Name) and base.id in self.zones and self.zones[base.id].per is not None:
            decl = self.zones[base.id]
            return ir.ZoneRef(pos, "zone", decl, self.resolve(node.index, path, scope), None)
        if isinstance(base, S.Call) and base.fn in self.zones and self.zones[base.fn].per is not None:
            ref = self.r_Call(base, pos, path, scope, allow_family=True)
            ref.index = self.resolve(node.index, path, scope)
            return ref
        obj = self.resolve(base, path, scope)
        idx = self.resolve(node.index, path, scope)
        self.expect(obj, {"list"}, "what is indexed with [...]")
        self.expect(idx, {"int"}, "a list index")
        return ir.Func(pos, "value", "at", (obj, idx))

    def r_Call(self, node, pos, path, scope, allow_family: bool = False):
        fn = node.fn
        if fn in self.zones:
            return self.zone_call(node, pos, path, scope, allow_family)
        if fn in self.vars:
            decl = self.vars[fn]
            if not decl.per_player or len(node.args) != 1:
                self.error(pos, f"'{fn}(...)' takes one player, for a variable that each player has", "type")
                raise _Unresolved
            return ir.Var(pos, "any", decl, self.resolve(node.args[0], path, scope))
        if fn in self.functions:
            decl = self.functions[fn]
            if len(node.args) != len(decl.params):
                self.error(pos, f"{fn} takes {len(decl.params)} argument(s), not {len(node.args)}", "type")
                raise _Unresolved
            return ir.UserCall(pos, "any", decl, tuple(self.resolve(a, path, scope) for a in node.args))
        if fn not in FUNCTIONS:
            known = list(FUNCTIONS) + list(self.functions) + list(self.zones)
            self.error(pos, f"unknown function '{fn}'", "name", self.suggest(fn, known))
            raise _Unresolved
        return self.builtin_call(fn, node, pos, path, scope)

    def zone_call(self, node, pos, path, scope, allow_family):
        decl = self.zones[node.fn]
        if not decl.per_player:
            self.error(pos, f"zone '{decl.name}' belongs to the table; it takes no player", "type",
                       f"write {decl.name}" + ("[...]" if decl.per is not None else ""))
            raise _Unresolved
        if len(node.args) != 1:
            self.error(pos, f"'{decl.name}(...)' takes exactly one player", "type")
            raise _Unresolved
        if decl.per is not None and not allow_family:
            self.error(pos, f"'{decl.name}' is one zone per value of its family; say which, e.g. "
                       f"{decl.name}(p)[...]", "zone")
            raise _Unresolved
        owner = self.resolve(node.args[0], path, scope)
        self.expect(owner, {"player"}, "a zone's owner")
        return ir.ZoneRef(pos, "zone", decl, None, owner)

    def builtin_call(self, fn, node, pos, path, scope):
        args = node.args
        if len(args) == 1 and isinstance(args[0], S.Gen):
            if fn not in AGGREGATES:
                self.error(pos, f"'{fn}' does not take a 'for' generator", "type")
                raise _Unresolved
            gen = args[0]
            gpath_pos = self.at(path, gen)
            iterable = self.resolve(gen.iterable, path, scope)
            self.expect(iterable, {"list", "cards", "zone"}, "what a generator goes over")
            slot = self.slot(gen.var)
            expr = self.resolve(gen.expr, path, scope)
            cond = self.resolve(gen.cond, path, scope) if gen.cond is not None else None
            g = ir.Gen(gpath_pos, "list", expr, slot, iterable, cond)
            return ir.Func(pos, _RESULT[fn], fn, (g,))
        rargs = tuple(self.resolve(a, path, scope) for a in args)
        want = _ARITY.get(fn, 1)
        if fn in ("min", "max") and len(rargs) >= 2:
            return ir.Func(pos, "int", fn, rargs)
        if len(rargs) != want:
            self.error(pos, f"{fn} takes {want} argument(s), not {len(rargs)}", "type")
            raise _Unresolved
        a = rargs[0]
        if fn in ("count", "size"):
            self.expect(a, {"list", "cards", "zone"}, f"the argument of {fn}")
        elif fn in AGGREGATES:
            self.expect(a, {"list"}, f"the argument of {fn}")
        elif fn in ("first", "last"):
            self.expect(a, {"list", "cards", "zone"}, f"the argument of {fn}")
            return ir.Func(pos, "card" if a.type in ("cards", "zone") else "any", fn, rargs)
        elif fn in ("next", "prev"):
            self.expect(a, {"player"}, f"the argument of {fn}")
        elif fn == "reversed":
            self.expect(a, {"list", "cards", "zone"}, "the argument of reversed")
            return ir.Func(pos, "list" if a.type == "list" else "cards", fn, rargs)
        elif fn == "abs":
            self.expect(a, {"int"}, "the argument of abs")
        return ir.Func(pos, _RESULT[fn], fn, rargs)

    def r_Gen(self, node, pos, path, scope):
        self.error(pos, "a 'for' generator may only stand inside count, sum, min, max, any or all", "syntax")
        raise _Unresolved

    def r_BinOp(self, node, pos, path, scope):
        left, right = self.resolve(node.left, path, scope), self.resolve(node.right, path, scope)
        for side in (left, right):
            self.expect(side, {"int"}, f"each side of '{node.op}'")
        return ir.Bin(pos, "int", node.op, left, right)

    def r_Compare(self, node, pos, path, scope):
        left, right = self.resolve(node.left, path, scope), self.resolve(node.right, path, scope)
        if node.op not in ("==", "!="):
            for side in (left, right):
                self.expect(side, {"int"}, f"each side of '{node.op}'")
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
          "reversed": 1, "next": 1, "prev": 1, "abs": 1}
_RESULT = {"count": "int", "size": "int", "sum": "int", "min": "int", "max": "int", "any": "bool", "all": "bool",
           "first": "any", "last": "any", "reversed": "list", "next": "player", "prev": "player", "abs": "int"}


def _value_type(value) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list):
        return "list"
    return "any"


def _A(t: str) -> str:
    """Type name with its article, for messages."""
    words = {"int": "a number", "bool": "a condition (true/false)", "str": "a text", "list": "a list",
             "card": "a card", "cards": "a set of cards", "zone": "a zone", "player": "a player",
             "value": "a value", "any": "a value"}
    return words.get(t, t)


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
    checker = Checker(doc, overrides)
    try:
        return checker.check()
    except RulesetError:
        raise
    except _Unresolved:
        checker.err.raise_if_any()
        raise
