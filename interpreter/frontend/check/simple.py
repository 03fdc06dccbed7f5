"""One-line statements: move, shuffle, deal, let, set, extra turn, end game, call, reveal."""
from __future__ import annotations

import re

from .. import ir
from .. import syntax as S
from .announce import announce_none
from .tell import seats_of, tell
from .context import Context, Scope, Unresolved
from .calls import check_arguments
from .expressions import check_not_negative
from .play_order import eliminate, reverse
from .resolve import resolve, zone_instance
from .types import elem_type, expect, item_values
from .vocabulary import CARDISH, value_type
from .words import a_type


def simple(cx: Context, node, path, scope: Scope):
    """A one-line statement."""
    pos = cx.at(path, node)
    check = _ONE_LINE.get(type(node))
    if check is None:
        cx.error(pos, "an expression on its own does nothing here", "statement",
                 "a step starts with move, shuffle, deal, let, set, extra turn, call, reveal, announce, tell, "
                 "end game, eliminate, restore or reverse")
        return None
    return check(cx, node, pos, path, scope)


def move(cx: Context, node, pos, path, scope: Scope):
    cards = resolve(cx, node.cards, path, scope)
    expect(cx, cards, CARDISH, "what to move")
    dest, bottom = node.dest, False
    if isinstance(dest, S.Top) and dest.bottom and dest.count is None:
        dest, bottom = dest.cards, True       # move ... to bottom of ZONE
    elif isinstance(dest, S.Top):
        zone = dest.cards.id if isinstance(dest.cards, S.Name) else "ZONE"
        if dest.bottom:
            cx.error(cx.at(path, dest), "cards go to the bottom of a zone, not to 'bottom N of' it",
                     "type", f"write 'to bottom of {zone}': only the bottom of a zone can receive cards; "
                     f"say how many cards on the left, e.g. move top 2 of ... to bottom of {zone}")
        else:
            cx.error(cx.at(path, dest), "cards moved to a zone go on its top: write the zone alone, "
                     "not 'top of' it", "type", f"write 'to {zone}' (or 'to bottom of {zone}' to put "
                     "them under it)")
        raise Unresolved
    return ir.MoveS(pos, cards, zone_instance(cx, dest, path, scope), bottom)


def shuffle(cx: Context, node, pos, path, scope: Scope):
    return ir.ShuffleS(pos, zone_instance(cx, node.zone, path, scope))


def deal(cx: Context, node, pos, path, scope: Scope):
    count = resolve(cx, node.count, path, scope)
    expect(cx, count, {"int"}, "how many cards each player is dealt")
    check_not_negative(cx, count, "this deal")
    source = zone_instance(cx, node.source, path, scope)
    dest = deal_target(cx, node, path)
    starting = resolve(cx, node.starting, path, scope) if node.starting else None
    if starting is not None:
        expect(cx, starting, {"player"}, "the player dealt to first")
    return ir.DealS(pos, count, source, dest, starting)


def deal_target(cx: Context, node: S.Deal, path):
    """The zone a deal gives cards to: one that each player has (not a family)."""
    where = cx.find(path, node, r"\bto\s+(" + re.escape(node.dest) + r")\b")
    dest = cx.zones.get(node.dest)
    if dest is None:
        hint = cx.suggest(node.dest, [z for z, d in cx.zones.items() if d.per_player]) or \
            cx.suggest(node.dest, cx.zones) or "declare it under zones with owner: each"
        cx.error(where, f"unknown zone '{node.dest}'", "name", hint)
    elif not dest.per_player:
        cx.error(where, f"deal gives cards to every player, but zone '{dest.name}' belongs to the table",
                 "deal", f"deal to a zone with owner: each, like hand; to lay cards on '{dest.name}', write "
                 f"move top N of ... to {dest.name}")
    elif dest.per is not None:
        cx.error(where, f"deal cannot give cards to the zone family '{dest.name}'", "deal",
                 "deal to a zone with owner: each and no per; then move cards on from there")
    else:
        return dest
    return None


def let(cx: Context, node, pos, path, scope: Scope):
    value = resolve(cx, node.value, path, scope)
    where = cx.find(path, node, r"\blet\s+(" + re.escape(node.name) + r")\b")
    return ir.LetS(pos, cx.bind(node.name, value.type, where), value)


def set_var(cx: Context, node, pos, path, scope: Scope):
    decl = cx.vars.get(node.name)
    if decl is None:
        where = cx.find(path, node, r"\bset\s+(" + re.escape(node.name) + r")\b")
        local = node.name in cx.slots or node.name in cx.binders()
        hint = cx.suggest(node.name, cx.vars) or (
            f"'{node.name}' is a local name: give it a new value with let {node.name} = ..." if local
            else f"declare it under vars, e.g. vars: {{{node.name}: {{initial: 0}}}}, or use let for a local")
        cx.error(where, f"'{node.name}' is not a variable declared under vars", "name", hint)
        raise Unresolved
    owner = resolve(cx, node.owner, path, scope) if node.owner else None
    if owner is not None and not decl.per_player:
        cx.error(owner.pos, f"variable '{decl.name}' belongs to the table; it takes no player", "type",
                 f"write set {decl.name} = ...")
    elif owner is not None:
        expect(cx, owner, {"player"}, "a variable's owner")
    value = resolve(cx, node.value, path, scope)
    if _holds_cards(cx, value):
        cx.card_vars.add(decl.name)
    kind = cx.var_types.get(decl.name, "any")
    if node.items:
        items = _item_path(cx, decl, kind, node.items, path, scope)
        _item_kind(cx, decl, items, value)
        return ir.SetS(pos, decl, owner, value, items)
    if kind != "any":
        fits = {kind, "cards", "zone"} if kind == "list" else {kind}
        expect(cx, value, fits, f"the new value of '{decl.name}'",
               f"'{decl.name}' starts as {a_type(kind)} (its initial value), so it always holds one")
    return ir.SetS(pos, decl, owner, value)


def _holds_cards(cx: Context, value) -> bool:
    """Whether a value may hold card ids: cards, a zone, a list of them at any depth, a variable that does."""
    if value.type in ("card", "cards", "zone") or elem_type(cx, value) == "card":
        return True
    if isinstance(value, ir.ListLit):
        return any(_holds_cards(cx, item) for item in value.items)
    return isinstance(value, ir.Var) and value.decl.name in cx.card_vars


def _item_path(cx: Context, decl, kind: str, items, path, scope: Scope) -> tuple:
    """The indices of `set grid[i][j] = v`: numbers, into a variable that holds a list."""
    idx = tuple(resolve(cx, i, path, scope) for i in items)
    if kind not in ("list", "any"):
        cx.error(idx[0].pos, f"'{decl.name}' holds {a_type(kind)}, so it has no items to set", "type",
                 f"'{decl.name}' starts as {a_type(kind)} (its initial value); give it a list there, e.g. [0, 0]")
    for i in idx:
        expect(cx, i, {"int"}, "a list index")
    return idx


def _item_kind(cx: Context, decl, idx: tuple, value) -> None:
    """Report a new item of another kind than the items at that depth of the variable's initial value,
    or an index past the depth of its lists."""
    items = item_values(decl.initial)
    for level in range(1, len(idx)):
        kinds = {v.type if isinstance(v, ir.Expr) else value_type(v) for v in items or ()}
        if kinds and not kinds & {"list", "any", "value", "null"}:
            cx.error(idx[level].pos, f"'{decl.name}' holds lists only {level} deep: an item at that depth is "
                     f"{' or '.join(sorted(a_type(k) for k in kinds))} (its initial value), so this index has "
                     "no list to go into", "type",
                     f"write {level} index{'es' if level > 1 else ''}, or start '{decl.name}' as a deeper list")
            return
        rows = [item_values(row) for row in items or ()]
        items = None if not rows or None in rows else [v for row in rows for v in row]
    kinds = {v.type if isinstance(v, ir.Expr) else value_type(v) for v in items or ()}
    if len(kinds) == 1 and not kinds & {"any", "value", "null"}:
        kind = kinds.pop()
        expect(cx, value, {"int", "player"} if kind == "int" else {kind}, f"the new item of '{decl.name}'",
               f"the items there start as {a_type(kind)} (its initial value), so they always hold one")


def reveal(cx: Context, node, pos, path, scope: Scope):
    """`reveal CARDS to PLAYERS`: the cards are shown where they lie to a player or a list of players."""
    cards = resolve(cx, node.cards, path, scope)
    expect(cx, cards, CARDISH | {"card"}, "what to reveal", "name a zone, cards or a card, e.g. reveal hand(p) "
           "to me or reveal top 1 of draw to seats")
    seats = seats_of(cx, node.seats, path, scope, "who the cards are shown to",
                     "cards are shown to players")
    return ir.RevealS(pos, cards, seats)


def extra_turn(cx: Context, node, pos, path, scope: Scope):
    return ir.ExtraS(pos)


def end_game(cx: Context, node, pos, path, scope: Scope):
    return ir.EndS(pos)


def call_procedure(cx: Context, node, pos, path, scope: Scope):
    """`call NAME` or `call NAME(x, y)`: as many arguments as the procedure's key names, none a zone."""
    where = cx.find(path, node, r"\bcall\s+(" + re.escape(node.name) + r")\b")
    if node.name not in cx.proc_paths:
        hint = cx.suggest(node.name, cx.proc_paths) or "declare it under procedures"
        cx.error(where, f"unknown procedure '{node.name}'", "name", hint)
        raise Unresolved
    params = cx.proc_params[node.name]
    if len(node.args) != len(params):
        key = cx.proc_paths[node.name][-1]
        cx.error(where, f"procedure '{node.name}' takes {len(params)} argument(s), not {len(node.args)}", "type",
                 f"it is declared as {key}")
        raise Unresolved
    args = tuple(resolve(cx, a, path, scope) for a in node.args)
    for name, arg in zip(params, args):
        if arg.type == "zone":      # a zone in the state's slots would be a list shared by every clone
            cx.error(arg.pos, f"a procedure's parameter holds a value, a player or cards, not a zone ('{name}')",
                     "type", f"pass the zone's owner or index and name the zone inside the procedure, e.g. "
                     f"call {node.name}(p) with hand(p) in its statements")
    check_arguments(cx, node.name, "procedure", list(params), tuple(ir.Lit(a.pos, "any", None)
                                                                    if a.type == "zone" else a for a in args))
    return ir.CallS(pos, node.name, args, tuple(params.values()))


_ONE_LINE = {S.Move: move, S.Shuffle: shuffle, S.Deal: deal, S.Let: let, S.SetVar: set_var,
             S.ExtraTurn: extra_turn, S.EndGame: end_game, S.CallProc: call_procedure, S.Reveal: reveal,
             S.Eliminate: eliminate, S.Reverse: reverse}
_ONE_LINE[S.AnnounceNone] = announce_none
_ONE_LINE[S.Tell] = tell
