"""Reaction rounds: `around` with `stop_at` and `stopped_by` (docs/language.md §7, "Reaction rounds:
`stop_at`"). Each test is one sentence of the manual, on a tiny ruleset."""
from __future__ import annotations

import json
import textwrap

from interpreter.compiler.game import load_game, validate_file
from interpreter.seats.registry import make_bot
from interpreter.tools.cli import main
from interpreter.tools.records import make_record, replay
from language_helpers import do, edit, make, var, write  # noqa: F401

# The current seat claims (or quits the game); every other seat in play, in seat order from the
# next one, may challenge the claim; the first challenge ends the round. An unchallenged claim earns 3.
CLAIM = """
    name: challenge
    players: {min: 2, max: 5}
    cards:
      chip: {count: 1, start: box}
    zones:
      box: {visible: everyone}
      lid: {visible: everyone}
    vars:
      coins: {owner: each, initial: 0}
      challenges: {initial: 0}
      stopper: {initial: -2}
    setup:
      - move box to lid
    turn:
      steps:
        - choose: act
          public: true
          options:
            claim: {}
            quit: {do: ["eliminate current"]}
        - around: p
          from: next(current)
          stop_at: challenge
          stopped_by: challenger
          do:
            - if: p != current
              then:
                - choose: react
                  by: p
                  public: true
                  options:
                    challenge: {do: ["set challenges = challenges + 1"]}
                    allow: {}
        - set stopper = challenger
        - if: challenger < 0
          then: ["set coins = coins + 3"]
    end:
      when: turn > 12 or count(in_play) < 2
    score: coins
"""


def line_of(text: str, fragment: str) -> int:
    """The line of a ruleset text (as written to a file, dedented) that holds fragment."""
    return next(i for i, line in enumerate(textwrap.dedent(text).split("\n"), 1) if fragment in line)


def asked(p, st, answers: list) -> list:
    """The seats asked to react, answering in turn with answers."""
    seats = []
    for answer in answers:
        assert st.pending.name == "react"
        seats.append(st.decider)
        do(p, st, answer)
    return seats


def test_the_round_asks_every_seat_in_seat_order_from_the_first(make):
    p = make(CLAIM, 4)
    st = p.new_state(1)
    do(p, st, "claim")
    assert asked(p, st, ["allow", "allow", "allow"]) == [1, 2, 3]
    assert st.pending.name == "act" and st.current == 1


def test_the_round_stops_at_the_first_seat_that_takes_the_option(make):
    p = make(CLAIM, 4)
    st = p.new_state(1)
    do(p, st, "claim")
    assert asked(p, st, ["allow", "challenge"]) == [1, 2]
    assert st.pending.name == "act" and st.current == 1         # seat 3 was never asked


def test_the_options_do_runs_before_the_round_stops(make):
    p = make(CLAIM, 3)
    st = p.new_state(1)
    do(p, st, "claim")
    asked(p, st, ["challenge"])
    assert var(p, st, "challenges") == 1


def test_stopped_by_names_the_seat_that_took_the_option(make):
    p = make(CLAIM, 4)
    st = p.new_state(1)
    do(p, st, "claim")
    asked(p, st, ["allow", "challenge"])
    assert var(p, st, "stopper") == 2 and var(p, st, "coins", 0) == 0


def test_stopped_by_is_minus_one_when_nobody_took_the_option(make):
    p = make(CLAIM, 3)
    st = p.new_state(1)
    do(p, st, "claim")
    asked(p, st, ["allow", "allow"])
    assert var(p, st, "stopper") == -1 and var(p, st, "coins", 0) == 3


def test_each_round_starts_afresh(make):
    p = make(CLAIM, 3)
    st = p.new_state(1)
    do(p, st, "claim")
    asked(p, st, ["challenge"])
    do(p, st, "claim")                                  # seat 1's claim: seats 2 and 0 are asked
    assert asked(p, st, ["allow", "allow"]) == [2, 0] and var(p, st, "stopper") == -1


def test_a_seat_out_of_play_is_never_asked(make):
    p = make(CLAIM, 4)
    st = p.new_state(1)
    do(p, st, "quit")                                   # seat 0 leaves play
    assert asked(p, st, ["allow", "allow", "allow"]) == [1, 2, 3]
    do(p, st, "claim")                                  # seat 1's claim: seat 0 is passed over
    assert asked(p, st, ["allow", "allow"]) == [2, 3] and st.current == 2


def test_stop_at_must_name_an_option_of_a_choice_in_the_rounds_do(write):
    diags = validate_file(write(edit(CLAIM, "stop_at: challenge", "stop_at: challenged")))
    assert [(d.pos.line, d.pos.col) for d in diags] == [(line_of(CLAIM, "stop_at:"), 16)]
    assert "no choose in this around's do has an option 'challenged'" in diags[0].message
    assert "challenge" in diags[0].hint


def test_stopped_by_without_stop_at_is_an_error(write):
    text = edit(CLAIM, "          stop_at: challenge\n", "")
    diags = validate_file(write(text))
    assert [(d.pos.line, d.pos.col) for d in diags] == [(line_of(text, "stopped_by:"), 7)]
    assert "has no stop_at, so it would never be set" in diags[0].message


def test_stopped_by_read_inside_the_round_is_an_error_that_says_it_is_set_after_the_around(write):
    text = edit(CLAIM, "challenge: {do: [\"set challenges = challenges + 1\"]}",
                "challenge: {do: [\"set challenges = challenger\"]}")
    diags = validate_file(write(text))
    assert [(d.pos.line, d.message) for d in diags] == [(line_of(text, "set challenges = challenger"),
                                                         "unknown name 'challenger'")]
    assert diags[0].hint == ("'challenger' (stopped_by) is set when the round is over: read it after the around; "
                             "inside it, the seat whose go it is is 'p'")


def test_whole_games_with_reaction_rounds_simulate(write, capsys):
    assert main(["simulate", write(CLAIM), "--games", "12", "--players", "4", "--seed", "2", "--jobs", "1",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 12


def test_a_game_with_reaction_rounds_is_recorded_and_replays(write):
    game = load_game(write(CLAIM))
    for bot in ("random", "greedy", "ismcts:iterations=30"):
        record = make_record(game, 3, 5, [make_bot(bot, i) for i in range(3)], [bot] * 3)
        assert any(m["move"] == "challenge" for m in record["moves"]) or bot != "random"
        assert replay(game, json.loads(json.dumps(record))) == record["result"]


def test_in_a_game_where_no_seat_leaves_the_round_stops_likewise(make):
    p = make(edit(CLAIM, '            quit: {do: ["eliminate current"]}\n', ""), 4)
    st = p.new_state(1)
    do(p, st, "claim")
    assert asked(p, st, ["allow", "challenge"]) == [1, 2] and var(p, st, "stopper") == 2
    do(p, st, "claim")
    assert asked(p, st, ["allow", "allow", "allow"]) == [2, 3, 0] and var(p, st, "stopper") == -1


def test_with_until_the_round_ends_at_whichever_comes_first(make):
    p = make(edit(CLAIM, "          stop_at: challenge\n", "          stop_at: challenge\n          until: challenges >= 2\n"
                  ), 3)
    st = p.new_state(1)
    do(p, st, "claim")
    assert asked(p, st, ["challenge"]) == [1] and st.pending.name == "act"
