"""The streaming tally of a run's games (issue 15): the same summary as the list-based analysis
(tests/analysis_oracle.py), bit for bit, however the games are split, merged and pickled on the
way, in a size that does not grow with the games."""
from __future__ import annotations

import json
import os
import pickle
import random
import statistics

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import analysis_oracle as oracle
from helpers import ROOT
from interpreter.analysis import metrics
from interpreter.analysis.tally import Tally
from interpreter.analysis.values import CAP, Counts
from interpreter.compiler.game import load_game
from interpreter.errors import UsageError
from interpreter.runtime.coverage import plain_points
from interpreter.tools.playing import play_one

BOTS = ("random", "greedy", "automa")
STAT_KINDS = ("seat_int", "seat_bool", "seat_mixed", "game_int", "game_float", "game_bool")
KINDS = ("step", "then", "move")
# scores: whole numbers mostly, some floats (halves, and any finite float of a sane size)
SCORE = st.one_of(st.integers(-5, 40), st.integers(-10, 80).map(lambda n: n / 2),
                  st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False))


def stat_value(draw, kind: str, players: int):
    one = {"int": st.integers(0, 9), "bool": st.booleans(), "float": st.floats(-50, 50, allow_nan=False),
           "mixed": st.one_of(st.booleans(), st.integers(0, 3))}[kind.split("_")[1]]
    if kind.startswith("seat"):
        return draw(st.lists(one, min_size=players, max_size=players))
    return draw(one)


@st.composite
def runs(draw, max_games: int = 25):
    """(players, bots, records, points): a run's per-game records of every shape a results file may hold."""
    players = draw(st.integers(1, 5))
    bots = draw(st.lists(st.sampled_from(BOTS), min_size=players, max_size=players))
    stats = draw(st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), st.sampled_from(STAT_KINDS), max_size=3))
    size = draw(st.integers(0, 4))
    coverage, track, rotate = draw(st.booleans()), draw(st.booleans()), draw(st.booleans())
    points = [{"kind": draw(st.sampled_from(KINDS)), "where": f"r.yaml:{i + 1}:3", "text": f"rule {i}"}
              for i in range(size)]
    records = [record(draw, g, players, bots, stats, coverage and size, track, rotate)
               for g in range(draw(st.integers(1, max_games)))]
    return players, bots, records, points if coverage else None


def record(draw, g: int, players: int, bots: list, stats: dict, coverage, track: bool, rotate: bool) -> dict:
    scores = draw(st.lists(SCORE, min_size=players, max_size=players))
    top = max(scores)
    winners = draw(st.one_of(st.just([k for k, s in enumerate(scores) if s == top]),
                             st.lists(st.integers(0, players - 1), unique=True, max_size=players)))
    r = {"game": g, "scores": scores, "winners": winners, "turns": draw(st.integers(0, 30)),
         "moves": draw(st.integers(0, 90)),
         "choices": {str(n): c for n, c in draw(st.dictionaries(st.integers(1, 6), st.integers(0, 5))).items()}}
    if draw(st.booleans()):
        r["decisions"] = draw(st.lists(st.integers(0, 20), min_size=players, max_size=players))
    if track and draw(st.integers(0, 4)):
        r["track"] = draw(st.lists(st.lists(SCORE, min_size=players, max_size=players), min_size=1, max_size=6))
    r["stats"] = {name: stat_value(draw, kind, players) for name, kind in stats.items() if draw(st.integers(0, 5))}
    if coverage is not False:
        size = coverage or 0
        r["coverage"] = draw(st.lists(st.integers(0, 3), min_size=size, max_size=size))
        r["moved"] = draw(st.lists(st.integers(0, 3), min_size=size, max_size=size))
    if rotate:
        turn = g % players
        r["bots"] = bots[turn:] + bots[:turn]
    return r


def tallied(players: int, bots: list, records: list) -> Tally:
    t = Tally(players, bots)
    for r in records:
        t.add(r)
    return t


def split_and_merged(players: int, bots: list, records: list, rnd: random.Random) -> Tally:
    """The records cut at random points into parts, each tallied and pickled, merged in a random order."""
    cuts = sorted(rnd.sample(range(1, len(records)), min(len(records) - 1, rnd.randint(0, 4)))) if len(records) > 1 else []
    parts = [records[a:b] for a, b in zip([0] + cuts, cuts + [len(records)])]
    tallies = [pickle.loads(pickle.dumps(tallied(players, bots, part))) for part in parts]
    rnd.shuffle(tallies)
    whole = Tally(players, bots) if rnd.random() < 0.5 else tallies.pop()
    for t in tallies:
        whole.merge(pickle.loads(pickle.dumps(t)))
    return whole


SLOW = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.data_too_large])


@SLOW
@given(runs())
def test_a_tally_gives_the_summary_the_list_of_games_gives(run):
    players, bots, records, points = run
    assert tallied(players, bots, records).summary(points) == oracle.summary(records, players, bots, points)


@SLOW
@given(runs())
def test_summarise_is_the_tallys_summary_of_the_list(run):
    players, bots, records, points = run
    assert metrics.summarise(records, players, bots, points) == oracle.summarise(records, players, bots, points)


@SLOW
@given(runs(), st.randoms(use_true_random=False))
def test_any_split_merged_in_any_order_gives_the_same_summary_bit_for_bit(run, rnd):
    players, bots, records, points = run
    one = tallied(players, bots, records).summary(points)
    merged = split_and_merged(players, bots, records, rnd).summary(points)
    assert json.dumps(merged) == json.dumps(one)


@pytest.fixture(scope="module")
def r_eco_games():
    game = load_game(os.path.join(ROOT, "rulesets", "r_eco.yaml"))
    bots = ["greedy", "random", "random", "automa"]
    records = [play_one(game, 4, 7, g, bots, track=True, coverage=True) for g in range(20)]
    return game, bots, records, plain_points(game.program(4, coverage=True).coverage_points)


def test_real_r_eco_games_give_the_summary_the_list_gives(r_eco_games):
    game, bots, records, points = r_eco_games
    want = oracle.summary(records, 4, bots, points)
    assert want["metrics"]["coverage"] and want["metrics"]["comeback"] and want["metrics"]["stats"]
    assert tallied(4, bots, records).summary(points) == want
    rnd = random.Random(3)
    assert json.dumps(split_and_merged(4, bots, records, rnd).summary(points)) == json.dumps(
        tallied(4, bots, records).summary(points))


def synthetic(g: int, rnd: random.Random) -> dict:
    """A game of a two-seat run with whole-number scores, as a long run makes them."""
    scores = [rnd.randint(0, 120), rnd.randint(0, 120)]
    top = max(scores)
    turns = rnd.randint(8, 40)
    return {"game": g, "scores": scores, "winners": [k for k, s in enumerate(scores) if s == top], "turns": turns,
            "moves": turns * rnd.randint(2, 6), "decisions": [turns, turns],
            "choices": {str(n): rnd.randint(0, 9) for n in range(1, rnd.randint(2, 12))},
            "stats": {"left": [rnd.randint(0, 5), rnd.randint(0, 5)], "ended": rnd.random() < 0.5},
            "coverage": [rnd.randint(0, 3) for _ in range(30)], "moved": [rnd.randint(0, 3) for _ in range(30)]}


def test_a_tallys_size_does_not_grow_with_the_games():
    rnd = random.Random(15)
    t = Tally(2, ["greedy", "random"])
    for g in range(5_000):
        t.add(synthetic(g, rnd))
    small = len(pickle.dumps(t))
    for g in range(5_000, 50_000):
        t.add(synthetic(g, rnd))
    big = len(pickle.dumps(t))
    assert big < 50_000
    # ten times the games: only a few more distinct values (and sums a few digits longer)
    assert big - small < 2_000


def test_a_count_past_the_cap_is_binned_and_its_median_says_so_and_is_within_the_width():
    rnd = random.Random(4)
    turns = [rnd.randrange(100_000) for _ in range(10_000)]
    records = [{"game": g, "scores": [rnd.random() * 100], "winners": [0], "turns": n, "moves": n, "choices": {}}
               for g, n in enumerate(turns)]
    t = tallied(1, ["random"], records)
    width = t.turn_counts.width()
    assert width is not None and len(t.turn_counts.counts) <= CAP
    s = t.summary()
    median = s["metrics"]["length"]["turns"]["median"]
    assert "approximate" in median["note"] and f"{width:g}" in median["note"]
    assert abs(median["value"] - statistics.median(turns)) <= width
    assert "approximate" in s["metrics"]["length"]["turns"]["histogram_note"]
    assert "approximate" in s["score_histogram_note"]
    assert s["turns"]["min"] == min(turns) and s["turns"]["mean"] == statistics.fmean(turns)


def test_a_binned_count_is_the_same_whatever_the_order_and_split_of_its_values():
    rnd = random.Random(5)
    values = [rnd.random() * 1000 for _ in range(3 * CAP)] + [rnd.randrange(10_000) for _ in range(CAP)]
    one = Counts.of(values)
    for _ in range(3):
        rnd.shuffle(values)
        cut = rnd.randrange(len(values))
        a, b = Counts.of(values[:cut]), Counts.of(values[cut:])
        b.merge(a)
        assert (b.exponent, b.items(), b.n) == (one.exponent, one.items(), one.n)
    assert one.exponent is not None and len(one.counts) <= CAP


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.integers(-100, 100), st.floats(-100, 100, allow_nan=False)), max_size=60),
       st.randoms(use_true_random=False))
def test_binning_commutes_with_adding_and_merging(values, rnd):
    one = Counts.of(values, cap=8)
    shuffled = list(values)
    rnd.shuffle(shuffled)
    cut = rnd.randint(0, len(shuffled))
    a, b = Counts.of(shuffled[:cut], cap=8), Counts.of(shuffled[cut:], cap=8)
    a.merge(b)
    assert (a.exponent, a.items()) == (one.exponent, one.items())
    assert len(one.counts) <= 8


def covered(g: int, counts: list) -> dict:
    return {"game": g, "scores": [1, 2], "winners": [1], "turns": 3, "moves": 4, "choices": {},
            "coverage": counts, "moved": [0] * len(counts)}


POINTS = [{"kind": "step", "where": "r.yaml:3:5", "text": "step a"}, {"kind": "move", "where": "r.yaml:4:5",
                                                                       "text": "move b"}]


def test_games_without_coverage_mixed_with_games_with_it_are_refused_saying_how_many():
    t = tallied(2, ["random", "random"], [covered(0, [1, 0]), {**covered(1, [1, 0]), "coverage": None},
                                         {k: v for k, v in covered(2, [1, 0]).items() if k != "coverage"}])
    with pytest.raises(UsageError, match="2 of 3 games have no coverage"):
        t.summary(POINTS)


def test_a_game_whose_coverage_counts_differ_from_the_earlier_games_is_refused_at_add_and_changes_nothing():
    t = tallied(2, ["random", "random"], [covered(0, [1, 0])])
    before = pickle.dumps(t)
    with pytest.raises(UsageError, match="game 1 has 3 coverage counts, but other games of the run have 2"):
        t.add(covered(1, [1, 0, 2]))
    assert pickle.dumps(t) == before


def test_coverage_counts_that_do_not_fit_the_points_are_refused_at_summary():
    t = tallied(2, ["random", "random"], [covered(4, [1, 0, 0])])
    with pytest.raises(UsageError, match="game 4 has 3 coverage counts, but the ruleset has 2 coverage points"):
        t.summary(POINTS)


def test_moved_counts_that_do_not_fit_are_refused_when_a_point_moves_cards():
    t = tallied(2, ["random", "random"], [covered(0, [1, 0]), {**covered(1, [1, 0]), "moved": [0]}])
    with pytest.raises(UsageError, match="game 1 has 1 moved counts, but the ruleset has 2 coverage points"):
        t.summary(POINTS)


def test_tallies_whose_coverage_counts_differ_are_not_merged():
    a, b = tallied(2, ["random", "random"], [covered(0, [1, 0])]), tallied(2, ["random", "random"], [covered(1, [1])])
    with pytest.raises(UsageError, match="coverage counts"):
        a.merge(b)


def test_a_stat_that_is_per_seat_in_one_game_and_single_in_another_is_refused():
    t = tallied(2, ["random", "random"], [{**covered(0, []), "stats": {"left": [1, 2]}}])
    with pytest.raises(UsageError, match="stat 'left' is one value but a list of 2 in other games"):
        t.add({**covered(1, []), "stats": {"left": 3}})
    other = tallied(2, ["random", "random"], [{**covered(1, []), "stats": {"left": 3}}])
    with pytest.raises(UsageError, match="stat 'left'"):
        t.merge(other)


def test_tallies_of_different_runs_are_not_merged():
    with pytest.raises(UsageError, match="cannot merge"):
        Tally(2, ["random", "greedy"]).merge(Tally(2, ["greedy", "random"]))


def test_win_shares_add_ties_exactly_not_in_floats():
    # six three-way ties: 1/3 added six times in floats is 1.9999999999999998; each seat won 2 games
    t = tallied(3, ["random"] * 3, [{"game": g, "scores": [1, 1, 1], "winners": [0, 1, 2], "turns": 1, "moves": 1,
                                     "choices": {}} for g in range(6)])
    assert t.win_counts() == [2.0] * 3
    assert t.win_shares() == t.summary()["wins_by_seat"] == [2.0 / 6] * 3 and t.games == 6


def test_a_value_a_hair_below_a_bin_edge_falls_in_the_bin_below():
    """-5e-324 / 2 underflows to -0.0: the value still lies below 0, in the bin [-2, 0)."""
    from interpreter.analysis.values import coarse
    assert coarse(-5e-324, 1) == -2 and coarse(5e-324, 1) == 0 and coarse(-1e-300, 0) == -1
