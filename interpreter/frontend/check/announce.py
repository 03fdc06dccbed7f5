"""`announce none of ZONE where CONDITION`: the rules tell every seat a zone holds no such card."""
from __future__ import annotations

from .. import ir
from .. import syntax as S
from .context import Context, Scope, Unresolved
from .resolve import resolve

FORM = "announce none of hand(p) where suit == led"


def announce_none(cx: Context, node, pos, path, scope: Scope):
    """The fact must name one zone and, with a where, which cards it holds none of."""
    if isinstance(node.cards, S.Top):
        cx.error(cx.at(path, node.cards), "announce none of tells what one zone holds: name the zone itself, "
                 "not top N of it", "announce", f"e.g. {FORM}")
        raise Unresolved
    if not isinstance(node.cards, S.Where):
        cx.error(cx.at(path, node.cards), "announce none of needs a where: which cards the zone holds none of",
                 "announce", f"e.g. {FORM}; how many cards a zone holds every seat sees already")
        raise Unresolved
    cards = resolve(cx, node.cards, path, scope)
    if not isinstance(cards, ir.Filter):
        raise Unresolved                    # already reported (a where on something that is not cards)
    zone = cards.cards
    if isinstance(zone, ir.Lit) and zone.type == "any":
        raise Unresolved                    # already reported
    if isinstance(zone, ir.Filter):
        cx.error(zone.pos, "announce none of takes one where: join the conditions with and", "announce",
                 "e.g. announce none of hand(p) where suit == s and rank > 10")
        raise Unresolved
    if not isinstance(zone, ir.ZoneRef):
        cx.error(zone.pos, "announce none of tells what one zone holds: name the zone itself before where",
                 "announce", f"e.g. {FORM}; a zone joined with '+', a top N of or a chosen set is not one zone")
        raise Unresolved
    return ir.AnnounceS(pos, cards)
