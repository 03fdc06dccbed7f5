"""Per-game results: `simulate --results FILE` writes one JSON object per game, `record --game G`
plays game G of it again, and `analyze FILE…` gives every number of the run again."""
import json
import os

import pytest

from interpreter.tools.cli import main
from interpreter.tools.playing import game_seed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
R_ECO = os.path.join(ROOT, "rulesets", "r_eco.yaml")
LIXO = os.path.join(ROOT, "rulesets", "lixo.yaml")
MEMO = os.path.join(ROOT, "rulesets", "sorting_memo.yaml")
TIMING = ("seconds", "games_per_second", "timing")


def call(capsys, *args):
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def lines(path) -> list:
    return [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]


@pytest.fixture(scope="module")
def run_file(tmp_path_factory):
    """30 three-player R-Eco games with mixed bots, their results file and simulate's JSON."""
    path = tmp_path_factory.mktemp("results") / "r_eco.jsonl"
    import io
    import contextlib
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["simulate", R_ECO, "--players", "3", "--games", "30", "--seed", "4", "--bots",
                     "greedy,random,random", "--results", str(path), "--track", "--json"]) == 0
    return path, json.loads(out.getvalue())


def test_results_have_one_line_per_game_in_game_order(run_file):
    path, doc = run_file
    found = lines(path)
    assert [r["game"] for r in found] == list(range(30))
    assert all(r["seed"] == game_seed(4, r["game"]) for r in found)


def test_each_line_holds_the_games_result_and_its_measures(run_file):
    path, doc = run_file
    for r in lines(path):
        assert r["bots"] == ["greedy", "random", "random"]
        assert len(r["scores"]) == 3 and r["winners"] and set(r["winners"]) <= {0, 1, 2}
        best = max(r["scores"])
        assert all(r["scores"][k] == best for k in r["winners"])       # winners have the best score
        assert sum(r["decisions"]) == r["moves"]                       # every move is one decision
        assert sum(r["choices"].values()) == r["moves"]
        assert len(r["track"]) >= 1 and r["track"][-1] == r["scores"]  # R-Eco has no bots.eval: the score
        assert r["run"]["players"] == 3 and r["run"]["seed"] == 4


def test_the_results_file_gives_simulates_means_and_win_shares(run_file):
    path, doc = run_file
    found = lines(path)
    for k in range(3):
        mean = sum(r["scores"][k] for r in found) / len(found)
        assert doc["score"]["mean_by_seat"][k] == pytest.approx(mean)
        wins = sum(1 / len(r["winners"]) for r in found if k in r["winners"]) / len(found)
        assert doc["wins_by_seat"][k] == pytest.approx(wins)
    assert doc["turns"]["mean"] == pytest.approx(sum(r["turns"] for r in found) / len(found))


@pytest.mark.parametrize("g", [0, 17])
def test_record_game_g_reproduces_line_g_of_the_results(run_file, capsys, g):
    path, _ = run_file
    line = lines(path)[g]
    code, out, err = call(capsys, "record", R_ECO, "--players", 3, "--seed", 4, "--game", g,
                          "--bots", "greedy,random,random")
    assert code == 0, err
    record = json.loads(out)
    assert record["seed"] == line["seed"]
    assert record["result"]["scores"] == line["scores"] and record["result"]["winners"] == line["winners"]
    assert len(record["moves"]) == line["moves"] and record["result"]["turns"] == line["turns"]


def test_analyze_prints_every_number_simulate_printed(run_file, capsys):
    path, doc = run_file
    code, out, err = call(capsys, "analyze", path, "--json")
    assert code == 0, err
    again = json.loads(out)
    assert {k: v for k, v in again.items() if k not in TIMING} == {k: v for k, v in doc.items() if k not in TIMING}


def test_analyze_pools_the_files_of_one_run_in_game_order(run_file, capsys, tmp_path):
    path, doc = run_file
    text = open(path, encoding="utf-8").read().splitlines(keepends=True)
    (tmp_path / "b.jsonl").write_text("".join(text[:12]), encoding="utf-8")
    (tmp_path / "a.jsonl").write_text("".join(text[12:]), encoding="utf-8")
    code, out, err = call(capsys, "analyze", tmp_path / "a.jsonl", tmp_path / "b.jsonl", "--json")
    assert code == 0, err
    assert json.loads(out)["wins_by_seat"] == doc["wins_by_seat"]


def test_analyze_refuses_a_game_given_twice(run_file, capsys, tmp_path):
    path, _ = run_file
    code, out, err = call(capsys, "analyze", path, path)
    assert code == 1 and "game 0 of this run is already at" in err


@pytest.mark.parametrize("change, field", [
    (lambda r: r.pop("winners"), "winners"),
    (lambda r: r.update(scores=[1, 2]), "scores"),
    (lambda r: r.update(winners=[5]), "winners"),
    (lambda r: r.update(turns="many"), "turns"),
    (lambda r: r.update(track=[[1, 2]]), "track"),
    (lambda r: r["run"].pop("players"), "run"),
])
def test_a_bad_line_is_refused_at_its_line_naming_the_field(run_file, capsys, tmp_path, change, field):
    path, _ = run_file
    found = lines(path)
    change(found[2])
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(r) + "\n" for r in found), encoding="utf-8")
    code, out, err = call(capsys, "analyze", bad)
    assert code == 1 and f"bad.jsonl:3: field '{field}'" in err and "Traceback" not in err


def test_a_line_that_is_not_json_is_refused_at_its_line_and_column(capsys, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": 0,\n', encoding="utf-8")
    code, out, err = call(capsys, "analyze", bad)
    assert code == 1 and "bad.jsonl:1:" in err and "not JSON" in err


def test_analyze_of_a_missing_file_is_a_usage_error(capsys, tmp_path):
    code, out, err = call(capsys, "analyze", tmp_path / "none.jsonl")
    assert code == 2 and "cannot read" in err


def test_games_auto_plays_until_every_win_share_is_known_to_the_precision(capsys):
    code, out, err = call(capsys, "simulate", LIXO, "--players", 2, "--games", "auto", "--precision", 6, "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["games"] % 200 == 0
    for x in doc["intervals"]["wins_by_seat"]:
        lo, hi = x["ci95"]
        assert (hi - lo) / 2 < 0.06
    code, out2, err = call(capsys, "simulate", LIXO, "--players", 2, "--games", doc["games"], "--json")
    assert {k: v for k, v in json.loads(out2).items() if k not in TIMING} == \
        {k: v for k, v in doc.items() if k not in TIMING}            # the same games as a fixed count


def test_games_auto_without_precision_is_a_usage_error(capsys):
    code, out, err = call(capsys, "simulate", LIXO, "--players", 2, "--games", "auto")
    assert code == 2 and "--precision" in err


def test_without_track_the_lines_hold_no_track_and_lead_changes_are_not_measured(capsys, tmp_path):
    path = tmp_path / "r.jsonl"
    code, out, err = call(capsys, "simulate", LIXO, "--players", 2, "--games", 5, "--results", path, "--json")
    assert code == 0, err
    assert all("track" not in r for r in lines(path))
    assert json.loads(out)["metrics"]["lead_changes"] is None


def test_each_line_says_which_rules_ran(run_file):
    path, doc = run_file
    rows = doc["metrics"]["coverage"]
    for r in lines(path):
        assert len(r["coverage"]) == len(r["moved"]) == len(rows)
    for i, row in enumerate(rows):
        assert row["games"] == sum(1 for r in lines(path) if r["coverage"][i] > 0)


def test_the_win_share_intervals_are_wilson_intervals_of_the_results_lines(run_file):
    path, doc = run_file
    found, z = lines(path), 1.959963984540054
    n = len(found)
    for k in range(3):
        p = sum(1 / len(r["winners"]) for r in found if k in r["winners"]) / n      # a tie split k ways
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5
        assert doc["intervals"]["wins_by_seat"][k]["ci95"] == pytest.approx([centre - half, centre + half])


def test_the_turns_interval_is_the_t_interval_of_the_results_lines(run_file):
    path, doc = run_file
    turns = [r["turns"] for r in lines(path)]
    n, mean = len(turns), sum(turns) / len(turns)
    sd = (sum((t - mean) ** 2 for t in turns) / (n - 1)) ** 0.5
    t29 = 2.045229642132703                  # Student's t, 97.5 % quantile, 29 degrees of freedom
    assert doc["intervals"]["turns"]["ci95"] == pytest.approx([mean - t29 * sd / n ** 0.5, mean + t29 * sd / n ** 0.5])


def test_analyze_without_the_ruleset_numbers_the_coverage_points_and_says_why(run_file, capsys, tmp_path):
    path, doc = run_file
    moved = []
    for r in lines(path):
        r["run"]["ruleset"] = str(tmp_path / "gone.yaml")
        moved.append(json.dumps(r))
    (tmp_path / "moved.jsonl").write_text("\n".join(moved) + "\n", encoding="utf-8")
    code, out, err = call(capsys, "analyze", tmp_path / "moved.jsonl", "--json")
    assert code == 0 and "cannot be loaded here: coverage is shown by point number" in err
    rows = json.loads(out)["metrics"]["coverage"]
    assert [row["games"] for row in rows] == [row["games"] for row in doc["metrics"]["coverage"]]
