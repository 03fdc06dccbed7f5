"""Standing rules (docs/language.md, 9 "Standing rules: `whenever`"): after every move or deal
statement, each rule whose `when` holds runs its `do`, in the order written, until none holds."""
from __future__ import annotations

import pytest

from interpreter.compiler.game import load_game
from interpreter.errors import RuleRuntimeError, RulesetError
from interpreter.frontend.lint import lint_file
from interpreter.seats.registry import make_bot
from interpreter.tools.records import make_record, replay
from interpreter.tools.simulate import simulate
from language_helpers import do, edit, make, names, var, write  # noqa: F401

# Cards of ranks 1-3, four of each; whoever holds four of a rank lays them down as a book at once.
BOOKS = """
    name: books
    players: {min: 2, max: 3}
    params:
      ranks: [1, 2, 3]
    cards:
      card:
        for: {rank: ranks, suit: [a, b, c, d]}
        name: "{rank}{suit}"
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each, visible: owner}
      books: {owner: each, visible: everyone}
    vars:
      laid: {initial: 0}
      log: {initial: "[]"}
    whenever:
      - for: p in seats
        when: count(hand(p)) > 0 and any(count(hand(p) where rank == r) == 4 for r in ranks)
        do:
          - for: r in ranks
            do:
              - if: count(hand(p) where rank == r) == 4
                then: ["move hand(p) where rank == r to books(p)", "set laid = laid + 1"]
    turn:
      steps:
        - choose: act
          options:
            draw: {do: ["move top of deck to hand"]}
            note: {do: ["set log = log + [count(hand)]"]}
    end:
      when: count(deck) == 0
    score: count(books)
"""


def deck_top(p, st, order: list) -> None:
    """Put the named cards on top of the deck, the first named drawn first."""
    deck = st.zones[p.zone_names.index("deck")]
    for name in reversed(order):
        c = next(c for c in deck if p.type_names[p.card_type[c]] == name)
        deck.remove(c)
        deck.append(c)


def test_a_standing_rule_runs_its_do_right_after_the_move_that_makes_its_when_true(make):
    p = make(BOOKS, 2)
    st = p.new_state(0)
    deck_top(p, st, ["1a", "2a", "1b", "2b", "1c", "2c", "1d"])
    for _ in range(3):
        do(p, st, "draw")
        do(p, st, "draw")
    assert names(p, st, "hand(0)") == ["1a", "1b", "1c"]
    do(p, st, "draw")         # seat 0's fourth 1
    assert names(p, st, "books(0)") == ["1a", "1b", "1c", "1d"] and names(p, st, "hand(0)") == []


def test_a_standing_rule_is_checked_after_a_deal_in_the_setup(make):
    text = edit(BOOKS, "    turn:\n", "    setup:\n      - deal 4 from deck to hand\n    turn:\n")
    text = edit(edit(text, "ranks: [1, 2, 3]", "ranks: [1, 2]"), "for: {rank: ranks, suit: [a, b, c, d]}",
                "for: {suit: [a, b, c, d], rank: ranks}")
    p = make(text, 2)         # the deck is not shuffled: the deal gives seat 0 every 2 and seat 1 every 1
    st = p.new_state(0)
    assert names(p, st, "books(0)") == ["2d", "2c", "2b", "2a"] and names(p, st, "books(1)") == ["1d", "1c", "1b", "1a"]
    assert var(p, st, "laid") == 2


def test_a_standing_rule_is_not_checked_after_a_statement_that_moves_no_card(make):
    text = edit(BOOKS, "when: count(hand(p)) > 0 and any(count(hand(p) where rank == r) == 4 for r in ranks)",
                "when: count(log) == 1")
    text = edit(text, "do:\n          - for: r in ranks", "do:\n          - set log = log + [99]\n          - for: r in ranks")
    p = make(text, 2)
    st = p.new_state(0)
    do(p, st, "note")        # the log now holds one item, but a set moves no card: nothing runs
    assert var(p, st, "log") == [0]
    do(p, st, "draw")        # seat 1 draws: now the rule fires (for seat 0, the first seat)
    assert var(p, st, "log") == [0, 99]


def test_a_rule_with_for_is_checked_for_each_item_in_order(make):
    text = edit(BOOKS, "when: count(hand(p)) > 0 and any(count(hand(p) where rank == r) == 4 for r in ranks)",
                "when: count(hand(p)) > 0 and not (p in log)")
    text = edit(text, "do:\n          - for: r in ranks", "do:\n          - set log = log + [p]\n          - for: r in ranks")
    p = make(text, 3)
    st = p.new_state(0)
    do(p, st, "draw")        # seat 0 holds a card: the rule fires for it only
    assert var(p, st, "log") == [0]
    do(p, st, "draw")
    do(p, st, "draw")
    assert var(p, st, "log") == [0, 1, 2]


TWO_RULES = """
    name: two
    players: {min: 2, max: 2}
    cards:
      chip: {count: 6, start: pool}
    zones:
      pool: {visible: everyone}
      a: {visible: everyone}
      b: {visible: everyone}
      c: {visible: everyone}
    vars:
      order: {initial: "[]"}
    whenever:
      - when: count(b) > 0
        do: ["move b to c", "set order = order + ['second']"]
      - when: count(a) > 0
        do: ["move a to b", "set order = order + ['first']"]
    turn:
      steps:
        - choose: act
          options:
            go: {do: ["move top of pool to a"]}
    end:
      when: count(pool) == 0
    score: 0
"""


def test_after_a_rule_fires_every_rule_is_checked_again_from_the_first(make):
    p = make(TWO_RULES)
    st = p.new_state(0)
    do(p, st, "go")          # rule 2 moves a to b; then rule 1, checked first again, moves b to c
    assert var(p, st, "order") == ["first", "second"] and names(p, st, "c") == ["chip"]


def test_moves_inside_a_rules_do_do_not_start_a_check_of_their_own(make):
    text = edit(TWO_RULES, "do: [\"move a to b\", \"set order = order + ['first']\"]",
                "do: [\"move a to b\", \"set order = order + [count(c)]\"]")
    p = make(text)
    st = p.new_state(0)
    do(p, st, "go")          # when rule 2 sets order, rule 1 has not yet run (c is still empty)
    assert var(p, st, "order") == [0, "second"]


def test_a_rule_that_keeps_firing_stops_the_game_at_its_when(make):
    text = edit(TWO_RULES, "do: [\"move b to c\", \"set order = order + ['second']\"]", "do: [\"move b to b\"]")
    p = make(text)
    st = p.new_state(0)
    with pytest.raises(RuleRuntimeError) as err:
        do(p, st, "go")       # the second rule moves the chip to b; the first one then moves it on to b forever
    assert "this standing rule fired 100,000 times in a row in turn 1" in str(err.value)
    assert (err.value.pos.line, err.value.pos.col) == (14, 11)


def test_a_game_without_standing_rules_compiles_as_before(make):
    p = make(edit(edit(TWO_RULES, "      - when: count(b) > 0\n        do: [\"move b to c\", \"set order = order + ['second']\"]\n", ""),
                  "    whenever:\n      - when: count(a) > 0\n        do: [\"move a to b\", \"set order = order + ['first']\"]\n", ""))
    assert not p.rules.whenever and "standing" not in p.source


@pytest.mark.parametrize("rule, line, col, message", [
    ("- {choose: pick, from: [1, 2]}", 16, 9, "a standing rule (whenever) runs between two statements, so it cannot ask"),
    ("- call ask", 16, 9, "procedure 'ask' asks for one"),
])
def test_a_standing_rule_cannot_ask_for_a_decision(write, rule, line, col, message):
    text = edit(TWO_RULES, "        do: [\"move b to c\", \"set order = order + ['second']\"]\n",
                f"        do:\n          {rule}\n")
    text = edit(text, "    turn:\n", "    procedures:\n      ask:\n        - {choose: x, from: [1, 2]}\n    turn:\n")
    with pytest.raises(RulesetError) as err:
        load_game(write(text))
    (diag,) = err.value.diagnostics
    assert (diag.pos.line, diag.pos.col) == (line, col) and message in diag.message, diag


@pytest.mark.parametrize("old, new, col, message", [
    ("when: count(b) > 0", "when: count(b)", 11, "a standing rule's when must be true or false, but this is a number"),
    ("- when: count(b) > 0", "- when: count(b) > 0\n        for: x in 3", 15, "what a standing rule's for goes over must be"),
    ("- when: count(b) > 0", "- when: count(b) > 0\n        then: []", 5, "unknown key 'then'"),
])
def test_a_standing_rule_is_checked_with_located_errors(write, old, new, col, message):
    with pytest.raises(RulesetError) as err:
        load_game(write(edit(TWO_RULES, old, new)))
    (diag,) = err.value.diagnostics
    assert diag.pos.col == col and message in diag.message, diag


def test_a_standing_rule_whose_when_is_always_false_is_a_warning(write):
    warnings = lint_file(write(edit(TWO_RULES, "when: count(b) > 0", "when: 1 > 2")))
    assert [(w.pos.line, w.pos.col, w.message) for w in warnings if w.code == "branch-never-runs"] == [
        (14, 11, "this standing rule never fires: its when is always false")]


def test_a_game_with_a_standing_rule_simulates_and_replays(write):
    text = edit(BOOKS, "    turn:\n", "    setup:\n      - shuffle deck\n      - deal 3 from deck to hand\n    turn:\n")
    game = load_game(write(text))
    summary = simulate(game, 3, 30, 2, ["random", "greedy", "random"])
    assert summary["games"] == 30
    for seed in range(4):
        record = make_record(game, 3, seed, [make_bot("random", seed), make_bot("greedy", seed + 1),
                                             make_bot("random", seed + 2)], ["random", "greedy", "random"])
        assert replay(game, record) == record["result"]
        assert all(score % 4 == 0 for score in record["result"]["scores"])     # books of four only


def test_a_standing_rule_can_take_a_seat_out_of_play_and_the_turn_order_skips_it(make):
    text = edit(TWO_RULES, "    whenever:\n", "    whenever:\n      - for: p in in_play\n"
                "        when: p == 1 and count(c) > 0\n        do: [\"eliminate p\"]\n")
    p = make(text.replace("max: 2}", "max: 3}").replace("min: 2, ", "min: 3, "), 3)
    st = p.new_state(0)
    do(p, st, "go")          # the chip reaches c: seat 1 is out, so seat 2 plays next
    assert st.current == 2


SWAP = """
    name: swap
    players: {min: 2, max: 2}
    cards:
      card: {count: 2, start: deck}
    zones:
      deck: {visible: nobody}
      hand: {owner: each, visible: owner}
    vars:
      seen_empty: {initial: 0}
    setup:
      - deal 1 from deck to hand
    whenever:
      - when: count(hand(0)) == 0 and seen_empty == 0
        do: ["set seen_empty = 1"]
    turn:
      steps:
        - together:
            - move hand(0) to hand(1)
            - move hand(1) to hand(0)
        - choose: act
          options:
            go: {do: []}
    end:
      when: turn > 1
    score: count(hand)
"""


def test_standing_rules_are_checked_once_the_moves_of_together_have_landed(make):
    # the swap empties hand(0) only while its cards are on their way: no rule sees it empty
    p = make(SWAP, 2)
    st = p.new_state(0)
    assert [len(st.zones[p.zone_names.index(z)]) for z in ("hand(0)", "hand(1)")] == [1, 1]
    assert var(p, st, "seen_empty") == 0
