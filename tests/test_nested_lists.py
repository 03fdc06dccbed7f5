"""Lists of lists: a list may hold lists, `grid[i][j]` reads an item of an item, `set grid[i][j] = v`
changes one item (the variable gets a new list: a clone of the state keeps the old one), and `+`
joins a list to a list read out of another list."""
from __future__ import annotations

import json

import pytest

from helpers import do, texts
from interpreter.compiler.game import load_game
from interpreter.errors import RuleRuntimeError, RulesetError
from interpreter.seats.registry import make_bot
from interpreter.tools.records import make_record, replay
from language_helpers import edit, local, make, var, write  # noqa: F401

# Each seat remembers which of two spots it has looked at (known), and the table counts the looks at
# each spot in grid[spot][1]; a seat picks a spot it has not looked at yet.
SPOTS = """
    name: spots
    players: {min: 2, max: 2}
    cards:
      c:
        for: {value: [1, 2, 3]}
        name: "c{value}"
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each, visible: owner}
    vars:
      known: {owner: each, initial: "[[false, false], [false, false]]"}
      grid: {initial: "[[1, 2], [3, 4]]"}
      done: {initial: 0}
    setup:
      - set known(1)[0][1] = true
      - let item = grid[1][0]
      - let row = [] + grid[0]
      - let joined = [[1]] + [[2, 3]]
      - let told = if known(1)[0][1] then 1 else 0
      - deal 1 from deck to hand
    turn:
      steps:
        - step: main
          do:
            - choose: spot
              from: [0, 1]
              where: not known(current)[spot][0]
            - set known(current)[spot][0] = true
            - set grid[spot][1] = grid[spot][1] + 10
            - set done = done + 1
    end:
      when: done == 4
    score: count(v for v in known(me) if v[0] == true) + grid[0][1]
"""


def test_a_list_may_hold_lists_and_xs_i_j_reads_an_item_of_an_item(make):
    p = make(SPOTS)
    st = p.new_state(1)
    assert local(p, st, "item") == 3
    assert local(p, st, "told") == 1


def test_plus_joins_an_empty_list_to_a_list_read_out_of_a_list(make):
    p = make(SPOTS)
    st = p.new_state(1)
    assert local(p, st, "row") == [1, 2]
    assert local(p, st, "joined") == [[1], [2, 3]]


def test_set_changes_one_item_of_a_list_of_lists_and_keeps_the_rest(make):
    p = make(SPOTS)
    st = p.new_state(1)
    assert var(p, st, "known", 1) == [[False, True], [False, False]]
    assert var(p, st, "known", 0) == [[False, False], [False, False]]
    do(p, st, "spot: 1")
    assert var(p, st, "known", 0) == [[False, False], [True, False]]
    assert var(p, st, "grid") == [[1, 2], [3, 14]]


def test_a_clone_keeps_its_lists_when_the_original_sets_an_item(make):
    p = make(SPOTS)
    st = p.new_state(1)
    copy = st.clone()
    do(p, st, "spot: 0")
    assert var(p, copy, "grid") == [[1, 2], [3, 4]]
    assert var(p, copy, "known", 0) == [[False, False], [False, False]]
    assert var(p, st, "grid") == [[1, 12], [3, 4]]


def test_an_item_set_is_read_by_the_rules_that_follow(make):
    p = make(SPOTS)
    st = p.new_state(1)
    do(p, st, "spot: 0")                    # seat 0 has looked at spot 0
    do(p, st, "spot: 1")                    # seat 1 at spot 1
    assert texts(p, st) == ["spot: 1"]      # seat 0 may look only at spot 1 now


def test_a_game_with_lists_of_lists_replays_from_its_record(write):
    game = load_game(write(SPOTS))
    record = make_record(game, 2, 7, [make_bot("random"), make_bot("random")], ["random", "random"])
    assert replay(game, json.loads(json.dumps(record))) == record["result"]


def test_an_index_outside_the_list_in_set_is_an_error_at_the_rule(make):
    p = make(edit(SPOTS, "- set known(1)[0][1] = true", "- set known(1)[0][2] = true"))
    with pytest.raises(RuleRuntimeError) as err:
        p.new_state(1)
    assert err.value.pos.line == 17 and "index 2 is outside the list" in err.value.message


def test_setting_an_item_of_an_item_that_is_not_a_list_is_an_error_at_the_rule(make):
    text = edit(SPOTS, "  done: {initial: 0}", "  done: {initial: 0}\n      rows: {initial: \"[[1], 2]\"}")
    p = make(edit(text, "- set known(1)[0][1] = true", "- set rows[1][0] = 5"))
    with pytest.raises(RuleRuntimeError) as err:
        p.new_state(1)
    assert err.value.pos.line == 18 and "only a list has items to set, not" in err.value.message


def test_an_index_deeper_than_the_lists_of_the_initial_value_is_an_error_where_it_is_written(write):
    path = write(edit(SPOTS, "- set known(1)[0][1] = true", "- set grid[0][1][0] = 7"))
    with pytest.raises(RulesetError) as err:
        load_game(path)
    (diag,) = err.value.diagnostics
    assert (diag.pos.line, diag.pos.col) == (17, 20)
    assert diag.message == ("'grid' holds lists only 2 deep: an item at that depth is a number (its initial "
                            "value), so this index has no list to go into")


def test_joining_a_list_and_a_number_is_an_error_at_the_rule(make):
    text = edit(SPOTS, "  done: {initial: 0}", "  done: {initial: 0}\n      rows: {initial: \"[[1], 2]\"}")
    p = make(edit(text, "- let row = [] + grid[0]", "- let row = [] + rows[1]"))    # the checker cannot tell
    with pytest.raises(RuleRuntimeError) as err:
        p.new_state(1)
    assert err.value.pos.line == 20 and "'+' joins a list only to a list" in err.value.message


def test_joining_a_list_and_a_number_the_checker_sees_is_an_error_where_it_is_written(write):
    path = write(edit(SPOTS, "- let row = [] + grid[0]", "- let row = [] + grid[0][0]"))
    with pytest.raises(RulesetError) as err:
        load_game(path)
    (diag,) = err.value.diagnostics
    assert (diag.pos.line, diag.pos.col) == (19, 20)
    assert "'+' joins a list only to a list, but this is a number" in diag.message


def test_setting_an_item_of_a_variable_that_holds_a_number_is_an_error_where_it_is_written(write):
    path = write(edit(SPOTS, "- set known(1)[0][1] = true", "- set done[0] = 1"))
    with pytest.raises(RulesetError) as err:
        load_game(path)
    (diag,) = err.value.diagnostics
    assert (diag.pos.line, diag.pos.col) == (17, 14)
    assert "'done' holds a number, so it has no items to set" in diag.message


def test_a_list_index_in_set_must_be_a_number(write):
    path = write(edit(SPOTS, "- set known(1)[0][1] = true", "- set grid['a'][1] = 1"))
    with pytest.raises(RulesetError) as err:
        load_game(path)
    (diag,) = err.value.diagnostics
    assert (diag.pos.line, diag.pos.col) == (17, 14) and "a list index must be a number" in diag.message


def test_bots_play_a_game_with_lists_of_lists_to_its_end_through_simulate(write, capsys):
    from interpreter.tools.cli import main
    assert main(["simulate", write(SPOTS), "-n", "2", "--games", "6", "--seed", "3", "--jobs", "1",
                 "--bots", "greedy,ismcts", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    # each seat looks at both spots (2), and spot 0's count went up by 10 twice (2 + 20)
    assert doc["games"] == 6 and doc["score"]["mean_by_seat"] == [24, 24]


def test_a_new_item_must_be_the_same_kind_as_the_items_it_replaces(write):
    path = write(edit(SPOTS, "- set known(1)[0][1] = true", "- set known(1)[0][1] = 3"))
    with pytest.raises(RulesetError) as err:
        load_game(path)
    (diag,) = err.value.diagnostics
    assert (diag.pos.line, diag.pos.col) == (17, 26)
    assert "the new item of 'known' must be true or false, but this is a number" in diag.message


def test_a_new_row_must_be_a_list_where_the_rows_are_lists(write):
    path = write(edit(SPOTS, "- set known(1)[0][1] = true", "- set grid[0] = 5"))
    with pytest.raises(RulesetError) as err:
        load_game(path)
    (diag,) = err.value.diagnostics
    assert "the new item of 'grid' must be a list, but this is a number" in diag.message
