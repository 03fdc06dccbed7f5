"""`wins: lowest`: the seat with the lowest score wins; tie-breaks keep their own most or fewest;
bots aim low (while `bots.eval` still means higher is better); scores are shown as written; and the
analysis reads the lowest score as leading."""
from __future__ import annotations

import io
import json
import os
import shutil

import pytest
import yaml
from rich.console import Console

from interpreter.analysis import pergame
from interpreter.compiler.game import load_game
from interpreter.seats.registry import make_bot
from interpreter.tools.cli import main
from interpreter.tools.observe import observe_game
from interpreter.tools.play import Session
from language_helpers import edit, make, write  # noqa: F401

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Points are bad: each seat's score is the value of the cards it took. The setup hands out fixed
# cards: seat 0 takes 2 + 3 = 5, seat 1 takes 1 + 4 = 5, seat 2 takes 6; seat 0 took 2 cards,
# seat 1 took 2 as well, seat 2 took 1.
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
    setup:
      - move deck where value == 2 or value == 3 to taken(0)
      - move deck where value == 1 or value == 4 to taken(1)
      - move deck where value == 6 to taken(2)
    turn:
      steps:
        - step: main
          do: ["set done = 1"]
    end:
      when: done == 1
    score: sum(taken.value)
    wins: lowest
"""


def finished(make, text=PENALTIES):
    p = make(text, 3)
    st = p.new_state(1)
    assert st.over
    return p, st


def test_the_seats_with_the_lowest_score_win_and_still_tied_share_the_win(make):
    p, st = finished(make)
    assert p.result(st)["winners"] == [0, 1]


def test_the_highest_score_wins_without_wins_lowest(make):
    p, st = finished(make, edit(PENALTIES, "wins: lowest", "wins: highest"))
    assert p.result(st)["winners"] == [2]


def test_the_scores_are_reported_as_written_not_negated(make):
    p, st = finished(make)
    assert p.result(st)["scores"] == [5, 5, 6]


@pytest.mark.parametrize("rule, winners", [("most", [0]), ("fewest", [1])])
def test_a_tie_on_the_lowest_score_goes_to_the_tie_breaks_which_keep_their_own_most_or_fewest(make, rule, winners):
    # seat 0's highest card is 3, seat 1's is 4
    p, st = finished(make, PENALTIES + f"    tiebreak:\n      - {rule}: 10 - max(taken.value)\n")
    assert p.result(st)["winners"] == winners


def test_a_value_other_than_highest_or_lowest_is_an_error_at_the_value(write):
    from interpreter.errors import RulesetError
    with pytest.raises(RulesetError) as err:
        load_game(write(edit(PENALTIES, "wins: lowest", "wins: least")))
    diag = err.value.diagnostics[0]
    assert (diag.pos.line, diag.pos.col) == (25, 7) and "must be one of highest, lowest" in diag.message


# A choice between taking a card of 1 and a card of 5 points: the lower is the better move.
CHOICE = """
    name: choice
    players: {min: 2, max: 2}
    cards:
      c:
        for: {value: [1, 5, 2, 7]}
        name: "v{value}"
        start: deck
    zones:
      deck: {visible: everyone}
      taken: {owner: each, visible: everyone}
    vars:
      done: {initial: 0}
    turn:
      steps:
        - step: take
          do:
            - choose: card
              cards: deck where value == 1 or value == 5
              count: 1
            - move card to taken
            - set done = 1
    end:
      when: done == 1
    score: sum(taken.value)
    wins: lowest
"""


def greedy_take(make, text) -> str:
    p = make(text)
    st = p.new_state(3)
    move = make_bot("greedy", 1).choose(p, st, p.legal_moves(st))
    return p.move_text(st, move)


def test_a_bot_without_an_eval_aims_for_the_lowest_score(make):
    assert greedy_take(make, CHOICE) == "card: 1*v1"


def test_a_bots_eval_keeps_meaning_higher_is_better_for_the_bot(make):
    assert greedy_take(make, CHOICE + "    bots:\n      eval: sum(taken.value)\n") == "card: 1*v5"


def test_the_track_holds_the_score_negated_so_the_larger_value_leads(write):
    game = load_game(write(PENALTIES))
    record = observe_game(game, 3, 1, [make_bot("random", s) for s in range(3)])
    assert record["scores"] == [5, 5, 6] and record["track"][-1] == [-5, -5, -6]
    assert pergame.leader([-5, -6, -7]) == 0


def test_the_margin_is_how_far_the_winners_score_is_from_the_nearest_other_one():
    assert pergame.margin({"scores": [3, 7, 9], "winners": [0]}) == 4       # the lowest won
    assert pergame.margin({"scores": [9, 7, 3], "winners": [0]}) == 2       # the highest won


def test_validate_says_the_lowest_score_wins(write, capsys):
    path = write(PENALTIES)
    assert main(["validate", path]) == 0
    assert capsys.readouterr().out.strip() == f"{path}: ok (penalties, 3 players, the lowest score wins)"


def test_the_end_screen_shows_the_scores_as_written_and_says_the_lowest_wins(write):
    game = load_game(write(PENALTIES))
    out = io.StringIO()
    s = Session(game, 3, 1, {}, ask=lambda prompt: "q",
                console=Console(file=out, width=120, highlight=False, color_system=None))
    s.show_result()
    text = out.getvalue()
    assert "score (lowest wins)" in text and "the lowest score wins" in text
    rows = [line for line in text.splitlines() if "human" in line and "│" in line]
    assert [row.split("│")[3].strip() for row in rows] == ["5", "5", "6"]
    assert "shared victory: seat 0 (human), seat 1 (human)" in text


def negated_variant(tmp_path) -> tuple:
    """R-Eco beside a variant of it whose score is negated and whose lowest score wins."""
    shutil.copy(os.path.join(ROOT, "rulesets", "r_eco.yaml"), tmp_path / "r_eco.yaml")
    with open(tmp_path / "r_eco.yaml", encoding="utf-8") as fh:
        score = yaml.safe_load(fh)["score"]
    variant = tmp_path / "r_eco_lowest.yaml"
    variant.write_text(f"extends: r_eco.yaml\nwins: lowest\nscore: {json.dumps('-(' + score + ')')}\n",
                       encoding="utf-8")
    return str(tmp_path / "r_eco.yaml"), str(variant)


def simulate(capsys, path, results=None) -> dict:
    more = ["--results", results] if results else []
    assert main(["simulate", path, "-n", "3", "--games", "24", "--seed", "4", "--track", "--jobs", "1",
                 "--json", *more]) == 0
    return json.loads(capsys.readouterr().out)


def games_of(path) -> list:
    with open(path, encoding="utf-8") as fh:
        return sorted((json.loads(line) for line in fh if line.strip()), key=lambda r: r["game"])


def test_a_negated_score_where_the_lowest_wins_gives_the_same_winners_and_metrics_seed_for_seed(tmp_path, capsys):
    base, variant = negated_variant(tmp_path)
    a = simulate(capsys, base, str(tmp_path / "a.jsonl"))
    b = simulate(capsys, variant, str(tmp_path / "b.jsonl"))
    ga, gb = games_of(tmp_path / "a.jsonl"), games_of(tmp_path / "b.jsonl")
    assert [g["winners"] for g in gb] == [g["winners"] for g in ga]
    assert [g["scores"] for g in gb] == [[-x for x in g["scores"]] for g in ga]
    assert [g["moves"] for g in gb] == [g["moves"] for g in ga]         # the bots played the same games
    assert b["wins"] == "lowest" and "wins" not in a
    assert b["wins_by_seat"] == a["wins_by_seat"] and b["intervals"]["wins_by_seat"] == a["intervals"]["wins_by_seat"]
    assert b["metrics"] == a["metrics"]         # margins, lead changes, decisiveness, comebacks, skill...
    assert b["score"]["mean_by_seat"] == [-m for m in a["score"]["mean_by_seat"]]


def test_the_report_and_the_text_summary_say_the_lowest_score_wins(tmp_path, capsys):
    from interpreter.tools.report.summary import header
    base, variant = negated_variant(tmp_path)
    doc = simulate(capsys, variant)
    assert "the lowest score" in header(doc) and "the lowest score" not in header(simulate(capsys, base))
    assert main(["simulate", variant, "-n", "3", "--games", "4", "--jobs", "1"]) == 0
    assert "mean score ± 95 % (lowest wins)" in capsys.readouterr().out


def test_the_play_screen_shows_the_running_score_as_written_and_that_the_lowest_wins(write):
    game = load_game(write(CHOICE))
    out = io.StringIO()
    s = Session(game, 2, 3, {}, ask=lambda prompt: "q",
                console=Console(file=out, width=120, highlight=False, color_system=None))
    s.show(0, s.program.legal_moves(s.st))
    assert "· score 0 (lowest wins)" in out.getvalue()
