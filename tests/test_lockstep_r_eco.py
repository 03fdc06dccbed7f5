"""The compiled R-Eco and the independent reference (tests/reference/r_eco.py) reach the same
position after every move of games between greedy and random bots, and state equality sees a
difference."""
import json

import pytest

from interpreter.seats import make_bot
from interpreter.tools.records import make_record
from helpers import game
from test_crosscheck_r_eco import lockstep


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_program_and_reference_reach_the_same_position_after_every_move(players):
    for seed in range(8):
        names = ["random" if (seed + k) % 2 else "greedy" for k in range(players)]
        bots = [make_bot(name, seed * 7 + k) for k, name in enumerate(names)]
        rec = json.loads(json.dumps(make_record(game(), players, seed, bots, names)))
        result = lockstep(rec)          # legal moves and positions compared at every move
        assert result["scores"] == rec["result"]["scores"] and result["winners"] == rec["result"]["winners"]


def test_state_equality_sees_a_difference():
    program = game().program(3)
    a = program.new_state(1)
    b = a.clone()
    assert a == b
    b.zones[1].append(b.zones[1].pop(0))
    assert a != b
