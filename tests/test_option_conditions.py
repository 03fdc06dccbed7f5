"""Options offered only when a condition holds: `when:` on an option (docs/language.md §8, "Choosing
an option"). Each test is one sentence of the manual, on a tiny ruleset."""
from __future__ import annotations

import json
import textwrap

from interpreter.compiler.game import file_warnings, load_game, validate_file
from interpreter.errors import IllegalMove, RuleRuntimeError
from interpreter.seats.registry import make_bot
from interpreter.tools.cli import main
from interpreter.tools.records import make_record, replay
from language_helpers import do, edit, make, var, write  # noqa: F401

import pytest

# Income, or a coup with 3 coins; a discard (of a card) only with a coin.
COUP = """
    name: coup
    players: {min: 2, max: 4}
    cards:
      card:
        for: {rank: [1, 2, 3]}
        name: "c{rank}"
        count: 4
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each, visible: owner}
      out: {visible: everyone}
    vars:
      coins: {owner: each, initial: 0}
    setup:
      - shuffle deck
      - deal 2 from deck to hand
    turn:
      steps:
        - choose: action
          options:
            income: {do: ["set coins = coins + 1"]}
            coup:
              when: coins >= 3
              do: ["set coins = coins - 3", "move top of hand(next(current)) to out"]
            discard:
              when: coins >= 1
              cards: hand
              count: 1
              do: ["move discard to out"]
    end:
      when: turn > 20 or any(count(hand(p)) == 0 for p in seats)
    score: count(hand) + coins
"""


def line_of(text: str, fragment: str) -> int:
    """The line of a ruleset text (as written to a file, dedented) that holds fragment."""
    return next(i for i, line in enumerate(textwrap.dedent(text).split("\n"), 1) if fragment in line)


def offered(p, st) -> list:
    return sorted({p.move_text(st, m).partition(":")[0] for m in p.legal_moves(st)})


def test_an_option_with_when_is_offered_only_while_its_condition_holds(make):
    p = make(COUP, 2)
    st = p.new_state(1)
    assert offered(p, st) == ["income"]
    for _ in range(6):              # three incomes each
        do(p, st, "income")
    assert offered(p, st) == ["coup", "discard", "income"]


def test_an_option_whose_condition_fails_is_refused_and_changes_nothing(make):
    p = make(COUP, 2)
    st = p.new_state(1)
    before = st.clone()
    with pytest.raises(IllegalMove):
        p.play(st, (1, None))       # coup, with no coins
    assert st.zones == before.zones and st.vars == before.vars


def test_the_condition_is_read_when_the_choice_is_asked(make):
    p = make(COUP, 2)
    st = p.new_state(1)
    for _ in range(6):
        do(p, st, "income")
    do(p, st, "coup")               # seat 0 pays 3: 0 coins left
    do(p, st, "income")
    assert var(p, st, "coins", 0) == 0 and offered(p, st) == ["income"]


def test_in_a_choice_handed_to_another_seat_me_in_when_is_still_the_current_player(make):
    text = edit(COUP, """        - choose: action
          options:""", """        - choose: block
          by: next(current)
          options:
            mine: {when: "coins(next(current)) >= 1 and me == current"}
            theirs: {when: coins >= 1}
            allow: {}
        - choose: action
          options:""")
    p = make(text, 2)
    st = p.new_state(1)
    assert st.decider == 1 and offered(p, st) == ["allow"]
    do(p, st, "allow")
    do(p, st, "income")                     # seat 0 has a coin; seat 1 none
    # seat 0 is asked on seat 1's turn: its coin opens 'mine'; bare coins are seat 1's, so not 'theirs'
    assert st.decider == 0 and st.current == 1 and offered(p, st) == ["allow", "mine"]
    do(p, st, "allow")
    do(p, st, "income")                     # seat 1 has a coin too
    assert st.decider == 1 and offered(p, st) == ["allow", "mine", "theirs"]


def test_an_option_with_cards_and_when_offers_its_cards_only_while_the_condition_holds(make):
    p = make(COUP, 2)
    st = p.new_state(1)
    assert not any(p.move_text(st, m).startswith("discard") for m in p.legal_moves(st))
    do(p, st, "income")
    do(p, st, "income")
    assert [p.move_text(st, m) for m in p.legal_moves(st) if p.move_text(st, m).startswith("discard")]


def test_when_must_be_a_condition(write):
    diags = validate_file(write(edit(COUP, "when: coins >= 3", "when: coins")))
    assert [(d.pos.line, d.pos.col) for d in diags] == [(line_of(COUP, "when: coins >= 3"), 17)]
    assert "an option's when condition must be true or false" in diags[0].message


def test_an_option_whose_condition_can_never_hold_is_a_lint_warning(write):
    warnings = file_warnings(write(edit(COUP, "when: coins >= 3", "when: 2 > 3")))
    assert [(w.code, w.pos.line) for w in warnings] == [("decision-never-legal", line_of(COUP, "when: coins >= 3"))]
    assert "option 'coup' of decision 'action' can never be taken: its when condition is always false" \
        in warnings[0].message


def test_a_where_on_an_option_without_cards_points_to_when(write):
    diags = validate_file(write(edit(COUP, "when: coins >= 3", "where: coins >= 3")))
    assert len(diags) == 1 and "give it when: CONDITION" in diags[0].hint


def test_a_when_written_on_the_choose_itself_is_an_error_that_says_it_belongs_to_an_option(write):
    diags = validate_file(write(edit(COUP, "          options:\n            income:",
                                     "          when: coins >= 1\n          options:\n            income:")))
    assert len(diags) == 1 and "unknown key 'when' in choice 'action'" in diags[0].message
    assert diags[0].hint.startswith("when belongs to one option, not to the choose")


def test_in_play_an_option_typed_while_its_condition_fails_is_refused_saying_it_is_not_offered(write):
    import io
    from rich.console import Console
    from interpreter.tools.play import Session
    out = io.StringIO()
    s = Session(load_game(write(COUP)), 2, 1, {1: "random"}, ask=lambda prompt: "q",
                console=Console(file=out, width=200, highlight=False, color_system=None))
    before = s.st.clone()
    assert s.parse("coup", s.program.legal_moves(s.st)) is None and s.st == before
    assert "'coup' is not a legal move for seat 0 now: option 'coup' is not offered now (its when condition " \
           "does not hold)" in out.getvalue()
    assert s.parse("discard", s.program.legal_moves(s.st)) is None
    assert "option 'discard' is not offered now (its when condition does not hold, or it has no cards to " \
           "choose)" in out.getvalue()


def test_whole_games_with_conditional_options_simulate(write, capsys):
    assert main(["simulate", write(COUP), "--games", "12", "--players", "3", "--seed", "2", "--jobs", "1",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 12


def test_a_game_with_conditional_options_is_recorded_and_replays(write):
    game = load_game(write(COUP))
    for bot in ("random", "greedy", "ismcts:iterations=30"):
        record = make_record(game, 2, 5, [make_bot(bot, i) for i in range(2)], [bot] * 2)
        assert replay(game, json.loads(json.dumps(record))) == record["result"]
    moves = [m["move"] for seed in range(6)
             for m in make_record(game, 2, seed, [make_bot("random", i) for i in range(2)], ["random"] * 2)["moves"]]
    assert any(m.startswith("discard") for m in moves)      # offered once a coin is held


def test_a_when_that_fails_while_the_game_runs_names_its_line(make):
    p = make(edit(COUP, "when: coins >= 3", "when: 10 / coins > 1"), 2)
    st = p.new_state(1)
    with pytest.raises(RuleRuntimeError) as err:
        p.legal_moves(st)                   # 10 / 0 while listing the moves
    assert err.value.pos.line == line_of(COUP, "when: coins >= 3")
