"""Per-card conditions made cheap: what a `where` works out for every card, worked out less often.

Two rewrites of a condition's parts, both exact (the same value for every card, no error that the
old code would not meet):
  - a part that depends on the card's type only (`colour == 'red'`) becomes one lookup in a
    table per card id, filled before the game from each type's attributes;
  - a part that does not depend on the card at all (`first(table).colour`) is worked out once per
    filter, and only when there is a card to test; only parts that cannot fail are moved, so when
    and how often they run makes no difference.
"""
from __future__ import annotations

from ..frontend import ir
from ..runtime.helpers import KEYED_TESTS, Keyed, KeyedIds
from .fold import NO, PURE, subst

# what a table may hold: values nothing can change in place (the table's cells are shared)
_SCALARS = (bool, int, str, type(None))
# parts worth moving out of the loop: a cheap leaf (a literal, `V[3]`, `Z[4]`) stays where it is
_LEAVES = (ir.Lit, ir.Param, ir.Local, ir.Builtin, ir.Var, ir.ZoneRef)
_DEPTH = 16


class Hoist:
    """The card-free parts of one filter's condition, each worked out once before its loop."""

    def __init__(self, env: dict, open_: bool = True):
        self.env = env          # the names in scope outside the filter's loop
        self.open = open_       # False: tables only (a function called once per card has no loop)
        self.parts: list = []   # (Python name, source), in the order they were found

    def add(self, gen, src: str) -> str:
        for name, known in self.parts:
            if known == src:
                return name
        name = gen.fresh("x")
        self.parts.append((name, src))
        return name

    def binds(self) -> str:
        """` for _x1 in (SRC,)` per part: comprehension clauses that bind each part once."""
        return "".join(f" for {name} in ({src},)" for name, src in self.parts)


def loop_env(env: dict, card: str, open_: bool = True) -> tuple:
    """(env inside a filter's loop over `card`, its Hoist): the env the condition is written in."""
    hoist = Hoist(env, open_)
    return {**env, "@card": card, "@hoist": hoist}, hoist


def loop_src(card: str, cards: str, cond: str, hoist: Hoist, zone: str) -> str:
    """`for c in CARDS if COND` as comprehension clauses; the hoisted parts bound once, after
    CARDS and only if it holds a card (`zone` names it; len, not truth, so that what is not a
    list of cards fails as before)."""
    if not hoist.parts:
        return f"for {card} in {cards} if {cond}"
    return f"for {zone} in ({cards},) if len({zone}){hoist.binds()} for {card} in {zone} if {cond}"


def rewrite(gen, e, env: dict):
    """Source for e as a table lookup or a hoisted name, if one of the rewrites fits; else None."""
    hoist = env.get("@hoist")
    if hoist is None or isinstance(e, _LEAVES):
        return None
    if isinstance(e, ir.CardAttr):
        return None
    if type_only(e):
        table = gen.type_table(e)
        return f"{gen.k(table)}[{env['@card']}]" if table is not None else None
    if hoist.open and cannot_fail(gen, e, env, hoist.env):
        return hoist.add(gen, gen.x(e, hoist.env))
    if hoist.open and isinstance(e, ir.InOp):
        return membership(gen, e, env, hoist)
    return None


def membership(gen, e: ir.InOp, env: dict, hoist: Hoist):
    """`X in CARDS.ATTR` with CARDS card-free and unfailing, and X and every ATTR always a key: the
    attributes made a set once per filter, so each card's test is one lookup, not a pass over the
    list (the same answer: such values are equal only where their hashes are)."""
    right = e.right
    if not (_always_key(gen, e.left, env) and cannot_fail(gen, right, env, hoist.env)):
        return None
    if isinstance(right, ir.GetAttr) and right.obj.type in ("cards", "zone") and _keys(gen, right.attr):
        table = gen.k(gen.layout.attr_tables[right.attr])
        values = hoist.add(gen, f"set(map({table}.__getitem__, {gen.x(right.obj, hoist.env)}))")
    elif isinstance(right, (ir.Local, ir.Var)):
        values = hoist.add(gen, f"_h.members({gen.x(right, hoist.env)})")     # a set if it is a list of keys
    else:
        return None
    return f"({gen.x(e.left, env)} {'not in' if e.negate else 'in'} {values})"


def all_keys(values) -> bool:
    """Whether every value is a number, a text, true/false or nothing: a set or a shared table may
    hold them (none can be changed in place; such values are equal only where their hashes are)."""
    return all(isinstance(v, _SCALARS) for v in values)


def _keys(gen, attr: str) -> bool:
    """Whether every card's value of attr is a number, a text, true/false or nothing."""
    return all_keys(gen.layout.attr_tables[attr])


def _always_key(gen, e, env: dict) -> bool:
    """Whether e's value is always a number, a text, true/false or nothing (a set's possible member);
    env[("key", slot)]: a local that runs over such values only."""
    if isinstance(e, ir.CardAttr):
        return _keys(gen, e.attr)
    if e.type in _KEYS or isinstance(e, ir.Local) and env.get(("key", e.slot)):
        return True
    values = gen.type_values(e) if type_only(e) else None
    return values is not None and all_keys(values)


def type_only(e, depth: int = 0) -> bool:
    """Whether e reads the card's attributes and constants only (never the state), so that its
    value per card type can be worked out before the game; it must read the card at least once."""
    return _type_only(e, depth) and _reads_card(e, depth)


def _type_only(e, depth: int) -> bool:
    if isinstance(e, (ir.Lit, ir.Param, ir.CardAttr)):
        return True
    if isinstance(e, ir.Builtin):
        return e.name in ("players", "seats")
    if depth > _DEPTH:
        return False
    if isinstance(e, ir.UserCall):
        return all(_type_only(a, depth + 1) for a in e.args) and not binds_card(e.fn.body) and \
            _type_only(subst(e.fn.body, dict(zip(e.fn.params, e.args))), depth + 1)
    if isinstance(e, (ir.Bin, ir.Cmp, ir.InOp, ir.Logic, ir.NotOp, ir.NegOp, ir.Cond, ir.ListLit, ir.Func)):
        return all(_type_only(x, depth + 1) for x in ir.children(e))
    return False


def _reads_card(e, depth: int) -> bool:
    if isinstance(e, ir.CardAttr):
        return True
    if isinstance(e, ir.UserCall) and depth <= _DEPTH:
        return any(_reads_card(a, depth + 1) for a in e.args)
    return any(_reads_card(x, depth + 1) for x in ir.children(e))


def written_in(call: ir.UserCall) -> bool:
    """Whether the code generator writes a call's arguments into its body (codegen.g_UserCall):
    plain values, or card attributes where the body has no filter of its own."""
    return all(isinstance(a, PURE) or isinstance(a, ir.CardAttr) and not binds_card(call.fn.body) for a in call.args)


def binds_card(e) -> bool:
    """Whether e holds a `where` filter, inside which a card attribute means another card (so a
    card attribute passed in cannot be written into the body as it stands)."""
    return isinstance(e, ir.Filter) or any(binds_card(x) for x in ir.children(e))


def table_of(values_by_type: list, card_type: list):
    """The per-card table of values per type, or None if a value could be changed in place."""
    if not all_keys(values_by_type):
        return None
    return [values_by_type[t] for t in card_type]


def cannot_fail(gen, e, env: dict, outer: dict, card: bool = False, depth: int = 0) -> bool:
    """Whether e reads no card, names nothing bound inside the loop, and cannot raise (whatever
    the state), so that working it out once before the loop changes nothing. With `card`, e is
    inside a filter of its own, and its card's attributes are read safely (a table per card id)."""
    if depth > _DEPTH:
        return False
    if isinstance(e, ir.CardAttr):
        return card
    if isinstance(e, (ir.Lit, ir.Param, ir.Builtin)):
        return not (isinstance(e, ir.Builtin) and e.name not in ("current", "me", "players", "seats", "turn"))
    if isinstance(e, ir.Local):
        return env.get(e.slot) == outer.get(e.slot)
    if isinstance(e, ir.Var):
        return not e.decl.per_player or _seat_safe(gen, e.owner, env, outer)
    if isinstance(e, ir.ZoneRef):
        return _zone_safe(gen, e, env, outer)
    safe = lambda x, in_filter=card: cannot_fail(gen, x, env, outer, in_filter, depth + 1)  # noqa: E731
    if isinstance(e, ir.Func) and e.name in ("first", "last", "count", "size"):
        return _cards_safe(e.args[0], safe)
    if isinstance(e, ir.GetAttr):       # of first(zone) or last(zone): a card or nothing, never fails
        if isinstance(e.obj, ir.Func) and e.obj.name in ("first", "last"):
            return safe(e.obj)
        return e.obj.type in ("cards", "zone") and _cards_safe(e.obj, safe)    # one table lookup per card
    if isinstance(e, ir.Filter):
        return _cards_safe(e, safe)
    if isinstance(e, ir.InOp):          # a membership in a list only compares (numbers, texts, cards)
        return _a_list(e.right) and safe(e.left) and safe(e.right)
    if isinstance(e, (ir.Logic, ir.NotOp, ir.ListLit)) or isinstance(e, ir.Cmp) and e.op in ("==", "!="):
        return all(safe(x) for x in ir.children(e))
    if isinstance(e, ir.Cmp):           # an order of two whole numbers: counts and constant numbers
        return all(_whole(gen, x) and safe(x) for x in ir.children(e))
    if isinstance(e, ir.Cond):
        return all(safe(x) for x in ir.children(e))
    if isinstance(e, ir.UserCall) and written_in(e):
        return safe(subst(e.fn.body, dict(zip(e.fn.params, e.args))))
    return False


def _a_list(e) -> bool:
    """Whether e is always a list: cards (a zone, a filter of one), their attribute, or [...]."""
    return isinstance(e, (ir.ZoneRef, ir.Filter, ir.ListLit)) or \
        isinstance(e, ir.GetAttr) and e.obj.type in ("cards", "zone")


def _built_list(e) -> bool:
    """Whether e is a list that a rule builds each time: cards picked by a filter, their attribute, [...]."""
    return _a_list(e) and not isinstance(e, ir.ZoneRef)


def _cards_safe(e, safe) -> bool:
    """A zone that cannot fail, or a filter of one whose test cannot fail: a list of cards."""
    if isinstance(e, ir.ZoneRef):
        return safe(e)
    return isinstance(e, ir.Filter) and _cards_safe(e.cards, safe) and safe(e.cond, True)


def _whole(gen, e) -> bool:
    """A count of a zone, or a constant whole number: never empty, never a text."""
    if isinstance(e, ir.Func):
        return e.name in ("count", "size")
    value = gen.fold.try_const(e)
    return type(value) is int


def _zone_safe(gen, e: ir.ZoneRef, env: dict, outer: dict) -> bool:
    """A zone picked by constants and seats that are always seats: its index cannot be missing."""
    if e.index is not None and gen.fold.try_const(e.index) is NO:
        return False
    return not e.decl.per_player or _seat_safe(gen, e.owner, env, outer)


def _seat_safe(gen, owner, env: dict, outer: dict) -> bool:
    """A seat read without a lookup that could fail: me, current, a constant seat, a loop over
    the seats bound outside the loop, or next/prev of one of these."""
    if owner is None or isinstance(owner, ir.Builtin) and owner.name in ("current", "me"):
        return True
    if isinstance(owner, ir.Local):
        return bool(env.get(("seat", owner.slot))) and env.get(owner.slot) == outer.get(owner.slot)
    if isinstance(owner, ir.Func) and owner.name in ("next", "prev"):
        return _seat_safe(gen, owner.args[0], env, outer)
    how, _ = gen.seat_of(owner, env)
    return how == "const"


# count(...) OP k that only asks whether there is a card: (op, k) -> True for "some", False for "none"
_SOME = {("==", 0): False, ("!=", 0): True, (">", 0): True, ("<=", 0): False, (">=", 1): True, ("<", 1): False}
_FLIP = {"==": "==", "!=": "!=", "<": ">", ">": "<", "<=": ">=", ">=": "<="}


def emptiness(gen, e: ir.Cmp):
    """(the count, True if e asks whether there is some card, False if none) for a comparison of a
    count of cards with 0 or 1 that only asks that (`count(...) == 0`, `count(...) > 0`); else None."""
    count, other, op = _body(e.left), e.right, e.op
    if not _is_count(count):
        count, other, op = _body(e.right), e.left, _FLIP[e.op]
    if not _is_count(count):
        return None
    k = gen.fold.try_const(other)
    if type(k) is not int or (op, k) not in _SOME:
        return None
    return count, _SOME[(op, k)]


def _body(e, depth: int = 0):
    """A function called with plain values, as its body with them written in (what it computes)."""
    while isinstance(e, ir.UserCall) and depth < _DEPTH and all(isinstance(a, PURE) for a in e.args):
        e, depth = subst(e.fn.body, dict(zip(e.fn.params, e.args))), depth + 1
    return e


def _is_count(e) -> bool:
    return isinstance(e, ir.Func) and e.name in ("count", "size", "sum")


_KEYS = ("str", "int", "bool")     # the types of values that are always dict keys (or nothing)


def keyed_row(gen, cond, env: dict):
    """Source for the row (per card id, whether it passes) of a condition `X in ATTR`, `X == ATTR` or
    `X != ATTR` (either side first) where X reads no card and cannot fail, and ATTR reads the card's
    type only: X worked out once, the row kept per value of X (runtime.helpers.Keyed); else None."""
    found = _keyed(gen, cond, env)
    if found is None:
        return None
    keyed, x, key = found
    return f"{gen.k(keyed)}[{gen.x(x, env)}]" if key else f"{gen.k(keyed)}.row({gen.x(x, env)})"


def keyed_ids(gen, cond, env: dict):
    """Source for the set of the card ids that pass such a condition (runtime.helpers.KeyedIds), when
    X is always a key; else None."""
    found = _keyed(gen, cond, env)
    if found is None or not found[2]:
        return None
    keyed, x, _ = found
    return f"{gen.k(KeyedIds(keyed))}[{gen.x(x, env)}]"


def _keyed(gen, cond, env: dict):
    """(the Keyed table, X, whether X is always a key: one lookup in C) for keyed_row, or None."""
    if isinstance(cond, ir.InOp):
        op = "not in" if cond.negate else "in"
    elif isinstance(cond, ir.Cmp) and cond.op in ("==", "!="):
        op = cond.op
    else:
        return None
    for x, attr, mark in ((cond.left, cond.right, ""), (cond.right, cond.left, "'")):
        # a list X built of cards (their attributes) or parts is no key: its row would be made at each
        # test, at the cost of a test per card type; such a list is worked out once per filter instead
        if type_only(attr) and not _built_list(_body(x)) and not _reads_card(_body(x), 0) \
                and cannot_fail(gen, _body(x), env, env):
            values = gen.type_values(attr)
            if values is None:
                return None
            return Keyed(values, gen.layout.card_type, KEYED_TESTS[op + mark]), x, _body(x).type in _KEYS
    return None
