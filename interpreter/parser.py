"""Parse DSL strings with the lark grammar into syntax nodes (see syntax.py)."""
from __future__ import annotations

import functools
import os

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from . import syntax as S

GRAMMAR = os.path.join(os.path.dirname(__file__), "grammar.lark")
START = {"expr": "start_expr", "stmt": "start_stmt", "for": "start_for", "sig": "start_sig"}


class DSLSyntaxError(Exception):
    """A syntax error inside one DSL string; line and col are 0-based within it."""

    def __init__(self, line: int, col: int, message: str, hint: str = ""):
        super().__init__(message)
        self.line, self.col, self.message, self.hint = line, col, message, hint


@functools.lru_cache(maxsize=None)
def _lark() -> Lark:
    with open(GRAMMAR, encoding="utf-8") as fh:
        return Lark(fh.read(), parser="lalr", propagate_positions=True,
                    start=list(START.values()), maybe_placeholders=True)


def _at(meta) -> tuple:
    return (meta.line - 1, meta.column - 1) if not meta.empty else (0, 0)


def _tok_at(tok: Token) -> tuple:
    return (tok.line - 1, tok.column - 1)


@v_args(meta=True, inline=True)
class _ToNodes(Transformer):
    """Each method builds the node of the grammar rule it is named after."""

    def start_expr(self, meta, e):
        return e

    start_stmt = start_expr

    def start_for(self, meta, var, iterable):
        return S.ForHead(str(var), iterable, at=_at(meta))

    def start_sig(self, meta, name, *params):
        return S.Signature(str(name), tuple(str(p) for p in params if p is not None), at=_at(meta))

    # statements
    def move(self, meta, cards, dest):
        return S.Move(cards, dest, at=_at(meta))

    def shuffle(self, meta, zone):
        return S.Shuffle(zone, at=_at(meta))

    def deal(self, meta, count, source, dest, starting):
        return S.Deal(count, source, str(dest), starting, at=_at(meta))

    def let(self, meta, name, value):
        return S.Let(str(name), value, at=_at(meta))

    def set(self, meta, name, owner, value):
        return S.SetVar(str(name), owner, value, at=_at(meta))

    def extra_turn(self, meta):
        return S.ExtraTurn(at=_at(meta))

    def call(self, meta, name):
        return S.CallProc(str(name), at=_at(meta))

    def end_game(self, meta):
        return S.EndGame(at=_at(meta))

    # expressions
    def where(self, meta, cards, cond):
        return S.Where(cards, cond, at=_at(meta))

    def top(self, meta, count, cards):
        return S.Top(count, cards, False, at=_at(meta))

    def bottom(self, meta, count, cards):
        return S.Top(count, cards, True, at=_at(meta))

    def ifexpr(self, meta, cond, then, orelse):
        return S.IfExpr(cond, then, orelse, at=_at(meta))

    def or_(self, meta, left, right):
        return S.BoolOp("or", left, right, at=_at(meta))

    def and_(self, meta, left, right):
        return S.BoolOp("and", left, right, at=_at(meta))

    def not_(self, meta, operand):
        return S.Not(operand, at=_at(meta))

    def compare(self, meta, left, op, right):
        return S.Compare(str(op), left, right, at=_at(meta))

    def in_(self, meta, left, right):
        return S.In(left, right, False, at=_at(meta))

    def not_in(self, meta, left, right):
        return S.In(left, right, True, at=_at(meta))

    def binop(self, meta, left, op, right):
        return S.BinOp(str(op), left, right, at=_at(meta))

    def neg_(self, meta, operand):
        if isinstance(operand, S.Num):
            return S.Num(-operand.value, at=_at(meta))
        return S.Neg(operand, at=_at(meta))

    def attr(self, meta, obj, name):
        return S.Attr(obj, str(name), at=_at(meta))

    def index(self, meta, obj, idx):
        return S.Index(obj, idx, at=_at(meta))

    def call_expr(self, meta, fn, args):
        return S.Call(str(fn), tuple(args or ()), at=_at(meta))

    def args(self, meta, *items):
        return list(items)

    def generator(self, meta, expr, var, iterable, cond):
        return [S.Gen(expr, str(var), iterable, cond, at=_at(meta))]

    def number(self, meta, tok):
        return S.Num(int(tok), at=_tok_at(tok))

    def string(self, meta, tok):
        return S.Str(str(tok)[1:-1], at=_tok_at(tok))

    def true(self, meta):
        return S.Bool(True, at=_at(meta))

    def false(self, meta):
        return S.Bool(False, at=_at(meta))

    def name(self, meta, tok):
        return S.Name(str(tok), at=_tok_at(tok))

    def list_(self, meta, *items):
        return S.ListExpr(tuple(i for i in items if i is not None), at=_at(meta))


_TOKEN_WORDS = {
    "NAME": "a name", "NUMBER": "a number", "STRING": "a quoted string", "COMPOP": "a comparison",
    "ADDOP": "'+' or '-'", "MULOP": "'*', '/' or '%'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['",
    "RSQB": "']'", "COMMA": "','", "DOT": "'.'", "EQUAL": "'='", "$END": "the end of the text",
}


def _describe(expected) -> str:
    """A short human list of what the parser expected."""
    words = []
    for name in sorted(expected):
        word = _TOKEN_WORDS.get(name)
        if word is None:
            word = f"'{name.lower()}'" if name.isalpha() else name
        if word not in words:
            words.append(word)
    if len(words) > 6:
        words = words[:6] + ["…"]
    return ", ".join(words)


def _error(text: str, exc: UnexpectedInput, kind: str) -> DSLSyntaxError:
    """Turn a lark error into a friendly positioned message."""
    line, col = (exc.line - 1, exc.column - 1) if getattr(exc, "line", -1) and exc.line > 0 else (0, len(text))
    if isinstance(exc, UnexpectedCharacters):
        ch = text.splitlines()[line][col] if line < len(text.splitlines()) else "?"
        return DSLSyntaxError(line, col, f"unexpected character '{ch}'",
                              "strings are quoted with ' or \"; names use letters, digits and _")
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        lines = text.splitlines() or [""]
        return DSLSyntaxError(len(lines) - 1, len(lines[-1]), f"the {_KIND[kind]} ends too early",
                              f"expected {_describe(exc.expected)}")
    tok = exc.token
    return DSLSyntaxError(line, col, f"unexpected '{tok}' in this {_KIND[kind]}",
                          f"expected {_describe(exc.expected)}")


_KIND = {"expr": "expression", "stmt": "statement", "for": "loop head", "sig": "function name"}


@functools.lru_cache(maxsize=4096)
def parse(text: str, kind: str = "expr"):
    """Parse one DSL string: kind is expr, stmt, for (`x in list`) or sig (`f(a, b)`)."""
    try:
        tree = _lark().parse(text, start=START[kind])
    except UnexpectedInput as exc:
        raise _error(text, exc, kind) from None
    return _ToNodes().transform(tree)
