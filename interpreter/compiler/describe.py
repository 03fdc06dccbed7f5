"""Checked expressions written back as rules-language text, for short labels (coverage points)."""
from __future__ import annotations


MAX_LABEL = 60      # characters of an expression in a label; longer ones end in …

# how tightly each kind of expression binds (the grammar's order, loosest first)
_BIN = {"+": 6, "-": 6, "*": 7, "/": 7, "%": 7}


def short(e, slots: list) -> str:
    """The expression as text, cut to MAX_LABEL characters."""
    text = Writer(slots).x(e)
    return text if len(text) <= MAX_LABEL else text[:MAX_LABEL - 1] + "…"


class Writer:
    """Text for expressions; `slots` names the local slots (generators, let, for, choose)."""

    def __init__(self, slots: list):
        self.slots = slots

    def x(self, e, outer: int = 0) -> str:
        """The text of e, in brackets when it binds more loosely than its place (`outer`) needs."""
        text, level = getattr(self, "w_" + type(e).__name__, self.w_other)(e)
        return f"({text})" if level < outer else text

    def w_other(self, e):
        return "…", 10

    def w_Lit(self, e):
        v = e.value
        return ("true" if v else "false") if isinstance(v, bool) else repr(v), 10

    def w_Param(self, e):
        return e.name, 10

    def w_Local(self, e):
        return e.name, 10

    def w_Builtin(self, e):
        return e.name, 10

    def w_CardAttr(self, e):
        return e.attr, 10

    def w_Var(self, e):
        return e.decl.name + (f"({self.x(e.owner)})" if e.owner is not None else ""), 10

    def w_ZoneRef(self, e):
        index = f"[{self.x(e.index)}]" if e.index is not None else ""
        return e.decl.name + index + (f"({self.x(e.owner)})" if e.owner is not None else ""), 10

    def w_GetAttr(self, e):
        return f"{self.x(e.obj, 9)}.{e.attr}", 9

    def w_Func(self, e):
        args = e.args[:1] if e.name in ("next", "prev", "seat_after") else e.args     # not the hidden in_play
        return f"{e.name}({', '.join(self.x(a) for a in args)})", 9

    def w_UserCall(self, e):
        return f"{e.fn.name}({', '.join(self.x(a) for a in e.args)})", 9

    def w_Gen(self, e):
        cond = f" if {self.x(e.cond, 2)}" if e.cond is not None else ""
        name = self.slots[e.slot] if 0 <= e.slot < len(self.slots) else "it"
        by = f" by {self.x(e.by)}" if e.by is not None else ""
        return f"{self.x(e.expr)} for {name} in {self.x(e.iterable, 6)}{cond}{by}", 0

    def w_ListLit(self, e):
        return f"[{', '.join(self.x(a) for a in e.items)}]", 10

    def w_Bin(self, e):
        level = _BIN.get(e.op, 6)
        return f"{self.x(e.left, level)} {e.op} {self.x(e.right, level + 1)}", level

    def w_Cmp(self, e):
        return f"{self.x(e.left, 6)} {e.op} {self.x(e.right, 6)}", 5

    def w_InOp(self, e):
        return f"{self.x(e.left, 6)} {'not in' if e.negate else 'in'} {self.x(e.right, 6)}", 5

    def w_Logic(self, e):
        level = 2 if e.op == "or" else 3
        return f"{self.x(e.left, level)} {e.op} {self.x(e.right, level + 1)}", level

    def w_NotOp(self, e):
        return f"not {self.x(e.operand, 4)}", 4

    def w_NegOp(self, e):
        return f"-{self.x(e.operand, 8)}", 8

    def w_Cond(self, e):
        return f"if {self.x(e.cond)} then {self.x(e.then)} else {self.x(e.orelse, 1)}", 1

    def w_Filter(self, e):
        return f"{self.x(e.cards, 0)} where {self.x(e.cond, 1)}", 0

    def w_TopN(self, e):
        count = f"{self.x(e.count, 6)} " if e.count is not None else ""
        return f"{'bottom' if e.bottom else 'top'} {count}of {self.x(e.cards, 0)}", 0
