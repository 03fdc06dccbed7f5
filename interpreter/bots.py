"""Bots that decide from what their seat may know: legal moves and what the seat can see.

Greedy looks one step ahead on a *determinised* copy of the state: every card the seat
cannot see is pooled and dealt back at random (from the bot's own generator), so the
real hidden cards never influence its choice.
"""
from __future__ import annotations

import random

from . import rng


class Bot:
    """Base class: a named policy with its own seeded generator."""

    name = "bot"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, program, st, moves: list):
        raise NotImplementedError


class RandomBot(Bot):
    """Uniform over the legal moves."""

    name = "random"

    def choose(self, program, st, moves):
        return moves[self.rng.randrange(len(moves))] if len(moves) > 1 else moves[0]


class GreedyBot(Bot):
    """One-step look-ahead: the move that most raises (own evaluation − best opponent's)."""

    name = "greedy"

    def choose(self, program, st, moves):
        if len(moves) == 1:
            return moves[0]
        seat = st.decider
        base = determinise(program, st, seat, self.rng)
        best, best_value = [], None
        for move in moves:
            trial = base.clone()
            program.apply(trial, move)
            value = margin(program, trial, seat)
            if best_value is None or value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return best[self.rng.randrange(len(best))]


def margin(program, st, seat: int):
    """The seat's evaluation minus the best of the other seats'."""
    mine = program.evaluate(st, seat)
    others = [program.evaluate(st, p) for p in range(program.players) if p != seat]
    return mine - max(others) if others else mine


def determinise(program, st, seat: int, gen: random.Random):
    """A copy of st in which every card hidden from `seat` is redealt at random among the hidden places."""
    copy = st.clone()
    copy.log = copy.chance = copy.script = None
    copy.rng = rng.seed_state(gen.getrandbits(62))
    mask = 1 << seat
    hidden = [z for z, vis in enumerate(program.zone_vis) if not vis & mask and copy.zones[z]]
    pool = sorted(c for z in hidden for c in copy.zones[z])
    gen.shuffle(pool)
    i = 0
    for z in hidden:
        zone = copy.zones[z]
        zone[:] = pool[i:i + len(zone)]
        i += len(zone)
        for c in zone:
            copy.loc[c] = z
    return copy


BOTS = {cls.name: cls for cls in (RandomBot, GreedyBot)}


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name (see BOTS)."""
    return BOTS[name](seed)
