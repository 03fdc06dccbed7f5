"""The standing rules (`whenever`) as one function the code calls after every move or deal.

Each rule becomes a generated function that runs its `do` for the first item its `when` holds
for and says whether it did; `runtime.standing` runs them in order until none holds. The rules'
own statements and the on_empty triggers are compiled without the call (a trigger runs in the
middle of a move; after a rule's `do` every rule is checked again anyway).
"""
from __future__ import annotations

from ..runtime.standing import standing
from .statements import Line, indent


def compile_standing(gen, stmts) -> str | None:
    """Source naming the check of every standing rule, or None when there are none."""
    rules = gen.rules.whenever
    if not rules:
        return None
    fns = [(rule_function(gen, stmts, rule, i), rule.cond.pos) for i, rule in enumerate(rules)]
    return gen.k(standing(fns, gen.limits.loops))


def rule_function(gen, stmts, rule, i: int):
    """f(st) -> whether the rule fired: its `do` run once, for the first item its `when` holds for."""
    at = lambda text: Line(text, rule.cond.pos)
    counted = [stmts.cov.ran(rule, "whenever")] if stmts.cov is not None else []
    body = [at(x) for x in counted] + stmts.lines(rule.body) + [at("return True")]
    cond = gen.x(rule.cond, {})
    if rule.iterable is None:
        lines = [at(f"if {cond}:")] + indent(body)
    else:
        v = gen.fresh("i")
        lines = [at(f"for {v} in list({gen.x(rule.iterable, {})}):"), at(f"    V[{rule.slot}] = {v}"),
                 at(f"    if {cond}:")] + indent(indent(body))
    lines.append(at("return False"))
    where = {3 + k: line.pos for k, line in enumerate(lines)}
    name = f"standing_{i}"
    return gen.define(f"def {name}(st):\n    Z = st.zones; V = st.vars; L = st.loc\n"
                      + "".join(f"    {line}\n" for line in lines), name, where)
