"""The linter: rules that are valid but cannot do what they seem to, as warnings.

It reads the checked program (ir.Ruleset) and, for positions of keys, the loaded document.
Every warning is a Diagnostic with severity "warning", a stable code (CODES), a position
file:line:col and a hint on what to do. The linter is conservative: it warns only when the
rules themselves show the defect, whatever the players do. Parameters count as changeable
(a variant or --set may give them other values), so a condition on a parameter is never
"always false" here; only numbers, texts and true/false written in the rules are constant.
"""
from __future__ import annotations

import dataclasses

from . import checker, ir, loader, schema
from .check.stats import reads_own_seat
from .check.trees import nodes
from ..errors import Diagnostic, Pos, RulesetError

CODES = {
    "zone-never-entered": "a zone no card ever enters: no card kind starts there, nothing moves or deals cards to it",
    "param-never-read": "a parameter no rule reads",
    "procedure-never-called": "a procedure no step, setup or trigger ever calls",
    "step-never-runs": "a step after one that always ends the game, and not in end.finish",
    "branch-never-runs": "the then or else of an if, or the body of a loop, that never runs: a constant condition",
    "decision-never-legal": "a choice that can never have a legal option (or an option that can never be taken)",
    "cards-never-leave": "a card kind whose start zone no move or deal ever takes cards from",
    "score-never-changes": "a score that uses nothing that changes during play (only numbers and parameters)",
    "stat-never-varies": "a stat that uses nothing that changes during play: every game reports the same value",
    "row-outside-players": "a by_players row for a player count outside players min..max",
    "rank-ignores-item": "a highest or lowest whose 'by' does not read the item: it always picks the first",
    "zone-joined-with-itself": "zones together with one zone twice (hand + hand): each of its cards counts twice",
    "loop-passes-on-again": "a for loop that moves cards from a seat's zone into another seat's zone of the same "
                            "kind, which a later round takes from again (together: takes every source first)",
    "attribute-compared-with-itself": "a where comparing a card attribute with itself (rank == rank): always true "
                                      "or always false; a local of the same name is hidden there",
    "variable-holds-cards": "a variable set to cards: every change of a variable is announced to every seat, so "
                            "each learns which cards they are, hidden ones too",
    "reverse-changes-nothing": "a reverse in a game for at most 2 players: either way round, the other seat is next",
    "tell-about-seen-cards": "a tell about a zone the players told already see the faces of: it tells them nothing",
    "table-reads-one-seat": "a cooperative score or win that reads me, or a seat's own zone or variable written "
                            "without a seat: it is worked out as seat 0 sees it, so it counts seat 0's only",
    # given by the setup audit (compiler/audit.py), which plays the setup: the linter only reads the rules
    "setup-move-short": "a move or deal of the setup that moved fewer cards than it names (the setup played once)",
}

ALL = "*"           # in a set of zone names: cards from anywhere (the linter cannot tell)
_NO = object()      # not a constant


def warning(pos: Pos, code: str, message: str, hint: str) -> Diagnostic:
    return Diagnostic(pos, message, code, hint, severity="warning")


# ---- walking the program ----
def statements(block):
    """Every statement of a block, nested ones (if, for, while, step, options) included."""
    for s in block:
        yield s
        for attr in ("then", "orelse", "body"):
            yield from statements(getattr(s, attr, None) or [])
        for opt in getattr(s, "options", None) or []:
            yield from statements(opt.body)


def exprs(expr):
    """expr and the expressions inside it (not into the bodies of called functions)."""
    stack = [expr]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, ir.Expr):
            yield x
            stack.extend(getattr(x, f.name) for f in dataclasses.fields(x))


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def const(e):
    """The value of an expression made of literals only (no parameters, no game state), else _NO."""
    if isinstance(e, ir.Lit):
        return _NO if e.type == "any" and e.value is None else e.value
    if isinstance(e, ir.ListLit):
        items = [const(i) for i in e.items]
        return _NO if any(i is _NO for i in items) else items
    if isinstance(e, ir.NotOp):
        v = const(e.operand)
        return (not v) if isinstance(v, bool) else _NO
    if isinstance(e, ir.NegOp):
        v = const(e.operand)
        return -v if _int(v) else _NO
    if isinstance(e, ir.Logic):
        a, b = const(e.left), const(e.right)
        decides = e.op == "or"        # true decides an or, false an and, whatever the other side is
        if a is decides or b is decides:
            return decides
        return b if isinstance(a, bool) and isinstance(b, bool) else _NO
    if isinstance(e, ir.Cond):
        c = const(e.cond)
        return const(e.then if c else e.orelse) if isinstance(c, bool) else _NO
    if isinstance(e, ir.Cmp):
        a, b = const(e.left), const(e.right)
        if a is _NO or b is _NO:
            return _NO
        try:
            return {"==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b, "<=": lambda: a <= b,
                    ">": lambda: a > b, ">=": lambda: a >= b}[e.op]()
        except (TypeError, KeyError):
            return _NO
    if isinstance(e, ir.Bin):
        a, b = const(e.left), const(e.right)
        if e.op == "+" and isinstance(a, list) and isinstance(b, list):
            return a + b
        if _int(a) and _int(b) and e.op in ("+", "-", "*"):
            return a + b if e.op == "+" else a - b if e.op == "-" else a * b
        return _NO
    if isinstance(e, ir.Func) and e.name == "numbers":
        args = [const(a) for a in e.args]
        if args and all(_int(a) for a in args):
            lo, hi = (1, args[0]) if len(args) == 1 else args
            return list(range(lo, hi + 1)) if hi - lo < 10_000 else _NO
    return _NO


def _q(names) -> str:
    """'a', 'a' and 'b', 'a', 'b' and 'c'."""
    names = [f"'{n}'" for n in names]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class Linter:
    """One pass over a checked ruleset; `run()` gives the warnings."""

    def __init__(self, rules: ir.Ruleset, doc=None):
        self.rules, self.doc = rules, doc
        self.out: list = []
        # the blocks that run on their own, and every block of statements
        self.roots = [rules.setup, rules.steps] + [z.on_empty for z in rules.zones] + \
            [rule.body for rule in rules.whenever]
        self.blocks = self.roots + list(rules.procedures.values())
        self.all_statements = [s for block in self.blocks for s in statements(block)]
        self.fn_changes: dict = {}      # function name -> whether its body depends on the game state

    def run(self) -> list:
        self.learn_sources()
        self.zones_never_entered()
        self.cards_that_never_leave()
        self.params_never_read()
        self.procedures_never_called()
        self.steps_never_run()
        self.branches_never_run()
        self.decisions_never_legal()
        self.score_never_changes()
        self.stats_never_vary()
        self.rows_outside_players()
        self.ranks_ignoring_the_item()
        self.zones_joined_with_themselves()
        self.loops_that_pass_on_again()
        self.reverses_changing_nothing()
        self.attributes_compared_with_themselves()
        self.variables_holding_cards()
        self.tells_about_seen_cards()
        self.table_reading_one_seat()
        return sorted(self.out, key=lambda d: (d.pos.file, d.pos.line, d.pos.col, d.code))

    # ---- helpers ----
    def warn(self, pos: Pos, code: str, message: str, hint: str) -> None:
        self.out.append(warning(pos, code, message, hint))

    def key_pos(self, path, fallback: Pos) -> Pos:
        """The position of the key at path in the document (fallback without a document)."""
        return fallback if self.doc is None else self.doc.key_pos(tuple(path))

    def value_pos(self, path, fallback: Pos) -> Pos:
        return fallback if self.doc is None else self.doc.pos(tuple(path))

    def everything(self) -> list:
        """Every part of the program that holds expressions or statements."""
        r = self.rules
        grid = r.display.get("grid") if isinstance(r.display, dict) else None
        return [r.cards, r.zones, r.vars, list(r.functions.values()), list(r.procedures.values()), r.setup,
                r.first, r.next, r.steps, r.end_when, r.score, r.tiebreak, r.bot_eval, r.cooperative, grid, r.stats]

    # ---- where cards come from ----
    def learn_sources(self) -> None:
        """For every local name and variable, the zones the cards it may hold come from; every move."""
        bindings = []       # (slot or ('var', name), expr): the name may hold (cards of) expr
        for s in self.all_statements:
            if isinstance(s, ir.LetS):
                bindings.append((s.slot, s.value))
            elif isinstance(s, ir.ForS):
                bindings.append((s.slot, s.iterable))
            elif isinstance(s, ir.SetS):
                bindings.append((("var", s.decl.name), s.value))
            elif isinstance(s, ir.CallS):           # a procedure's parameters hold what its calls pass
                bindings.extend(zip(s.slots, s.args))
            elif isinstance(s, ir.ChooseS):
                if s.cards is not None:
                    bindings.append((s.slot, s.cards.cards))
                elif s.values is not None:
                    bindings.append((s.slot, s.values))
                bindings.extend((part.slot, part.values) for part in s.parts)
                for opt in s.options:
                    if opt.slot is not None and opt.cards is not None:
                        bindings.append((opt.slot, opt.cards.cards))
        for v in self.rules.vars:
            bindings.append((("var", v.name), v.initial))
        for fn in self.rules.functions.values():
            bindings.append((("fn", fn.name), fn.body))
        for x in nodes(self.everything()):
            if isinstance(x, ir.Gen):
                bindings.append((x.slot, x.iterable))
            elif isinstance(x, ir.UserCall):
                bindings.extend(zip(x.fn.params, x.args))
        self.src_of: dict = {}
        changed = True
        while changed:          # a let may copy another name: go on until nothing is learnt
            changed = False
            for key, expr in bindings:
                got, have = self.sources(expr), self.src_of.setdefault(key, set())
                if not got <= have:
                    have |= got
                    changed = True
        self.moves = []         # (zones the cards may come from, zone they go to)
        for s in self.all_statements:
            if isinstance(s, ir.MoveS) and isinstance(s.dest, ir.ZoneRef):
                self.moves.append((self.sources(s.cards), s.dest.decl.name))
            elif isinstance(s, ir.DealS) and isinstance(s.dest, ir.ZoneDecl):
                self.moves.append((self.sources(s.source), s.dest.name))

    def sources(self, e, depth: int = 0) -> set:
        """The zones the cards of e may come from ({ALL} when the linter cannot tell)."""
        if e is None:
            return set()
        if depth > 50:
            return {ALL}
        if isinstance(e, ir.ZoneRef):
            return {e.decl.name}
        if isinstance(e, (ir.Filter, ir.TopN)):
            return self.sources(e.cards, depth + 1)
        if isinstance(e, ir.Local):
            return set(self.src_of.get(e.slot, ()))
        if isinstance(e, ir.Var):
            return set(self.src_of.get(("var", e.decl.name), ()))
        if isinstance(e, ir.Func):      # of the built-in functions, only these give cards
            gives = e.name in ("first", "last", "reversed", "at") and e.args
            return self.sources(e.args[0], depth + 1) if gives else set()
        if isinstance(e, ir.Cond):
            return self.sources(e.then, depth + 1) | self.sources(e.orelse, depth + 1)
        if isinstance(e, ir.ListLit):
            return set().union(*(self.sources(i, depth + 1) for i in e.items))
        if isinstance(e, ir.Bin) and e.op == "+":
            return self.sources(e.left, depth + 1) | self.sources(e.right, depth + 1)
        if isinstance(e, ir.UserCall):
            return set(self.src_of.get(("fn", e.fn.name), ()))
        if isinstance(e, (ir.Lit, ir.Param, ir.GetAttr, ir.CardAttr, ir.Builtin)):
            return set()            # plain values: numbers, texts, lists of them
        if e.type in ("int", "str", "bool", "player", "value"):
            return set()
        return {ALL}

    # ---- zones and cards ----
    def zones_never_entered(self) -> None:
        """zone-never-entered: from the start zones, follow every move and deal."""
        entered = {k.start.name for k in self.rules.cards if isinstance(k.start, ir.ZoneDecl)}
        changed = True
        while changed:
            changed = False
            for srcs, dest in self.moves:
                if dest not in entered and (ALL in srcs and entered or srcs & entered):
                    entered.add(dest)
                    changed = True
        self.entered = entered
        for z in self.rules.zones:
            if z.name in entered:
                continue
            feeders = sorted({n for srcs, dest in self.moves if dest == z.name for n in srcs} - {z.name})
            if feeders:
                why = f"cards are moved to it only from {_q(feeders)}, which no card enters either"
            else:
                why = "no card kind starts there and no move or deal puts cards in it"
            single = not z.per_player and z.per is None
            self.warn(self.key_pos(("zones", z.name), z.pos), "zone-never-entered",
                      f"no card ever enters zone '{z.name}': {why}",
                      f"start a card kind there (start: {z.name}), move cards to it, or remove the zone" if single
                      else "move or deal cards to it, or remove the zone")

    def cards_that_never_leave(self) -> None:
        """cards-never-leave: a card kind whose start zone no move or deal takes cards from."""
        left = set().union(*(srcs for srcs, _ in self.moves))
        if ALL in left:
            return
        for k in self.rules.cards:
            if not isinstance(k.start, ir.ZoneDecl) or k.start.name in left or self.never_any(k.count):
                continue
            self.warn(self.value_pos(("cards", k.name, "start"), k.pos), "cards-never-leave",
                      f"cards of kind '{k.name}' never leave their start zone '{k.start.name}': no move or deal "
                      f"takes cards from it",
                      f"move or deal them out of '{k.start.name}' (in setup or a step), or remove the kind")

    def param_ints(self, e):
        """The values of a parameter holding a number, one per row (None if it holds something else)."""
        if not isinstance(e, ir.Param):
            return None
        value = self.rules.params.get(e.name, (None,))[0]
        rows = list(value.values()) if isinstance(value, dict) else [value]
        return rows if rows and all(_int(v) for v in rows) else None

    def never_any(self, count) -> bool:
        """Whether a card count is 0 (written so, or a parameter that is 0 for every player count)."""
        rows = self.param_ints(count)
        return const(count) == 0 or rows is not None and not any(rows)

    # ---- parameters ----
    def params_never_read(self) -> None:
        """param-never-read: a parameter no expression names."""
        read = {x.name for x in nodes(self.everything()) if isinstance(x, ir.Param)}
        for name, (_, pos) in self.rules.params.items():
            if name not in read:
                self.warn(self.key_pos(("params", name), pos), "param-never-read",
                          f"parameter '{name}' is never read",
                          "use it in the rules (a count, a condition, the score ...), or remove it")

    def rows_outside_players(self) -> None:
        """row-outside-players: a by_players row for a player count the game does not allow."""
        if self.doc is None or not isinstance(self.doc.data, dict):
            return
        lo, hi = self.rules.min_players, self.rules.max_players
        allowed = f"{lo} player{'s' if lo != 1 else ''}" if lo == hi else f"{lo} to {hi} players"
        for name, raw in (self.doc.data.get("params") or {}).items():
            if not isinstance(raw, dict) or not isinstance(raw.get("by_players"), dict):
                continue
            for key in raw["by_players"]:
                a, _, b = str(key).partition("-")
                try:
                    a, b = int(a), int(b or a)
                except ValueError:
                    continue
                outside = [n for n in range(a, min(b, a + 1000) + 1) if not lo <= n <= hi]
                if not outside:
                    continue
                inside = range(max(a, lo), min(b, hi) + 1)
                counts = ", ".join(map(str, outside[:4])) + (" …" if len(outside) > 4 else "")
                pos = self.key_pos(("params", name, "by_players", key), self.rules.params[name][1])
                if not inside:
                    self.warn(pos, "row-outside-players",
                              f"row '{key}' of '{name}' is for {counts} players, but the game is for {allowed}",
                              "remove the row, or change players: {min, max}")
                else:
                    narrow = f"{inside[0]}-{inside[-1]}" if len(inside) > 1 else str(inside[0])
                    self.warn(pos, "row-outside-players",
                              f"row '{key}' of '{name}' also covers {counts} players, but the game is for {allowed}",
                              f"write the row as {narrow}, or change players: {{min, max}}")

    # ---- procedures and steps ----
    def procedures_never_called(self) -> None:
        """procedure-never-called: not reached by a call from setup, the steps or a trigger."""
        def calls(block) -> set:
            return {s.name for s in statements(block) if isinstance(s, ir.CallS)}

        procedures = self.rules.procedures
        reached: set = set()
        todo = set().union(*(calls(b) for b in self.roots))
        while todo:
            name = todo.pop()
            if name in procedures and name not in reached:
                reached.add(name)
                todo |= calls(procedures[name])
        for name, body in procedures.items():
            if name in reached:
                continue
            callers = sorted(p for p, b in procedures.items() if p != name and name in calls(b))
            if callers:
                many = len(callers) > 1
                message = (f"procedure '{name}' never runs: it is called only from "
                           f"{'procedures' if many else 'procedure'} {_q(callers)}, which "
                           f"{'are' if many else 'is'} never called")
            else:
                message = f"procedure '{name}' is never called"
            fallback = body[0].pos if body else Pos(self.rules.file, 1, 1)
            written = next((k for k in ((self.doc.data.get("procedures") if self.doc else None) or {})
                            if str(k).split("(")[0].strip() == name), name)     # 'give' is written 'give(p, n)'
            self.warn(self.key_pos(("procedures", written), fallback), "procedure-never-called", message,
                      f"call it from setup or a step (call {name}), or remove it")

    def loops_that_pass_on_again(self) -> None:
        """loop-passes-on-again: `for p in seats: move hand(p) to hand(next(p))` outside together."""
        def walk(block):
            for s in block:
                if isinstance(s, ir.TogetherS):
                    continue
                if isinstance(s, ir.ForS):
                    self.passes_on_again(s)
                for attr in ("then", "orelse", "body"):
                    walk(getattr(s, attr, None) or [])
                for opt in getattr(s, "options", None) or []:
                    walk(opt.body)
        for block in self.blocks:
            walk(block)

    def passes_on_again(self, loop: ir.ForS) -> None:
        """The moves of a loop from one zone of a kind into another, both picked by the loop's name."""
        def picked(z) -> bool:
            return any(isinstance(e, ir.Local) and e.slot == loop.slot for e in exprs([z.owner, z.index]))
        for s in statements(loop.body):
            src = ir.base_of(s.cards) if isinstance(s, ir.MoveS) else None
            if not isinstance(src, ir.ZoneRef) or src.decl is not s.dest.decl or not picked(src) \
                    or not picked(s.dest) or _shape([src.owner, src.index]) == _shape([s.dest.owner, s.dest.index]):
                continue
            name = self.rules.slots[loop.slot]
            self.warn(s.pos, "loop-passes-on-again", f"this loop moves cards from one '{src.decl.name}' into "
                      f"another that a later round of the loop (over {name}) takes from: cards passed on are "
                      "passed on again", "to take every source before any card lands, put the loop inside "
                      "together: (docs/language.md, section 7, together)")

    def steps_never_run(self) -> None:
        """step-never-runs: steps after one that always ends the game, unless named in end.finish."""
        def ending(block):
            return next((s for s in block if isinstance(s, ir.EndS)), None)

        steps = self.rules.steps
        first_end, why = None, ""
        stop = ending(self.rules.setup)
        if stop is not None:
            first_end, why = -1, f"setup always ends the game (end game at {stop.pos.line}:{stop.pos.col})"
        else:
            for i, s in enumerate(steps):
                stop = ending(s.body if isinstance(s, ir.StepS) else [s])
                if stop is not None:
                    label = f"step '{s.name}'" if isinstance(s, ir.StepS) else "an earlier statement of the turn"
                    first_end, why = i, f"{label} always ends the game (end game at {stop.pos.line}:{stop.pos.col})"
                    break
        if const(self.rules.end_when) is True and (first_end is None or first_end > 0):
            first_end, why = 0, "the end condition is always true, so every game ends after the first step"
        if first_end is None:
            return
        for s in steps[first_end + 1:]:
            name = s.name if isinstance(s, ir.StepS) else None
            if name is not None and name in self.rules.finish:
                continue
            what = f"step '{name}'" if name is not None else "this statement of the turn"
            rest = f" and '{name}' is not in end.finish" if name is not None else \
                ", and only steps named in end.finish run after that"
            self.warn(s.pos, "step-never-runs", f"{what} can never run: {why}{rest}",
                      "put the end game inside an if, or name the step in end.finish" if "end game" in why else
                      "fix end.when, or name the step in end.finish")

    # ---- constant conditions ----
    def branches_never_run(self) -> None:
        """branch-never-runs: an if, while, around or for whose condition or list is a constant."""
        for s in self.all_statements:
            if isinstance(s, ir.IfS):
                c = const(s.cond)
                if c is False and s.then:
                    self.warn(s.cond.pos, "branch-never-runs",
                              "the then-branch of this if never runs: its condition is always false",
                              "fix the condition, or remove the if")
                elif c is True and s.orelse:
                    self.warn(s.cond.pos, "branch-never-runs",
                              "the else-branch of this if never runs: its condition is always true",
                              "fix the condition, or remove the else")
            elif isinstance(s, ir.WhileS) and const(s.cond) is False and s.body:
                around = isinstance(s.cond, ir.NotOp) and s.cond.pos == s.pos      # around ... until
                self.warn(s.cond.operand.pos if around else s.cond.pos, "branch-never-runs",
                          "this around never gives anyone a go: its until condition is always true" if around
                          else "this while loop never runs: its condition is always false",
                          "fix the condition, or remove the loop")
            elif isinstance(s, ir.ForS) and const(s.iterable) == [] and s.body:
                self.warn(s.iterable.pos, "branch-never-runs", "this for loop never runs: its list is always empty",
                          "give it a list with items, or remove the loop")

        for rule in self.rules.whenever:
            if const(rule.cond) is False and rule.body:
                self.warn(rule.cond.pos, "branch-never-runs",
                          "this standing rule never fires: its when is always false",
                          "fix the condition, or remove the rule")

    def reverses_changing_nothing(self) -> None:
        """reverse-changes-nothing: with 2 players the next seat is the same either way round."""
        if self.rules.max_players > 2:
            return
        for s in self.all_statements:
            if isinstance(s, ir.ReverseS):
                self.warn(s.pos, "reverse-changes-nothing",
                          f"this reverse changes nothing: with {self.rules.max_players} players the other seat "
                          "is next either way round", "remove it, or make the card do what it does with two "
                          "players (e.g. an extra turn)")

    def tells_about_seen_cards(self) -> None:
        """tell-about-seen-cards: a tell about a face-up zone, or about a private zone to its owner."""
        for s in self.all_statements:
            if not isinstance(s, ir.TellS):
                continue
            zone = ir.base_of(s.cards)
            if not isinstance(zone, ir.ZoneRef):
                continue
            decl = zone.decl
            owner = _shape(zone.owner) if zone.owner is not None else _shape(ir.Builtin(None, "player", "me"))
            told = _shape(s.seats)
            if decl.visible == "everyone" or (decl.visible == "owner" and told == owner) or \
                    (decl.visible == "others" and _neighbour(told, owner)):
                whose = {"everyone": "every player sees", "owner": "its owner sees",
                         "others": "the player told is not its owner, so it sees"}[decl.visible]
                self.warn(s.pos, "tell-about-seen-cards",
                          f"this tell tells nothing: {whose} the faces of '{decl.name}' already",
                          "tell about cards the players cannot see (a hand held facing away, visible: others, "
                          "or a face-down pile), or remove it")

    # ---- decisions ----
    def decisions_never_legal(self) -> None:
        """decision-never-legal: cards from zones no card enters, an empty list, a where that is always false."""
        for s in self.all_statements:
            if not isinstance(s, ir.ChooseS):
                continue
            if s.cards is not None:
                why = self.no_cards(s.cards)
                if why:
                    self.warn(s.cards.cards.pos, "decision-never-legal",
                              f"decision '{s.name}' can never have a legal option: {why}", self.cards_hint(s.cards))
            elif s.values is not None:
                if const(s.values) == []:
                    self.warn(s.values.pos, "decision-never-legal",
                              f"decision '{s.name}' can never have a legal option: the list it chooses from is "
                              "always empty", "give from: a list with items")
                elif s.where is not None and const(s.where) is False:
                    self.warn(s.where.pos, "decision-never-legal",
                              f"decision '{s.name}' can never have a legal option: its where condition is always "
                              "false", "fix the condition, or remove where")
            else:
                dead = [(opt, self.no_option(opt)) for opt in s.options]
                dead = [(opt, why) for opt, why in dead if why]
                for opt, why in dead:
                    if len(dead) == len(s.options):
                        message = (f"decision '{s.name}' can never have a legal option: option '{opt.name}' can "
                                   f"never be taken, {why}")
                    else:
                        message = f"option '{opt.name}' of decision '{s.name}' can never be taken: {why}"
                    if opt.cards is not None and not (opt.when is not None and const(opt.when) is False):
                        self.warn(opt.cards.cards.pos, "decision-never-legal", message, self.cards_hint(opt.cards))
                    else:
                        self.warn(opt.when.pos, "decision-never-legal", message,
                                  "fix the condition, or remove when")

    def no_option(self, opt: ir.Option) -> str:
        """Why an option can never be taken ('' when it may be)."""
        if opt.when is not None and const(opt.when) is False:
            return "its when condition is always false"
        return self.no_cards(opt.cards) if opt.cards is not None else ""

    def no_cards(self, choice: ir.CardChoice) -> str:
        """Why a card choice can never be made ('' when it may be)."""
        if isinstance(choice.lo, ir.Param):
            rows = self.param_ints(choice.lo)
            lo = min(rows) if rows else _NO
        else:
            lo = const(choice.lo) if choice.lo is not None else 1
        if not (_int(lo) and lo >= 1):
            return ""           # choosing no card at all may be legal
        srcs = self.sources(choice.cards)
        if srcs and ALL not in srcs and not srcs & self.entered:
            many = len(srcs) > 1
            return (f"it chooses cards from {'zones' if many else 'zone'} {_q(sorted(srcs))}, which no card "
                    f"ever {'enter' if many else 'enters'}")
        if choice.where is not None and const(choice.where) is False:
            return "its where condition is always false"
        return ""

    @staticmethod
    def cards_hint(choice: ir.CardChoice) -> str:
        if choice.where is not None and const(choice.where) is False:
            return "fix the where condition"
        return "choose from a zone that cards are moved to, or move cards to this zone first"

    # ---- score ----
    def score_never_changes(self) -> None:
        """score-never-changes: a score made of numbers, parameters and fixed names only."""
        score = self.rules.score
        if score is None or const(score) is _NO and self.changes(score, frozenset()):
            return
        self.warn(score.pos, "score-never-changes",
                  "the score cannot change: it uses no zone and no variable, only numbers and parameters, so every "
                  "game ends with the same scores",
                  "score what the players did, e.g. count(won) or sum(won.value)")

    def table_reading_one_seat(self) -> None:
        """table-reads-one-seat: a cooperative score or win that reads me or a seat's own zone or variable."""
        r = self.rules
        if r.cooperative is None:
            return
        for what, expr in (("score", r.score), ("win", r.cooperative)):
            if expr is not None and reads_own_seat(expr):
                self.warn(expr.pos, "table-reads-one-seat",
                          f"this cooperative {what} is the table's, worked out once as seat 0 sees it: what it reads "
                          "of me (me, or a seat's own zone or variable written without a seat) is seat 0's only",
                          "read every seat by name, e.g. sum(count(hand(p)) for p in seats), or what the table "
                          "shares (variables, table zones)")

    def stats_never_vary(self) -> None:
        """stat-never-varies: a stat made of numbers, parameters and fixed names only."""
        for stat in self.rules.stats:
            if const(stat.expr) is _NO and self.changes(stat.expr, frozenset()):
                continue
            self.warn(stat.expr.pos, "stat-never-varies",
                      f"stat '{stat.name}' never varies: it uses no zone, no variable and not the turn, only "
                      "numbers, parameters, players and seats, so every game reports the same value",
                      "report what happened in the game, e.g. count(won) or count(hand) == 0, or remove the stat")

    def ranks_ignoring_the_item(self) -> None:
        """rank-ignores-item: highest/lowest ranking by a number that is the same for every item."""
        for x in nodes(self.everything()):
            if not (isinstance(x, ir.Func) and x.name in ("highest", "lowest") and x.args[0].by is not None):
                continue
            g = x.args[0]
            if any(isinstance(y, ir.Local) and y.slot == g.slot for y in exprs(g.by)):
                continue
            self.warn(g.by.pos, "rank-ignores-item",
                      f"{x.name}(...) always picks the first item: what it ranks by does not use the item, so "
                      "every item ties", f"rank by something of the item, e.g. {x.name}(p for p in seats by "
                      "count(won(p))); for the first item, write first(...)")

    def zones_joined_with_themselves(self) -> None:
        """zone-joined-with-itself: `hand + won + hand`, one zone (same owner, same index) twice."""
        for x in nodes(self.everything()):
            if not (isinstance(x, ir.Bin) and x.type == "cards" and isinstance(x.right, ir.ZoneRef)):
                continue
            left = x.left
            while isinstance(left, ir.Bin) and left.type == "cards" and not _same_zone(left.right, x.right):
                left = left.left
            if _same_zone(left.right if isinstance(left, ir.Bin) else left, x.right):
                name = x.right.decl.name
                self.warn(x.right.pos, "zone-joined-with-itself",
                          f"zone '{name}' is joined with itself, so each of its cards counts twice",
                          "join each zone once" + (f"; for another seat's {name}, name the seat, e.g. "
                                                   f"{name}(next(me))" if x.right.decl.per_player else ""))

    def attributes_compared_with_themselves(self) -> None:
        """attribute-compared-with-itself: `where rank == rank` tests each card against itself (a
        local named like the attribute is hidden inside a where: the bare name is the card's)."""
        for x in nodes(self.everything()):
            if isinstance(x, ir.Cmp) and isinstance(x.left, ir.CardAttr) and isinstance(x.right, ir.CardAttr) \
                    and x.left.attr == x.right.attr:
                name, always = x.left.attr, x.op in ("==", "<=", ">=")
                self.warn(x.right.pos, "attribute-compared-with-itself",
                          f"'{name} {x.op} {name}' compares each card's {name} with itself, so it is always "
                          f"{'true' if always else 'false'}: inside a where, a bare '{name}' is the card's attribute",
                          f"to compare with a value you named '{name}' (a let, a for or a part of a choice), "
                          f"give that name another word, e.g. 'asked_{name}'")

    def variables_holding_cards(self) -> None:
        """variable-holds-cards: `set held = top 2 of deck` announces the cards themselves to every seat."""
        warned = set()
        for s in self.all_statements:
            if isinstance(s, ir.SetS) and s.decl.name in self.rules.card_vars and s.decl.name not in warned:
                warned.add(s.decl.name)
                self.warn(s.value.pos, "variable-holds-cards",
                          f"variable '{s.decl.name}' is set to cards, and every change of a variable is announced to "
                          "every seat: each would learn which cards they are, even those it cannot see",
                          "keep cards in a zone (move them there), or name them with a let for the rest of the turn")

    def changes(self, expr, fixed: frozenset) -> bool:
        """Whether expr depends on something that changes during play (fixed: names known not to)."""
        fixed = fixed | {x.slot for x in exprs(expr) if isinstance(x, ir.Gen)}
        for x in exprs(expr):
            if isinstance(x, ir.UserCall) and x.fn.body is not None:
                if x.fn.name not in self.fn_changes:        # once per function: its arguments are walked here
                    self.fn_changes[x.fn.name] = True       # (no recursion: the checker refused it)
                    self.fn_changes[x.fn.name] = self.changes(x.fn.body, frozenset(x.fn.params))
                if self.fn_changes[x.fn.name]:
                    return True
            if isinstance(x, (ir.ZoneRef, ir.Var)):
                return True
            if isinstance(x, ir.Builtin) and x.name not in ("me", "players", "seats"):
                return True
            if isinstance(x, ir.Local) and x.slot not in fixed:
                return True
            if isinstance(x, ir.Lit) and x.type == "any" and x.value is None:
                return True         # not known: it may change
        return False


def _same_zone(a, b) -> bool:
    """Whether two zone references name the same zone in every game: the same zone, and the same
    seat and index written as the same literal or built-in name (or none)."""
    def key(e, default=None):
        if e is None:
            return default
        if isinstance(e, ir.Lit):
            return ("lit", repr(e.value))
        if isinstance(e, ir.Builtin):
            return ("name", e.name)
        if isinstance(e, ir.Local):
            return ("local", e.slot)
        return ("other", id(e))         # worked out while playing: never taken for the same
    me = ("name", "me")                 # a player's zone written without a seat is me's
    return isinstance(a, ir.ZoneRef) and isinstance(b, ir.ZoneRef) and a.decl is b.decl and \
        key(a.owner, me) == key(b.owner, me) and key(a.index) == key(b.index)
def _neighbour(seat, other) -> bool:
    """Whether one seat expression is next(...) or prev(...) of the other: never the same seat while two play."""
    def around(a, b):
        return isinstance(a, tuple) and a[:3] in (("Func", "player", "next"), ("Func", "player", "prev")) \
            and a[3] == (b,)
    return around(seat, other) or around(other, seat)


def _shape(x):
    """An expression as nested tuples without positions: equal shapes are the same expression."""
    if isinstance(x, (list, tuple)):
        return tuple(_shape(v) for v in x)
    if dataclasses.is_dataclass(x) and not isinstance(x, Pos):
        if isinstance(x, (ir.ZoneDecl, ir.VarDecl, ir.FunctionDecl)):
            return x.name
        return (type(x).__name__,) + tuple(_shape(getattr(x, f.name)) for f in dataclasses.fields(x) if f.name != "pos")
    return x


def lint(rules: ir.Ruleset, doc=None) -> list:
    """The warnings for a checked ruleset; doc (the loaded document) gives the positions of keys.

    A program too deeply nested for the linter's walks gives no warnings rather than a crash."""
    try:
        return Linter(rules, doc).run()
    except RecursionError:
        return []


def lint_file(path: str, overrides: dict | None = None) -> list:
    """Load and check a ruleset file (RulesetError if it is invalid), then lint it."""
    doc = loader.load(path)
    problems = schema.validate(doc)
    if problems:
        raise RulesetError(problems)
    return lint(checker.check(doc, overrides), doc)
