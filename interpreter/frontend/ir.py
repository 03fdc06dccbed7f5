"""The resolved program: what the checker hands to the compiler.

Every name is resolved to what it denotes (a zone, a parameter, a local slot, a card
attribute); every node has a source position and, for expressions, a type:
int, bool, str, value (int or str), list, card, cards, zone, player or any.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from ..errors import Pos


@dataclass(eq=False)
class Expr:
    pos: Pos
    type: str


# ---- declarations ----
@dataclass(eq=False)
class ZoneDecl:
    name: str
    index: int                 # declaration order
    per_player: bool
    per: Any                   # Expr giving the family's index list, or None
    visible: str               # everyone | owner | others | nobody
    on_empty: list             # statements (no decisions)
    pos: Pos
    alike: bool = False        # every move into an empty zone of the family brings one card type


@dataclass(eq=False)
class VarDecl:
    name: str
    index: int
    per_player: bool
    initial: Any               # Expr
    pos: Pos


@dataclass(eq=False)
class CardKind:
    name: str
    loops: list                # [(var, Expr list, slot)]
    template: str
    count: Any                 # Expr, evaluated with loop vars bound
    attrs: list                # [(name, Expr)]
    start: ZoneDecl
    pos: Pos


@dataclass(eq=False)
class FunctionDecl:
    name: str
    params: list               # slot numbers
    body: Any                  # Expr (filled after all signatures are known)
    pos: Pos


# ---- expressions ----
@dataclass(eq=False)
class Lit(Expr):
    value: Any


@dataclass(eq=False)
class Param(Expr):
    name: str


@dataclass(eq=False)
class Local(Expr):
    slot: int
    name: str


@dataclass(eq=False)
class Var(Expr):
    decl: VarDecl
    owner: Any                 # Expr or None (per-player vars default to `me`)


@dataclass(eq=False)
class Builtin(Expr):
    name: str                  # current | me | players | seats | turn | decider


@dataclass(eq=False)
class CardAttr(Expr):
    attr: str                  # attribute of the card tested by the innermost `where`


@dataclass(eq=False)
class GetAttr(Expr):
    obj: Expr
    attr: str


@dataclass(eq=False)
class ZoneRef(Expr):
    decl: ZoneDecl
    index: Any                 # Expr or None
    owner: Any                 # Expr or None


@dataclass(eq=False)
class Func(Expr):
    name: str
    args: tuple


@dataclass(eq=False)
class Gen(Expr):
    expr: Expr
    slot: int
    iterable: Expr
    cond: Any
    by: Any = None             # highest/lowest: the number each item is ranked by


@dataclass(eq=False)
class UserCall(Expr):
    fn: FunctionDecl
    args: tuple


@dataclass(eq=False)
class Bin(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass(eq=False)
class Cmp(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass(eq=False)
class InOp(Expr):
    left: Expr
    right: Expr
    negate: bool


@dataclass(eq=False)
class Logic(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass(eq=False)
class NotOp(Expr):
    operand: Expr


@dataclass(eq=False)
class NegOp(Expr):
    operand: Expr


@dataclass(eq=False)
class Cond(Expr):
    cond: Expr
    then: Expr
    orelse: Expr


@dataclass(eq=False)
class Filter(Expr):
    cards: Expr
    cond: Expr


@dataclass(eq=False)
class TopN(Expr):
    count: Any                 # Expr or None (one card)
    cards: Expr
    bottom: bool


@dataclass(eq=False)
class ListLit(Expr):
    items: tuple


def children(e) -> list:
    """The expressions directly inside e."""
    out = []
    for f in fields(e):
        v = getattr(e, f.name)
        if isinstance(v, Expr):
            out.append(v)
        elif isinstance(v, tuple):
            out.extend(x for x in v if isinstance(x, Expr))
    return out


def base_of(cards: Expr) -> Expr:
    """What a set of cards is cut from: `hand` for `top 2 of hand where ...`."""
    while isinstance(cards, (Filter, TopN)):
        cards = cards.cards
    return cards


# ---- statements ----
@dataclass(eq=False)
class Stmt:
    pos: Pos


@dataclass(eq=False)
class MoveS(Stmt):
    cards: Expr
    dest: ZoneRef
    bottom: bool = False       # `to bottom of ZONE`: under the cards already there


@dataclass(eq=False)
class ShuffleS(Stmt):
    zone: ZoneRef


@dataclass(eq=False)
class DealS(Stmt):
    count: Expr
    source: ZoneRef
    dest: ZoneDecl
    starting: Any


@dataclass(eq=False)
class LetS(Stmt):
    slot: int
    value: Expr


@dataclass(eq=False)
class SetS(Stmt):
    decl: VarDecl
    owner: Any
    value: Expr
    items: tuple = ()          # Exprs: set grid[i][j] = v sets one item of a (nested) list


@dataclass(eq=False)
class RevealS(Stmt):
    cards: Expr                # shown where they lie, nothing moves
    seats: Expr                # a player, or a list of players


@dataclass(eq=False)
class ExtraS(Stmt):
    pass


@dataclass(eq=False)
class CallS(Stmt):
    name: str
    args: tuple = ()           # Expr per parameter, bound to `slots` before the procedure runs
    slots: tuple = ()


@dataclass(eq=False)
class EndS(Stmt):
    pass


@dataclass(eq=False)
class EliminateS(Stmt):
    seat: Expr
    back: bool                 # True: `restore p` brings the seat back into play


@dataclass(eq=False)
class ReverseS(Stmt):
    pass


@dataclass(eq=False)
class StandingRule:
    """A rule of `whenever`: after every move or deal, `body` runs while `cond` holds (for an item)."""
    pos: Pos
    slot: Any                  # the local of its `for` name, or None
    iterable: Any              # the list its `for` goes over, or None
    cond: Expr
    body: list


@dataclass(eq=False)
class AnnounceS(Stmt):
    cards: Filter              # ZONE where CONDITION: every seat learns the zone holds no such card


@dataclass(eq=False)
class TellS(Stmt):
    seats: Expr                # a player, or a list of players
    cards: Expr                # a zone, cards or a card
    cond: Expr                 # per card, on its attributes only: each seat learns whether it holds


@dataclass(eq=False)
class IfS(Stmt):
    cond: Expr
    then: list
    orelse: list


@dataclass(eq=False)
class ForS(Stmt):
    slot: int
    iterable: Expr
    body: list


@dataclass(eq=False)
class WhileS(Stmt):
    cond: Expr
    body: list


@dataclass(eq=False)
class TogetherS(Stmt):
    body: list                 # moves (and let, if, for): each takes its cards, then all land


@dataclass(eq=False)
class StepS(Stmt):
    name: str
    body: list


@dataclass(eq=False)
class CardChoice:
    """The card part of a decision: which cards may be chosen, how many."""

    cards: Expr
    where: Any
    lo: Any                    # Expr
    hi: Any                    # Expr or None (no upper bound)
    same: Any                  # attribute name or None


@dataclass(eq=False)
class Option:
    name: str
    slot: Any                  # local slot the option's cards are bound to, or None
    cards: Any                 # CardChoice or None
    body: list
    when: Any = None           # Expr: offered only while this holds (None: always)


@dataclass(eq=False)
class Part:
    """One named part of a decision over several things at once: its local slot and its values."""

    name: str
    slot: int
    values: Expr               # a list; it may read the parts before it


@dataclass(eq=False)
class ChooseS(Stmt):
    name: str
    slot: int
    by: Any                    # Expr or None (the current player)
    cards: Any = None          # CardChoice: choose cards
    values: Any = None         # Expr: choose one value of a list
    where: Any = None          # condition on each value (`it`)
    options: list = field(default_factory=list)
    parts: list = field(default_factory=list)      # [Part]: choose one value of each at once
    each_slot: Any = None      # each: p in SEATS, the slot of p (every seat chooses, unseen by the others) ...
    each_in: Any = None        # ... and SEATS
    body: list = field(default_factory=list)       # then: run once per seat after all have chosen
    public: bool = False       # every seat sees the choice as it is made


@dataclass(eq=False)
class Stat:
    """A designer's statistic: worked out when the game ends, for every seat or once per game."""

    name: str
    expr: Expr                 # a number or true/false
    per_seat: bool             # it reads `me`, or a seat's own zone or variable written without a seat
    pos: Pos                   # where its name is written


@dataclass(eq=False)
class ShownValue:
    """A value `play` shows (display.show): worked out on the game as it stands, for each seat or once."""

    label: str
    expr: Expr                 # a number, true/false, a text or a player
    per_seat: bool             # per: seat: worked out with each seat as `me`, shown in its panel
    pos: Pos                   # where the entry is written


@dataclass(eq=False)
class Ruleset:
    """A checked ruleset, independent of the player count."""

    name: str
    file: str
    min_players: int
    max_players: int
    params: dict               # name -> (value or {count: value}, Pos)
    cards: list
    zones: list
    zone_by_name: dict
    vars: list
    functions: dict
    procedures: dict
    setup: list
    first: Any
    next: Any
    steps: list
    end_when: Expr
    finish: set
    score: Expr
    tiebreak: list             # [(sign, Expr)]: +1 most, -1 fewest
    bot_eval: Any
    slots: list                # local slot names
    sources: list
    overrides: dict
    display: dict = field(default_factory=lambda: {"knowledge": "full"})   # how `play` shows a seat's view
    stats: list = field(default_factory=list)      # [Stat] in the order the file gives them
    bot_options: dict = field(default_factory=dict)    # bots.options as written: {bot: (Pos, {option: (text, Pos, Pos)})}
    lowest_wins: bool = False  # wins: lowest (the lowest score wins; the default is the highest)
    cooperative: Any = None    # cooperative.win: the condition under which the whole table wins; None: each for themselves
    whenever: list = field(default_factory=list)   # [StandingRule] in the order the file gives them
    play_order: Any = None     # (slot of the mask of seats out of play, slot of the direction) when
                               # the rules eliminate, restore or reverse; None: every seat plays, clockwise
    slot_types: list = field(default_factory=list)   # the type of each slot's values ('card', 'cards', 'int', 'any', …)
    card_vars: list = field(default_factory=list)    # game variables a rule sets to a card or cards
