"""Knowing what is not there: `announce none of ZONE where CONDITION` (docs/language.md §11).

The rules state a public fact; every seat learns it as an upper bound per card type (View.at_most:
at most so many cards of that type in the zone, 0 for "none"); it survives a shuffle, a seen card
entering adjusts it exactly, unseen cards entering end it for the types they may be; every bot's
determinised world keeps it. The scripted game below deals fixed hands (seat 0 watches):
  hand(1): blue:1, blue:2, blue:3, green:1    hand(2): red:1, green:2
  table (public): red:2                       deck (nobody): red:3, green:3
"""
from __future__ import annotations

import json
import random
import textwrap
from collections import Counter

import pytest

from interpreter.errors import RuleRuntimeError, RulesetError
from interpreter.runtime.announce import NONE
from interpreter.runtime.events import describe, for_seat
from interpreter.seats import bounded
from interpreter.seats.registry import make_bot
from interpreter.seats.worlds import determinise
from interpreter.seats.views import Observer, view_of
from interpreter.tools.cli import main
from language_helpers import edit, make, write  # noqa: F401

GAME = """
    name: none
    players: {min: 3, max: 3}
    cards:
      c:
        for: {colour: [red, blue, green], value: [1, 2, 3]}
        name: "{colour}:{value}"
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each, visible: owner}
      table: {visible: everyone}
    setup:
      - shuffle deck
      - move deck where colour == 'blue' or name == 'green:1' to hand(1)
      - move deck where name == 'red:1' or name == 'green:2' to hand(2)
      - move deck where name == 'red:2' to table
      - announce none of hand(1) where colour == 'red'
      - shuffle deck
    turn:
      steps:
        - choose: go
          options: {ok: {}, wait: {}}
    end: {when: "turn > 1"}
    score: 0
"""
LAST = "      - shuffle deck\n    turn:"
FOLLOW_SUIT = "tests/games/follow_suit.yaml"


def after(text: str) -> str:
    """The scripted game with more setup statements after the announcement."""
    lines = "".join(f"      - {s}\n" for s in text.split("; "))
    return edit(GAME, LAST, LAST.replace("    turn:", lines + "    turn:"))


def bounds(p, st, seat: int, zone: str) -> dict:
    """What `seat` knows of `zone` as upper bounds: {type name: at most}."""
    view = view_of(p, st.log, seat)
    return {p.type_names[t]: n for t, n in view.at_most(zone).items()}


REDS = {"red:1": 0, "red:2": 0, "red:3": 0}


def test_an_announcement_is_learned_by_every_seat(make):
    p = make(GAME, 3)
    st = p.new_state(0, log=True)
    for seat in range(3):
        assert bounds(p, st, seat, "hand(1)") == REDS
        assert all(e in for_seat(p, st.log, seat) for e in st.log if e[0] == NONE)


def test_what_may_be_in_a_zone_leaves_out_the_types_announced_absent(make):
    p = make(GAME, 3)
    st = p.new_state(0, log=True)
    may = view_of(p, st.log, 0).could_be_in("hand(1)")
    assert not {p.type_names[t] for t in may} & set(REDS)
    assert {"blue:1", "green:3"} <= {p.type_names[t] for t in may}


def test_an_announcement_survives_a_shuffle_of_that_zone(make):
    p = make(after("shuffle hand(1)"), 3)
    assert bounds(p, p.new_state(0, log=True), 0, "hand(1)") == REDS


def test_a_seen_card_entering_raises_the_bound_of_its_type_by_one(make):
    p = make(after("move table to hand(1)"), 3)
    assert bounds(p, p.new_state(0, log=True), 0, "hand(1)") == {"red:1": 0, "red:2": 1, "red:3": 0}


def test_a_seen_card_leaving_lowers_the_bound_of_its_type_by_one(make):
    p = make(after("move table to hand(1); move hand(1) where colour == 'red' to table"), 3)
    assert bounds(p, p.new_state(0, log=True), 0, "hand(1)") == REDS


def test_an_unseen_card_entering_ends_the_bound_for_every_type_it_may_be(make):
    p = make(after("move top of deck to hand(1)"), 3)
    st = p.new_state(0, log=True)
    assert bounds(p, st, 0, "hand(1)") == {}
    came = p.type_names[p.card_type[st.zones[p.zone_names.index("hand(1)")][-1]]]    # red:3 or green:3
    assert bounds(p, st, 1, "hand(1)") == {**REDS, **({came: 1} if came in REDS else {})}   # seat 1 saw it


def test_an_unseen_card_from_a_zone_bounded_for_a_type_keeps_that_bound(make):
    # hand(2) is said to hold no 3; a card goes hand(1) -> hand(2), unseen by seat 0: it cannot be
    # red:3 (hand(1) holds no red), but it could be blue:3 or green:3
    p = make(after("announce none of hand(2) where value == 3; move hand(1) where name == 'green:1' to hand(2)"), 3)
    st = p.new_state(0, log=True)
    assert bounds(p, st, 0, "hand(2)") == {"red:3": 0}
    # seat 2 saw the card (its own hand): exactly green:1 came, so every 3 is still absent
    assert bounds(p, st, 2, "hand(2)") == {"red:3": 0, "blue:3": 0, "green:3": 0}


def test_cards_moved_unseen_into_an_empty_zone_take_along_what_was_known_of_their_zone(make):
    text = edit(after("announce none of hand(2) where value == 3; move hand(2) to spare(2)"),
                "      table: {visible: everyone}\n", "      table: {visible: everyone}\n"
                "      spare: {owner: each, visible: owner}\n")
    p = make(text, 3)
    assert bounds(p, p.new_state(0, log=True), 0, "spare(2)") == {"red:3": 0, "blue:3": 0, "green:3": 0}


def test_an_announcement_cannot_stand_inside_together(make):
    text = after("announce none of hand(2) where value == 3").replace(
        "      - announce none of hand(2) where value == 3\n",
        "      - together:\n          - announce none of hand(2) where value == 3\n")
    with pytest.raises(RulesetError, match="inside together only move, let, if and for may stand, not announce"):
        make(text, 3)


def test_an_unseen_card_of_a_kind_its_zone_cannot_hold_keeps_the_bound(make):
    text = edit(GAME, "        start: deck\n", "        start: deck\n      coin:\n        count: 2\n"
                "        start: bank\n")
    text = edit(text, "      table: {visible: everyone}\n", "      table: {visible: everyone}\n"
                "      bank: {visible: nobody}\n")
    p = make(text.replace(LAST, LAST.replace("    turn:", "      - move top of bank to hand(1)\n    turn:")), 3)
    assert bounds(p, p.new_state(0, log=True), 0, "hand(1)") == REDS


def test_an_announcement_that_is_not_true_stops_the_game_naming_the_rule(make):
    text = after("announce none of hand(2) where colour == 'red'")
    p = make(text, 3)
    with pytest.raises(RuleRuntimeError, match=r"announce none of hand\(2\) is not true: it holds 1 such card") as exc:
        p.new_state(0, log=True)
    line = textwrap.dedent(text).splitlines().index("  - announce none of hand(2) where colour == 'red'") + 1
    assert (exc.value.pos.line, exc.value.pos.col) == (line, 5)


def test_an_announcement_names_no_type_whose_cards_lack_the_attribute(make):
    text = edit(GAME, "        start: deck\n", "        start: deck\n      joker:\n        count: 1\n"
                "        start: deck\n")
    p = make(text, 3)
    st = p.new_state(0, log=True)
    (event,) = [e for e in st.log if e[0] == NONE]
    assert sorted(p.type_names[t] for t in event[2]) == sorted(REDS)
    assert describe(p, event) == "hand(1) holds none of: red:1, red:2, red:3"


# ---------------------------------------------------------------- determinisation

VOIDS = """
    name: voids
    players: {min: 4, max: 4}
    cards:
      card:
        for: {suit: [clubs, diamonds, spades, hearts], rank: [1, 2, 3, 4, 5, 6]}
        name: "{suit}:{rank}"
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each, visible: owner}
    setup:
      - shuffle deck
      - move deck where suit == 'diamonds' to hand(0)
      - move deck where suit == 'spades' to hand(1)
      - move deck where suit == 'clubs' and rank <= 3 or suit == 'hearts' and rank <= 3 to hand(2)
      - move deck to hand(3)
      - announce none of hand(1) where suit == 'hearts' or suit == 'clubs'
      - announce none of hand(2) where suit == 'spades'
    turn:
      steps:
        - choose: go
          options: {ok: {}, wait: {}}
    end: {when: "turn > 1"}
    score: 0
"""


def forbidden(p, view, world) -> list:
    """Every (zone, type) where the world holds more of a type than the view allows, or fewer than K."""
    out = []
    for z in range(len(p.zone_names)):
        have = Counter(p.card_type[c] for c in world.zones[z])
        out += [(p.zone_names[z], p.type_names[t]) for t, m in view.at_most(z).items() if have[t] > m]
        out += [(p.zone_names[z], p.type_names[t]) for t, k in view.known_cards(z).items() if have[t] < k]
    return out


def test_determinisation_never_deals_a_type_into_a_zone_announced_without_it(make):
    # Hearts-like: seat 1 is void in hearts and clubs, seat 2 in spades; seat 0 redeals the other
    # hands thousands of times (hand(1) can only be spades: 6 of the 18 hidden cards)
    p = make(VOIDS, 4)
    st = p.new_state(0, log=True)
    view = view_of(p, st.log, 0)
    gen = random.Random(1)
    suits = Counter()
    for _ in range(3000):
        world = determinise(p, st, 0, gen, view)
        assert forbidden(p, view, world) == []
        suits.update(p.type_names[p.card_type[c]].split(":")[0] for c in world.zones[p.zone_names.index("hand(2)")])
    assert suits["hearts"] and suits["clubs"] and not suits["spades"]   # hand(2) varies within its bounds


def test_the_worlds_a_bot_is_given_keep_every_bound_of_its_seat(make):
    p = make(VOIDS, 4)
    st = p.new_state(0, log=True)
    seat = make_bot("automa", 3).seat_for(p, st, p.legal_moves(st))
    assert seat.view.at_most("hand(1)") and seat.view.at_most("hand(2)")
    for world in seat.worlds(500):
        assert forbidden(p, seat.view, world) == []


def test_the_exact_deal_keeps_the_bounds_when_the_greedy_one_is_not_tried(make, monkeypatch):
    monkeypatch.setattr(bounded, "TRIES", 0)
    p = make(VOIDS, 4)
    st = p.new_state(0, log=True)
    gen = random.Random(2)
    for seat in range(4):
        view = view_of(p, st.log, seat)
        for _ in range(300):
            assert forbidden(p, view, determinise(p, st, seat, gen, view)) == []


def test_a_deal_keeps_the_bounds_when_the_kinds_a_zone_may_hold_leave_no_way(make):
    p = make(VOIDS, 4)
    st = p.new_state(0, log=True)
    view = view_of(p, st.log, 0)
    kinds = tuple(frozenset() for _ in view.kinds)              # no zone may hold any kind: no way
    most = {2: {0: 0, 1: 0}}                                      # hand(1): no clubs:1, clubs:2
    for seed in range(50):
        placed = {2: [None] * 3, 3: [None] * 3}
        bounded.deal_bounded(p, placed, {0: [0], 1: [1], 2: [2], 3: [3], 4: [4], 5: [5]}, kinds, most,
                             random.Random(seed), lambda g, n: g.randrange(n), lambda g, x: g.shuffle(x))
        assert not {0, 1} & set(placed[2]) and sorted(placed[2] + placed[3]) == [0, 1, 2, 3, 4, 5]


def test_knowledge_no_deal_fits_is_a_clear_error(make):
    p = make(VOIDS, 4)
    st = p.new_state(0, log=True)
    view = view_of(p, st.log, 0)
    most = {z: {t: 0 for t in range(len(p.type_names))} for z in (1, 2)}    # deck, hand(0): none of anything
    placed = {1: [None] * 3, 2: [None] * 3}
    with pytest.raises(bounded.InconsistentKnowledge, match="no deal of the hidden cards fits"):
        bounded.deal_bounded(p, placed, {0: [0, 1, 2, 3, 4, 5]}, view.kinds, most, random.Random(0),
                             lambda g, n: g.randrange(n), lambda g, x: g.shuffle(x))


@pytest.mark.parametrize("players", [3, 4])
def test_every_seat_knows_only_true_bounds_and_deals_only_worlds_that_keep_them(players):
    from interpreter.compiler.game import load_game
    p = load_game(FOLLOW_SUIT).program(players)
    gen, announced = random.Random(players), 0
    for seed in range(6):
        st = p.new_state(seed, log=True)
        bots = [make_bot("random", seed * 10 + s) for s in range(players)]
        observers = [Observer(p, s) for s in range(players)]
        fed = 0
        while not st.over:
            announced += sum(1 for e in st.log[fed:] if e[0] == NONE)
            for obs in observers:
                obs.observe_all(st.log[fed:])
                view = obs.view()
                assert forbidden(p, view, st) == []         # what the seat knows is true
                for _ in range(10):
                    assert forbidden(p, view, determinise(p, st, obs.seat, gen, view)) == []
            fed = len(st.log)
            p.apply(st, bots[st.decider].choose(p, st, p.legal_moves(st)))
    assert announced > 10


# ---------------------------------------------------------------- whole games

@pytest.mark.parametrize("bots", ["random", "greedy,automa,ismcts:iterations=30,memory"])
def test_whole_games_of_a_follow_suit_game_simulate(capsys, bots):
    code = main(["simulate", FOLLOW_SUIT, "--players", "4", "--games", "4" if "," in bots else "40",
                 "--seed", "3", "--bots", bots, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["games"] == (4 if "," in bots else 40)


def test_a_follow_suit_game_records_and_replays(capsys, tmp_path):
    path = str(tmp_path / "game.json")
    assert main(["record", FOLLOW_SUIT, "--players", "3", "--seed", "5", "--bots", "automa", "-o", path]) == 0
    capsys.readouterr()
    assert main(["replay", path, "--ruleset", FOLLOW_SUIT]) == 0


# ---------------------------------------------------------------- play

def test_play_tells_every_announcement_in_the_log_and_shows_it_with_the_knowledge():
    import io
    import re
    from rich.console import Console
    from interpreter.compiler.game import load_game
    from interpreter.tools.play import Session
    out = io.StringIO()
    holder: dict = {}

    def script(prompt: str) -> str:
        s = holder["s"]
        if "confirm" in prompt:
            return "c"
        if "press Enter" in prompt:
            return ""
        if not holder.setdefault("detail", False):
            holder["detail"] = True
            return "d"
        holder["detail"] = False
        return s.shown_moves(s.program.legal_moves(s.st)).entries[0][0]

    s = holder["s"] = Session(load_game(FOLLOW_SUIT), 3, 1, {1: "random", 2: "random"}, ask=script,
                              console=Console(file=out, width=200, highlight=False, color_system=None))
    assert s.run()
    text = out.getvalue()
    told = re.findall(r"^ {4}hand\((\d)\) holds none of: (\w+):1, \2:2, \2:3, \2:4, \2:5, \2:6$", text, re.M)
    assert told, "an announcement is told in the log"
    suit = next(suit for k, suit in told if k != "0")       # another seat's void, shown to seat 0
    assert re.search(rf"hand: \d cards? — none of: .*{suit}:1, {suit}:2", text)


def test_the_overview_leaves_out_of_a_hidden_pile_the_types_announced_absent(write):
    import io
    from rich.console import Console
    from interpreter.compiler.game import load_game
    from interpreter.tools.play import Session

    def overview(text: str) -> str:
        out, asked = io.StringIO(), []

        def script(prompt: str) -> str:
            asked.append(prompt)
            return "o" if len(asked) == 1 else "q" if len(asked) == 2 else "y"
        Session(load_game(write(text, f"g{len(text)}.yaml")), 3, 1, {1: "random", 2: "random"}, ask=script,
                console=Console(file=out, width=200, highlight=False, color_system=None)).run()
        return next(line for line in out.getvalue().splitlines() if line.startswith("  deck:"))

    assert "blue:1" in overview(GAME)       # seat 0 cannot tell where the blues went
    told = overview(after("announce none of deck where colour == 'blue'"))
    assert "blue" not in told and "red:3" in told and "green:3" in told


def test_an_announcement_tells_apart_what_an_ismcts_seat_observes(make):
    from interpreter.seats.ismcts import seen
    p = make(GAME, 3)
    st = p.new_state(0, log=True)
    (event,) = [e for e in st.log if e[0] == NONE]
    assert event in seen(p, st.log, 0, 0) and event in seen(p, st.log, 0, 2)
