"""Decisions: `choose` a set of cards, one value of a list, or one of named options."""
from __future__ import annotations

from .. import ir
from .context import Context, Scope
from .parts import choose_parts
from .simultaneous import each_seat, finish_each, then_without_each
from .resolve import value
from .types import elem_type, expect
from .vocabulary import CARDISH
from .words import either


def choose(cx: Context, path, item: dict, scope: Scope, block) -> ir.ChooseS:
    """A choose statement; `block` checks an option's statements (statements.block, passed in by its caller)."""
    pos = cx.pos(path)
    name = str(item["choose"])
    each = each_seat(cx, path, item, scope) if "each" in item else None
    then_without_each(cx, path, item)
    by = value(cx, path + ("by",), scope, default=None)
    if by is not None:
        expect(cx, by, {"player", "int"}, "who decides")
    stmt = ir.ChooseS(pos, name, None, by, public=public(cx, path, item))
    if each is not None:
        finish_each(cx, stmt, path, item, scope, block, each)
    where = cx.pos(path + ("choose",))
    forms = [k for k in ("cards", "from", "options") if k in item]
    if (len(forms) != 1 or "options" in item) and not isinstance(item.get("from"), dict):
        stmt.slot = cx.bind(name, "str" if forms == ["options"] else "any", where)
    if not forms:
        cx.error(path, f"choose '{name}' needs one of cards, from or options", "choose",
                 "cards: a zone to pick cards from; from: a list to pick one value of; options: named choices")
        return stmt
    if len(forms) > 1:
        cx.error(cx.doc.key_pos(path + (forms[1],)), f"choose '{name}' has both {forms[0]} and {forms[1]}",
                 "choose", "a choice is of cards (cards), of one value of a list (from) or of named options "
                 "(options): keep one of them")
        return stmt
    if "cards" in item:
        stmt.slot = cx.bind(name, "cards", where)
        stmt.cards = card_choice(cx, path, item, scope)
    elif isinstance(item.get("from"), dict):
        unused_card_keys(cx, path, item, f"choose '{name}' picks a value of each of its parts, not cards",
                         keep={"where"})
        choose_parts(cx, stmt, path, item, scope)
    elif "from" in item:
        unused_card_keys(cx, path, item, f"choose '{name}' picks a value of its from: list, not cards", keep={"where"})
        stmt.values = value(cx, path + ("from",), scope)
        stmt.slot = cx.bind(name, elem_type(cx, stmt.values), where)
        expect(cx, stmt.values, {"list"}, "the values to choose from")
        if "where" in item:
            stmt.where = value(cx, path + ("where",), scope)
            expect(cx, stmt.where, {"bool"}, "a where condition")
    else:
        unused_card_keys(cx, path, item, f"choose '{name}' picks one of its options, not cards")
        options(cx, stmt, path, item, scope, block)
    if by is None and each is None:
        for cc in [stmt.cards] + [o.cards for o in stmt.options]:
            own_hand_facing_away(cx, cc)
    return stmt


def own_hand_facing_away(cx: Context, cc) -> None:
    """Refuse a choice among the cards of the decider's own hand held facing away (visible: others):
    without `by`, the current player decides, and `hand` is its own."""
    base = ir.base_of(cc.cards) if cc is not None else None
    if (isinstance(base, ir.ZoneRef) and base.decl.visible == "others"
            and (base.owner is None or isinstance(base.owner, ir.Builtin) and base.owner.name in ("me", "current"))):
        cx.error(cc.cards.pos, f"zone '{base.decl.name}' is seen by everyone but its owner (visible: others), so "
                 "its owner choosing among its cards would see their faces in the list of moves", "choose",
                 f"choose a place instead, e.g. choose: slot, from: numbers(count({base.decl.name})), "
                 f"then move top of bottom slot of {base.decl.name}")


def public(cx: Context, path, item: dict) -> bool:
    """public: true, every seat sees the choice as it is made; refused where the choice must stay unseen."""
    if item.get("public") is not True:
        return False
    if "each" in item:
        cx.error(cx.doc.key_pos(path + ("public",)), f"choose '{item['choose']}' with each is made unseen by the "
                 "other seats until all have chosen, so public would contradict it", "choose",
                 "remove public; the choices are told by what then does with them")
    return True


CARD_KEYS = ("where", "count", "min", "max", "same")     # what a card choice says besides its cards


def unused_card_keys(cx: Context, path, spec: dict, what: str, keep=frozenset()) -> None:
    """Report the card-choice keys of a choice that has no cards: they would be ignored."""
    for key in (k for k in CARD_KEYS if k in spec and k not in keep):
        if path[-2:-1] == ("options",) and key == "where":
            hint = (f"an option without cards is always legal; to offer '{path[-1]}' only sometimes, give it "
                    "when: CONDITION, or give it cards: to pick")
        elif path[-2:-1] == ("options",):
            hint = f"{key} is about the cards an option picks: add cards: ZONE to the option, or remove {key}"
        else:
            hint = f"{key} belongs to a choice of cards: remove it" + (
                ", or write it inside the option that has cards:" if "options" in spec else "")
        cx.error(cx.doc.key_pos(path + (key,)), f"{what}, so its {key} would be ignored",
                 "choose", hint)


def options(cx: Context, stmt: ir.ChooseS, path, item: dict, scope: Scope, block) -> None:
    """The named options of a choice, each maybe with cards to pick and statements to run."""
    for opt, spec in (item.get("options") or {}).items():
        opath = path + ("options", opt)
        spec = spec or {}
        if "cards" not in spec:
            unused_card_keys(cx, opath, spec, f"option '{opt}' has no cards: to pick from")
        cards = card_choice(cx, opath, spec, scope) if "cards" in spec else None
        when = value(cx, opath + ("when",), scope, default=None)      # read before the option binds its name
        expect(cx, when, {"bool"}, "an option's when condition")
        slot = cx.bind(str(opt), "cards", cx.doc.key_pos(opath)) if cards else None
        stmt.options.append(ir.Option(str(opt), slot, cards, block(cx, opath + ("do",), scope), when))
    if not stmt.options:
        cx.error(path + ("options",), "a choice needs at least one option", "choose",
                 "name each option under options, e.g. options: {pass: {}, take: {do: [...]}}")


def card_choice(cx: Context, path, spec: dict, scope: Scope) -> ir.CardChoice:
    """Which cards may be chosen (cards, where), how many (count, or min and max), and alike in what (same)."""
    cards = value(cx, path + ("cards",), scope)
    expect(cx, cards, CARDISH, "the cards to choose from")
    base = ir.base_of(cards)
    if isinstance(base, ir.ZoneRef) and base.decl.visible == "nobody":
        cx.error(cards.pos, f"zone '{base.decl.name}' is face down (visible: nobody), so choosing among its "
                 "cards would show their faces in the list of moves", "choose",
                 "choose a place instead (a value of a list, e.g. a position or a pile), then move top of it")
    where = value(cx, path + ("where",), scope.with_card(), default=None)
    expect(cx, where, {"bool"}, "a where condition")
    if "count" in spec:
        for key in (k for k in ("min", "max") if k in spec):
            cx.error(cx.doc.key_pos(path + (key,)), f"count says exactly how many cards to choose, so {key} "
                     "would be ignored", "choose", f"remove {key}, or replace count by min and max")
        lo = hi = value(cx, path + ("count",), scope)
    else:
        lo = value(cx, path + ("min",), scope, default=1)
        hi = value(cx, path + ("max",), scope, default=None)
    for bound in (lo, hi):
        if bound is not None:
            expect(cx, bound, {"int"}, "how many cards to choose")
    same = spec.get("same")
    if same is not None and same not in cx.attrs:
        hint = cx.suggest(same, cx.attrs) or f"the card attributes are {either(sorted(cx.attrs))}"
        cx.error(path + ("same",), f"same: '{same}' is not a card attribute", "name", hint)
    return ir.CardChoice(cards, where, lo, hi, same)
