"""Paired comparison of two runs (manual, "Analysing a game": "Comparing two variants"): B − A on
paired games, the pairing check, the verdict in words, and A/A comparisons that find nothing."""
import random

import pytest
from hypothesis import example, given, settings, strategies as st

from interpreter.analysis import compare as C
from interpreter.analysis.intervals import games_needed
from interpreter.errors import UsageError


def game(seed, scores, winners, turns=10, track=None, stats=None, bots=("greedy", "greedy")):
    out = {"game": seed, "seed": seed, "bots": list(bots), "scores": scores, "winners": winners, "turns": turns,
           "moves": 2 * turns, "decisions": [turns, turns], "choices": {"1": 1, "3": turns - 1},
           "stats": stats or {}}
    if track is not None:
        out["track"] = track
    return out


def random_run(rnd, games, shorter=0):
    """A synthetic run: scores and turns drawn at random, seeds 0 … games − 1."""
    out = []
    for i in range(games):
        scores = [rnd.randint(0, 9), rnd.randint(0, 9)]
        winners = [k for k in (0, 1) if scores[k] == max(scores)]
        turns = rnd.randint(15, 25) - shorter
        track = [[rnd.randint(0, 9), rnd.randint(0, 9)] for _ in range(turns - 1)] + [scores]
        out.append(game(i, scores, winners, turns, track, {"left": rnd.randint(0, 3), "clean": rnd.random() < .5,
                                                          "kept": [rnd.randint(0, 2), 1]}))
    return out


def test_b_minus_a_is_the_mean_of_the_per_game_differences_in_turns():
    # turns A 10, 12, 14; B 8, 11, 10: differences -2, -1, -4, mean -7/3
    a = [game(i, [1, 0], [0], turns=t) for i, t in enumerate((10, 12, 14))]
    b = [game(i, [1, 0], [0], turns=t) for i, t in enumerate((8, 11, 10))]
    turns = C.compare(a, b)["diff"]["turns"]
    assert turns["value"] == pytest.approx(-7 / 3) and turns["games"] == 3
    assert turns["a"]["value"] == 12 and turns["b"]["value"] == pytest.approx(29 / 3)


def test_a_seats_win_share_is_compared_as_paired_per_game_win_fractions():
    # seat 0's fractions A: 1, 1/2, 0; B: 0, 0, 0: differences -1, -1/2, 0, mean -1/2
    a = [game(0, [2, 1], [0]), game(1, [2, 2], [0, 1]), game(2, [1, 2], [1])]
    b = [game(0, [1, 2], [1]), game(1, [1, 2], [1]), game(2, [1, 2], [1])]
    seat = C.compare(a, b)["diff"]["wins_by_seat.0"]
    assert seat["value"] == -0.5 and seat["a"]["value"] == 0.5 and seat["b"]["value"] == 0


def test_a_metric_pairs_only_the_games_where_both_runs_give_a_value():
    # decisiveness needs a track: only game 1 has one in both runs
    a = [game(0, [2, 1], [0]), game(1, [2, 1], [0], track=[[0, 1], [2, 1]])]
    b = [game(0, [2, 1], [0], track=[[1, 0], [2, 1]]), game(1, [2, 1], [0], track=[[1, 0], [2, 1]])]
    decisive = C.compare(a, b)["diff"]["decisiveness"]
    assert decisive["games"] == 1 and decisive["value"] == -0.5


def test_runs_with_different_seeds_do_not_pair():
    with pytest.raises(UsageError, match="game 1 has seed 1 in A and 7 in B"):
        C.compare([game(0, [1, 0], [0]), game(1, [1, 0], [0])], [game(0, [1, 0], [0]), game(7, [1, 0], [0])])


def test_runs_with_different_numbers_of_games_do_not_pair():
    with pytest.raises(UsageError, match="A has 2 games and B has 1"):
        C.compare([game(0, [1, 0], [0]), game(1, [1, 0], [0])], [game(0, [1, 0], [0])])


def test_runs_with_different_bots_do_not_pair():
    with pytest.raises(UsageError, match="bots"):
        C.compare([game(0, [1, 0], [0])], [game(0, [1, 0], [0], bots=("random", "greedy"))])


def test_a_detected_difference_is_said_with_its_interval():
    rnd = random.Random(1)
    a = random_run(random.Random(5), 200)
    b = [dict(r, turns=r["turns"] - 3 + rnd.choice((-1, 0, 1))) for r in a]
    turns = C.compare(a, b)["diff"]["turns"]
    lo, hi = sorted(-x for x in turns["ci95"])
    assert turns["verdict"] == (f"B shortens games by {C.decimal(-turns['value'])} turns "
                                f"(95 % CI {C.decimal(lo)} to {C.decimal(hi)}; p < 0.001)")


def test_no_detectable_difference_says_how_many_games_would_detect_the_difference_worth_detecting():
    a, b = random_run(random.Random(1), 100), random_run(random.Random(2), 100)
    seat = C.compare(a, b)["diff"]["wins_by_seat.0"]
    assert seat["p"] >= 0.05 and seat["delta"] == 0.02
    assert seat["verdict"] == (f"no detectable difference in first-seat advantage "
                               f"({C.p_text(seat['p'])}); about {C.about(seat['games_needed'])} games would "
                               f"detect 2 points")


def test_the_games_needed_come_from_the_observed_sd_of_the_paired_differences():
    # turns A 10, 12, 14, 16; B 11, 12, 15, 16: differences 1, 0, 1, 0, sd 0.57735; 1 turn is worth detecting
    a = [game(i, [1, 0], [0], turns=t) for i, t in enumerate((10, 12, 14, 16))]
    b = [game(i, [1, 0], [0], turns=t) for i, t in enumerate((11, 12, 15, 16))]
    turns = C.compare(a, b)["diff"]["turns"]
    assert turns["delta"] == 1 and turns["games_needed"] == games_needed(0.5773502691896257, 1)


@pytest.mark.parametrize("key, delta", [("turns", 1), ("decisiveness", 0.05), ("shared_wins", 0.02),
                                        ("wins_by_seat.1", 0.02), ("choice.forced", 0.02), ("stats.clean", 0.02)])
def test_the_difference_worth_detecting_is_fixed_for_turns_and_shares(key, delta):
    run = random_run(random.Random(3), 30)
    assert C.compare(run, random_run(random.Random(4), 30))["diff"][key]["delta"] == delta


def test_the_difference_worth_detecting_in_other_counts_is_10_percent_of_as_mean():
    # moves A = 2 × turns: mean 2 × 12 = 24, so 2.4 moves
    a = [game(i, [1, 0], [0], turns=t) for i, t in enumerate((10, 12, 14))]
    assert C.compare(a, a)["diff"]["moves"]["delta"] == pytest.approx(2.4)


def test_a_constant_difference_is_said_as_a_change_in_every_game():
    a = [game(i, [1, 0], [0], turns=t) for i, t in enumerate((10, 12, 14))]
    b = [game(i, [1, 0], [0], turns=t + 1) for i, t in enumerate((10, 12, 14))]
    assert C.compare(a, b)["diff"]["turns"]["verdict"] == "B lengthens games by 1 turn in every game"


def test_every_per_game_metric_is_compared_including_each_stat_per_seat():
    run = random_run(random.Random(3), 10)
    keys = set(C.compare(run, run)["diff"])
    assert {"turns", "moves", "margin", "shared_wins", "lead_changes", "decisiveness", "comeback",
            "choice.mean", "choice.forced", "wins_by_seat.0", "wins_by_seat.1", "score_by_seat.0",
            "decisions_by_seat.1", "stats.left", "stats.clean", "stats.kept.0", "stats.kept.1"} <= keys


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=2, max_value=40))
@example(214, 2)                                 # two games, neither with a lead to come back from
def test_identical_runs_differ_by_exactly_0_with_no_detectable_difference(seed, games):
    run = random_run(random.Random(seed), games)
    for key, diff in C.compare(run, [dict(r) for r in run])["diff"].items():
        if diff["games"] == 0:                   # a metric no game measured (a comeback without a lead)
            assert diff["value"] is None and "not measured" in diff["verdict"], key
            continue
        assert diff["value"] == 0 and not diff["verdict"].startswith("B "), key
        if diff["games"] >= 2:                   # one paired game has no interval at all
            assert diff["ci95"] == [0, 0] and diff["p"] == 1.0, key
            assert diff["verdict"].startswith("no difference"), key


def test_an_a_a_comparison_of_independent_runs_flags_a_difference_about_5_percent_of_the_time():
    # two independent runs of the same random game: 200 comparisons of 60 games, each on three
    # metrics that are independent here (turns, the first seat's score, a per-game stat)
    rnd, flagged, tests = random.Random(2024), 0, 0
    for _ in range(200):
        diff = C.compare(random_run(rnd, 60), random_run(rnd, 60))["diff"]
        for key in ("turns", "score_by_seat.0", "stats.left"):
            flagged += diff[key]["p"] < 0.05
            tests += 1
    # 600 tests at 5 %: 30 ± 2 × 5.3
    assert 0.03 < flagged / tests < 0.075


def test_verdict_numbers_are_rounded_for_a_designer():
    assert C.about(4873) == "4,900" and C.about(57) == "57" and C.about(100_001) == "110,000"
    assert C.p_text(0.41) == "p = 0.41" and C.p_text(0.0004) == "p < 0.001"
