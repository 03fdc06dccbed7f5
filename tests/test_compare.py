"""`compare` plays two variants on the same games (common random numbers) and prints B − A with
intervals and verdicts; `sweep` plays one row per value on the same games."""
import json
import os

import pytest

from interpreter.tools.cli import main
from interpreter.tools.playing import game_seed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
R_ECO = os.path.join(ROOT, "rulesets", "r_eco.yaml")
LIXO = os.path.join(ROOT, "rulesets", "lixo.yaml")


def call(capsys, *args):
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def compare_json(capsys, *args):
    code, out, err = call(capsys, "compare", *args, "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.fixture(scope="module")
def tighter_hand(tmp_path_factory):
    """R-Eco, 3 players, 120 paired games: A as written (hand limit 5), B with a hand limit of 3."""
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["compare", R_ECO, "--set-b", "hand_limit=3", "--players", "3", "--games", "120",
                     "--seed", "5", "--json"]) == 0
    return json.loads(out.getvalue())


def test_comparing_a_ruleset_with_itself_shows_no_difference(capsys):
    doc = compare_json(capsys, LIXO, "--players", 3, "--games", 40, "--seed", 2)
    assert doc["diff"]
    for metric, d in doc["diff"].items():
        assert d["value"] in (0, None), metric
        assert "B raises" not in d["verdict"] and "B lowers" not in d["verdict"], d["verdict"]


def test_the_json_has_both_runs_and_every_difference_with_interval_and_p(tighter_hand):
    assert tighter_hand["a"]["overrides"] == {} and tighter_hand["b"]["overrides"] == {"hand_limit": 3}
    assert tighter_hand["a"]["games"] == tighter_hand["b"]["games"] == 120
    turns = tighter_hand["diff"]["turns"]
    assert set(turns) >= {"value", "ci95", "p", "verdict"}
    lo, hi = turns["ci95"]
    assert lo <= turns["value"] <= hi and 0 <= turns["p"] <= 1


def test_a_tighter_hand_limit_means_more_disposals(tighter_hand):
    # the rule sheet: more cards than the hand limit after collecting must be disposed of
    for k in range(3):
        d = tighter_hand["diff"][f"stats.disposed.{k}"]
        assert d["ci95"][0] > 0 and d["p"] < 0.05
        assert d["verdict"].startswith("B raises")


def test_the_difference_is_the_mean_of_the_paired_differences(tighter_hand):
    a, b = tighter_hand["a"], tighter_hand["b"]
    assert tighter_hand["diff"]["turns"]["value"] == pytest.approx(b["turns"]["mean"] - a["turns"]["mean"])


def test_both_variants_play_the_same_deals(capsys, tmp_path):
    code, out, err = call(capsys, "compare", R_ECO, R_ECO, "--players", 2, "--games", 5, "--seed", 3,
                          "--set-b", "hand_limit=6", "--json")
    assert code == 0, err
    doc = json.loads(out)
    # A's games are simulate's games of the same seed: the pairing is by deal seed, game by game
    code, out, err = call(capsys, "simulate", R_ECO, "--players", 2, "--games", 5, "--seed", 3, "--json")
    assert json.loads(out)["wins_by_seat"] == doc["a"]["wins_by_seat"]


def test_rotate_plays_every_deal_once_in_every_seat_rotation(capsys):
    doc = compare_json(capsys, R_ECO, "--set-b", "hand_limit=4", "--players", 3, "--games", 4, "--seed", 1,
                       "--bots", "greedy,random,random", "--rotate")
    assert doc["rotate"] and doc["a"]["games"] == 12
    gap = {g["bot"]: g for g in doc["a"]["metrics"]["skill_gap"]}
    assert gap["greedy"]["seats"] == 1


def test_compare_prints_a_verdict_in_words(capsys):
    code, out, err = call(capsys, "compare", R_ECO, "--set-b", "hand_limit=3", "--players", 2, "--games", 60,
                          "--seed", 1)
    assert code == 0, err
    assert "B − A" in out and "B raises stat disposed of the first seat" in out


def test_a_bad_set_b_is_reported_at_the_option(capsys):
    code, out, err = call(capsys, "compare", R_ECO, "--set-b", "hand_limt=3", "--players", 2, "--games", 5)
    assert code == 1 and "hand_limt" in err and "Traceback" not in err


def test_sweep_plays_one_row_per_value_on_the_same_games(capsys):
    code, out, err = call(capsys, "sweep", R_ECO, "--vary", "hand_limit=3..5", "--players", 2, "--games", 30,
                          "--seed", 4, "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert [row["values"] for row in doc["rows"]] == [{"hand_limit": v} for v in (3, 4, 5)]
    disposed = [row["summary"]["metrics"]["stats"]["disposed"]["by_seat"][0]["value"] for row in doc["rows"]]
    assert disposed[0] > disposed[2]           # a lower hand limit disposes more
    assert "diff_from_first" in doc["rows"][1] and "diff_from_first" not in doc["rows"][0]


def test_several_vary_options_make_a_grid(capsys):
    code, out, err = call(capsys, "sweep", R_ECO, "--vary", "hand_limit=4,6", "--vary", "threshold=3,4",
                          "--players", 2, "--games", 3, "--json")
    assert code == 0, err
    assert [r["values"] for r in json.loads(out)["rows"]] == [
        {"hand_limit": 4, "threshold": 3}, {"hand_limit": 4, "threshold": 4},
        {"hand_limit": 6, "threshold": 3}, {"hand_limit": 6, "threshold": 4}]


def test_sweep_varies_one_row_of_a_player_count_table(capsys):
    code, out, err = call(capsys, "sweep", R_ECO, "--vary", "reward_order.2=[0,1,2,-2,4,5],[5,4,-2,2,1,0]",
                          "--players", 2, "--games", 3, "--json")
    assert code == 0, err
    rows = json.loads(out)["rows"]
    assert [r["values"]["reward_order.2"] for r in rows] == [[0, 1, 2, -2, 4, 5], [5, 4, -2, 2, 1, 0]]


@pytest.mark.parametrize("vary", ["hand_limit", "hand_limit=", "hand_limit=5..2"])
def test_a_bad_vary_is_a_usage_error(capsys, vary):
    code, out, err = call(capsys, "sweep", R_ECO, "--vary", vary, "--players", 2, "--games", 3)
    assert code == 2


def test_compare_progress_counts_the_games_of_both_variants(capsys):
    code, out, err = call(capsys, "compare", R_ECO, "--players", 2, "--games", 10, "--json", "--progress")
    assert code == 0 and json.loads(out)["a"]["games"] == 10
    assert err.splitlines()[-1].startswith("compare: 20/20 games")


def test_two_results_files_of_runs_with_the_same_seed_are_compared_game_by_game(capsys, tmp_path):
    for name, sets in (("a", []), ("b", ["--set", "hand_limit=3"])):
        code, _, err = call(capsys, "simulate", R_ECO, "--players", 2, "--games", 30, "--seed", 8, *sets,
                            "--results", tmp_path / f"{name}.jsonl")
        assert code == 0, err
    from_files = compare_json(capsys, tmp_path / "a.jsonl", tmp_path / "b.jsonl")
    played = compare_json(capsys, R_ECO, "--set-b", "hand_limit=3", "--players", 2, "--games", 30, "--seed", 8,
                          "--no-track")
    assert from_files["diff"]["turns"] == played["diff"]["turns"]
    assert from_files["diff"]["stats.disposed.0"] == played["diff"]["stats.disposed.0"]


def test_results_files_that_do_not_pair_are_refused(capsys, tmp_path):
    for name, seed in (("a", 1), ("b", 2)):
        assert call(capsys, "simulate", R_ECO, "--players", 2, "--games", 3, "--seed", seed,
                    "--results", tmp_path / f"{name}.jsonl")[0] == 0
    code, out, err = call(capsys, "compare", tmp_path / "a.jsonl", tmp_path / "b.jsonl")
    assert code == 2 and "do not pair" in err
