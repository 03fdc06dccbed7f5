"""`reveal CARDS to PLAYERS` (docs/language.md §7 "reveal" and §11): cards shown where they lie,
each rule sentence with a tiny ruleset of its own."""
from __future__ import annotations

import random

import pytest

from interpreter.compiler.game import load_game
from interpreter.errors import RuleRuntimeError
from interpreter.runtime import engine as E
from interpreter.runtime.events import describe, for_seat
from interpreter.seats.registry import make_bot
from interpreter.seats.worlds import determinise
from interpreter.seats.views import Observer, view_of
from interpreter.tools.records import make_record, replay
from language_helpers import do, edit, errors_of, make as make2, names, texts, write  # noqa: F401


@pytest.fixture
def make(make2):
    """The rulesets here are for 3 players."""
    return lambda text: make2(text, 3)

PEEK = """
    name: peek
    players: {min: 3, max: 3}
    cards:
      n:
        for: {rank: [1, 2, 3, 4, 5, 6, 7, 8, 9]}
        name: "n{rank}"
        attrs: {value: rank}
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each}
      pile: {}
    setup:
      - deal 2 from deck to hand
    turn:
      steps:
        - reveal hand(next(current)) to current
        - choose: c
          cards: hand
          count: 1
        - move c to pile
        - move top of deck to hand
    end:
      when: count(deck) == 0
    score: sum(hand.value)
"""


def zone(p, name):
    return p.zone_names.index(name)


def reveals(st):
    return [e for e in st.log if e[0] == E.REVEAL]


def test_a_reveal_moves_nothing(make):
    p = make(edit(PEEK, "- reveal hand(next(current)) to current", "- reveal hand(next(current)) to current\n"
                  "        - reveal deck to seats"))
    quiet = make(PEEK)
    st, st2 = p.new_state(0, log=True), quiet.new_state(0, log=True)
    assert st.zones == st2.zones and st.loc == st2.loc and st.rng == st2.rng


def test_the_event_carries_each_card_with_its_place_for_the_seats_shown(make):
    p = make(PEEK)
    st = p.new_state(0, log=True)
    hand1 = st.zones[zone(p, "hand(1)")]
    [event] = reveals(st)
    assert event == (E.REVEAL, zone(p, "hand(1)"), ((0, hand1[0]), (1, hand1[1])), 1 << 0)


def test_the_others_see_who_looked_at_how_many_cards_of_which_zone(make):
    p = make(PEEK)
    st = p.new_state(0, log=True)
    [seen] = [e for e in for_seat(p, st.log, 0) if e[0] == E.REVEAL]
    [unseen] = [e for e in for_seat(p, st.log, 2) if e[0] == E.REVEAL]
    assert seen[2] != 2 and unseen == (E.REVEAL, zone(p, "hand(1)"), 2, 1)
    assert describe(p, seen, 0) == "seat 0 saw 1×n5, 1×n8 in hand(1)"
    assert describe(p, unseen, 2) == "seat 0 looked at 2 cards of hand(1)"


def test_a_seat_shown_a_hand_knows_it_card_by_card(make):
    p = make(PEEK)
    st = p.new_state(0, log=True)
    view = view_of(p, for_seat(p, st.log, 0), 0)
    hand1 = [p.card_type[c] for c in st.zones[zone(p, "hand(1)")]]
    assert view.cards("hand(1)") == hand1
    assert sorted(view.known_cards("hand(1)").elements()) == sorted(hand1)
    assert view_of(p, for_seat(p, st.log, 2), 2).cards("hand(1)") == [None, None]


def test_a_reveal_to_a_list_of_players_shows_each_of_them(make):
    p = make(edit(PEEK, "to current", "to [current, prev(current)]"))
    st = p.new_state(0, log=True)
    [event] = reveals(st)
    assert event[3] == 0b101
    assert describe(p, event) == "seats 0, 2 saw 1×n5, 1×n8 in hand(1)"


def test_a_reveal_to_seats_shows_everyone(make):
    p = make(edit(PEEK, "- reveal hand(next(current)) to current", "- reveal top 1 of deck to seats"))
    st = p.new_state(0, log=True)
    [event] = reveals(st)
    top = st.zones[zone(p, "deck")][-1]
    assert event == (E.REVEAL, zone(p, "deck"), ((2, top),), 0b111)
    assert describe(p, event).startswith("everyone saw 1×")
    for seat in range(3):
        assert view_of(p, for_seat(p, st.log, seat), seat).known_positions("deck") == {2: p.card_type[top]}


def test_a_revealed_card_is_forgotten_when_its_zone_is_shuffled(make):
    p = make(edit(PEEK, "- move top of deck to hand", "- move top of deck to hand\n        - shuffle hand(next(current))"))
    st = p.new_state(0, log=True)
    do(p, st, texts(p, st)[0].replace("c: ", "c: "))
    view = view_of(p, for_seat(p, st.log, 0), 0)
    assert view.cards("hand(1)") == [None, None] and view.known_cards("hand(1)")    # K stays, places go


def test_a_revealed_card_that_leaves_unseen_is_no_longer_known_in_place(make):
    p = make(edit(PEEK, "- move c to pile", "- move c to deck"))      # nobody sees a card go into the deck
    st = p.new_state(0, log=True)
    do(p, st, texts(p, st)[0])         # seat 0 plays; now seat 1 plays one of the two cards seat 0 was shown
    assert None not in view_of(p, for_seat(p, st.log, 0), 0).cards("hand(1)")
    do(p, st, texts(p, st)[0])
    view = view_of(p, for_seat(p, st.log, 0), 0)
    assert view.cards("hand(1)") == [None, None] and sum(view.known_cards("hand(1)").values()) <= 1


def test_a_bot_shown_a_hand_never_deals_itself_a_world_where_that_hand_differs(make):
    p = make(PEEK)
    st = p.new_state(3, log=True)
    view = view_of(p, for_seat(p, st.log, 0), 0)
    hand1 = sorted(p.card_type[c] for c in st.zones[zone(p, "hand(1)")])
    gen = random.Random(1)
    for _ in range(50):
        world = determinise(p, st, 0, gen, view=view)
        assert sorted(p.card_type[c] for c in world.zones[zone(p, "hand(1)")]) == hand1


def test_the_play_log_tells_the_faces_to_the_seat_shown_and_who_looked_to_the_others(make):
    from interpreter.tools.play.story import Story
    p = make(PEEK)
    st = p.new_state(0, log=True)
    story = Story.__new__(Story)
    story.program = p
    story.display = type("D", (), {"labels": {}, "label": staticmethod(lambda n: n)})()
    assert "seat 0 saw 1×n5, 1×n8 in hand(1)" in story.event_lines(reveals(st), [0])
    assert "seat 0 looked at 2 cards of hand(1)" in story.event_lines(reveals(st), [2])


def test_a_game_with_reveals_replays_from_its_record(write):
    game = load_game(write(PEEK))
    bots = lambda: [make_bot("memory", 1), make_bot("ismcts", 2), make_bot("random", 3)]
    record = make_record(game, 3, 4, bots(), ["memory", "ismcts", "random"])
    assert replay(game, record) == record["result"]
    assert make_record(game, 3, 4, bots(), ["memory", "ismcts", "random"]) == record



def test_one_card_can_be_revealed(make):
    p = make(edit(PEEK, "- reveal hand(next(current)) to current", "- reveal last(deck) to seats\n"
                  "        - reveal first(pile) to seats"))      # the pile is empty: nothing to reveal
    st = p.new_state(0, log=True)
    deck = st.zones[zone(p, "deck")]
    assert reveals(st) == [(E.REVEAL, zone(p, "deck"), ((len(deck) - 1, deck[-1]),), 0b111)]


def test_revealing_a_number_is_an_error_at_it(write):
    text = edit(PEEK, "reveal hand(next(current)) to current", "reveal 3 to current")
    assert errors_of(write, text) == [(18, 14, "what to reveal must be a zone, a set of cards or a card, but this is a number")]


def test_revealing_to_a_zone_is_an_error_at_it(write):
    text = edit(PEEK, "reveal hand(next(current)) to current", "reveal hand(next(current)) to pile")
    assert errors_of(write, text) == [
        (18, 37, "who the cards are shown to must be a list or a player, but this is a zone")]


def test_revealing_to_a_list_of_texts_is_an_error_at_it(write):
    text = edit(PEEK, "reveal hand(next(current)) to current", "reveal hand to ['a', 'b']")
    assert errors_of(write, text) == [(18, 22, "cards are shown to players, but an item of this list is a text")]


def test_revealing_to_a_seat_nobody_has_stops_the_game_at_the_rule(make):
    p = make(edit(PEEK, "to current", "to current + 5"))
    with pytest.raises(RuleRuntimeError) as exc:
        p.new_state(0, log=True)
    assert exc.value.pos.line == 18 and "there is no player 5" in str(exc.value)
