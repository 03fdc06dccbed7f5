"""Seeded randomness whose whole state is one integer in the game state.

Each shuffle is Fisher–Yates driven by `random.Random(state).random()` (Mersenne Twister,
whose seeding by an integer and whose `random()` are the same on every Python version);
the next state is drawn from the same generator. So a state is cheap to clone and save,
and the same seed gives the same game everywhere.
"""
from __future__ import annotations

import random
from math import floor

MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """The generator state for a user's seed."""
    return (int(seed) * 0x2545F4914F6CDD1D + 0x1234567) & MASK


def shuffle(items: list, state: int) -> int:
    """Fisher–Yates in place; returns the new generator state."""
    gen = random.Random(state)
    rand = gen.random
    for i in range(len(items) - 1, 0, -1):
        j = floor(rand() * (i + 1))     # int() of this draw (never negative), as a cheaper call
        items[i], items[j] = items[j], items[i]
    return gen.getrandbits(64)


def derive(seed: int, index: int) -> int:
    """A well-mixed seed for item `index` (a game of a run, a seat's bot) of a run seeded with `seed`."""
    z = (seed_state(seed) ^ (index * 0xD1B54A32D192ED03 & MASK)) + 0x9E3779B97F4A7C15 & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return (z ^ (z >> 31)) >> 11
