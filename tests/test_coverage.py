"""Rule coverage: which steps, branches, options, triggers and moves ran, in how many games.

Small purpose-made rulesets check what each kind of point counts; the shipped rulesets check that
counting changes no game and that a seeded run covers what each rule sheet says must happen.
"""
from __future__ import annotations

import glob
import os
import textwrap

import pytest

from helpers import ROOT
from interpreter.analysis.coverage import coverage_rows, coverage_warnings
from interpreter.compiler.game import load_game
from interpreter.errors import UsageError
from interpreter.runtime.coverage import CoveragePoint, plain_points
from interpreter.seats import make_bot
from interpreter.tools.records import play_game
from interpreter.tools.playing import bot_seed, game_seed
from language_helpers import do, edit, make, write  # noqa: F401

RULESETS = sorted(glob.glob(os.path.join(ROOT, "rulesets", "*.yaml")))

RULES = """
    name: coverage
    players: {min: 2, max: 2}
    vars:
      points: {owner: each, initial: 0}
    cards:
      a: {count: 3, start: deck}
      b: {count: 2, start: box}
    zones:
      box: {}
      table: {}
      deck:
        visible: nobody
        on_empty: ["move discard to deck"]
      discard: {}
      empty: {}
      hand: {owner: each}
    setup:
      - move top of box to table
    turn:
      steps:
        - step: play
          do:
            - choose: pick
              options:
                good:
                  do: ["set points = points + 1"]
                bad:
                  do:
                    - if: points >= 0
                      then: ["set points = points - 1"]
        - step: draw
          do:
            - move top of deck to hand
            - move hand to discard
            - move empty to hand
            - if: turn > 100
              then: ["set points = 0"]
    end: {when: "turn >= 6"}
    score: points
"""


def point(program, kind: str, text: str) -> int:
    """The index of the one coverage point of this kind whose label starts with text."""
    found = [i for i, p in enumerate(program.coverage_points) if p.kind == kind and p.text.startswith(text)]
    assert len(found) == 1, (kind, text, program.coverage_points)
    return found[0]


def play_counted(program, seed: int, bots: list, switch: bool = True):
    """Play one game counting only the real game (as simulate does), or everything when not switch."""
    program.take_coverage()
    program.count_coverage(True)
    st, _ = play(program, seed, bots, switch)
    if switch:
        program.count_coverage(False)
    return st, program.take_coverage()


def play(program, seed: int, bots: list, pause: bool):
    """(final state, move texts) of a game; counting is paused while each bot chooses when `pause`."""
    st = program.new_state(seed, log=viewing(bots))
    moves = []
    while not st.over:
        if pause:
            program.count_coverage(False)
        move = bots[st.decider].choose(program, st, program.legal_moves(st))
        if pause:
            program.count_coverage(True)
        moves.append(program.move_text(st, move))
        program.apply(st, move)
    return st, moves


def viewing(bots: list) -> bool:
    """Whether a bot plays from its seat's view, which it reads from the event log (as play_game does)."""
    return any(getattr(b, "uses_view", False) for b in bots)


def runs(program, games: int, bots=("random", "random"), seed: int = 1) -> list:
    """(counts, moved) of each of a seeded run's games."""
    out = []
    for g in range(games):
        seated = [make_bot(name, bot_seed(seed, g, k)) for k, name in enumerate(bots)]
        out.append(play_counted(program, game_seed(seed, g), seated)[1])
    return out


def games_with(results: list, i: int) -> int:
    return sum(1 for counts, _ in results if counts[i] > 0)


@pytest.fixture
def cov(write):
    """cov(text) -> the ruleset's program for 2 players, compiled to count coverage."""
    def cov(text: str = RULES):
        return load_game(write(text)).program(2, coverage=True)
    return cov


# ---------------------------------------------------------------- the points

def test_every_step_branch_option_trigger_and_move_is_a_point_at_its_rule(cov):
    p = cov()
    kinds = [(q.kind, q.text) for q in p.coverage_points]
    assert kinds == [
        ("move", "move top of box to table"),
        ("step", "step play"),
        ("option", "choose pick: option good"), ("option", "choose pick: option bad"),
        ("then", "if points >= 0: then"), ("else", "if points >= 0: else (nothing)"),
        ("step", "step draw"),
        ("move", "move top of deck to hand"), ("move", "move hand to discard"), ("move", "move empty to hand"),
        ("then", "if turn > 100: then"), ("else", "if turn > 100: else (nothing)"),
        ("on_empty", "on_empty of deck"), ("move", "move discard to deck"),
    ]
    assert all(isinstance(q, CoveragePoint) for q in p.coverage_points)
    lines = textwrap.dedent(RULES).split("\n")
    line = next(k for k, text in enumerate(lines, 1) if "- step: draw" in text)
    pos = p.coverage_points[point(p, "step", "step draw")].pos
    assert (pos.line, pos.col) == (line, lines[line - 1].index("step") + 1)


def test_a_plain_program_has_no_points_and_refuses_to_count(make):
    p = make(RULES)
    assert p.coverage_points == []
    with pytest.raises(UsageError, match="coverage=True"):
        p.take_coverage()


def test_the_instrumented_program_is_compiled_apart_and_cached(write):
    game = load_game(write(RULES))
    assert game.program(2, coverage=True) is game.program(2, coverage=True)
    assert game.program(2, coverage=True) is not game.program(2)
    assert game.program(2, coverage=True).source != game.program(2).source


def test_a_point_in_a_variant_points_into_the_file_that_holds_the_rule(write):
    base = write(RULES, "base.yaml")
    variant = write("extends: base.yaml\nname: variant\n", "variant.yaml")
    p = load_game(variant).program(2, coverage=True)
    assert {q.pos.file for q in p.coverage_points} == {base}


def test_a_procedure_called_from_two_places_is_one_point_at_its_own_statement(cov):
    text = edit(RULES, "            - move empty to hand\n", "            - call tidy\n            - call tidy\n")
    p = cov(text.replace("    turn:\n", "    procedures:\n      tidy: [\"move empty to hand\"]\n    turn:\n"))
    (counts, _), = runs(p, 1)
    assert counts[point(p, "move", "move empty to hand")] == 2 * 5


def test_a_branch_the_player_count_rules_out_never_runs_at_that_count(cov):
    p = cov(edit(RULES, "if: turn > 100", "if: players > 2"))
    results = runs(p, 2)
    assert games_with(results, point(p, "then", "if players > 2")) == 0
    assert games_with(results, point(p, "else", "if players > 2")) == 2


# ---------------------------------------------------------------- what they count

def test_a_branch_whose_condition_is_never_true_runs_in_no_game(cov):
    p = cov()
    results = runs(p, 5)
    assert games_with(results, point(p, "then", "if turn > 100")) == 0
    assert games_with(results, point(p, "else", "if turn > 100")) == 5


def test_an_absent_else_counts_each_time_the_condition_was_false(cov):
    p = cov()
    st = p.new_state(0)
    p.take_coverage()
    for _ in range(3):
        do(p, st, "good")
    counts, _ = p.take_coverage()
    assert counts[point(p, "else", "if turn > 100")] == 3      # turns 1 to 3 each drew once


def test_each_option_counts_the_times_it_was_chosen(cov):
    p = cov()
    st = p.new_state(0)
    p.take_coverage()
    for text in ("good", "good", "bad"):
        do(p, st, text)
    counts, _ = p.take_coverage()
    assert counts[point(p, "option", "choose pick: option good")] == 2
    assert counts[point(p, "option", "choose pick: option bad")] == 1
    assert counts[point(p, "then", "if points >= 0")] == 1


def test_an_option_never_chosen_runs_in_no_game(cov):
    p = cov()
    results = runs(p, 3, bots=("greedy", "greedy"))
    assert games_with(results, point(p, "option", "choose pick: option good")) == 3
    assert games_with(results, point(p, "option", "choose pick: option bad")) == 0


def test_a_step_counts_each_turn_it_ran(cov):
    p = cov()
    (counts, _), = runs(p, 1)
    assert counts[point(p, "step", "step play")] == 6


def test_a_step_skipped_because_the_game_is_ending_is_not_counted(cov):
    p = cov()
    (counts, _), = runs(p, 1)
    assert counts[point(p, "step", "step draw")] == 5      # turn 6 ends after play (draw is not in finish)


def test_a_trigger_that_fires_is_counted(cov):
    p = cov()
    (counts, moved), = runs(p, 1)
    # 3 cards for 5 draws: the deck runs dry in turn 4, the discard pile (3 cards) refills it
    assert counts[point(p, "on_empty", "on_empty of deck")] == 1
    assert moved[point(p, "move", "move discard to deck")] == 3


def test_a_move_from_an_always_empty_zone_ran_but_moved_no_card(cov):
    p = cov()
    (counts, moved), = runs(p, 1)
    i = point(p, "move", "move empty to hand")
    assert counts[i] == 5 and moved[i] == 0
    assert moved[point(p, "move", "move top of deck to hand")] == 5


def test_a_deal_counts_the_cards_it_dealt(cov):
    p = cov(edit(RULES, "            - move top of deck to hand\n", "            - deal 2 from deck to hand\n"))
    st = p.new_state(0)
    p.take_coverage()
    do(p, st, "good")
    counts, moved = p.take_coverage()
    i = point(p, "move", "deal 2 from deck to hand")
    assert counts[i] == 1 and moved[i] == 3      # 4 places, 3 cards: the trigger finds the discard pile empty


def test_the_greedy_look_ahead_is_not_counted(cov):
    p = cov()
    bad_branch = point(p, "then", "if points >= 0")
    greedy = [make_bot("greedy", 1), make_bot("greedy", 2)]
    _, (counts, _) = play_counted(p, 0, greedy)
    assert counts[bad_branch] == 0
    # the same game counting everything: the bots' look-ahead tried the bad option on its copies
    greedy = [make_bot("greedy", 1), make_bot("greedy", 2)]
    _, (counts, _) = play_counted(p, 0, greedy, switch=False)
    assert counts[bad_branch] > 0


def test_the_setup_prefix_counts_in_every_game(cov):
    p = cov()
    assert p.prefix == 1            # `move top of box to table` runs once, in Program.initial
    results = runs(p, 3)
    i = point(p, "move", "move top of box to table")
    assert [c[i] for c, _ in results] == [1, 1, 1] and [m[i] for _, m in results] == [1, 1, 1]


def test_nothing_is_counted_while_counting_is_off(cov):
    p = cov()
    p.count_coverage(False)
    st = p.new_state(0)
    do(p, st, "good")
    p.count_coverage(True)
    assert p.take_coverage() == ([0] * len(p.coverage_points), [0] * len(p.coverage_points))


def test_taking_the_counts_zeroes_them(cov):
    p = cov()
    st = p.new_state(0)
    do(p, st, "good")
    first, _ = p.take_coverage()
    assert sum(first) > 0
    assert p.take_coverage()[0] == [0] * len(p.coverage_points)


# ---------------------------------------------------------------- the same games

def play_moves(program, seed: int, bots: list):
    """The moves and result of a game played with these bots, counting coverage when the program does."""
    st, moves = play(program, seed, bots, pause=bool(program.coverage_points))
    return moves, program.result(st)


def slow_with(bot: str) -> list:
    """(ruleset, bot) cases; a look-ahead bot on Sorting Memo takes a minute a game: soak runs those."""
    return [pytest.param(path, b, id=f"{b}-{os.path.basename(path)}",
                         marks=[pytest.mark.soak] if b == bot and "sorting_memo" in path else [])
            for path in RULESETS for b in (["random", "greedy", "memory"] if bot == "memory" else [bot])]


@pytest.mark.parametrize("path, bot", slow_with("memory"))
def test_the_same_seed_gives_the_same_game_with_coverage_on_and_off(path, bot):
    game = load_game(path)
    players = game.rules.min_players
    for g in range(2):
        plain = play_moves(game.program(players), 7 + g, [make_bot(bot, 10 * g + k) for k in range(players)])
        counted = play_moves(game.program(players, coverage=True), 7 + g,
                             [make_bot(bot, 10 * g + k) for k in range(players)])
        assert counted == plain


@pytest.mark.parametrize("path, bot", slow_with("automa"))
def test_the_same_seed_gives_the_same_game_with_coverage_for_automa_and_simulate(path, bot):
    game = load_game(path)
    players = game.rules.max_players
    bots = ["automa"] + ["random"] * (players - 1)
    plain = play_game(game, players, 3, [make_bot(b, k) for k, b in enumerate(bots)], record=True)[2]
    counted = play_moves(game.program(players, coverage=True), 3, [make_bot(b, k) for k, b in enumerate(bots)])
    assert counted[0] == [text for _, text in plain]


# ---------------------------------------------------------------- the rule sheets

def shipped(name: str, players: int, games: int = 20):
    """(program, per-game results) of a seeded run of a shipped ruleset with greedy and random bots."""
    p = load_game(os.path.join(ROOT, "rulesets", name)).program(players, coverage=True)
    return p, runs(p, games, bots=["greedy"] + ["random"] * (players - 1))


def test_r_eco_every_game_deals_the_hands_and_ends_on_a_factory_s_last_reward():
    p, results = shipped("r_eco.yaml", 3)
    deal = point(p, "move", "deal hand_size from draw to hand")
    assert all(m[deal] == 3 * p.param_values["hand_size"] for _, m in results)
    reward = point(p, "move", "move top of rewards[f] to won")
    assert games_with(results, reward) == 20 and all(m[reward] > 0 for _, m in results)
    for step in ("deliver", "collect", "hand limit", "refill"):
        assert games_with(results, point(p, "step", f"step {step}")) == 20
    assert games_with(results, point(p, "then", "if count(hand) > hand_limit")) > 0


def test_lixo_every_game_turns_over_every_bins_card_and_auctions():
    p, results = shipped("lixo.yaml", 3)
    turned = point(p, "move", "move top of bins to turned")
    assert all(c[turned] == m[turned] > 0 for c, m in results)     # one card turned over each turn
    assert games_with(results, point(p, "step", "step resolve")) == 20
    assert games_with(results, point(p, "then", "if first(turned).kind == 'stop'")) > 0
    assert games_with(results, point(p, "option", "choose auction: option bid")) == 20


def test_sorting_memo_every_game_ends_with_a_pair_taken_and_everything_revealed():
    p, results = shipped("sorting_memo.yaml", 2)
    pair = point(p, "move", "move up[first_spot] to won")
    assert games_with(results, pair) == 20
    assert games_with(results, point(p, "then", "if hidden_recyclables() == 0")) == 20
    assert games_with(results, point(p, "step", "step reveal")) == 20


# ---------------------------------------------------------------- rows and warnings

POINTS = [{"kind": "step", "where": "r.yaml:3:7", "text": "step play"},
          ("then", "r.yaml:5:11", "if x > 1: then"),
          {"kind": "move", "where": "r.yaml:8:9", "text": "move empty to hand"},
          {"kind": "move", "where": "r.yaml:9:9", "text": "move top of deck to hand"}]


def record(game: int, coverage, moved) -> dict:
    return {"game": game, "coverage": coverage, "moved": moved}


def test_a_row_says_in_how_many_games_a_point_ran_and_what_it_moved():
    rows = coverage_rows(POINTS, [record(0, [4, 0, 2, 3], [0, 0, 0, 3]), record(1, [5, 1, 1, 0], [0, 0, 0, 0])])
    assert rows == [
        {"kind": "step", "where": "r.yaml:3:7", "text": "step play", "games": 2, "share": 1.0, "runs": 9,
         "moved": None},
        {"kind": "then", "where": "r.yaml:5:11", "text": "if x > 1: then", "games": 1, "share": 0.5, "runs": 1,
         "moved": None},
        {"kind": "move", "where": "r.yaml:8:9", "text": "move empty to hand", "games": 2, "share": 1.0, "runs": 3,
         "moved": 0},
        {"kind": "move", "where": "r.yaml:9:9", "text": "move top of deck to hand", "games": 1, "share": 0.5,
         "runs": 3, "moved": 3},
    ]


def test_a_warning_for_each_point_that_never_ran_and_each_move_that_never_moved_a_card():
    rows = coverage_rows(POINTS, [record(0, [1, 0, 2, 0], [0, 0, 0, 0]), record(1, [1, 0, 1, 0], [0, 0, 0, 0])])
    assert coverage_warnings(rows, 2) == [
        "r.yaml:5:11: if x > 1: then never ran in 2 games",
        "r.yaml:8:9: move empty to hand ran in 2 of 2 games but never moved a card",
        "r.yaml:9:9: move top of deck to hand never ran in 2 games",
    ]


def test_records_without_coverage_give_no_rows_and_mixed_ones_are_refused():
    assert coverage_rows(POINTS, [{"game": 0}, {"game": 1}]) == []
    with pytest.raises(UsageError, match="1 of 2 games have no coverage"):
        coverage_rows(POINTS, [{"game": 0}, record(1, [1, 0, 0, 0], [0, 0, 0, 0])])


def test_a_record_whose_counts_do_not_fit_the_points_is_refused():
    with pytest.raises(UsageError, match="game 4 has 3 coverage counts, but the ruleset has 4"):
        coverage_rows(POINTS, [record(4, [1, 0, 0], [0, 0, 0])])


def test_rows_from_a_real_run_match_its_per_game_counts(cov):
    p = cov()
    results = runs(p, 4)
    rows = coverage_rows(plain_points(p.coverage_points),
                         [record(g, c, m) for g, (c, m) in enumerate(results)])
    bad = point(p, "then", "if turn > 100")
    assert rows[bad]["games"] == 0 and rows[bad]["where"] == str(p.coverage_points[bad].pos)
    assert any("if turn > 100: then never ran in 4 games" in w for w in coverage_warnings(rows, 4))
