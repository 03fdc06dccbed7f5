"""The generated-code backend and the closure backend (the reference) play identical games."""
import pytest

from interpreter.seats.bots import make_bot
from interpreter.compiler.game import load_game
from interpreter.tools.records import play_game

GAME = load_game("rulesets/r_eco.yaml")


def same(a, b) -> bool:
    """Equal states across programs: decisions compared by their index in the rules."""
    if (a.pending is None) != (b.pending is None):
        return False
    if a.pending is not None and a.pending.index != b.pending.index:
        return False
    keep = b.pending
    b.pending = a.pending
    try:
        return a == b
    finally:
        b.pending = keep


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_both_backends_reach_the_same_state_after_every_move(players):
    fast, ref = GAME.program(players, "generated"), GAME.program(players, "closures")
    for seed in range(8):
        a, b = fast.new_state(seed), ref.new_state(seed)
        bots = [make_bot("random" if (seed + k) % 2 else "greedy", seed * 7 + k) for k in range(players)]
        while not a.over:
            assert same(a, b)
            moves = fast.legal_moves(a)
            assert moves == ref.legal_moves(b)
            move = bots[a.decider].choose(fast, a, moves)
            fast.apply(a, move)
            ref.apply(b, move)
        assert b.over and same(a, b)
        assert fast.result(a) == ref.result(b)


def test_state_equality_sees_a_difference():
    program = GAME.program(3)
    a = program.new_state(1)
    b = a.clone()
    assert a == b
    b.zones[1].append(b.zones[1].pop(0))
    assert a != b
