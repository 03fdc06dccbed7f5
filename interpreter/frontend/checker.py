"""Resolve every name of a schema-valid ruleset and check types: document -> ir.Ruleset.

Reports every error of the file in one run, each once, at its file:line:col (inside DSL strings
too, via Document.text_pos), with a hint on what to do and "did you mean" for misspelt names.
Locals (let, for, choose) get the type of what they are bound to; since a name may be used above
its binding, `check` first runs quick passes that only learn those types, then the real one.
Things worked out before the game starts (card counts and attributes, 'for' and 'per' lists)
may not use the game state, and procedures and functions may not call themselves.
The parts of the check are in the `check` package; this module runs them in order.
"""
from __future__ import annotations

from . import ir
from ..errors import RulesetError
from .check.bot_options import read_bot_options
from .check.cards import declare_cards
from .check.constants import check_constant
from .check.context import Context, Scope, Unresolved
from .check.declarations import declare_functions, declare_procedures, declare_vars, declare_zones, finish_zone
from .check.display import check_display
from .check.ending import check_cooperative, check_finish, check_tiebreak
from .check.params import check_added_params, check_players, declare_params
from .check.recursion import check_function_recursion, check_recursion
from .check.resolve import value
from .check.statements import block
from .check.standing import standing_rules
from .check.stats import check_stats
from .check.turn import check_first
from .check.types import expect
from .loader import Document


def check(doc: Document, overrides: dict | None = None, bots=None) -> ir.Ruleset:
    """Resolve and check a loaded, schema-valid document; raise RulesetError with every error.
    `bots` checks bots.options as read_bot_options gives them (seats/registry.py ruleset_options,
    passed in by whoever knows the bots), among the file's other errors."""
    types: dict = {}
    for _ in range(3):      # first passes learn what each local name is bound to (a let may copy another)
        trial = Context(doc, overrides, types)
        try:
            check_pass(trial)
        except (RulesetError, Unresolved):
            pass
        learnt = {name: learnt_type(name, kinds) for name, kinds in trial.bound.items()}
        if learnt == types:
            break
        types = learnt
    cx = Context(doc, overrides, types)
    if bots is not None:        # first, so that every way out of the pass below reports them
        cx.err.diagnostics.extend(bots(read_bot_options(cx))[1])
    try:
        return check_pass(cx)
    except RulesetError:
        raise
    except Unresolved:
        cx.err.raise_if_any()
        raise


def learnt_type(name: str, kinds: set) -> str:
    """The type of a local's uses: the one type it is bound to, else any; a parameter ('f.p') passed a
    zone in one call and cards in another holds cards, and one type besides 'any' is its type."""
    if "." in name:
        kinds = {"cards" if k == "zone" and "cards" in kinds else k for k in kinds} - {"any"} or {"any"}
    return next(iter(kinds)) if len(kinds) == 1 else "any"


def procedure_body(cx: Context, name: str, path) -> list:
    """A procedure's statements, its parameters in scope (and not to be bound again inside)."""
    cx.in_params = ("procedure", name, cx.proc_params[name])
    try:
        return block(cx, path, Scope(fn_params=cx.proc_params[name]))
    finally:
        cx.in_params = ()


def check_pass(cx: Context) -> ir.Ruleset:
    """One pass over the document: declarations first, then every rule."""
    check_players(cx)
    declare_params(cx)
    declare_zones(cx)
    declare_vars(cx)
    declare_functions(cx)
    declare_procedures(cx)
    cards = declare_cards(cx)
    for decl in cx.vars.values():
        decl.initial = value(cx, ("vars", decl.name, "initial"), Scope(), default=0)
        cx.var_types[decl.name] = decl.initial.type if decl.initial.type not in ("null", "value") else "any"
    for decl in cx.zones.values():
        finish_zone(cx, decl)
    for name, fn in cx.functions.items():
        cx.in_params = ("function", name, cx.fn_scopes[name])
        fn.body = value(cx, ("functions", cx.fn_keys[name]), Scope(fn_params=cx.fn_scopes[name]))
    cx.in_params = ()
    check_function_recursion(cx)
    for expr, what, allowed in cx.const_checks:
        check_constant(cx, expr, what, allowed)
    procedures = {name: procedure_body(cx, name, path) for name, path in cx.proc_paths.items()}
    setup = block(cx, ("setup",), Scope())
    first = value(cx, ("turn", "first"), Scope(), default=0)
    expect(cx, first, {"player"}, "the first player")
    check_first(cx, first)
    nxt = value(cx, ("turn", "next"), Scope(), default=None)
    expect(cx, nxt, {"player"}, "the next player")
    steps = block(cx, ("turn", "steps"), Scope(), top=True)
    whenever = standing_rules(cx, block, procedures)
    end_when = value(cx, ("end", "when"), Scope(), default=False)
    expect(cx, end_when, {"bool"}, "the end condition")
    finish = check_finish(cx)
    score = value(cx, ("score",), Scope(), default=0)
    expect(cx, score, {"int"}, "the score")
    tiebreak = check_tiebreak(cx)
    cooperative = check_cooperative(cx)
    bot_eval = value(cx, ("bots", "eval"), Scope(), default=None)
    expect(cx, bot_eval, {"int"}, "the bots' rating")
    bot_options = read_bot_options(cx)
    stats = check_stats(cx)
    check_recursion(cx, procedures)
    display = check_display(cx, score, tiebreak)
    cx.err.raise_if_any()
    rules = ir.Ruleset(
        name=str(cx.get(("name",), "")), file=cx.doc.file, min_players=cx.lo, max_players=cx.hi,
        params=cx.params, cards=cards, zones=list(cx.zones.values()), zone_by_name=cx.zones,
        vars=list(cx.vars.values()), functions=cx.functions, procedures=procedures, setup=setup,
        first=first, next=nxt, steps=steps, end_when=end_when, finish=finish, score=score,
        tiebreak=tiebreak, bot_eval=bot_eval, bot_options=bot_options, slots=list(cx.slots),
        slot_types=[cx.slot_types.get(i) or cx.local_type(n) for n, i in cx.slots.items()],
        card_vars=sorted(cx.card_vars), sources=cx.doc.sources,
        overrides=cx.overrides, display=display, stats=stats, lowest_wins=cx.get(("wins",)) == "lowest",
        cooperative=cooperative,
        whenever=whenever, play_order=cx.play_order or None)
    check_added_params(cx, rules)       # needs the finished rules: which params they read
    cx.err.raise_if_any()
    return rules
