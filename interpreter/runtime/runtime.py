"""What a caller does with a compiled Program: start a game, list moves, apply them, score."""
from __future__ import annotations

from . import engine as E
from . import rng
from .decisions import normalise
from ..errors import IllegalMove, RuleRuntimeError


class Runtime:
    """State-level API of Program (see compiler.py)."""

    def new_state(self, seed: int = 0, log: bool = False, record: bool = False, script=None) -> E.State:
        """A new game: the setup run up to the first decision."""
        zones, loc, vars_, events = self.initial()
        st = E.State()
        st.zones = [z[:] for z in zones]
        st.loc = loc[:]
        st.vars = vars_[:]
        st.pc, st.stack, st.current, st.me, st.decider = 0, [], 0, 0, 0
        st.pending, st.turn, st.moves = None, 0, 0
        st.ending = st.extra = st.over = False
        st.rng = rng.seed_state(seed)
        st.log = events[:] if log else None
        st.chance = [] if record else None
        st.script = None if script is None else list(script)
        E.run(st, self.code, self.where, self.limits.steps, self.loops)
        return st

    def check_alike(self, st: E.State, cards: list, d: int, pos) -> None:
        """A zone declared `alike` takes one card type while it is empty: refuse a mixed move into it."""
        if st.zones[d] or not cards:
            return
        types = self.card_type
        first = types[cards[0]]
        other = next((types[c] for c in cards if types[c] != first), None)
        if other is not None:
            names = self.type_names
            raise RuleRuntimeError(pos, f"zone '{self.zone_decl[d].name}' is declared alike, but this move puts "
                                   f"{names[first]} and {names[other]} into the empty {self.zone_names[d]}: "
                                   "fill it with one type at a time, or drop 'alike'")

    def initial(self) -> tuple:
        """Cards in their start zones, variables set, and the setup's deterministic first statements
        done — the same for every game, so computed once: (zones, loc, vars, events)."""
        if self._initial is None:
            st = E.State()
            st.zones = [[] for _ in self.zone_names]
            st.loc = list(self.card_start)
            for c, z in enumerate(self.card_start):
                st.zones[z].append(c)
            st.vars = [None] * self.n_vars
            st.stack, st.turn, st.moves, st.pending = [], 0, 0, None
            st.ending = st.extra = st.over = False
            st.log, st.chance, st.script, st.rng = [], None, None, 0
            try:
                # who starts is known before the variables, so their initial values may use `current`
                st.current = st.me = self.expr(self.rules.first)(st, None) % self.players
            except TypeError:
                raise RuleRuntimeError(self.rules.first.pos, "turn.first cannot use a game variable: "
                                       "variables get their initial values after the first player is known")
            except E.RULE_FAILURES as exc:
                raise E.failure(exc, st, self.rules.first.pos) from None
            for decl in self.rules.vars:
                init, base = self.expr(decl.initial), self.var_base[decl.name]
                for k in range(self.players if decl.per_player else 1):
                    st.me = k
                    try:
                        st.vars[base + k] = init(st, None)
                    except E.RULE_FAILURES as exc:
                        raise E.failure(exc, st, decl.initial.pos) from None
            st.me = st.current
            try:
                self.block_fn(self.rules.setup[:self.prefix])(st)
            except E.RULE_FAILURES as exc:
                first = self.rules.setup[0].pos if self.rules.setup else None
                raise E.failure(exc, st, self.where(exc) or first) from None
            self._initial = (st.zones, st.loc, st.vars, st.log)
        return self._initial

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
        dec.bind(st, move)
        st.pending = None
        st.moves += 1
        E.run(st, self.code, self.where, self.limits.steps, self.loops)

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
                shown = repr(move)
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
        """The ruleset's score for one seat, as the game stands."""
        keep = st.me
        st.me = seat
        try:
            return self.score_fn(st, None)
        except E.RULE_FAILURES as exc:
            raise E.failure(exc, st, self.where(exc) or self.rules.score.pos) from None
        finally:
            st.me = keep

    def evaluate(self, st: E.State, seat: int):
        """The ruleset's bot evaluation for a seat (its score when none is given)."""
        if self.eval_fn is None:
            return self.score(st, seat)
        keep = st.me
        st.me = seat
        try:
            return self.eval_fn(st, None)
        except E.RULE_FAILURES as exc:
            raise E.failure(exc, st, self.where(exc) or self.rules.bot_eval.pos) from None
        finally:
            st.me = keep

    def ranking_key(self, st: E.State, seat: int) -> tuple:
        keep = st.me
        st.me = seat
        try:
            return (self.score_fn(st, None),) + tuple(sign * f(st, None) for sign, f in self.tiebreak_fns)
        except E.RULE_FAILURES as exc:
            raise E.failure(exc, st, self.where(exc) or self.rules.score.pos) from None
        finally:
            st.me = keep

    def result(self, st: E.State) -> dict:
        """Scores and winners: best score, then the tie-break chain; still tied, all win."""
        keys = [self.ranking_key(st, p) for p in range(self.players)]
        best = max(keys)
        return {"scores": [k[0] for k in keys], "winners": [p for p, k in enumerate(keys) if k == best],
                "turns": st.turn, "moves": st.moves}
