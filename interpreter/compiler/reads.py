"""What an expression reads: the zones whose card faces its value depends on, at one player count.

Used to decide who may be shown a value worked out on the real state (a running score, a value of
`display.show`): only a seat that sees every zone the value reads. Conservative by design:
  - the size of a zone is public (`count(Z)`, `count(top 2 of Z)` read no face);
  - anything else that reaches a zone reads its faces: `where`, attributes, `first(Z)`, `x in Z`;
  - a zone written without a seat is the seat the value is worked out for (`me`);
  - an index or a seat not known before the game (a local, a variable, `current`) stands for every
    zone of the family, or every seat's zone;
  - the functions an expression calls are followed into their bodies.
Variables, `turn`, `current` and the other built-in names are public: everyone sees them change.

`state_reads` answers another question: everything of a state an expression may read (zones, sizes
included, variables, State fields), for the bots' cache of evaluations (seats/eval_cache.py).
"""
from __future__ import annotations

from ..errors import RuleRuntimeError
from ..frontend import ir
from .fold import is_static


class Reads:
    """The zones read by expressions of one program, worked out once per (expression, seat)."""

    def __init__(self, program):
        self.program = program
        self.known: dict = {}           # (id of expression, seat) -> frozenset of zone indices

    def faces(self, expr, seat: int) -> frozenset:
        """The zone indices whose card faces expr reads when worked out with `me` being seat."""
        key = (id(expr), seat)
        if key not in self.known:
            out: set = set()
            self.walk(expr, seat, out, frozenset())
            self.known[key] = frozenset(out)
        return self.known[key]

    def known_to(self, expr, seat: int, viewer: int) -> bool:
        """Whether viewer sees every zone expr reads for seat (so may be shown its value)."""
        vis, bit = self.program.zone_vis, 1 << viewer
        return all(vis[z] & bit for z in self.faces(expr, seat))

    def walk(self, e, seat: int, out: set, calls: frozenset) -> None:
        if not isinstance(e, ir.Expr):
            return
        if isinstance(e, ir.Func) and e.name == "count" and len(e.args) == 1 and _sized(e.args[0]):
            self.walk_sizes(e.args[0], seat, out, calls)
            return
        if isinstance(e, ir.ZoneRef):
            out.update(self.zones(e, seat))
        if isinstance(e, ir.UserCall) and e.fn.name not in calls and e.fn.body is not None:
            self.walk(e.fn.body, seat, out, calls | {e.fn.name})
        self.walk_parts(e, seat, out, calls)

    def walk_sizes(self, arg, seat: int, out: set, calls: frozenset) -> None:
        """What counting the cards of arg reads: not their faces (a size is public), but how many
        `top N of` takes and which zone a seat or an index names may read more."""
        if isinstance(arg, ir.Bin):             # zones together: the sizes of both
            self.walk_sizes(arg.left, seat, out, calls)
            self.walk_sizes(arg.right, seat, out, calls)
            return
        while isinstance(arg, ir.TopN):
            self.walk(arg.count, seat, out, calls)
            arg = arg.cards
        self.walk_parts(arg, seat, out, calls)

    def walk_parts(self, e, seat: int, out: set, calls: frozenset) -> None:
        for x in ir.children(e):
            self.walk(x, seat, out, calls)

    def zones(self, ref: ir.ZoneRef, seat: int) -> list:
        """The zone instances a reference may denote, worked out for seat."""
        prog = self.program
        decl = ref.decl
        base, width, family = prog.zone_base[decl.name], prog.zone_width[decl.name], prog.family[decl.name]
        if ref.index is None:
            places = [0]
        else:
            key = self.constant(ref.index)
            places = [family[key]] if key is not _UNKNOWN and key in family else list(range(width))
        if not decl.per_player:
            return [base + i for i in places]
        owners = list(range(prog.players))
        if ref.owner is None or isinstance(ref.owner, ir.Builtin) and ref.owner.name == "me":
            owners = [seat]
        else:
            key = self.constant(ref.owner)
            if type(key) is int and 0 <= key < prog.players:
                owners = [key]
        return [base + o * width + i for o in owners for i in places]

    def constant(self, e):
        """The value of e when it is known before the game, else _UNKNOWN."""
        if not is_static(e):
            return _UNKNOWN
        try:
            value = self.program.const(e)
        except RuleRuntimeError:
            return _UNKNOWN
        return value if isinstance(value, (int, str, bool)) else _UNKNOWN


_UNKNOWN = object()


def _sized(e) -> bool:
    """Whether `count(e)` reads only sizes: of a zone, its top N, or zones joined with '+'."""
    if isinstance(e, ir.Bin) and e.op == "+" and e.type == "cards":
        return _sized(e.left) and _sized(e.right)
    while isinstance(e, ir.TopN):
        e = e.cards
    return isinstance(e, ir.ZoneRef)


# Functions whose generated code reads nothing of the state but their arguments (codegen.gf_*).
_PURE = frozenset(("count", "size", "sum", "min", "max", "highest", "lowest", "any", "all", "first", "last",
                   "reversed", "seats_from", "numbers", "abs", "index_of", "at"))
# Parts of an expression that read nothing of the state themselves (their parts are walked).
_PLAIN = (ir.Lit, ir.Param, ir.CardAttr, ir.GetAttr, ir.Gen, ir.Bin, ir.Cmp, ir.InOp, ir.Logic, ir.NotOp,
          ir.NegOp, ir.Cond, ir.Filter, ir.TopN, ir.ListLit)


def state_reads(program, expr):
    """Everything of a state expr may read, worked out for every seat: (zone indices, variable slots,
    State fields), or None when it uses something not listed here. What a bot's cache of
    evaluations keys on (seats/worlds.py): two states equal in these give expr the same value."""
    reads, zones, slots, fields = Reads(program), set(), set(), set()
    order = program.rules.play_order or ()

    def walk(e, calls: frozenset) -> bool:
        if isinstance(e, ir.ZoneRef):
            for seat in range(program.players):
                zones.update(reads.zones(e, seat))
        elif isinstance(e, ir.Var):
            base = program.var_base[e.decl.name]
            slots.update(range(base, base + (program.players if e.decl.per_player else 1)))
        elif isinstance(e, ir.Local):
            if e.type == "zone":                # names a zone by its index: any zone
                return False
            slots.add(e.slot)                   # a generator's own name, or a variable slot
        elif isinstance(e, ir.Builtin):
            if e.name in ("current", "turn"):
                fields.add(e.name)
            elif e.name == "in_play":
                slots.update(order[:1])
            elif e.name not in ("me", "players", "seats"):
                return False
        elif isinstance(e, ir.Func):
            if e.name in ("next", "prev", "seat_after"):    # seats in play, the direction of play
                slots.update(order)
                fields.add("current")           # next() of no seat is the current seat's neighbour
            elif e.name not in _PURE:
                return False
        elif isinstance(e, ir.UserCall):
            if e.fn.name in calls or e.fn.body is None or not walk(e.fn.body, calls | {e.fn.name}):
                return False
        elif not isinstance(e, _PLAIN):
            return False
        return all(walk(x, calls) for x in ir.children(e))

    if not walk(expr, frozenset()):
        return None
    return tuple(sorted(zones)), tuple(sorted(slots)), tuple(sorted(fields))
