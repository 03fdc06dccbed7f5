"""`tell PLAYERS about CARDS where CONDITION`: the rules tell seats, of each card, whether it meets a
condition on its attributes (a hint about cards they cannot see)."""
from __future__ import annotations

from .. import ir
from .. import syntax as S
from .context import Context, Scope, Unresolved
from .resolve import resolve
from .types import elem_type, expect
from .vocabulary import CARDISH
from .words import a_type

FORM = "tell p about hand(p) where colour == c"


def seats_of(cx: Context, node, path, scope: Scope, what: str, to_whom: str):
    """PLAYERS of reveal and tell: a player or a list of players, checked (`to_whom`: 'cards are
    shown to players', what the statement does to them, for the error about a list's items)."""
    seats = resolve(cx, node, path, scope)
    if expect(cx, seats, {"player", "list"}, what,
              "a player such as me or next(current), or a list of players such as seats or [me, p]") \
            and seats.type == "list" and elem_type(cx, seats) not in ("player", "int", "any"):
        cx.error(seats.pos, f"{to_whom}, but an item of this list is {a_type(elem_type(cx, seats))}",
                 "type", "give seat numbers, e.g. seats or [me, next(me)]")
    return seats


def tell(cx: Context, node, pos, path, scope: Scope):
    """The seats, the cards (a zone, cards or a card) and a condition on each card's attributes alone."""
    seats = seats_of(cx, node.seats, path, scope, "who is told", "facts are told to players")
    told = split(node.cards)
    if told is None:
        cx.error(cx.at(path, node.cards), "tell needs a where: what the players learn about each card",
                 "tell", f"e.g. {FORM}")
        raise Unresolved
    cards = resolve(cx, told.cards, path, scope)
    if not expect(cx, cards, CARDISH | {"card"}, "what the players are told about",
                  f"name a zone, cards or a card, e.g. {FORM} or tell p about top 1 of hand(p) where rank == 5"):
        raise Unresolved
    cond = resolve(cx, told.cond, path, scope.with_card())
    expect(cx, cond, {"bool"}, "what the players are told")
    read = _reads_more(cond)
    if read is not None:
        cx.error(read.pos, "what tell says may depend only on the card's attributes and values fixed when "
                 "telling, not on a zone or other cards", "tell",
                 f"compare the card's attributes with values, e.g. {FORM} or rank != 5; work a value out "
                 "first with let if it needs a zone")
        raise Unresolved
    return ir.TellS(pos, seats, cards, cond)


def split(node):
    """CARDS where CONDITION, the last where being what is told: `top 1 of hand(p) where rank == 5`
    tells about the top card (in a move it would be the top card of those of rank 5). None: no where."""
    if isinstance(node, S.Where):
        return node
    if isinstance(node, S.Top):
        inner = split(node.cards)
        if inner is not None:
            return S.Where(S.Top(node.count, inner.cards, node.bottom, at=node.at), inner.cond, at=node.at)
    return None


def _reads_more(e, seen=None):
    """The first part of a condition that reads a zone or cards (so differs per card other than by
    its type), or None."""
    seen = set() if seen is None else seen
    if isinstance(e, ir.ZoneRef) or (isinstance(e, ir.Expr) and e.type in ("cards", "zone")):
        return e
    if isinstance(e, ir.UserCall) and e.fn.name not in seen:
        seen.add(e.fn.name)
        found = _reads_more(e.fn.body, seen)
        if found is not None:
            return e
    if not isinstance(e, ir.Expr):
        return None
    for x in ir.children(e):
        found = _reads_more(x, seen)
        if found is not None:
            return found
    return None
