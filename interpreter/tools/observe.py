"""One bot game watched as it is played: the per-game record of `simulate --results`.

Besides the result it keeps what the analysis needs and the final state cannot tell: decisions
per seat, how many legal moves each decision had, every seat's score at the end of each turn, the
designer's `stats:` at the end, and which rules ran (coverage, with an instrumented program).
"""
from __future__ import annotations

from collections import Counter
from functools import partial

from ..compiler.game import Game
from ..seats.bots import RandomBot


def observe_game(game: Game, players: int, seed: int, bots: list, track: bool = True,
                 coverage: bool = False, moves: list | None = None) -> dict:
    """Play one game (deal seed `seed`, one bot per seat) and return its per-game record; every
    move's (seat, canonical text) is appended to `moves` when a list is given."""
    program = game.program(players, coverage=True) if coverage else game.program(players)
    # bots that play from their seat's view read it from the events, so those are kept
    log = any(getattr(b, "uses_view", False) for b in bots)
    if coverage:
        program.count_coverage(True)
    st = program.new_state(seed, log=log)
    turns, last_turn, sizes = [], [st.turn], []

    def watch(st, legal):
        """A turn begun since the last decision: every seat's standing."""
        if st.turn != last_turn[0]:
            turns.append(standing(program, st))
            last_turn[0] = st.turn
    ask = [chooser(program, st, bot, coverage) for bot in bots]
    program.play_out(st, ask, moves, watch if track else None, RandomBot.draws(ask), sizes)
    decisions, choices = [0] * players, {}
    for (seat, n), times in Counter(sizes).items():     # decisions per seat, decisions per number of moves
        decisions[seat] += times
        choices[n] = choices.get(n, 0) + times
    result = program.result(st)
    found = {"seed": seed, "scores": result["scores"], "winners": result["winners"], "turns": st.turn,
             "moves": st.moves, "decisions": decisions,
             "choices": {str(n): choices[n] for n in sorted(choices)}}
    if track:
        found["track"] = turns + [standing(program, st)]
    found["stats"] = program.stat_values(st)
    if coverage:
        program.count_coverage(False)
        found["coverage"], found["moved"] = program.take_coverage()
    return found


def chooser(program, st, bot, coverage: bool = False):
    """The bot's move as Program.play_out asks for it, f(legal moves): choose_from for a bot that reads
    the legal moves alone, else its choose at st (with a coverage program, a look-ahead's copies
    not counted: only the real game counts)."""
    plain = getattr(bot, "choose_from", None)
    if plain is not None:
        return plain
    if not (coverage and bot.looks_ahead):
        return partial(bot.choose, program, st)

    def paused(legal):
        program.count_coverage(False)
        move = bot.choose(program, st, legal)
        program.count_coverage(True)
        return move
    return paused


def standing(program, st) -> list:
    """Every seat's evaluation (its score, or the ruleset's bots.eval) as the game stands."""
    return [program.evaluate(st, p) for p in range(program.players)]
