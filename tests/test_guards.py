"""Run-time guards (engine.Limits): a ruleset that loops forever, asks a decision with no legal
option, or would list an astronomic number of moves stops with an error naming the rule
(file:line:col) and the turn — quickly and in bounded memory — and the limits are configurable
(Game/load_game, and the CLI's --max-steps, --max-loops, --max-turns, --max-moves)."""
from __future__ import annotations

import re
import time

import pytest

from interpreter.tools.cli import main
from interpreter.runtime.engine import DEFAULT_LIMITS, Limits
from interpreter.errors import RuleRuntimeError
from interpreter.compiler.game import load_game
from interpreter.tools.records import play_game
from interpreter.seats import make_bot

from language_helpers import write  # noqa: F401  (fixtures)


def line_of(path: str, fragment: str) -> int:
    """The 1-based line of the file holding fragment."""
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if fragment in line:
                return n
    raise AssertionError(f"{fragment!r} not in {path}")


def stops(fn, seconds: float = 10):
    """The RuleRuntimeError fn raises, within `seconds`."""
    t = time.perf_counter()
    with pytest.raises(RuleRuntimeError) as info:
        fn()
    assert time.perf_counter() - t < seconds, "the guard took too long"
    return info.value


def at(exc: RuleRuntimeError, path: str, fragment: str) -> None:
    """The error names the rule: its file and the line holding fragment."""
    assert exc.pos is not None, str(exc)
    assert exc.pos.file == path and exc.pos.line == line_of(path, fragment), str(exc)
    assert str(exc).startswith(f"{path}:{exc.pos.line}:{exc.pos.col}: ")


def play_random(program, seed: int = 0, moves: int = 10_000):
    bot = make_bot("random", seed)
    st = program.new_state(seed)
    for _ in range(moves):
        if st.over:
            return st
        legal = program.legal_moves(st)
        if not legal:
            raise program.stuck(st)
        program.apply(st, bot.choose(program, st, legal))
    return st


# ---------------------------------------------------------------- endless loops

ENDLESS_WHILE = """
name: forever
players: {min: 2, max: 2}
turn:
  steps:
    - step: main
      do:
        - let k = 0
        - while: "true"
          do: ["let k = k + 1"]
end: {when: "turn >= 1"}
score: 0
"""

ENDLESS_WITH_DECISION = """
name: forever2
players: {min: 2, max: 2}
turn:
  steps:
    - step: main
      do:
        - while: "true"
          do:
            - if: "false"
              then:
                - choose: never
                  from: [1]
end: {when: "turn >= 1"}
score: 0
"""

NEVER_ENDS = """
name: endless
players: {min: 2, max: 2}
turn:
  steps: ["let k = turn"]
end: {when: "false"}
score: 0
"""


def test_a_loop_without_decisions_names_the_loop_and_the_turn(write):
    path = write(ENDLESS_WHILE)
    program = load_game(path).program(2)
    exc = stops(lambda: program.new_state(0))
    at(exc, path, "while:")
    assert "in turn 1" in str(exc) and "never ends" in str(exc) and "--max-loops" in str(exc)


def test_a_loop_around_an_unasked_decision_names_the_loop(write):
    path = write(ENDLESS_WITH_DECISION)
    program = load_game(path, limits=Limits(steps=5_000)).program(2)
    exc = stops(lambda: program.new_state(0), 5)
    at(exc, path, "while:")
    assert "5,000 steps in turn 1" in str(exc) and "--max-steps" in str(exc)


# the same loop, entered after a move: the game is played out (play_out), not stopped in its setup
ENDLESS_AFTER_A_MOVE = ENDLESS_WITH_DECISION.replace('''        - while: "true"
''', '''        - choose: go
          from: [1, 2]
        - while: "go > 0"
''')


def test_a_loop_a_move_starts_names_the_loop_in_a_played_out_game(write):
    path = write(ENDLESS_AFTER_A_MOVE)
    game = load_game(path, limits=Limits(steps=5_000))
    exc = stops(lambda: play_game(game, 2, 0, [make_bot("random", 1), make_bot("random", 2)]), 5)
    at(exc, path, "while:")
    assert "5,000 steps in turn 1" in str(exc) and "--max-steps" in str(exc)


def test_a_rule_failing_after_a_move_is_named_in_a_played_out_game(write):
    loop = ENDLESS_AFTER_A_MOVE.index("        - while:")
    path = write(ENDLESS_AFTER_A_MOVE[:loop] + "        - let xs = later + [go]\n        - let later = [go]\n"
                 + ENDLESS_AFTER_A_MOVE[ENDLESS_AFTER_A_MOVE.index("end:"):])
    game = load_game(path)
    exc = stops(lambda: play_game(game, 2, 0, [make_bot("random", 1), make_bot("greedy", 2)]))
    at(exc, path, "let xs = later")
    assert "in turn 1" in str(exc) and "used before it was given a value" in str(exc)


def test_the_default_step_limit_stops_within_seconds(write):
    path = write(ENDLESS_WITH_DECISION)
    program = load_game(path).program(2)
    exc = stops(lambda: program.new_state(0), 30)
    assert f"{DEFAULT_LIMITS.steps:,} steps" in str(exc)


def test_an_end_that_never_comes_names_the_end_condition(write):
    path = write(NEVER_ENDS)
    program = load_game(path, limits=Limits(turns=50)).program(2)
    exc = stops(lambda: program.new_state(0))
    at(exc, path, "end:")
    assert "50 turns" in str(exc) and "--max-turns" in str(exc)


def test_loop_limit_is_configurable(write):
    path = write(ENDLESS_WHILE)
    exc = stops(lambda: load_game(path, limits=Limits(loops=10)).program(2).new_state(0), 2)
    assert "ran 10 times in turn 1" in str(exc)


# ---------------------------------------------------------------- a decision with no legal option

NO_OPTION = """
name: stuck
players: {min: 2, max: 2}
cards:
  card: {for: {v: [1, 2, 3]}, name: "c{v}", count: 1, start: draw}
zones:
  draw: {visible: nobody}
  hand: {owner: each, visible: owner}
setup: ["deal 1 from draw to hand"]
turn:
  steps:
    - step: play
      do:
        - choose: two
          cards: hand
          count: 2
end: {when: "turn > 3"}
score: count(hand)
"""


def test_a_decision_with_no_legal_option_names_the_choice_seat_and_turn(write):
    path = write(NO_OPTION)
    game = load_game(path)
    program = game.program(2)
    st = program.new_state(0)
    assert program.legal_moves(st) == []
    for attempt in (lambda: program.play(st, ()), lambda: program.parse_move(st, "two: nothing"),
                    lambda: play_game(game, 2, 0, [make_bot("random")] * 2)):
        exc = stops(attempt)
        at(exc, path, "choose: two")
        assert "decision 'two' has no legal option for seat 0 in turn 1" in str(exc)


def test_the_cli_reports_a_stuck_decision_with_its_position(write, capsys):
    path = write(NO_OPTION)
    assert main(["simulate", path, "-n", "2", "-g", "1"]) == 1
    err = capsys.readouterr().err
    assert re.search(re.escape(path) + r":\d+:\d+: decision 'two' has no legal option", err)


# ---------------------------------------------------------------- choices too big to list

BIG_CHOICE = """
name: big
players: {min: 2, max: 2}
params:
  take: 10
cards:
  card: {for: {v: "numbers(60)"}, name: "c{v}", count: 1, start: hand0}
zones:
  hand0: {visible: everyone}
  won: {visible: everyone}
turn:
  steps:
    - step: pick
      do:
        - choose: picked
          cards: hand0
          count: take
        - move picked to won
end: {when: "turn >= 1"}
score: count(won)
"""


def test_choosing_10_of_60_cards_stops_instead_of_listing_75_billion_moves(write):
    path = write(BIG_CHOICE)
    program = load_game(path).program(2)
    st = program.new_state(0)
    exc = stops(lambda: program.legal_moves(st), 10)
    at(exc, path, "choose: picked")
    assert "decision 'picked' would have more than 10,000 legal moves for seat 0 in turn 1" in str(exc)
    assert "choosing 10 of 60 cards" in str(exc) and "--max-moves" in str(exc)


def test_a_big_choice_with_same_is_bounded_too(write):
    path = write(BIG_CHOICE.replace("count: take", "min: 1\n          same: kind"))
    program = load_game(path).program(2)
    exc = stops(lambda: program.legal_moves(program.new_state(0)))
    assert "more than 10,000 legal moves" in str(exc)


def test_a_choice_under_the_limit_is_listed_and_the_limit_is_configurable(write):
    path = write(BIG_CHOICE.replace("take: 10", "take: 2"))
    st_moves = load_game(path).program(2)
    assert len(st_moves.legal_moves(st_moves.new_state(0))) == 60 * 59 // 2
    small = load_game(path, limits=Limits(moves=1000)).program(2)
    exc = stops(lambda: small.legal_moves(small.new_state(0)))
    assert "more than 1,000 legal moves" in str(exc)


def test_a_value_choice_from_a_huge_list_is_bounded(write):
    path = write("""
    name: values
    players: {min: 2, max: 2}
    vars:
      n: {initial: 100000}
    turn:
      steps:
        - choose: x
          from: numbers(n)
    end: {when: "turn >= 1"}
    score: 0
    """)
    program = load_game(path).program(2)
    st = program.new_state(0)
    exc = stops(lambda: program.legal_moves(st))
    at(exc, path, "choose: x")
    assert "100,000 legal moves" in str(exc)


def test_the_cli_options_set_the_limits(write, capsys):
    path = write(BIG_CHOICE.replace("take: 10", "take: 2"))
    assert main(["simulate", path, "-n", "2", "-g", "1"]) == 0
    capsys.readouterr()
    assert main(["simulate", path, "-n", "2", "-g", "1", "--max-moves", "100"]) == 1
    assert "more than 100 legal moves" in capsys.readouterr().err
    never = write(NEVER_ENDS, "never.yaml")
    for command in (["simulate", never, "-n", "2", "-g", "1"], ["record", never, "-n", "2"],
                    ["bench", never, "-n", "2", "-t", "0.1"]):
        assert main(command + ["--max-turns", "7"]) == 1
        err = capsys.readouterr().err
        assert f"{never}:{line_of(never, 'end:')}:" in err and "7 turns" in err
    loop = write(ENDLESS_WITH_DECISION, "loop.yaml")
    assert main(["simulate", loop, "-n", "2", "-g", "1", "--max-steps", "100"]) == 1
    assert f"{loop}:{line_of(loop, 'while:')}:" in capsys.readouterr().err
    assert main(["simulate", path, "-n", "2", "--max-steps", "0"]) == 2     # a usage error


def test_limits_must_be_positive_whole_numbers():
    for bad in (0, -1, 1.5, True, "3"):
        with pytest.raises(ValueError):
            Limits(steps=bad)


# ---------------------------------------------------------------- memory: values that would grow without bound

def test_numbers_of_a_huge_range_is_refused(write):
    path = write("""
    name: range
    players: {min: 2, max: 2}
    vars:
      n: {initial: 1000000000}
    turn:
      steps: ["let xs = numbers(n)"]
    end: {when: "turn >= 1"}
    score: 0
    """)
    exc = stops(lambda: load_game(path).program(2).new_state(0))
    at(exc, path, "numbers(n)")
    assert "1,000,000,000 values" in str(exc)


def test_a_list_doubled_in_a_loop_is_refused(write):
    path = write("""
    name: doubling
    players: {min: 2, max: 2}
    turn:
      steps:
        - step: main
          do:
            - let xs = [1]
            - while: "true"
              do: ["let xs = xs + xs"]
    end: {when: "turn >= 1"}
    score: 0
    """)
    exc = stops(lambda: load_game(path).program(2).new_state(0))
    at(exc, path, "xs + xs")
    assert "joining these lists" in str(exc)


def test_a_number_squared_in_a_loop_is_refused(write):
    path = write("""
    name: squaring
    players: {min: 2, max: 2}
    turn:
      steps:
        - step: main
          do:
            - let x = 3
            - while: "true"
              do: ["let x = x * x"]
    end: {when: "turn >= 1"}
    score: 0
    """)
    exc = stops(lambda: load_game(path).program(2).new_state(0))
    at(exc, path, "x * x")
    assert "too large" in str(exc)


# ---------------------------------------------------------------- triggers

def test_a_trigger_that_empties_its_own_zone_runs_once_and_stops(write):
    path = write("""
    name: trigger
    players: {min: 2, max: 2}
    cards:
      card: {for: {v: [1, 2]}, name: "c{v}", count: 1, start: draw}
    zones:
      draw: {visible: nobody, on_empty: ["move top of draw to hand"]}
      hand: {owner: each, visible: owner}
    turn:
      steps: ["move top 3 of draw to hand"]
    end: {when: "turn > 3"}
    score: count(hand)
    """)
    program = load_game(path).program(2)
    st = play_random(program)
    assert st.over and sorted(map(len, st.zones)) == [0, 0, 2]


def test_triggers_that_refill_each_other_do_not_call_each_other_forever(write):
    path = write("""
    name: triggers
    players: {min: 2, max: 2}
    cards:
      card: {for: {v: [1, 2]}, name: "c{v}", count: 1, start: a}
    zones:
      a: {visible: nobody, on_empty: ["move top of b to a"]}
      b: {visible: nobody, on_empty: ["move top of a to b"]}
      hand: {owner: each, visible: owner}
    turn:
      steps: ["move top of a to hand"]
    end: {when: "turn > 4"}
    score: count(hand)
    """)
    program = load_game(path).program(2)
    st = play_random(program)
    assert st.over and sum(map(len, st.zones)) == 2


# ---------------------------------------------------------------- a rule that fails names itself

def test_a_failing_rule_is_named_even_inside_merged_code(write):
    """Found by fuzzing: an error in a run of statements compiled into one function was reported
    without a position (or at the first statement of the run)."""
    path = write("""
    name: failing
    players: {min: 2, max: 2}
    turn:
      steps:
        - step: main
          do:
            - let a = 1
            - let b = a + 1
            - let xs = later + [b]
            - let later = [a]
    end: {when: "turn >= 1"}
    score: 0
    """)
    exc = stops(lambda: load_game(path).program(2).new_state(0))
    assert exc.pos is not None and exc.pos.file == path
    at(exc, path, "let xs = later")
    assert "in turn 1" in str(exc) and "used before it was given a value" in str(exc)


def test_a_failing_condition_of_a_choice_names_the_choice(write):
    path = write("""
    name: failing choice
    players: {min: 2, max: 2}
    params:
      values: [1, 2]
    turn:
      steps:
        - step: main
          do:
            - choose: x
              from: values
              where: x + first([]) > 0
    end: {when: "turn >= 1"}
    score: 0
    """)
    program = load_game(path).program(2)
    st = program.new_state(0)
    exc = stops(lambda: program.legal_moves(st))
    assert exc.pos is not None and exc.pos.file == path
    assert exc.pos.line in (line_of(path, "choose: x"), line_of(path, "where: x"))


SLOTS = """
name: slots
players: {min: 2, max: 2}
params:
  places: [1, 2]
cards:
  chip: {count: 6, start: deck}
zones:
  deck: {visible: nobody}
  slot: {per: places, visible: everyone}
  discard: {visible: everyone}
setup:
  - let k = 3
  - move top of deck to slot[k]
turn:
  steps: ["move top of deck to discard"]
end: {when: "count(deck) == 0"}
score: 0
"""


PLAYABLE_SLOTS = SLOTS.replace("  - let k = 3\n  - move top of deck to slot[k]\n", "  - shuffle deck\n")


def test_a_card_moved_to_a_zone_a_family_does_not_have_names_the_move(write):
    """Found by fuzzing: `move top of ... to family[k]`, taken and placed in place, failed
    without a position when k was not in the family."""
    path = write(SLOTS)
    exc = stops(lambda: load_game(path).program(2).new_state(0))
    at(exc, path, "move top of deck to slot[k]")


def test_a_card_moved_to_an_alike_zone_a_family_does_not_have_names_the_move(write):
    path = write(SLOTS.replace("slot: {per: places, visible: everyone}",
                               "slot: {per: places, visible: everyone, alike: true}"))
    exc = stops(lambda: load_game(path).program(2).new_state(0))
    at(exc, path, "move top of deck to slot[k]")


def test_an_end_condition_that_fails_names_the_end_condition(write):
    path = write(PLAYABLE_SLOTS
                 .replace('end: {when: "count(deck) == 0"}', 'end: {when: "count(slot[count(discard) + 1]) > 0"}'))
    exc = stops(lambda: play_random(load_game(path).program(2)))
    at(exc, path, "end: {when:")


def test_a_next_player_that_fails_names_the_next_rule(write):
    path = write(PLAYABLE_SLOTS
                 .replace('  steps: ["move top of deck to discard"]',
                          '  next: "count(slot[first(deck).kind])"\n  steps: ["move top of deck to discard"]'))
    exc = stops(lambda: play_random(load_game(path).program(2)))
    at(exc, path, "next:")


def test_a_first_player_that_fails_names_the_first_rule(write):
    path = write(PLAYABLE_SLOTS
                 .replace('  steps: ["move top of deck to discard"]',
                          '  first: "count(slot[players + 1])"\n  steps: ["move top of deck to discard"]'))
    exc = stops(lambda: load_game(path).program(2).new_state(0))
    at(exc, path, "first:")
