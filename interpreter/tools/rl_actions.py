"""How many legal moves a decision can ever offer: the size of a learning agent's action space.

Every bound here is sound, worked out from the compiled program before any game:
  a choice of a value     the distinct values of its list when the list is a constant of the rules
                          (parameters and literals), else the engine's limit on a decision's moves;
  a choice of cards       the multisets of card types of the allowed sizes (from `min` and `count` or
                          `max` when they are constants, else any size) that the game's cards allow,
                          per group of `same` when given; at most the engine's limit;
  a choice of options     one move per option without cards, plus the bound of each option's cards;
  a choice of parts       the product of its parts' bounds, each as for a choice of a value.
The engine's limit (Limits.moves, --max-moves) is itself a bound: a decision that would offer more
moves stops the game with an error naming it, so no state ever offers more than these bounds.
"""
from __future__ import annotations

import dataclasses
from collections import Counter

from ..compiler.fold import is_static
from ..errors import RuleRuntimeError
from ..frontend import ir


def decision_bounds(program) -> list:
    """[(decision name, bound)] for every decision of the program, in its order."""
    found = chooses(program.rules)
    out = []
    for dec in program.decisions:
        s = found.get(_key(dec.pos))
        out.append((dec.name, bound(program, dec, s)))
    return out


def action_count(program) -> int:
    """The most legal moves any decision of the program can offer (at least 1)."""
    return max([b for _, b in decision_bounds(program)] + [1])


def bound(program, dec, s) -> int:
    """The bound of one decision; `s` is its `choose` statement (None if not found: the engine's
    limits alone then)."""
    cap = dec.max_moves
    if dec.kind == "value":
        values = _const(program, s.values) if s is not None else None
        return min(len(set(values)) if isinstance(values, list) and _hashable(values) else cap, cap)
    if dec.kind == "cards":
        return card_bound(program, dec.cards, s.cards if s is not None else None)
    if dec.kind == "parts":
        total = 1
        for part in (s.parts if s is not None else [None]):
            values = _const(program, part.values) if part is not None else None
            total *= len(set(values)) if isinstance(values, list) and _hashable(values) else cap
        return min(total, cap)
    total = 0
    for i, (_, _, spec) in enumerate(dec.options):
        option = s.options[i].cards if s is not None else None
        total += 1 if spec is None else card_bound(program, spec, option)
    return total


def card_bound(program, spec, cc) -> int:
    """The most card moves a CardSpec can list: multisets of types from the game's cards."""
    cap = spec.max_moves
    if cc is None:
        return cap
    lo = _const(program, cc.lo)
    hi = _const(program, cc.hi) if cc.hi is not None else None
    lo = lo if isinstance(lo, int) else 0
    cards = len(program.card_type)
    hi = min(hi, cards) if isinstance(hi, int) else cards
    copies = Counter(program.card_type)
    if spec.same is None:
        return min(multisets(list(copies.values()), lo, hi, cap), cap)
    groups: dict = {}
    for t, n in copies.items():
        groups.setdefault(spec.same[t], []).append(n)
    total = 1 if lo <= 0 <= hi else 0
    for counts in groups.values():
        total += multisets(counts, max(lo, 1), hi, cap)
    return min(total, cap)


def multisets(copies: list, lo: int, hi: int, cap: int) -> int:
    """How many multisets of lo to hi items take at most copies[i] of item i (counted up to past
    cap: the coefficients of the product of (1 + x + ... + x^copies[i]), each held at cap + 1)."""
    if hi < max(lo, 0):
        return 0
    coef = [1] + [0] * hi
    for c in copies:
        new = [0] * (hi + 1)
        run = 0
        for k in range(hi + 1):          # new[k] = coef[k - c] + ... + coef[k], a running sum
            run += coef[k]
            if k - c - 1 >= 0:
                run -= coef[k - c - 1]
            new[k] = min(run, cap + 1)
        coef = new
    return min(sum(coef[max(lo, 0):hi + 1]), cap + 1)


def chooses(rules) -> dict:
    """{position: choose statement} for every `choose` of the rules (setup, turn, procedures,
    triggers)."""
    found, seen, todo = {}, set(), [rules]
    while todo:
        node = todo.pop()
        if id(node) in seen or isinstance(node, ir.Expr):
            continue
        seen.add(id(node))
        if isinstance(node, ir.ChooseS):
            found[_key(node.pos)] = node
        if isinstance(node, (list, tuple, set)):
            todo.extend(node)
        elif isinstance(node, dict):
            todo.extend(node.values())
        elif dataclasses.is_dataclass(node) and not isinstance(node, type):
            todo.extend(getattr(node, f.name) for f in dataclasses.fields(node))
    return found


def _const(program, e):
    """The value of e when it is a constant of the rules at this player count, else None."""
    if e is None or not is_static(e):
        return None
    try:
        return program.const(e)
    except RuleRuntimeError:
        return None


def _hashable(values: list) -> bool:
    return all(isinstance(x, (int, str)) or x is None for x in values)


def _key(pos) -> tuple:
    return (pos.file, pos.line, pos.col)
