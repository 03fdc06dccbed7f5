"""Values named once: a function without parameters (a derived value such as a score's part) that
one expression reads more than once is worked out once for that expression, and read by name after.

Exact: the expression cannot change the state, and such a value reads no local, no card and no
parameter, so every read of it gives the same value; only values that cannot fail are named (so
when they are worked out changes no error), and only those that the expression works out in any
case (a read that is not behind `and`, `or`, an `if` or a loop), so nothing is worked out that the
old code would have skipped. `codegen.CodeGen.x` asks `repeated` at the root of each expression.
"""
from __future__ import annotations

import re

from ..frontend import ir
from . import percard
from .fold import NO, subst

_DEPTH = 16
_SCALAR = (bool, int, str, type(None))
_NAME = re.compile(r"[A-Za-z_]\w*")
TEXT = re.compile(r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")""")   # a text literal as repr() writes it
_LEAVES = (ir.Lit, ir.Param, ir.Local, ir.Builtin, ir.Var, ir.ZoneRef, ir.CardAttr)


def key(e):
    """What names a call's value within an expression: (its function, its constant arguments), or
    None for a call whose arguments are not constants."""
    if not isinstance(e, ir.UserCall) or not all(isinstance(a, ir.Lit) and type(a.value) in _SCALAR for a in e.args):
        return None
    return (id(e.fn),) + tuple((type(a.value), a.value) for a in e.args)


def repeated(gen, e) -> list:
    """The calls worth naming in expression e: read at least twice, at least once whatever happens,
    unfailing and more than a plain read; each once, a call before any call that reads it."""
    if not _calls(e, 0):
        return []
    seen: dict = {}
    _count(gen, e, True, 0, seen)
    found = [(size, call) for n, strict, call, size in seen.values() if n >= 2 and strict and _worth(gen, call)]
    return [call for _, call in sorted(found, key=lambda x: x[0])]


def bind(binds: list, src: str) -> str:
    """src with the named values [(name, source)] bound: a name read twice or more as a parameter
    of a function called once with its value; read once (or a value that is a name itself), the
    value written in its place."""
    for name, value in reversed(binds):         # a later value may read an earlier name
        read = re.compile(rf"\b{name}\b")
        pieces = TEXT.split(src)             # code and text literals, alternately: a text is never touched
        uses = sum(len(read.findall(code)) for code in pieces[::2])
        if uses > 1 and not _NAME.fullmatch(value):     # (a name: a part already worked out before a loop)
            src = f"(lambda {name}: {src})({value})"
        elif uses:
            pieces[::2] = [read.sub(lambda _: f"({value})", code) for code in pieces[::2]]
            src = "".join(pieces)
    return src


def _calls(e, depth: int) -> bool:
    """Whether e calls a function at all (most expressions do not: nothing more to look at)."""
    return isinstance(e, ir.UserCall) or depth < _DEPTH and any(_calls(x, depth + 1) for x in ir.children(e))


def _count(gen, e, strict: bool, depth: int, seen: dict) -> None:
    """Count the calls with a key in e, noting whether one is read whatever happens (`strict`)."""
    if depth > _DEPTH:
        return
    walk = lambda x, s=strict: _count(gen, x, s, depth + 1, seen)  # noqa: E731
    if isinstance(e, ir.UserCall):
        k = key(e)
        body = _body(e)
        if k is not None:
            entry = seen.setdefault(k, [0, False, e, _size(body, 0)])
            entry[0] += 1
            entry[1] = entry[1] or strict
        if percard.written_in(e):           # the arguments written into the body (codegen.g_UserCall)
            walk(body)
        else:                               # the arguments worked out once, then the body
            for a in e.args:
                walk(a)
            walk(e.fn.body)
    elif isinstance(e, ir.Logic):           # the right side only when the left does not decide
        walk(e.left)
        walk(e.right, False)
    elif isinstance(e, ir.Cond):
        known = gen.fold.try_const(e.cond)
        if known is not NO:                 # only the branch taken is written (codegen.g_Cond)
            walk(e.then if known else e.orelse)
        else:
            walk(e.cond)
            walk(e.then, False)
            walk(e.orelse, False)
    elif isinstance(e, ir.Gen):             # per item: there may be none
        walk(e.iterable)
        for x in (e.expr, e.cond, e.by):
            if x is not None:
                walk(x, False)
    elif isinstance(e, ir.Filter):          # per card: there may be none
        walk(e.cards)
        walk(e.cond, False)
    else:
        for x in ir.children(e):
            walk(x)


def _body(call: ir.UserCall):
    """A call's body with its arguments written in."""
    return subst(call.fn.body, dict(zip(call.fn.params, call.args)))


def _worth(gen, call: ir.UserCall) -> bool:
    """Whether naming a call is exact and saves work: its body reads no local or card of the
    expression around it, cannot fail, and is more than a constant or a plain read."""
    body = _body(call)
    return not isinstance(body, _LEAVES) and not _free(body, frozenset(), False, 0) \
        and gen.fold.try_const(body) is NO and percard.cannot_fail(gen, body, {}, {})


def _free(e, bound: frozenset, card: bool, depth: int) -> bool:
    """Whether e reads a local it does not bind itself, or a card attribute outside its own filters."""
    if depth > _DEPTH:
        return True
    if isinstance(e, ir.Local):
        return e.slot not in bound
    if isinstance(e, ir.CardAttr):
        return not card
    if isinstance(e, ir.Filter):
        return _free(e.cards, bound, card, depth + 1) or _free(e.cond, bound, True, depth + 1)
    if isinstance(e, ir.Gen):
        inner = bound | {e.slot}
        return _free(e.iterable, bound, card, depth + 1) or \
            any(x is not None and _free(x, inner, card, depth + 1) for x in (e.expr, e.cond, e.by))
    if isinstance(e, ir.UserCall):
        return any(_free(a, bound, card, depth + 1) for a in e.args) or _free(_body(e), bound, card, depth + 1)
    return any(_free(x, bound, card, depth + 1) for x in ir.children(e))


def _size(e, depth: int) -> int:
    """The number of parts of e, calls counted with their bodies (a call that reads another is larger)."""
    if depth > _DEPTH:
        return 1
    inner = [_body(e)] if isinstance(e, ir.UserCall) else ir.children(e)
    return 1 + sum(_size(x, depth + 1) for x in inner)
