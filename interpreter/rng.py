"""A tiny seeded generator whose whole state is one integer (cheap to clone and save).

SplitMix64: the same numbers on every Python version and platform.
"""
from __future__ import annotations

MASK = (1 << 64) - 1


def step(state: int) -> tuple[int, float]:
    """Advance the state; return (new state, a float in [0, 1))."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, ((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0)


def seed_state(seed: int) -> int:
    """The generator state for a user's seed."""
    return (int(seed) * 0x2545F4914F6CDD1D + 0x1234567) & MASK


def shuffle(items: list, state: int) -> int:
    """Fisher–Yates in place; returns the new generator state (step() inlined for speed)."""
    for i in range(len(items) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        j = int((((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0)) * (i + 1))
        items[i], items[j] = items[j], items[i]
    return state


def derive(seed: int, index: int) -> int:
    """A well-mixed seed for game number `index` of a run seeded with `seed`."""
    _, r = step(seed_state(seed) ^ (index * 0xD1B54A32D192ED03 & MASK))
    return int(r * (1 << 53))
