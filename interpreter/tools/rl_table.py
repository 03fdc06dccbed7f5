"""One game at a time for a learning agent: what interpreter.pettingzoo's environment runs on.

A `Table` loads a ruleset (overrides mean what `--set NAME=VALUE` means, with the same errors),
deals a game from a seed, tells each seat its observation (rl_observe: from the seat's own view,
kept by an Observer fed the events) and, to the seat that decides, which of the action numbers
0 .. actions-1 are legal: action i is the i-th legal move in the engine's order (legal_moves).
When the game ends each seat has its payoff from the final result. It needs no third-party package.
"""
from __future__ import annotations

from dataclasses import replace

from .. import load_game
from ..errors import IllegalMove, RuleRuntimeError, UsageError
from ..runtime.engine import DEFAULT_LIMITS
from ..seats.views import Observer
from .rl_actions import action_count
from .rl_observe import Layout

PAYOFFS = ("win", "margin")


class Table:
    """A ruleset at a player count, and the game being played on it."""

    def __init__(self, ruleset_path: str, players: int, overrides: dict | None = None, payoff: str = "win",
                 max_moves: int | None = None):
        if payoff not in PAYOFFS:
            raise UsageError(f"payoff must be one of {', '.join(PAYOFFS)}, not {payoff!r}")
        if max_moves is not None and (type(max_moves) is not int or max_moves < 1):
            raise UsageError(f"max_moves must be a whole number of at least 1, not {max_moves!r}")
        if type(players) is not int:
            raise UsageError(f"players must be a whole number, not {players!r}")
        limits = replace(DEFAULT_LIMITS, moves=max_moves) if max_moves is not None else None
        self.game = load_game(ruleset_path, dict(overrides or {}), limits)
        self.program = self.game.program(players)
        self.players, self.payoff = players, payoff
        self.layout = Layout(self.program)
        self.actions = action_count(self.program)
        self.state = self.observers = self.seed = None

    def reset(self, seed: int) -> None:
        """A new game, dealt from the seed (the same seed deals the same game)."""
        self.seed = seed
        self.state = self.program.new_state(seed, log=True)
        self.observers = [Observer(self.program, seat) for seat in range(self.players)]
        self.fed = [0] * self.players

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def decider(self):
        """The seat that decides now (None when the game is over)."""
        return None if self.state.over else self.state.decider

    def view(self, seat: int):
        """What the seat knows now: its Observer fed the events it has not read yet."""
        log, observer = self.state.log, self.observers[seat]
        observer.observe_all(log[self.fed[seat]:])
        self.fed[seat] = len(log)
        return observer.view()

    def entries(self, seat: int):
        """(index, value) of the components of the seat's observation that may be other than 0."""
        return self.layout.entries(self.view(seat), self.asked(seat))

    def asked(self, seat: int):
        """The index of the decision the seat is asked now, or None."""
        st = self.state
        return st.pending.index if not st.over and st.decider == seat and st.pending is not None else None

    def legal(self) -> list:
        """The deciding seat's legal moves, in the engine's order; never more than `actions`."""
        moves = self.program.legal_moves(self.state)
        if not moves and not self.state.over:     # the game cannot go on: the engine's own error
            raise self.program.stuck(self.state)
        if len(moves) > self.actions:       # the bound is sound (rl_actions): this is a bug, said plainly
            raise RuleRuntimeError(self.state.pending.pos, f"decision '{self.state.pending.name}' offers "
                                   f"{len(moves)} legal moves, more than the {self.actions} actions this "
                                   "ruleset's action space was given: please report it")
        return moves

    def legal_count(self, seat: int) -> int:
        """How many legal actions the seat has (0 when it does not decide now): actions 0 to count-1."""
        return len(self.legal()) if seat == self.decider else 0

    def action_texts(self) -> list:
        """The canonical text of each legal action of the deciding seat, by action number."""
        return [self.program.move_text(self.state, m) for m in self.legal()]

    def step(self, action: int) -> None:
        """The deciding seat takes legal action number `action`; an illegal one changes nothing."""
        if self.state.over:
            raise IllegalMove("the game is over")
        moves = self.legal()
        if type(action) is not int or not 0 <= action < len(moves):
            raise IllegalMove(f"action {action!r} is not legal now: seat {self.state.decider} has "
                              f"{len(moves)} legal actions, 0 to {len(moves) - 1} (see the action mask)")
        self.program.apply(self.state, moves[action])

    def payoffs(self) -> list:
        """Each seat's payoff: 0 until the game ends; then with payoff "win" its win share (1/k for
        each of k winners, 0 for the others), with "margin" its score minus the best other score. A
        cooperative game: 1 or 0 for every seat as the table won or lost, or the shared score."""
        if not self.state.over:
            return [0.0] * self.players
        result = self.program.result(self.state)
        if self.program.cooperative_fn is not None:
            shared = float(result["scores"][0]) if self.payoff == "margin" else float(bool(result["winners"]))
            return [shared] * self.players
        if self.payoff == "margin":
            scores = result["scores"]
            return [float(s - max(scores[:p] + scores[p + 1:])) for p, s in enumerate(scores)]
        winners = result["winners"]
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(self.players)]
