"""Compile a checked ruleset, for one player count, into closures and a flat op list.

Expressions become closures `f(state, card)`: `card` is the card a `where` tests.
Statements without decisions become closures `run(state)`; statements holding a decision
become ops `op(state) -> next pc`, so the position in the rules stays in the state.
"""
from __future__ import annotations

import dataclasses
import operator
import re

from ..runtime import engine as E
from ..frontend import ir
from ..runtime.decisions import CardSpec, Decision
from ..errors import Diagnostic, Pos, RuleRuntimeError, RulesetError
from ..runtime.runtime import Runtime
from .statements import Statements

CMP = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
       ">=": operator.ge}


class Program(Statements, Runtime):
    """A ruleset compiled for one player count: tables, ops, decisions, scoring."""

    def __init__(self, rules: ir.Ruleset, players: int, limits: E.Limits | None = None):
        self.rules, self.players = rules, players
        self.limits = limits or E.DEFAULT_LIMITS
        self.param_values = {name: _row(value, players) for name, (value, _) in rules.params.items()}
        self.code: list = []
        self.op_pos: list = []
        self.loops: list = []           # (first pc, end pc, position) of every while loop holding a decision
        self.line_pos: dict = {}        # generated code: file name -> {line: position of its rule}
        self.decisions: list = []
        self.functions: dict = {}
        self.inline_depth = 0
        self.layout_zones()
        self.layout_vars()
        self.make_cards()
        self._initial = None
        self.prefix = deterministic_prefix(rules)
        self.build()

    # ---- layout ----
    def layout_zones(self) -> None:
        """Give every zone instance an index: families and per-player zones expand."""
        self.zone_names, self.zone_decl, self.zone_owner, self.zone_vis = [], [], [], []
        self.zone_alike = []
        self.zone_base, self.family = {}, {}
        everyone = (1 << self.players) - 1
        for decl in self.rules.zones:
            self.zone_base[decl.name] = len(self.zone_names)
            values = list(self.const_list(decl.per, f"the 'per' of zone '{decl.name}'")) \
                if decl.per is not None else [None]
            total = len(self.zone_names) + len(values) * (self.players if decl.per_player else 1)
            if total > self.limits.zones:
                raise too_large(decl.per.pos if decl.per is not None else decl.pos,
                                f"the zones would make {total:,} piles ({len(values):,} in family '{decl.name}'"
                                + (f", for each of {self.players} players" if decl.per_player else "")
                                + f"), more than {self.limits.zones:,}", "a game needs far fewer piles")
            self.family[decl.name] = {v: i for i, v in enumerate(values)}
            owners = range(self.players) if decl.per_player else [None]
            for owner in owners:
                for v in values:
                    label = decl.name + (f"({owner})" if owner is not None else "") + (f"[{v}]" if v is not None else "")
                    self.zone_names.append(label)
                    self.zone_decl.append(decl)
                    self.zone_owner.append(owner)
                    vis = {"everyone": everyone, "nobody": 0}.get(decl.visible, 1 << (owner or 0))
                    self.zone_vis.append(vis)
                    self.zone_alike.append(decl.alike)
        self.zone_width = {d.name: len(self.family[d.name]) for d in self.rules.zones}

    def layout_vars(self) -> None:
        """Locals first, then one hidden slot per option choice, then game variables."""
        self.n_locals = len(self.rules.slots)
        self.var_base = {}
        n = self.n_locals + 64
        for decl in self.rules.vars:
            self.var_base[decl.name] = n
            n += self.players if decl.per_player else 1
        self.n_vars = n
        self.extra_slots = self.n_locals

    def new_slot(self) -> int:
        slot = self.extra_slots
        self.extra_slots += 1
        return slot

    def make_cards(self) -> None:
        """Expand card kinds into types and card ids; build attribute tables."""
        self.type_names, self.type_attrs, card_type, start = [], [], [], []
        scratch = _Scratch(self)
        for kind in self.rules.cards:
            for binding in self.bindings(kind.loops, kind.pos):
                for var, _, slot in kind.loops:
                    scratch.vars[slot] = binding[var]
                n = self.const(kind.count, scratch)
                if not isinstance(n, int):
                    raise RuleRuntimeError(kind.count.pos, f"the count of card kind '{kind.name}' must be a whole "
                                           f"number, not {n!r}")
                if n > 0 and len(card_type) + n > self.limits.cards:
                    raise too_large(kind.count.pos, f"the game would have more than {self.limits.cards:,} cards "
                                    f"(card kind '{kind.name}' adds {n:,})", "a card game needs far fewer cards")
                attrs = dict(binding)
                for name, e in kind.attrs:
                    attrs[name] = self.const(e, scratch)
                attrs["kind"] = kind.name
                attrs["name"] = _format(kind.template, binding)
                if n <= 0:
                    continue
                if attrs["name"] in self.type_names:
                    raise RulesetError([Diagnostic(
                        kind.pos, f"two card types are both named '{attrs['name']}'", "card-name",
                        "put every 'for' variable into the name template, e.g. \"{colour}:{rank}\"")])
                t = len(self.type_names)
                self.type_names.append(attrs["name"])
                self.type_attrs.append(attrs)
                z = self.zone_base[kind.start.name]
                card_type.extend([t] * n)
                start.extend([z] * n)
        self.card_type, self.card_start = card_type, start
        self.type_index = {name: t for t, name in enumerate(self.type_names)}
        names = {a for attrs in self.type_attrs for a in attrs} | {"kind", "name"}
        for kind in self.rules.cards:      # every declared attribute has a table, even with no cards
            names |= {var for var, _, _ in kind.loops} | {a for a, _ in kind.attrs}
        self.attr_tables = {a: [self.type_attrs[t].get(a) for t in card_type] for a in names}
        self.type_tables = {a: [attrs.get(a) for attrs in self.type_attrs] for a in names}

    def bindings(self, loops: list, pos=None) -> list:
        """Every combination of a card kind's `for` values (at most as many as cards may be)."""
        out = [{}]
        for var, values, _ in loops:
            vals = self.const_list(values, f"the values of '{var}'")
            if len(out) * len(vals) > self.limits.cards:
                raise too_large(values.pos, f"the 'for' lists make more than {self.limits.cards:,} card types",
                                "a card game needs far fewer cards")
            out = [dict(b, **{var: v}) for b in out for v in vals]
        return out

    def const(self, e, scratch=None):
        """Evaluate an expression that needs no game state (parameters, literals; a card kind's
        `for` variables, bound in scratch)."""
        try:
            return self.expr(e)(scratch or _Scratch(self), None)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError, OverflowError) as exc:
            raise RuleRuntimeError(e.pos, f"this value cannot be worked out before the game starts "
                                   f"({type(exc).__name__}: {exc})") from None

    def const_list(self, e, what: str) -> list:
        """A constant that must be a list (a family's `per`, a card kind's `for` values)."""
        value = self.const(e)
        if not isinstance(value, list):
            raise RuleRuntimeError(e.pos, f"{what} must be a list, not {value!r}")
        return value

    # ---- expressions ----
    def expr(self, e):
        """Compile an expression to a closure f(state, card)."""
        return getattr(self, "x_" + type(e).__name__)(e)

    def x_Lit(self, e):
        v = e.value
        return lambda st, c: v

    def x_Param(self, e):
        v = self.param_values[e.name]
        return lambda st, c: v

    def x_Local(self, e):
        slot = e.slot
        return lambda st, c: st.vars[slot]

    def x_Var(self, e):
        base = self.var_base[e.decl.name]
        if not e.decl.per_player:
            return lambda st, c: st.vars[base]
        if e.owner is None:
            return lambda st, c: st.vars[base + st.me]
        owner = self.expr(e.owner)
        return lambda st, c: st.vars[base + owner(st, c)]

    def x_Builtin(self, e):
        n = self.players
        return {
            "current": lambda st, c: st.current,
            "me": lambda st, c: st.me,
            "players": lambda st, c: n,
            "seats": lambda st, c: list(range(n)),
            "turn": lambda st, c: st.turn,
        }[e.name]

    def x_CardAttr(self, e):
        table = self.attr_tables[e.attr]
        return lambda st, c: table[c]

    def x_GetAttr(self, e):
        table = self.attr_tables[e.attr]
        obj = self.expr(e.obj)
        if e.obj.type in ("cards", "zone"):
            get = table.__getitem__
            return lambda st, c: list(map(get, obj(st, c)))
        if e.obj.type == "card":
            return lambda st, c: None if (x := obj(st, c)) is None else table[x]

        def dynamic(st, c):
            x = obj(st, c)
            if isinstance(x, list):
                return [table[i] for i in x]
            return None if x is None else table[x]
        return dynamic

    def x_ZoneRef(self, e):
        zi = self.zone_index(e)
        if isinstance(zi, int):
            return lambda st, c: st.zones[zi]
        return lambda st, c: st.zones[zi(st, c)]

    def zone_index(self, e: ir.ZoneRef):
        """The zone instance's index: an int when constant, else a closure."""
        decl = e.decl
        base, width, fam = self.zone_base[decl.name], self.zone_width[decl.name], self.family[decl.name]
        if e.index is None:
            idx = 0
        else:
            key = self.try_const(e.index)
            if key is not _NO:
                idx = self.family_pos(fam, key, e)
            else:
                keyf, pos, name = self.expr(e.index), e.pos, decl.name

                def idx(st, c):
                    try:
                        return fam[keyf(st, c)]
                    except (KeyError, TypeError):
                        raise RuleRuntimeError(pos, f"{keyf(st, c)!r} is not an index of zone family '{name}'")
        if not decl.per_player:
            return base + idx if isinstance(idx, int) else (lambda st, c: base + idx(st, c))
        owner = self.expr(e.owner) if e.owner is not None else None
        if isinstance(idx, int):
            off = base + idx
            if owner is None:
                return lambda st, c: off + st.me * width
            return lambda st, c: off + owner(st, c) * width
        if owner is None:
            return lambda st, c: base + st.me * width + idx(st, c)
        return lambda st, c: base + owner(st, c) * width + idx(st, c)

    def family_pos(self, fam: dict, key, e):
        if key not in fam:
            raise RuleRuntimeError(e.pos, f"{key!r} is not an index of zone family '{e.decl.name}'")
        return fam[key]

    def try_const(self, e):
        """The value of e when it depends on no state, else _NO."""
        if isinstance(e, (ir.Lit, ir.Param)):
            return self.const(e)
        if isinstance(e, ir.Builtin) and e.name in ("players", "seats"):
            return self.const(e)
        if is_static(e):
            try:
                return self.const(e)
            except Exception:       # e.g. a division by zero: left for the run time to report
                return _NO
        return _NO

    def x_Func(self, e):
        return getattr(self, "f_" + e.name)(e, *e.args)

    def f_count(self, e, a):
        if isinstance(a, ir.Gen):
            parts = self.unroll(a)
            if parts is not None:
                conds = tuple(cf for cf, _ in parts)
                if all(cf is None for cf in conds):
                    n = len(conds)
                    return lambda st, c: n
                return lambda st, c: sum(1 for cf in conds if cf is None or cf(st, c))
            gen = self.gen(a)
            return lambda st, c: len(gen(st, c))
        if isinstance(a, ir.ZoneRef):
            zi = self.zone_index(a)
            if isinstance(zi, int):
                return lambda st, c: len(st.zones[zi])
            return lambda st, c: len(st.zones[zi(st, c)])
        f = self.expr(a)
        return lambda st, c: len(f(st, c))

    f_size = f_count

    def f_sum(self, e, a):
        if isinstance(a, ir.GetAttr) and a.obj.type in ("cards", "zone"):
            get = self.attr_tables[a.attr].__getitem__
            obj = self.expr(a.obj)
            return lambda st, c: sum(map(get, obj(st, c)))
        return self.reduce(sum, a)

    def f_min(self, e, *args):
        return self.extreme(min, args)

    def f_max(self, e, *args):
        return self.extreme(max, args)

    def extreme(self, fn, args):
        if len(args) > 1:
            fs = [self.expr(a) for a in args]
            return lambda st, c: fn(f(st, c) for f in fs)
        return self.reduce(lambda xs: fn(xs, default=0), args[0])

    def f_any(self, e, a):
        return self.reduce(any, a)

    def f_all(self, e, a):
        return self.reduce(all, a)

    def reduce(self, fn, a):
        """fn over a list expression or a generator (unrolled when its list is constant)."""
        if isinstance(a, ir.Gen):
            parts = self.unroll(a)
            if parts is not None:
                parts = tuple(parts)
                if all(cf is None for cf, _ in parts):
                    fs = tuple(f for _, f in parts)
                    if fn is any:
                        return lambda st, c: any(f(st, c) for f in fs)
                    if fn is all:
                        return lambda st, c: all(f(st, c) for f in fs)
                    return lambda st, c: fn([f(st, c) for f in fs])
                return lambda st, c: fn([f(st, c) for cf, f in parts if cf is None or cf(st, c)])
            f = self.gen(a)
        else:
            f = self.expr(a)
        return lambda st, c: fn(f(st, c))

    def unroll(self, g: ir.Gen, compile_=None):
        """[(cond or None, expr)] per value of a constant list, the loop variable folded in; else None.

        `compile_` turns each folded expression into the backend's form (closures by default)."""
        compile_ = compile_ or self.expr
        values = self.try_const(g.iterable)
        if values is _NO or not isinstance(values, list) or len(values) > 64:
            return None
        parts = []
        for v in values:
            lit = ir.Lit(g.pos, "any", v)
            cond = None
            if g.cond is not None:
                folded = subst(g.cond, {g.slot: lit})
                known = self.try_const(folded)
                if known is not _NO and not known:
                    continue
                cond = None if known is not _NO else compile_(folded)
            parts.append((cond, compile_(subst(g.expr, {g.slot: lit}))))
        return parts

    def closure(self, e):
        """A callable f(state, card) for an expression, in this backend's form."""
        return self.expr(e)

    def compile_scoring(self) -> None:
        """The end condition, score, tie-breaks and bot evaluation as callables f(state, card)."""
        rules = self.rules
        self.end_fn = self.closure(rules.end_when)
        self.score_fn = self.closure(rules.score)
        self.tiebreak_fns = [(sign, self.closure(e)) for sign, e in rules.tiebreak]
        self.eval_fn = self.closure(rules.bot_eval) if rules.bot_eval is not None else None

    def f_first(self, e, a):
        f = self.expr(a)
        return lambda st, c: (x[0] if (x := f(st, c)) else None)

    def f_last(self, e, a):
        f = self.expr(a)
        return lambda st, c: (x[-1] if (x := f(st, c)) else None)

    def f_reversed(self, e, a):
        f = self.expr(a)
        return lambda st, c: list(reversed(f(st, c)))

    def f_next(self, e, a):
        f, n = self.expr(a), self.players
        return lambda st, c: (f(st, c) + 1) % n

    def f_prev(self, e, a):
        f, n = self.expr(a), self.players
        return lambda st, c: (f(st, c) - 1) % n

    def f_numbers(self, e, *args):
        fs, pos, limit = [self.expr(a) for a in args], e.pos, self.limits.items
        if len(fs) == 1:
            return lambda st, c: numbers(1, fs[0](st, c), pos, limit)
        lo, hi = fs
        return lambda st, c: numbers(lo(st, c), hi(st, c), pos, limit)

    def f_abs(self, e, a):
        f = self.expr(a)
        return lambda st, c: abs(f(st, c))

    def f_index_of(self, e, a, x):
        f, g, pos = self.expr(a), self.expr(x), e.pos
        return lambda st, c: index_of(f(st, c), g(st, c), pos)

    def f_at(self, e, a, i):
        f, g, pos = self.expr(a), self.expr(i), e.pos

        def at(st, c):
            seq, k = f(st, c), g(st, c)
            if not 0 <= k < len(seq):
                raise RuleRuntimeError(pos, f"index {k} is outside the list (it has {len(seq)} items)")
            return seq[k]
        return at

    def gen(self, g: ir.Gen):
        """A generator `expr for x in list [if cond]` as a closure returning a list."""
        expr, slot, it = self.expr(g.expr), g.slot, self.expr(g.iterable)
        cond = self.expr(g.cond) if g.cond is not None else None

        def run(st, c):
            out, vars_ = [], st.vars
            keep = vars_[slot]          # a generator's name is local to it
            for v in list(it(st, c)):
                vars_[slot] = v
                if cond is None or cond(st, c):
                    out.append(expr(st, c))
            vars_[slot] = keep
            return out
        return run

    def x_Gen(self, e):
        return self.gen(e)

    def x_UserCall(self, e):
        fn = e.fn
        if all(isinstance(a, _PURE) for a in e.args) and self.inline_depth < 8:
            self.inline_depth += 1
            try:
                return self.expr(subst(fn.body, dict(zip(fn.params, e.args))))
            finally:
                self.inline_depth -= 1
        args = [self.expr(a) for a in e.args]
        slots = fn.params
        body = self.function_body(fn)
        if not args:
            return lambda st, c: body[0](st, c)

        def call(st, c):
            vals = [a(st, c) for a in args]
            vars_ = st.vars
            saved = [vars_[s] for s in slots]
            for s, v in zip(slots, vals):
                vars_[s] = v
            try:
                return body[0](st, c)
            finally:
                for s, v in zip(slots, saved):
                    vars_[s] = v
        return call

    def function_body(self, fn: ir.FunctionDecl) -> list:
        """A one-item list holding the compiled body (filled late, so functions may call each other)."""
        if fn.name not in self.functions:
            cell = [None]
            self.functions[fn.name] = cell
            cell[0] = self.expr(fn.body)
        return self.functions[fn.name]

    def x_Bin(self, e):
        l, r, pos = self.expr(e.left), self.expr(e.right), e.pos
        rc = self.try_const(e.right)
        if e.op == "+" and (e.type == "list" or not _numeric(e.left, e.right)):
            limit = self.limits.items
            return lambda st, c: join(l(st, c), r(st, c), pos, limit)
        if e.op == "+":
            return (lambda st, c: l(st, c) + rc) if rc is not _NO else (lambda st, c: l(st, c) + r(st, c))
        if e.op == "-":
            return (lambda st, c: l(st, c) - rc) if rc is not _NO else (lambda st, c: l(st, c) - r(st, c))
        if e.op == "*":
            if rc is not _NO and isinstance(rc, int) or isinstance(self.try_const(e.left), int):
                return lambda st, c: l(st, c) * r(st, c)    # a constant factor: the number grows slowly
            return lambda st, c: multiply(l(st, c), r(st, c), pos)

        def div(st, c):
            b = r(st, c)
            if b == 0:
                raise RuleRuntimeError(pos, f"division by zero in turn {st.turn}")
            return l(st, c) // b if e.op == "/" else l(st, c) % b
        return div

    def x_Cmp(self, e):
        op, l, r = CMP[e.op], self.expr(e.left), self.expr(e.right)
        rc = self.try_const(e.right)
        left = e.left
        if (rc is not _NO and isinstance(left, ir.Func) and left.name in ("count", "size")
                and isinstance(left.args[0], ir.ZoneRef)):
            zi = self.zone_index(left.args[0])
            if isinstance(zi, int):
                return lambda st, c: op(len(st.zones[zi]), rc)
        if rc is not _NO:
            return lambda st, c: op(l(st, c), rc)
        return lambda st, c: op(l(st, c), r(st, c))

    def x_InOp(self, e):
        l, r = self.expr(e.left), self.expr(e.right)
        if e.negate:
            return lambda st, c: l(st, c) not in r(st, c)
        return lambda st, c: l(st, c) in r(st, c)

    def x_Logic(self, e):
        l, r = self.expr(e.left), self.expr(e.right)
        if e.op == "and":
            return lambda st, c: bool(l(st, c)) and bool(r(st, c))
        return lambda st, c: bool(l(st, c)) or bool(r(st, c))

    def x_NotOp(self, e):
        f = self.expr(e.operand)
        return lambda st, c: not f(st, c)

    def x_NegOp(self, e):
        f = self.expr(e.operand)
        return lambda st, c: -f(st, c)

    def x_Cond(self, e):
        cond, a, b = self.expr(e.cond), self.expr(e.then), self.expr(e.orelse)
        return lambda st, c: a(st, c) if cond(st, c) else b(st, c)

    def x_Filter(self, e):
        cards = self.expr(e.cards)
        keyed, rest = [], []
        for part in _conjuncts(e.cond):
            # only the leading equality tests are hoisted: the parts run in the order written
            if (not rest and isinstance(part, ir.Cmp) and part.op == "==" and isinstance(part.left, ir.CardAttr)
                    and not _uses_card(part.right)):
                keyed.append((self.attr_tables[part.left.attr], self.expr(part.right)))
            else:
                rest.append(part)
        cond = self.expr(_conjoin(rest, e.cond)) if rest else None
        if len(keyed) == 1 and cond is None:
            (table, value), = keyed

            def filter_one(st, c):
                v = value(st, c)
                return [x for x in cards(st, c) if table[x] == v]
            return filter_one
        if not keyed:
            return lambda st, c: [x for x in cards(st, c) if cond(st, x)]
        keyed = tuple(keyed)

        def filter_(st, c):
            # card-independent sides are evaluated once, not once per card
            tests = [(table, value(st, c)) for table, value in keyed]
            out = [x for x in cards(st, c) if all(table[x] == v for table, v in tests)]
            return out if cond is None else [x for x in out if cond(st, x)]
        return filter_

    def x_TopN(self, e):
        cards = self.expr(e.cards)
        count = self.expr(e.count) if e.count is not None else (lambda st, c: 1)
        if e.bottom:
            return lambda st, c: cards(st, c)[:max(0, count(st, c))]
        return lambda st, c: (lambda xs, n: xs[max(0, len(xs) - n):] if n > 0 else [])(cards(st, c), count(st, c))

    def x_ListLit(self, e):
        items = [self.expr(i) for i in e.items]
        return lambda st, c: [f(st, c) for f in items]


class _Scratch:
    """A stand-in state for evaluating setup-time expressions (parameters, card counts)."""

    def __init__(self, program: Program):
        self.vars = [None] * (len(program.rules.slots) + 64)
        self.zones, self.me, self.current, self.turn = [], 0, 0, 0


_NO = object()
_PURE = (ir.Lit, ir.Param, ir.Local, ir.Builtin)


def deterministic_prefix(rules: ir.Ruleset) -> int:
    """How many leading setup statements give the same result in every game (no shuffle, no
    decision, no pile that could run dry into a reshuffling trigger): run once, not per game."""
    triggered = {d.name for d in rules.zones if d.on_empty}

    def fixed(s) -> bool:
        if isinstance(s, (ir.ChooseS, ir.ShuffleS, ir.CallS, ir.ExtraS, ir.EndS)):
            return False
        if isinstance(s, ir.DealS):
            return s.source.decl.name not in triggered
        if isinstance(s, ir.MoveS):
            src = s.cards.cards if isinstance(s.cards, ir.TopN) else s.cards
            return not (isinstance(src, ir.ZoneRef) and src.decl.name in triggered)
        return all(fixed(x) for attr in ("then", "orelse", "body") for x in getattr(s, attr, None) or [])

    n = 0
    while n < len(rules.setup) and fixed(rules.setup[n]):
        n += 1
    return n


def subexpressions(e, seen=None):
    """Every expression inside e (function bodies included), e itself first."""
    seen = set() if seen is None else seen
    if not isinstance(e, ir.Expr):
        return
    yield e
    if isinstance(e, ir.UserCall) and e.fn.name not in seen:
        seen.add(e.fn.name)
        yield from subexpressions(e.fn.body, seen)
    for f in dataclasses.fields(e):
        v = getattr(e, f.name)
        for x in (v if isinstance(v, tuple) else (v,)):
            if isinstance(x, ir.Expr):
                yield from subexpressions(x, seen)


def may_change(rules: ir.Ruleset, cond, stmts) -> bool:
    """Whether running stmts may change the value of cond (a sound over-estimate).

    cond may change only if a statement writes a zone or variable it reads; a cond that reads
    anything else that moves (the turn, the current player, locals) always may."""
    zones, vars_ = set(), set()
    for e in subexpressions(cond):
        if isinstance(e, (ir.Builtin, ir.Local)) and not (isinstance(e, ir.Builtin) and e.name in ("players", "seats")):
            return True
        if isinstance(e, ir.ZoneRef):
            if e.decl.per_player and e.owner is None:
                return True         # `me`'s zone: whose it is changes with the turn
            zones.add(e.decl.name)
        if isinstance(e, ir.Var):
            if e.decl.per_player and e.owner is None:
                return True
            vars_.add(e.decl.name)
    for s in _all_statements(stmts, rules):
        if isinstance(s, ir.MoveS):
            src = s.cards.cards if isinstance(s.cards, ir.TopN) else s.cards
            touched = {s.dest.decl.name} | ({src.decl.name} if isinstance(src, ir.ZoneRef) else set(zones))
            if isinstance(src, ir.ZoneRef) and any(d.on_empty for d in rules.zones if d.name == src.decl.name):
                return True         # its trigger may move anything
            if touched & zones:
                return True
        elif isinstance(s, ir.DealS):
            if {s.source.decl.name, s.dest.name} & zones or s.source.decl.on_empty:
                return True
        elif isinstance(s, ir.ShuffleS):
            if s.zone.decl.name in zones:
                return True
        elif isinstance(s, ir.SetS):
            if s.decl.name in vars_:
                return True
    return False


def _all_statements(stmts, rules: ir.Ruleset, seen=None):
    """Every statement in stmts, nested blocks, options and called procedures included."""
    seen = set() if seen is None else seen
    for s in stmts:
        yield s
        for attr in ("then", "orelse", "body"):
            yield from _all_statements(getattr(s, attr, None) or [], rules, seen)
        for opt in getattr(s, "options", None) or []:
            yield from _all_statements(opt.body, rules, seen)
        if isinstance(s, ir.CallS) and s.name not in seen:
            seen.add(s.name)
            yield from _all_statements(rules.procedures.get(s.name, []), rules, seen)


def _conjuncts(e) -> list:
    """The parts of a chain of `and`s."""
    if isinstance(e, ir.Logic) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _conjoin(parts: list, like):
    out = parts[0]
    for p in parts[1:]:
        out = ir.Logic(like.pos, "bool", "and", out, p)
    return out


def _uses_card(e) -> bool:
    """Whether e reads the card under test (a bare attribute outside any inner where)."""
    if isinstance(e, ir.CardAttr):
        return True
    if isinstance(e, ir.Filter):
        return _uses_card(e.cards)
    if not isinstance(e, ir.Expr):
        return False
    for f in dataclasses.fields(e):
        v = getattr(e, f.name)
        if isinstance(v, ir.Expr) and _uses_card(v):
            return True
        if isinstance(v, tuple) and any(isinstance(x, ir.Expr) and _uses_card(x) for x in v):
            return True
    return False


_STATIC_PARTS = (ir.Bin, ir.Cmp, ir.InOp, ir.Logic, ir.NotOp, ir.NegOp, ir.Cond, ir.ListLit, ir.Func)


def is_static(e, depth: int = 0) -> bool:
    """Whether e depends on parameters and literals only (no zone, variable, local or card),
    so that it can be worked out once before the game (e.g. `numbers(rows * cols)`)."""
    if isinstance(e, (ir.Lit, ir.Param)):
        return True
    if isinstance(e, ir.Builtin):
        return e.name in ("players", "seats")
    if depth > 16:
        return False
    if isinstance(e, ir.UserCall):
        return all(is_static(a, depth + 1) for a in e.args) and \
            is_static(subst(e.fn.body, dict(zip(e.fn.params, e.args))), depth + 1)
    if isinstance(e, _STATIC_PARTS):
        return all(is_static(x, depth + 1) for x in _children(e))
    return False


def _children(e) -> list:
    """The expressions directly inside e."""
    out = []
    for f in dataclasses.fields(e):
        v = getattr(e, f.name)
        if isinstance(v, ir.Expr):
            out.append(v)
        elif isinstance(v, tuple):
            out.extend(x for x in v if isinstance(x, ir.Expr))
    return out


def subst(e, mapping: dict):
    """A copy of expression e with locals (by slot) replaced by expressions."""
    if isinstance(e, ir.Local):
        return mapping.get(e.slot, e)
    if not isinstance(e, ir.Expr):
        return e
    if isinstance(e, ir.Gen) and e.slot in mapping:
        mapping = {k: v for k, v in mapping.items() if k != e.slot}
    changes = {}
    for f in dataclasses.fields(e):
        v = getattr(e, f.name)
        if isinstance(v, ir.Expr):
            nv = subst(v, mapping)
        elif isinstance(v, tuple) and any(isinstance(x, ir.Expr) for x in v):
            nv = tuple(subst(x, mapping) for x in v)
        else:
            continue
        if nv is not v:
            changes[f.name] = nv
    return dataclasses.replace(e, **changes) if changes else e


def _row(value, players: int):
    """A parameter's value at a player count (by_players tables were expanded by the checker)."""
    if isinstance(value, dict) and all(isinstance(k, int) for k in value):
        return value[players]
    return value


def _format(template: str, binding: dict) -> str:
    return re.sub(r"\{([^}]*)\}", lambda m: str(binding.get(m.group(1), m.group(0))), template)


def too_large(pos, message: str, hint: str) -> RulesetError:
    """A ruleset that would build more than the limits allow (cards, piles), as a positioned error."""
    return RulesetError([Diagnostic(pos, message, "too-large", hint)])


def numbers(lo, hi, pos, limit: int) -> list:
    """numbers(lo, hi): lo..hi, both included, at most `limit` of them."""
    if hi - lo + 1 > limit:
        raise RuleRuntimeError(pos, f"the numbers from {lo:,} to {hi:,} would be {hi - lo + 1:,} values, but a "
                               f"list holds at most {limit:,}")
    return list(range(lo, hi + 1))


def join(a, b, pos, limit: int):
    """a + b where either may be a list (or a text): at most `limit` values long (a list doubled in a
    loop would fill the memory)."""
    if type(a) is int and type(b) is int:
        return a + b
    if isinstance(a, (list, str)) and isinstance(b, (list, str)) and len(a) + len(b) > limit:
        raise RuleRuntimeError(pos, f"joining these lists would make {len(a) + len(b):,} values, but a list "
                               f"holds at most {limit:,}")
    return a + b


def _numeric(*exprs) -> bool:
    """Whether one of the operands of a '+' is known to be a number (so it cannot join lists)."""
    return any(x.type in ("int", "player") for x in exprs)


MAX_INT_BITS = 4096      # a number squared again and again would grow without bound


def multiply(a, b, pos):
    """a * b for two numbers (never a list or a text repeated), bounded in size."""
    if not (type(a) is int and type(b) is int):
        if not (isinstance(a, int) and isinstance(b, int)):
            raise RuleRuntimeError(pos, f"'*' multiplies numbers, not {a!r} and {b!r}")
    if a.bit_length() + b.bit_length() > MAX_INT_BITS:
        raise RuleRuntimeError(pos, f"this product is too large (more than {MAX_INT_BITS} binary digits)")
    return a * b


def index_of(seq, x, pos):
    """The position of x in seq (the first, counting from 0); an error naming the rule if absent."""
    try:
        return list(seq).index(x)
    except ValueError:
        raise RuleRuntimeError(pos, f"{x!r} is not in the list {list(seq)!r}") from None
