"""Cooperative games in every report (manual, "Playing together: cooperative"): `simulate`, `analyze`,
`compare` and `sweep`, in text, `--json` and the HTML report, show the table's win rate and the
shared score (with its distribution) instead of per-seat win shares, seat advantage or the lead."""
from __future__ import annotations

import json
import statistics

import pytest

from interpreter.tools.cli import main
from language_helpers import edit, write  # noqa: F401
from test_cooperative import TINY_STACK

# The manual's Tiny Stack with its fuse as a parameter (to compare and sweep variants).
STACK = edit(TINY_STACK, "    vars:\n      fuse: {initial: 2}\n",
             "    params:\n      fuses: 2\n    vars:\n      fuse: {initial: fuses}\n")

# The same game, each seat for itself: the seat that played more cards onto the stack wins.
RACE = edit(edit(STACK, "    cooperative:\n      win: count(stack) == 4\n", ""), "name: Tiny Stack", "name: Race")

LEADING = ("seat_advantage", "closeness", "lead_changes", "decisiveness", "comeback", "skill_gap")


def run_json(capsys, args: list) -> dict:
    assert main(args + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


def results_of(path: str) -> list:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@pytest.fixture
def stack(write):
    return write(STACK, "stack.yaml")


def simulate_args(path: str, games: int = 60, *more: str) -> list:
    return ["simulate", path, "-n", "2", "--games", str(games), "--seed", "3", "--jobs", "1", "--bots", "greedy",
            *more]


# ---- simulate and analyze ----
def test_a_cooperative_runs_json_has_no_seat_advantage_closeness_lead_or_skill_gap(stack, capsys):
    doc = run_json(capsys, simulate_args(stack, 40, "--track"))
    assert [key for key in LEADING if key in doc["metrics"]] == []
    assert {"length", "choice", "coverage", "stats"} <= set(doc["metrics"])


def test_a_cooperative_runs_json_gives_the_shared_scores_spread_and_distribution(stack, capsys, tmp_path):
    results = str(tmp_path / "r.jsonl")
    coop = run_json(capsys, simulate_args(stack, 60, "--results", results))["cooperative"]
    scores = [g["scores"][0] for g in results_of(results)]
    assert coop["score_sd"] == pytest.approx(statistics.pstdev(scores))
    assert {int(lo): n for lo, hi, n in coop["score_histogram"]} == \
        {s: scores.count(s) for s in set(scores)}


def test_the_seat_table_of_a_cooperative_run_shows_each_seats_bot_and_decisions_not_a_win_share(stack, capsys):
    assert main(simulate_args(stack, 30)) == 0
    out = capsys.readouterr().out
    assert "decisions per game" in out and "win share" not in out and "mean score" not in out


def test_the_text_of_a_cooperative_run_shows_the_shared_scores_distribution_and_no_lead(stack, capsys):
    assert main(simulate_args(stack, 30, "--track")) == 0
    out = capsys.readouterr().out
    assert "shared score:\n" in out and "scores (every seat)" not in out
    assert "closeness" not in out and "lead changes" not in out and "skill gap" not in out


def test_games_auto_plays_until_the_tables_win_rate_is_known_to_the_precision(stack, capsys, tmp_path):
    from interpreter.analysis.intervals import wilson
    results = str(tmp_path / "r.jsonl")
    doc = run_json(capsys, ["simulate", stack, "-n", "2", "--games", "auto", "--precision", "3", "--jobs", "1",
                            "--bots", "greedy", "--results", results])
    won = [bool(g["winners"]) for g in sorted(results_of(results), key=lambda g: g["game"])]

    def precise(n, wins):
        lo, hi = wilson(wins, n)
        return (hi - lo) / 2 < 0.03
    # batches of 200 until the table's win rate is known to ±3 points (each seat's half of it would be sooner)
    stops = [n for n in range(200, len(won) + 1, 200) if precise(n, sum(won[:n]))]
    assert stops == [doc["games"]]
    assert any(precise(n, sum(won[:n]) / 2) for n in range(200, doc["games"], 200))


def test_games_auto_stopped_by_max_games_says_the_tables_win_rate_was_not_known_yet(stack, capsys):
    assert main(["simulate", stack, "-n", "2", "--games", "auto", "--precision", "1", "--max-games", "200",
                 "--jobs", "1"]) == 0
    assert "warning: stopped at --max-games 200 before the table's win rate was known to ±1.0%" in \
        capsys.readouterr().err


def test_analyze_reads_a_cooperative_results_file_as_simulate_gave_it(stack, capsys, tmp_path):
    results = str(tmp_path / "r.jsonl")
    simulated = run_json(capsys, simulate_args(stack, 40, "--results", results))
    analysed = run_json(capsys, ["analyze", results])
    assert analysed["cooperative"] == simulated["cooperative"]
    assert [key for key in LEADING if key in analysed["metrics"]] == []


def test_the_report_of_a_cooperative_run_shows_the_table_and_the_shared_score_distribution(stack, capsys, tmp_path):
    report = tmp_path / "r.html"
    assert main(simulate_args(stack, 40, "--track", "--report", str(report))) == 0
    page = report.read_text(encoding="utf-8")
    assert 'id="plot-shared-score"' in page and "the table: win rate and shared score" in page
    for gone in ("seat advantage", "win share", "closeness", "skill gap", "mean score (95 % CI)"):
        assert gone not in page


# ---- compare ----
@pytest.fixture
def compared(stack, capsys, tmp_path):
    a, b = str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")
    for path, fuses in ((a, 2), (b, 3)):
        assert main(simulate_args(stack, 80, "--set", f"fuses={fuses}", "--results", path, "--track")) == 0
    capsys.readouterr()
    return run_json(capsys, ["compare", a, b]), results_of(a), results_of(b)


def test_compare_gives_the_tables_win_rate_as_the_paired_difference_with_its_interval(compared):
    doc, a, b = compared
    d = doc["diff"]["table_wins"]
    won = [[1.0 if g["winners"] else 0.0 for g in games] for games in (a, b)]
    assert d["value"] == pytest.approx(statistics.fmean(y - x for x, y in zip(*won)))
    assert d["ci95"][0] < d["value"] < d["ci95"][1] and d["p"] is not None
    assert d["a"]["value"] == pytest.approx(statistics.fmean(won[0]))
    assert "the table's win rate" in d["verdict"]


def test_compare_gives_the_shared_scores_mean_as_the_paired_difference(compared):
    doc, a, b = compared
    d = doc["diff"]["shared_score"]
    assert d["value"] == pytest.approx(statistics.fmean(y["scores"][0] - x["scores"][0] for x, y in zip(a, b)))
    assert "the shared score" in d["verdict"]


def test_compare_of_cooperative_runs_has_no_seat_win_shares_seat_scores_or_lead(compared):
    doc, _, _ = compared
    assert not [k for k in doc["diff"] if k.startswith(("wins_by_seat", "score_by_seat"))]
    assert not {"margin", "shared_wins", "lead_changes", "decisiveness", "comeback"} & set(doc["diff"])
    assert {"turns", "moves", "choice.mean", "decisions_by_seat.0"} <= set(doc["diff"])


def test_compare_prints_the_tables_win_rate_in_words(stack, capsys):
    assert main(["compare", stack, "--set-b", "fuses=3", "-n", "2", "--games", "60", "--bots", "greedy",
                 "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "B raises the table's win rate by" in out and "seat advantage" not in out


def test_the_compare_report_shows_the_tables_win_rate_and_no_win_share_per_seat(stack, capsys, tmp_path):
    report = tmp_path / "c.html"
    assert main(["compare", stack, "--set-b", "fuses=3", "-n", "2", "--games", "40", "--jobs", "1",
                 "--report", str(report)]) == 0
    page = report.read_text(encoding="utf-8")
    assert "table_wins" in page and "shared_score" in page and "A: the table: win rate and shared score" in page
    assert "win share per seat" not in page and "seat advantage" not in page


def test_a_cooperative_game_compared_with_a_competitive_one_is_a_usage_error(stack, write, capsys):
    race = write(RACE, "race.yaml")
    for a, b, coop, other in ((stack, race, "A", "B"), (race, stack, "B", "A")):
        assert main(["compare", a, b, "-n", "2", "--games", "5", "--jobs", "1"]) == 2
        assert f"error: {coop} is a cooperative game (the table wins or loses together) and {other} is not" \
            in capsys.readouterr().err


def test_results_files_of_a_cooperative_and_a_competitive_run_are_not_compared(stack, write, capsys, tmp_path):
    files = []
    for path, name in ((stack, "a.jsonl"), (write(RACE, "race.yaml"), "b.jsonl")):
        files.append(str(tmp_path / name))
        assert main(simulate_args(path, 10, "--results", files[-1])) == 0
    capsys.readouterr()
    assert main(["compare", *files]) == 2
    assert "A is a cooperative game" in capsys.readouterr().err


# ---- sweep ----
def test_sweep_of_a_cooperative_game_shows_the_tables_win_rate_and_shared_score_per_row(stack, capsys):
    assert main(["sweep", stack, "--vary", "fuses=1..3", "-n", "2", "--games", "40", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "table wins" in out and "shared score" in out and "seat 0 wins" not in out and "margin" not in out
    doc = run_json(capsys, ["sweep", stack, "--vary", "fuses=1..3", "-n", "2", "--games", "40", "--jobs", "1"])
    assert [set(row["diff_from_first"]) >= {"table_wins", "shared_score"} for row in doc["rows"][1:]] == [True, True]
    assert all("cooperative" in row["summary"] for row in doc["rows"])


def test_the_sweep_report_of_a_cooperative_game_plots_the_table_not_the_seats(stack, capsys, tmp_path):
    report = tmp_path / "s.html"
    assert main(["sweep", stack, "--vary", "fuses=1..2", "-n", "2", "--games", "30", "--jobs", "1",
                 "--report", str(report)]) == 0
    page = report.read_text(encoding="utf-8")
    assert "<th>table wins</th>" in page and "<th>shared score</th>" in page
    assert "win share by seat" not in page and "mean score by seat" not in page
