"""Every seat's evaluation in one generated call (compiler/codegen.py seats_function, Program.evaluations).

A look-ahead asks for every seat's evaluation of each copy it plays on; the compiler writes the
evaluation out once per seat, the seat a constant, in one function. One test per promise: it gives
what evaluating seat by seat gives, in every shipped ruleset and at every player count; the lowest
score winning is still aimed low; a cooperative table keeps its one shared value; a failing
evaluation still names its rule; and code that hands the state to a call is left seat by seat.
"""
import glob

import pytest

from interpreter.compiler import codegen
from interpreter.compiler.game import load_game
from interpreter.errors import RuleRuntimeError
from language_helpers import edit, make, write  # noqa: F401
from test_bots_eval_cache import states
from test_lowest_score_wins import PENALTIES as LOWEST

RULESETS = sorted(glob.glob("rulesets/*.yaml") + glob.glob("rulesets/examples/*.yaml")
                  + glob.glob("tests/games/*.yaml"))


@pytest.mark.parametrize("path", RULESETS)
def test_every_seats_evaluation_at_once_is_each_seats_evaluation(path):
    game = load_game(path)
    for players in range(game.rules.min_players, game.rules.max_players + 1):
        program = game.program(players)
        if program.cooperative_fn is None:
            assert program.evals_fn is not None, f"{path}: every shipped evaluation is written out per seat"
        for st in states(program, players, 80):
            me = st.me
            assert program.evaluations(st) == [program.evaluate(st, s) for s in range(players)], path
            assert st.me == me          # asking changes nothing of the state


# the penalties game of test_lowest_score_wins (seat 0 takes 5 points, seat 1 5, seat 2 6), and
# a variable per seat that only seat 1's is set
PENALTIES = edit(edit(LOWEST, "      done: {initial: 0}\n",
                      "      done: {initial: 0}\n      bonus: {owner: each, initial: 0}\n"),
                 "      - move deck where value == 6 to taken(2)\n",
                 "      - move deck where value == 6 to taken(2)\n      - set bonus(1) = 7\n")


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
