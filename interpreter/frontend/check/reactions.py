"""Reaction rounds: `around` with `stop_at: OPTION` goes round until the first seat that takes that
option of a choice in its `do` ("anyone may challenge, in seat order"), and `stopped_by: NAME`
names that seat after the round (-1 when nobody took it).

Written out like `around` itself: a hidden local set to the seat first thing in the option's `do`,
and tested with the loop's own condition, so every backend runs it as it runs a let and a while.
"""
from __future__ import annotations

from .. import ir
from .context import Context
from .trees import statements
from .words import either


def stop_flag(cx: Context, path, item: dict, body: list, seat: int):
    """The hidden local that holds the seat that took the stop_at option (None: no stop_at)."""
    if "stop_at" not in item:
        if "stopped_by" in item:
            cx.error(cx.doc.key_pos(path + ("stopped_by",)), "stopped_by names the seat that stopped the round, "
                     "but this around has no stop_at, so it would never be set", "around",
                     "add stop_at: OPTION (an option of a choose in do), or remove stopped_by")
        return None
    name = str(item["stop_at"])
    options = [opt for s in statements(body) if isinstance(s, ir.ChooseS) for opt in s.options]
    found = [opt for opt in options if opt.name == name]
    if not found:
        names = sorted({opt.name for opt in options})
        hint = cx.suggest(name, names) or (f"the options of its choices are {either(names)}" if names else
                                           "put a choose with options in do, e.g. options: {challenge: {}, allow: {}}")
        cx.error(path + ("stop_at",), f"stop_at: no choose in this around's do has an option '{name}'", "around",
                 hint)
        return None
    pos = cx.pos(path + ("stop_at",))
    flag = cx.slot(f"#stop@{pos.line}:{pos.col}")       # no rule can name it
    for opt in found:
        opt.body.insert(0, ir.LetS(pos, flag, ir.Local(pos, "player", seat, "#seat")))
    return flag


def stopping(cx: Context, path, item: dict, loop: list, flag) -> list:
    """The around's statements with the stop: the local cleared before, the loop going on only while
    it is clear, and the seat bound to stopped_by after."""
    if flag is None:        # no stop_at (or a wrong one, reported): stopped_by still names a seat after
        if "stopped_by" in item:
            pos = cx.pos(path + ("stopped_by",))
            loop = loop + [ir.LetS(pos, cx.bind(str(item["stopped_by"]), "player", pos), ir.Lit(pos, "int", -1))]
        return loop
    pos = cx.pos(path + ("stop_at",))
    held = ir.Local(pos, "player", flag, "#stop")
    last = loop[-1]         # the while of the round
    last.cond = ir.Logic(pos, "bool", "and", last.cond, ir.Cmp(pos, "bool", "<", held, ir.Lit(pos, "int", 0)))
    out = [ir.LetS(pos, flag, ir.Lit(pos, "int", -1))] + loop
    if "stopped_by" in item:
        out.append(ir.LetS(pos, cx.bind(str(item["stopped_by"]), "player", cx.pos(path + ("stopped_by",))), held))
    return out
