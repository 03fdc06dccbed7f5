"""R-Eco rule scenarios: one test per rule sentence of the R-Eco rule sheet, described in
docs/games.md ("R-Eco").

Each test fixes a deal (helpers.dealt / helpers.start), plays moves by their text and checks
the outcome the rule sheet prescribes. Expected values are worked out by hand from the sheet.
Deal order (sheet, Setup 3): one card at a time to seat 0, 1, .., n-1, three rounds; then one
card on each dump site in the order cans, glass, plastic, paper; later cards refill dump sites.
"""
import collections
import itertools

import pytest

from interpreter.seats import make_bot
from interpreter.errors import IllegalMove
from helpers import (
    RECYCLING, REWARD_ROWS, ALL_REWARD_VALUES, MATERIALS, HAND_LIMIT,
    dealt, start, program, names, pile, size, cards, texts, do, move_of, move, move_all, set_zone,
    give_rewards, dispose_cards, next_shuffle, reward_values_top_first, side_icons, zone_index,
    payload_names, type_name, is_reward, reward_value, reward_material, check_loc,
)

# A plain two-player deal used by several tests.
HANDS2 = [["glass:1", "glass:1", "glass:2"], ["paper:1", "paper:1", "paper:1"]]
DUMPS = ["cans:1", "glass:1", "plastic:1", "paper:2"]
THEN = ["plastic:2", "cans:2", "cans:1", "paper:1", "plastic:1", "glass:1", "paper:1", "cans:1"]


def legal_multisets(prog, st):
    """The legal card-choice moves as a set of frozen {name: count} multisets."""
    return {frozenset(payload_names(prog, m).items()) for m in prog.legal_moves(st)}


def multiset(*card_names):
    return frozenset(collections.Counter(card_names).items())


# ---------------------------------------------------------------- Components

def test_components_88_recycling_cards_19_single_3_double_per_material():
    for n in (2, 3, 4, 5):
        prog = program(n)
        counts = collections.Counter(prog.type_names[t] for t in prog.card_type)
        recycling = {k: v for k, v in counts.items() if not is_reward(k)}
        assert recycling == {f"{m}:{i}": (19 if i == 1 else 3) for m in MATERIALS for i in (1, 2)}
        assert sum(recycling.values()) == 88


# ---------------------------------------------------------------- Setup

@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_reward_stack_order_for_2_3_4_5_players(players):
    # Sheet, Setup 2: reward stack of every material, top first.
    row = {2: [0, 1, 2, -2, 4, 5], 3: [0, 1, 2, 3, -2, 4, 5], 4: [0, 1, 2, 3, -2, 4, 5],
           5: [0, 1, 2, 3, 3, -2, 4, 5]}[players]
    prog, st = start(players)
    for m in MATERIALS:
        stack = pile(prog, st, f"rewards[{m}]")
        assert all(reward_material(n) == m for n in stack)
        assert [reward_value(n) for n in stack] == row
    # the recycling sides start empty and nobody owns a reward
    for m in MATERIALS:
        assert size(prog, st, f"side[{m}]") == 0
    for p in range(players):
        assert size(prog, st, f"won({p})") == 0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_unused_rewards_stay_in_the_box(players):
    # Sheet, Components: 8 rewards per material (0 1 2 3 3 -2 4 5); only the row of the player
    # count is used, the others stay in the box (and so never reach a stack or a player).
    row = REWARD_ROWS[players]
    unused = collections.Counter(ALL_REWARD_VALUES) - collections.Counter(row)
    prog, st = start(players, seed=7)
    box = zone_index(prog, "box")

    def in_play():
        per = collections.defaultdict(list)
        for z, zone in enumerate(st.zones):
            if z == box:
                continue
            for c in zone:
                name = type_name(prog, c)
                if is_reward(name):
                    per[reward_material(name)].append(reward_value(name))
        return per

    def boxed():
        per = collections.defaultdict(list)
        for c in st.zones[box]:
            name = type_name(prog, c)
            assert is_reward(name), f"a recycling card {name} is in the box"
            per[reward_material(name)].append(reward_value(name))
        return per

    box_at_start = list(st.zones[box])
    for m in MATERIALS:
        assert sorted(in_play()[m]) == sorted(row)
        # all 32 reward cards exist; the box holds exactly the unused ones
        assert collections.Counter(boxed()[m]) == unused
    bots = [make_bot("random", 3 + p) for p in range(players)]
    while not st.over:
        legal = prog.legal_moves(st)
        prog.apply(st, bots[st.decider].choose(prog, st, legal))
        assert st.zones[box] == box_at_start
    for m in MATERIALS:
        assert sorted(in_play()[m]) == sorted(row)
        for p in range(players):
            taken = [reward_value(n) for n in names(prog, st, f"won({p})") if reward_material(n) == m]
            assert not collections.Counter(taken) - collections.Counter(row)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_deals_three_hidden_cards_one_at_a_time_from_seat_0(players):
    types = list(RECYCLING)
    top = [types[i % 8] for i in range(3 * players)]
    prog, st = start(players, top=top)
    for p in range(players):
        # round r gives card r*players + p to seat p
        expected = sorted([top[p], top[p + players], top[p + 2 * players]])
        assert names(prog, st, f"hand({p})") == expected
        # hidden: only the owner sees their hand
        assert prog.zone_vis[zone_index(prog, f"hand({p})")] == 1 << p
    assert prog.zone_vis[zone_index(prog, "draw")] == 0
    assert size(prog, st, "draw") == 88 - 3 * players - 4


@pytest.mark.parametrize("players", [2, 5])
def test_dump_sites_get_one_card_in_order_cans_glass_plastic_paper(players):
    hands = [["cans:1"] * 3 for _ in range(players)]
    # deliberately not the factory's own material, so the order is visible
    dumps = ["paper:2", "plastic:2", "glass:2", "cans:2"]
    prog, st = dealt(players, hands, dumps, then=["glass:1", "paper:1"])
    assert names(prog, st, "dump[cans]") == ["paper:2"]
    assert names(prog, st, "dump[glass]") == ["plastic:2"]
    assert names(prog, st, "dump[plastic]") == ["glass:2"]
    assert names(prog, st, "dump[paper]") == ["cans:2"]
    assert pile(prog, st, "draw")[:2] == ["glass:1", "paper:1"]   # the rest is the draw pile
    assert size(prog, st, "discard") == 0
    assert prog.zone_vis[zone_index(prog, "dump[glass]")] == (1 << players) - 1   # face up


@pytest.mark.parametrize("players", [3, 4, 5])
def test_play_goes_clockwise(players):
    # Setup 4: seat 0 starts; play goes clockwise (seat order); dispose decisions stay with
    # the player whose turn it is.
    prog, st = start(players, seed=11)
    assert st.current == 0 and st.decider == 0 and st.turn == 1
    seen = []
    bot = make_bot("random", 5)
    while len(seen) < 2 * players + 1:
        name = st.pending.name
        assert st.decider == st.current
        if name in ("deliver", "factory"):
            seen.append(st.current)
        prog.apply(st, bot.choose(prog, st, prog.legal_moves(st)))
        assert not st.over
    assert seen == [i % players for i in range(2 * players + 1)]


# ---------------------------------------------------------------- Step 1: deliver

def test_deliver_moves_deduplicated_by_type():
    # two glass:1 are interchangeable: 5 choices of 1..3 cards, not 7 subsets of card instances
    prog, st = dealt(2, HANDS2, DUMPS, THEN)
    legal = prog.legal_moves(st)
    assert len(legal) == len(set(legal)) == 5
    assert legal_multisets(prog, st) == {
        multiset("glass:1"), multiset("glass:2"), multiset("glass:1", "glass:1"),
        multiset("glass:1", "glass:2"), multiset("glass:1", "glass:1", "glass:2")}
    assert sorted(texts(prog, st)) == sorted([
        "deliver: 1*glass:1", "deliver: 1*glass:2", "deliver: 2*glass:1",
        "deliver: 1*glass:1 + 1*glass:2", "deliver: 2*glass:1 + 1*glass:2"])
    for m in legal:   # every text parses back to its move
        assert prog.parse_move(st, prog.move_text(st, m)) == m


def test_deliver_must_be_one_material():
    prog, st = dealt(2, [["glass:1", "paper:1", "paper:2"], ["cans:1"] * 3], DUMPS, THEN)
    assert legal_multisets(prog, st) == {
        multiset("glass:1"), multiset("paper:1"), multiset("paper:2"), multiset("paper:1", "paper:2")}
    before = st.clone()
    with pytest.raises(IllegalMove):
        prog.play(st, move_of(prog, {"glass:1": 1, "paper:1": 1}))
    with pytest.raises(IllegalMove):
        prog.play(st, ())           # at least one card is mandatory
    assert st == before


def test_three_icons_stay_and_refill_is_four_cards():
    prog, st = dealt(2, [["glass:1", "glass:2", "paper:1"], ["paper:1"] * 3], DUMPS, THEN)
    do(prog, st, "deliver: 1*glass:1 + 1*glass:2")
    assert names(prog, st, "side[glass]") == ["glass:1", "glass:2"]      # the cards stay
    assert side_icons(prog, st, "glass") == 3
    assert names(prog, st, "won(0)") == []                                # no reward
    assert reward_values_top_first(prog, st, "glass") == [0, 1, 2, -2, 4, 5]
    assert names(prog, st, "hand(0)") == ["glass:1", "paper:1"]           # collected glass:1
    assert names(prog, st, "dump[glass]") == sorted(THEN[:4])             # 3 + 1 = 4 cards
    assert size(prog, st, "draw") == 78 - 4
    assert size(prog, st, "discard") == 0
    assert st.current == 1


@pytest.mark.parametrize("delivery, left_on_side, refill", [
    ("1*glass:1", 1, 2),                      # single = 1 icon
    ("1*glass:2", 2, 3),                      # double = 2 icons
    ("2*glass:1", 2, 3),
    ("1*glass:1 + 1*glass:2", 3, 4),
    ("2*glass:1 + 1*glass:2", 0, 1),          # 4 icons: cleared factory gets 1 card
])
def test_refill_is_icons_left_on_the_side_plus_one(delivery, left_on_side, refill):
    prog, st = dealt(2, HANDS2, DUMPS, THEN)
    do(prog, st, "deliver: " + delivery)
    assert side_icons(prog, st, "glass") == left_on_side
    assert names(prog, st, "dump[glass]") == sorted(THEN[:refill])
    assert size(prog, st, "draw") == 78 - refill
    # the other dump sites are untouched
    assert names(prog, st, "dump[cans]") == ["cans:1"]
    assert names(prog, st, "dump[plastic]") == ["plastic:1"]
    assert names(prog, st, "dump[paper]") == ["paper:2"]


def test_icons_add_up_with_earlier_cards_on_the_side():
    hands = [["glass:1", "glass:1", "paper:1"], ["glass:1", "glass:1", "paper:1"]]
    then = ["cans:2", "paper:1", "cans:1", "plastic:2"]
    prog, st = dealt(2, hands, ["cans:1", "plastic:1", "plastic:1", "paper:2"], then)
    do(prog, st, "deliver: 2*glass:1")                  # 2 icons: stay
    assert side_icons(prog, st, "glass") == 2 and names(prog, st, "won(0)") == []
    assert names(prog, st, "dump[glass]") == sorted(then[:3])
    do(prog, st, "deliver: 2*glass:1")                  # 2 + 2 earlier = 4 icons: reward
    assert names(prog, st, "won(1)") == ["reward:glass:0"]
    assert names(prog, st, "side[glass]") == []
    assert names(prog, st, "discard") == ["glass:1"] * 4   # earlier cards included
    assert names(prog, st, "hand(1)") == sorted(["paper:1"] + then[:3])
    assert names(prog, st, "dump[glass]") == ["plastic:2"]


def test_four_icons_take_exactly_the_top_reward_and_clear_the_side():
    hands = [["glass:1", "glass:1", "glass:2"], ["glass:2", "glass:2", "paper:1"]]
    prog, st = dealt(2, hands, DUMPS, THEN)
    do(prog, st, "deliver: 2*glass:1 + 1*glass:2")
    assert names(prog, st, "won(0)") == ["reward:glass:0"]                 # the top one only
    assert reward_values_top_first(prog, st, "glass") == [1, 2, -2, 4, 5]
    for m in ("cans", "plastic", "paper"):
        assert reward_values_top_first(prog, st, m) == [0, 1, 2, -2, 4, 5]
    assert names(prog, st, "side[glass]") == []
    assert names(prog, st, "discard") == ["glass:1", "glass:1", "glass:2"]
    assert names(prog, st, "hand(0)") == ["glass:1"]                       # the dump site
    assert names(prog, st, "dump[glass]") == [THEN[0]]                     # 0 + 1 card
    # the next reward of that factory is now the top one
    do(prog, st, "deliver: 2*glass:2")
    assert names(prog, st, "won(1)") == ["reward:glass:1"]
    assert reward_values_top_first(prog, st, "glass") == [2, -2, 4, 5]
    assert names(prog, st, "discard") == sorted(["glass:1", "glass:1", "glass:2", "glass:2", "glass:2"])


def test_eight_icons_still_take_one_reward():
    prog, st = dealt(2, HANDS2, DUMPS, THEN)
    move(prog, st, ["glass:2", "glass:2"], "hand(0)")    # 2 glass:1 + 3 glass:2 = 8 icons
    do(prog, st, "deliver: 2*glass:1 + 3*glass:2")
    assert names(prog, st, "won(0)") == ["reward:glass:0"]
    assert reward_values_top_first(prog, st, "glass") == [1, 2, -2, 4, 5]
    assert names(prog, st, "side[glass]") == []
    assert names(prog, st, "discard") == ["glass:1", "glass:1", "glass:2", "glass:2", "glass:2"]
    assert names(prog, st, "hand(0)") == ["glass:1"]
    assert names(prog, st, "dump[glass]") == [THEN[0]]


# ---------------------------------------------------------------- Step 2: collect

@pytest.mark.parametrize("delivery, reward, kept, refill", [
    ("1*glass:1", [], ["glass:1", "glass:2"], 2),
    ("2*glass:1 + 1*glass:2", ["reward:glass:0"], [], 1),
])
def test_collect_takes_the_whole_dump_site_reward_or_not(delivery, reward, kept, refill):
    prog, st = dealt(2, HANDS2, DUMPS, THEN)
    set_zone(prog, st, "dump[glass]", ["cans:1", "paper:2", "plastic:1"])
    do(prog, st, "deliver: " + delivery)
    assert names(prog, st, "won(0)") == reward
    assert names(prog, st, "hand(0)") == sorted(kept + ["cans:1", "paper:2", "plastic:1"])
    assert names(prog, st, "dump[glass]") == sorted(THEN[:refill])   # only the refill is left
    # only that factory's dump site is collected
    assert names(prog, st, "dump[cans]") == ["cans:1"]
    assert names(prog, st, "dump[paper]") == ["paper:2"]


def test_cards_collected_this_turn_cannot_be_delivered():
    # Delivery comes first: a glass:2 lying on the glass dump site cannot join the delivery,
    # and once collected the turn goes on (no second delivery).
    prog, st = dealt(2, [["glass:1", "paper:1", "paper:1"], ["cans:1"] * 3],
                     ["cans:2", "glass:2", "plastic:1", "paper:2"], THEN)
    assert legal_multisets(prog, st) == {
        multiset("glass:1"), multiset("paper:1"), multiset("paper:1", "paper:1")}
    before = st.clone()
    with pytest.raises(IllegalMove):
        prog.play(st, move_of(prog, {"glass:1": 1, "glass:2": 1}))
    assert st == before
    do(prog, st, "deliver: 1*glass:1")
    assert names(prog, st, "side[glass]") == ["glass:1"]
    assert names(prog, st, "hand(0)") == ["glass:2", "paper:1", "paper:1"]
    assert st.current == 1 and st.decider == 1 and st.pending.name == "deliver"
    assert names(prog, st, "hand(0)").count("glass:2") == 1


# ---------------------------------------------------------------- Step 3: hand limit

@pytest.mark.parametrize("dump, excess", [
    (["plastic:1", "plastic:1", "paper:2"], 0),                      # 2 + 3 = 5: no disposal
    (["plastic:1", "plastic:1", "paper:2", "cans:2"], 1),            # 6
    (["plastic:1", "plastic:1", "paper:2", "cans:2", "glass:1"], 2),  # 7
])
def test_hand_limit_disposes_exactly_the_excess(dump, excess):
    prog, st = dealt(2, [["cans:1", "glass:1", "paper:1"], ["paper:1"] * 3], DUMPS, THEN)
    set_zone(prog, st, "dump[cans]", dump)
    do(prog, st, "deliver: 1*cans:1")
    hand = ["glass:1", "paper:1"] + dump
    assert names(prog, st, "hand(0)") == sorted(hand)
    if excess == 0:
        assert st.current == 1 and st.pending.name == "deliver"
        assert names(prog, st, "disposal(0)") == []
        return
    assert st.decider == 0 and st.pending.name == "dispose"
    # every choice of exactly the excess among the hand's cards, by type
    expected = {multiset(*combo) for combo in itertools.combinations(hand, excess)}
    assert legal_multisets(prog, st) == expected
    before = st.clone()
    for wrong in (excess - 1, excess + 1):
        with pytest.raises(IllegalMove):
            prog.play(st, move_of(prog, collections.Counter(["plastic:1", "paper:2", "glass:1"][:wrong])))
    assert st == before
    chosen = ["plastic:1", "plastic:1"][:excess]
    do(prog, st, "dispose: " + " + ".join(f"{k}*{n}" for n, k in sorted(collections.Counter(chosen).items())))
    assert names(prog, st, "disposal(0)") == chosen
    left = list(hand)
    for c in chosen:
        left.remove(c)
    assert names(prog, st, "hand(0)") == sorted(left) and len(left) == HAND_LIMIT
    # then the refill of the cans factory (1 icon on its side: 2 cards) and seat 1's turn
    assert names(prog, st, "dump[cans]") == sorted(THEN[:2])
    assert st.current == 1 and st.pending.name == "deliver"


def test_disposed_cards_never_return():
    dump = ["plastic:1", "plastic:1", "paper:2", "cans:2", "glass:1"]
    for seed in range(3):
        prog, st = dealt(2, [["cans:1", "glass:1", "paper:1"], ["paper:1"] * 3], DUMPS, THEN, seed=seed)
        set_zone(prog, st, "dump[cans]", dump)
        do(prog, st, "deliver: 1*cans:1")
        do(prog, st, "dispose: 1*cans:2 + 1*glass:1")
        gone = set(cards(prog, st, "disposal(0)"))
        assert len(gone) == 2
        disposal = [zone_index(prog, f"disposal({p})") for p in range(2)]
        bots = [make_bot("random", seed), make_bot("greedy", seed)]
        while not st.over:
            prog.apply(st, bots[st.decider].choose(prog, st, prog.legal_moves(st)))
            assert gone <= set(cards(prog, st, "disposal(0)"))
            check_loc(st)
        # every disposed card of the game is still on a disposal pile at the end
        assert all(st.loc[c] in disposal for c in gone)


# ---------------------------------------------------------------- Step 4: refill

def test_refill_reshuffles_discard_when_draw_empty():
    # 1 icon stays: 2 cards needed, the draw pile holds 1; the discard pile is shuffled into a
    # new draw pile for the second card.
    prog, st = dealt(2, HANDS2, DUMPS, THEN)
    move_all(prog, st, "draw", "discard", keep=1)          # the draw keeps only THEN[0]
    before = collections.Counter(names(prog, st, "discard"))
    assert size(prog, st, "discard") == 77
    next_shuffle(prog, st, "discard", top=["cans:2"])
    do(prog, st, "deliver: 1*glass:1")
    assert names(prog, st, "dump[glass]") == sorted([THEN[0], "cans:2"])
    assert size(prog, st, "discard") == 0
    assert collections.Counter(names(prog, st, "draw")) == before - collections.Counter(["cans:2"])
    assert st.script == []                                  # the scripted shuffle was used


def test_refill_reshuffles_discard_including_the_side_just_cleared():
    # Step 1 moves the cleared side to the discard pile before step 4 needs a card: the new
    # draw pile holds those cards too (the scripted shuffle must match all 78 + 3 cards).
    prog, st = dealt(2, HANDS2, DUMPS, THEN)
    move_all(prog, st, "draw", "discard")
    assert size(prog, st, "discard") == 78 and size(prog, st, "draw") == 0
    next_shuffle(prog, st, "discard", top=["plastic:2"], extra=["glass:1", "glass:1", "glass:2"])
    do(prog, st, "deliver: 2*glass:1 + 1*glass:2")
    assert names(prog, st, "won(0)") == ["reward:glass:0"]
    assert names(prog, st, "dump[glass]") == ["plastic:2"]
    assert size(prog, st, "draw") == 80 and size(prog, st, "discard") == 0
    assert st.script == []


def test_refill_stops_when_both_piles_empty():
    prog, st = dealt(2, HANDS2, DUMPS, THEN)
    move_all(prog, st, "draw", "box", keep=1)               # draw: THEN[0] only
    move(prog, st, ["cans:2", "paper:1"], "discard", frm="box")
    next_shuffle(prog, st, "discard", top=["paper:1"])
    do(prog, st, "deliver: 1*glass:1 + 1*glass:2")          # 3 icons: 4 cards wanted, 3 exist
    assert names(prog, st, "dump[glass]") == sorted([THEN[0], "paper:1", "cans:2"])
    assert size(prog, st, "draw") == 0 and size(prog, st, "discard") == 0
    assert st.current == 1 and not st.over
    do(prog, st, "deliver: 1*paper:1")                      # 1 icon: 2 wanted, none left
    assert names(prog, st, "dump[paper]") == []
    assert names(prog, st, "hand(1)") == ["paper:1", "paper:1", "paper:2"]
    assert st.current == 0 and not st.over and st.pending.name == "deliver"


def test_empty_hand_chooses_any_factory():
    hands = [["glass:1", "cans:1", "cans:1"], ["paper:1"] * 3]
    dumps = ["cans:2", "glass:2", "plastic:1", "paper:2"]
    then = ["cans:2", "cans:1", "glass:2", "paper:1", "plastic:2", "cans:1", "glass:1", "paper:2"]
    prog, st = dealt(2, hands, dumps, then)
    set_zone(prog, st, "hand(0)", ["glass:1"])
    set_zone(prog, st, "dump[glass]", [])
    set_zone(prog, st, "side[plastic]", ["plastic:1", "plastic:1"])   # 2 icons waiting
    do(prog, st, "deliver: 1*glass:1")          # collects nothing: seat 0's hand is empty
    assert names(prog, st, "hand(0)") == []
    assert names(prog, st, "dump[glass]") == sorted(then[0:2])
    do(prog, st, "deliver: 1*paper:1")
    assert names(prog, st, "dump[paper]") == sorted(then[2:4])
    # seat 0 delivers nothing and chooses any factory for steps 2 and 4
    assert st.current == 0
    assert sorted(texts(prog, st)) == sorted(f"factory: {m}" for m in MATERIALS)
    do(prog, st, "factory: plastic")
    assert names(prog, st, "hand(0)") == ["plastic:1"]                 # collected its dump site
    assert names(prog, st, "side[plastic]") == ["plastic:1", "plastic:1"]
    assert names(prog, st, "side[glass]") == ["glass:1"]
    assert names(prog, st, "won(0)") == []
    assert reward_values_top_first(prog, st, "plastic") == [0, 1, 2, -2, 4, 5]
    assert names(prog, st, "dump[plastic]") == sorted(then[4:7])     # 2 icons + 1
    assert st.current == 1


# ---------------------------------------------------------------- End

@pytest.mark.parametrize("dump, dispose, hand_after", [
    (["cans:1", "cans:2", "plastic:1", "plastic:2", "paper:2"], "dispose: 1*cans:1 + 1*cans:2",
     ["paper:1", "paper:1", "paper:2", "plastic:1", "plastic:2"]),
    (["cans:1", "plastic:2"], None, ["cans:1", "paper:1", "paper:1", "plastic:2"]),
])
def test_game_ends_on_last_reward_with_collect_and_hand_limit_but_no_refill(dump, dispose, hand_after):
    prog, st = dealt(2, HANDS2, DUMPS, THEN)
    move(prog, st, ["paper:1", "paper:1"], "hand(0)")          # 5 cards
    give_rewards(prog, st, 1, [("glass", v) for v in (0, 1, 2, -2, 4)])
    assert reward_values_top_first(prog, st, "glass") == [5]
    set_zone(prog, st, "dump[glass]", dump)
    draw_size = size(prog, st, "draw")
    do(prog, st, "deliver: 2*glass:1 + 1*glass:2")             # takes the last glass reward
    assert names(prog, st, "won(0)") == ["reward:glass:5"]
    assert names(prog, st, "dump[glass]") == []                # collected ...
    if dispose:
        assert not st.over and st.decider == 0 and st.pending.name == "dispose"   # ... hand limit
        do(prog, st, dispose)
        assert names(prog, st, "disposal(0)") == ["cans:1", "cans:2"]
    assert st.over
    assert names(prog, st, "hand(0)") == sorted(hand_after)
    assert names(prog, st, "dump[glass]") == []                # ... and no refill
    assert size(prog, st, "draw") == draw_size
    assert names(prog, st, "discard") == ["glass:1", "glass:1", "glass:2"]
    assert prog.legal_moves(st) == []
    # seat 0: a lone glass reward scores 0, minus its disposals; 2 players: clean bonus 4.
    # seat 1: 0 + 1 + 2 - 2 + 4 = 5 for glass, clean: + 4.
    disposed = 2 if dispose else 0
    expected0 = -disposed + (0 if disposed else 4)
    res = prog.result(st)
    assert res["scores"] == [expected0, 9]
    assert res["winners"] == [1]


def test_nobody_plays_after_the_end():
    prog, st = dealt(3, [["glass:1", "glass:1", "glass:2"], ["paper:1"] * 3, ["cans:1"] * 3], DUMPS, THEN)
    give_rewards(prog, st, 2, [("glass", v) for v in (0, 1, 2, 3, -2, 4)])
    do(prog, st, "deliver: 2*glass:1 + 1*glass:2")
    assert st.over and st.turn == 1
    assert prog.legal_moves(st) == []
    frozen = st.clone()
    for text in ("deliver: 1*paper:1", "deliver: 1*cans:1", "factory: glass"):
        with pytest.raises(IllegalMove):
            do(prog, st, text)
    with pytest.raises(IllegalMove):
        prog.play(st, move_of(prog, {"paper:1": 1}))
    assert st == frozen
    assert names(prog, st, "hand(1)") == ["paper:1"] * 3
    assert names(prog, st, "hand(2)") == ["cans:1"] * 3


# ---------------------------------------------------------------- Scoring

def test_lone_reward_scores_zero_even_minus_two():
    prog, st = start(3)       # 3 players and nobody disposed: no clean bonus
    give_rewards(prog, st, 0, [("cans", -2)])
    give_rewards(prog, st, 1, [("glass", 5)])
    give_rewards(prog, st, 2, [("plastic", 4), ("paper", -2), ("cans", 0)])
    assert [prog.score(st, p) for p in range(3)] == [0, 0, 0]
    assert prog.result(st)["scores"] == [0, 0, 0]


def test_two_or_more_rewards_add_up_including_minus_two_and_zero():
    prog, st = start(3)
    give_rewards(prog, st, 0, [("cans", -2), ("cans", 5),              # 3
                               ("glass", 0), ("glass", 4),             # a 0 still counts: 4
                               ("paper", 0), ("paper", 1), ("paper", 2),   # 3
                               ("plastic", 4)])                        # lone: 0
    give_rewards(prog, st, 1, [("plastic", -2), ("plastic", 0)])       # -2
    assert [prog.score(st, p) for p in range(3)] == [10, -2, 0]
    assert prog.result(st)["winners"] == [0]


def test_each_disposed_card_costs_one():
    prog, st = start(4)
    give_rewards(prog, st, 0, [("glass", 1), ("glass", 2)])     # 3
    dispose_cards(prog, st, 0, 3)                                # - 3
    dispose_cards(prog, st, 1, 1)                                # - 1
    # seats 2 and 3 are clean: 1 point per disposing player (2 of them)
    assert [prog.score(st, p) for p in range(4)] == [0, -1, 2, 2]


@pytest.mark.parametrize("disposed, expected", [
    ([0, 0], [4, 4]),
    ([0, 2], [4, -2]),
    ([1, 1], [-1, -1]),
])
def test_clean_bonus_2_players_4_even_if_both_clean(disposed, expected):
    prog, st = start(2)
    for p, d in enumerate(disposed):
        dispose_cards(prog, st, p, d)
    assert [prog.score(st, p) for p in range(2)] == expected


@pytest.mark.parametrize("disposed, expected", [
    ([0, 0, 0], [0, 0, 0]),
    ([0, 1, 0], [2, -1, 2]),
    ([0, 2, 1], [4, -2, -1]),
    ([3, 1, 2], [-3, -1, -2]),
])
def test_clean_bonus_3_players_2_per_disposing_player(disposed, expected):
    prog, st = start(3)
    for p, d in enumerate(disposed):
        dispose_cards(prog, st, p, d)
    assert [prog.score(st, p) for p in range(3)] == expected


@pytest.mark.parametrize("players, disposed, expected", [
    (4, [0, 0, 3, 1], [2, 2, -3, -1]),
    (4, [0, 1, 1, 1], [3, -1, -1, -1]),
    (4, [0, 0, 0, 0], [0, 0, 0, 0]),
    (5, [0, 1, 0, 2, 1], [3, -1, 3, -2, -1]),
    (5, [0, 0, 0, 0, 4], [1, 1, 1, 1, -4]),
    (5, [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]),
])
def test_clean_bonus_4_and_5_players_1_per_disposing_player(players, disposed, expected):
    prog, st = start(players)
    for p, d in enumerate(disposed):
        dispose_cards(prog, st, p, d)
    assert [prog.score(st, p) for p in range(players)] == expected


def test_tie_broken_by_fewer_disposals():
    prog, st = start(3)
    give_rewards(prog, st, 0, [("glass", 4), ("glass", 5)])    # 9 - 2 = 7
    dispose_cards(prog, st, 0, 2)
    give_rewards(prog, st, 1, [("cans", 3), ("cans", 5)])      # 8 - 1 = 7
    dispose_cards(prog, st, 1, 1)
    # seat 2: clean, 2 points per disposing player: 4
    res = prog.result(st)
    assert res["scores"] == [7, 7, 4]
    assert res["winners"] == [1]
    # a clean player wins a tie against a disposer
    prog, st = start(2)
    give_rewards(prog, st, 0, [("glass", 4), ("glass", 5)])    # 9 - 1 = 8
    dispose_cards(prog, st, 0, 1)
    give_rewards(prog, st, 1, [("cans", 0), ("cans", 4)])      # 4 + 4 clean = 8
    res = prog.result(st)
    assert res["scores"] == [8, 8]
    assert res["winners"] == [1]


def test_still_tied_is_shared_victory():
    prog, st = start(2)
    assert prog.result(st)["scores"] == [4, 4]
    assert prog.result(st)["winners"] == [0, 1]
    prog, st = start(4)
    give_rewards(prog, st, 0, [("glass", 1), ("glass", 2)])    # 3 - 1 = 2
    dispose_cards(prog, st, 0, 1)
    give_rewards(prog, st, 1, [("cans", 0), ("cans", 3)])      # 3 - 1 = 2
    dispose_cards(prog, st, 1, 1)
    dispose_cards(prog, st, 2, 2)                               # -2
    dispose_cards(prog, st, 3, 1)                               # -1
    res = prog.result(st)
    assert res["scores"] == [2, 2, -2, -1]
    assert res["winners"] == [0, 1]


# ---------------------------------------------------------------- Moves

def test_illegal_move_refused_and_state_unchanged():
    prog, st = dealt(2, HANDS2, DUMPS, THEN)
    before = st.clone()
    bad_moves = [
        move_of(prog, {"cans:2": 1}),                     # not in hand
        move_of(prog, {"glass:2": 2}),                    # only one glass:2 in hand
        move_of(prog, {"glass:1": 3}),
        move_of(prog, {"glass:1": 1, "paper:1": 1}),      # two materials (paper not held either)
        (),
    ]
    for bad in bad_moves:
        with pytest.raises(IllegalMove):
            prog.play(st, bad)
        assert st == before
    for text in ("deliver: 1*paper:1", "factory: glass", "dispose: 1*glass:1", "deliver: 4*glass:1",
                 "deliver: 1*glass:3", "deliver glass", ""):
        with pytest.raises(IllegalMove):
            do(prog, st, text)
        assert st == before
    assert names(prog, st, "hand(0)") == sorted(HANDS2[0])
    # and at a dispose decision
    set_zone(prog, st, "dump[glass]", ["cans:1", "cans:1", "paper:2", "plastic:2"])
    do(prog, st, "deliver: 1*glass:1")                  # 2 + 4 = 6 cards: dispose 1
    assert st.pending.name == "dispose"
    before = st.clone()
    for text in ("dispose: 2*cans:1", "dispose: 1*paper:1", "deliver: 1*glass:1", "factory: cans"):
        with pytest.raises(IllegalMove):
            do(prog, st, text)
        assert st == before
    do(prog, st, "dispose: 1*paper:2")
    assert names(prog, st, "disposal(0)") == ["paper:2"]
    # a malformed move (not a tuple of (type, count) pairs) is refused the same way
    before = st.clone()
    for bad in (("glass",), "deliver: 1*glass:1", None, ((999, 1),)):
        with pytest.raises(IllegalMove):
            prog.play(st, bad)
        assert st == before
