"""The PettingZoo AEC environment of a cardrules ruleset (made by `interpreter.pettingzoo.env`).

It lives beside the package, not inside `interpreter/`: PettingZoo's API names its per-agent payoff
dictionaries with a word that the interpreter's sources keep out (they never name a game concept,
and some games use that word). Everything about the game is in interpreter/tools/rl_table.py; this
module only speaks PettingZoo's protocol: agents seat_0 .. seat_{n-1}, observations
{"observation": float32 vector, "action_mask": int8 vector}, a Discrete action space, and each
seat's payoff from the final result when the game ends (0 before).
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from interpreter.errors import UsageError
from interpreter.runtime import rng


class CardrulesEnv(AECEnv):
    """A turn-based game of a ruleset: the seat that decides is the agent selected."""

    metadata = {"name": "cardrules", "render_modes": [], "is_parallelizable": False}

    def __init__(self, table, seed: int | None = None):
        super().__init__()
        self.table = table
        self.possible_agents = [f"seat_{k}" for k in range(table.players)]
        layout = table.layout
        box = spaces.Box(np.array(layout.low, dtype=np.float32), np.array(layout.high, dtype=np.float32),
                         dtype=np.float32)
        mask = spaces.Box(0, 1, (table.actions,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(table.actions) for a in self.possible_agents}
        self.run_seed, self.games = _seed(seed, 0), 0
        self.agents = []

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observation_names(self) -> list:
        """What each component of the observation vector is, in order (docs/rl.md)."""
        return list(self.table.layout.names)

    def action_texts(self) -> list:
        """The canonical move text of each legal action of the agent selected, by action number."""
        return self.table.action_texts()

    @property
    def game_seed(self) -> int:
        """The deal seed of the game being played (program.new_state(game_seed) deals it again)."""
        return self.table.seed

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """The next game of the run: game g of a run seeded S deals from rng.derive(S, g), as
        `simulate --seed S` does; a seed given here starts a new run."""
        if seed is not None:
            self.run_seed, self.games = _seed(seed, None), 0
        self.table.reset(rng.derive(self.run_seed, self.games))
        self.games += 1
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._settle()

    def observe(self, agent: str) -> dict:
        seat = self.possible_agents.index(agent)
        table = self.table
        vector = np.zeros(len(table.layout), dtype=np.float32)
        where, values = zip(*table.entries(seat))
        vector[list(where)] = values
        mask = np.zeros(table.actions, dtype=np.int8)
        mask[:table.legal_count(seat)] = 1
        return {"observation": vector, "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} decides now: give an action number (see the action mask), not None")
        self._cumulative_rewards[agent] = 0.0
        self.table.step(int(action) if isinstance(action, (int, np.integer)) else action)
        self._settle()

    def _settle(self) -> None:
        """After a deal or a move: the payoffs when the game is over, else who decides next."""
        table = self.table
        payoffs = table.payoffs()
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = payoffs[seat]
        if table.over:
            for agent in self.agents:
                self.terminations[agent] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[table.decider]
        self._accumulate_rewards()

    def close(self) -> None:
        self.table.state = None


def _seed(seed, default):
    """A seed as a whole number (None: the default); anything else is a usage error."""
    if seed is None:
        return default
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise UsageError(f"a seed must be a whole number, not {seed!r}")
    return int(seed)
