"""Expressions as Python source: each expression of the checked program becomes one inline
Python expression over the state (`st`, `Z` its zones, `V` its variables; `c` the card a `where`
tests).

Generated text is built only from the checked program: names are ours, values enter as constants
(repr of numbers and strings, or references to prebuilt tables in the namespace) — ruleset text is
never executed. The namespace reaches the run-time helpers (`E` the engine, `_h` the helpers) and a
few harmless built-ins only.
"""
from __future__ import annotations

import builtins
import itertools
import re

from ..errors import RuleRuntimeError
from ..frontend import ir
from ..runtime import engine as E
from ..runtime.decisions import show
from ..runtime.helpers import Helpers, SeatTable, not_a_seat
from . import once, percard
from .fold import NO, Folder, Scratch, subexpressions, subst

MAX_TABLE_TYPES = 10_000     # more card types than this: a part is worked out per card (compiling stays quick)
# The only built-in names generated code can reach (no __import__, open, eval, getattr, ...).
_BUILTINS = {name: getattr(builtins, name) for name in (
    "abs", "all", "any", "bool", "len", "list", "map", "max", "min", "range", "reversed", "set", "sum", "tuple")}


class CodeGen:
    """Python source for the expressions of a ruleset at one layout, and the namespace it runs in."""

    def __init__(self, rules: ir.Ruleset, layout, limits):
        self.rules, self.layout, self.limits = rules, layout, limits
        self.ns: dict = {"E": E, "RuleRuntimeError": RuleRuntimeError, "_h": Helpers, "__builtins__": _BUILTINS}
        self.const_names: dict = {}
        self.tmp = 0
        self.inline_depth = 0
        self.line_pos: dict = {}        # generated file name -> {line: position of its rule}
        self.fold = Folder(self, len(rules.slots))
        self.tables: dict = {}          # values per card type -> the per-card table (shared)
        self.zone_tables: dict = {}     # zone family name -> the name of its table from index value to zone
        self.passing_sets: dict = {}    # id of a per-card table of truth values -> (it, the ids that pass)
        self.lying: dict = {}           # (those ids' name, zones) -> lying_in's source
        self.limbo = 0      # > 0 while writing code that may run with cards out of every zone (st.loc not yet theirs)

    # ---- constants and names ----
    def k(self, value) -> str:
        """Source text for a constant: a literal for numbers/strings, else a named table."""
        if value is None or isinstance(value, (bool, int, str)):
            return repr(value)
        key = id(value)
        if key not in self.const_names:
            name = f"K{len(self.const_names)}"
            self.const_names[key] = name
            self.ns[name] = value
        return self.const_names[key]

    def fresh(self, stem: str = "t") -> str:
        self.tmp += 1
        return f"_{stem}{self.tmp}"

    def lam(self, e, seated: bool = True):
        """A function f(st, c) for an expression (decisions, scoring, bots); `seated`: st.me is a
        seat whenever it runs (not so for the first player, worked out before anyone is `me`)."""
        return self.function_of(self.card_source(e), e.pos, seated)

    def card_source(self, e) -> str:
        """Source for an expression asked of a state and a card `c` (lam, seats_function)."""
        # called once per card: a part that depends on the card's type only is a table lookup
        return self.x(e, percard.loop_env({}, "c", open_=False)[0])

    def seats_function(self, e, negate: bool = False):
        """f(st, c) -> [e's value for me = 0, for me = 1, …]: every seat's value (an evaluation) in
        one call, each with its seat written in as a constant; None when e hands the state to a call
        (a function of the rules, a helper), which might read `me` itself."""
        pieces = once.TEXT.split(self.card_source(e))       # code and text literals, alternately: a text is never touched
        if any(_STATE_PASSED.search(code) for code in pieces[::2]):
            return None
        values = []
        for seat in range(self.layout.players):
            code = [_ME_ZONE.sub(lambda m: f"Z[{int(m.group(1)) + seat}]", part) for part in pieces[::2]]
            code = [_ME.sub(f"({seat})", part) for part in code]
            one = list(pieces)
            one[::2] = code
            values.append(f"-({''.join(one)})" if negate else "".join(one))
        body, zones = read_zones_once("[" + ", ".join(values) + "]", True)
        return self.define(f"def _f(st, c=None):\n{prologue(body, zones)}    return {body}\n", "_f", {3: e.pos})

    def seat_lam(self, e):
        """A function f(st, c) for a seat (who decides), checked to be one."""
        return self.function_of(self.seat_src(e, {"@card": "c"}), e.pos)

    def function_of(self, src: str, pos, seated: bool = True):
        """The function f(st, c) that returns the expression `src` (the rule at pos)."""
        src, zones = read_zones_once(src, seated)
        return self.define(f"def _f(st, c):\n{prologue(src, zones)}    return {src}\n", "_f", {3: pos})

    def define(self, text: str, name: str, where: dict | None = None):
        """Compile generated text and return the function `name` it defines; `where` maps its line
        numbers to the rules they come from (for errors while it runs)."""
        ns = dict(self.ns)
        exec(self.compile_source(text, where or {}), ns)   # text is generated, never ruleset text
        return ns[name]

    def compile_source(self, text: str, where: dict):
        """Compile generated text under a file name of its own, noting which rule each line runs."""
        filename = f"<{self.rules.file} compiled #{len(self.line_pos)}>"
        self.line_pos[filename] = where
        return self.compile_text(text, filename, where)

    def compile_text(self, text: str, filename: str, where: dict, mode: str = "exec"):
        try:
            return compile(text, filename, mode)
        except (SyntaxError, RecursionError, MemoryError) as exc:   # Python's own limits on nesting
            line = getattr(exc, "lineno", None)
            pos = where.get(line) or next((p for p in where.values() if p is not None), None)
            raise RuleRuntimeError(pos, "this rule is nested too deeply to compile (functions inside functions, "
                                   "or brackets inside brackets): split it up with let or smaller functions") from None

    # ---- expressions ----
    def x(self, e, env: dict) -> str:
        """Python source for an expression; env maps generator slots and '@card' to Python names."""
        named = env.get("@once")
        if named is None:           # the root of an expression: its repeated values named first
            return self.named_once(e, env)
        if named and isinstance(e, ir.UserCall) and once.key(e) in named:
            return named[once.key(e)]
        if "@hoist" in env:         # inside a per-card condition
            src = percard.rewrite(self, e, env)
            if src is not None:
                return src
        return getattr(self, "g_" + type(e).__name__)(e, env)

    def test(self, e, env: dict) -> str:
        """Source for an expression whose truth only is asked (an if, an end check, a loop's test):
        an `any` or `all` of a few parts without the call that makes its value true or false."""
        return truth_only(self.x(e, env))

    def named_once(self, e, env: dict) -> str:
        """Source for a whole expression, each derived value it reads more than once worked out
        once (once.py)."""
        env, binds = {**env, "@once": {}}, []
        for call in once.repeated(self, e):
            value = self.x(call, env)
            name = self.fresh("n")
            env = {**env, "@once": {**env["@once"], once.key(call): name}}
            binds.append((name, value))
        return once.bind(binds, self.x(e, env))

    def type_table(self, e):
        """The value of e (which reads the card's type and constants only) per card id, or None
        if it could not be worked out before the game for every type (then it is left to run)."""
        lay = self.layout
        values = self.type_values(e)
        if values is None:
            return None
        values = tuple(values)
        if values not in self.tables:
            self.tables[values] = percard.table_of(list(values), lay.card_type)
        return self.tables[values]

    def type_values(self, e):
        """The value of e (which reads the card's type and constants only) per card type, or None
        if it could not be worked out before the game for every type (then it is left to run)."""
        lay = self.layout
        if not lay.card_type or len(lay.type_names) > MAX_TABLE_TYPES:
            return None
        reps = {}
        for c, t in enumerate(lay.card_type):
            reps.setdefault(t, c)
        fn, st = self.fold.function(e), Scratch(self.fold.n_locals)
        try:
            return [fn(st, reps[t], st.zones, st.vars) for t in range(len(lay.type_names))]
        except Exception:       # e.g. a type whose attribute is missing: the old code meets it at run time
            return None

    def g_Lit(self, e, env):
        return self.k(e.value)

    def g_Param(self, e, env):
        return self.k(self.layout.param_values[e.name])

    def g_Local(self, e, env):
        if e.type == "zone" and e.slot not in env:
            return f"Z[V[{e.slot}]]"        # a local that names a zone holds its index (zone_index_src)
        return env.get(e.slot, f"V[{e.slot}]")

    def zone_index_src(self, e, env) -> str:
        """Source for the index of the zone a zone-valued expression names: what a local that names
        a zone keeps, so that a copy of the state never shares a zone's list with the original."""
        if isinstance(e, ir.ZoneRef) and ("zone list", e.decl.name, getattr(e.index, "slot", None)) not in env:
            return self.zone_src(e, env)
        if isinstance(e, ir.Local) and e.slot not in env:
            return f"V[{e.slot}]"
        return f"_h.zone_index(Z, {self.x(e, env)})"

    def g_Var(self, e, env):
        base = self.layout.var_base[e.decl.name]
        if not e.decl.per_player:
            return f"V[{base}]"
        return f"V[{self.owned(e.owner, env, base, 1)}]"

    def g_Builtin(self, e, env):
        if e.name == "in_play":
            order = self.rules.play_order
            return f"_h.in_play(V[{order[0]}], {self.layout.players})" if order else f"list(range({self.layout.players}))"
        return {"current": "st.current", "me": "st.me", "players": str(self.layout.players),
                "seats": f"list(range({self.layout.players}))", "turn": "st.turn"}[e.name]

    def g_CardAttr(self, e, env):
        return f"{self.k(self.layout.attr_tables[e.attr])}[{env['@card']}]"

    def g_GetAttr(self, e, env):
        table, obj = self.k(self.layout.attr_tables[e.attr]), self.x(e.obj, env)
        if e.obj.type in ("cards", "zone"):
            v = self.fresh("a")
            return f"[{table}[{v}] for {v} in {obj}]"
        if isinstance(e.obj, ir.Func) and e.obj.name in ("first", "last") and e.obj.type == "card":
            src = self.x(e.obj.args[0], env)
            if _plain_read(src):    # read twice rather than call two helpers
                return f"({table}[{src}[{0 if e.obj.name == 'first' else -1}]] if {src} else None)"
        return f"_h.attr({table}, {obj})"

    def zone_src(self, e: ir.ZoneRef, env) -> str:
        """Source for a zone instance's index."""
        decl = e.decl
        if isinstance(e.index, ir.Local) and not decl.per_player and ("zone", decl.name, e.index.slot) in env:
            return env["zone", decl.name, e.index.slot]     # worked out before the loop, per value (choices.py)
        base, width, fam = self.layout.zone_base[decl.name], self.layout.zone_width[decl.name], self.layout.family[decl.name]
        if e.index is None:
            idx = "0"
        else:
            key = self.fold.try_const(e.index)
            if key is NO and not decl.per_player:      # one lookup gives the zone (the same error if none)
                return f"{self.zone_table(decl.name)}[{self.x(e.index, env)}]"
            idx = str(family_pos(fam, key, e, self.layout.players)) if key is not NO else \
                f"{self.k(fam)}[{self.x(e.index, env)}]"
        if not decl.per_player:
            return str(base + int(idx)) if idx.isdigit() else f"{base} + {idx}"
        if idx.isdigit():
            return self.owned(e.owner, env, base + int(idx), width)
        return f"{self.owned(e.owner, env, base, width)} + {idx}"

    def zone_table(self, name: str) -> str:
        """The table from each index value of a zone family (not per player) to its zone."""
        if name not in self.zone_tables:
            base = self.layout.zone_base[name]
            self.zone_tables[name] = self.k({v: base + i for v, i in self.layout.family[name].items()})
        return self.zone_tables[name]

    def seat_of(self, e, env):
        """(how, source) for a seat: 'const', 'safe' (always a seat) or 'computed' (checked as it runs)."""
        # a constant is checked now, for this player count; current, me, next/prev and a generator
        # over seats are always seats; anything else is looked up in a table of the seats
        if e is None:
            return "safe", "st.me"
        if isinstance(e, ir.Builtin) and e.name in ("current", "me"):
            return "safe", f"st.{e.name}"
        if isinstance(e, ir.Func) and e.name in ("next", "prev") or isinstance(e, ir.Local) and env.get(("seat", e.slot)):
            return "safe", self.x(e, env)
        key = self.fold.try_const(e)
        if key is not NO:
            return "const", str(seat_number(key, self.layout.players, e.pos))
        return "computed", self.x(e, env)

    def owned(self, e, env, base: int, width: int) -> str:
        """Source for base + seat * width (the index of a seat's zone or variable; `me` if e is None)."""
        # a seat no player has is an error, never another player's zone or variable, or another zone
        how, src = self.seat_of(e, env)
        if how == "const":
            return str(base + int(src) * width)
        if how == "safe":
            return f"{base} + {src} * {width}" if width != 1 else f"{base} + {src}"
        return f"{self.seat_table([base + s * width for s in range(self.layout.players)], e.pos)}[{src}]"

    def seat_src(self, e, env) -> str:
        """Source for a seat, checked to be one."""
        how, src = self.seat_of(e, env)
        return f"{self.seat_table(list(range(self.layout.players)), e.pos)}[{src}]" if how == "computed" else src

    def seat_table(self, picks: list, pos) -> str:
        """A lookup table from each seat to what it picks; any other value is an error at pos."""
        return self.k(SeatTable(picks, pos, self.layout.players))

    def g_ZoneRef(self, e, env):
        if isinstance(e.index, ir.Local) and ("zone list", e.decl.name, e.index.slot) in env:
            return env["zone list", e.decl.name, e.index.slot]     # the loop's own name for it (choices.py)
        return f"Z[{self.zone_src(e, env)}]"

    def g_Func(self, e, env):
        return getattr(self, "gf_" + e.name)(e, env, *e.args)

    def gf_count(self, e, env, a):
        if isinstance(a, ir.Gen):
            parts = self.unroll_src(a, env)
            if parts is not None:
                return "(" + " + ".join(f"(1 if {c} else 0)" if c else "1" for c, _ in parts) + ")" if parts else "0"
            v, it, cond, _ = self.gen_parts(a, env)
            return f"sum(1 for {v} in {it}" + (f" if {cond})" if cond else ")")
        if isinstance(a, ir.Bin) and a.type == "cards" and {a.left.type, a.right.type} <= {"zone", "cards"}:
            return f"({self.gf_count(e, env, a.left)} + {self.gf_count(e, env, a.right)})"   # no joined list
        # true/false per card, a lookup each (a comprehension takes fewer instructions than sum(map(...)))
        table, c = self.count_table(a), self.fresh("c")
        whole = isinstance(a, ir.Filter) and _one_zone(a.cards)
        if table is not None and whole:     # fewer still: the cards that pass, met in C (a zone holds a card once)
            return f"len({self.passing(table)}.intersection({self.x(a.cards, env)}))"
        if table is not None:
            return f"len([{c} for {c} in {self.x(a.cards, env)} if {self.k(table)}[{c}]])"
        ids = percard.keyed_ids(self, a.cond, env) if whole else None
        if ids is not None:         # the same, with the set of the value the test compares with (read first, once)
            return f"len({ids}.intersection({self.x(a.cards, env)}))"
        row = percard.keyed_row(self, a.cond, env) if isinstance(a, ir.Filter) else None
        if row is not None:         # the same, in the row of the value the test compares with (read first, once)
            r = self.fresh("r")
            return f"len([{c} for {r} in ({row},) for {c} in {self.x(a.cards, env)} if {r}[{c}]])"
        return f"len({self.x(a, env)})"

    def count_table(self, a, attr: str | None = None):
        """For `CARDS where TEST` with a TEST of the card's type only: per card, whether it passes
        (or, with attr, the card's attribute if it passes, else 0)."""
        if not (isinstance(a, ir.Filter) and percard.type_only(a.cond)):
            return None
        passes = self.type_table(a.cond)
        if passes is None or not all(type(v) is bool for v in passes):
            return None
        if attr is None:
            return passes
        # a card that passes with no number there fails the sum as it runs, as it did before
        return [v if ok else 0 for v, ok in zip(self.layout.attr_tables[attr], passes)]

    gf_size = gf_count

    def gf_sum(self, e, env, a):
        if isinstance(a, ir.GetAttr) and a.obj.type in ("cards", "zone"):
            table = self.count_table(a.obj, a.attr)
            if table is not None:   # the attribute of the cards that pass, 0 for the others
                return f"sum(map({self.k(table)}.__getitem__, {self.x(a.obj.cards, env)}))"
            return f"sum(map({self.k(self.layout.attr_tables[a.attr])}.__getitem__, {self.x(a.obj, env)}))"
        if isinstance(a, ir.Gen) and isinstance(a.expr, ir.Func) and a.expr.name in ("count", "size") \
                and a.expr.args[0].type in ("cards", "zone"):
            return self.count_all(a, env)
        if isinstance(a, ir.Gen):
            parts = self.unroll_src(a, env)
            if parts is not None:
                terms = [f"({x} if {c} else 0)" if c else f"({x})" for c, x in parts]
                return "(" + " + ".join(terms) + ")" if terms else "0"
        return f"sum({self.seq(a, env)})"

    def count_all(self, g: ir.Gen, env) -> str:
        """sum(count(CARDS) for v in LIST): one flat count over all the cards, which is several
        times faster than a count per value (e.g. the cards left in a grid of zones)."""
        v, it, cond, inner = self.gen_parts(g, env)
        arg, c = g.expr.args[0], self.fresh("c")
        cards, keep = (arg.cards, arg.cond) if isinstance(arg, ir.Filter) else (arg, None)
        zones = self.zones_of(g, cards, keep) if cond is None else None
        if zones is not None:       # the zones are known before the game: no loop over the values
            head, cenv = f"for {v} in {zones}", env
        else:
            head, cenv = f"for {v} in {it}" + (f" if {cond}" if cond else ""), inner
        src = v if zones is not None else self.x(cards, inner)
        if keep is None:
            return f"len([{c} {head} for {c} in {src}])"
        kenv, hoist = percard.loop_env(cenv, c)
        test = self.x(keep, kenv)
        return f"len([{c} {head} {percard.loop_src(c, src, test, hoist, self.fresh('z'))}])"

    def any_card(self, count, env):
        """(source for whether it has a card, source for whether it has none) for a count over known
        zones of a family (sum(count(zone[v] where TEST) for v in LIST)), when TEST is a table lookup
        (so it cannot fail, and stopping at the first card changes nothing); else None."""
        g = count.args[0]
        if count.name != "sum" or not isinstance(g, ir.Gen) or g.cond is not None or \
                not (isinstance(g.expr, ir.Func) and g.expr.name in ("count", "size")):
            return None
        arg = g.expr.args[0]
        cards, keep = (arg.cards, arg.cond) if isinstance(arg, ir.Filter) else (arg, None)
        picks = self.zone_picks(g, cards, keep)
        if picks is None:
            return None
        zones = self.zones_src(picks)
        if keep is None:
            some = f"any(map(len, {zones}))"
            return some, f"(not {some})"
        table = self.type_table(keep) if percard.type_only(keep) else None
        if table is None:
            return None
        none = self.lying_in(table, picks) or f"{self.passing(table)}.isdisjoint({self.k(_FLAT)}({zones}))"
        return f"(not {none})", none

    def lying_in(self, table, picks: list):
        """Source that is True when no card that passes lies in the zones `picks`, asked of where each
        such card lies (st.loc) until one is in them, when there are fewer such cards than zones (a
        walk over the zones costs more per zone than this per card), and every card is in a zone
        whenever it runs; else None."""
        if self.limbo:
            return None
        key = (self.passing(table), tuple(picks))   # one name per pair: the same text where asked again
        if key not in self.lying:
            ids = self.passing_sets[id(table)][1]
            if not ids:                 # no card passes: none lies anywhere
                self.lying[key] = "True"
            elif len(ids) > len(picks):
                self.lying[key] = None
            else:   # the card found there last time asked first: it mostly lies there still
                zones, cards, hint = self.k(frozenset(picks)), self.k(tuple(sorted(ids))), self.k([0])
                self.lying[key] = (f"(L[{cards}[{hint}[0]]] not in {zones} and "
                                   f"_h.none_lying({zones}, {cards}, L, {hint}))")
        return self.lying[key]

    def none_of_type(self, count, env):
        """Source that is True when `count(CARDS where TEST)` has no card, when TEST reads only the
        card's type (a lookup per card: it cannot fail, so stopping at the first card changes nothing)."""
        arg = count.args[0]
        if count.name not in ("count", "size") or not isinstance(arg, ir.Filter) or not percard.type_only(arg.cond):
            return None
        table = self.type_table(arg.cond)
        return None if table is None else f"{self.passing(table)}.isdisjoint({self.x(arg.cards, env)})"

    def passing(self, table) -> str:
        """The set of the card ids whose entry in a per-card table of truth values is true: asking
        whether cards miss it (set.isdisjoint) stops at the first that passes, with no call per card."""
        if id(table) not in self.passing_sets:     # (the table is kept with it, so its id stays its own)
            self.passing_sets[id(table)] = (table, frozenset(c for c, ok in enumerate(table) if ok))
        return self.k(self.passing_sets[id(table)][1])

    def zones_of(self, g: ir.Gen, cards, keep):
        """Source for the zones `cards` names for each value of a constant list (a slice of Z, or
        their indices), when neither the zones' owner nor the test reads the value; else None."""
        picks = self.zone_picks(g, cards, keep)
        return None if picks is None else self.zones_src(picks)

    def zones_src(self, picks: list) -> str:
        """Source for the zones of these indexes, in order (a slice of Z, or a lookup of each)."""
        run = zone_run(picks)
        return f"Z[{run[0]}:{run[1]}]" if run else f"map(Z.__getitem__, {self.k(tuple(picks))})"

    def zone_picks(self, g: ir.Gen, cards, keep):
        """The indexes of the zones of zones_of, or None."""
        values = self.fold.try_const(g.iterable)
        if not (isinstance(values, list) and isinstance(cards, ir.ZoneRef) and not cards.decl.per_player
                and isinstance(cards.index, ir.Local) and cards.index.slot == g.slot):
            return None
        if keep is not None and any(isinstance(x, ir.Local) and x.slot == g.slot for x in subexpressions(keep)):
            return None
        return self.family_zones(cards.decl, values)    # None: a value that is not an index fails as it runs

    def family_zones(self, decl, values: list):
        """The zone of family `decl` each value picks, or None if one is not an index of it."""
        fam, base = self.layout.family[decl.name], self.layout.zone_base[decl.name]
        if not values or not all(type(x) in (int, str) and x in fam for x in values):
            return None
        return [base + fam[x] for x in values]

    def gf_min(self, e, env, *args):
        return self.extreme_src("min", args, env)

    def gf_max(self, e, env, *args):
        return self.extreme_src("max", args, env)

    def extreme_src(self, fn, args, env):
        if len(args) > 1:
            return f"{fn}(" + ", ".join(self.x(a, env) for a in args) + ")"
        return f"{fn}({self.seq(args[0], env)}, default=0)"

    def gf_highest(self, e, env, g):
        return self.ranked("max", e, g, env)

    def gf_lowest(self, e, env, g):
        return self.ranked("min", e, g, env)

    def ranked(self, fn, e, g: ir.Gen, env) -> str:
        """highest/lowest: the item (as the generator's value) whose `by` number is largest or
        smallest, the first such in the list's order (Python's max and min keep the first)."""
        v, it, cond, inner = self.gen_parts(g, env)
        pairs = f"[({self.x(g.by, inner)}, {v}) for {v} in {it}" + (f" if {cond}]" if cond else "]")
        picked = f"_h.ranked({fn}, {pairs}, {self.k(e.pos)}, {e.name!r}, {cond is not None})"
        if isinstance(g.expr, ir.Local) and g.expr.slot == g.slot:
            return picked       # the item itself: no value to work out from it
        return f"(lambda {v}: {self.x(g.expr, inner)})({picked})"

    def gf_any(self, e, env, a):
        return self.logical("any", " or ", a, env)

    def gf_all(self, e, env, a):
        return self.logical("all", " and ", a, env)

    def logical(self, fn, joiner, a, env):
        if isinstance(a, ir.Gen):
            parts = self.unroll_src(a, env)
            if parts is not None:
                terms = [f"({c} and {x})" if c else f"({x})" for c, x in parts] if fn == "any" else \
                    [f"((not {c}) or {x})" if c else f"({x})" for c, x in parts]
                return "bool(" + joiner.join(terms) + ")" if terms else ("False" if fn == "any" else "True")
        return f"{fn}({self.seq(a, env)})"

    def seq(self, a, env) -> str:
        """A list or a generator expression for an aggregate's argument."""
        if isinstance(a, ir.Gen):
            v, it, cond, inner = self.gen_parts(a, env)
            expr = self.x(a.expr, inner)
            return f"[{expr} for {v} in {it}" + (f" if {cond}]" if cond else "]")
        return self.x(a, env)

    def gen_parts(self, g: ir.Gen, env):
        """(loop variable, iterable source, condition source or None, env inside the loop)."""
        v = self.fresh("v")
        values = self.fold.try_const(g.iterable)
        seats = isinstance(values, list) and all(type(x) is int and 0 <= x < self.layout.players for x in values)
        inner = {**env, g.slot: v, ("seat", g.slot): seats}     # a loop over seats needs no seat check
        cond = self.x(g.cond, inner) if g.cond is not None else None
        if isinstance(values, list):            # worked out once, e.g. numbers(rows * cols)
            return v, self.k(tuple(values)), cond, inner
        return v, f"list({self.x(g.iterable, env)})", cond, inner

    def unroll_src(self, g: ir.Gen, env):
        """[(cond source or None, expr source)] per value of a constant list; None if not constant."""
        return self.fold.unroll(g, lambda e: self.x(e, env))

    def g_Gen(self, e, env):
        return self.seq(e, env)

    def gf_first(self, e, env, a):
        src = self.x(a, env)
        return f"({src}[0] if {src} else None)" if _plain_read(src) else f"_h.first({src})"

    def gf_last(self, e, env, a):
        src = self.x(a, env)
        return f"({src}[-1] if {src} else None)" if _plain_read(src) else f"_h.last({src})"

    def gf_reversed(self, e, env, a):
        return f"list(reversed({self.x(a, env)}))"

    def gf_next(self, e, env, a, *in_play):
        return self.step_seat(a, env, 1) if not in_play else self.round_seat(e, a, env, 1)

    def gf_prev(self, e, env, a, *in_play):
        return self.step_seat(a, env, -1) if not in_play else self.round_seat(e, a, env, -1)

    def round_seat(self, e, a, env, by: int) -> str:
        """next(a) or prev(a) when seats may leave play: the nearest seat in play, in the direction of play."""
        out, way = self.rules.play_order
        return f"_h.going_round(V[{out}], V[{way}], {self.seat_src(a, env)}, {by}, {self.layout.players}, {self.k(e.pos)})"

    def gf_seat_after(self, e, env, a, in_play):
        """The seat after a in the direction of play, in play or not (`around` going once round)."""
        return f"_h.seat_after({self.x(a, env)}, V[{self.rules.play_order[1]}], {self.layout.players})"

    def step_seat(self, a, env, by: int) -> str:
        """next(a) or prev(a): a table lookup unless a is always a seat (then the sum, modulo players)."""
        n = self.layout.players
        how, src = self.seat_of(a, env)
        if how == "safe":
            return f"(({src}) {'+' if by > 0 else '-'} 1) % {n}"
        picks = [(s + by) % n for s in range(n)]
        return str(picks[int(src)]) if how == "const" else f"{self.seat_table(picks, a.pos)}[{src}]"

    def gf_seats_from(self, e, env, a):
        """Every seat once, in turn order, from seat a on."""
        n, src = self.layout.players, self.seat_src(a, env)
        twice = self.k(list(range(n)) * 2)      # the seats round the table twice: a slice of n from a
        if _plain_read(src):
            return f"{twice}[{src}:{src} + {n}]"
        s = self.fresh("s")
        return f"(lambda {s}: {twice}[{s}:{s} + {n}])({src})"

    def gf_numbers(self, e, env, *args):
        lo, hi = ("1", self.x(args[0], env)) if len(args) == 1 else (self.x(args[0], env), self.x(args[1], env))
        return f"_h.numbers({lo}, {hi}, {self.k(e.pos)}, {self.limits.items})"

    def gf_abs(self, e, env, a):
        return f"abs({self.x(a, env)})"

    def gf_index_of(self, e, env, a, x):
        return f"_h.index({self.x(a, env)}, {self.x(x, env)}, {self.k(e.pos)})"

    def gf_at(self, e, env, a, i):
        return f"_h.at({self.x(a, env)}, {self.x(i, env)}, {self.k(e.pos)})"

    def g_UserCall(self, e, env):
        if self.inline_depth > 16:
            raise RuleRuntimeError(e.pos, f"function '{e.fn.name}' calls itself too deeply")
        self.inline_depth += 1
        try:
            if percard.written_in(e):
                return self.x(subst(e.fn.body, dict(zip(e.fn.params, e.args))), env)
            names = [self.fresh("p") for _ in e.args]
            inner = {**env, **dict(zip(e.fn.params, names))}
            args = ", ".join(self.x(a, env) for a in e.args)
            return f"(lambda {', '.join(names)}: {self.x(e.fn.body, inner)})({args})"
        finally:
            self.inline_depth -= 1

    def g_Bin(self, e, env):
        if self.plain(e):
            return self.chain(e, env, lambda x: self.plain(x) and _GROUP[x.op] == _GROUP[e.op])
        a, b = self.x(e.left, env), self.x(e.right, env)
        if e.type == "cards" and {e.left.type, e.right.type} <= {"zone", "cards"}:
            return f"({a} + {b})"       # zones together: two lists of cards, never longer than the deck
        if e.op == "+" or e.op == "*":
            fn = "join" if e.op == "+" else "multiply"
            return f"_h.{fn}({a}, {b}, {self.k(e.pos)}" + (f", {self.limits.items})" if e.op == "+" else ")")
        pos = self.k(e.pos)
        return f"_h.div({a}, {b}, {pos})" if e.op == "/" else f"_h.mod({a}, {b}, {pos})"

    def plain(self, e) -> bool:
        """Whether a '+', '-' or '*' is Python's own: numbers only, and a '*' by a constant number."""
        if not isinstance(e, ir.Bin) or e.op not in "+-*":
            return False
        if e.op == "+":
            return not (e.type == "list" or not _numeric(e.left, e.right))
        if e.op == "*":
            return isinstance(self.fold.try_const(e.left), int) or isinstance(self.fold.try_const(e.right), int)
        return True

    def chain(self, e, env, same) -> str:
        """`(a + b - c ...)`: a left-leaning chain of operators of one precedence as flat text."""
        # a bracket per operator would pass Python's limit on nesting after about 100 terms
        tail = []
        while same(e):
            tail.append(e)
            e = e.left
        parts = [self.x(e, env)]
        for link in reversed(tail):
            parts.append(f"{link.op} {self.x(link.right, env)}")
        return "(" + " ".join(parts) + ")"

    def g_Cmp(self, e, env):
        asks = percard.emptiness(self, e)
        found = self.any_card(asks[0], env) if asks is not None else None
        if found is not None:       # stops at the first card that counts
            return found[0] if asks[1] else found[1]
        none = self.none_of_type(asks[0], env) if asks is not None else None
        if none is not None:        # stops at the first card that counts, and builds no list
            return f"(not {none})" if asks[1] else none
        if asks is not None and asks[0].name in ("count", "size") and isinstance(asks[0].args[0], (ir.ZoneRef, ir.Filter)):
            src = self.x(asks[0].args[0], env)      # a zone or a filtered one: always a list, so its truth is enough
            return f"(not not {src})" if asks[1] else f"(not {src})"
        return f"({self.x(e.left, env)} {e.op} {self.x(e.right, env)})"

    def g_InOp(self, e, env):
        op = "not in" if e.negate else "in"
        return f"({self.x(e.left, env)} {op} {self.x(e.right, env)})"

    def g_Logic(self, e, env):
        return self.chain(e, env, lambda x: isinstance(x, ir.Logic) and x.op == e.op)

    def g_NotOp(self, e, env):
        return f"(not {self.x(e.operand, env)})"

    def g_NegOp(self, e, env):
        return f"(-{self.x(e.operand, env)})"

    def g_Cond(self, e, env):
        known = self.fold.try_const(e.cond)
        if known is not NO:     # e.g. players > 2: the branch that cannot run is left out (and unchecked)
            return self.x(e.then if known else e.orelse, env)
        return f"({self.x(e.then, env)} if {self.x(e.cond, env)} else {self.x(e.orelse, env)})"

    def g_Filter(self, e, env):
        row = percard.keyed_row(self, e.cond, env)
        if row is not None:         # one lookup per card in the row of the value the test compares with
            return f"_h.keep({self.x(e.cards, env)}, {row})"
        v = self.fresh("c")
        inner, hoist = percard.loop_env(env, v)
        cond = self.x(e.cond, inner)
        return f"[{v} {percard.loop_src(v, self.x(e.cards, env), cond, hoist, self.fresh('z'))}]"

    def g_TopN(self, e, env):
        n = self.x(e.count, env) if e.count is not None else "1"
        fn = "_h.bottom" if e.bottom else "_h.top"
        return f"{fn}({self.x(e.cards, env)}, {n})"

    def g_ListLit(self, e, env):
        return "[" + ", ".join(self.x(i, env) for i in e.items) + "]"


_FLAT = itertools.chain.from_iterable      # the cards of several zones as one run, for any()
_GROUP = {"+": "+", "-": "+", "*": "*"}       # operators of one precedence chain without brackets


def zone_run(picks: list):
    """(first, end) when the zone indexes follow each other in order (a slice of Z), else None."""
    return (picks[0], picks[-1] + 1) if picks and picks == list(range(picks[0], picks[0] + len(picks))) else None


def seat_number(key, players: int, pos) -> int:
    """A constant seat, or an error naming the rule and the player count if there is no such player."""
    if type(key) is not int or not 0 <= key < players:
        raise RuleRuntimeError(pos, not_a_seat(key, players))
    return key


def family_pos(fam: dict, key, e, players: int):
    """The position of a constant index in a zone family; an error naming the rule if it is not one."""
    if key not in fam or type(key) is bool:
        shown = ", ".join(show(v, True) for v in fam)
        raise RuleRuntimeError(e.index.pos, f"{show(key, True)} is not an index of zone family '{e.decl.name}': "
                               f"with {players} players its values are {shown}")
    return fam[key]


_STATE_PARTS = (("Z", "st.zones"), ("V", "st.vars"), ("L", "st.loc"))


def prologue(body: str, more: tuple = ()) -> str:
    """The first line of a generated function: the parts of the state its body reads named once
    (then `more` names bound after them), or an empty line (line numbers stay where they were)."""
    reads = body + " ".join(more)
    binds = [f"{name} = {part}" for name, part in _STATE_PARTS if re.search(rf"\b{name}\b", reads)] + list(more)
    return "    " + "; ".join(binds) + "\n" if binds else "\n"


def read_zones_once(src: str, seated: bool) -> tuple:
    """(src, bindings) with each zone that src reads more than once by a constant index, or `me`'s
    zone (`Z[N + st.me]`, when st.me is a seat), read once before: such a read cannot fail, and an
    expression changes no zone."""
    pieces = once.TEXT.split(src)           # code and text literals, alternately: a text is never touched
    counts: dict = {}
    for code in pieces[::2]:
        for m in _ZONE_READ.finditer(code):
            if seated or m.group(2) is None:
                counts[m.group(0)] = counts.get(m.group(0), 0) + 1
    names = {read: f"_y{k}" for k, read in enumerate(r for r, n in counts.items() if n > 1)}
    if not names:
        return src, ()
    pieces[::2] = [_ZONE_READ.sub(lambda m: names.get(m.group(0), m.group(0)), code) for code in pieces[::2]]
    return "".join(pieces), tuple(f"{name} = {read}" for read, name in names.items())


_ZONE_READ = re.compile(r"(?<![\w.])Z\[(\d+)( \+ st\.me)?\]")
# seats_function: `st` anywhere but before an attribute (handed to a call); me's own zone; me
_STATE_PASSED = re.compile(r"(?<![\w.])st\b(?!\.\w)")
_ME_ZONE = re.compile(r"(?<![\w.])Z\[(\d+) \+ st\.me\]")
_ME = re.compile(r"(?<![\w.])st\.me\b")


def truth_only(src: str) -> str:
    """src without its outer `bool(...)` (logical's), when that call is the whole of it."""
    if not src.startswith("bool("):
        return src
    depth = 0
    code = once.TEXT.sub(lambda m: "_" * len(m.group(0)), src)   # brackets inside a text do not count
    for i in range(4, len(code)):
        depth += (code[i] == "(") - (code[i] == ")")
        if depth == 0:
            return src[4:] if i == len(src) - 1 else src
    return src


def _one_zone(e) -> bool:
    """Whether e is the cards of one zone (never a card twice)."""
    return isinstance(e, ir.ZoneRef) or isinstance(e, ir.Local) and e.type == "zone"


def _plain_read(src: str) -> bool:
    """Whether generated source only reads the state (zones, variables, tables, seats, numbers, no
    call), so that reading it twice costs less than a helper call and means the same."""
    return _PLAIN.fullmatch(src) is not None


_PLAIN = re.compile(r"(?:[ZVL]|K\d+|st\.me|st\.current|\d+|[\[\] +*])+")


def _numeric(*exprs) -> bool:
    """Whether one of the operands of a '+' is known to be a number (so it cannot join lists)."""
    return any(x.type in ("int", "player") for x in exprs)

