"""The fast backend: compile a checked ruleset to generated Python functions, once.

Each op of the flat op list becomes one generated function `op(st) -> next pc`; runs of
ops that fall through are merged, so a whole stretch of rules between two decisions is
one call. Expressions become inline Python expressions. Generated text is built only
from the checked program: names are ours, values enter as constants (repr of numbers
and strings, or references to prebuilt tables) — ruleset text is never executed.

The closure compiler (compiler.Program) stays as the reference backend in tests.
"""
from __future__ import annotations

import builtins

from ..runtime import engine as E
from ..frontend import ir
from .compiler import Program, _NO, _PURE, _children, _numeric, index_of, join, may_change, multiply, numbers, subst
from ..errors import RuleRuntimeError
from .statements import ask_op, endless_loop, too_many_turns

MAX_MERGED_LINES = 400
# The only built-in names generated code can reach (no __import__, open, eval, getattr, ...).
_BUILTINS = {name: getattr(builtins, name) for name in (
    "abs", "all", "any", "bool", "len", "list", "map", "max", "min", "range", "reversed", "sum", "tuple")}


class GeneratedProgram(Program):
    """Program whose ops and expressions are generated Python code."""

    def build(self) -> None:
        self.ns: dict = {"E": E, "RuleRuntimeError": RuleRuntimeError, "_h": _Helpers, "__builtins__": _BUILTINS}
        self.const_names: dict = {}
        self.tmp = 0
        self.ops: list = []          # per pc: ("code", lines, falls) or ("fn", closure)
        self.op_pos: list = []
        rules = self.rules
        self.closure_cells()
        # triggers are reached through cells, so that one may take from a zone declared after it
        cells = {d.name: [None] for d in rules.zones if d.on_empty}
        self.trigger_names = {d.name: f"{self.k(cells[d.name])}[0]" if d.on_empty else "None" for d in rules.zones}
        for i, d in enumerate(rules.zones):       # our names in the generated code, never the ruleset's
            if d.on_empty:
                cells[d.name][0] = E.once(self.function_from_block(d.on_empty, f"trigger_{i}"))
        self.proc_entry = {}
        self.lay_out()
        self.finish_code()
        self.compile_scoring()

    def next_pc(self) -> int:
        return len(self.ops)

    def enter_procedure(self, name: str) -> None:
        self.proc_entry[name] = len(self.ops)

    def emit_return(self) -> None:
        self.add_code(["return st.stack.pop()"], False)

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

    def closure(self, e):
        return self.lam(e)

    def lam(self, e, card: bool = False):
        """A closure f(st, c) for an expression (used by decisions, scoring, bots)."""
        src = self.x(e, {"@card": "c"})
        return self.define(f"def _f(st, c):\n    Z = st.zones; V = st.vars\n    return {src}\n", "_f",
                           {3: e.pos})

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
        try:
            code = compile(text, filename, "exec")
        except (SyntaxError, RecursionError, MemoryError) as exc:   # Python's own limits on nesting
            line = getattr(exc, "lineno", None)
            pos = where.get(line) or next((p for p in where.values() if p is not None), None)
            raise RuleRuntimeError(pos, "this rule is nested too deeply to compile (functions inside functions, "
                                   "or brackets inside brackets): split it up with let or smaller functions") from None
        return code

    # ---- expressions ----
    def x(self, e, env: dict) -> str:
        """Python source for an expression; env maps generator slots and '@card' to Python names."""
        return getattr(self, "g_" + type(e).__name__)(e, env)

    def g_Lit(self, e, env):
        return self.k(e.value)

    def g_Param(self, e, env):
        return self.k(self.param_values[e.name])

    def g_Local(self, e, env):
        return env.get(e.slot, f"V[{e.slot}]")

    def g_Var(self, e, env):
        base = self.var_base[e.decl.name]
        if not e.decl.per_player:
            return f"V[{base}]"
        owner = "st.me" if e.owner is None else self.x(e.owner, env)
        return f"V[{base} + {owner}]"

    def g_Builtin(self, e, env):
        return {"current": "st.current", "me": "st.me", "players": str(self.players),
                "seats": f"list(range({self.players}))", "turn": "st.turn"}[e.name]

    def g_CardAttr(self, e, env):
        return f"{self.k(self.attr_tables[e.attr])}[{env['@card']}]"

    def g_GetAttr(self, e, env):
        table, obj = self.k(self.attr_tables[e.attr]), self.x(e.obj, env)
        if e.obj.type in ("cards", "zone"):
            v = self.fresh("a")
            return f"[{table}[{v}] for {v} in {obj}]"
        return f"_h.attr({table}, {obj})"

    def zone_src(self, e: ir.ZoneRef, env) -> str:
        """Source for a zone instance's index."""
        decl = e.decl
        base, width, fam = self.zone_base[decl.name], self.zone_width[decl.name], self.family[decl.name]
        if e.index is None:
            idx = "0"
        else:
            key = self.try_const(e.index)
            idx = str(self.family_pos(fam, key, e)) if key is not _NO else \
                f"{self.k(fam)}[{self.x(e.index, env)}]"
        if not decl.per_player:
            return str(base + int(idx)) if idx.isdigit() else f"{base} + {idx}"
        owner = "st.me" if e.owner is None else f"({self.x(e.owner, env)})"
        off = f"{base + int(idx)}" if idx.isdigit() else f"{base} + {idx}"
        return f"{off} + {owner} * {width}" if width != 1 else f"{off} + {owner}"

    def g_ZoneRef(self, e, env):
        return f"Z[{self.zone_src(e, env)}]"

    def g_Func(self, e, env):
        return getattr(self, "gf_" + e.name)(e, env, *e.args)

    def gf_count(self, e, env, a):
        if isinstance(a, ir.Gen):
            parts = self.unroll_src(a, env)
            if parts is not None:
                return "(" + " + ".join(f"(1 if {c} else 0)" if c else "1" for c, _ in parts) + ")" if parts else "0"
            v, it, cond = self.gen_parts(a, env)
            return f"sum(1 for {v} in {it}" + (f" if {cond})" if cond else ")")
        return f"len({self.x(a, env)})"

    gf_size = gf_count

    def gf_sum(self, e, env, a):
        if isinstance(a, ir.GetAttr) and a.obj.type in ("cards", "zone"):
            return f"sum(map({self.k(self.attr_tables[a.attr])}.__getitem__, {self.x(a.obj, env)}))"
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
        v, it, cond = self.gen_parts(g, env)
        inner = {**env, g.slot: v}
        arg, c = g.expr.args[0], self.fresh("c")
        if isinstance(arg, ir.Filter):
            src, keep = self.x(arg.cards, inner), self.x(arg.cond, {**inner, "@card": c})
        else:
            src, keep = self.x(arg, inner), None
        return (f"len([{c} for {v} in {it}" + (f" if {cond}" if cond else "") + f" for {c} in {src}"
                + (f" if {keep}])" if keep else "])"))

    def gf_min(self, e, env, *args):
        return self.extreme_src("min", args, env)

    def gf_max(self, e, env, *args):
        return self.extreme_src("max", args, env)

    def extreme_src(self, fn, args, env):
        if len(args) > 1:
            return f"{fn}(" + ", ".join(self.x(a, env) for a in args) + ")"
        return f"{fn}({self.seq(args[0], env)}, default=0)"

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
            v, it, cond = self.gen_parts(a, env)
            expr = self.x(a.expr, {**env, a.slot: v})
            return f"[{expr} for {v} in {it}" + (f" if {cond}]" if cond else "]")
        return self.x(a, env)

    def gen_parts(self, g: ir.Gen, env):
        v = self.fresh("v")
        inner = {**env, g.slot: v}
        cond = self.x(g.cond, inner) if g.cond is not None else None
        values = self.try_const(g.iterable)
        if isinstance(values, list):            # worked out once, e.g. numbers(rows * cols)
            return v, self.k(tuple(values)), cond
        return v, f"list({self.x(g.iterable, env)})", cond

    def unroll_src(self, g: ir.Gen, env):
        """[(cond source or None, expr source)] per value of a constant list; None if not constant."""
        return self.unroll(g, lambda e: self.x(e, env))

    def g_Gen(self, e, env):
        return self.seq(e, env)

    def gf_first(self, e, env, a):
        return f"_h.first({self.x(a, env)})"

    def gf_last(self, e, env, a):
        return f"_h.last({self.x(a, env)})"

    def gf_reversed(self, e, env, a):
        return f"list(reversed({self.x(a, env)}))"

    def gf_next(self, e, env, a):
        return f"(({self.x(a, env)}) + 1) % {self.players}"

    def gf_prev(self, e, env, a):
        return f"(({self.x(a, env)}) - 1) % {self.players}"

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
            if all(isinstance(a, _PURE) or isinstance(a, ir.CardAttr) and not _binds_card(e.fn.body)
                   for a in e.args):
                return self.x(subst(e.fn.body, dict(zip(e.fn.params, e.args))), env)
            names = [self.fresh("p") for _ in e.args]
            inner = {**env, **dict(zip(e.fn.params, names))}
            args = ", ".join(self.x(a, env) for a in e.args)
            return f"(lambda {', '.join(names)}: {self.x(e.fn.body, inner)})({args})"
        finally:
            self.inline_depth -= 1

    def g_Bin(self, e, env):
        a, b = self.x(e.left, env), self.x(e.right, env)
        if e.op == "+" and (e.type == "list" or not _numeric(e.left, e.right)):
            return f"_h.join({a}, {b}, {self.k(e.pos)}, {self.limits.items})"
        if e.op == "*" and not (isinstance(self.try_const(e.left), int) or isinstance(self.try_const(e.right), int)):
            return f"_h.multiply({a}, {b}, {self.k(e.pos)})"
        if e.op in "+-*":
            return f"({a} {e.op} {b})"
        pos = self.k(e.pos)
        return f"_h.div({a}, {b}, {pos})" if e.op == "/" else f"_h.mod({a}, {b}, {pos})"

    def g_Cmp(self, e, env):
        return f"({self.x(e.left, env)} {e.op} {self.x(e.right, env)})"

    def g_InOp(self, e, env):
        op = "not in" if e.negate else "in"
        return f"({self.x(e.left, env)} {op} {self.x(e.right, env)})"

    def g_Logic(self, e, env):
        return f"({self.x(e.left, env)} {e.op} {self.x(e.right, env)})"

    def g_NotOp(self, e, env):
        return f"(not {self.x(e.operand, env)})"

    def g_NegOp(self, e, env):
        return f"(-{self.x(e.operand, env)})"

    def g_Cond(self, e, env):
        return f"({self.x(e.then, env)} if {self.x(e.cond, env)} else {self.x(e.orelse, env)})"

    def g_Filter(self, e, env):
        v = self.fresh("c")
        cond = self.x(e.cond, {**env, "@card": v})
        return f"[{v} for {v} in {self.x(e.cards, env)} if {cond}]"

    def g_TopN(self, e, env):
        n = self.x(e.count, env) if e.count is not None else "1"
        fn = "_h.bottom" if e.bottom else "_h.top"
        return f"{fn}({self.x(e.cards, env)}, {n})"

    def g_ListLit(self, e, env):
        return "[" + ", ".join(self.x(i, env) for i in e.items) + "]"

    # ---- ops ----
    def add_code(self, lines: list, falls: bool, pos=None) -> int:
        """Append an op made of source lines; `falls` means it ends by going to the next pc."""
        self.ops.append(("code", lines + ([f"return {len(self.ops) + 1}"] if falls else []), falls))
        self.op_pos.append(pos)
        return len(self.ops) - 1

    def add_fn(self, fn, pos=None) -> int:
        self.ops.append(("fn", fn, False))
        self.op_pos.append(pos)
        return len(self.ops) - 1

    def placeholder(self) -> int:
        self.ops.append(None)
        self.op_pos.append(None)
        return len(self.ops) - 1

    def finish_code(self) -> None:
        """Merge fall-through chains and compile every op."""
        merged: list = [None] * len(self.ops)
        for i in range(len(self.ops) - 1, -1, -1):
            kind, body, falls = self.ops[i]
            if kind != "code":
                continue
            # every line remembers its rule, so that errors name it after ops are merged
            body = [line if isinstance(line, _Line) else _Line(line, self.op_pos[i]) for line in body]
            lines = body
            if falls and i + 1 < len(self.ops) and merged[i + 1] is not None \
                    and len(body) + len(merged[i + 1]) < MAX_MERGED_LINES:
                lines = body[:-1] + merged[i + 1]
            merged[i] = lines
        src, where, n = [], {}, 1
        for i, lines in enumerate(merged):
            if lines is None:
                continue
            src.append(f"def op_{i}(st):\n    Z = st.zones; V = st.vars; L = st.loc\n"
                       + "".join(f"    {line}\n" for line in lines))
            for k, line in enumerate(lines):
                where[n + 2 + k] = line.pos
            n += 3 + len(lines)         # the def line, the Z = ... line, the body, the blank line between
        ns = dict(self.ns)
        exec(self.compile_source("\n".join(src), where), ns)
        self.code = [ns[f"op_{i}"] if merged[i] is not None else self.ops[i][1] for i in range(len(self.ops))]
        self.source = "\n".join(src)

    def emit_start(self) -> None:
        self.add_code([f"st.current = st.me = ({self.x(self.rules.first, {})}) % {self.players}"], True)

    def emit_turn_start(self) -> None:
        self.add_code([
            "st.turn += 1",
            f"if st.turn > {self.limits.turns}: _h.too_many_turns({self.limits.turns}, "
            f"{self.k(self.rules.end_when.pos)})",
            "st.me = st.current",
            "st.extra = False",
            "if st.log is not None: st.log.append((E.TURN, st.current, st.turn))",
        ], True)

    def emit_step(self, stmt) -> None:
        name = stmt.name if isinstance(stmt, ir.StepS) else None
        body = stmt.body if isinstance(stmt, ir.StepS) else [stmt]
        guard = self.placeholder()
        self.emit_block(body)
        first = stmt is self.rules.steps[0]     # the first step also sees what setup and the turn change did
        test = [f"if not st.ending and {self.x(self.rules.end_when, {})}: st.ending = True"] \
            if first or may_change(self.rules, self.rules.end_when, body) else []
        check = self.add_code(test, True)
        lines = [] if name in self.rules.finish else [f"if st.ending: return {check}"]
        self.ops[guard] = ("code", lines + [f"return {guard + 1}"], True)

    def emit_turn_end(self) -> None:
        nxt = self.x(self.rules.next, {}) if self.rules.next is not None else "st.current + 1"
        self.add_code([
            "if st.ending:",
            "    st.over = True",
            "    st.pending = None",
            "    if st.log is not None: st.log.append((E.END,))",
            "    return -1",
            f"if not st.extra: st.current = ({nxt}) % {self.players}",
            f"return {self.turn_start}",
        ], False)

    def emit_block(self, stmts) -> None:
        """Ops for a block: decision-free statements become inline code."""
        run: list = []
        pos = None
        for s in stmts:
            if self.has_decision([s]):
                if run:
                    self.add_code(run, True, pos)
                run, pos = [], None
                getattr(self, "d_" + type(s).__name__)(s)
            else:
                pos = pos or s.pos
                run.extend(self.stmt(s))
        if run:
            self.add_code(run, True, pos)

    def d_IfS(self, s) -> None:
        test = self.placeholder()
        self.emit_block(s.then)
        jump = self.placeholder()
        else_pc = len(self.ops)
        self.emit_block(s.orelse)
        end = len(self.ops)
        self.ops[test] = ("code", [f"return {test + 1} if {self.x(s.cond, {})} else {else_pc}"], False)
        self.ops[jump] = ("code", [f"return {end}"], False)
        self.op_pos[test] = s.pos

    def d_ForS(self, s) -> None:
        lst, idx = self.new_slot(), self.new_slot()
        self.add_code([f"V[{lst}] = list({self.x(s.iterable, {})})", f"V[{idx}] = 0"], True, s.pos)
        head = self.placeholder()
        self.emit_block(s.body)
        self.add_code([f"return {head}"], False)
        end = len(self.ops)
        self.ops[head] = ("code", [
            f"i = V[{idx}]",
            f"if i >= len(V[{lst}]): return {end}",
            f"V[{s.slot}] = V[{lst}][i]",
            f"V[{idx}] = i + 1",
            f"return {head + 1}",
        ], False)

    def d_WhileS(self, s) -> None:
        head = self.placeholder()
        self.emit_block(s.body)
        self.add_code([f"return {head}"], False)
        end = len(self.ops)
        self.ops[head] = ("code", [f"return {head + 1} if {self.x(s.cond, {})} else {end}"], False)
        self.op_pos[head] = s.pos
        self.loops.append((head, end, s.pos))

    def d_StepS(self, s) -> None:
        self.emit_block(s.body)

    def d_CallS(self, s) -> None:
        here = len(self.ops)
        cell = self.proc_entry

        def call(st, name=s.name):
            st.stack.append(here + 1)
            return cell[name]
        self.add_fn(call, s.pos)

    def d_ChooseS(self, s) -> None:
        dec = self.decision(s)
        self.add_fn(ask_op(dec, self.lam(s.by) if s.by is not None else None, len(self.ops)), s.pos)
        if dec.kind != "options":
            return
        dispatch = self.placeholder()
        starts, jumps = [], []
        for opt in s.options:
            starts.append(len(self.ops))
            self.emit_block(opt.body)
            jumps.append(self.placeholder())
        end = len(self.ops)
        for j in jumps:
            self.ops[j] = ("code", [f"return {end}"], False)
        self.ops[dispatch] = ("code", [f"return {self.k(tuple(starts))}[V[{dec.option_slot}]]"], False)

    # ---- decision-free statements: lists of source lines ----
    def function_from_block(self, stmts, name: str):
        """Compile a block into a standalone function f(st) (triggers)."""
        lines = self.lines(stmts) or ["pass"]
        where = {3 + k: getattr(line, "pos", None) for k, line in enumerate(lines)}
        return self.define(f"def {name}(st):\n    Z = st.zones; V = st.vars; L = st.loc\n"
                           + "".join(f"    {line}\n" for line in lines), name, where)

    def lines(self, stmts) -> list:
        out = []
        for s in stmts:
            out.extend(self.stmt(s))
        return out

    def stmt(self, s) -> list:
        """Source lines for a statement, each tagged with its rule (nested statements keep theirs)."""
        return [line if isinstance(line, _Line) else _Line(line, s.pos)
                for line in getattr(self, "l_" + type(s).__name__)(s)]

    def l_LetS(self, s):
        return [f"V[{s.slot}] = {self.x(s.value, {})}"]

    def l_SetS(self, s):
        base, name = self.var_base[s.decl.name], repr(s.decl.name)
        if not s.decl.per_player:
            return [f"V[{base}] = {self.x(s.value, {})}",
                    f"if st.log is not None: st.log.append((E.SET, {name}, None, V[{base}]))"]
        owner, o = "st.me" if s.owner is None else self.x(s.owner, {}), self.fresh("o")
        return [f"{o} = {owner}", f"V[{base} + {o}] = {self.x(s.value, {})}",
                f"if st.log is not None: st.log.append((E.SET, {name}, {o}, V[{base} + {o}]))"]

    def l_ExtraS(self, s):
        return ["st.extra = True"]

    def l_EndS(self, s):
        return ["st.ending = True"]

    def l_CallS(self, s):
        return self.lines(self.rules.procedures[s.name]) or ["pass"]

    def l_StepS(self, s):
        return self.lines(s.body)

    def l_IfS(self, s):
        out = [f"if {self.x(s.cond, {})}:"] + _indent(self.lines(s.then) or ["pass"])
        if s.orelse:
            out += ["else:"] + _indent(self.lines(s.orelse))
        return out

    def l_ForS(self, s):
        v = self.fresh("i")
        return [f"for {v} in list({self.x(s.iterable, {})}):", f"    V[{s.slot}] = {v}"] + _indent(self.lines(s.body))

    def l_WhileS(self, s):
        n = self.fresh("n")
        return [f"{n} = 0", f"while {self.x(s.cond, {})}:"] + _indent(self.lines(s.body) + [
            f"{n} += 1", f"if {n} > {self.limits.loops}: _h.endless({self.limits.loops}, {self.k(s.pos)}, st)"])

    def l_ShuffleS(self, s):
        z = self.zone_src(s.zone, {})
        return [f"E.shuffle_zone(st, {z}, {self.k(self.card_type)}, {self.k(self.zone_names)}[{z}], "
                f"{self.k(self.zone_vis)}[{z}])"]

    def l_DealS(self, s):
        src = self.zone_src(s.source, {})
        first = self.x(s.starting, {}) if s.starting is not None else "st.current"
        trig = self.trigger_names[s.source.decl.name]
        return [f"E.deal(st, {self.x(s.count, {})}, {src}, {first}, {self.zone_base[s.dest.name]}, "
                f"{self.zone_width[s.dest.name]}, {self.players}, {trig}, {self.k(self.zone_vis)})"]

    def l_MoveS(self, s):
        d, src, vis = self.zone_src(s.dest, {}), s.cards, self.k(self.zone_vis)
        m, b = self.fresh("m"), s.bottom
        log = f"if st.log is not None: E.log_move(st, {{z}}, {d}, {m}, {vis}, {b})"
        # a zone declared alike: only its moves check the cards' types (the others cost nothing)
        check = (lambda cs: [f"{self.k(self.check_alike)}(st, {cs}, {d}, {self.k(s.pos)})"]) \
            if s.dest.decl.alike else (lambda cs: [])
        if isinstance(src, ir.ZoneRef):
            z, zv = self.zone_src(src, {}), self.fresh("z")
            c = self.fresh("c")
            same = "" if (z.isdigit() and d.isdigit() and z != d) else f" and {zv} is not Z[{d}]"
            put = f"Z[{d}][0:0] = {m}" if b else f"Z[{d}].extend({m})"
            return [f"{zv} = Z[{z}]", f"if {zv}{same}:"] + _indent(check(zv)) + [
                f"    {m} = {zv}[:]", f"    {zv}.clear()", f"    {put}", f"    for {c} in {m}: L[{c}] = {d}",
                "    " + log.format(z=z)]
        if isinstance(src, ir.TopN) and isinstance(src.cards, ir.ZoneRef):
            z = self.zone_src(src.cards, {})
            n = self.x(src.count, {}) if src.count is not None else "1"
            trig = self.trigger_names[src.cards.decl.name]
            return [f"{m} = E.take_top(st, {z}, {n}, {trig}, {src.bottom})", f"if {m}:"] + _indent(check(m)) + [
                f"    E.place(st, {m}, {d}, {b})", "    " + log.format(z=z)]
        # cards from several zones land group by group, in the order the events tell it
        # (under a pile, the last group goes first, so that the groups keep their order)
        groups = f"reversed(E.remove(st, {m}))" if b else f"E.remove(st, {m})"
        return [f"{m} = list({self.x(src, {})})", f"if {m}:", f"    for _z, _cs in {groups}:"] + \
            _indent(_indent(check("_cs"))) + [
                f"        E.place(st, _cs, {d}, {b})",
                f"        if st.log is not None: E.log_move(st, _z, {d}, _cs, {vis}, {b})"]


class _Line(str):
    """A line of generated source that knows the rule (position) it comes from."""

    def __new__(cls, text: str, pos):
        line = super().__new__(cls, text)
        line.pos = pos
        return line


def _indent(lines: list) -> list:
    return [_Line("    " + line, getattr(line, "pos", None)) for line in lines]


class _Helpers:
    """Small run-time helpers the generated code calls."""

    @staticmethod
    def attr(table, card):
        if card is None:
            return None
        if isinstance(card, list):
            return [table[c] for c in card]
        return table[card]

    @staticmethod
    def first(xs):
        return xs[0] if xs else None

    @staticmethod
    def last(xs):
        return xs[-1] if xs else None

    @staticmethod
    def top(xs, n):
        return xs[max(0, len(xs) - n):] if n > 0 else []

    @staticmethod
    def bottom(xs, n):
        return xs[:n] if n > 0 else []

    @staticmethod
    def at(xs, i, pos):
        if not 0 <= i < len(xs):
            raise RuleRuntimeError(pos, f"index {i} is outside the list (it has {len(xs)} items)")
        return xs[i]

    index = staticmethod(index_of)
    numbers = staticmethod(numbers)
    join = staticmethod(join)
    multiply = staticmethod(multiply)

    @staticmethod
    def div(a, b, pos):
        if b == 0:
            raise RuleRuntimeError(pos, "division by zero")
        return a // b

    @staticmethod
    def mod(a, b, pos):
        if b == 0:
            raise RuleRuntimeError(pos, "division by zero")
        return a % b

    @staticmethod
    def too_many_turns(limit, pos):
        raise RuleRuntimeError(pos, too_many_turns(limit))

    @staticmethod
    def endless(limit, pos, st):
        raise RuleRuntimeError(pos, endless_loop(limit, st))



def _binds_card(e) -> bool:
    """Whether e holds a `where` filter, inside which a card attribute means another card (so a
    card attribute passed in cannot be written into the body as it stands)."""
    return isinstance(e, ir.Filter) or any(_binds_card(x) for x in _children(e))
