"""Seen by everyone but its owner: `visible: others` (docs/language.md §4 "Visibility").

A hand held facing away: every seat except the owner sees its faces, the owner only its size.
Events, views, bots' worlds and `play` follow the zone's mask of seats. The scripted game below
deals fixed hands (3 players):
  hand(0): red:1, red:2     hand(1): blue:1, blue:2     hand(2): red:3, blue:3
  deck (nobody): green:1, green:2, green:3
"""
from __future__ import annotations

import io
import json
import random
from collections import Counter

import pytest
from rich.console import Console

from interpreter.compiler.game import load_game
from interpreter.errors import RuleRuntimeError, RulesetError
from interpreter.runtime.events import for_seat
from interpreter.seats.views import view_of
from interpreter.seats.worlds import determinise
from interpreter.tools.cli import main
from interpreter.tools.play import Session
from language_helpers import do, edit, make, names, texts, write  # noqa: F401

GAME = """
    name: away
    players: {min: 2, max: 3}
    cards:
      c:
        for: {colour: [red, blue, green], value: [1, 2, 3]}
        name: "{colour}:{value}"
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each, visible: others}
      played: {visible: everyone}
    setup:
      - move deck where colour == 'red' and value < 3 to hand(0)
      - move deck where colour == 'blue' and value < 3 to hand(1)
      - move deck where value == 3 and colour != 'green' to hand(2)
      - shuffle deck
    turn:
      steps:
        - choose: slot
          from: numbers(count(hand))
        - move top of bottom slot of hand to played
        - move top of deck to hand
    end: {when: "count(deck) == 0"}
    score: count(played where value == 3)
"""


def zone(p, name: str) -> int:
    return p.zone_names.index(name)


def types(p, st, name: str) -> Counter:
    return Counter(p.type_names[p.card_type[c]] for c in st.zones[zone(p, name)])


def seen(p, st, seat: int, name: str) -> list:
    """The faces `seat` sees of a zone (None for a card it cannot see)."""
    v = view_of(p, for_seat(p, st.log, seat), seat)
    return [None if t is None else p.type_names[t] for t in v.cards(name)]


def test_every_seat_except_the_owner_sees_the_cards(make):
    p = make(GAME, 3)
    st = p.new_state(0, log=True)
    assert seen(p, st, 1, "hand(0)") == ["red:1", "red:2"]
    assert seen(p, st, 2, "hand(0)") == ["red:1", "red:2"]
    assert seen(p, st, 0, "hand(1)") == ["blue:1", "blue:2"]


def test_the_owner_sees_only_how_many_cards_its_zone_holds(make):
    p = make(GAME, 3)
    st = p.new_state(0, log=True)
    v = view_of(p, for_seat(p, st.log, 0), 0)
    assert not v.sees("hand(0)") and v.size("hand(0)") == 2
    assert v.cards("hand(0)") == [None, None] and not v.known_cards("hand(0)")


def test_the_mask_of_a_zone_seen_by_others_is_every_seat_but_its_owner(make):
    p = make(GAME, 3)
    assert [p.zone_vis[zone(p, f"hand({s})")] for s in range(3)] == [0b110, 0b101, 0b011]


def test_a_card_drawn_into_a_hand_seen_by_others_is_seen_by_them_and_not_by_the_owner(make):
    p = make(GAME, 3)
    st = p.new_state(0, log=True)
    do(p, st, texts(p, st)[0])                   # seat 0 plays its bottom card and draws
    drawn = p.type_names[p.card_type[st.zones[zone(p, "hand(0)")][-1]]]
    assert seen(p, st, 1, "hand(0)")[-1] == drawn and seen(p, st, 2, "hand(0)")[-1] == drawn
    assert seen(p, st, 0, "hand(0)") == [None, None]


def test_a_card_leaving_a_hand_seen_by_others_for_a_public_zone_is_seen_by_all(make):
    p = make(GAME, 3)
    st = p.new_state(0, log=True)
    do(p, st, texts(p, st)[0])
    assert seen(p, st, 0, "played") == ["red:1"]


def test_the_owner_knows_a_card_it_saw_enter_unseen_hand_only_by_its_size(make):
    p = make(GAME, 3)
    st = p.new_state(0, log=True)
    for _ in range(3):
        do(p, st, texts(p, st)[0])               # each seat plays once and draws
    v = view_of(p, for_seat(p, st.log, 0), 0)
    assert v.cards("hand(0)") == [None, None] and not v.known_cards("hand(0)")


def test_a_bot_redeals_its_own_hand_and_the_deck_and_keeps_the_hands_it_sees(make):
    p = make(GAME, 3)
    st = p.new_state(0, log=True)
    view = view_of(p, for_seat(p, st.log, 0), 0)
    gen, own = random.Random(2), Counter()
    for _ in range(400):
        world = determinise(p, st, 0, gen, view=view)
        assert types(p, world, "hand(1)") == types(p, st, "hand(1)")
        assert types(p, world, "hand(2)") == types(p, st, "hand(2)")
        assert types(p, world, "hand(0)") + types(p, world, "deck") == types(p, st, "hand(0)") + types(p, st, "deck")
        own.update(types(p, world, "hand(0)"))
    assert set(own) == {"red:1", "red:2", "green:1", "green:2", "green:3"}     # every unseen card, in turn


OWN_CHOICE = ("""        - choose: slot
          from: numbers(count(hand))
        - move top of bottom slot of hand to played""", """        - choose: card
          cards: hand
        - move card to played""")


def test_the_owner_cannot_choose_among_the_cards_of_its_hand_seen_by_others(write):
    path = write(edit(GAME, *OWN_CHOICE))
    with pytest.raises(RulesetError) as err:
        load_game(path)
    d = err.value.diagnostics[0]
    assert "seen by everyone but its owner (visible: others)" in d.message and "choose: slot" in d.hint
    assert (d.pos.line, d.pos.col) == (21, 14)     # at the cards: hand


def test_a_choice_among_its_own_cards_given_to_the_owner_by_by_stops_the_game_at_the_rule(make):
    p = make(edit(GAME, OWN_CHOICE[0], OWN_CHOICE[1].replace("cards: hand", "cards: hand\n          by: current")), 3)
    st = p.new_state(0)
    with pytest.raises(RuleRuntimeError, match="would choose among cards it cannot see"):
        p.legal_moves(st)


def test_a_seat_may_choose_among_the_cards_of_another_seats_hand_seen_by_others(make):
    p = make(edit(GAME, """        - choose: slot
          from: numbers(count(hand))
        - move top of bottom slot of hand to played""", """        - choose: card
          cards: hand(next(me))
          count: 1
        - move card to played"""), 3)
    st = p.new_state(0)
    assert sorted(texts(p, st)) == ["card: 1*blue:1", "card: 1*blue:2"]


def test_a_table_zone_cannot_be_seen_by_others(write):
    path = write(edit(GAME, "played: {visible: everyone}", "played: {visible: others}"))
    with pytest.raises(RulesetError) as err:
        load_game(path)
    d = err.value.diagnostics[0]
    assert "belongs to the table, so it has no owner to hide it from" in d.message
    assert (d.pos.line, d.pos.col) == (12, 21)


def first_screen(path: str) -> str:
    """The first screen of play, as seat 0 sees it (3 players, all human), on one line."""
    s = Session(load_game(path), 3, 0, {}, ask=lambda prompt: "q",
                console=Console(file=io.StringIO(), width=120, height=40))
    out = io.StringIO()
    s.console = Console(file=out, width=120, height=40, highlight=False, color_system=None)
    s.show(0, s.program.legal_moves(s.st), 0)
    return " ".join(out.getvalue().split())


def test_play_shows_the_owner_its_hand_by_size_and_the_other_hands_by_their_faces(write):
    text = first_screen(write(GAME))
    assert "hand: blue:1, blue:2" in text and "hand: red:3, blue:3" in text     # in order, bottom first
    assert "hand: 2 cards" in text and "red:1" not in text and "red:2" not in text


def test_play_names_a_card_of_the_owners_hand_held_facing_away_shown_to_it_at_its_place(write):
    text = edit(GAME, "      - shuffle deck\n", "      - shuffle deck\n      - reveal top 1 of hand(0) to seats\n")
    shown = first_screen(write(text))
    assert "hand: 2 cards — 1: ? · 2: red:2" in shown and "red:1" not in shown     # red:1 bottom, red:2 top


def test_the_overview_tells_the_owner_what_its_hand_held_facing_away_may_hold_and_no_more(write):
    out = io.StringIO()
    s = Session(load_game(write(GAME)), 3, 0, {}, ask=lambda prompt: "q",
                console=Console(file=out, width=200, height=40, highlight=False, color_system=None))
    s.show_overview(0)
    lines = {line.split(":")[0].strip(): line for line in out.getvalue().splitlines()}
    # seat 0 sees blue:1, blue:2, red:3 and blue:3 in the others' hands: its own two cards are any
    # of the five others, as the deck's three are
    may = "may be 1×red:1, 1×red:2, 1×green:1, 1×green:2, 1×green:3"
    assert lines["hand(0)"].endswith(f"2 cards, {may}") and lines["deck"].endswith(f"3 cards, {may}")
    assert "hand(1)" not in lines and "hand(2)" not in lines


@pytest.mark.parametrize("bots", ["random", "greedy,automa,ismcts:iterations=30"])
def test_whole_games_with_hands_seen_by_others_simulate(write, capsys, bots):
    code = main(["simulate", write(GAME), "--players", "3", "--games", "3" if "," in bots else "30",
                 "--seed", "3", "--bots", bots, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["games"] == (3 if "," in bots else 30)


def test_a_game_with_hands_seen_by_others_records_and_replays(write, capsys, tmp_path):
    rules, path = write(GAME), str(tmp_path / "game.json")
    assert main(["record", rules, "--players", "3", "--seed", "5", "--bots", "memory", "-o", path]) == 0
    capsys.readouterr()
    assert main(["replay", path, "--ruleset", rules]) == 0


def test_the_web_table_shows_each_seat_the_other_hands_and_its_own_by_size(write):
    from web_helpers import client, tokens
    from interpreter.tools.web.table import PUBLIC, WebTable
    table = WebTable(load_game(write(GAME)), 3, 1, {})
    tok = tokens(table)
    with client(table) as c:
        pages = {v: c.get(f"/api/{tok[v]}/state").json() for v in (0, 1, PUBLIC)}
    items = {v: {s["seat"]: s["items"] for s in page["seats"]} for v, page in pages.items()}
    assert items[0] == {0: ["hand: 2 cards"], 1: ["hand: blue:1, blue:2"], 2: ["hand: red:3, blue:3"]}
    assert items[1][0] == ["hand: red:1, red:2"] and items[1][1] == ["hand: 2 cards"]
    assert all(i == ["hand: 2 cards"] for i in items[PUBLIC].values())     # the spectator is no seat


def test_a_hand_seen_by_others_revealed_to_its_owner_is_known_to_it_card_by_card(make):
    p = make(edit(GAME, "      - shuffle deck\n", "      - shuffle deck\n      - reveal hand(0) to 0\n"), 3)
    st = p.new_state(0, log=True)
    assert seen(p, st, 0, "hand(0)") == ["red:1", "red:2"]
    view = view_of(p, for_seat(p, st.log, 0), 0)
    gen = random.Random(4)
    for _ in range(100):
        assert types(p, determinise(p, st, 0, gen, view=view), "hand(0)") == Counter({"red:1": 1, "red:2": 1})
    do(p, st, texts(p, st)[0])                   # it plays its bottom card (seen) and draws unseen
    assert seen(p, st, 0, "hand(0)") == ["red:2", None]     # the rest closes up; the new card is unknown
