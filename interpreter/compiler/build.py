"""Compile a checked ruleset for one player count: layout, generated code, then a run-time Program.

The stages share plain data: the layout's tables (layout), the expression generator and its
namespace (codegen), constants worked out through it (fold), the statements' source lines
(statements) and the op list (flow). The result is an interpreter.runtime Program holding them.
"""
from __future__ import annotations

from ..errors import RuleRuntimeError
from ..frontend import ir
from ..runtime import engine as E
from ..runtime.helpers import alike_guard
from ..runtime.program import Compiled, Program
from . import layout as L
from .codegen import CodeGen
from .coverage import CoverageMap
from .fold import Scratch, deterministic_prefix
from .flow import Flow
from .reads import state_reads
from .standing import compile_standing
from .statements import StatementGen


def compile_program(rules: ir.Ruleset, players: int, limits: E.Limits | None = None, audit=None,
                    coverage: bool = False) -> Program:
    """The ruleset compiled for this many players (with these run-time guards); `audit` (audit.Audit)
    makes a program that reports every move's shortfall, for validate (never a game's program);
    `coverage` one that counts its coverage points (coverage.py)."""
    limits = limits or E.DEFAULT_LIMITS
    lay = L.new_layout(rules, players)
    gen = CodeGen(rules, lay, limits)
    const = gen.fold.const
    L.lay_out_zones(lay, rules, limits, lambda e, what: L.const_list(const, e, what))
    L.lay_out_vars(lay, rules)
    L.make_cards(lay, rules, limits, const, Scratch(lay.n_locals))
    prefix = deterministic_prefix(rules)
    cov = CoverageMap(rules, gen.k) if coverage else None
    stmts = compile_triggers(gen, gen.k(alike_guard(lay.card_type, lay.type_names, lay.zone_decl, lay.zone_names)),
                             audit, cov)
    stmts.standing = compile_standing(gen, stmts)     # after the triggers: they run in the middle of a move
    flow = Flow(gen, stmts)
    flow.lay_out(prefix)
    lam = gen.lam
    compiled = Compiled(
        code=flow.code, op_pos=flow.op_pos, loops=flow.loops, line_pos=gen.line_pos, decisions=flow.decisions,
        prefix=prefix, end_fn=lam(rules.end_when), score_fn=lam(rules.score),
        tiebreak_fns=[(sign, lam(e)) for sign, e in rules.tiebreak],
        eval_fn=lam(rules.bot_eval) if rules.bot_eval is not None else None,
        cooperative_fn=lam(rules.cooperative) if rules.cooperative is not None else None,
        initial_code=lambda: initial_code(gen, stmts, prefix), const=const, source=flow.source,
        stat_fns=[lam(s.expr) for s in rules.stats],
        coverage=cov.coverage() if cov is not None else None, lam=lam,
        card_slots=card_slots(rules, flow), evals_fn=evals_function(gen, rules))
    program = Program(rules, players, limits, lay, compiled)
    # what the bots' evaluation reads of a state: their cache of evaluations keys on it (seats/eval_cache.py)
    program.eval_reads = state_reads(program, rules.bot_eval if rules.bot_eval is not None else rules.score)
    return program


def evals_function(gen: CodeGen, rules: ir.Ruleset):
    """f(st) -> every seat's bot evaluation (bots.eval, else the score, negated when the lowest wins)
    in one call, or None (a cooperative table, or an evaluation that hands the state to a call)."""
    if rules.cooperative is not None:
        return None
    try:
        if rules.bot_eval is not None:
            return gen.seats_function(rules.bot_eval)
        return gen.seats_function(rules.score, negate=rules.lowest_wins)
    except RuleRuntimeError:        # too large for Python to compile at once: evaluated seat by seat
        return None


def card_slots(rules: ir.Ruleset, flow: Flow) -> tuple:
    """Every slot whose value is a card id or a list of them (maybe of lists): the locals the checker
    typed as cards, the flow's own lists of cards a loop goes over, the game variables a rule sets to cards."""
    lay = flow.layout
    locals_ = [i for i, t in enumerate(rules.slot_types) if t in ("card", "cards")]
    per_player = {d.name: d.per_player for d in rules.vars}
    game = [lay.var_base[name] + k for name in rules.card_vars
            for k in range(lay.players if per_player[name] else 1)]
    return tuple(locals_ + flow.card_lists + game)


def compile_triggers(gen: CodeGen, check_alike: str, audit=None, cov=None) -> StatementGen:
    """The statement generator, with every on_empty trigger compiled into a cell the code reads."""
    # a cell, filled after all names are known, lets a trigger take from a zone declared after it
    cells = {d.name: [None] for d in gen.rules.zones if d.on_empty}
    names = {d.name: f"{gen.k(cells[d.name])}[0]" if d.on_empty else "None" for d in gen.rules.zones}
    stmts = StatementGen(gen, names, check_alike, audit, cov)
    for i, d in enumerate(gen.rules.zones):       # our names in the generated code, never the ruleset's
        if d.on_empty:
            head = (cov.ran(d, "on_empty"),) if cov is not None else ()
            cells[d.name][0] = E.once(stmts.function_from_block(d.on_empty, f"trigger_{i}", head))
    return stmts


def initial_code(gen: CodeGen, stmts: StatementGen, prefix: int) -> tuple:
    """What Program.initial runs: who starts, every variable's initial value, the setup's prefix."""
    rules, lay = gen.rules, gen.layout
    var_inits = [(lay.var_base[d.name], lay.players if d.per_player else 1, gen.lam(d.initial), d.initial.pos)
                 for d in rules.vars]
    first = gen.lam(rules.first, seated=False)
    setup = stmts.function_from_block(rules.setup[:prefix], "setup_prefix")
    if stmts.cov is not None:       # run once per program, counted in every game
        setup = stmts.cov.coverage_of_prefix(setup)
    return first, var_inits, setup
