"""Compile statements: decision-free ones to closures run(state), the rest to pc ops.

A mixin of compiler.Program; `build()` lays out the whole flow:
  first player -> setup -> [turn start -> steps (each followed by the end check) -> turn end] loop.
"""
from __future__ import annotations

from ..runtime import engine as E
from ..frontend import ir
from ..runtime.decisions import CardSpec, Decision
from ..errors import RuleRuntimeError

MAX_TURNS = E.DEFAULT_LIMITS.turns     # the defaults; a program reads its own from self.limits
MAX_LOOPS = E.DEFAULT_LIMITS.loops


class Statements:
    """Statement compilation for Program (see compiler.py)."""

    def build(self) -> None:
        rules = self.rules
        self.closure_cells()
        self.proc_cells = {name: [None] for name in rules.procedures}
        self.lay_out()
        self.compile_scoring()

    def lay_out(self) -> None:
        """The flow, the same in both backends: first player, setup, the turn loop, then the
        procedures that ask for decisions (entered with a return address)."""
        rules = self.rules
        self.emit_start()
        self.emit_block(rules.setup[self.prefix:])
        self.turn_start = self.next_pc()
        self.emit_turn_start()
        for stmt in rules.steps:
            self.emit_step(stmt)
        self.emit_turn_end()
        for name, body in rules.procedures.items():
            if self.has_decision(body):
                self.enter_procedure(name)
                self.emit_block(body)
                self.emit_return()

    def next_pc(self) -> int:
        return len(self.code)

    def enter_procedure(self, name: str) -> None:
        self.proc_cells[name][0] = len(self.code)

    def emit_return(self) -> None:
        self.emit(lambda st: st.stack.pop())

    def closure_cells(self) -> None:
        """Triggers and decision-free procedures as closures (also used to run the setup's fixed start)."""
        rules = self.rules
        self.proc_fns = {name: [None] for name in rules.procedures}
        self.trigger_cells = {d.name: [None] for d in rules.zones}
        for d in rules.zones:
            self.trigger_cells[d.name][0] = E.once(self.block_fn(d.on_empty)) if d.on_empty else None
        for name, body in rules.procedures.items():
            if not self.has_decision(body):
                self.proc_fns[name][0] = self.block_fn(body)

    # ---- which statements need the pc ----
    def has_decision(self, stmts) -> bool:
        for s in stmts:
            if isinstance(s, ir.ChooseS):
                return True
            if isinstance(s, ir.CallS) and self.has_decision(self.rules.procedures.get(s.name, [])):
                return True
            for attr in ("then", "orelse", "body"):
                if self.has_decision(getattr(s, attr, None) or []):
                    return True
        return False

    # ---- the flow ----
    def emit(self, op, pos=None) -> int:
        """Append an op (and the position of its rule, for errors while it runs)."""
        self.code.append(op)
        self.op_pos.append(pos)
        return len(self.code) - 1

    def emit_start(self) -> None:
        first = self.expr(self.rules.first)
        n = self.players

        def start(st):
            st.current = st.me = first(st, None) % n
            return 1
        self.emit(start)

    def emit_turn_start(self) -> None:
        nxt = self.turn_start + 1
        max_turns, pos = self.limits.turns, self.rules.end_when.pos

        def turn_start(st):
            st.turn += 1
            if st.turn > max_turns:
                raise RuleRuntimeError(pos, too_many_turns(max_turns))
            st.me = st.current
            st.extra = False
            if st.log is not None:
                st.log.append((E.TURN, st.current, st.turn))
            return nxt
        self.emit(turn_start)

    def emit_step(self, stmt) -> None:
        """A top-level step: skipped once the game is ending unless named in end.finish."""
        name = stmt.name if isinstance(stmt, ir.StepS) else None
        body = stmt.body if isinstance(stmt, ir.StepS) else [stmt]
        finishing = name in self.rules.finish
        guard = self.emit(None)
        self.emit_block(body)
        end, here = self.end_check_fn(), len(self.code)

        def end_check(st):
            if not st.ending and end(st, None):
                st.ending = True
            return here + 1
        self.emit(end_check)
        skip = here
        if finishing:
            self.code[guard] = lambda st: guard + 1
        else:
            self.code[guard] = lambda st: skip if st.ending else guard + 1

    def end_check_fn(self):
        return self.expr(self.rules.end_when)

    def emit_turn_end(self) -> None:
        n, start = self.players, self.turn_start
        nxt = self.expr(self.rules.next) if self.rules.next is not None else None

        def turn_end(st):
            if st.ending:
                st.over = True
                st.pending = None
                if st.log is not None:
                    st.log.append((E.END,))
                return -1
            if not st.extra:
                st.current = nxt(st, None) % n if nxt is not None else (st.current + 1) % n
            return start
        self.emit(turn_end)

    # ---- blocks ----
    def emit_block(self, stmts) -> None:
        """Emit ops for a block, merging runs of decision-free statements into one op."""
        run: list = []
        pos = None
        for s in stmts:
            if self.has_decision([s]):
                self.flush(run, pos)
                run, pos = [], None
                getattr(self, "emit_" + type(s).__name__)(s)
            else:
                run.append(self.simple(s))
                pos = pos or s.pos
        self.flush(run, pos)

    def flush(self, fns: list, pos=None) -> None:
        if not fns:
            return
        nxt = len(self.code) + 1
        if len(fns) == 1:
            f = fns[0]

            def op(st):
                f(st)
                return nxt
        else:
            fns = tuple(fns)

            def op(st):
                for f in fns:
                    f(st)
                return nxt
        self.emit(op, pos)

    def emit_IfS(self, s) -> None:
        cond = self.expr(s.cond)
        test = self.emit(None, s.pos)
        self.emit_block(s.then)
        jump = self.emit(None)
        else_pc = len(self.code)
        self.emit_block(s.orelse)
        end = len(self.code)
        self.code[test] = lambda st: test + 1 if cond(st, None) else else_pc
        self.code[jump] = lambda st: end

    def emit_ForS(self, s) -> None:
        it, slot = self.expr(s.iterable), s.slot
        lst, idx = self.new_slot(), self.new_slot()
        init = len(self.code)

        def start(st):
            st.vars[lst] = list(it(st, None))
            st.vars[idx] = 0
            return init + 1
        self.emit(start, s.pos)
        head = self.emit(None, s.pos)
        self.emit_block(s.body)
        self.emit(lambda st: head)
        end = len(self.code)

        def loop(st):
            vars_ = st.vars
            i, items = vars_[idx], vars_[lst]
            if i >= len(items):
                return end
            vars_[slot] = items[i]
            vars_[idx] = i + 1
            return head + 1
        self.code[head] = loop

    def emit_WhileS(self, s) -> None:
        cond = self.expr(s.cond)
        head = self.emit(None, s.pos)
        self.emit_block(s.body)
        self.emit(lambda st: head)
        end = len(self.code)
        self.code[head] = lambda st: head + 1 if cond(st, None) else end
        self.loops.append((head, end, s.pos))

    def emit_StepS(self, s) -> None:
        self.emit_block(s.body)

    def emit_CallS(self, s) -> None:
        cell, here = self.proc_cells[s.name], len(self.code)

        def call(st):
            st.stack.append(here + 1)
            return cell[0]
        self.emit(call, s.pos)

    def emit_ChooseS(self, s) -> None:
        dec = self.decision(s)
        self.emit(ask_op(dec, self.closure(s.by) if s.by is not None else None, len(self.code)), s.pos)
        if dec.kind != "options":
            return
        dispatch = self.emit(None)
        starts, jumps = [], []
        for opt in s.options:
            starts.append(len(self.code))
            self.emit_block(opt.body)
            jumps.append(self.emit(None))
        end = len(self.code)
        for j in jumps:
            self.code[j] = lambda st: end
        targets, slot = tuple(starts), dec.option_slot
        self.code[dispatch] = lambda st: targets[st.vars[slot]]

    def decision(self, s) -> Decision:
        """The compiled form of a choose (shared by both backends through self.closure)."""
        dec = Decision(len(self.decisions), s.name, s.slot, s.pos)
        dec.max_moves = self.limits.moves
        if s.cards is not None:
            dec.cards = self.card_spec(s.cards, dec)
        elif s.values is not None:
            dec.kind = "value"
            dec.values = self.closure(s.values)
            dec.where = self.closure(s.where) if s.where is not None else None
        else:
            dec.kind = "options"
            dec.options = [(o.name, o.slot, self.card_spec(o.cards, dec) if o.cards else None) for o in s.options]
            dec.option_slot = self.new_slot()
        self.decisions.append(dec)
        return dec

    def card_spec(self, cc, dec: Decision | None = None) -> CardSpec:
        same = self.type_tables[cc.same] if cc.same else None
        where = self.closure(cc.where) if cc.where is not None else None
        spec = CardSpec(self.closure(cc.cards), where, self.closure(cc.lo),
                        self.closure(cc.hi) if cc.hi is not None else None, same, self.card_type, self.type_names)
        spec.decision, spec.max_moves = dec, self.limits.moves
        base = ir.base_of(cc.cards)
        if not (isinstance(base, ir.ZoneRef) and base.decl.visible == "everyone"):     # else nothing to guard
            spec.zone_vis, spec.zone_names, spec.pos = self.zone_vis, self.zone_names, cc.cards.pos
            spec.one_zone = isinstance(base, ir.ZoneRef)     # all candidates lie in one zone: check one
        return spec

    # ---- decision-free statements ----
    def block_fn(self, stmts):
        fns = tuple(self.simple(s) for s in stmts)
        if len(fns) == 1:
            return fns[0]

        def run(st):
            for f in fns:
                f(st)
        return run

    def simple(self, s):
        """A closure run(state) for a statement without decisions."""
        return getattr(self, "s_" + type(s).__name__)(s)

    def s_LetS(self, s):
        slot, f = s.slot, self.expr(s.value)

        def let(st):
            st.vars[slot] = f(st, None)
        return let

    def s_SetS(self, s):
        base, f = self.var_base[s.decl.name], self.expr(s.value)
        name = s.decl.name
        if not s.decl.per_player:
            def set_(st):
                st.vars[base] = v = f(st, None)
                if st.log is not None:
                    st.log.append((E.SET, name, None, v))
            return set_
        owner = self.expr(s.owner) if s.owner is not None else (lambda st, c: st.me)

        def set_each(st):
            o = owner(st, None)
            st.vars[base + o] = v = f(st, None)
            if st.log is not None:
                st.log.append((E.SET, name, o, v))
        return set_each

    def s_ExtraS(self, s):
        def extra(st):
            st.extra = True
        return extra

    def s_EndS(self, s):
        def end(st):
            st.ending = True
        return end

    def s_CallS(self, s):
        cell = self.proc_fns[s.name]
        return lambda st: cell[0](st)

    def s_IfS(self, s):
        cond, then, orelse = self.expr(s.cond), self.block_fn(s.then), self.block_fn(s.orelse)

        def if_(st):
            if cond(st, None):
                then(st)
            else:
                orelse(st)
        return if_

    def s_ForS(self, s):
        it, slot, body = self.expr(s.iterable), s.slot, self.block_fn(s.body)

        def for_(st):
            vars_ = st.vars
            for v in list(it(st, None)):
                vars_[slot] = v
                body(st)
        return for_

    def s_WhileS(self, s):
        cond, body, pos, max_loops = self.expr(s.cond), self.block_fn(s.body), s.pos, self.limits.loops

        def while_(st):
            n = 0
            while cond(st, None):
                body(st)
                n += 1
                if n > max_loops:
                    raise RuleRuntimeError(pos, endless_loop(max_loops, st))
        return while_

    def s_StepS(self, s):
        return self.block_fn(s.body)

    def s_ShuffleS(self, s):
        zi, types, names, vis = self.zone_index(s.zone), self.card_type, self.zone_names, self.zone_vis
        if isinstance(zi, int):
            return lambda st: E.shuffle_zone(st, zi, types, names[zi], vis[zi])

        def shuffle(st):
            z = zi(st, None)
            E.shuffle_zone(st, z, types, names[z], vis[z])
        return shuffle

    def s_DealS(self, s):
        count, src, trig = self.expr(s.count), self.zone_index(s.source), self.trigger_cells[s.source.decl.name]
        start = self.expr(s.starting) if s.starting is not None else None
        base, width, n, vis = self.zone_base[s.dest.name], self.zone_width[s.dest.name], self.players, self.zone_vis
        src_of = _fixed(src)

        def deal(st):
            first = start(st, None) if start is not None else st.current
            E.deal(st, count(st, None), src_of(st), first, base, width, n, trig[0], vis)
        return deal

    def s_MoveS(self, s):
        dst_of, src, vis, under = _fixed(self.zone_index(s.dest)), s.cards, self.zone_vis, s.bottom
        guard, pos = (self.check_alike if s.dest.decl.alike else None), s.pos
        if isinstance(src, ir.ZoneRef):
            src_of = _fixed(self.zone_index(src))

            def move_all(st):
                z, d = src_of(st), dst_of(st)
                cards = st.zones[z]
                if not cards or z == d:
                    return
                if guard:
                    guard(st, cards, d, pos)
                moved = cards[:]
                cards.clear()
                E.place(st, moved, d, under)
                if st.log is not None:
                    E.log_move(st, z, d, moved, vis, under)
            return move_all
        if isinstance(src, ir.TopN) and isinstance(src.cards, ir.ZoneRef):
            src_of = _fixed(self.zone_index(src.cards))
            count = self.expr(src.count) if src.count is not None else (lambda st, c: 1)
            trig, bottom = self.trigger_cells[src.cards.decl.name], src.bottom

            def move_top(st):
                z, d = src_of(st), dst_of(st)
                moved = E.take_top(st, z, count(st, None), trig[0], bottom)
                if moved:
                    if guard:
                        guard(st, moved, d, pos)
                    E.place(st, moved, d, under)
                    if st.log is not None:
                        E.log_move(st, z, d, moved, vis, under)
            return move_top
        cards_of = self.expr(src)

        def move_cards(st):
            cards = list(cards_of(st, None))
            if not cards:
                return
            d = dst_of(st)
            groups = E.remove(st, cards)
            # group by group, in the order the events tell it; under a pile the last group goes first
            for z, group in (reversed(groups) if under else groups):
                if guard:
                    guard(st, group, d, pos)
                E.place(st, group, d, under)
                if st.log is not None:
                    E.log_move(st, z, d, group, vis, under)
        return move_cards


def too_many_turns(limit: int) -> str:
    return f"the game passed {limit:,} turns without ending: check the end condition (limit: --max-turns)"


def endless_loop(limit: int, st) -> str:
    return f"this loop ran {limit:,} times in turn {st.turn}: it never ends (limit: --max-loops)"


def ask_op(dec: Decision, by, here: int):
    """The op that pauses at a decision: who decides, and where to resume."""
    def ask(st):
        st.pending = dec
        st.decider = by(st, None) if by is not None else st.current
        st.pc = here + 1
        return -1
    return ask


def _fixed(zi):
    """A zone index (int or closure) as a one-argument closure."""
    if isinstance(zi, int):
        return lambda st: zi
    return lambda st: zi(st, None)
