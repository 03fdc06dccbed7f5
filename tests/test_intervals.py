"""Intervals and tests (manual, "Analysing a game": "Which interval each number uses"), checked by hand
on small lists and against scipy.stats on many values."""
import math
import random
import statistics

import pytest
from hypothesis import given, settings, strategies as st
from scipy import special, stats as sp

from interpreter.analysis.intervals import (betainc, chi2_sf, games_needed, mean_ci, median_ci, median_coverage,
                                            median_rank, normal_quantile, paired_diff, t_quantile, unpaired_diff,
                                            wilson)

probabilities = st.floats(min_value=1e-6, max_value=1 - 1e-6)
dfs = st.one_of(st.integers(min_value=1, max_value=2000), st.floats(min_value=1.0, max_value=500.0))
numbers = st.floats(min_value=-1e3, max_value=1e3, allow_subnormal=False)
samples = st.lists(numbers, min_size=2, max_size=40)


# --- t, chi-square, normal against scipy -------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(probabilities, dfs)
def test_t_quantile_matches_scipy_to_1e_6_for_df_from_1(p, df):
    expected = sp.t.ppf(p, df)
    assert t_quantile(p, df) == pytest.approx(expected, rel=1e-6, abs=1e-6)


@pytest.mark.parametrize("df, expected", [(1, 12.7062047), (2, 4.3026527), (10, 2.2281389), (30, 2.0422725)])
def test_t_quantile_gives_the_table_values_of_97_5_percent(df, expected):
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-6)


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=0, max_value=500), st.one_of(st.integers(min_value=1, max_value=200),
                                                        st.floats(min_value=0.5, max_value=100)))
def test_chi2_sf_matches_scipy(x, df):
    assert chi2_sf(x, df) == pytest.approx(sp.chi2.sf(x, df), rel=1e-8, abs=1e-12)


def test_chi2_sf_of_3_84_with_one_degree_of_freedom_is_5_percent():
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, abs=1e-12)


@given(probabilities)
def test_normal_quantile_matches_scipy(p):
    assert normal_quantile(p) == pytest.approx(sp.norm.ppf(p), rel=1e-9, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(st.floats(min_value=0.1, max_value=200), st.floats(min_value=0.1, max_value=200), st.floats(0, 1))
def test_the_incomplete_beta_function_matches_scipy(a, b, x):
    assert betainc(a, b, x) == pytest.approx(special.betainc(a, b, x), rel=1e-8, abs=1e-12)


# --- Wilson score interval, ties split ----------------------------------------------------------

def test_wilson_of_5_wins_in_10_games_is_0_237_to_0_763():
    # centre (0.5 + 1.96²/20) / (1 + 1.96²/10) = 0.5; half 1.96/1.38415 × √(0.025 + 0.0096) = 0.2634
    lo, hi = wilson(5, 10)
    assert (lo, hi) == (pytest.approx(0.23659, abs=1e-5), pytest.approx(0.76341, abs=1e-5))


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=1, max_value=5000), st.data())
def test_wilson_matches_scipy_on_whole_wins(n, data):
    k = data.draw(st.integers(min_value=0, max_value=n))
    ci = sp.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert wilson(k, n) == (pytest.approx(ci.low, abs=1e-9), pytest.approx(ci.high, abs=1e-9))


def test_wilson_counts_a_tie_as_the_shared_fraction():
    # 3 games: one won alone (1), one shared two ways (1/2), one lost (0): 1.5 successes of 3
    lo, hi = wilson(1 + 1 / 2, 3)
    z = 1.959963984540054
    centre = (0.5 + z * z / 6) / (1 + z * z / 3)
    half = z / (1 + z * z / 3) * math.sqrt(0.25 / 3 + z * z / 36)
    assert (lo, hi) == (pytest.approx(centre - half), pytest.approx(centre + half))


def test_wilson_with_no_games_is_undefined():
    assert wilson(0, 0) == (None, None)


@given(st.integers(min_value=1, max_value=2000), st.floats(0, 1))
def test_wilson_contains_the_share_and_widens_with_fewer_games(n, share):
    lo, hi = wilson(share * n, n)
    lo2, hi2 = wilson(share * 4 * n, 4 * n)
    assert lo <= share * n / n <= hi
    assert hi - lo >= hi2 - lo2


# --- the mean: Student t ------------------------------------------------------------------------

def test_mean_ci_of_1_2_3_is_2_plus_or_minus_2_48():
    # sd 1, se 1/√3, t(0.975, 2) = 4.302653: half-width 2.484138
    mean, lo, hi = mean_ci([1, 2, 3])
    assert (mean, lo, hi) == (2, pytest.approx(2 - 2.484138, abs=1e-6), pytest.approx(2 + 2.484138, abs=1e-6))


@settings(max_examples=200, deadline=None)
@given(samples)
def test_mean_ci_matches_scipy(values):
    mean, lo, hi = mean_ci(values)
    if statistics.stdev(values) < 1e-6:         # scipy loses precision on (nearly) equal values
        return
    elo, ehi = sp.t.interval(0.95, len(values) - 1, loc=statistics.fmean(values), scale=sp.sem(values))
    assert (lo, hi) == (pytest.approx(elo, rel=1e-6, abs=1e-6), pytest.approx(ehi, rel=1e-6, abs=1e-6))


def test_mean_ci_of_one_value_has_no_interval():
    assert mean_ci([4]) == (4, None, None)


def test_mean_ci_of_equal_values_has_width_0():
    assert mean_ci([7, 7, 7]) == (7, 7, 7)


def test_mean_ci_of_no_values_is_undefined():
    assert mean_ci([]) == (None, None, None)


@given(samples)
def test_mean_ci_contains_the_mean(values):
    mean, lo, hi = mean_ci(values)
    assert lo <= mean <= hi


def test_mean_ci_widens_with_fewer_games():
    values = [1, 5, 2, 8, 3, 4, 9, 1]
    _, lo, hi = mean_ci(values)
    _, lo2, hi2 = mean_ci(values * 4)
    assert hi - lo > hi2 - lo2


# --- the median: order statistics ---------------------------------------------------------------

def test_median_ci_of_100_values_runs_from_the_40th_to_the_61st():
    # the largest k with 2 P(Bin(100, 1/2) <= k - 1) <= 5 % is 40: x(40) to x(61)
    values = list(range(1, 101))
    assert median_ci(values) == (50.5, 40, 61)


@pytest.mark.parametrize("n", [6, 7, 10, 25, 99, 100, 1000, 4001])
def test_median_rank_is_the_largest_rank_with_95_percent_coverage(n):
    k = median_rank(n)
    assert 2 * sp.binom.cdf(k - 1, n, 0.5) <= 0.05 < 2 * sp.binom.cdf(k, n, 0.5)
    assert median_coverage(n) == pytest.approx(1 - 2 * sp.binom.cdf(k - 1, n, 0.5))


def test_median_ci_of_fewer_than_6_values_is_smallest_to_largest_with_less_coverage():
    # with 5 values, smallest to largest misses the median when all 5 fall on one side: 2/32
    assert median_ci([3, 1, 2, 5, 4]) == (3, 1, 5)
    assert median_coverage(5) == pytest.approx(1 - 2 / 32)


def test_median_ci_of_one_value_has_no_interval():
    assert median_ci([4]) == (4, None, None)


def test_median_ci_of_no_values_is_undefined():
    assert median_ci([]) == (None, None, None)


@given(samples)
def test_median_ci_contains_the_median(values):
    median, lo, hi = median_ci(values)
    assert lo <= median <= hi


# --- differences --------------------------------------------------------------------------------

def test_paired_diff_is_the_mean_of_the_per_game_differences():
    # differences 1, 2, 3: mean 2, sd 1, t = 2 / (1/√3) = 3.4641 with 2 df
    out = paired_diff([0, 0, 0], [1, 2, 3])
    assert out["value"] == 2
    assert out["ci95"] == [pytest.approx(2 - 2.484138, abs=1e-6), pytest.approx(2 + 2.484138, abs=1e-6)]
    assert out["p"] == pytest.approx(sp.t.sf(2 * math.sqrt(3), 2) * 2)


@settings(max_examples=200, deadline=None)
@given(samples, st.data())
def test_paired_diff_matches_scipy(a, data):
    b = data.draw(st.lists(numbers, min_size=len(a), max_size=len(a)))
    out = paired_diff(a, b)
    if statistics.stdev([y - x for x, y in zip(a, b)]) < 1e-6:
        return
    expected = sp.ttest_rel(b, a)
    assert out["p"] == pytest.approx(expected.pvalue, rel=1e-6, abs=1e-9)
    ci = expected.confidence_interval(0.95)
    assert out["ci95"] == [pytest.approx(ci.low, rel=1e-6, abs=1e-6), pytest.approx(ci.high, rel=1e-6, abs=1e-6)]


@settings(max_examples=200, deadline=None)
@given(samples, samples)
def test_unpaired_diff_matches_scipy_welch(a, b):
    if statistics.variance(a) + statistics.variance(b) < 1e-6:
        return
    out = unpaired_diff(a, b)
    expected = sp.ttest_ind(b, a, equal_var=False)
    assert out["p"] == pytest.approx(expected.pvalue, rel=1e-6, abs=1e-9)
    ci = expected.confidence_interval(0.95)
    assert out["ci95"] == [pytest.approx(ci.low, rel=1e-6, abs=1e-6), pytest.approx(ci.high, rel=1e-6, abs=1e-6)]


@given(samples)
def test_a_paired_diff_of_a_list_with_itself_is_exactly_zero(values):
    assert paired_diff(values, values) == {"value": 0, "ci95": [0, 0], "p": 1.0}


def test_paired_diff_of_a_constant_change_has_width_0_and_p_0():
    assert paired_diff([1, 2, 3], [3, 4, 5]) == {"value": 2, "ci95": [2, 2], "p": 0.0}


def test_paired_diff_of_one_game_has_no_interval():
    assert paired_diff([1], [4]) == {"value": 3, "ci95": [None, None], "p": None}


def test_paired_diff_of_no_games_is_undefined():
    assert paired_diff([], []) == {"value": None, "ci95": [None, None], "p": None}


def test_unpaired_diff_needs_two_values_on_each_side_for_an_interval():
    assert unpaired_diff([1], [2, 3]) == {"value": 1.5, "ci95": [None, None], "p": None}
    assert unpaired_diff([], [2, 3])["value"] is None


def test_paired_diff_refuses_lists_of_different_lengths():
    with pytest.raises(ValueError):
        paired_diff([1, 2], [1])


@pytest.mark.parametrize("paired", [True, False])
def test_an_a_a_comparison_flags_a_difference_about_5_percent_of_the_time(paired):
    rnd = random.Random(14)
    trials, flagged = 2000, 0
    for _ in range(trials):
        a = [rnd.gauss(10, 3) for _ in range(20)]
        b = [rnd.gauss(10, 3) for _ in range(20)]
        out = paired_diff(a, b) if paired else unpaired_diff(a, b)
        flagged += out["p"] < 0.05
    # 2000 trials at 5 %: the count is 100 ± 2 × 9.7
    assert 0.035 < flagged / trials < 0.065


# --- games needed -------------------------------------------------------------------------------

def test_games_needed_for_an_effect_of_a_fifth_of_the_sd_is_199():
    # paired t test, d = 0.2, alpha 5 % two-sided, power 80 %: 199 pairs (G*Power gives 199)
    assert games_needed(10, 2) == 199


def exact_power(n, effect):
    crit = sp.t.ppf(0.975, n - 1)
    return sp.nct.sf(crit, n - 1, effect * math.sqrt(n)) + sp.nct.cdf(-crit, n - 1, effect * math.sqrt(n))


@settings(max_examples=100, deadline=None)
@given(st.floats(min_value=0.1, max_value=100), st.floats(min_value=0.02, max_value=3))
def test_games_needed_is_the_fewest_games_with_80_percent_power(sd, effect):
    # (scipy's noncentral t gives nan beyond an effect of about 3 sds at 1 df: no reference there)
    delta = effect * sd
    n = games_needed(sd, delta)
    assert exact_power(n, delta / sd) >= 0.8 - 1e-4
    if n > 2:
        assert exact_power(n - 1, delta / sd) < 0.8 + 1e-4


def test_games_needed_grows_as_the_square_of_sd_over_delta():
    assert games_needed(20, 1) == pytest.approx(4 * games_needed(10, 1), rel=0.01)


def test_games_needed_without_spread_is_2():
    assert games_needed(0, 1) == 2


def test_games_needed_refuses_a_difference_that_is_not_positive():
    with pytest.raises(ValueError):
        games_needed(1, 0)
