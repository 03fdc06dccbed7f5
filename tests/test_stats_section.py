"""The `stats:` section (docs/language.md §10, "Statistics for the designer: `stats`"), one test
per rule of the manual: per seat or per game, values on a game whose end is known, true/false,
errors at the stat, the warning stat-never-varies, variants, and the shipped rulesets' stats."""
from __future__ import annotations

import os
import re

import pytest

from interpreter.compiler.game import load_game, validate_file
from interpreter.errors import RuleRuntimeError, RulesetError
from interpreter.frontend.lint import lint_file
from interpreter.seats import make_bot
from interpreter.tools.records import make_record, play_game
from language_helpers import do, edit, names, var, write  # noqa: F401

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Six chips in a pot; each turn the current player takes 1 or 2 of them. Nothing is shuffled,
# so the moves alone fix the end: seat 0 takes 2, seat 1 takes 1, twice each.
CHIPS = """
    name: Chips
    players: {min: 2, max: 3}
    params: {bonus: 3}
    cards:
      chip: {count: 6, attrs: {worth: 2}, start: pot}
    zones:
      pot: {visible: everyone}
      taken: {owner: each, visible: everyone}
      secret: {owner: each, visible: nobody}
    vars:
      goes: {owner: each, initial: 0}
      rounds: {initial: 0}
    functions:
      mine: count(taken)
      held_by(p): count(taken(p))
    turn:
      steps:
        - step: take
          do:
            - choose: n
              from: [1, 2]
            - move top n of pot to taken
            - set goes = goes + 1
            - set rounds = rounds + 1
    end: {when: count(pot) == 0}
    score: count(taken)
"""


def chips(write, stats: str, players: int = 2):
    """The chips game with this stats section (YAML text under `stats:`), compiled."""
    text = CHIPS + "    stats:\n" + "".join(f"      {line}\n" for line in stats.strip().split("\n"))
    return load_game(write(text)).program(players)


def played(p, takes=(2, 1, 2, 1)):
    """A chips game played to its end with these takes, turn by turn."""
    st = p.new_state(0)
    for n in takes:
        do(p, st, f"n: {n}")
    assert st.over
    return st


def diagnostics(write, stats: str) -> list:
    text = CHIPS + "    stats:\n" + "".join(f"      {line}\n" for line in stats.strip().split("\n"))
    return validate_file(write(text))


# ---- per seat or per game ----
def test_a_stat_reading_a_seats_own_zone_without_a_seat_is_per_seat(write):
    p = chips(write, "held: count(taken)")
    assert p.stat_per_seat == {"held": True}
    assert p.stat_values(played(p)) == {"held": [4, 2]}


def test_a_stat_reading_a_seats_own_variable_without_a_seat_is_per_seat(write):
    p = chips(write, "turns_had: goes")
    assert p.stat_per_seat == {"turns_had": True}
    assert p.stat_values(played(p)) == {"turns_had": [2, 2]}


def test_a_stat_reading_me_is_per_seat_with_me_that_seat(write):
    p = chips(write, "seat_squared: me * me")
    assert p.stat_per_seat == {"seat_squared": True}
    assert p.stat_values(played(p)) == {"seat_squared": [0, 1]}


def test_a_stat_calling_a_function_that_reads_an_own_zone_is_per_seat(write):
    p = chips(write, "held: mine + 0")
    assert p.stat_per_seat == {"held": True}
    assert p.stat_values(played(p)) == {"held": [4, 2]}


@pytest.mark.parametrize("expr, value", [
    ("count(pot)", 0),                                          # a table zone
    ("rounds", 4),                                              # a game variable
    ("turn", 4),                                                # the turn
    ("count(taken(0))", 4),                                     # one seat's zone, by seat
    ("sum(count(taken(p)) for p in seats)", 6),                 # every seat's zone, by name
    ("held_by(1)", 2),                                          # a function told the seat
    ("max(goes(p) for p in seats)", 2),                         # every seat's variable
])
def test_any_other_stat_is_worked_out_once_per_game(write, expr, value):
    p = chips(write, f"it: {expr}")
    assert p.stat_per_seat == {"it": False}
    assert p.stat_values(played(p)) == {"it": value}


def test_the_stats_keep_the_order_the_file_gives_them(write):
    p = chips(write, "zeta: rounds\nalpha: count(taken)\nmid: turn")
    assert p.stat_names == ["zeta", "alpha", "mid"]
    assert list(p.stat_values(played(p))) == ["zeta", "alpha", "mid"]


def test_a_ruleset_without_stats_has_none(write):
    p = load_game(write(CHIPS)).program(2)
    assert p.stat_names == [] and p.stat_per_seat == {} and p.stat_values(played(p)) == {}


def test_a_stat_is_worked_out_on_the_final_state(write):
    p = chips(write, "held: count(taken)\nleft: count(pot)\nworth: sum(taken.worth)")
    st = played(p, (1, 2, 2, 1))
    assert p.stat_values(st) == {"held": [3, 3], "left": 0, "worth": [6, 6]}
    assert p.stat_values(st)["held"] == [len(names(p, st, f"taken({s})")) for s in range(2)]


def test_a_per_seat_stat_has_one_value_per_seat_at_every_player_count(write):
    p = chips(write, "held: count(taken)", players=3)
    st = played(p, (2, 2, 1, 1))        # seats 0, 1, 2, then 0 again
    assert p.stat_values(st) == {"held": [3, 2, 1]}


# ---- what a stat gives ----
def test_a_true_false_stat_gives_true_or_false(write):
    p = chips(write, "ahead: count(taken) > 3\nemptied: count(pot) == 0")
    values = p.stat_values(played(p))
    assert values == {"ahead": [True, False], "emptied": True}
    assert all(type(v) is bool for v in values["ahead"] + [values["emptied"]])


def test_a_number_stat_gives_a_whole_number_not_a_true_false(write):
    p = chips(write, "held: count(taken)")
    assert all(type(v) is int for v in p.stat_values(played(p))["held"])


@pytest.mark.parametrize("expr, kind, hint", [
    ("taken", "a zone", "count(...) gives how many cards there are"),
    ('"[1, 2]"', "a list", "count(...) gives how many items a list has"),
    ("first(pot)", "a card", "report one of its attributes"),
    ("\"'chips'\"", "a text", "a text is not a number"),
])
def test_a_stat_that_is_not_a_number_or_true_false_is_an_error_at_the_stat(write, expr, kind, hint):
    found = diagnostics(write, f"fine: count(pot)\nbad: {expr}")
    assert len(found) == 1
    d = found[0]
    assert f"stat 'bad' must be a number or true or false, but this is {kind}" in d.message
    assert hint in d.hint and "a stat is a number or true/false" in d.hint
    lines = open(d.pos.file, encoding="utf-8").read().split("\n")
    assert lines[d.pos.line - 1][d.pos.col - 1:].startswith(expr.strip('"')[:5])


def test_a_name_in_a_stat_is_checked_like_any_rule(write):
    found = diagnostics(write, "held: count(takne)")
    assert [(d.message, d.hint) for d in found] == [("unknown name 'takne'", "did you mean 'taken'?")]


def stat_line() -> int:
    """The line of the first stat in a file made by chips(): CHIPS, then `stats:`."""
    return CHIPS.count("\n") + 2


def test_a_stat_with_no_value_at_the_end_is_an_error_at_the_stat(write):
    p = chips(write, "top_worth: first(pot).worth")      # the pot ends empty
    with pytest.raises(RuleRuntimeError) as caught:
        p.stat_values(played(p))
    assert "stat 'top_worth' has no value at the end of turn 4" in str(caught.value)
    assert (caught.value.pos.line, caught.value.pos.col) == (stat_line(), len("  top_worth: ") + 1)


def test_a_text_where_the_checker_could_not_tell_is_an_error_at_the_stat(write):
    # `worth` is a number on chips and a text on the label: its kind shows only while playing
    text = edit(CHIPS, "      chip: {count: 6, attrs: {worth: 2}, start: pot}\n",
                "      chip: {count: 6, attrs: {worth: 2}, start: pot}\n"
                "      label: {count: 1, attrs: {worth: \"'x'\"}, start: box}\n")
    text = edit(text, "      pot: {visible: everyone}\n", "      pot: {visible: everyone}\n      box: {visible: nobody}\n")
    p = load_game(write(text + "    stats:\n      held_worth: sum(taken.worth)\n      label_worth: first(box).worth\n"
                        )).program(2)
    st = played(p)
    assert p.stat_per_seat == {"held_worth": True, "label_worth": False}
    with pytest.raises(RuleRuntimeError, match=r"stat 'label_worth' must be a number or true/false, but at the "
                       r"end of turn 4 it is 'x'") as caught:
        p.stat_values(st)
    assert caught.value.pos.line == text.count("\n") + 3


def test_an_error_while_a_stat_is_worked_out_is_at_the_stat(write):
    p = chips(write, "per_chip: 12 / count(pot)")
    with pytest.raises(RuleRuntimeError, match="division by zero") as caught:
        p.stat_values(played(p))
    pos = caught.value.pos
    assert pos.file.endswith("rules.yaml") and pos.line == stat_line()


def test_stats_change_nothing_in_the_game(tmp_path):
    with open(os.path.join(ROOT, "rulesets", "r_eco.yaml"), encoding="utf-8") as fh:
        text = fh.read()
    assert "\nstats:\n" in text
    bare = tmp_path / "r_eco.yaml"
    bare.write_text(re.sub(r"\nstats:\n(  .*\n)+", "\n", text), encoding="utf-8")
    with_stats, without = load_game(os.path.join(ROOT, "rulesets", "r_eco.yaml")), load_game(str(bare))
    assert without.rules.stats == [] and len(with_stats.rules.stats) == 5
    for seed in (1, 2):
        made = [make_record(g, 3, seed, [make_bot("greedy", seed + s) for s in range(3)], ["greedy"] * 3)
                for g in (with_stats, without)]
        assert made[0]["moves"] == made[1]["moves"] and made[0]["chance"] == made[1]["chance"]
        assert made[0]["result"] == made[1]["result"]


def test_a_stat_may_read_hidden_zones(write):
    p = chips(write, "hidden: count(secret)\nhidden_all: sum(count(secret(p)) for p in seats)")
    assert p.stat_values(played(p)) == {"hidden": [0, 0], "hidden_all": 0}


# ---- names ----
def test_a_stats_name_is_letters_digits_and_underscore(write):
    found = diagnostics(write, "held: count(taken)\n2nd: count(pot)\nbad-name: turn")
    assert sorted(d.message for d in found) == ["'2nd' is not a valid key in 'stats'",
                                                "'bad-name' is not a valid key in 'stats'"]
    assert all("The name of a stat" in d.hint for d in found)


def test_a_stat_may_have_the_name_of_what_it_reports(write):
    p = chips(write, "goes: goes\ntaken: count(taken)\nmine: mine\nrounds: rounds")
    assert p.stat_values(played(p)) == {"goes": [2, 2], "taken": [4, 2], "mine": [4, 2], "rounds": 4}


def test_no_rule_can_read_a_stat(write):
    text = CHIPS.replace("score: count(taken)", "score: held") + "    stats:\n      held: count(taken)\n"
    with pytest.raises(RulesetError, match="unknown name 'held'"):
        load_game(write(text))


# ---- variants ----
def test_a_variants_stats_merge_key_by_key(write):
    write(CHIPS + "    stats:\n      held: count(taken)\n      left: count(pot)\n      rounds: rounds\n",
          "base.yaml")
    variant = write("""
        extends: base.yaml
        stats:
          left: count(pot) + 100
          turns_had: goes
        """, "variant.yaml")
    p = load_game(variant).program(2)
    # the base's stats stay in their order, `left` replaced; the new one comes after them
    assert p.stat_names == ["held", "left", "rounds", "turns_had"]
    assert p.stat_values(played(p)) == {"held": [4, 2], "left": 100, "rounds": 4, "turns_had": [2, 2]}


def test_a_variants_stat_error_is_reported_in_the_variant(write):
    write(CHIPS + "    stats:\n      held: count(taken)\n", "base.yaml")
    variant = write("extends: base.yaml\nstats:\n  held: taken\n", "variant.yaml")
    found = validate_file(variant)
    assert [(os.path.basename(d.pos.file), d.pos.line, d.pos.col) for d in found] == [("variant.yaml", 3, 9)]


# ---- the warning ----
@pytest.mark.parametrize("expr", ["2", "bonus * 10", "players", "count(p for p in seats if bonus > 0)", "true"])
def test_a_stat_that_never_varies_is_warned(write, expr):
    path = write(CHIPS + f"    stats:\n      fixed: {expr}\n")
    found = [d for d in lint_file(path) if d.code == "stat-never-varies"]
    assert [d.message.split(":")[0] for d in found] == ["stat 'fixed' never varies"]
    assert (found[0].pos.line, found[0].pos.col) == (stat_line(), len("  fixed: ") + 1)


@pytest.mark.parametrize("expr", ["count(pot)", "rounds", "turn", "goes", "mine", "count(taken) == 0",
                                  "held_by(0) + bonus"])
def test_a_stat_that_reads_the_game_is_not_warned(write, expr):
    path = write(CHIPS + f"    stats:\n      moving: {expr}\n")
    assert [d for d in lint_file(path) if d.code == "stat-never-varies"] == []


# ---- the shipped rulesets ----
def zone(p, st, name: str) -> list:
    return st.zones[p.zone_names.index(name)]


def attr(p, name: str, cards) -> list:
    return [p.attr_tables[name][c] for c in cards]


def end_of(ruleset: str, players: int, seed: int, bot: str = "greedy"):
    game = load_game(os.path.join(ROOT, "rulesets", ruleset))
    p, st, _ = play_game(game, players, seed, [make_bot(bot, seed * 7 + s) for s in range(players)])
    return p, st, p.stat_values(st)


@pytest.mark.parametrize("seed", [1, 2])
def test_r_eco_stats_at_the_end_of_a_game(seed):
    p, st, got = end_of("r_eco.yaml", 3, seed)
    seats = range(3)
    disposed = [len(zone(p, st, f"disposal({s})")) for s in seats]
    assert got["disposed"] == disposed
    assert got["clean"] == [d == 0 for d in disposed]
    assert got["rewards_taken"] == [len(zone(p, st, f"won({s})")) for s in seats]
    materials = p.param_values["materials"]
    lone = [sum(attr(p, "material", zone(p, st, f"won({s})")).count(m) == 1 for m in materials) for s in seats]
    assert got["lone_rewards"] == lone
    assert got["rewards_left"] == sum(len(zone(p, st, f"rewards[{m}]")) for m in materials)
    # every reward of the stacks was either taken or is still there
    assert sum(got["rewards_taken"]) + got["rewards_left"] == len(materials) * len(p.param_values["reward_order"])


@pytest.mark.parametrize("ruleset", ["lixo.yaml", "lixo_two_colour.yaml"])
def test_lixo_stats_at_the_end_of_a_game(ruleset):
    p, st, got = end_of(ruleset, 4, 3)
    seats = range(4)
    assert got["containers_won"] == [len(zone(p, st, f"won({s})")) for s in seats]
    assert got["container_points"] == [sum(attr(p, "value", zone(p, st, f"won({s})"))) for s in seats]
    assert got["lost_bids"] == [len(zone(p, st, f"unrecycled({s})")) for s in seats]
    assert got["garbage_left"] == [len(zone(p, st, f"hand({s})")) for s in seats]
    assert got["unclaimed"] == len(zone(p, st, "unclaimed"))
    # the score is the points won less every garbage card still held (no bid is open at the end)
    scores = p.result(st)["scores"]
    assert scores == [got["container_points"][s] - got["garbage_left"][s] - got["lost_bids"][s] for s in seats]
    # every container was won or left unclaimed
    containers = sum(1 for t in p.card_type if p.type_names[t].startswith("container:"))
    assert sum(got["containers_won"]) + got["unclaimed"] == containers


def test_sorting_memo_stats_at_the_end_of_a_game():
    p, st, got = end_of("sorting_memo.yaml", 2, 1, bot="random")
    seats = range(2)
    assert got["pairs_found"] == [var(p, st, "pairs_found", s) for s in seats]
    assert got["sorted"] == p.result(st)["scores"]
    assert [got["sorted"][s] + got["unsorted"][s] for s in seats] == [len(zone(p, st, f"won({s})")) for s in seats]
    kept = [len(zone(p, st, f"kept({s})")) + len(zone(p, st, f"spent({s})")) for s in seats]
    assert got["trucks_unused"] == kept
    cells = [n for n in p.zone_names if n.startswith("down[")]
    trucks = sum(p.type_names[p.card_type[c]].startswith("truck:") for n in cells for c in zone(p, st, n))
    assert got["trucks_on_grid"] == trucks
    # every pair found was collected by someone (trucks move pairs, never lose them)
    assert 2 * sum(got["pairs_found"]) == sum(len(zone(p, st, f"won({s})")) for s in seats)


@pytest.mark.parametrize("ruleset, players", [("r_eco.yaml", 2), ("lixo.yaml", 2), ("sorting_memo.yaml", 2)])
def test_shipped_rulesets_have_stats_per_seat_and_per_game(ruleset, players):
    p = load_game(os.path.join(ROOT, "rulesets", ruleset)).program(players)
    assert 3 <= len(p.stat_names) <= 6
    assert any(p.stat_per_seat.values()) and not all(p.stat_per_seat.values())


def test_a_stat_is_compiled_for_every_player_count_so_validate_finds_a_missing_seat(write):
    found = diagnostics(write, "third_seat: count(taken(2))")
    assert len(found) == 1 and "seat" in found[0].message and "2 players" in found[0].hint
    assert found[0].pos.line == stat_line()
