"""Simultaneous decisions: `choose` with `each: p in SEATS` asks every seat p of the list in turn,
keeps each choice hidden from the others until all have chosen, then runs `then` once per seat with
the choice's name bound to that seat's choice."""
from __future__ import annotations

from .. import ir
from .context import Context, Scope
from .resolve import resolve
from .words import a_type


def each_seat(cx: Context, path, item: dict, scope: Scope):
    """(slot of the seat's name, the seats) of `each: p in SEATS`, the name bound before the choice."""
    where = path + ("each",)
    head = cx.parse(where, str(item["each"]), "for")
    seats = resolve(cx, head.iterable, where, scope)
    if seats.type not in ("list", "any"):
        cx.error(seats.pos, f"each: goes over a list of seats, but this is {a_type(seats.type)}", "type",
                 "write each: p in seats, or a list of seats such as each: p in [0, 2]")
    return cx.bind(head.var, "player", cx.at(where, head)), seats


def finish_each(cx: Context, stmt: ir.ChooseS, path, item: dict, scope: Scope, block, each) -> None:
    """The rest of a simultaneous choice: who decides is the seat of each, and what runs once all chose."""
    name = stmt.name
    if "by" in item:
        cx.error(cx.doc.key_pos(path + ("by",)), f"choose '{name}' is made by each seat of its each: list, so "
                 "its by would be ignored", "choose", "remove by: every seat of each: chooses, in turn")
    if "options" in item:
        cx.error(cx.doc.key_pos(path + ("options",)), f"choose '{name}' is made by every seat at once, but a "
                 "choice of options runs its option's do at once", "choose",
                 "choose a value (from: a list of names) and act on it under then:, e.g. with if")
    stmt.each_slot, stmt.each_in = each
    stmt.body = block(cx, path + ("then",), scope)


def then_without_each(cx: Context, path, item: dict) -> None:
    """`then:` belongs to a simultaneous choice; on any other it would be ignored."""
    if "then" in item and "each" not in item:
        cx.error(cx.doc.key_pos(path + ("then",)), f"choose '{item['choose']}' has then: but no each:, so its "
                 "then would be ignored", "choose", "then: runs once every seat of each: has chosen; "
                 "for one player's choice, write the statements after the choose")
