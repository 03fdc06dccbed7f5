"""Constant folding: what can be worked out before a game starts, and what the rules may change.

Pure functions over the resolved program (is_static, subst, may_change, deterministic_prefix),
and `Folder`, which works a constant out by generating the expression's code and running it on a
scratch state: the same code the game would run, so a constant means the same at either time.
"""
from __future__ import annotations

import dataclasses

from ..errors import RuleRuntimeError
from ..runtime.decisions import failure_words
from ..frontend import ir
from .layout import HIDDEN_SLOTS

NO = object()             # try_const's answer for an expression that needs the game state
_UNSEEN = object()
PURE = (ir.Lit, ir.Param, ir.Local, ir.Builtin)
_STATIC_PARTS = (ir.Bin, ir.Cmp, ir.InOp, ir.Logic, ir.NotOp, ir.NegOp, ir.Cond, ir.ListLit, ir.Func)
_CONST_FILE = "<constant>"
_COMPILED: dict = {}      # generated source -> code object: rulesets share most constants' text
_MAX_COMPILED = 4096


class Scratch:
    """A stand-in state for expressions worked out before the game (parameters, card counts)."""

    def __init__(self, n_locals: int):
        self.vars = [None] * (n_locals + HIDDEN_SLOTS)
        self.zones, self.loc, self.me, self.current, self.turn = [], [], 0, 0, 0


class Folder:
    """Works out constants through the code generator `gen` (its `x(e, env)` and namespace `ns`)."""

    def __init__(self, gen, n_locals: int):
        self.gen, self.n_locals = gen, n_locals
        self.known: dict = {}       # expression (by identity) -> try_const's answer

    def const(self, e, scratch=None):
        """Evaluate an expression that needs no game state (parameters, literals; a card kind's
        `for` variables, bound in scratch)."""
        if isinstance(e, ir.Lit):
            return e.value
        if isinstance(e, ir.Param):
            return self.gen.layout.param_values[e.name]
        st = scratch or Scratch(self.n_locals)
        try:
            return self.function(e)(st, None, st.zones, st.vars)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError, OverflowError) as exc:
            raise RuleRuntimeError(e.pos, f"this value cannot be worked out before the game starts "
                                   f"({failure_words(exc)})") from None

    def function(self, e):
        """The expression as a function f(st, c, Z, V) of the generator's namespace."""
        gen = self.gen
        keep, gen.tmp = gen.tmp, 0        # the same expression gives the same text, found in the cache
        try:
            src = f"lambda st, c, Z, V: ({gen.x(e, {'@card': 'c'})})"
        finally:
            gen.tmp = keep
        code = _COMPILED.get(src)
        if code is None:
            code = self.gen.compile_text(src, _CONST_FILE, {1: e.pos}, "eval")
            if len(_COMPILED) >= _MAX_COMPILED:
                _COMPILED.clear()
            _COMPILED[src] = code
        return eval(code, self.gen.ns)      # code generated from the checked program, never ruleset text

    def try_const(self, e):
        """The value of e when it depends on no state, else NO."""
        if isinstance(e, (ir.Lit, ir.Param)):
            return self.const(e)
        if isinstance(e, ir.Builtin) and e.name in ("players", "seats"):
            return self.const(e)
        found = self.known.get(e, _UNSEEN)
        if found is _UNSEEN:
            found = NO
            if is_static(e):
                try:
                    found = self.const(e)
                except Exception:       # e.g. a division by zero: left for the run time to report
                    pass
            self.known[e] = found
        return found

    def unroll(self, g: ir.Gen, compile_):
        """[(cond or None, expr)] per value of a constant list, the loop variable folded in; else None.

        `compile_` turns each folded expression into what the caller builds (source text)."""
        values = self.try_const(g.iterable)
        if values is NO or not isinstance(values, list) or len(values) > 64:
            return None
        parts = []
        for v in values:
            lit = ir.Lit(g.pos, "any", v)
            cond = None
            if g.cond is not None:
                folded = subst(g.cond, {g.slot: lit})
                known = self.try_const(folded)
                if known is not NO and not known:
                    continue
                cond = None if known is not NO else compile_(folded)
            parts.append((cond, compile_(subst(g.expr, {g.slot: lit}))))
        return parts


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
        return all(is_static(x, depth + 1) for x in ir.children(e))
    return False


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


def deterministic_prefix(rules: ir.Ruleset) -> int:
    """How many leading setup statements give the same result in every game (no shuffle, no
    decision, no pile that could run dry into a reshuffling trigger): run once, not per game."""
    triggered = {d.name for d in rules.zones if d.on_empty}

    def fixed(s) -> bool:
        if isinstance(s, (ir.ChooseS, ir.ShuffleS, ir.CallS, ir.ExtraS, ir.EndS, ir.AnnounceS)):
            return False
        if rules.whenever and isinstance(s, (ir.MoveS, ir.DealS)):
            return False        # a standing rule may run after it, and shuffle
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
    bound = bound_slots(cond)
    for e in subexpressions(cond):
        if isinstance(e, ir.Local) and e.slot in bound:
            continue            # a name the condition binds itself (for m in ..., a function's parameter)
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
    return any(_writes(s, rules, zones, vars_) for s in _all_statements(stmts, rules))


def changers(rules: ir.Ruleset, cond):
    """The positions of the statements whose own lines may change the value of cond, or None when
    any line may (cond reads the turn, a seat or a local, or such a statement has no position to
    tell its lines by). A statement that only nests others (an `if`, a loop, a call, a choice)
    tests and binds in its own lines: the statements inside have lines and positions of their own."""
    if may_change(rules, cond, []):
        return None
    out = set()
    for block in (rules.setup, rules.steps, *rules.procedures.values()):
        for s in _all_statements(block, rules):
            if not isinstance(s, _NESTING) and may_change(rules, cond, [s]):
                if s.pos is None:
                    return None
                out.add(s.pos)
    return out


_NESTING = (ir.IfS, ir.WhileS, ir.ForS, ir.StepS, ir.CallS, ir.ChooseS)


def bound_slots(e) -> set:
    """The local slots an expression binds itself: its generators' names and its functions' parameters."""
    out = set()
    for x in subexpressions(e):
        if isinstance(x, ir.Gen):
            out.add(x.slot)
        elif isinstance(x, ir.UserCall):
            out.update(x.fn.params)
    return out


def _writes(s, rules: ir.Ruleset, zones: set, vars_: set) -> bool:
    """Whether statement s may write one of these zones or variables."""
    if rules.whenever and isinstance(s, (ir.MoveS, ir.DealS)):
        return True             # a standing rule runs after it and may change anything
    if isinstance(s, ir.MoveS):
        src = s.cards.cards if isinstance(s.cards, ir.TopN) else s.cards
        touched = {s.dest.decl.name} | ({src.decl.name} if isinstance(src, ir.ZoneRef) else set(zones))
        if isinstance(src, ir.ZoneRef) and any(d.on_empty for d in rules.zones if d.name == src.decl.name):
            return True         # its trigger may move anything
        return bool(touched & zones)
    if isinstance(s, ir.DealS):
        return bool({s.source.decl.name, s.dest.name} & zones or s.source.decl.on_empty)
    if isinstance(s, ir.ShuffleS):
        return s.zone.decl.name in zones
    if isinstance(s, ir.SetS):
        return s.decl.name in vars_
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
