"""A `tell` condition in words for the seats told ("colour red", "rank not 5"): the card's attributes
by name, the values worked out when telling in their place (runtime/tell.py fills them in)."""
from __future__ import annotations

from ..frontend import ir
from ..runtime.decisions import show
from ..runtime.tell import MARK
from .describe import Writer
from .fold import subexpressions


def words(cond) -> tuple:
    """(the words with MARK for each value, the value expressions in order)."""
    writer = _Words()
    return writer.x(cond), tuple(writer.values)


def _per_card(e) -> bool:
    """Whether e reads the card told about (an attribute of it)."""
    return any(isinstance(x, ir.CardAttr) for x in subexpressions(e))


class _Words(Writer):
    """Writer with `attribute == value` as 'attribute value' and other values as marks."""

    def __init__(self):
        super().__init__([])
        self.values: list = []

    def x(self, e, outer: int = 0) -> str:
        if isinstance(e, ir.Expr) and not isinstance(e, ir.Lit) and not _per_card(e):
            self.values.append(e)
            return MARK
        return super().x(e, outer)

    def w_Lit(self, e):
        return show(e.value), 10

    def w_Cmp(self, e):
        if e.op in ("==", "!=") and (_per_card(e.left) != _per_card(e.right)):
            card, value = (e.left, e.right) if _per_card(e.left) else (e.right, e.left)
            text = f"{self.x(card, 6)} {self.x(value, 6)}"
            return (text if e.op == "==" else "not " + text), 5
        return super().w_Cmp(e)
