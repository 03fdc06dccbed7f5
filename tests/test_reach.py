"""compiler/reach.py: which card types can ever be in each zone, worked out from the moves of the rules.

The analysis may say a type can be somewhere it never gets (it over-approximates), never the other
way round: the last tests play games and check every card against it after every move."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from helpers import RULESET
from test_fuzz import EXAMPLE_SECONDS, SOURCES, dump, mutate_data, time_limit, write_case
from language_helpers import make, write  # noqa: F401  (fixtures)
from interpreter.compiler.game import load_game, validate_file
from interpreter.errors import RuleRuntimeError
from interpreter.compiler.reach import zone_types

MEMO = RULESET.replace("r_eco.yaml", "sorting_memo.yaml")
LIXO = RULESET.replace("r_eco.yaml", "lixo.yaml")

MINI = """
name: Reach
players: {min: 2, max: 2}
params:
  colours: [red, blue]
cards:
  gem:
    for: {colour: colours}
    name: "gem:{colour}"
    count: 2
    start: box
  coin:
    count: 2
    start: purse
zones:
  box: {visible: nobody}
  purse: {visible: nobody}
  mid: {visible: everyone}
  far: {visible: everyone}
  reds: {visible: everyone}
  pile: {per: colours, visible: everyone}
  hand: {owner: each, visible: owner}
setup:
SETUP
turn:
  steps:
    - step: go
      do:
        - choose: go
          options: {ok: {}}
end:
  when: turn > 2
score: count(hand)
"""


def reach(make, setup: str, players: int = 2) -> dict:
    """{zone instance name: sorted type names that may be there} of MINI with these setup lines."""
    p = make(MINI.replace("SETUP", setup), players)
    return {p.zone_names[z]: sorted(p.type_names[t] for t in ts) for z, ts in enumerate(zone_types(p))}


GEMS = ["gem:blue", "gem:red"]


def test_a_zone_holds_the_types_that_start_there(make):
    got = reach(make, '  - move top of box to mid')
    assert got["box"] == GEMS and got["purse"] == ["coin"]


def test_a_type_reaches_a_zone_through_two_moves(make):
    got = reach(make, '  - move mid to far\n  - move box to mid')      # the order of the rules does not matter
    assert got["mid"] == GEMS and got["far"] == GEMS


def test_a_type_no_move_brings_to_a_zone_is_not_there(make):
    got = reach(make, '  - move box to mid\n  - move mid to far')
    assert got["far"] == GEMS and got["reds"] == [] and "coin" not in got["mid"]


def test_a_filter_on_the_cards_own_attributes_carries_only_the_types_passing_it(make):
    got = reach(make, "  - move box where colour == 'red' to reds\n  - move purse where kind == 'gem' to far")
    assert got["reds"] == ["gem:red"] and got["far"] == []


def test_a_filter_reading_more_than_the_card_lets_every_type_through(make):
    got = reach(make, "  - for: c in colours\n    do: [\"move box where colour == c to reds\"]")
    assert got["reds"] == GEMS


def test_an_unclear_part_of_a_filter_never_leaves_a_type_out(make):
    got = reach(make, "  - move box where not (colour == 'red' and count(mid) > 0) to reds")
    assert got["reds"] == GEMS


def test_a_constant_index_names_one_zone_of_a_family(make):
    got = reach(make, "  - move box where colour == 'red' to pile['blue']")
    assert got["pile[blue]"] == ["gem:red"] and got["pile[red]"] == []


def test_a_destination_with_a_non_constant_index_counts_for_every_zone_of_its_family(make):
    got = reach(make, "  - for: c in colours\n    do: [\"move top of purse to pile[c]\"]")
    assert got["pile[red]"] == ["coin"] and got["pile[blue]"] == ["coin"]


def test_a_player_zone_counts_for_every_player(make):
    got = reach(make, "  - move top of purse to hand(1)")
    assert got["hand(0)"] == ["coin"] and got["hand(1)"] == ["coin"]


def test_a_deal_brings_its_source_types_to_every_player(make):
    got = reach(make, "  - deal 1 from purse to hand")
    assert got["hand(0)"] == ["coin"] and got["hand(1)"] == ["coin"] and got["mid"] == []


def test_cards_bound_to_a_name_carry_the_types_of_what_they_were_chosen_from(make):
    text = MINI.replace("SETUP", "  - move top of purse to mid").replace(
        "options: {ok: {}}", "cards: mid\n          min: 0\n        - let kept = go\n        - move kept to far")
    p = make(text)
    got = {p.zone_names[z]: sorted(p.type_names[t] for t in ts) for z, ts in enumerate(zone_types(p))}
    assert got["far"] == ["coin"] and got["reds"] == []


# ---- the shipped games ----
def names_by_family(p) -> dict:
    """{zone declaration: the kinds of card that may be in any of its zones}."""
    out: dict = {}
    for z, ts in enumerate(zone_types(p)):
        out.setdefault(p.zone_decl[z].name, set()).update(p.type_attrs[t]["kind"] for t in ts)
    return out


def test_memo_container_stacks_hold_only_containers_and_grid_cells_never_do():
    got = names_by_family(load_game(MEMO).program(2))
    assert got["stack"] == {"container"} and got["containers"] == {"container"}
    assert got["down"] == got["up"] == {"recyclable", "truck"}


def test_r_eco_rewards_never_reach_a_hand():
    got = names_by_family(load_game(RULESET).program(4))
    assert got["hand"] == got["draw"] == {"recycling"} and got["won"] == got["rewards"] == {"reward"}


@pytest.mark.parametrize("path, players", [(RULESET, 2), (RULESET, 5), (LIXO, 3), (LIXO, 6), (MEMO, 2), (MEMO, 4)])
def test_every_card_of_a_played_game_is_always_where_its_type_may_be(path, players):
    p = load_game(path).program(players)
    may = zone_types(p)
    for seed in range(2):
        st, pick = p.new_state(seed), random.Random(seed)
        while True:
            for c, z in enumerate(st.loc):
                assert p.card_type[c] in may[z], (p.type_names[p.card_type[c]], p.zone_names[z])
            if st.over:
                break
            p.apply(st, pick.choice(p.legal_moves(st)))


# ---- mutated rulesets (the fuzz tests' mutations): the analysis never leaves out a type that gets there ----
@settings(max_examples=40, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(data=st_.data())
def test_every_card_of_a_mutated_ruleset_is_where_its_type_may_be(tmp_path_factory, data):
    name = data.draw(st_.sampled_from(sorted(SOURCES)), label="ruleset")
    mutant = data.draw(mutate_data(name), label="mutant")
    path = write_case(tmp_path_factory.mktemp("reach"), name, dump(mutant))
    with time_limit(EXAMPLE_SECONDS):
        if validate_file(path):
            return
        p = load_game(path).program(load_game(path).rules.min_players)
        may = zone_types(p)
        pick = random.Random(0)
        try:
            state = p.new_state(0)
            for _ in range(60):
                for c, z in enumerate(state.loc):
                    assert p.card_type[c] in may[z], (p.type_names[p.card_type[c]], p.zone_names[z])
                legal = p.legal_moves(state)
                if state.over or not legal:
                    break
                p.apply(state, pick.choice(legal))
        except RuleRuntimeError:
            pass                # a mutant whose rules fail: the fuzz tests check the error itself
