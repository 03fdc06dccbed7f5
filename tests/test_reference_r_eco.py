"""Tests of the hand-written R-Eco reference implementation (tests/reference/r_eco.py)."""

import itertools
import json
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from reference.r_eco import (  # noqa: E402
    COPIES, DISPOSE, TYPES, Game, format_counts, random_game, replay, score, winners,
)

FULL = [t for t in range(8) for _ in range(COPIES[t])]


def draw_order(top_down):
    """A full 88-card draw order (bottom to top) whose top cards, in pop order, are top_down."""
    rest = list(FULL)
    for name in top_down:
        rest.remove(TYPES.index(name))
    return [TYPES[t] for t in rest] + list(reversed(top_down))


# pop order: 6 deal cards (s0, s1, s0, s1, s0, s1), 4 dump cards (cans, glass, plastic, paper),
# then refills: glass (1 card), paper (3 cards)
TOP = ["glass:2", "paper:1", "glass:1", "paper:1", "glass:1", "paper:1",
       "cans:1", "glass:1", "plastic:1", "paper:2",
       "plastic:2",
       "cans:2", "glass:2", "paper:1"]


def hand_of(g, p):
    return {TYPES[t]: c for t, c in enumerate(g.hands[p]) if c}


def names(pile):
    return [TYPES[t] for t in pile]


def test_hand_built_record_reward_and_refill():
    chance = [{"zone": "draw", "order": draw_order(TOP)}]
    g = Game(2, chance=chance)
    assert hand_of(g, 0) == {"glass:1": 2, "glass:2": 1}
    assert hand_of(g, 1) == {"paper:1": 3}
    assert [names(d) for d in g.dumps] == [["cans:1"], ["glass:1"], ["plastic:1"], ["paper:2"]]
    assert len(g.draw) == 78
    assert g.current == 0
    assert g.legal_moves() == [
        "deliver: 1*glass:2",
        "deliver: 1*glass:1",
        "deliver: 1*glass:1 + 1*glass:2",
        "deliver: 2*glass:1",
        "deliver: 2*glass:1 + 1*glass:2",
    ]

    # seat 0: 4 icons on glass -> takes the top glass reward (0), side goes to discard
    g.apply("deliver: 2*glass:1 + 1*glass:2")
    assert g.taken[0] == [(1, 0)]
    assert list(reversed(g.rewards[1])) == [1, 2, -2, 4, 5]
    assert g.sides[1] == [] and g.side_icons[1] == 0
    assert sorted(names(g.discard)) == ["glass:1", "glass:1", "glass:2"]
    assert hand_of(g, 0) == {"glass:1": 1}          # collected the glass dump site
    assert names(g.dumps[1]) == ["plastic:2"]        # cleared factory: refill 0 + 1 card
    assert len(g.draw) == 77
    assert g.current == 1 and not g.over

    # seat 1: 2 icons on paper, no reward; collects paper:2; refill 2 + 1 = 3 cards
    g.apply("deliver: 2*paper:1")
    assert g.taken[1] == []
    assert names(g.sides[3]) == ["paper:1", "paper:1"] and g.side_icons[3] == 2
    assert hand_of(g, 1) == {"paper:1": 1, "paper:2": 1}
    assert names(g.dumps[3]) == ["cans:2", "glass:2", "paper:1"]
    assert len(g.draw) == 74
    assert g.current == 0

    # a lone reward scores 0; both clean in a 2-player game: +4 each, shared lead
    assert g.result() == {"scores": [4, 4], "winners": [0, 1]}
    assert g.chance_log == chance

    # the same two moves as a record replay; a wrong seat is rejected
    moves = [{"seat": 0, "move": "deliver: 2*glass:1 + 1*glass:2"},
             {"seat": 1, "move": "deliver: 2*paper:1"}]
    rec = {"players": 2, "chance": chance, "moves": moves}
    assert replay(rec, require_complete=False) == {"scores": [4, 4], "winners": [0, 1]}
    with pytest.raises(ValueError):
        replay(rec)  # not finished
    bad = dict(rec, moves=[{"seat": 1, "move": "deliver: 2*paper:1"}])
    with pytest.raises(ValueError):
        replay(bad, require_complete=False)


@pytest.mark.parametrize("move", [
    "deliver: 1*glass:2 + 2*glass:1",     # not canonical order
    "deliver: 0*glass:1",                 # N >= 1
    "deliver: 01*glass:1",
    "deliver: 3*glass:1",                 # more than in hand
    "deliver: 1*paper:1",                 # not in seat 0's hand
    "deliver: 1*glass:1 + 1*cans:1",      # not canonical, and two materials
    "deliver: ",
    "factory: glass",                     # hand is not empty
    "dispose: 1*glass:1",                 # no hand limit to resolve
    "deliver 1*glass:1",
])
def test_illegal_moves_rejected(move):
    g = Game(2, chance=[{"zone": "draw", "order": draw_order(TOP)}])
    with pytest.raises(ValueError):
        g.apply(move)
    assert g.current == 0 and g.hand_size == [3, 3]


def test_bad_chance_entry_rejected():
    order = draw_order(TOP)
    order[0] = "cans:2"  # multiset no longer matches
    with pytest.raises(ValueError):
        Game(2, chance=[{"zone": "draw", "order": order}])
    with pytest.raises(ValueError):
        Game(2, chance=[])
    with pytest.raises(ValueError):
        Game(2, seed=1, chance=[])


def test_refill_reshuffles_discard():
    # State surgery (conserving cards): the whole draw pile is moved to the discard pile,
    # so the first refill must shuffle the discard (81 cards) into a new draw pile.
    g0 = Game(2, chance=[{"zone": "draw", "order": draw_order(TOP)}])
    discard_cards = sorted(g0.draw + [2, 2, 3])          # + the 3 delivered glass cards
    second = [TYPES[t] for t in discard_cards if t != 1] + ["cans:2"] * COPIES[1]
    g = Game(2, chance=[{"zone": "draw", "order": draw_order(TOP)},
                        {"zone": "draw", "order": second}])
    g.discard.extend(g.draw)
    g.draw.clear()
    g.apply("deliver: 2*glass:1 + 1*glass:2")
    assert g.chance_used == 2
    assert names(g.dumps[1]) == ["cans:2"]
    assert len(g.draw) == 80 and g.discard == []
    assert g.chance_log[1]["order"] == second


def test_refill_small_discard_and_both_empty():
    # State surgery: keep 1 draw card and 1 discard card (the rest set aside).
    g = Game(2, chance=[{"zone": "draw", "order": draw_order(TOP)}])
    g.draw[:] = [TYPES.index("plastic:2")]
    g.discard[:] = [TYPES.index("cans:2")]
    g.apply("deliver: 1*glass:1")            # 1 icon stays: refill 2 cards
    assert names(g.dumps[1]) == ["plastic:2", "cans:2"]
    assert g.chance_used == 1                # a 1-card pile is not shuffled
    g.apply("deliver: 1*paper:1")            # refill 2, both piles empty: nothing
    assert g.dumps[3] == []
    assert g.current == 0 and not g.over


def test_scoring():
    assert score(2, [[(1, 0)], [(0, -2), (0, 5), (3, 3)]], [0, 1]) == [4, 2]
    assert score(2, [[(2, -2)], [(2, -2), (2, 0)]], [0, 0]) == [4, 2]
    assert score(3, [[], [], []], [0, 2, 1]) == [4, -2, -1]
    assert score(4, [[], [], [], []], [0, 0, 3, 1]) == [2, 2, -3, -1]
    assert score(5, [[(0, 4), (0, 5)]] + [[]] * 4, [0, 0, 0, 0, 0]) == [9, 0, 0, 0, 0]
    assert winners([5, 5, 3], [1, 0, 0]) == [1]
    assert winners([5, 5], [0, 0]) == [0, 1]
    assert winners([1, 7, 7, 7], [0, 2, 1, 1]) == [2, 3]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_game_replays(players):
    for seed in range(15):
        rec = random_game(players, seed)
        assert rec["players"] == players and rec["seed"] == seed
        assert random_game(players, seed) == rec                 # deterministic
        rec2 = json.loads(json.dumps(rec))                       # survives JSON
        assert replay(rec2) == rec["result"]
        last = rec["moves"][-1]["seat"]
        g = Game(players, chance=rec["chance"])
        for mv in rec["moves"]:
            assert mv["move"] in g.legal_moves()
            g.apply(mv["move"])
        assert g.over and g.current == last
        assert any(not stack for stack in g.rewards)


def card_census(g):
    counts = [0] * 8
    for pile in [g.draw, g.discard] + g.dumps + g.sides:
        for t in pile:
            counts[t] += 1
    for p in range(g.players):
        for t in range(8):
            counts[t] += g.hands[p][t] + g.disposed[p][t]
        assert sum(g.hands[p]) == g.hand_size[p]
        assert sum(g.disposed[p]) == g.disposed_n[p]
    return counts


def brute_moves(g):
    """Legal moves recomputed independently by brute force over the hand's cards."""
    hand = [t for t in range(8) for _ in range(g.hands[g.current][t])]
    out = set()
    if g.phase == DISPOSE:
        for combo in itertools.combinations(hand, len(hand) - 5):
            out.add("dispose: " + format_counts([combo.count(t) for t in range(8)]))
        return out
    if not hand:
        return {"factory: " + m for m in ("cans", "glass", "plastic", "paper")}
    for k in range(1, len(hand) + 1):
        for combo in itertools.combinations(hand, k):
            if len({t // 2 for t in combo}) == 1:
                out.add("deliver: " + format_counts([combo.count(t) for t in range(8)]))
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_card_conservation_and_legal_moves(players):
    rewards_total = 4 * {2: 6, 3: 7, 4: 7, 5: 8}[players]
    for seed in range(100, 106):
        rec = random_game(players, seed)
        g = Game(players, chance=rec["chance"])
        assert card_census(g) == list(COPIES) and sum(COPIES) == 88
        for mv in rec["moves"]:
            legal = g.legal_moves()
            assert len(legal) == len(set(legal))
            assert set(legal) == brute_moves(g)
            assert all(h <= 5 for p, h in enumerate(g.hand_size) if p != g.current)
            g.apply(mv["move"])
            assert card_census(g) == list(COPIES)
            assert sum(map(len, g.rewards)) + sum(map(len, g.taken)) == rewards_total
        assert g.over and g.legal_moves() == []
        assert g.result() == rec["result"]
