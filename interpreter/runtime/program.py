"""A compiled program and what a caller does with it: start a game, list moves, apply them, score.

`Program` holds what the compiler made (the layout's tables, the op list, the decisions, the
scoring functions) and knows nothing of how it was made.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import engine as E
from . import rng
from .decisions import normalise, show
from ..errors import IllegalMove, RuleRuntimeError, UsageError


@dataclass
class Compiled:
    """What the compiler hands a Program besides the layout: code, decisions, scoring, constants."""

    code: list                  # per pc: op(st) -> next pc
    op_pos: list                # per pc: the position of its rule, or None
    loops: list                 # (first pc, end pc, position) of every while loop holding a decision
    line_pos: dict              # generated file name -> {line: position of its rule}
    decisions: list
    prefix: int                 # how many leading setup statements initial() runs, once
    end_fn: object              # f(st, c) for the end condition, the score, the bot evaluation (or None)
    score_fn: object
    eval_fn: object
    tiebreak_fns: list          # [(sign, f(st, c))]
    initial_code: object        # () -> (first player f(st, c), [(slot, count, f(st, c), pos)] per variable,
                                #        f(st) running the setup's prefix); made when first needed
    const: object               # const(expression): a constant of the rules worked out at this player count
    source: str = ""            # the generated text of the ops (for reading, not run)
    stat_fns: list = field(default_factory=list)    # f(st, c) per stat of rules.stats, in order
    coverage: object = None     # coverage.Coverage of a program compiled to count coverage, else None
    lam: object = None          # lam(expression) -> f(st, c): compiles another expression of the rules
    cooperative_fn: object = None   # f(st, c) for a cooperative game's win condition, else None
    card_slots: tuple = ()      # the slots holding card ids (or lists of them): bots' worlds follow them
    evals_fn: object = None     # f(st) -> every seat's bot evaluation in one call (or None: evaluate seat by seat)


class Program:
    """A ruleset compiled for one player count: its tables and code, and the state-level API."""

    def __init__(self, rules, players: int, limits, layout, compiled: Compiled):
        self.rules, self.players, self.limits = rules, players, limits
        lay, c = layout, compiled
        self.layout = lay
        self.zone_names, self.zone_decl, self.zone_owner, self.zone_vis = (
            lay.zone_names, lay.zone_decl, lay.zone_owner, lay.zone_vis)
        self.zone_positions = lay.zone_positions
        self.zone_alike, self.zone_base, self.family, self.zone_width = (
            lay.zone_alike, lay.zone_base, lay.family, lay.zone_width)
        self.var_base, self.n_vars, self.n_locals = lay.var_base, lay.n_vars, lay.n_locals
        self.type_names, self.type_attrs, self.type_index, self.type_tables = (
            lay.type_names, lay.type_attrs, lay.type_index, lay.type_tables)
        self.card_type, self.card_start, self.attr_tables = lay.card_type, lay.card_start, lay.attr_tables
        self.param_values = lay.param_values
        self.code, self.op_pos, self.loops, self.line_pos = c.code, c.op_pos, c.loops, c.line_pos
        self.decisions, self.prefix, self.source = c.decisions, c.prefix, c.source
        self.end_fn, self.score_fn, self.eval_fn, self.tiebreak_fns = c.end_fn, c.score_fn, c.eval_fn, c.tiebreak_fns
        self.cooperative_fn = c.cooperative_fn
        self.card_slots = c.card_slots
        self.evals_fn = c.evals_fn
        self.eval_reads = None      # what the bots' evaluation reads of a state (compiler/reads.py), set by the compiler
        self.eval_cache = None      # the bots' cache of evaluations (seats/eval_cache.py): None until made, False: none
        self.const = c.const
        self.stats = list(zip(rules.stats, c.stat_fns))
        self.stat_names = [s.name for s in rules.stats]
        self.stat_per_seat = {s.name: s.per_seat for s in rules.stats}
        self._initial_code = c.initial_code
        self._initial = None
        self.coverage = c.coverage
        self.coverage_points = c.coverage.points if c.coverage is not None else []
        self._lam, self._functions = c.lam, {}

    def new_state(self, seed: int = 0, log: bool = False, record: bool = False, script=None) -> E.State:
        """A new game: the setup run up to the first decision."""
        zones, loc, vars_, events = self.initial()
        st = E.State()
        st.zones = [z[:] for z in zones]
        st.loc = loc[:]
        st.vars = vars_[:]
        st.pc, st.stack, st.current, st.me, st.decider = 0, [], 0, 0, 0
        st.pending, st.turn, st.moves = None, 0, 0
        st.ending = st.extra = st.over = st.shared = False
        st.rng = rng.seed_state(seed)
        st.log = events[:] if log else None
        st.chance = [] if record else None
        st.script = None if script is None else list(script)
        st.evals = None
        if self.coverage is not None:
            self.coverage.start_game()
        E.run(st, self.code, self.where, self.limits.steps, self.loops)
        return st

    def initial(self) -> tuple:
        """Cards in their start zones, variables set, and the setup's deterministic first statements
        done — the same for every game, so computed once: (zones, loc, vars, events)."""
        if self._initial is None:
            first, var_inits, setup = self._initial_code()
            st = E.State()
            st.zones = [[] for _ in self.zone_names]
            st.loc = list(self.card_start)
            for c, z in enumerate(self.card_start):
                st.zones[z].append(c)
            st.vars = [None] * self.n_vars
            st.stack, st.turn, st.moves, st.pending = [], 0, 0, None
            st.ending = st.extra = st.over = st.shared = False
            st.log, st.chance, st.script, st.rng = [], None, None, 0
            self.start_values(st, first, var_inits)
            try:
                setup(st)
            except E.RULE_FAILURES as exc:
                first_rule = self.rules.setup[0].pos if self.rules.setup else None
                raise E.failure(exc, st, self.where(exc) or first_rule) from None
            self._initial = (st.zones, st.loc, st.vars, st.log)
        return self._initial

    def start_values(self, st: E.State, first, var_inits: list) -> None:
        """Who starts, then every variable's initial value (which may use `current`)."""
        try:
            seat = first(st, None)
            if not 0 <= seat < self.players:    # never taken modulo: seat 7 of 4 is a mistake, not seat 3
                raise RuleRuntimeError(self.rules.first.pos, f"turn.first gives seat {seat}, but with "
                                       f"{self.players} players the seats are 0 to {self.players - 1} (a seat is "
                                       "never taken modulo the players: write e.g. (...) % players)")
            st.current = st.me = seat
        except TypeError:
            raise RuleRuntimeError(self.rules.first.pos, "turn.first cannot use a game variable: "
                                   "variables get their initial values after the first player is known")
        except E.RULE_FAILURES as exc:
            raise E.failure(exc, st, self.rules.first.pos) from None
        for base, count, init, pos in var_inits:
            for k in range(count):
                st.me = k
                try:
                    st.vars[base + k] = init(st, None)
                except E.RULE_FAILURES as exc:
                    raise E.failure(exc, st, pos) from None
        st.me = st.current

    def count_coverage(self, on: bool) -> None:
        """Count coverage points only while on (the real game), not a bot's look-ahead on clones."""
        self.counters().switch(on)

    def take_coverage(self) -> tuple:
        """(counts, moved) per coverage point since the last take, then zeroed."""
        return self.counters().take()

    def counters(self):
        """The coverage counters; a program compiled without them refuses to count."""
        if self.coverage is None:
            raise UsageError("this program does not count coverage: compile it with game.program(n, coverage=True)")
        return self.coverage

    def legal_moves(self, st: E.State) -> list:
        """Every legal move of the deciding player, deduplicated by card type."""
        if st.over or st.pending is None:
            return []
        try:
            return st.pending.moves(st)
        except E.RULE_FAILURES as exc:
            raise E.failure(exc, st, self.where(exc) or st.pending.pos) from None

    def where(self, exc: BaseException, pc: int | None = None):
        """The rule an error came from: the innermost generated line on its traceback that belongs
        to a rule, else the rule of op pc."""
        found, tb = None, exc.__traceback__
        while tb is not None:
            lines = self.line_pos.get(tb.tb_frame.f_code.co_filename)
            if lines is not None and lines.get(tb.tb_lineno) is not None:
                found = lines[tb.tb_lineno]
            tb = tb.tb_next
        if found is None and pc is not None:
            found = E.rule_at(self.op_pos, pc)
        return found

    def apply(self, st: E.State, move) -> None:
        """Apply a move known to be legal (bots, replays of own moves): no check."""
        dec = st.pending
        if st.log is not None:
            st.log.append((E.DECIDE, st.decider, dec.index, move))
        slot = dec.value_slot
        if slot is None:
            dec.bind(st, move)
        else:               # a value: what its bind does
            st.vars[slot] = move[0]
        st.pending = None
        st.moves += 1
        E.run(st, self.code, self.where, self.limits.steps, self.loops)

    def play_out(self, st: E.State, choosers: list, moves: list | None = None, watch=None,
                 draws: list | None = None, sizes: list | None = None) -> None:
        """Play st to its end, each seat's move being choosers[seat](its legal moves) — bots that read
        the legal moves alone, asked only when there is more than one — as legal_moves and apply
        would, with fewer calls a move; (seat, move text) of every move is appended to `moves` when
        it is a list, and watch(st, legal moves) is called at every decision before its move is chosen.
        `draws`, per seat the getrandbits of a bot that draws uniformly (RandomBot.bits), stands
        for the choosers: the very draws RandomBot.choose_from makes, without a call. (seat, number
        of legal moves) of every decision is appended to `sizes` when it is a list."""
        code, where, steps, loops, failures = self.code, self.where, self.limits.steps, self.loops, E.RULE_FAILURES
        decide = E.DECIDE
        while not st.over:
            dec, seat = st.pending, st.decider
            try:
                legal = dec.moves(st)
            except failures as exc:
                raise E.failure(exc, st, where(exc) or dec.pos) from None
            if not legal:
                raise self.stuck(st)
            if watch is not None:
                watch(st, legal)
            n = len(legal)
            if sizes is not None:
                sizes.append((seat, n))
            if n == 1:
                move = legal[0]
            elif draws is not None:     # RandomBot.choose_from's draw: the generator's _randbelow(n)
                bits = draws[seat]
                k = n.bit_length()
                r = bits(k)
                while r >= n:
                    r = bits(k)
                move = legal[r]
            else:
                move = choosers[seat](legal)
            if moves is not None:
                moves.append((seat, dec.text(move)))
            # apply() inline, on purpose: a call less a move
            if st.log is not None:
                st.log.append((decide, seat, dec.index, move))
            slot = dec.value_slot
            if slot is None:
                dec.bind(st, move)
            else:               # a value: what its bind does
                st.vars[slot] = move[0]
            st.pending = None
            st.moves += 1
            pc = st.pc          # E.run inline: the same loop, the same two ends
            try:
                for _ in range(steps):
                    if pc < 0:
                        break
                    pc = code[pc](st)
                else:
                    E.ran_long(st, code, pc, steps, loops, where)
            except (RuleRuntimeError, *failures) as exc:
                raise E.run_failed(exc, st, pc, where) from None

    def play(self, st: E.State, move) -> None:
        """Apply a move after checking it; an illegal move changes nothing."""
        if st.over:
            raise IllegalMove("the game is over")
        legal = self.legal_moves(st)
        if not legal:
            raise self.stuck(st)
        if move not in legal:
            try:
                shown = self.move_text(st, move)
            except (TypeError, ValueError, IndexError, KeyError):
                shown = show(move)
            raise IllegalMove(f"'{shown}' is not legal now; legal moves: "
                              + "; ".join(self.move_text(st, m) for m in legal[:8])
                              + (" …" if len(legal) > 8 else ""))
        self.apply(st, move)

    def stuck(self, st: E.State) -> RuleRuntimeError:
        """The error for a decision without a legal move: the game cannot go on."""
        dec = st.pending
        return RuleRuntimeError(dec.pos, f"decision '{dec.name}' has no legal option for seat {st.decider} in "
                                f"turn {st.turn}: guard it with an if, or give it a way out")

    def move_text(self, st: E.State, move) -> str:
        return st.pending.text(move) if st.pending is not None else str(move)

    def parse_move(self, st: E.State, text: str):
        """The legal move whose canonical text matches (spaces and × are forgiven)."""
        want = normalise(text)
        legal = self.legal_moves(st)
        for m in legal:
            if normalise(st.pending.text(m)) == want:
                return m
        if st.over:
            raise IllegalMove("the game is over")
        if not legal:
            raise self.stuck(st)
        shown = "; ".join(st.pending.text(m) for m in legal[:6]) + (" …" if len(legal) > 6 else "")
        raise IllegalMove(f"'{text}' is not a legal move for seat {st.decider} now; legal: {shown}")

    # ---- scoring ----
    def score(self, st: E.State, seat: int) -> int:
        """The ruleset's score for one seat, as the game stands (a cooperative game: the table's, as seat 0 sees it)."""
        seat = 0 if self.cooperative_fn is not None else seat
        return self.as_seat(st, seat, self.score_fn, self.rules.score.pos)

    def evaluate(self, st: E.State, seat: int):
        """The ruleset's bot evaluation for a seat, higher being better: bots.eval, else its score
        (negated when the lowest score wins); in a cooperative game the table's, as the first seat sees it."""
        seat = 0 if self.cooperative_fn is not None else seat
        if self.eval_fn is None:
            return self.as_seat(st, seat, self.standing_fn, self.rules.score.pos)
        return self.as_seat(st, seat, self.eval_fn, self.rules.bot_eval.pos)

    def standing_fn(self, st: E.State, c):
        """The score as a standing: the larger leads (the score itself, or its negation when the lowest wins)."""
        return -self.score_fn(st, c) if self.rules.lowest_wins else self.score_fn(st, c)

    def evaluations(self, st: E.State) -> list:
        """Every seat's bot evaluation, in seat order, in one call (what a bot's margin reads)."""
        if self.eval_fn is None:
            fn, pos = (self.standing_fn if self.rules.lowest_wins else self.score_fn), self.rules.score.pos
        else:
            fn, pos = self.eval_fn, self.rules.bot_eval.pos
        if self.cooperative_fn is not None:      # one shared score: every seat rates the table's
            return [self.as_seat(st, 0, fn, pos)] * self.players
        if self.evals_fn is not None:           # every seat's in one generated call
            try:
                return self.evals_fn(st)
            except E.RULE_FAILURES as exc:
                raise E.failure(exc, st, self.where(exc) or pos) from None
        keep = st.me
        out = []
        try:
            for seat in range(self.players):
                st.me = seat
                out.append(fn(st, None))
        except E.RULE_FAILURES as exc:
            raise E.failure(exc, st, self.where(exc) or pos) from None
        finally:
            st.me = keep
        return out

    def ranking_key(self, st: E.State, seat: int) -> tuple:
        """The score (negated when the lowest wins), then every tie-break, signed so that the larger
        key ranks higher."""
        return self.as_seat(st, seat, self.ranking_fn, self.rules.score.pos)

    def ranking_fn(self, st: E.State, c) -> tuple:
        return (self.standing_fn(st, c),) + tuple(sign * f(st, c) for sign, f in self.tiebreak_fns)

    def as_seat(self, st: E.State, seat: int, fn, pos):
        """fn(st) worked out as `seat` sees it (`me` is that seat); an error names the rule, else pos."""
        keep = st.me
        st.me = seat
        try:
            return fn(st, None)
        except E.RULE_FAILURES as exc:
            raise E.failure(exc, st, self.where(exc) or pos) from None
        finally:
            st.me = keep

    def result(self, st: E.State) -> dict:
        """Scores and winners: best score, then the tie-break chain; still tied, all win. A cooperative
        game: the shared score for every seat, and every seat or none wins by cooperative.win."""
        if self.cooperative_fn is not None:
            shared = self.score(st, 0)
            won = self.as_seat(st, 0, self.cooperative_fn, self.rules.cooperative.pos)
            return {"scores": [shared] * self.players, "winners": list(range(self.players)) if won else [],
                    "turns": st.turn, "moves": st.moves}
        keys = [self.ranking_key(st, p) for p in range(self.players)]
        best = max(keys)
        sign = -1 if self.rules.lowest_wins else 1
        return {"scores": [sign * k[0] for k in keys], "winners": [p for p, k in enumerate(keys) if k == best],
                "turns": st.turn, "moves": st.moves}

    def function(self, expr):
        """f(st, c) for a checked expression of these rules that the game itself never runs (what
        `play` shows: parts of the score, display values), compiled once when first asked for."""
        fn = self._functions.get(id(expr))
        if fn is None:
            fn = self._functions[id(expr)] = self._lam(expr)
        return fn

    # ---- the designer's statistics ----
    def stat_values(self, st: E.State) -> dict:
        """Every stat of the ruleset as the game stands: {name: [value per seat]} for a stat worked
        out per seat, {name: value} for one worked out once per game."""
        out = {}
        for stat, fn in self.stats:
            if stat.per_seat:
                out[stat.name] = [self.stat_value(st, stat, fn, seat) for seat in range(self.players)]
            else:
                out[stat.name] = self.stat_value(st, stat, fn, st.me)
        return out

    def stat_value(self, st: E.State, stat, fn, seat: int):
        """One stat for one seat; a value that is neither a number nor true/false is an error at the stat."""
        got = self.as_seat(st, seat, fn, stat.expr.pos)
        if type(got) in (int, bool):
            return got
        if got is None:     # e.g. an attribute of the first card of an empty zone
            raise RuleRuntimeError(stat.expr.pos, f"stat '{stat.name}' has no value at the end of turn {st.turn}: "
                                   "it reads a card of an empty zone, or a name not given a value; test "
                                   "count(...) > 0 first, e.g. if count(pile) > 0 then ... else 0")
        # a card attribute of mixed kinds, or a name of any type, shows its kind only now
        raise RuleRuntimeError(stat.expr.pos, f"stat '{stat.name}' must be a number or true/false, but at the "
                               f"end of turn {st.turn} it is {show(got, True)}: count or compare it, e.g. "
                               "count(...) or ... == 'x'")
