"""The bots' cache of evaluations (seats/eval_cache.py, compiler/reads.py state_reads).

A look-ahead asks for every seat's evaluation of thousands of copies that mostly differ in cards
the evaluation does not read; the cache keys on what it may read. One test per promise: the key
holds everything the evaluation reads (equal keys, equal evaluations, in every shipped ruleset),
what the analysis cannot follow gets no cache, and a bot plays the same games with or without it.
"""
import glob
import random

import pytest

from interpreter.compiler.game import load_game
from interpreter.seats import eval_cache
from interpreter.seats.worlds import determinise, evaluations
from interpreter.tools.records import play_game
from interpreter.seats.registry import make_bot

RULESETS = sorted(glob.glob("rulesets/*.yaml") + glob.glob("rulesets/examples/*.yaml"))


def states(program, seed: int, n: int = 60):
    """States of a random game and, at each, a determinised copy for seat 0 (what a bot evaluates)."""
    gen, st = random.Random(seed), program.new_state(seed)
    out = []
    while not st.over and len(out) < n:
        out.append(st.clone())
        out.append(determinise(program, st, st.decider, gen))
        moves = program.legal_moves(st)
        program.apply(st, moves[gen.randrange(len(moves))])
    return out + [st]


@pytest.mark.parametrize("path", RULESETS)
def test_states_equal_in_what_the_evaluation_reads_have_equal_evaluations(path):
    game = load_game(path)
    for players in sorted({game.rules.min_players, game.rules.max_players}):
        program = game.program(players)
        reads = program.eval_reads
        assert reads is not None, f"{path}: the analysis should follow every shipped evaluation"
        key = eval_cache.key_of(*reads)
        seen: dict = {}
        for st in states(program, 1, 400) + states(program, 2, 400):
            seen.setdefault(key(st), []).append(program.evaluations(st))
        assert any(len(group) > 1 for group in seen.values()), "no two states shared a key: nothing tested"
        for group in seen.values():
            assert all(values == group[0] for values in group), path


def test_an_evaluation_that_names_a_zone_through_a_local_gets_no_cache():
    game = load_game("rulesets/r_eco.yaml")
    program = game.program(2)
    from interpreter.compiler.reads import state_reads
    from interpreter.frontend import ir
    zone = ir.Local(pos=None, type="zone", slot=0, name="z")
    assert state_reads(program, ir.Func(pos=None, type="int", name="count", args=(zone,))) is None


def test_the_cached_evaluation_is_the_rulesets_evaluation():
    program = load_game("rulesets/sorting_memo.yaml").program(2)
    for st in states(program, 3):
        copy = st.clone()
        assert evaluations(program, copy) == program.evaluations(st)


@pytest.mark.parametrize("path,bots", [("rulesets/sorting_memo.yaml", ["memory", "random"]),
                                       ("rulesets/r_eco.yaml", ["automa", "greedy"])])
def test_a_bot_plays_the_same_game_with_or_without_the_cache(path, bots, monkeypatch):
    game = load_game(path)
    program = game.program(2)

    def record():
        _, st, moves = play_game(game, 2, 5, [make_bot(n, 7 + k) for k, n in enumerate(bots)], record=True)
        return moves, program.result(st)

    monkeypatch.setattr(eval_cache, "HITS", 0.0)      # kept whatever it answers
    program.eval_cache = None                         # a new cache
    with_cache = record()
    cache = program.eval_cache
    assert cache and cache.asked > cache.worked, "the cache answered nothing: nothing compared"
    program.eval_cache = False
    assert record() == with_cache
