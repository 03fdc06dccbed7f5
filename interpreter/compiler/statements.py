"""Decision-free statements as lines of Python source, each line tagged with the rule it runs.

A run of such statements between two decisions becomes one stretch of generated code (see flow);
a called procedure without decisions is written inline, a trigger becomes a function of its own.
"""
from __future__ import annotations

import re

from ..errors import Diagnostic, RulesetError
from ..frontend import ir
from ..runtime import announce, tell
from . import percard, told
from .codegen import prologue
from ..frontend.check.trees import nodes
from .fold import NO


class StatementGen:
    """Source lines for statements, through the expression generator `gen`."""

    def __init__(self, gen, trigger_names: dict, check_alike: str, audit=None, cov=None):
        self.gen, self.rules, self.layout = gen, gen.rules, gen.layout
        self.trigger_names = trigger_names      # zone name -> source naming its on_empty trigger, or None
        self.check_alike = check_alike          # source naming the alike guard
        # audit(st, pos, kind, named, moved), called after each move that names a count (see audit.py);
        # None for the programs games run, whose code must stay as it is
        self.audit = gen.k(audit) if audit is not None else None
        self.cov = cov      # a CoverageMap (coverage.py) for an instrumented program, else None
        self.taking = None  # inside `together`: the name of the list its moves' cards wait in
        self.standing = None    # source naming the standing rules' check, run after each move and deal
        # a game whose rules tell facts: its move events carry where the cards lay (engine.log_move)
        self.at = any(isinstance(x, ir.TellS) for x in nodes(self.rules))

    def function_from_block(self, stmts, name: str, head: tuple = ()):
        """Compile a block into a standalone function f(st) (triggers), `head` its first lines."""
        self.gen.limbo += 1         # a trigger runs while a move's cards are out of every zone (engine.take_top)
        try:
            lines = list(head) + self.lines(stmts) or ["pass"]
        finally:
            self.gen.limbo -= 1
        where = {3 + k: getattr(line, "pos", None) for k, line in enumerate(lines)}
        body = "".join(f"    {line}\n" for line in lines)
        return self.gen.define(f"def {name}(st):\n{prologue(body)}{body}", name, where)

    def lines(self, stmts) -> list:
        out = []
        for s in stmts:
            out.extend(self.stmt(s))
        return out

    def stmt(self, s) -> list:
        """Source lines for a statement, each tagged with its rule (nested statements keep theirs)."""
        lines = [line if getattr(line, "pos", None) is not None else Line(line, s.pos)
                 for line in getattr(self, "l_" + type(s).__name__)(s)]
        # standing rules are checked after a move or deal lands; the moves of `together` land at its end
        moved = isinstance(s, (ir.MoveS, ir.DealS)) and self.taking is None or isinstance(s, ir.TogetherS)
        if self.standing is not None and moved:
            lines.append(Line(f"{self.standing}(st)", s.pos))
        return lines

    def l_LetS(self, s):
        gen = self.gen
        if s.value.type == "zone":
            return [f"V[{s.slot}] = {gen.zone_index_src(s.value, {})}"]
        return [f"V[{s.slot}] = {gen.x(s.value, {})}"]

    def l_SetS(self, s):
        gen = self.gen
        base, name = self.layout.var_base[s.decl.name], repr(s.decl.name)
        if not s.decl.per_player:
            return [f"V[{base}] = {self.new_value(s, f'V[{base}]')}",
                    f"if st.log is not None: st.log.append((E.SET, {name}, None, V[{base}]))"]
        owner, o = gen.seat_src(s.owner, {}), gen.fresh("o")
        return [f"{o} = {owner}", f"V[{base} + {o}] = {self.new_value(s, f'V[{base} + {o}]')}",
                f"if st.log is not None: st.log.append((E.SET, {name}, {o}, V[{base} + {o}]))"]

    def new_value(self, s, old: str) -> str:
        """The value a `set` gives: its expression, or for `set grid[i][j] = v` a new list with that item
        replaced (never changed in place: a clone of the state may share the old list)."""
        value = self.gen.x(s.value, {})
        if not s.items:
            return value
        items = ", ".join(self.gen.x(i, {}) for i in s.items)
        return f"_h.set_at({old}, ({items},), {value}, {self.gen.k(s.pos)})"

    def l_ExtraS(self, s):
        return ["st.extra = True"]

    def l_EndS(self, s):
        return ["st.ending = True"]

    def l_EliminateS(self, s):
        out, seat = self.rules.play_order[0], self.gen.seat_src(s.seat, {})
        if s.back:
            return [f"V[{out}] = (V[{out}] or 0) & ~(1 << {seat})", self.order_event()]
        return [f"V[{out}] = (V[{out}] or 0) | (1 << {seat})", self.order_event()]

    def l_ReverseS(self, s):
        way = self.rules.play_order[1]
        return [f"V[{way}] = -(V[{way}] or 1)", self.order_event()]

    def order_event(self) -> str:
        """Who is in play and which way play goes, told to every seat (views, play, the web table)."""
        out, way = self.rules.play_order
        return f"if st.log is not None: st.log.append((E.ORDER, V[{out}] or 0, V[{way}] or 1))"

    def l_CallS(self, s):
        return self.bind_arguments(s) + self.lines(self.rules.procedures[s.name]) or ["pass"]

    def bind_arguments(self, s) -> list:
        """A call's arguments put in its procedure's parameter slots: state data, so a decision inside
        the procedure pauses, clones and replays with them (no recursion: one slot per parameter)."""
        return [f"V[{slot}] = {self.gen.x(arg, {})}" for slot, arg in zip(s.slots, s.args)]

    def l_StepS(self, s):
        return self.lines(s.body)

    def l_IfS(self, s):
        gen = self.gen
        known = gen.fold.try_const(s.cond)
        if known is not NO:     # e.g. players > 2: the branch that cannot run is left out (and unchecked)
            return (self.counted(s, "then", s.then) if known else self.counted(s, "else", s.orelse)) or ["pass"]
        out = [f"if {gen.test(s.cond, {})}:"] + indent(self.counted(s, "then", s.then) or ["pass"])
        orelse = self.counted(s, "else", s.orelse)
        if orelse:
            out += ["else:"] + indent(orelse)
        return out

    def counted(self, s, kind: str, block: list) -> list:
        """A branch's lines, after the line counting it when the program counts coverage."""
        return ([self.cov.ran(s, kind)] if self.cov is not None else []) + self.lines(block)

    def l_ForS(self, s):
        gen = self.gen
        v = gen.fresh("i")
        known = gen.fold.try_const(s.iterable)
        if isinstance(known, list) and percard.all_keys(known):
            items = gen.k(tuple(known))     # numbers or texts known before the game: no list made each time
        else:
            items = f"list({gen.x(s.iterable, {})})"
        return [f"for {v} in {items}:", f"    V[{s.slot}] = {v}"] + indent(self.lines(s.body))

    def l_WhileS(self, s):
        gen = self.gen
        n = gen.fresh("n")
        return [f"{n} = 0", f"while {gen.test(s.cond, {})}:"] + indent(self.lines(s.body) + [
            f"{n} += 1", f"if {n} > {gen.limits.loops}: _h.endless({gen.limits.loops}, {gen.k(s.pos)}, st)"])

    def l_RevealS(self, s):
        return [f"E.reveal(st, {self.cards_src(s.cards)}, {self.mask_src(s.seats)})"]   # worked out with or without a log

    def mask_src(self, seats) -> str:
        """Source for the mask of a player or a list of players (reveal, tell)."""
        gen = self.gen
        if seats.type == "list":
            return f"E.seat_mask({gen.x(seats, {})}, {gen.seat_table(list(range(self.layout.players)), seats.pos)})"
        return f"1 << {gen.seat_src(seats, {})}"

    def cards_src(self, cards) -> str:
        """Source for a list of the cards of a zone, cards or one card (none: first of nothing)."""
        gen = self.gen
        return f"list({gen.x(cards, {})})" if cards.type != "card" else \
            f"[_c for _c in ({gen.x(cards, {})},) if _c is not None]"

    def l_TellS(self, s):
        gen, lay = self.gen, self.layout
        v = gen.fresh("c")
        inner, _ = percard.loop_env({}, v, open_=False)
        text, values = told.words(s.cond)
        vals = "(" + "".join(f"{gen.x(e, {})}, " for e in values) + ")"
        return [f"{gen.k(tell.tell)}(st, {self.cards_src(s.cards)}, {self.mask_src(s.seats)}, "
                f"lambda {v}: {gen.x(s.cond, inner)}, {gen.k(announce.representatives(lay.card_type))}, "
                f"{gen.k(lay.card_type)}, {text!r}, {vals})"]

    def l_ShuffleS(self, s):
        gen = self.gen
        z = gen.zone_src(s.zone, {})
        return [f"E.shuffle_zone(st, {z}, {gen.k(self.layout.card_type)}, {gen.k(self.layout.zone_names)}[{z}], "
                f"{gen.k(self.layout.zone_vis)}[{z}])"]

    def l_AnnounceS(self, s):
        gen, lay = self.gen, self.layout
        v = gen.fresh("c")
        inner, _ = percard.loop_env({}, v, open_=False)
        holds = f"lambda {v}: {gen.x(s.cards.cond, inner)}"
        return [f"{gen.k(announce.announce_none)}(st, {gen.zone_src(s.cards.cards, {})}, {holds}, "
                f"{gen.k(announce.representatives(lay.card_type))}, {gen.k(s.pos)}, {gen.k(lay.zone_names)})"]

    def not_negative(self, count, what: str) -> None:
        """A count that is a constant below 0 at this player count (a parameter's row) would move nothing."""
        n = self.gen.fold.try_const(count) if count is not None else 1
        if isinstance(n, int) and not isinstance(n, bool) and n < 0:
            raise RulesetError([Diagnostic(count.pos, f"the count of {what} is {n} with {self.layout.players} "
                                           "players, so it would silently move no card", "compile",
                                           "give how many cards, 0 or more, at every player count")])

    def l_DealS(self, s):
        gen = self.gen
        self.not_negative(s.count, "this deal")
        src = gen.zone_src(s.source, {})
        first = gen.seat_src(s.starting, {}) if s.starting is not None else "st.current"
        trig = self.trigger_names[s.source.decl.name]
        base, width, players = self.layout.zone_base[s.dest.name], self.layout.zone_width[s.dest.name], \
            self.layout.players
        k = gen.x(s.count, {}) if self.audit is None else gen.fresh("k")
        deal = [f"E.deal(st, {k}, {src}, {first}, {base}, {width}, {players}, {trig}, {gen.k(self.layout.zone_vis)}"
                f"{', True' if self.at else ''})"]
        if self.audit is None and self.cov is None:
            return deal
        held = f"sum(len(Z[{base} + _p * {width}]) for _p in range({players}))"
        had = gen.fresh("h")
        if self.audit is None:      # coverage: the cards dealt are what the hands gained
            return [f"{had} = {held}"] + deal + self.cov.moved_by(s, f"{held} - {had}")
        return [f"{k} = {gen.x(s.count, {})}", f"{had} = {held}"] + deal + [
            f"{self.audit}(st, {gen.k(s.pos)}, 'deal', {k} * {players}, {held} - {had})"]

    def l_TogetherS(self, s):
        """Every move of the block takes its cards, then all land in the order they were taken."""
        pending = self.gen.fresh("w")
        self.taking, outer = pending, self.taking
        self.gen.limbo += 1         # the cards taken wait out of every zone until the block's end
        try:
            body = self.lines(s.body)
        finally:
            self.taking = outer
            self.gen.limbo -= 1
        return [f"{pending} = []"] + body + [f"E.land(st, {pending}, {self.gen.k(self.layout.zone_vis)})"]

    def take(self, s) -> list:
        """A move inside `together`: its cards leave their zones now and wait, with where they go."""
        gen, src = self.gen, s.cards
        d, m, g = gen.zone_src(s.dest, {}), gen.fresh("m"), gen.fresh("g")
        if isinstance(src, ir.ZoneRef):
            z = gen.zone_src(src, {})
            where = f", tuple(range(len({m})))" if self.at else ""
            z_at, z = self.named(z)
            take = [f"{m} = Z[{z_at}]", f"Z[{z}] = []", f"{g} = [({z}, {m}{where})] if {m} else []"]
        elif isinstance(src, ir.TopN) and isinstance(src.cards, ir.ZoneRef):
            self.not_negative(src.count, f"'{'bottom' if src.bottom else 'top'} N of'")
            z = gen.zone_src(src.cards, {})
            n = gen.x(src.count, {}) if src.count is not None else "1"
            trig = self.trigger_names[src.cards.decl.name]
            if self.at:
                ps = gen.fresh("p")
                take = [f"{m}, {ps} = E.take_top_at(st, {z}, {n}, {trig}, {src.bottom})",
                        f"{g} = [({z}, {m}, {ps})] if {m} else []"]
            else:
                take = [f"{m} = E.take_top(st, {z}, {n}, {trig}, {src.bottom})", f"{g} = [({z}, {m})] if {m} else []"]
        else:
            take = [f"{m} = list({gen.x(src, {})})",
                    f"{g} = E.{'remove_at' if self.at else 'remove'}(st, {m}) if {m} else []"]
        return take + self.count_move(s, m) + [f"{self.taking}.append(({d}, {g}, {s.bottom}))"]

    def l_MoveS(self, s):
        gen = self.gen
        if self.taking is not None:
            return self.take(s)
        d, src, vis = gen.zone_src(s.dest, {}), s.cards, gen.k(self.layout.zone_vis)
        m, b = gen.fresh("m"), s.bottom
        ps = gen.fresh("p") if self.at else "False"      # where the cards lay, in a game that tells facts
        log = f"if st.log is not None: E.log_move(st, {{z}}, {d}, {m}, {vis}, {b}, {ps})"
        # a zone declared alike: only its moves check the cards' types (the others cost nothing)
        check = (lambda cs: [f"{self.check_alike}(st, {cs}, {d}, {gen.k(s.pos)})"]) \
            if s.dest.decl.alike else (lambda cs: [])
        if isinstance(src, ir.ZoneRef):
            return self.move_zone(s, d, m, vis, ps, check)
        if isinstance(src, ir.TopN):
            self.not_negative(src.count, f"'{'bottom' if src.bottom else 'top'} N of'")
        if isinstance(src, ir.TopN) and isinstance(src.cards, ir.ZoneRef):
            z = gen.zone_src(src.cards, {})
            n = gen.x(src.count, {}) if src.count is not None else "1"
            trig = self.trigger_names[src.cards.decl.name]
            pre, post = [], []
            if self.audit is not None:      # the count worked out once, before the move changes it
                k = gen.fresh("k")
                pre, post, n = [f"{k} = {n}"], [self.report(s, "top", k, m)], k
            call = f"E.take_top(st, {z}, {n}, {trig}, {src.bottom})"
            take = [f"{m} = {call}"]
            if self.at:
                take = [f"{m}, {ps} = E.take_top_at(st, {z}, {n}, {trig}, {src.bottom})"]
            elif n == "1" and not src.bottom:     # the usual one card from the top: taken in place
                zt = gen.fresh("z")
                z_at, zn = self.named(z)
                take = [f"{zt} = Z[{z_at}]", f"if st.shared and {zt}: {zt} = Z[{zn}] = {zt}[:]",    # engine.State
                        f"{m} = [{zt}.pop()] if {zt} else {'[]' if trig == 'None' else call}"]
            d_at, dn = self.named(d)        # worked out once, after the cards are taken, as before
            first = [f"{dn} = {d}"] if dn != d else []
            log = log.replace(f", {d}, ", f", {dn}, ", 1)
            return pre + take + post + self.count_move(s, m) + [f"if {m}:"] + indent(first + check(m).copy()) + \
                indent(place(m, dn, b, gen.fresh("c"))) + ["    " + log.format(z=z)]
        # cards from several zones land group by group, in the order the events tell it
        # (under a pile, the last group goes first, so that the groups keep their order)
        remove = "remove_at" if self.at else "remove"
        groups = f"reversed(E.{remove}(st, {m}))" if b else f"E.{remove}(st, {m})"
        named = []
        if self.audit is not None and isinstance(src, ir.TopN):
            named = [self.report(s, "pick", gen.x(src.count, {}) if src.count is not None else "1", m)]
        elif self.audit is not None and names_cards(src):
            named = [self.report(s, "filter", "1", m)]
        if not s.dest.decl.alike and _reads_no_zone(d):     # d is the same before and after: one call
            return [f"{m} = list({gen.x(src, {})})"] + named + self.count_move(s, m) + [
                f"if {m}: E.move_cards(st, {m}, {d}, {vis}, {b}{', True' if self.at else ''})"]
        return [f"{m} = list({gen.x(src, {})})"] + named + self.count_move(s, m) + [
            f"if {m}:", f"    for _z, _cs{', _ps' if self.at else ''} in {groups}:"] + \
            indent(indent(check("_cs"))) + [
                f"        E.place(st, _cs, {d}, {b})",
                f"        if st.log is not None: E.log_move(st, _z, {d}, _cs, {vis}, {b}{', _ps' if self.at else ''})"]

    def move_zone(self, s, d: str, m: str, vis: str, ps: str, check) -> list:
        """Lines that move all the cards of a zone onto zone d (or under it)."""
        gen, b = self.gen, s.bottom
        c = gen.fresh("c")
        # a zone worked out where the old code first did, kept in a name (it cannot change meanwhile)
        z_at, z = self.named(gen.zone_src(s.cards, {}))
        d_at, d = self.named(d)
        same = "" if (z.isdigit() and d.isdigit() and z != d) else f" and {m} is not Z[{d_at}]"
        # the source gets a new list (cheaper than emptying it), the destination as place() says
        put = [f"    Z[{d}] = {m} + Z[{d}]"] if b else indent(place(m, d, False, c)[:2])
        where = [f"    {ps} = tuple(range(len({m})))"] if self.at else []
        log = f"if st.log is not None: E.log_move(st, {z}, {d}, {m}, {vis}, {b}, {ps})"
        return self.count_move(s, None) + [f"{m} = Z[{z_at}]", f"if {m}{same}:"] + indent(check(m)) + \
            where + [f"    Z[{z}] = []"] + put + [f"    for {c} in {m}: L[{c}] = {d}",
                     "    " + log] + indent(self.count_move(s, m, ran=False))

    def named(self, src: str) -> tuple:
        """(where src is first worked out, how it is read after) for a zone index: a name bound by
        `:=` when it is more than a number and reads no zone (moving cards cannot change it)."""
        if src.isdigit() or not _reads_no_zone(src):
            return src, src
        name = self.gen.fresh("d")
        return f"({name} := {src})", name

    def count_move(self, s, cards, ran: bool = True) -> list:
        """Coverage's lines for a move: one run (when `ran`), and the cards moved (the list `cards`)."""
        if self.cov is None:
            return []
        run, moved = self.cov.moved_by(s, f"len({cards})")
        return ([run] if ran else []) + ([moved] if cards is not None else [])

    def report(self, s, kind: str, named: str, moved: str) -> str:
        """The line that tells the audit how many cards a move named and how many it moved."""
        return f"{self.audit}(st, {self.gen.k(s.pos)}, {kind!r}, {named}, len({moved}))"


def _reads_no_zone(src: str) -> bool:
    """Whether generated source reads only numbers, tables, variables and seats (no zone or card):
    taking cards out of their zones cannot change its value."""
    return _NO_ZONE.fullmatch(src) is not None


_NO_ZONE = re.compile(r"(?:\d+|K\d+|V|st\.me|st\.current|[\s\[\]()+\-*%])*")


def place(cards: str, d: str, bottom: bool, c: str) -> list:
    """Lines that put the list `cards` on top of zone d (or under it) and note where they are."""
    if bottom:
        return [f"E.place(st, {cards}, {d}, True)"]
    # a state that shares its zones' lists with a copy changes none in place (engine.State)
    return [f"if st.shared: Z[{d}] = Z[{d}] + {cards}", f"else: Z[{d}].extend({cards})",
            f"for {c} in {cards}: L[{c}] = {d}"]


def names_cards(cards) -> bool:
    """Whether a set of cards is a filter made only of `attribute == value` tests joined by `and`: it
    names specific cards (`pile where colour == c and rank == r`), so finding none is a shortfall."""
    if not isinstance(cards, ir.Filter):
        return False

    def exact(cond) -> bool:
        if isinstance(cond, ir.Logic):
            return cond.op == "and" and exact(cond.left) and exact(cond.right)
        return isinstance(cond, ir.Cmp) and cond.op == "==" and \
            isinstance(cond.left, ir.CardAttr) != isinstance(cond.right, ir.CardAttr)
    return exact(cards.cond)


class Line(str):
    """A line of generated source that knows the rule (position) it comes from."""

    def __new__(cls, text: str, pos):
        line = super().__new__(cls, text)
        line.pos = pos
        return line


def indent(lines: list) -> list:
    """Lines one level deeper, each keeping its rule (a line that has none yet gets its statement's)."""
    return [Line("    " + line, line.pos) if isinstance(line, Line) else "    " + line for line in lines]
