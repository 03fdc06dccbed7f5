"""A PettingZoo environment for any ruleset: `from interpreter.pettingzoo import env`.

PettingZoo is an optional extra (`pip install -e '.[rl]'`); `import interpreter` never needs it,
and importing this module without it raises an ImportError that says how to install it.
The layout of observations and actions, and the payoffs, are described in docs/rl.md.
"""
from __future__ import annotations

import importlib

from .tools.rl_table import Table


def _adapter():
    """The module with the AEC environment class (cardrules_pettingzoo, beside this package)."""
    try:
        importlib.import_module("pettingzoo")
    except ImportError as exc:
        raise ImportError("interpreter.pettingzoo needs PettingZoo, an optional extra: "
                          "pip install -e '.[rl]' (or pip install 'pettingzoo>=1.24')") from exc
    return importlib.import_module("cardrules_pettingzoo")


_AEC = _adapter()


def env(ruleset_path: str, players: int, seed: int | None = None, *, payoff: str = "win",
        max_moves: int | None = None, **overrides):
    """A PettingZoo AEC environment playing `ruleset_path` with `players` seats.

    `overrides` set parameters as `--set NAME=VALUE` does (same checks, same errors; a name with a
    dot, such as a by_players row, as **{"name.3": value}). `seed` seeds the run (game g deals from
    rng.derive(seed, g), as `simulate --seed`; None is 0). `payoff` is "win" (each seat's win share
    at the end) or "margin" (its score minus the best other score). `max_moves` lowers the engine's
    limit on one decision's legal moves (`--max-moves`), and so the size of the action space."""
    return _AEC.CardrulesEnv(Table(ruleset_path, players, overrides, payoff, max_moves), seed)
