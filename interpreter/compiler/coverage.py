"""Coverage points: every place in the rules whose runs an instrumented program counts.

The points are found by walking the checked rules once, in rule order (setup, turn steps,
procedures, on_empty triggers), so each rule is one point however often the generated code
holds it (a procedure written inline at each call). Code generation then asks for a point's
number and writes the line that counts it (StatementGen and Flow, only when compiling with
coverage: the programs games run are compiled without it, their code unchanged).
"""
from __future__ import annotations

from ..frontend import ir
from ..runtime.coverage import Coverage, CoveragePoint
from .describe import short


class CoverageMap:
    """The coverage points of a ruleset and the source lines that count them."""

    def __init__(self, rules: ir.Ruleset, names):
        self.rules, self.slots = rules, rules.slots
        self.points: list = []
        self.index: dict = {}
        self.counts: list = []
        self.moved: list = []
        self.seen: set = set()
        self.runtime: Coverage | None = None
        self.counts_src = names(self.counts)     # the generated code's names for the two lists
        self.moved_src = names(self.moved)
        self.walk(rules.setup)
        self.walk(rules.steps)
        for body in rules.procedures.values():
            self.walk(body)
        for d in rules.zones:
            if d.on_empty:
                self.add(d, "on_empty", d.on_empty[0].pos, f"on_empty of {d.name}")
                self.walk(d.on_empty)
        for rule in rules.whenever:
            self.add(rule, "whenever", rule.pos, f"whenever {short(rule.cond, self.slots)}")
            self.walk(rule.body)

    def coverage(self) -> Coverage:
        """The run-time counters of these points (one for the program)."""
        if self.runtime is None:
            self.runtime = Coverage(self.points, self.counts, self.moved)
        return self.runtime

    def coverage_of_prefix(self, setup):
        """The setup's prefix function, its counts kept apart for every game (Coverage.run_prefix)."""
        return self.coverage().run_prefix(setup)

    def add(self, key, kind: str, pos, text: str, k: int = 0) -> None:
        self.index[(id(key), kind, k)] = len(self.points)
        self.points.append(CoveragePoint(kind, pos, text))
        self.counts.append(0)
        self.moved.append(0)

    def walk(self, stmts) -> None:
        for s in stmts:
            if id(s) not in self.seen:
                self.seen.add(id(s))
                getattr(self, "w_" + type(s).__name__, self.w_nested)(s)

    def w_nested(self, s) -> None:
        for attr in ("then", "orelse", "body"):
            self.walk(getattr(s, attr, None) or [])

    def w_StepS(self, s) -> None:
        self.add(s, "step", s.pos, f"step {s.name}")
        self.walk(s.body)

    def w_IfS(self, s) -> None:
        cond = short(s.cond, self.slots)
        self.add(s, "then", s.pos, f"if {cond}: then")
        self.add(s, "else", s.pos, f"if {cond}: else" + ("" if s.orelse else " (nothing)"))
        self.walk(s.then)
        self.walk(s.orelse)

    def w_ChooseS(self, s) -> None:
        for k, opt in enumerate(s.options):     # numbered in a row: the chosen one is first + its number
            self.add(s, "option", s.pos, f"choose {s.name}: option {opt.name}", k)
        for opt in s.options:
            self.walk(opt.body)
        self.walk(s.body)       # each: the then run once all have chosen

    def w_MoveS(self, s) -> None:
        where = "to bottom of" if s.bottom else "to"
        self.add(s, "move", s.pos, f"move {short(s.cards, self.slots)} {where} {short(s.dest, self.slots)}")

    def w_DealS(self, s) -> None:
        self.add(s, "move", s.pos, f"deal {short(s.count, self.slots)} from {short(s.source, self.slots)} "
                                   f"to {s.dest.name}")

    # ---- the lines that count ----
    def ran(self, s, kind: str, k: int = 0) -> str:
        """The statement that counts one run of a point."""
        return f"{self.counts_src}[{self.index[(id(s), kind, k)]}] += 1"

    def option(self, s, which: str) -> str:
        """The statement that counts the chosen option of a choose, whose number is `which`."""
        return f"{self.counts_src}[{self.index[(id(s), 'option', 0)]} + {which}] += 1"

    def moved_by(self, s, cards: str) -> list:
        """The statements that count a move's run and the cards it moved (`cards`, an expression)."""
        i = self.index[(id(s), "move", 0)]
        return [f"{self.counts_src}[{i}] += 1", f"{self.moved_src}[{i}] += {cards}"]
