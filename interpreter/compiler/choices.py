"""The legal moves of each decision as straight generated code: one function per decision that
lists its moves, with the `where` of a value or a card written into the loop (no function call per
candidate), and one per card choice that lists its candidate cards (to bind a move to cards)."""
from __future__ import annotations

from itertools import compress

from ..frontend import ir
from ..runtime.decisions import CardSpec, Decision
from . import percard
from .codegen import zone_run
from .fold import subexpressions

_DISTINCT = dict.fromkeys       # the values of a list, each once, in order
_TOP = {"@card": "None"}     # no card is being tested at the top of a decision
_HELD = -1                  # the slot that stands for the candidates read on the line before
_HEAD = "    Z = st.zones; V = st.vars; L = st.loc\n"


class Choices:
    """Generates the move functions of decisions with a CodeGen (`gen`) at one layout."""

    def __init__(self, gen, limits):
        self.gen, self.layout, self.limits = gen, gen.layout, limits
        self.bound_from: dict = {}      # id(CardChoice) -> (lines setting _cs, their rules by line): binding_cards

    def binder(self, dec: Decision, s: ir.ChooseS):
        """bind(st, move) of a decision (not a simultaneous one) as straight code, what Decision.bind
        does without its calls: the value or parts stored; the cards of a move of one type found
        from the top down among the candidates worked out inline (CardSpec.bind for several types);
        an option's name, number and cards, and the pc of its block."""
        gen, head, where = self.gen, ["def _bind(st, move):", _HEAD.rstrip("\n")], {}
        if dec.kind == "value":
            return gen.define(f"def _bind(st, move):\n    st.vars[{dec.slot}] = move[0]\n", "_bind")
        if dec.kind == "parts":
            slots = "".join(f"V[{slot}], " for _, slot in dec.parts)
            return gen.define(f"def _bind(st, move):\n    V = st.vars\n    {slots}= move\n", "_bind")
        if dec.kind == "cards":
            lines = head + self.bind_cards(dec.cards, s.cards, dec.slot, "move", "    ", where, len(head))
            return gen.define("\n".join(lines) + "\n", "_bind", where)
        lines = head + ["    _i, _p = move", f"    V[{dec.slot}] = {gen.k(tuple(n for n, _, _ in dec.options))}[_i]"]
        for i, ((_, slot, spec), opt) in enumerate(zip(dec.options, s.options)):
            if spec is not None:
                lines.append(f"    if _i == {i}:")
                lines += self.bind_cards(spec, opt.cards, slot, "_p", "        ", where, len(lines))
        lines.append(f"    V[{dec.option_slot}] = _i")
        if dec.starts is not None:
            lines.append(f"    st.pc = {gen.k(dec.starts)}[_i]")
        return gen.define("\n".join(lines) + "\n", "_bind", where)

    def bind_cards(self, spec: CardSpec, cc: ir.CardChoice, slot: int, move: str, pad: str, where: dict,
                   at: int) -> list:
        """Lines storing in V[slot] the cards of the payload `move` (CardSpec.bind): the candidates,
        then for one type (the usual move) the last n of that type looked for from the top down, so
        a hand's cards below them are never read; their rules noted in where (the first line is at+1)."""
        cands, rules = self.bound_from[id(cc)]
        lines = [pad + line[4:] for line in cands]
        for line, pos in rules.items():
            where[at + line - 2] = pos
        t, k = self.gen.k(spec.type_of), self.gen.k(spec)
        return lines + [f"{pad}if len({move}) == 1:",
                        f"{pad}    (_t, _n), = {move}",
                        f"{pad}    _f = []",
                        f"{pad}    for _c in reversed(_cs):",
                        f"{pad}        if {t}[_c] == _t:",
                        f"{pad}            _f.append(_c)",
                        f"{pad}            if len(_f) == _n: break",
                        f"{pad}    _f.reverse()",
                        f"{pad}    V[{slot}] = _f",
                        f"{pad}else:",
                        f"{pad}    V[{slot}] = {k}.bind_types(_cs, {move})"]

    def value_moves(self, dec: Decision, s: ir.ChooseS):
        """moves(st) for a choice of one value of a list: each distinct value the `where` allows."""
        gen = self.gen
        known = gen.fold.try_const(s.values)
        values = list(dict.fromkeys(known)) if isinstance(known, list) and _hashable(known) else None
        lines, where = [], {}
        picked = self.occupied_moves(s, values) if values is not None and len(values) <= dec.max_moves else None
        if picked is not None:
            where[3] = s.where.pos
            return gen.define("def _moves(st):\n" + _HEAD + f"    return {picked}\n", "_moves", where)
        if values is not None and len(values) <= dec.max_moves:
            head, env, t = self.constant_rows(s, values)
        else:
            where[3] = s.values.pos
            lines.append(f"    _vals = list({gen.k(_DISTINCT)}({gen.x(s.values, _TOP)}))   # a repeated value is one move")
            lines.append(f"    if len(_vals) > {dec.max_moves}: {gen.k(dec)}.too_many(st, len(_vals))")
            v = gen.fresh("v")
            head, env, t = f"{v} in _vals", {**_TOP, s.slot: v}, f"({v},)"
        env, hoist = hoisting(env, s, values)   # what reads no value: worked out once
        cond = gen.x(s.where, env) if s.where is not None else None
        where[3 + len(lines)] = s.where.pos if s.where is not None else s.pos
        lines.append(f"    return [{t}{hoist.binds()} for {head}" + (f" if {cond}]" if cond else "]"))
        return gen.define("def _moves(st):\n" + _HEAD + "\n".join(lines) + "\n", "_moves", where)

    def parts_moves(self, dec: Decision, s: ir.ChooseS):
        """moves(st) for a choice of parts: one loop a part over its distinct values (a later part's
        list worked out for each value of the earlier ones), the `where` tested once per combination."""
        gen, env = self.gen, dict(_TOP)
        lines, where, pad = ["    _out = []"], {}, "    "
        for part in s.parts:
            v = gen.fresh("v")
            where[3 + len(lines)] = part.values.pos
            lines.append(f"{pad}for {v} in {gen.k(_DISTINCT)}({gen.x(part.values, env)}):   # a repeated value is one move")
            env[part.slot] = v
            pad += "    "
        if s.where is not None:
            where[3 + len(lines)] = s.where.pos
            lines.append(f"{pad}if {gen.x(s.where, env)}:")
            pad += "    "
        lines.append(f"{pad}_out.append(({', '.join(env[part.slot] for part in s.parts)},))")
        lines.append(f"{pad}if len(_out) > {dec.max_moves}: {gen.k(dec)}.too_many_parts(st)")
        lines.append("    return _out")
        return gen.define("def _moves(st):\n" + _HEAD + "\n".join(lines) + "\n", "_moves", where)

    def constant_rows(self, s: ir.ChooseS, values: list) -> tuple:
        """(the loop's head, the where's env, the move's name) over values known before the game:
        each value with its move, and the zone it picks in the where worked out once too."""
        gen = self.gen
        v, t = gen.fresh("v"), gen.fresh("t")
        env = {**_TOP, s.slot: v}
        zones = self.indexed_zones(s, values)
        run = zone_run(list(next(iter(zones.values())).values())) if len(zones) == 1 else None
        if run is not None:     # one family's zones in order: the zones themselves, beside the values
            zl = gen.fresh("zl")
            env["zone list", next(iter(zones)), s.slot] = zl
            rows = tuple((x, (x,)) for x in values)
            return f"({v}, {t}), {zl} in {gen.k(zip)}({gen.k(rows)}, Z[{run[0]}:{run[1]}])", env, t
        names = [gen.fresh("z") for _ in zones]
        env.update({("zone", d, s.slot): n for d, n in zip(zones, names)})
        rows = tuple((x, (x,), *(zones[d][x] for d in zones)) for x in values)
        return f"{', '.join([v, t, *names])} in {gen.k(rows)}", env, t

    def occupied_moves(self, s: ir.ChooseS, values: list):
        """The moves' expression when the `where` first asks whether the zone the value picks in a
        family holds a card (`count(F[v]) > 0 and ...`) and those zones follow in order: the zones
        themselves select the moves (itertools.compress, no Python step per value), and only the
        values selected test the rest of the `where`, as `and` would; else None."""
        gen = self.gen
        zones = self.indexed_zones(s, values)
        run = zone_run(list(next(iter(zones.values())).values())) if len(zones) == 1 else None
        terms = conjuncts(s.where) if run is not None else []
        if not terms or not _asks_for_a_card(gen, terms[0], s.slot):
            return None
        moves, selectors = tuple((x,) for x in values), f"Z[{run[0]}:{run[1]}]"
        if len(terms) == 1:
            return f"list({gen.k(compress)}({gen.k(moves)}, {selectors}))"
        v, t, zl = gen.fresh("v"), gen.fresh("t"), gen.fresh("zl")
        env, hoist = hoisting({**_TOP, s.slot: v, ("zone list", next(iter(zones)), s.slot): zl}, s, values)
        rest = " and ".join(f"({gen.x(e, env)})" for e in terms[1:])
        if zl in rest:      # the rest reads the value's zone too: the zones are read beside the values
            return None
        rows = tuple((x, (x,)) for x in values)
        return f"[{t}{hoist.binds()} for {v}, {t} in {gen.k(compress)}({gen.k(rows)}, {selectors}) if {rest}]"

    def indexed_zones(self, s: ir.ChooseS, values: list) -> dict:
        """{family: {value: zone index}} for the zone families (not per player) the `where` indexes
        with the value being chosen, when every value is an index of the family."""
        out = {}
        if s.where is None:
            return out
        for e in subexpressions(s.where):
            if isinstance(e, ir.ZoneRef) and isinstance(e.index, ir.Local) and e.index.slot == s.slot \
                    and not e.decl.per_player and e.decl.name not in out:
                picks = self.gen.family_zones(e.decl, values)
                if picks is not None:
                    out[e.decl.name] = dict(zip(values, picks))
        return out

    def card_spec(self, cc: ir.CardChoice, dec: Decision, option: int | None = None) -> CardSpec:
        """The card part of a decision (or of its option number `option`): its candidates and its
        moves as generated functions."""
        gen, lay = self.gen, self.layout
        spec = CardSpec(lay.type_tables[cc.same] if cc.same else None, lay.card_type, lay.type_names)
        spec.option = option
        spec.decision, spec.max_moves = dec, self.limits.moves
        base = ir.base_of(cc.cards)
        if not (isinstance(base, ir.ZoneRef) and base.decl.visible == "everyone"):     # else nothing to guard
            spec.zone_vis, spec.zone_names, spec.pos = lay.zone_vis, lay.zone_names, cc.cards.pos
            spec.one_zone = isinstance(base, ir.ZoneRef)     # all candidates lie in one zone: check one
        lines, where = self.candidate_lines(cc)
        spec.candidates = self.binding_cards(cc, lines, where)
        s = gen.k(spec)
        if spec.one_zone:       # one zone: its visibility tested here, the guard called only to refuse
            lines.append(f"    if _cs and not {gen.k(lay.zone_vis)}[L[_cs[0]]] >> st.decider & 1: {s}.guard(st, _cs)")
        elif spec.zone_vis is not None:
            lines.append(f"    if _cs: {s}.guard(st, _cs)")
        where[3 + len(lines)] = cc.lo.pos
        lines.append(f"    _lo = {gen.x(cc.lo, _TOP)}")
        if cc.hi is not None:
            where[3 + len(lines)] = cc.hi.pos
            lines.append(f"    _hi = {gen.x(cc.hi, _TOP)}")
            lines.append("    if _hi > len(_cs): _hi = len(_cs)")
        else:
            lines.append("    _hi = len(_cs)")
        lines.append(f"    _k = (tuple({gen.k(sorted)}(map({gen.k(spec.type_at)}, _cs))), _lo, _hi)")
        lines.append(f"    _m = {gen.k(spec.cache)}.get(_k)")
        lines.append(f"    return {s}.choices(st, _k) if _m is None else _m")
        spec.payloads = gen.define("def _moves(st):\n" + _HEAD + "\n".join(lines) + "\n", "_moves", where)
        return spec

    def binding_cards(self, cc: ir.CardChoice, lines: list, where: dict):
        """f(st) -> the cards a move's types are bound to (CardSpec.bind). A `where` can read a card
        only through its attributes, which its type fixes: so when the candidates are one zone
        filtered, the cards of a type the move names are all candidates, and the zone itself is
        bound from (no filter run again)."""
        base = cc.cards
        while isinstance(base, ir.Filter):
            base = base.cards
        if isinstance(base, ir.ZoneRef) and (base is not cc.cards or cc.where is not None):
            lines, where = [f"    _cs = {self.gen.x(base, _TOP)}"], {3: cc.cards.pos}
        self.bound_from[id(cc)] = (list(lines), dict(where))      # for the decision's bind (binder)
        return self.gen.define("def _cands(st):\n" + _HEAD + "\n".join(lines) + "\n    return _cs\n",
                               "_cands", where)

    def candidate_lines(self, cc: ir.CardChoice):
        """Lines that set `_cs` to the candidate cards (the `where` applied), and their rules by line."""
        gen = self.gen
        lines, where = [f"    _cs = {gen.x(cc.cards, _TOP)}"], {3: cc.cards.pos}
        if cc.where is not None:        # the codegen's own filter (so it hoists what needs no card)
            where[4] = cc.where.pos
            held = ir.Local(cc.cards.pos, cc.cards.type, _HELD, "_cs")
            lines.append(f"    _cs = {gen.x(ir.Filter(cc.where.pos, cc.cards.type, held, cc.where), {**_TOP, _HELD: '_cs'})}")
        return lines, where

    def option_moves(self, dec: Decision, s: ir.ChooseS):
        """moves(st) for a choice of options: each option without cards, each card choice of the others;
        an option with a `when` only while it holds. The options after the last card option that have
        neither cards nor a `when` are the same moves every time: that option's spec keeps them
        after its own (its `tail`), and a choice left with that one option lists its spec's moves."""
        options = [(i, spec, opt) for i, ((_, _, spec), opt) in enumerate(zip(dec.options, s.options))]
        last = len(options)
        while last and options[last - 1][1] is None and options[last - 1][2].when is None:
            last -= 1
        before = options[last - 1] if last < len(options) else None     # the option before the constant ones
        if before and before[1] is not None and before[2].when is None:
            before[1].tail = tuple((i, None) for i in range(last, len(options)))
            options = options[:last]
            if last == 1:
                return options[0][1].payloads
        if all(opt.when is None for _, _, opt in options):     # one list, made at once
            items = [self.gen.k((i, None)) if spec is None else f"*{self.gen.k(spec)}.payloads(st)"
                     for i, spec, _ in options]
            return self.gen.define(f"def _moves(st):\n    return [{', '.join(items)}]\n", "_moves")
        lines, where = [], {}
        first = 4                               # the line of the first option
        for i, spec, opt in options:
            move = f"_out.append({self.gen.k((i, None))})" if spec is None else \
                f"_out.extend({self.gen.k(spec)}.payloads(st))"     # (i, cards) moves
            if opt.when is not None:
                where[first + len(lines)] = opt.when.pos
                move = f"if {self.gen.x(opt.when, _TOP)}: {move}"
            lines.append("    " + move)
        head = "def _moves(st):\n" + _HEAD + "    _out = []\n"
        return self.gen.define(head + "\n".join(lines) + "\n    return _out\n", "_moves", where)


def hoisting(env: dict, s: ir.ChooseS, values) -> tuple:
    """(env, Hoist) for the `where` of a loop over the values of a choice (env binds the value): a
    part that reads neither the value nor a card is worked out once, before the loop (percard.py);
    `values`, when known before the game, tell whether the value is always a key."""
    hoist = percard.Hoist(_TOP)
    keys = values is not None and percard.all_keys(values)
    return {**env, "@hoist": hoist, ("key", s.slot): keys}, hoist


def conjuncts(e) -> list:
    """The terms of `a and b and ...` in the order they are tested (one term if e is no `and`)."""
    out = []
    while isinstance(e, ir.Logic) and e.op == "and":
        out.append(e.right)
        e = e.left
    return [e] + out[::-1]


def _asks_for_a_card(gen, e, slot: int) -> bool:
    """Whether e is `count(F[v]) > 0` (or the like) for a zone of a family indexed by the local v."""
    asks = percard.emptiness(gen, e) if isinstance(e, ir.Cmp) else None
    if asks is None or not asks[1] or asks[0].name not in ("count", "size"):
        return False
    ref = asks[0].args[0]
    return isinstance(ref, ir.ZoneRef) and isinstance(ref.index, ir.Local) and ref.index.slot == slot \
        and not ref.decl.per_player


def _hashable(values: list) -> bool:
    """Whether every value can be a key (numbers and texts; a list of lists cannot)."""
    return all(isinstance(x, (int, str)) or x is None for x in values)
