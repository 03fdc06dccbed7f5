"""Told facts: `tell PLAYERS about CARDS where CONDITION` (docs/language.md, "Told facts").

The rules tell seats, of each card, whether a condition on its attributes holds; the engine works
the answers out, so they are true. A told seat keeps what it learnt per card position (View.told)
until the card moves (the fact goes with it where the seat can follow it) or the zone is shuffled;
the others see only who was told about how many cards. The scripted game below puts in hand(0)
(held facing away: everybody but seat 0 sees it), bottom to top: red:1, red:3, blue:2.
"""
from __future__ import annotations

import io
import json
import random

import pytest
from rich.console import Console

from interpreter.compiler.game import load_game
from interpreter.errors import RulesetError
from interpreter.frontend.lint import lint_file
from interpreter.runtime.engine import MOVE
from interpreter.runtime.events import describe, for_seat
from interpreter.runtime.tell import TELL
from interpreter.seats import told as told_deal
from interpreter.seats.player import Player
from interpreter.seats.seat import Bot
from interpreter.seats.registry import make_bot
from interpreter.seats.views import view_of
from interpreter.seats.worlds import determinise
from interpreter.tools.play import Session
from interpreter.tools.records import make_record, replay
from interpreter.tools.web.table import WebTable
from language_helpers import do, edit, errors_of, make, write  # noqa: F401

GAME = """
    name: told
    players: {min: 2, max: 2}
    cards:
      c:
        for: {colour: [red, blue], rank: [1, 2, 3]}
        name: "{colour}:{rank}"
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each, visible: others}
      secret: {owner: each, visible: owner}
      stash: {visible: nobody}
      table: {visible: everyone}
    setup:
      - move deck where name == 'red:1' or name == 'blue:2' or name == 'red:3' to hand(0)
      - tell 0 about hand(0) where colour == 'red'
    turn:
      steps:
        - choose: go
          options: {ok: {}, wait: {}}
    end: {when: "turn > 1"}
    score: 0
"""
TOLD = "      - tell 0 about hand(0) where colour == 'red'\n"
REDS = {"red:1", "red:2", "red:3"}
BLUES = {"blue:1", "blue:2", "blue:3"}


def after(text: str, game: str = GAME) -> str:
    """The scripted game with more setup statements after the first tell."""
    return edit(game, TOLD, TOLD + "".join(f"      - {s}\n" for s in text.split("; ")))


def told(p, st, seat: int, zone: str) -> dict:
    """What `seat` was told of each position of `zone`: {position: set of type names}."""
    view = view_of(p, for_seat(p, st.log, seat), seat)
    return {i: {p.type_names[t] for t in ts} for i, ts in view.told(zone).items()}


def tells(p, st, seat: int | None = None) -> list:
    events = st.log if seat is None else for_seat(p, st.log, seat)
    return [e for e in events if e[0] == TELL]


def test_the_seats_told_learn_of_each_card_whether_the_condition_holds(make):
    p = make(GAME)
    st = p.new_state(0, log=True)
    assert told(p, st, 0, "hand(0)") == {0: REDS, 1: REDS, 2: BLUES}


def test_a_seat_not_told_sees_only_who_was_told_about_how_many_cards(make):
    p = make(GAME)
    st = p.new_state(0, log=True)
    [event] = tells(p, st, 1)
    assert event[2:] == (3, 1, None, None)
    assert describe(p, event, 1) == "seat 0 was told about 3 cards of hand(0)"
    assert told(p, st, 1, "hand(0)") == {}


def test_the_told_seats_read_what_they_were_told_in_words(make):
    p = make(after("tell 0 about top 1 of hand(0) where rank != 2"))
    st = p.new_state(0, log=True)
    first, second = tells(p, st, 0)
    assert describe(p, first, 0) == "seat 0 was told: 2 cards of hand(0) are colour red, 1 is not"
    assert describe(p, second, 0) == "seat 0 was told: 1 card of hand(0) is rank 2"
    view = view_of(p, for_seat(p, st.log, 0), 0)
    assert view.told_words("hand(0)") == {0: ["colour red"], 1: ["colour red"], 2: ["not colour red", "rank 2"]}


def test_the_where_of_top_n_of_is_what_is_told_about_the_top_cards(make):
    p = make(after("tell 0 about top 1 of hand(0) where rank == 1"))
    st = p.new_state(0, log=True)
    assert tells(p, st)[1][2] == ((2, False),)     # blue:2 on top: not a 1 (in a move: the top 1)


def test_several_facts_about_one_card_combine(make):
    p = make(after("tell 0 about hand(0) where rank == 1"))
    st = p.new_state(0, log=True)
    assert told(p, st, 0, "hand(0)") == {0: {"red:1"}, 1: {"red:2", "red:3"}, 2: {"blue:2", "blue:3"}}


def test_values_worked_out_when_telling_stand_in_the_words(make):
    p = make(after("let c = 'blue'; tell 0 about hand(0) where colour != c"))
    st = p.new_state(0, log=True)
    assert describe(p, tells(p, st, 0)[1], 0) == \
        "seat 0 was told: 2 cards of hand(0) are not colour blue, 1 is not"
    assert told(p, st, 0, "hand(0)")[2] == BLUES


def test_what_is_told_is_always_the_truth(make):
    text = edit(GAME, "      - move deck where name == 'red:1' or name == 'blue:2' or name == 'red:3' to hand(0)\n",
                "      - shuffle deck\n      - move top 3 of deck to hand(0)\n")
    p = make(edit(text, TOLD, TOLD + "      - tell 0 about hand(0) where rank >= 2\n"))
    for seed in range(20):
        st = p.new_state(seed, log=True)
        truth = [p.type_names[p.card_type[c]] for c in st.zones[p.zone_names.index("hand(0)")]]
        facts = told(p, st, 0, "hand(0)")
        assert sorted(facts) == [0, 1, 2]
        assert all(truth[i] in facts[i] and len(facts[i]) == (2 if truth[i][-1] in "23" else 1) for i in facts)


def test_a_told_fact_goes_with_its_card_into_a_zone_the_seat_cannot_see(make):
    p = make(after("move hand(0) where name == 'red:3' to stash"))
    st = p.new_state(0, log=True)
    assert told(p, st, 0, "stash") == {0: REDS}


def test_the_facts_of_the_cards_left_close_up_when_a_card_leaves(make):
    p = make(after("move hand(0) where name == 'red:3' to stash"))
    st = p.new_state(0, log=True)
    assert told(p, st, 0, "hand(0)") == {0: REDS, 1: BLUES}


def test_a_card_entering_under_a_zone_shifts_its_facts_up(make):
    p = make(after("move top 1 of deck to bottom of hand(0)"))
    st = p.new_state(0, log=True)
    assert told(p, st, 0, "hand(0)") == {1: REDS, 2: REDS, 3: BLUES}


def test_a_shuffle_forgets_the_facts_of_its_zone(make):
    p = make(after("shuffle hand(0)"))
    assert told(p, p.new_state(0, log=True), 0, "hand(0)") == {}


def test_a_card_the_seat_sees_face_up_needs_no_fact(make):
    p = make(after("move hand(0) where name == 'blue:2' to table"))
    st = p.new_state(0, log=True)
    assert told(p, st, 0, "table") == {}
    assert told(p, st, 0, "hand(0)") == {0: REDS, 1: REDS}


def test_facts_follow_cards_moved_together(make):
    p = make(after("together: [\"move top 1 of hand(0) to stash\", \"move bottom 1 of hand(0) to stash\"]"))
    st = p.new_state(0, log=True)
    assert told(p, st, 0, "stash") == {0: BLUES, 1: REDS}
    assert told(p, st, 0, "hand(0)") == {0: REDS}


def test_a_fact_about_a_private_zone_is_dropped_when_a_card_leaves_it_unseen_by_that_seat(make):
    text = after("move hand(0) to secret(1); tell 0 about secret(1) where rank == 3; "
                 "move secret(1) where name == 'red:1' to stash")
    p = make(text)
    st = p.new_state(0, log=True)
    assert told(p, st, 0, "secret(1)") == {}        # seat 0 may not know where in secret(1) it lay


def test_the_positions_a_private_zone_loses_go_only_to_the_seats_that_see_it(make):
    p = make(after("move hand(0) to secret(1); move secret(1) where name == 'red:3' to table"))
    st = p.new_state(0, log=True)
    last = [e for e in st.log if e[0] == MOVE][-1]
    assert last[7] == (1,)
    assert [e for e in for_seat(p, st.log, 1) if e[0] == MOVE][-1][7] == (1,)
    assert [e for e in for_seat(p, st.log, 0) if e[0] == MOVE][-1][7] is None


def test_the_positions_a_hand_held_facing_away_loses_go_to_every_seat(make):
    p = make(after("move hand(0) where name == 'red:3' to table"))
    st = p.new_state(0, log=True)
    for seat in (0, 1):
        assert [e for e in for_seat(p, st.log, seat) if e[0] == MOVE][-1][7] == (1,)


PRIVATE = """
    name: private
    players: {min: 2, max: 2}
    cards:
      c:
        for: {colour: [red, blue], rank: [1, 2, 3]}
        name: "{colour}:{rank}"
        start: deck
    zones:
      deck: {visible: nobody}
      secret: {owner: each, visible: owner}
      table: {visible: everyone}
    setup:
      - shuffle deck
      - move top 4 of deck to secret(0)
      - tell 1 about table where rank == 1
    turn:
      steps:
        - choose: played
          cards: secret(me)
          count: 1
        - move played to table
    end: {when: "turn > 1"}
    score: 0
"""


def test_permuting_the_cards_a_seat_has_not_seen_changes_nothing_it_receives(make):
    p = make(PRIVATE)
    secret = p.zone_names.index("secret(0)")
    for seed in range(10):
        st = p.new_state(seed, log=True)
        move = p.legal_moves(st)[0]
        twin = st.clone()
        random.Random(seed).shuffle(twin.zones[secret])
        before = len(st.log)
        p.play(st, move)
        p.play(twin, move)
        assert for_seat(p, st.log[before:], 1) == for_seat(p, twin.log[before:], 1)
        for game in (st, twin):     # its holder is told where the card lay
            assert [e for e in for_seat(p, game.log[before:], 0) if e[0] == MOVE][0][7] is not None


def test_a_game_without_tell_keeps_its_move_events_as_they_were(make):
    p = make(edit(GAME, TOLD, ""))
    st = p.new_state(0, log=True)
    assert all(len(e) == 5 for e in st.log if e[0] == MOVE)


def test_the_view_as_a_dictionary_names_what_each_position_may_be(make):
    p = make(GAME)
    st = p.new_state(0, log=True)
    entry = view_of(p, for_seat(p, st.log, 0), 0).to_dict()["zones"]["hand(0)"]
    assert entry["told"][2] == {"could_be": sorted(BLUES), "words": ["not colour red"]}
    assert "told" not in view_of(p, for_seat(p, st.log, 1), 1).to_dict()["zones"]["hand(0)"]


# ---------------------------------------------------------------- errors

def test_what_is_told_may_not_read_a_zone(write):
    text = edit(GAME, TOLD, "      - tell 0 about hand(0) where count(table) > 0\n")
    [(line, col, message)] = errors_of(write, text)
    assert (line, col) == (17, 38)
    assert message.startswith("what tell says may depend only on the card's attributes")


def test_who_is_told_must_be_players(write):
    text = edit(GAME, TOLD, "      - tell 'x' about hand(0) where colour == 'red'\n")
    [(line, col, message)] = errors_of(write, text)
    assert (line, col) == (17, 10) and "who is told" in message


def test_what_is_told_about_must_be_cards(write):
    text = edit(GAME, TOLD, "      - tell 0 about 3 where colour == 'red'\n")
    [(line, col, message)] = errors_of(write, text)
    assert (line, col) == (17, 18) and "what the players are told about" in message


def test_a_tell_needs_a_where(write):
    text = edit(GAME, TOLD, "      - tell 0 about hand(0)\n")
    [(line, col, message)] = errors_of(write, text)
    assert (line, col) == (17, 18) and message.startswith("tell needs a where")


def test_a_tell_cannot_stand_inside_together(make):
    with pytest.raises(RulesetError, match="inside together only move, let, if and for may stand, not tell"):
        make(edit(GAME, TOLD, "      - together:\n          - tell 0 about hand(0) where colour == 'red'\n"))


# ---------------------------------------------------------------- determinisation and bots

HANABI = """
    name: slots
    players: {min: 2, max: 2}
    cards:
      c:
        for: {colour: [red, blue, green], rank: [1, 5]}
        name: "{colour}:{rank}"
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each, visible: others}
      won: {owner: each, visible: everyone}
    setup:
      - shuffle deck
      - move top 2 of deck to hand(0)
      - move top 2 of deck to hand(1)
      - tell 0 about hand(0) where rank == 5
    turn:
      steps:
        - choose: slot
          from: numbers(count(hand))
        - move top of bottom slot of hand to won
    end: {when: "turn > 2"}
    score: count(won where rank == 1)
"""


def test_every_world_a_seat_is_dealt_keeps_what_it_was_told(make):
    p = make(HANABI)
    gen = random.Random(1)
    hand = p.zone_names.index("hand(0)")
    for seed in range(6):
        st = p.new_state(seed, log=True)
        view = view_of(p, for_seat(p, st.log, 0), 0)
        facts = view.told("hand(0)")
        assert sorted(facts) == [0, 1]
        seen = set()
        for _ in range(500):
            world = determinise(p, st, 0, gen, view)
            for i, c in enumerate(world.zones[hand]):
                assert p.card_type[c] in facts[i]
                seen.add((i, p.card_type[c]))
        assert len(seen) > 2        # still dealt at random within what it was told


def test_the_exact_deal_keeps_what_was_told_when_the_greedy_one_is_not_tried(make, monkeypatch):
    monkeypatch.setattr(told_deal, "TRIES", 0)
    p = make(HANABI)
    gen = random.Random(2)
    hand = p.zone_names.index("hand(0)")
    st = p.new_state(3, log=True)
    view = view_of(p, for_seat(p, st.log, 0), 0)
    facts = view.told("hand(0)")
    for _ in range(300):
        world = determinise(p, st, 0, gen, view)
        assert all(p.card_type[c] in facts[i] for i, c in enumerate(world.zones[hand]))


def test_a_seat_told_its_card_is_a_one_is_never_dealt_anything_else(make):
    text = edit(HANABI, "      - tell 0 about hand(0) where rank == 5\n",
                "      - tell 0 about top 1 of hand(0) where name == 'red:1'\n")
    text = edit(text, "      - shuffle deck\n      - move top 2 of deck to hand(0)\n",
                "      - shuffle deck\n      - move deck where name == 'red:1' to hand(0)\n"
                "      - move top 1 of deck to bottom of hand(0)\n")
    p = make(text)
    st = p.new_state(0, log=True)
    hand = p.zone_names.index("hand(0)")
    seat = make_bot("automa", 3).seat_for(p, st, p.legal_moves(st))
    assert {p.type_names[t] for t in seat.view.told("hand(0)")[1]} == {"red:1"}
    for world in seat.worlds(3000):
        assert p.type_names[p.card_type[world.zones[hand][1]]] == "red:1"


def ranks(p, st, zone: str) -> list:
    return [p.type_names[p.card_type[c]].split(":")[1] for c in st.zones[p.zone_names.index(zone)]]


@pytest.mark.parametrize("bot", ["greedy", "automa", "memory", "ismcts:iterations=60"])
def test_a_bot_told_its_card_is_bad_never_plays_it(make, bot):
    p = make(HANABI)
    decided = 0
    for seed in range(12):
        st = p.new_state(seed, log=True)
        if sorted(ranks(p, st, "hand(0)")) != ["1", "5"]:
            continue            # both alike: either card is as good
        p.play(st, make_bot(bot, seed).choose(p, st, p.legal_moves(st)))
        assert ranks(p, st, "won(0)") == ["1"]
        decided += 1
    assert decided >= 3


# Each turn the current seat plays one card of its hand held facing away, by place; a 5 is a hit.
# With told: true it is first told which of its places hold a 5.
FIVES = """
    name: fives
    players: {min: 2, max: 2}
    params:
      told: true
    cards:
      c:
        for: {rank: [1, 2, 3, 4, 5]}
        name: "r{rank}"
        count: 4
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each, visible: others}
      played: {visible: everyone}
    vars:
      hits: {initial: 0}
    setup: ["shuffle deck", "deal 4 from deck to hand"]
    turn:
      steps:
        - if: told
          then: ["tell current about hand where rank == 5"]
        - choose: slot
          from: numbers(count(hand))
        - let card = top of bottom slot of hand
        - if: first(card).rank == 5
          then: ["set hits = hits + 1"]
        - move card to played
        - move top of deck to hand
    end:
      when: count(deck) == 0
    score: hits
    cooperative: {win: hits >= 3}
"""


@pytest.mark.parametrize("bot", ["greedy", "automa"])
def test_a_bot_plays_by_what_it_was_told_and_untold_finds_its_good_cards_no_more_often_than_chance(make, bot):
    hits = {}
    for told in (True, False):
        p = make(FIVES.replace("told: true", f"told: {str(told).lower()}"))
        plays = good = 0
        for seed in range(40):
            st, chooser = p.new_state(seed, log=True), make_bot(bot, seed)
            while not st.over:
                p.play(st, chooser.choose(p, st, p.legal_moves(st)))
                plays += 1
            good += p.result(st)["scores"][0]
        hits[told] = good / plays
    # 4 of the 20 cards are 5s: blind, a place holds one about 1 time in 5; told, every 5 dealt is
    # played before any other card (3 in 10 here); a bot that peeked would score as if told
    assert hits[True] > 0.27 and 0.12 < hits[False] < 0.25, hits


# ---------------------------------------------------------------- play and the web table

def screen(p_game, seat: int) -> str:
    """The play screen of the first decision, as `seat` sees it."""
    s = Session(p_game, 2, 1, {}, ask=lambda prompt: "q", console=Console(file=io.StringIO(), width=100, height=30))
    out = io.StringIO()
    s.console = Console(file=out, width=100, height=30, highlight=False, color_system=None)
    s.show(seat, s.program.legal_moves(s.st), 0)
    return " ".join(out.getvalue().split())


def test_play_shows_a_seat_what_it_was_told_about_each_of_its_cards_in_words(write):
    g = load_game(write(after("tell 0 about top 1 of hand(0) where rank == 2")))
    assert "hand: 3 cards — 1: colour red · 2: colour red · 3: not colour red, rank 2" in screen(g, 0)
    assert "colour red" not in screen(g, 1)


def test_play_leaves_a_place_nobody_told_about_as_a_question_mark(write):
    g = load_game(write(after("move top 1 of deck to hand(0)")))
    assert "hand: 4 cards — 1: colour red · 2: colour red · 3: not colour red · 4: ?" in screen(g, 0)


def test_the_story_tells_the_told_seat_what_it_learnt_and_the_others_only_how_many_cards(write):
    g = load_game(write(GAME))
    s = Session(g, 2, 1, {}, ask=lambda prompt: "q", console=Console(file=io.StringIO()))
    assert "seat 0 was told: 2 cards of hand(0) are colour red, 1 is not" in s.event_lines(s.st.log, [0])
    assert "seat 0 was told about 3 cards of hand(0)" in s.event_lines(s.st.log, [1])


def test_the_web_table_shows_a_seat_what_it_was_told_and_nobody_else(write):
    table = WebTable(load_game(write(GAME)), 2, 1, {})
    mine = " ".join(" ".join(part["items"]) for part in table.page(0)["seats"])
    assert "hand: 3 cards — 1: colour red · 2: colour red · 3: not colour red" in mine
    for viewer in (1, None):        # the other seat, and a spectator
        page = table.page(viewer)
        assert "colour red" not in json.dumps(page)
        assert "seat 0 was told about 3 cards of hand(0)" in json.dumps(page["log"])


# ---------------------------------------------------------------- lint

def test_a_tell_about_cards_the_players_already_see_is_a_lint_warning(write):
    text = after("tell 0 about table where rank == 1; tell 1 about secret(1) where rank == 1; "
                 "tell 1 about secret(0) where rank == 1")
    found = [(d.code, d.pos.line) for d in lint_file(write(text))]
    assert ("tell-about-seen-cards", 18) in found and ("tell-about-seen-cards", 19) in found
    assert ("tell-about-seen-cards", 20) not in found and ("tell-about-seen-cards", 17) not in found


def test_a_where_in_brackets_picks_the_cards_and_the_last_where_is_what_is_told(make):
    p = make(after("tell 0 about (hand(0) where colour == 'red') where rank == 1"))
    st = p.new_state(0, log=True)
    assert tells(p, st)[1][2] == ((0, True), (1, False))
    assert told(p, st, 0, "hand(0)") == {0: {"red:1"}, 1: {"red:2", "red:3"}, 2: BLUES}


def test_the_manuals_hint_example_tells_the_next_player_about_its_hand(make):
    text = edit(GAME, "    turn:\n      steps:\n        - choose: go\n          options: {ok: {}, wait: {}}\n",
                "    turn:\n      steps:\n        - choose: hint\n          from: ['red', 'blue']\n"
                "        - tell next(me) about hand(next(me)) where colour == hint\n"
                "        - tell next(me) about top 1 of hand(next(me)) where rank == 5\n")
    p = make(edit(text, TOLD, "      - move deck where name == 'blue:1' to hand(1)\n"))
    st = p.new_state(0, log=True)
    do(p, st, "hint: blue")
    assert told(p, st, 1, "hand(1)") == {0: BLUES}
    assert view_of(p, for_seat(p, st.log, 1), 1).told_words("hand(1)") == {0: ["colour blue", "not rank 5"]}


# ---------------------------------------------------------------- a user's bot

class Peek(Bot):
    """A user's bot that notes what its seat is given: the facts, the tell events, a few worlds."""

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self.seen = []

    def choose(self, seat):
        hand = seat.program.zone_names.index(f"hand({seat.number})")
        worlds = [[seat.program.card_type[c] for c in w.zones[hand]] for w in seat.worlds(200)]
        self.seen.append((seat.view.told(f"hand({seat.number})"), seat.view.told("hand(1)"),
                          [e for e in seat.events if e[0] == TELL], worlds))
        return seat.moves[0]


def test_a_users_bot_sees_the_facts_its_seat_was_told_and_nothing_else(make):
    p = make(edit(HANABI, "      - tell 0 about hand(0) where rank == 5\n",
                  "      - tell 0 about hand(0) where rank == 5\n      - tell 1 about hand(1) where rank == 1\n"))
    st = p.new_state(2, log=True)
    bot = Peek()
    Player(bot, "peek.py:Peek", builtin=False).choose(p, st, p.legal_moves(st))
    [(mine, theirs, events, worlds)] = bot.seen
    truth = [p.card_type[c] for c in st.zones[p.zone_names.index("hand(0)")]]
    assert sorted(mine) == [0, 1] and all(truth[i] in mine[i] for i in mine)
    assert theirs == {}                                         # seat 1's facts are seat 1's
    assert events[1][2:] == (2, 2, None, None)                  # only that seat 1 was told about 2 cards
    assert all(all(t in mine[i] for i, t in enumerate(w)) for w in worlds)


def test_a_draw_from_a_pile_refilled_in_the_middle_forgets_the_facts_of_that_pile(make):
    text = edit(GAME, "      deck: {visible: nobody}\n", "      deck: {visible: nobody, on_empty: [\"move table to deck\"]}\n")
    text = after("move deck where name == 'blue:1' to table; tell 0 about deck where rank == 2; "
                 "move top 3 of deck to stash", text)
    p = make(text)
    st = p.new_state(0, log=True)
    assert len(st.zones[p.zone_names.index("stash")]) == 3      # two from the deck, then the refill
    assert [e for e in st.log if e[0] == MOVE][-1][7] is None
    assert told(p, st, 0, "deck") == {} and told(p, st, 0, "stash") == {}


def test_a_tell_before_a_draw_that_needs_no_refill_follows_the_cards_drawn(make):
    p = make(after("tell 0 about deck where rank == 2; move top 2 of deck to stash"))
    st = p.new_state(0, log=True)
    deck = [p.type_names[p.card_type[c]] for c in st.zones[p.zone_names.index("deck")]]
    stash = [p.type_names[p.card_type[c]] for c in st.zones[p.zone_names.index("stash")]]
    facts = {**{("deck", i): ts for i, ts in told(p, st, 0, "deck").items()},
             **{("stash", i): ts for i, ts in told(p, st, 0, "stash").items()}}
    assert len(facts) == 3
    assert all(name in facts[("deck", i)] for i, name in enumerate(deck))
    assert all(name in facts[("stash", i)] for i, name in enumerate(stash))


def test_facts_follow_the_cards_dealt_into_hands(make):
    p = make(after("tell 0 about deck where rank == 2; deal 1 from deck to hand"))
    st = p.new_state(0, log=True)
    mine = st.zones[p.zone_names.index("hand(0)")]
    twos = {"red:2", "blue:2"}
    expected = twos if p.type_names[p.card_type[mine[-1]]] in twos else (REDS | BLUES) - twos
    assert told(p, st, 0, "hand(0)")[3] == expected


def test_play_shows_told_facts_as_knowledge_so_not_when_the_ruleset_shows_faces_only(write):
    g = load_game(write(GAME + "    display:\n      knowledge: faces\n"))
    assert "hand: 3 cards" in screen(g, 0) and "colour red" not in screen(g, 0)


# ---------------------------------------------------------------- records

def test_a_game_that_tells_facts_replays_from_its_record(write):
    game = load_game(write(HANABI))
    for seed in range(3):
        record = make_record(game, 2, seed, [make_bot("greedy", seed), make_bot("automa", seed)], ["greedy", "automa"])
        assert replay(game, record) == record["result"]


# ---------------------------------------------------------------- soundness over whole games

MIXED = """
    name: mixed
    players: {min: 3, max: 3}
    cards:
      c:
        for: {colour: [red, blue, green], rank: [1, 2, 3, 4]}
        name: "{colour}:{rank}"
        count: 2
        start: deck
    zones:
      deck: {visible: nobody, on_empty: ["move discard to deck", "shuffle deck"]}
      hand: {owner: each, visible: others}
      secret: {owner: each, visible: owner}
      discard: {visible: everyone}
    setup:
      - shuffle deck
      - deal 3 from deck to hand
      - deal 2 from deck to secret
    turn:
      steps:
        - choose: act
          options:
            play: {}
            bury: {}
            swap: {}
            hint: {}
            peek: {}
        - if: act == 'play'
          then:
            - move top of bottom 1 of hand to discard
            - move top of deck to hand
        - if: act == 'bury'
          then:
            - move top of hand to bottom of deck
            - move top 2 of deck to hand
        - if: act == 'swap'
          then:
            - together: ["move bottom 1 of hand to secret", "move top 1 of secret to hand"]
        - if: act == 'hint'
          then:
            - tell next(me) about hand(next(me)) where rank == turn % 4 + 1
            - tell me about top 2 of deck where colour == 'red'
            - tell [me, next(me)] about secret(next(me)) where rank >= 3
        - if: act == 'peek'
          then:
            - move secret where rank == 2 to discard
            - move top of deck to secret
            - tell prev(me) about deck where colour != 'green'
    end: {when: "turn > 40"}
    score: count(discard)
"""


def test_what_a_seat_keeps_of_what_it_was_told_stays_true_through_whole_games(make):
    p = make(MIXED, 3)
    for seed in range(12):
        st = p.new_state(seed, log=True)
        rng = random.Random(seed)
        checked = 0
        while not st.over:
            p.play(st, rng.choice(p.legal_moves(st)))
            for seat in range(3):
                view = view_of(p, for_seat(p, st.log, seat), seat)
                for z, name in enumerate(p.zone_names):
                    for i, may in view.told(z).items():
                        assert p.card_type[st.zones[z][i]] in may, (seed, st.turn, seat, name, i)
                        checked += 1
        assert checked > 20


@pytest.mark.parametrize("tries", [told_deal.TRIES, 0], ids=["greedy-first", "exact-only"])
def test_every_world_keeps_every_fact_of_its_seat_through_whole_games(make, monkeypatch, tries):
    monkeypatch.setattr(told_deal, "TRIES", tries)
    p = make(MIXED, 3)
    gen = random.Random(5)
    for seed in range(4):
        st = p.new_state(seed, log=True)
        rng = random.Random(seed)
        while not st.over:
            seat = st.decider
            view = view_of(p, for_seat(p, st.log, seat), seat)
            facts = {z: view.told(z) for z in range(len(p.zone_names)) if view.told(z)}
            for _ in range(20):
                world = determinise(p, st, seat, gen, view)
                assert sorted(c for zone in world.zones for c in zone) == list(range(len(p.card_type)))
                for z, told_z in facts.items():
                    assert all(p.card_type[world.zones[z][i]] in may for i, may in told_z.items())
            p.play(st, rng.choice(p.legal_moves(st)))


def test_a_move_that_tells_a_player_about_cards_cannot_be_undone_without_confirming(write):
    g = load_game(write(GAME.replace("          options: {ok: {}, wait: {}}\n", "          options: {ok: {}, wait: {}}\n"
                                     "        - tell 0 about hand(0) where rank == 1\n")))
    s = Session(g, 2, 1, {}, ask=lambda prompt: "q", console=Console(file=io.StringIO()))
    trial = s.st.clone()
    n = len(trial.log)
    s.program.apply(trial, s.program.legal_moves(trial)[0])
    assert s.confirm_reason(trial, trial.log[n:], 0) == "this tells players about cards"
