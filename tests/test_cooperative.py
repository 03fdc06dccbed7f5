"""`cooperative: {win: CONDITION}`: one shared score, and the whole table wins or loses together by
the condition; bots play for the table; simulate shows the table's win rate and shared score."""
from __future__ import annotations

import io
import json
import re

import pytest
from rich.console import Console

from interpreter.compiler.game import file_warnings, load_game
from interpreter.errors import RulesetError
from interpreter.seats.registry import make_bot
from interpreter.tools.cli import main
from interpreter.tools.play import Session
from language_helpers import edit, make, write  # noqa: F401

# The setup lays 1 + 2 + 3 on the shared stack and the game is over at once: the table's score is 6.
TOGETHER = """
    name: together
    players: {min: 2, max: 3}
    cards:
      c:
        for: {value: [1, 2, 3]}
        name: "v{value}"
        start: deck
    zones:
      deck: {visible: everyone}
      stack: {visible: everyone}
    vars:
      goal: {initial: 6}
    setup:
      - move deck to stack
    turn:
      steps:
        - step: main
          do: ["set goal = goal"]
    end:
      when: "true"
    score: sum(stack.value)
    cooperative:
      win: sum(stack.value) >= goal
"""


def finished(make, text=TOGETHER, players=3):
    p = make(text, players)
    st = p.new_state(1)
    assert st.over
    return p, st


def test_every_seat_wins_when_the_win_condition_holds(make):
    p, st = finished(make)
    assert p.result(st)["winners"] == [0, 1, 2]


def test_no_seat_wins_when_the_win_condition_does_not_hold(make):
    p, st = finished(make, edit(TOGETHER, "goal: {initial: 6}", "goal: {initial: 7}"))
    assert p.result(st)["winners"] == []


def test_the_shared_score_is_every_seats_score(make):
    p, st = finished(make)
    assert p.result(st)["scores"] == [6, 6, 6]


def test_the_score_is_worked_out_as_the_first_seat_sees_it(make):
    # a score that reads `me` counts seat 0's for the whole table
    p, st = finished(make, edit(TOGETHER, "score: sum(stack.value)", "score: sum(stack.value) + me"))
    assert p.result(st)["scores"] == [6, 6, 6]


def test_the_win_condition_is_worked_out_as_the_first_seat_sees_it(make):
    for seat, won in ((0, [0, 1, 2]), (1, [])):
        p, st = finished(make, edit(TOGETHER, "win: sum(stack.value) >= goal", f"win: me == {seat}"))
        assert p.result(st)["winners"] == won


def test_a_score_or_win_that_reads_a_seats_own_zone_is_a_lint_warning(write):
    text = edit(edit(TOGETHER, "      stack: {visible: everyone}", "      stack: {visible: everyone}\n      hand: {owner: each}"),
                "win: sum(stack.value) >= goal", "win: sum(stack.value) >= goal and count(hand) == 0")
    codes = [w.code for w in file_warnings(write(text)) if w.code != "zone-never-entered"]    # hand: empty here
    assert codes == ["table-reads-one-seat"]
    fixed = edit(text, "count(hand) == 0", "sum(count(hand(p)) for p in seats) == 0")
    assert "table-reads-one-seat" not in [w.code for w in file_warnings(write(fixed))]


def errors_of(write, text) -> list:
    with pytest.raises(RulesetError) as err:
        load_game(write(text))
    return [(d.pos.line, d.pos.col, d.message) for d in err.value.diagnostics]


def test_a_win_that_is_not_true_or_false_is_an_error_at_it(write):
    [(line, col, message)] = errors_of(write, edit(TOGETHER, "win: sum(stack.value) >= goal", "win: sum(stack.value)"))
    assert (line, col) == (24, 8) and "cooperative win condition" in message


def test_a_tiebreak_cannot_go_with_cooperative(write):
    [(line, col, message)] = errors_of(write, TOGETHER + "    tiebreak:\n      - most: count(stack)\n")
    assert (line, col) == (26, 3) and "'tiebreak' cannot go with cooperative" in message


def test_wins_cannot_go_with_cooperative(write):
    [(line, col, message)] = errors_of(write, TOGETHER + "    wins: lowest\n")
    assert (line, col) == (25, 7) and "'wins' cannot go with cooperative" in message


def test_cooperative_takes_only_win(write):
    [(line, col, message)] = errors_of(write, TOGETHER + "      lose: goal > 9\n")
    assert line == 25 and "lose" in message


# Seat 0 chooses a card for the next seat: 1 or 5 points. Each for itself, a seat gives the least;
# together, the table's score is every seat's points and 5 of them win, so the bot gives the 5.
GIFT = """
    name: gift
    players: {min: 2, max: 2}
    cards:
      c:
        for: {value: [1, 5]}
        name: "v{value}"
        start: deck
    zones:
      deck: {visible: everyone}
      mine: {owner: each, visible: everyone}
    vars:
      done: {initial: 0}
    turn:
      steps:
        - step: give
          do:
            - choose: card
              cards: deck
              count: 1
            - move card to mine(next(me))
            - set done = 1
    end:
      when: done == 1
    score: sum(sum(mine(p).value) for p in seats)
    cooperative:
      win: sum(sum(mine(p).value) for p in seats) >= 5
"""


@pytest.mark.parametrize("bot", ["greedy", "automa", "ismcts"])
def test_bots_play_for_the_shared_score(make, bot):
    for text, gift in ((GIFT, "card: 1*v5"),
                       (edit(edit(GIFT, "score: sum(sum(mine(p).value) for p in seats)", "score: sum(mine.value)"),
                             "    cooperative:\n      win: sum(sum(mine(p).value) for p in seats) >= 5\n", ""), "card: 1*v1")):
        p = make(text)
        st = p.new_state(3)
        move = make_bot(bot, 1).choose(p, st, p.legal_moves(st))
        assert p.move_text(st, move) == gift


def test_validate_says_the_table_wins_or_loses_together(write, capsys):
    path = write(TOGETHER)
    assert main(["validate", path]) == 0
    assert capsys.readouterr().out.strip() == \
        f"{path}: ok (together, 2–3 players, cooperative: the table wins or loses together)"


def test_the_end_screen_says_the_table_wins_or_loses_together(write):
    for goal, said in (("6", "the table wins together"), ("7", "the table loses together")):
        game = load_game(write(edit(TOGETHER, "goal: {initial: 6}", f"goal: {{initial: {goal}}}")))
        out = io.StringIO()
        s = Session(game, 3, 1, {}, ask=lambda prompt: "q",
                    console=Console(file=out, width=120, highlight=False, color_system=None))
        s.show_result()
        assert said in out.getvalue()


def test_the_end_screen_heads_the_score_as_the_tables_and_marks_no_seat_as_a_winner(write):
    for goal in ("6", "7"):
        game = load_game(write(edit(TOGETHER, "goal: {initial: 6}", f"goal: {{initial: {goal}}}")))
        s = Session(game, 3, 1, {}, ask=lambda prompt: "q",
                    console=Console(file=io.StringIO(), width=120, highlight=False, color_system=None))
        _, heads, rows, _, _ = s.final_table()
        assert heads == ["seat", "player", "score (the table's, shared)"]
        assert all(len(row) == 3 for row in rows) and len({row[2] for row in rows}) == 1


# The manual's example (section 9, "Playing together"): build one stack 1, 2, 3, 4 together.
TINY_STACK = """
    name: Tiny Stack
    players: {min: 2, max: 3}
    cards:
      card:
        for: {value: [1, 2, 3, 4]}
        name: "c{value}"
        count: 3
        start: draw
    zones:
      draw: {visible: nobody}
      stack: {visible: everyone}
      discard: {visible: everyone}
      hand: {owner: each, visible: owner}
    vars:
      fuse: {initial: 2}
    setup: ["shuffle draw", "deal 2 from draw to hand"]
    turn:
      steps:
        - step: play
          do:
            - choose: played
              cards: hand
              count: 1
            - if: first(played).value == count(stack) + 1
              then: ["move played to stack"]
              else: ["move played to discard", "set fuse = fuse - 1"]
            - if: count(draw) > 0
              then: ["move top of draw to hand"]
    end:
      when: fuse == 0 or count(stack) == 4 or count(draw) == 0
    score: count(stack)
    cooperative:
      win: count(stack) == 4
"""


def test_simulate_gives_the_tables_win_rate_and_shared_score_with_their_intervals(write, tmp_path, capsys):
    path, results = write(TINY_STACK), str(tmp_path / "results.jsonl")
    assert main(["simulate", path, "-n", "2", "--games", "60", "--seed", "2", "--jobs", "1", "--json",
                 "--bots", "greedy",
                 "--results", results]) == 0
    doc = json.loads(capsys.readouterr().out)
    with open(results, encoding="utf-8") as fh:
        games = [json.loads(line) for line in fh if line.strip()]
    won = sum(1 for g in games if g["winners"] == [0, 1])
    assert won + sum(1 for g in games if g["winners"] == []) == 60 and 0 < won < 60
    coop = doc["cooperative"]
    assert coop["table_wins"]["value"] == won / 60
    lo, hi = coop["table_wins"]["ci95"]
    assert lo < won / 60 < hi
    assert coop["score"]["value"] == pytest.approx(sum(g["scores"][0] for g in games) / 60)
    assert all(g["scores"][0] == g["scores"][1] for g in games)
    assert all(g["run"]["cooperative"] is True for g in games)


def test_simulate_says_the_seats_win_or_lose_together_instead_of_a_seat_advantage(write, capsys):
    assert main(["simulate", write(TINY_STACK), "-n", "2", "--games", "20", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "cooperative: seats win or lose together" in out and "table wins" in out
    assert "seat advantage" not in out


def test_a_cooperative_game_is_recorded_and_replayed(write, tmp_path, capsys):
    path, record = write(TINY_STACK), str(tmp_path / "game.json")
    for seed in range(6):
        assert main(["record", path, "-n", "2", "--seed", str(seed), "--bots", "greedy", "-o", record]) == 0
        assert main(["replay", record, "--ruleset", path]) == 0
        assert "replay ok" in capsys.readouterr().out


def test_record_and_replay_tell_a_cooperative_result_as_the_shared_score_and_the_tables_win_or_loss(
        write, tmp_path, capsys):
    path, record = write(TINY_STACK), str(tmp_path / "game.json")
    said = set()
    for seed in range(8):
        assert main(["record", path, "-n", "2", "--seed", str(seed), "--bots", "greedy", "-o", record]) == 0
        wrote = capsys.readouterr().err
        assert main(["replay", record, "--ruleset", path]) == 0
        replayed = capsys.readouterr().out
        result = json.load(open(record, encoding="utf-8"))["result"]
        words = f"shared score {result['scores'][0]}, the table {'wins' if result['winners'] else 'loses'} together"
        assert words in wrote and words in replayed and "winners" not in wrote + replayed
        said.add(bool(result["winners"]))
    assert said == {True, False}


def test_the_report_says_the_seats_win_or_lose_together_with_the_tables_win_rate(write, tmp_path, capsys):
    report = tmp_path / "report.html"
    assert main(["simulate", write(TINY_STACK), "-n", "2", "--games", "40", "--bots", "greedy", "--jobs", "1",
                 "--report", str(report)]) == 0
    page = report.read_text(encoding="utf-8")
    assert re.search(r"cooperative: seats win or lose together; table wins [\d.]+ % \(95 %: [\d.]+ – [\d.]+ %\); "
                     r"shared score [\d.]+ \(95 %: [\d.]+ – [\d.]+\)", page)
    assert "chi-square" not in page


@pytest.mark.parametrize("goal, win, margin", [("6", 1.0, 6.0), ("7", 0.0, 6.0)])
def test_the_learning_table_pays_every_seat_the_tables_win_or_the_shared_score(write, goal, win, margin):
    from interpreter.tools.rl_table import Table
    path = write(edit(TOGETHER, "goal: {initial: 6}", f"goal: {{initial: {goal}}}"))
    for payoff, each in (("win", win), ("margin", margin)):
        table = Table(path, 3, payoff=payoff)
        table.reset(1)
        assert table.over and table.payoffs() == [each] * 3


def test_a_results_line_of_a_cooperative_run_may_have_no_winner_and_of_another_run_may_not(write, tmp_path, capsys):
    from interpreter.tools.results import check_line
    results = str(tmp_path / "results.jsonl")
    assert main(["simulate", write(TINY_STACK), "-n", "2", "--games", "10", "--jobs", "1", "--json",
                 "--results", results]) == 0
    with open(results, encoding="utf-8") as fh:
        lost = next(r for r in map(json.loads, fh) if r["winners"] == [])
    check_line(lost)
    del lost["run"]["cooperative"]
    with pytest.raises(ValueError, match="winners.* must be a non-empty list"):
        check_line(lost)


def test_a_parameter_read_only_by_the_win_condition_is_read(write):
    from interpreter.compiler.game import file_warnings
    text = edit(edit(TOGETHER, "win: sum(stack.value) >= goal", "win: sum(stack.value) >= target"),
                "    vars:\n", "    params:\n      target: 6\n    vars:\n")
    assert [w.code for w in file_warnings(write(text))] == []


def test_every_seat_rates_a_position_by_the_tables_evaluation_worked_out_as_the_first_seat_sees_it(make):
    p, st = finished(make, TOGETHER + "    bots:\n      eval: sum(stack.value) * 10 + me\n")
    assert p.evaluations(st) == [60, 60, 60]
    assert [p.evaluate(st, seat) for seat in range(3)] == [60, 60, 60]


def test_the_play_screen_shows_the_tables_shared_score_for_every_seat(write):
    game = load_game(write(edit(TINY_STACK, "score: count(stack)", "score: count(stack) + me")))
    out = io.StringIO()
    s = Session(game, 2, 3, {}, ask=lambda prompt: "q",
                console=Console(file=out, width=120, highlight=False, color_system=None))
    assert s.running_scores(1) == ["0", "0"]
    assert [s.program.score(s.st, seat) for seat in (0, 1)] == [0, 0]
    s.show(0, s.program.legal_moves(s.st))
    assert "· score 0 (the table's, shared)" in out.getvalue()


def test_the_manuals_example_is_the_game_played_here():
    import os
    import textwrap

    import yaml
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "docs", "language.md"), encoding="utf-8") as fh:
        section = fh.read().split("### Playing together: `cooperative`")[1]
    example = section.split("```yaml\n")[1].split("```")[0]
    assert yaml.safe_load(example) == yaml.safe_load(textwrap.dedent(TINY_STACK))


def test_ismcts_cut_off_rates_a_cooperative_table_by_its_squashed_shared_value_with_payoff_win_too(make):
    import math
    p = make(TINY_STACK)
    positions = []                       # positions with one card on the stack: the shared value is 1
    for seed in range(20):
        st = p.new_state(seed)
        for move in p.legal_moves(st):
            after = st.clone()
            p.apply(after, move)
            positions += [after] if p.score(after, 0) == 1 and not after.over else []
    after = positions[0]
    assert p.score(after, 0) == 1 and not after.over
    for options in ("", ":payoff=win"):
        bot = make_bot("ismcts" + options, 1)
        bot._scale = [0.0, 0]
        assert bot.payoffs(p, after) == [pytest.approx(0.5 + 0.5 * math.tanh(1))] * 2
