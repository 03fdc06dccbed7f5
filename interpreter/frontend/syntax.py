"""Syntax nodes of the rules language: small frozen dataclasses that keep their position.

`at` is the (line, col) of the node inside its YAML string, both 0-based; `src` is the
document path of that string, so the checker can turn `at` into file:line:col.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Node:
    at: tuple = field(default=(0, 0), compare=False, repr=False, kw_only=True)


# ---- expressions ----
@dataclass(frozen=True)
class Num(Node):
    value: int


@dataclass(frozen=True)
class Str(Node):
    value: str


@dataclass(frozen=True)
class Bool(Node):
    value: bool


@dataclass(frozen=True)
class Const(Node):
    """A value given as YAML data (a list or scalar), not as DSL text."""

    value: Any


@dataclass(frozen=True)
class Name(Node):
    id: str


@dataclass(frozen=True)
class ListExpr(Node):
    items: tuple


@dataclass(frozen=True)
class Attr(Node):
    obj: Node
    name: str


@dataclass(frozen=True)
class Index(Node):
    obj: Node
    index: Node


@dataclass(frozen=True)
class Call(Node):
    fn: str
    args: tuple


@dataclass(frozen=True)
class Gen(Node):
    """`expr for var in iterable [if cond] [by key]`, only as the argument of an aggregate (with
    `by`: of highest or lowest)."""

    expr: Node
    var: str
    iterable: Node
    cond: Node | None
    by: Node | None = None


@dataclass(frozen=True)
class BinOp(Node):
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class Compare(Node):
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class In(Node):
    left: Node
    right: Node
    negate: bool


@dataclass(frozen=True)
class BoolOp(Node):
    op: str  # 'and' | 'or'
    left: Node
    right: Node


@dataclass(frozen=True)
class Not(Node):
    operand: Node


@dataclass(frozen=True)
class Neg(Node):
    operand: Node


@dataclass(frozen=True)
class IfExpr(Node):
    cond: Node
    then: Node
    orelse: Node


@dataclass(frozen=True)
class Where(Node):
    cards: Node
    cond: Node


@dataclass(frozen=True)
class Top(Node):
    count: Node | None
    cards: Node
    bottom: bool


# ---- one-line statements ----
@dataclass(frozen=True)
class Move(Node):
    cards: Node
    dest: Node


@dataclass(frozen=True)
class Shuffle(Node):
    zone: Node


@dataclass(frozen=True)
class Deal(Node):
    count: Node
    source: Node
    dest: str
    starting: Node | None


@dataclass(frozen=True)
class Let(Node):
    name: str
    value: Node


@dataclass(frozen=True)
class SetVar(Node):
    name: str
    owner: Node | None
    value: Node
    items: tuple = ()           # set grid[i][j] = v: the indices down to the item set


@dataclass(frozen=True)
class ExtraTurn(Node):
    pass


@dataclass(frozen=True)
class CallProc(Node):
    name: str
    args: tuple = ()


@dataclass(frozen=True)
class Reveal(Node):
    """`reveal CARDS to PLAYERS`: cards shown without moving."""

    cards: Node
    seats: Node


@dataclass(frozen=True)
class EndGame(Node):
    pass


@dataclass(frozen=True)
class Eliminate(Node):
    seat: Node
    back: bool          # `restore p`


@dataclass(frozen=True)
class Reverse(Node):
    pass


@dataclass(frozen=True)
class AnnounceNone(Node):
    cards: Node                # ZONE where CONDITION: the cards the zone is said to hold none of


@dataclass(frozen=True)
class Tell(Node):
    """`tell PLAYERS about CARDS where CONDITION`: the players learn, of each card, whether it holds."""

    seats: Node
    cards: Node                # CARDS where CONDITION


@dataclass(frozen=True)
class ForHead(Node):
    var: str
    iterable: Node


@dataclass(frozen=True)
class Signature(Node):
    name: str
    params: tuple
