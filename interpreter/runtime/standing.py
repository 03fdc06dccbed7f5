"""The driver of the standing rules (`whenever`): run after every move or deal statement."""
from __future__ import annotations

from ..errors import RuleRuntimeError


def standing(rules: list, limit: int):
    """check(st): the rules [(fires(st) -> bool, position)] in order; after one fires, from the first
    again, until none holds. Firing `limit` times in one check is an error at the rule's `when`."""
    def check(st) -> None:
        fired = k = 0
        while k < len(rules):
            fires, pos = rules[k]
            if not fires(st):
                k += 1
                continue
            fired += 1
            if fired >= limit:
                raise RuleRuntimeError(pos, f"this standing rule fired {limit:,} times in a row in turn {st.turn}: "
                                       "its do must make its when false (limit: --max-loops)")
            k = 0
    return check
