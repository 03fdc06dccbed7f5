"""Every seat's evaluation in one generated call (compiler/codegen.py seats_function, Program.evaluations).

A look-ahead asks for every seat's evaluation of each copy it plays on; the compiler writes the
evaluation out once per seat, the seat a constant, in one function. One test per promise: it gives
what evaluating seat by seat gives, in every shipped ruleset and at every player count; the lowest
score winning is still aimed low; a cooperative table keeps its one shared value; a failing
evaluation still names its rule; and code that hands the state to a call is left seat by seat.
"""
import glob
import random

import pytest

from interpreter.compiler import codegen
from interpreter.compiler.game import load_game
from interpreter.errors import RuleRuntimeError
from interpreter.seats.worlds import determinise
from language_helpers import edit, make, write  # noqa: F401

RULESETS = sorted(glob.glob("rulesets/*.yaml") + glob.glob("rulesets/examples/*.yaml")
                  + glob.glob("tests/games/*.yaml"))


def positions(program, seed: int, n: int = 80):
    """States of a random game and a determinised copy of each for its decider (what bots evaluate)."""
    gen, st = random.Random(seed), program.new_state(seed)
    out = []
    while not st.over and len(out) < n:
        out.append(st.clone())
        out.append(determinise(program, st, st.decider, gen))
        moves = program.legal_moves(st)
        program.apply(st, moves[gen.randrange(len(moves))])
    return out + [st]


@pytest.mark.parametrize("path", RULESETS)
def test_every_seats_evaluation_at_once_is_each_seats_evaluation(path):
    game = load_game(path)
    for players in range(game.rules.min_players, game.rules.max_players + 1):
        program = game.program(players)
        if program.cooperative_fn is None:
            assert program.evals_fn is not None, f"{path}: every shipped evaluation is written out per seat"
        for st in positions(program, players):
            me = st.me
            assert program.evaluations(st) == [program.evaluate(st, s) for s in range(players)], path
            assert st.me == me          # asking changes nothing of the state


PENALTIES = """
    name: penalties
    players: {min: 3, max: 3}
    cards:
      c:
        for: {value: [1, 2, 3, 4, 6]}
        name: "v{value}"
        start: deck
    zones:
      deck: {visible: everyone}
      taken: {owner: each, visible: everyone}
    vars:
      done: {initial: 0}
      bonus: {owner: each, initial: 0}
    setup:
      - move deck where value == 2 or value == 3 to taken(0)
      - move deck where value == 1 or value == 4 to taken(1)
      - move deck where value == 6 to taken(2)
      - set bonus(1) = 7
    turn:
      steps:
        - step: main
          do: ["set done = 1"]
    end:
      when: done == 1
    score: sum(taken.value)
    wins: lowest
"""


def test_with_the_lowest_score_winning_each_seat_evaluates_its_score_negated(make):
    p = make(PENALTIES, 3)
    assert p.evaluations(p.new_state(1)) == [-5, -5, -6]


def test_an_evaluation_reading_me_in_a_function_of_the_rules_reads_each_seat(make):
    text = edit(PENALTIES, "    wins: lowest\n", "    wins: lowest\n    functions:\n      mine: bonus(me) * 10\n"
                "    bots:\n      eval: mine - count(taken(me)) + (if me == 2 then 100 else 0)\n")
    p = make(text, 3)
    assert p.evals_fn is not None
    assert p.evaluations(p.new_state(1)) == [-2, 68, 99]


def test_a_failing_evaluation_still_names_its_rule(make):
    text = edit(PENALTIES, "    wins: lowest\n", "    wins: lowest\n    bots:\n      eval: 10 / count(taken(me))\n")
    p = make(text, 3)
    st = p.new_state(1)
    st.zones[p.zone_names.index("taken(2)")] = []      # seat 2 holds nothing: a division by zero
    with pytest.raises(RuleRuntimeError) as err:
        p.evaluations(st)
    line = 1 + text.splitlines().index("      eval: 10 / count(taken(me))")
    assert (err.value.pos.line, err.value.pos.col) == (line, 9) and "division by zero" in str(err.value)


@pytest.mark.parametrize("code, passed", [("sum(map(K3.__getitem__, Z[4 + st.me]))", False),
                                          ("st.current + st.turn", False),
                                          ("K7.reveal(st)", True), ("K2(st, c)", True), ("f(x, st)", True)])
def test_code_that_hands_the_state_to_a_call_is_not_written_out_per_seat(code, passed):
    assert bool(codegen._STATE_PASSED.search(code)) is passed
