"""`together:` moves that happen at once (docs/language.md §7 "together"): each rule sentence with a
tiny ruleset of its own."""
from __future__ import annotations

import pytest

from interpreter.compiler.game import load_game
from interpreter.frontend.lint import lint_file
from interpreter.runtime import engine as E
from interpreter.runtime.events import for_seat
from interpreter.seats.registry import make_bot
from interpreter.seats.views import view_of
from interpreter.tools.records import make_record, replay
from language_helpers import do, edit, errors_of, make as make2, names, texts, write  # noqa: F401

PASS = """
    name: pass
    players: {min: 3, max: 3}
    cards:
      n:
        for: {rank: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]}
        name: "n{rank}"
        attrs: {value: rank}
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each}
      passing: {owner: each}
    setup:
      - deal 4 from deck to hand
      - together:
          - for: p in seats
            do: ["move hand(p) to hand(next(p))"]
    turn:
      steps:
        - choose: pass
          cards: hand
          count: 1
        - move pass to passing
    end:
      when: turn >= 3
    score: sum(hand.value)
"""


@pytest.fixture
def make(make2):
    """The rulesets here are for 3 players."""
    return lambda text: make2(text, 3)


# deal 4, one at a time from seat 0, from the top (n12): seat 0 n12 n9 n6 n3, seat 1 n11 n8 n5 n2, seat 2 n10 n7 n4 n1
DEALT = {0: ["n12", "n9", "n6", "n3"], 1: ["n11", "n8", "n5", "n2"], 2: ["n10", "n7", "n4", "n1"]}


def test_every_hand_moves_to_the_next_seat_at_once(make):
    p = make(PASS)
    st = p.new_state(0)
    for seat in range(3):
        assert names(p, st, f"hand({(seat + 1) % 3})") == DEALT[seat]


def test_a_plain_loop_passes_the_hands_on_again(make):
    p = make(edit(PASS, "      - together:\n          - for: p in seats\n            do:",
                  "      - for: p in seats\n        do:"))
    st = p.new_state(0)
    assert [len(names(p, st, f"hand({s})")) for s in range(3)] == [12, 0, 0]


def test_each_player_passes_three_cards_to_the_left_and_keeps_the_rest(make):
    p = make(edit(PASS, 'do: ["move hand(p) to hand(next(p))"]', 'do: ["move top 3 of hand(p) to hand(next(p))"]'))
    st = p.new_state(0)
    # each hand keeps its bottom card, then gets its neighbour's top three (taken top first)
    for seat in range(3):
        left = (seat - 1) % 3
        assert names(p, st, f"hand({seat})") == DEALT[seat][:1] + list(reversed(DEALT[left][1:]))


def test_chosen_cards_pass_at_once_once_every_player_has_chosen(make):
    text = edit(PASS, "        - move pass to passing", "        - move pass to passing\n"
                "        - if: current == players - 1\n          then:\n            - together:\n"
                "                - for: p in seats\n                  do: [\"move passing(p) to hand(next(p))\"]")
    p = make(edit(text, "when: turn >= 3", "when: turn > 3"))
    st = p.new_state(0)
    for seat in range(3):
        do(p, st, texts(p, st)[0])
        if seat < 2:
            assert names(p, st, f"hand({(seat + 1) % 3})") == DEALT[seat]   # nothing has landed yet
    for seat in range(3):
        assert len(names(p, st, f"hand({seat})")) == 4 and names(p, st, f"passing({seat})") == []


def test_the_moves_are_told_as_ordinary_moves_in_the_order_they_were_taken(make):
    p = make(PASS)
    st = p.new_state(0, log=True)
    moves = [e for e in st.log if e[0] == E.MOVE and p.zone_names[e[1]].startswith("hand")]
    assert [(p.zone_names[e[1]], p.zone_names[e[2]], len(e[3])) for e in moves] == [
        ("hand(0)", "hand(1)", 4), ("hand(1)", "hand(2)", 4), ("hand(2)", "hand(0)", 4)]


def test_each_seat_sees_the_cards_it_gets_and_its_view_holds_them(make):
    p = make(PASS)
    st = p.new_state(0, log=True)
    for seat in range(3):
        view = view_of(p, for_seat(p, st.log, seat), seat)
        mine = [p.card_type[c] for c in st.zones[p.zone_names.index(f"hand({seat})")]]
        assert view.cards(f"hand({seat})") == mine
        mine_before = [p.type_index[n] for n in DEALT[seat]]
        assert view.cards(f"hand({(seat + 1) % 3})") == mine_before     # it saw its own cards go
        assert view.cards(f"hand({(seat + 2) % 3})") == [None] * 4


def test_a_game_with_moves_at_once_replays_from_its_record(write):
    game = load_game(write(PASS))
    bots = lambda: [make_bot("memory", 1), make_bot("ismcts", 2), make_bot("random", 3)]
    record = make_record(game, 3, 2, bots(), ["memory", "ismcts", "random"])
    assert replay(game, record) == record["result"]



def test_a_decision_inside_together_is_an_error_at_it(write):
    text = edit(PASS, '            do: ["move hand(p) to hand(next(p))"]',
                '            do: [{choose: x, by: p, cards: hand(p), count: 1}]')
    assert errors_of(write, text) == [
        (18, 14, "a decision cannot stand inside together: its moves all happen at once")]


def test_a_shuffle_inside_together_is_an_error_at_it(write):
    text = edit(PASS, 'do: ["move hand(p) to hand(next(p))"]', 'do: ["move hand(p) to hand(next(p))", "shuffle hand(p)"]')
    assert errors_of(write, text) == [(18, 48, "inside together only move, let, if and for may stand, not shuffle")]


def test_a_plain_loop_that_passes_hands_on_is_warned_about(write):
    path = write(edit(PASS, "      - together:\n          - for: p in seats\n            do:",
                      "      - for: p in seats\n        do:"))
    [warning] = [w for w in lint_file(path) if w.code == "loop-passes-on-again"]
    assert (warning.pos.line, warning.pos.col) == (17, 11)


def test_the_same_loop_inside_together_is_not_warned_about(write):
    assert not [w for w in lint_file(write(PASS)) if w.code == "loop-passes-on-again"]


def test_what_a_seat_knows_after_moves_at_once_is_true(make):
    """Many passes of shuffled hands: every known place and every type in K is really there."""
    text = edit(PASS, "      - deal 4 from deck to hand", "      - shuffle deck\n      - deal 4 from deck to hand")
    text = edit(text, 'do: ["move hand(p) to hand(next(p))"]',
                'do: ["move top 2 of hand(p) to hand(next(p))", "move bottom of hand(next(p)) to bottom of hand(p)"]')
    text = edit(text, "        - move pass to passing", "        - move pass to passing\n        - together:\n"
                "            - for: p in seats\n              do: [\"move top 1 of hand(p) to hand(prev(p))\"]")
    p = make(edit(text, "when: turn >= 3", "when: turn >= 6"))
    for seed in range(8):
        st = p.new_state(seed, log=True)
        while not st.over:
            do(p, st, texts(p, st)[seed % len(texts(p, st))])
            for seat in range(3):
                view = view_of(p, for_seat(p, st.log, seat), seat)
                for z, cards in enumerate(st.zones):
                    truth = [p.card_type[c] for c in cards]
                    assert all(truth[i] == t for i, t in view.known_positions(z).items())
                    assert not view.known_cards(z) - __import__("collections").Counter(truth)


def test_let_and_if_may_stand_around_the_moves(make):
    p = make(edit(PASS, 'do: ["move hand(p) to hand(next(p))"]',
                  'do: ["let dest = next(p)", {if: "p != 0", then: ["move hand(p) to hand(dest)"]}]'))
    st = p.new_state(0)
    assert names(p, st, "hand(0)") == DEALT[0] + DEALT[2]       # seat 0 kept its hand and got seat 2's
    assert names(p, st, "hand(1)") == [] and names(p, st, "hand(2)") == DEALT[1]


def test_a_value_worked_out_inside_sees_the_sources_already_taken(make):
    p = make(edit(PASS, 'do: ["move hand(p) to hand(next(p))"]',
                  'do: [{if: "count(hand(prev(p))) == 4", then: ["move hand(p) to hand(next(p))"]}]'))
    st = p.new_state(0)
    # p = 0 moves (hand(2) holds 4); p = 1 finds hand(0) already taken and keeps its hand; p = 2 moves
    assert [names(p, st, f"hand({s})") for s in range(3)] == [DEALT[2], DEALT[1] + DEALT[0], []]


def test_an_alike_zone_cannot_receive_cards_inside_together(write):
    text = edit(PASS, "      passing: {owner: each}", "      passing: {owner: each, alike: true}")
    text = edit(text, 'do: ["move hand(p) to hand(next(p))"]', 'do: ["move hand(p) to passing(next(p))"]')
    assert errors_of(write, text) == [
        (18, 15, "inside together, cards cannot go to zone 'passing', which is declared alike")]
