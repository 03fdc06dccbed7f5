"""Balance metrics (manual, "Analysing a game"), one test per definition, on tiny hand-made records
whose answers are worked out in the comments."""
import json

import pytest

from interpreter.analysis import metrics, pergame
from interpreter.analysis.intervals import chi2_sf, wilson


def game(scores, winners, turns=10, moves=20, track=None, choices=None, decisions=None, stats=None,
         bots=("greedy", "greedy"), seed=0):
    """A per-game record in the format of `simulate --results` (only the fields a test needs)."""
    out = {"game": 0, "seed": seed, "bots": list(bots), "scores": scores, "winners": winners, "turns": turns,
           "moves": moves, "decisions": decisions or [1] * len(scores), "choices": choices or {"2": 1},
           "stats": stats or {}}
    if track is not None:
        out["track"] = track
    return out


def summary(records, players=2, bots=("greedy", "greedy")):
    return metrics.summarise(records, players, list(bots))


# --- seat advantage -----------------------------------------------------------------------------

def test_a_tie_among_k_seats_gives_each_1_over_k_of_the_win():
    assert pergame.win_fractions(game([5, 5, 5, 1], [0, 1, 2]), 4) == [1 / 3, 1 / 3, 1 / 3, 0]


def test_win_share_by_seat_is_the_seats_fractional_wins_over_the_games_with_wilson():
    # seat 0 wins game 1 alone and shares game 2: 1.5 of 3 games; seat 1: 0.5 + 1 = 1.5 of 3
    records = [game([3, 1], [0]), game([2, 2], [0, 1]), game([0, 4], [1])]
    by_seat = summary(records)["metrics"]["seat_advantage"]["by_seat"]
    assert by_seat[0] == {"value": 0.5, "ci95": list(wilson(1.5, 3))}
    assert by_seat[1]["value"] == 0.5


def test_the_fair_share_is_1_over_p():
    assert summary([game([1, 0, 0], [0])], players=3)["metrics"]["seat_advantage"]["fair_share"] == 1 / 3


def test_the_chi_square_compares_fractional_wins_with_games_over_p_each():
    # 10 games, seat 0 wins 8, seat 1 wins 2: expected 5 each, chi2 = 9/5 + 9/5 = 3.6, df 1, p = 0.0578
    records = [game([1, 0], [0])] * 8 + [game([0, 1], [1])] * 2
    seats = summary(records)["metrics"]["seat_advantage"]
    assert seats["chi2"] == pytest.approx(3.6) and seats["df"] == 1
    assert seats["p"] == pytest.approx(chi2_sf(3.6, 1)) == pytest.approx(0.05778, abs=1e-5)


def test_seats_are_distinguishable_when_p_is_below_5_percent():
    # 20 games, 16 to 4: chi2 = 36/10 + 36/10 = 7.2, p = 0.0073
    records = [game([1, 0], [0])] * 16 + [game([0, 1], [1])] * 4
    seats = summary(records)["metrics"]["seat_advantage"]
    assert seats["distinguishable"] is True
    assert seats["verdict"].startswith("the seats differ: seat 0 wins 80.0 %")


def test_a_line_says_when_the_seats_cannot_be_told_apart_at_this_sample_size():
    records = [game([1, 0], [0])] * 8 + [game([0, 1], [1])] * 2        # p = 0.058, as above
    seats = summary(records)["metrics"]["seat_advantage"]
    assert seats["distinguishable"] is False
    assert seats["verdict"].startswith("the seats cannot be told apart at this sample size")


def test_one_seat_has_no_chi_square():
    seats = summary([game([3], [0])], players=1)["metrics"]["seat_advantage"]
    assert seats["chi2"] is None and seats["p"] is None and not seats["distinguishable"]


# --- game length --------------------------------------------------------------------------------

def test_game_length_gives_mean_median_and_histogram_of_turns():
    # turns 4, 6, 8: mean 6, median 6; 3 games give ceil(log2 3) + 1 = 3 bins of width ceil(5/3) = 2
    records = [game([1, 0], [0], turns=t) for t in (4, 6, 8)]
    turns = summary(records)["metrics"]["length"]["turns"]
    assert turns["mean"]["value"] == 6 and turns["median"]["value"] == 6
    assert turns["histogram"] == [[4, 6, 1], [6, 8, 1], [8, 10, 1]]


def test_a_histogram_bin_holds_lo_up_to_but_not_including_hi():
    assert metrics.histogram([1, 2, 2, 3]) == [[1, 2, 1], [2, 3, 2], [3, 4, 1]]


def test_a_histogram_has_at_most_20_bins():
    assert len(metrics.histogram(list(range(10_000)))) <= 20


def test_a_histogram_of_fractional_values_closes_its_last_bin_on_the_largest():
    # 2 values: 2 bins of width 0.25 from 0.5; 1.0 falls in the last bin
    assert metrics.histogram([0.5, 1.0]) == [[0.5, 0.75, 1], [0.75, 1.0, 1]]


def test_the_seats_score_histograms_share_their_bins():
    # scores 1 and 3 for seat 0, 2 and 2 for seat 1: the pooled bins are [1,2) [2,3) [3,4)
    records = [game([1, 2], [1]), game([3, 2], [0])]
    assert summary(records)["score_histogram"] == [[[1, 2, 1], [2, 3, 0], [3, 4, 1]],
                                                   [[1, 2, 0], [2, 3, 2], [3, 4, 0]]]


def test_decisions_per_seat_is_the_mean_over_games():
    records = [game([1, 0], [0], decisions=[4, 2]), game([1, 0], [0], decisions=[6, 2])]
    by_seat = summary(records)["metrics"]["length"]["decisions_by_seat"]
    assert by_seat[0]["value"] == 5
    assert by_seat[1] == {"value": 2, "ci95": [2, 2], "note": "every game gave the same value: the interval has width 0"}


# --- closeness ----------------------------------------------------------------------------------

def test_the_margin_is_the_winners_score_minus_the_best_non_winner():
    assert pergame.margin(game([10, 7, 9], [0])) == 1


def test_the_margin_is_0_when_every_seat_wins():
    assert pergame.margin(game([5, 5], [0, 1])) == 0


def test_the_margin_is_0_when_a_tie_break_decides():
    assert pergame.margin(game([5, 5], [1])) == 0


def test_the_share_of_shared_wins_uses_wilson():
    records = [game([5, 5], [0, 1]), game([5, 1], [0]), game([1, 5], [1]), game([1, 5], [1])]
    shared = summary(records)["metrics"]["closeness"]["shared_wins"]
    assert shared == {"value": 0.25, "ci95": list(wilson(1, 4))}


# --- lead changes and decisiveness --------------------------------------------------------------

def test_the_leader_is_the_seat_with_the_unique_top_score():
    assert pergame.leader([3, 5, 1]) == 1


def test_a_tie_at_the_top_has_no_leader():
    assert pergame.leader([5, 5, 1]) is None


def test_a_lead_change_is_counted_each_time_the_unique_leader_differs_from_the_previous_one():
    # leaders 0, 1, 1, 0: two changes
    assert pergame.lead_changes(game([4, 3], [0], track=[[1, 0], [1, 2], [1, 3], [4, 3]])) == 2


def test_a_tie_at_the_top_between_two_leads_by_the_same_seat_is_no_lead_change():
    # leaders 0, none, 0: no change
    assert pergame.lead_changes(game([3, 1], [0], track=[[1, 0], [1, 1], [3, 1]])) == 0


def test_decisiveness_is_the_share_of_turns_before_the_final_winner_leads_for_good():
    # 4 turns; seat 0 wins and leads at the ends of turns 3 and 4, not 2: it leads for good from
    # turn 3, so 2 of 4 turns had passed: 0.5
    assert pergame.decisiveness(game([5, 3], [0], track=[[1, 0], [1, 2], [3, 2], [5, 3]])) == 0.5


def test_a_winner_leading_from_the_first_turn_has_decisiveness_0():
    assert pergame.decisiveness(game([5, 3], [0], track=[[1, 0], [2, 1], [5, 3]])) == 0


def test_a_winner_who_never_leads_alone_at_the_end_has_decisiveness_1():
    # a tie-break win on equal scores: the track's last entry has no unique leader
    assert pergame.decisiveness(game([5, 5], [1], track=[[1, 0], [5, 5]])) == 1


def test_a_shared_win_leads_for_good_once_exactly_the_winners_share_the_top():
    # winners {0, 1}; the top is {0} at turn 1, {0, 1} at turns 2 and 3: settled from turn 2, 1 of 3 turns
    assert pergame.decisiveness(game([4, 4, 1], [0, 1], track=[[2, 1, 0], [3, 3, 1], [4, 4, 1]])) == 1 / 3


def test_lead_changes_and_decisiveness_are_means_over_games_with_a_track():
    records = [game([4, 3], [0], track=[[1, 0], [1, 2], [1, 3], [4, 3]]),   # 2 changes, settled turn 4: 3/4
               game([5, 3], [0], track=[[1, 0], [2, 1], [5, 3]])]           # 0 changes, 0
    out = summary(records)["metrics"]
    assert out["lead_changes"]["value"] == 1 and out["lead_changes"]["games"] == 2
    assert out["decisiveness"]["value"] == pytest.approx(3 / 8)


def test_without_a_track_lead_changes_decisiveness_and_comeback_are_not_measured_never_zero():
    out = summary([game([1, 0], [0]), game([0, 1], [1])])["metrics"]
    assert out["lead_changes"] is None and out["decisiveness"] is None and out["comeback"] is None


# --- comeback -----------------------------------------------------------------------------------

def test_half_time_is_turn_ceil_t_over_2_of_the_track():
    # 3 turns: half-time is turn 2, where seat 1 is uniquely last
    assert pergame.half_time_last(game([1, 5], [1], track=[[0, 1], [3, 1], [1, 5]])) == 1


def test_a_tie_for_last_at_half_time_has_no_last_seat():
    assert pergame.half_time_last(game([1, 5], [1], track=[[1, 1], [1, 5]])) is None


def test_the_comeback_rate_is_the_share_of_games_won_by_the_seat_last_at_half_time():
    records = [game([1, 5], [1], track=[[0, 1], [3, 1], [1, 5]]),   # seat 1 last at turn 2, wins: 1
               game([5, 5], [0, 1], track=[[2, 1], [5, 5]]),        # seat 1 last at turn 1, shares the win: 1/2
               game([5, 1], [0], track=[[2, 1], [5, 1]]),           # seat 1 last, loses: 0
               game([5, 1], [0], track=[[1, 1], [5, 1]])]           # a tie for last: not counted
    comeback = summary(records)["metrics"]["comeback"]
    assert comeback == {"value": 0.5, "ci95": list(wilson(1.5, 3)), "games": 3}


# --- choice -------------------------------------------------------------------------------------

def test_legal_moves_per_decision_is_the_mean_over_all_decisions():
    # game 1: 2 decisions with 1 move, 2 with 3 (8 moves over 4); game 2: 4 decisions with 2 (8 over 4)
    records = [game([1, 0], [0], choices={"1": 2, "3": 2}), game([1, 0], [0], choices={"2": 4})]
    choice = summary(records)["metrics"]["choice"]
    assert choice["mean"]["value"] == 2
    assert choice["histogram"] == {"1": 2, "2": 4, "3": 2}


def test_the_interval_on_legal_moves_per_decision_is_a_ratio_estimator_over_games():
    # y = moves, x = decisions per game: (8, 4), (8, 4) give R = 2 and residuals 0; (9, 3), (6, 3):
    # R = 15/6 = 2.5, residuals 1.5, -1.5; s² = 4.5, se = √(4.5/2)/3 = 0.5, t(0.975, 1) = 12.706
    records = [game([1, 0], [0], choices={"3": 3}), game([1, 0], [0], choices={"2": 3})]
    mean = summary(records)["metrics"]["choice"]["mean"]
    assert mean["value"] == 2.5
    assert mean["ci95"] == [pytest.approx(2.5 - 12.7062047 * 0.5), pytest.approx(2.5 + 12.7062047 * 0.5)]


def test_a_forced_decision_is_one_with_a_single_legal_move():
    # 2 of 4 decisions and 0 of 4: 2/8 forced
    records = [game([1, 0], [0], choices={"1": 2, "3": 2}), game([1, 0], [0], choices={"2": 4})]
    forced = summary(records)["metrics"]["choice"]["forced"]
    assert forced["value"] == 0.25 and 0 <= forced["ci95"][0] <= 0.25 <= forced["ci95"][1] <= 1


# --- skill gap ----------------------------------------------------------------------------------

def test_the_skill_gap_is_each_bots_share_of_each_games_win_against_its_seats_over_p():
    bots = ("greedy", "random", "random")
    records = [game([5, 1, 1], [0], bots=bots), game([5, 5, 1], [0, 1], bots=bots),
               game([1, 5, 1], [1], bots=bots), game([1, 1, 5], [2], bots=bots)]
    # greedy (seat 0) takes 1 + 1/2 + 0 + 0 = 1.5 of 4 games; random (seats 1, 2) 0 + 1/2 + 1 + 1 = 2.5
    gap = summary(records, players=3, bots=bots)["metrics"]["skill_gap"]
    assert gap[0] == {"bot": "greedy", "seats": 1, "fair_share": 1 / 3,
                      "share": {"value": 0.375, "ci95": list(wilson(1.5, 4))}}
    assert gap[1]["bot"] == "random" and gap[1]["seats"] == 2 and gap[1]["share"]["value"] == 0.625


def test_there_is_no_skill_gap_when_every_seat_has_the_same_bot():
    assert summary([game([1, 0], [0])])["metrics"]["skill_gap"] is None


# --- designer stats -----------------------------------------------------------------------------

def test_a_per_seat_stat_is_a_mean_per_seat_with_an_interval():
    records = [game([1, 0], [0], stats={"disposed": [2, 0]}), game([1, 0], [0], stats={"disposed": [4, 0]})]
    stat = summary(records)["metrics"]["stats"]["disposed"]
    assert stat["per_seat"] is True and stat["by_seat"][0]["value"] == 3 and stat["by_seat"][1]["value"] == 0


def test_a_per_game_stat_is_a_mean_over_games():
    records = [game([1, 0], [0], stats={"left": 2}), game([1, 0], [0], stats={"left": 5})]
    stat = summary(records)["metrics"]["stats"]["left"]
    assert stat["per_seat"] is False and stat["all"]["value"] == 3.5


def test_a_yes_no_stat_is_a_share_with_wilson():
    records = [game([1, 0], [0], stats={"clean": True}), game([1, 0], [0], stats={"clean": False})] * 2
    assert summary(records)["metrics"]["stats"]["clean"]["all"] == {"value": 0.5, "ci95": list(wilson(2, 4))}


# --- the summary's form -------------------------------------------------------------------------

def test_intervals_give_win_share_score_turns_and_moves_with_their_intervals():
    records = [game([3, 1], [0], turns=5, moves=9), game([1, 3], [1], turns=7, moves=11)]
    out = summary(records)["intervals"]
    assert [w["value"] for w in out["wins_by_seat"]] == [0.5, 0.5]
    assert out["score_by_seat"][0]["value"] == 2 and out["turns"]["value"] == 6 and out["moves"]["value"] == 10


def test_every_number_is_json_ready_with_null_for_undefined():
    out = summary([game([1, 0], [0], track=[[1, 0]])])      # one game: no intervals anywhere
    text = json.dumps(out, allow_nan=False)
    assert '"ci95": [null, null]' in text


def test_one_game_says_it_has_no_interval():
    out = summary([game([1, 0], [0])])["intervals"]["turns"]
    assert out == {"value": 10, "ci95": [None, None], "note": "one game: no interval"}


def test_coverage_is_left_to_the_coverage_module_and_null_without_points():
    out = summary([game([1, 0], [0])])["metrics"]
    assert out["coverage"] is None and out["coverage_warnings"] is None
