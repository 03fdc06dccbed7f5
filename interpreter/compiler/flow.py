"""The flat op list: the rules laid out as ops `op(st) -> next pc`, each one generated function.

The flow: first player -> the setup after its deterministic prefix -> the turn loop [turn start ->
each step (skipped once the game is ending, unless it finishes the game) followed by the end check
-> turn end] -> the procedures that hold a decision (entered with a return address on the stack).
Statements holding a decision get ops of their own, so the position in the rules stays in the
state; runs of ops that fall through are merged, so a stretch of rules between two decisions is
one call (the turn's end goes on into the next turn's start in the same call). Within one op, an end
check that nothing since the last one can have changed is left out, and a finishing step's `if` on
the end condition shares the check's value.
"""
from __future__ import annotations

import re

from ..frontend import ir
from ..runtime.decisions import Decision
from ..runtime.simultaneous import Simultaneous
from .choices import Choices
from .codegen import prologue
from .fold import changers, may_change
from .statements import Line

MAX_MERGED_LINES = 400


def has_decision(rules: ir.Ruleset, stmts) -> bool:
    """Whether a block asks for a decision (in nested blocks or called procedures too)."""
    for s in stmts:
        if isinstance(s, ir.ChooseS):
            return True
        if isinstance(s, ir.CallS) and has_decision(rules, rules.procedures.get(s.name, [])):
            return True
        for attr in ("then", "orelse", "body"):
            if has_decision(rules, getattr(s, attr, None) or []):
                return True
    return False


def thread_jumps(merged: list) -> list:
    """Each jump to a short op (one-way `return A`, two-way `return A if c else B`, or a guard
    `if c: return A`, on any line of an op) is replaced by that op's lines, themselves threaded so,
    as deep as the jumps go, so a turn makes fewer calls; the ops stay as they were. An op is taken in
    while its own lines are few (MAX_THREADED_LINES) and threaded they stay under MAX_TAKEN_IN, never
    inside itself (a loop keeps its jump back), and an op stops taking others in at MAX_OP_LINES.
    A two-way jump takes in the lines of both when both are short, else A's, or else B's. A jump to
    an op that only jumps on goes where that one goes first."""
    merged = skip_jumps(merged)
    done: dict = {}

    def taken_in(k: int, chain: frozenset):
        if k in chain or not 0 <= k < len(merged) or not merged[k] or len(merged[k]) > MAX_THREADED_LINES:
            return None
        lines = threaded(k, chain)
        return lines if len(lines) <= MAX_TAKEN_IN else None

    def threaded(i: int, chain: frozenset) -> list:
        if i not in done:
            inner, out = chain | {i}, []
            for line in merged[i]:
                out.extend([line] if len(out) > MAX_OP_LINES else _expand(line, lambda k: taken_in(k, inner)))
            done[i] = out
        return done[i]

    return [threaded(i, frozenset()) if lines else lines for i, lines in enumerate(merged)]


def _expand(line, taken_in) -> list:
    """The lines that replace one line: a jump to an op that can be taken in becomes its lines."""
    pad, text = line[:len(line) - len(line.lstrip(" "))], line.lstrip(" ")
    jump = _JUMP.fullmatch(text)
    if jump is not None:
        got = taken_in(int(jump.group(1)))
        return [line] if got is None else _indented(got, pad)
    guard = _GUARD.fullmatch(text)
    if guard is not None:
        got = taken_in(int(guard.group(2)))
        return [line] if got is None else [Line(f"{pad}if {guard.group(1)}:", line.pos)] + _indented(got, pad + "    ")
    fork = _FORK.fullmatch(text)
    if fork is None:
        return [line]
    a, cond, b = int(fork.group(1)), fork.group(2), int(fork.group(3))
    got_a, got_b = taken_in(a), taken_in(b)
    if got_a is not None:
        tail = _indented(got_b, pad) if got_b is not None else [Line(f"{pad}return {b}", line.pos)]
        return [Line(f"{pad}if {cond}:", line.pos)] + _indented(got_a, pad + "    ") + tail
    if got_b is not None:
        return [Line(f"{pad}if not ({cond}):", line.pos)] + _indented(got_b, pad + "    ") + [Line(f"{pad}return {a}", line.pos)]
    return [line]


def skip_jumps(merged: list) -> list:
    """The ops with each last jump (one-way or two-way) to an op that is nothing but a jump sent on
    to where that chain of jumps ends."""
    def end(k: int) -> int:
        seen = set()
        while k not in seen and 0 <= k < len(merged) and merged[k] and len(merged[k]) == 1:
            hop = _JUMP.fullmatch(merged[k][0])
            if hop is None:
                break
            seen.add(k)
            k = int(hop.group(1))
        return k

    out = list(merged)
    for i, lines in enumerate(merged):
        if not lines:
            continue
        last = lines[-1]
        jump, fork = _JUMP.fullmatch(last), _FORK.fullmatch(last)
        if jump is not None:
            out[i] = lines[:-1] + [Line(f"return {end(int(jump.group(1)))}", last.pos)]
        elif fork is not None:
            a, cond, b = end(int(fork.group(1))), fork.group(2), end(int(fork.group(3)))
            out[i] = lines[:-1] + [Line(f"return {a} if {cond} else {b}", last.pos)]
    return out


def share_end_test(lines: list, fresh) -> list:
    """An op's lines with each end check that is followed at once by an `if` on the same condition
    (a finishing step that asks what the end asks) working the condition out once for both: nothing
    runs between the two. Each evaluation keeps its line (its rule, for errors): the check's when the
    game is not ending yet, the if's when it is (the check did not work it out then)."""
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        pad, text = line[:len(line) - len(line.lstrip(" "))], line.lstrip(" ")
        check = _END_CHECK.fullmatch(text)
        after = lines[i + 1] if i + 1 < len(lines) else None
        if check is None or after != f"{pad}if {check.group(1)}:":
            out.append(line)
            i += 1
            continue
        v, cond = fresh("e"), check.group(1)
        out += [Line(f"{pad}if st.ending: {v} = {cond}", after.pos),
                Line(f"{pad}elif ({v} := {cond}): st.ending = True", line.pos), Line(f"{pad}if {v}:", after.pos)]
        i += 2
    return out


def take_in_turn_start(merged: list, start: int) -> list:
    """The ops that end by jumping to the turn start (the turn's end) ending with its lines instead,
    while they stay under MAX_OP_LINES: a call less a turn, and the end check the turn's end worked
    out is still known where the next turn would check it again (drop_repeated_checks)."""
    head = merged[start] if 0 <= start < len(merged) else None
    if not head:
        return merged
    return [lines[:-1] + head if lines and i != start and lines[-1] == f"return {start}"
            and len(lines) + len(head) <= MAX_OP_LINES else lines for i, lines in enumerate(merged)]


def drop_repeated_checks(lines: list, writers) -> list:
    """An op's lines without each end check that comes after another in the same block with no line
    between from a statement that may change the condition (`writers`: their positions, None when
    any may): it would find what the first found (the game is ending, or the condition was false and
    still is). E.g. the next turn's first check, in the turn's end that took in the turn start."""
    if writers is None:
        return lines
    out, checked = [], set()        # the indents of the blocks whose last end check still holds
    for line in lines:
        pad, text = len(line) - len(line.lstrip(" ")), line.lstrip(" ")
        checked = set() if line.pos in writers else {p for p in checked if p <= pad}    # a block left: its own go
        if _END_CHECK.fullmatch(text):
            if pad in checked:
                continue
            checked.add(pad)
        elif _SHARED_CHECK.fullmatch(text):
            checked.add(pad)
        out.append(line)
    return out


def _indented(lines: list, pad: str = "    ") -> list:
    return [Line(pad + line, line.pos) for line in lines]


_JUMP = re.compile(r"return (\d+)")
_FORK = re.compile(r"return (\d+) if (.+) else (\d+)")     # the last ' else ' is the jump's own
_GUARD = re.compile(r"if (.+): return (\d+)")               # the last ': return ' is the guard's own
_END_CHECK = re.compile(r"if not st\.ending and (.+): st\.ending = True")     # emit_step's end check
_SHARED_CHECK = re.compile(r"elif \(_e\d+ := .+\): st\.ending = True")         # ... shared (share_end_test)
MAX_THREADED_LINES = 8      # an op taken in at a jump has at most this many lines of its own
MAX_TAKEN_IN = 60           # ... and at most this many once its own jumps are threaded
MAX_OP_LINES = 200          # an op this long takes in no more


class Flow:
    """Builds the op list of a ruleset from the generators of expressions (`gen`) and statements."""

    def __init__(self, gen, stmts):
        self.gen, self.stmts, self.rules, self.layout, self.limits = gen, stmts, gen.rules, gen.layout, gen.limits
        self.cov = stmts.cov        # counts coverage inside the ops there are anyway: the same ops run
        self.ops: list = []          # per pc: ("code", lines, falls) or ("fn", function)
        self.op_pos: list = []       # per pc: the position of its rule, or None
        self.loops: list = []        # (first pc, end pc, position) of every while loop holding a decision
        self.decisions: list = []
        self.choices = Choices(gen, self.limits)
        self.proc_entry: dict = {}   # procedure holding a decision -> its first pc
        self.calls: list = []        # (pc, call) of every call of a procedure holding a decision
        self.extra_slots = self.layout.n_locals
        self.card_lists: list = []      # hidden slots holding a list of card ids (a for loop's list)
        self.turn_start = 0
        self.code: list = []
        self.source = ""

    def lay_out(self, prefix: int) -> None:
        """Every op, in the order of the flow, then the compiled code list."""
        rules = self.rules
        self.emit_start()
        self.emit_block(rules.setup[prefix:])
        self.turn_start = len(self.ops)
        self.emit_turn_start()
        for stmt in rules.steps:
            self.emit_step(stmt)
        self.emit_turn_end()
        for name, body in rules.procedures.items():
            if has_decision(rules, body):
                self.proc_entry[name] = len(self.ops)
                self.emit_block(body)
                self.add_code(["return st.stack.pop()"], False)
        for pc, s in self.calls:        # the entries are known now
            self.ops[pc] = ("code", self.stmts.bind_arguments(s) + [f"st.stack.append({pc + 1})",
                                                                   f"return {self.proc_entry[s.name]}"], False)
        self.finish_code()

    def new_slot(self) -> int:
        """A hidden variable slot of the flow's own (a loop's list and index, an option's number)."""
        slot = self.extra_slots
        self.extra_slots += 1
        return slot

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
            body = [line if isinstance(line, Line) else Line(line, self.op_pos[i]) for line in body]
            lines = body
            if falls and i + 1 < len(self.ops) and merged[i + 1] is not None \
                    and len(body) + len(merged[i + 1]) < MAX_MERGED_LINES:
                lines = body[:-1] + merged[i + 1]
            merged[i] = lines
        merged = take_in_turn_start(thread_jumps(merged), self.turn_start)
        writers = changers(self.rules, self.rules.end_when)
        merged = [drop_repeated_checks(share_end_test(lines, self.gen.fresh), writers) if lines else lines
                  for lines in merged]
        src, where, n = [], {}, 1
        for i, lines in enumerate(merged):
            if lines is None:
                continue
            body = "".join(f"    {line}\n" for line in lines)
            src.append(f"def op_{i}(st):\n{prologue(body)}{body}")
            for k, line in enumerate(lines):
                where[n + 2 + k] = line.pos
            n += 3 + len(lines)         # the def line, the prologue line, the body, the blank line between
        ns = dict(self.gen.ns)
        exec(self.gen.compile_source("\n".join(src), where), ns)    # generated text, never ruleset text
        self.code = [ns[f"op_{i}"] if merged[i] is not None else self.ops[i][1] for i in range(len(self.ops))]
        self.source = "\n".join(src)

    # ---- the turn ----
    def emit_start(self) -> None:
        first = self.rules.first
        self.add_code([f"st.current = st.me = ({self.gen.x(first, {})}) % {self.layout.players}"], True,
                      getattr(first, "pos", None))

    def emit_turn_start(self) -> None:
        turns = self.limits.turns
        skip = []
        if self.rules.play_order:       # the setup may have eliminated the first player
            out, way = self.rules.play_order
            skip = [f"if V[{out}] and V[{out}] >> st.current & 1: st.current = _h.next_turn(V[{out}], V[{way}], "
                    f"st.current, None, {self.layout.players}, {self.gen.k(self.rules.end_when.pos)})"]
        self.add_code(skip + [
            "st.turn += 1",
            f"if st.turn > {turns}: _h.too_many_turns({turns}, {self.gen.k(self.rules.end_when.pos)})",
            "st.me = st.current",
            "st.extra = False",
            "if st.log is not None: st.log.append((E.TURN, st.current, st.turn))",
        ], True)

    def emit_step(self, stmt) -> None:
        """A top-level step (skipped once the game is ending unless in end.finish), then the end check."""
        rules = self.rules
        name = stmt.name if isinstance(stmt, ir.StepS) else None
        body = stmt.body if isinstance(stmt, ir.StepS) else [stmt]
        guard = self.placeholder()
        self.emit_block(body)
        # the check is left out after a step that cannot change the end condition; the first step
        # also sees what the setup and the turn change did
        first = stmt is rules.steps[0]
        test = [f"if not st.ending and {self.gen.test(rules.end_when, {})}: st.ending = True"] \
            if first or may_change(rules, rules.end_when, body) else []
        check = self.add_code(test, True, rules.end_when.pos)
        lines = [] if name in rules.finish else [f"if st.ending: return {check}"]
        if self.cov is not None and name is not None:
            lines.append(self.cov.ran(stmt, "step"))
        self.ops[guard] = ("code", lines + [f"return {guard + 1}"], True)

    def emit_turn_end(self) -> None:
        self.add_code([
            "if st.ending:",
            "    st.over = True",
            "    st.pending = None",
            "    if st.log is not None: st.log.append((E.END,))",
            "    return -1",
            self.advance_line(),
            f"return {self.turn_start}",
        ], False, getattr(self.rules.next, "pos", None))

    def advance_line(self) -> str:
        """The line that hands the turn on (turn.next, or the next seat clockwise), unless an extra turn."""
        players, rules = self.layout.players, self.rules
        if not rules.play_order:
            nxt = self.gen.x(rules.next, {}) if rules.next is not None else "st.current + 1"
            return f"if not st.extra: st.current = ({nxt}) % {players}"
        # a seat out of play has no turn, not even an extra one; turn order skips it both ways round
        out, way = rules.play_order
        chosen = self.gen.x(rules.next, {}) if rules.next is not None else "None"
        pos = self.gen.k(getattr(rules.next, "pos", None) or rules.end_when.pos)
        return (f"if not st.extra or V[{out}] and V[{out}] >> st.current & 1: "
                f"st.current = _h.next_turn(V[{out}], V[{way}], st.current, {chosen}, {players}, {pos})")

    # ---- blocks ----
    def emit_block(self, stmts) -> None:
        """Ops for a block: decision-free statements become inline code."""
        run: list = []
        pos = None
        for s in stmts:
            if has_decision(self.rules, [s]):
                if run:
                    self.add_code(run, True, pos)
                run, pos = [], None
                getattr(self, "d_" + type(s).__name__)(s)
            else:
                pos = pos or s.pos
                run.extend(self.stmts.stmt(s))
        if run:
            self.add_code(run, True, pos)

    def d_IfS(self, s) -> None:
        test = self.placeholder()
        self.emit_block(s.then)
        jump = self.placeholder()
        else_pc = len(self.ops)
        self.emit_block(s.orelse)
        end = len(self.ops)
        if self.cov is None:
            self.ops[test] = ("code", [f"return {test + 1} if {self.gen.test(s.cond, {})} else {else_pc}"], False)
        else:
            self.ops[test] = ("code", [f"if {self.gen.test(s.cond, {})}:", f"    {self.cov.ran(s, 'then')}",
                                       f"    return {test + 1}", self.cov.ran(s, "else"), f"return {else_pc}"], False)
        self.ops[jump] = ("code", [f"return {end}"], False)
        self.op_pos[test] = s.pos

    def d_ForS(self, s) -> None:
        lst, idx = self.new_slot(), self.new_slot()
        if s.iterable.type in ("zone", "cards"):
            self.card_lists.append(lst)         # determinisation follows its cards (seats/worlds.py)
        self.add_code([f"V[{lst}] = list({self.gen.x(s.iterable, {})})", f"V[{idx}] = 0"], True, s.pos)
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
        self.ops[head] = ("code", [f"return {head + 1} if {self.gen.test(s.cond, {})} else {end}"], False)
        self.op_pos[head] = s.pos
        self.loops.append((head, end, s.pos))

    def d_StepS(self, s) -> None:
        self.emit_block(s.body)

    def d_CallS(self, s) -> None:
        """A call of a procedure holding a decision: its return address on the stack, then its entry
        (filled in once the procedures are laid out), as lines an op falling into it takes in."""
        self.calls.append((self.placeholder(), s))
        self.op_pos[-1] = s.pos

    def d_ChooseS(self, s) -> None:
        """The pause at a decision (who decides, where to resume), as lines an op falling into it
        takes in; after a choice of options, the option's block is entered by the move itself."""
        dec = self.decision(s)
        if s.each_in is not None:
            return self.d_simultaneous(s, dec)
        here = len(self.ops)
        who = Line(f"st.decider = {self.gen.seat_src(s.by, {})}", s.by.pos) if s.by is not None \
            else "st.decider = st.current"
        self.add_code([f"st.pending = {self.gen.k(dec)}", who, f"st.pc = {here + 1}", "return -1"], False, s.pos)
        if dec.kind != "options":
            dec.bind = self.choices.binder(dec, s)
            if dec.kind == "value":
                dec.value_slot = dec.slot
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
        count = [self.cov.option(s, f"V[{dec.option_slot}]")] if self.cov is not None else []
        self.ops[dispatch] = ("code", count + [f"return {self.gen.k(tuple(starts))}[V[{dec.option_slot}]]"], False)
        if self.cov is None:        # else the dispatch counts the option taken
            dec.starts = tuple(starts)
        dec.bind = self.choices.binder(dec, s)

    def d_simultaneous(self, s, dec: Simultaneous) -> None:
        """A choice every seat of `each` makes in turn, kept unseen (Simultaneous), then bound at once;
        then `then` runs once per seat with the choice's name bound to that seat's choice."""
        seats, at, k = self.new_slot(), self.new_slot(), self.gen.k(dec)
        dec.seats_slot, dec.kept_slot, dec.seat_slot, dec.at_slot = seats, self.new_slot(), s.each_slot, at
        seat = self.gen.seat_src(ir.Local(s.each_in.pos, "player", s.each_slot, "each"), {})
        self.add_code([f"V[{seats}] = list({self.gen.x(s.each_in, {})})", f"V[{dec.kept_slot}] = []",
                       f"V[{at}] = 0"], True, s.each_in.pos)
        ask = len(self.ops)
        self.add_code([f"i = V[{at}]", f"if i >= len(V[{seats}]): return {ask + 1}", f"V[{at}] = i + 1",
                       f"V[{s.each_slot}] = V[{seats}][i]", f"st.pending = {k}", f"st.decider = {seat}",
                       f"st.pc = {ask}", "return -1"], False, s.pos)
        self.add_code([f"{k}.reveal(st)", f"V[{at}] = 0"], True, s.pos)
        head = self.placeholder()
        self.emit_block(s.body)
        self.add_code([f"return {head}"], False)
        end = len(self.ops)
        bound = ", ".join(f"V[{slot}]" for slot in dec.bound_slots())
        self.ops[head] = ("code", [f"i = V[{at}]", f"if i >= len(V[{seats}]): return {end}",
                                   f"V[{s.each_slot}] = V[{seats}][i]", f"{bound}, = V[{dec.kept_slot}][i]",
                                   f"V[{at}] = i + 1", f"return {head + 1}"], False)

    # ---- decisions ----
    def decision(self, s) -> Decision:
        """The compiled form of a choose: its legal moves as generated functions."""
        dec = (Simultaneous if s.each_in is not None else Decision)(len(self.decisions), s.name, s.slot, s.pos)
        dec.max_moves, dec.public = self.limits.moves, s.public
        if s.cards is not None:
            dec.cards = self.choices.card_spec(s.cards, dec)
            dec.moves = dec.cards.payloads
        elif s.parts:
            dec.kind = "parts"
            dec.parts = [(part.name, part.slot) for part in s.parts]
            dec.moves = self.choices.parts_moves(dec, s)
        elif s.values is not None:
            dec.kind = "value"
            dec.moves = self.choices.value_moves(dec, s)
        else:
            dec.kind = "options"
            dec.options = [(o.name, o.slot, self.choices.card_spec(o.cards, dec, i) if o.cards else None)
                           for i, o in enumerate(s.options)]
            dec.option_slot = self.new_slot()
            dec.moves = self.choices.option_moves(dec, s)
        self.decisions.append(dec)
        return dec
