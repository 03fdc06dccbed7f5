"""The two-colour variant of Lixo (rulesets/lixo_two_colour.yaml): a data-only variant.

Its file says: of each colour's 36 single-colour cards, 12 are replaced by two-colour cards,
6 for each of the 10 colour pairs; a two-colour card may be bid for either of its colours.
"""
import collections
import itertools
import os

import pytest

from interpreter.errors import IllegalMove
from interpreter.compiler.game import load_game
from interpreter.tools.records import make_record, play_game, replay
from interpreter.seats import make_bot

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANT = os.path.join(ROOT, "rulesets", "lixo_two_colour.yaml")
COLOURS = ("yellow", "blue", "green", "red", "grey")
PAIRS = [f"{a}/{b}" for a, b in itertools.combinations(COLOURS, 2)]


@pytest.fixture(scope="module")
def game():
    return load_game(VARIANT)


def zone(prog, name):
    return prog.zone_names.index(name)


def names(prog, st, name):
    return [prog.type_names[prog.card_type[c]] for c in st.zones[zone(prog, name)]]


def start_with(prog, bins_top, garbage_top, seed=0):
    """A game whose bins deck turns over `bins_top` first and whose garbage deck deals
    `garbage_top` first (one at a time from seat 0), both in draw order."""
    zones = prog.initial()[0]       # the cards in their start zones, before any shuffle

    def order(zname, top):
        rest = collections.Counter(prog.type_names[prog.card_type[c]] for c in zones[zone(prog, zname)])
        for n in top:
            rest[n] -= 1
        bottom = [n for n in sorted(rest) for _ in range(rest[n])]
        return [prog.type_index[n] for n in bottom + list(reversed(top))]
    script = [(zone(prog, "bins"), order("bins", bins_top)), (zone(prog, "garbage"), order("garbage", garbage_top))]
    return prog.new_state(seed, script=script)


def texts(prog, st):
    return sorted(prog.move_text(st, m) for m in prog.legal_moves(st))


def test_the_deck_keeps_180_cards_24_single_per_colour_and_6_per_colour_pair(game):
    prog = game.program(2)
    st = prog.new_state(1)
    counts = collections.Counter(prog.type_names[t] for t in prog.card_type)
    assert {c: counts[c] for c in COLOURS} == {c: 24 for c in COLOURS}
    assert {p: counts[p] for p in PAIRS} == {p: 6 for p in PAIRS}
    garbage = sum(n for name, n in counts.items() if not name.startswith(("container", "stop")))
    assert garbage == 180
    # every colour can be bid with 48 cards
    for c in COLOURS:
        assert counts[c] + sum(counts[p] for p in PAIRS if c in p.split("/")) == 48
    assert len(st.loc) == 210


def test_a_two_colour_card_may_be_bid_for_either_of_its_colours(game):
    prog = game.program(2)
    hands = ["blue/green", "red", "blue", "grey", "green/red", "red", "yellow", "red", "yellow", "red"]
    st = start_with(prog, ["container:blue:3", "container:green:5"], hands)
    assert names(prog, st, "turned") == ["container:blue:3"]
    assert st.decider == 0
    # seat 0 holds blue/green, blue, green/red, yellow, yellow: blue and blue/green count as blue
    assert texts(prog, st) == ["bid: 1*blue", "bid: 1*blue + 1*blue/green", "bid: 1*blue/green", "pass"]
    prog.play(st, prog.parse_move(st, "bid: 1*blue/green"))
    # seat 1 (red, grey, red, red, red) has no blue: it passes without being asked; seat 0 wins
    assert names(prog, st, "won(0)") == ["container:blue:3"]
    assert names(prog, st, "recycled") == ["blue/green"]
    # the green container: green/red counts as green for seat 0
    assert names(prog, st, "turned") == ["container:green:5"]
    assert st.decider == 0 and texts(prog, st) == ["bid: 1*green/red", "pass"]


def test_a_two_colour_card_cannot_be_bid_for_a_third_colour(game):
    prog = game.program(2)
    hands = ["blue/green", "red", "blue/green", "red", "blue/green", "red", "blue/green", "red", "yellow", "red"]
    st = start_with(prog, ["container:grey:2"], hands)
    # nobody holds grey: the container goes unclaimed without a decision
    assert names(prog, st, "unclaimed") == ["container:grey:2"]
    with pytest.raises(IllegalMove):
        prog.parse_move(st, "bid: 1*blue/green")


@pytest.mark.parametrize("players", [2, 4, 6])
def test_variant_games_record_and_replay(game, players):
    for seed in range(3):
        names_ = ["greedy"] + ["random"] * (players - 1)
        bots = [make_bot(n, seed * 10 + s) for s, n in enumerate(names_)]
        rec = make_record(game, players, seed, bots, names_)
        assert replay(game, rec) == rec["result"]
        _, st, _ = play_game(game, players, seed, [make_bot(n, seed * 10 + s) for s, n in enumerate(names_)])
        assert sorted(c for z in st.zones for c in z) == list(range(210))   # every card in one zone
