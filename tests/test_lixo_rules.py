"""Lixo rule scenarios: one test per rule sentence of the Lixo rule sheet, described in
docs/games.md ("Lixo?").

Each test fixes a deal (lixo_helpers.dealt / start: the bins cards in the order they are turned
over, the garbage cards in the order they are dealt), plays moves by their text and checks the
outcome the rule sheet prescribes. Expected values are worked out by hand from the sheet.

Reading aid: the setup deals 5 garbage cards to every seat, one at a time from seat 0; then turn 1
turns over the first bins card at once, so a new state already waits at the first auction
decision (or further on, when nobody can bid or the first cards are stops).
"""
import collections

import pytest

from interpreter.seats import make_bot
from interpreter.errors import IllegalMove
from interpreter.seats.views import view_of
from lixo_helpers import (
    ALL_CARDS, BINS, COLOURS, GARBAGE,
    bid_move, cards, check_loc, clear_bins, container_colour, container_value, dealt, do,
    first_player, hand_sizes, is_container, move, move_all, names, next_shuffle, program, set_zone,
    sheet_scores, size, start, texts, totals, turned, type_name, var, zone_index,
)


def deciders(prog, st, moves) -> list:
    """Play moves by text; returns who decided each."""
    out = []
    for text in moves:
        out.append(st.decider)
        do(prog, st, text)
    return out


def refused(prog, st, text_or_move) -> str:
    """The move is refused with a reason and the state is unchanged; returns the reason."""
    before = st.clone()
    with pytest.raises(IllegalMove) as exc:
        if isinstance(text_or_move, str):
            do(prog, st, text_or_move)
        else:
            prog.play(st, text_or_move)
    assert st == before
    reason = str(exc.value)
    assert "not a legal move" in reason or "not legal now" in reason or "the game is over" in reason
    return reason


def finish_with_bots(prog, st, seed=0):
    bots = [make_bot("random", seed + p) for p in range(prog.players)]
    while not st.over:
        prog.play(st, bots[st.decider].choose(prog, st, prog.legal_moves(st)))
        check_loc(st)


# ---------------------------------------------------------------- Components

@pytest.mark.parametrize("players", [2, 6])
def test_components_25_containers_valued_1_1_2_3_5_in_each_of_5_colours_and_5_stops(players):
    prog = program(players)
    kinds = collections.Counter(prog.type_names[t] for t in prog.card_type)
    per_colour = collections.defaultdict(list)
    for name, k in kinds.items():
        if is_container(name):
            per_colour[container_colour(name)] += [container_value(name)] * k
    assert sorted(per_colour) == sorted(COLOURS)
    assert all(sorted(v) == [1, 1, 2, 3, 5] for v in per_colour.values())
    assert sum(len(v) for v in per_colour.values()) == 25
    assert kinds["stop"] == 5


@pytest.mark.parametrize("players", [2, 6])
def test_components_180_garbage_cards_36_of_each_colour(players):
    prog = program(players)
    kinds = collections.Counter(prog.type_names[t] for t in prog.card_type)
    assert {c: kinds[c] for c in COLOURS} == {c: 36 for c in COLOURS}
    assert sum(kinds[c] for c in COLOURS) == 180
    assert len(prog.card_type) == 25 + 5 + 180 == ALL_CARDS
    # every garbage card counts as its own colour only (the default, single-colour deck)
    prog2, st = dealt(2, [["blue", "red", "green", "grey", "yellow"]] * 2, bins=["container:blue:1"])
    assert sorted(texts(prog2, st)) == ["bid: 1*blue", "pass"]


# ---------------------------------------------------------------- Setup

def test_setup_shuffles_containers_and_stops_into_one_face_down_bins_deck_and_garbage_deck():
    prog = program(3)
    orders = []
    for seed in range(3):
        st = prog.new_state(seed, record=True)
        (z1, bins), (z2, garbage) = st.chance[:2]
        assert prog.zone_names[z1] == "bins" and prog.zone_names[z2] == "garbage"
        assert collections.Counter(prog.type_names[t] for t in bins) == BINS        # one deck of 30
        assert collections.Counter(prog.type_names[t] for t in garbage) == GARBAGE  # 180
        orders.append((bins, garbage))
    assert len({tuple(b) for b, _ in orders}) == 3 and len({tuple(g) for _, g in orders}) == 3
    for deck in ("bins", "garbage"):
        assert prog.zone_vis[zone_index(prog, deck)] == 0                         # face down


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_each_player_gets_5_hidden_garbage_cards(players):
    hands = [[COLOURS[(p + r) % 5] for r in range(5)] for p in range(players)]
    hands[0][0] = "blue"
    prog, st = dealt(players, hands, bins=["container:blue:1"])
    for p in range(players):
        assert names(prog, st, f"hand({p})") == sorted(hands[p])
        assert prog.zone_vis[zone_index(prog, f"hand({p})")] == 1 << p              # its owner only
    assert size(prog, st, "garbage") == 180 - 5 * players


@pytest.mark.parametrize("players", [2, 4, 6])
def test_setup_seat_0_is_the_first_player(players):
    prog, st = dealt(players, [["blue"] * 5] * players, bins=["container:blue:2"])
    assert first_player(prog, st) == 0
    assert st.turn == 1 and st.current == 0 and st.decider == 0    # seat 0 opens the first auction


def test_setup_deal_gives_one_card_at_a_time_clockwise_from_the_first_player():
    # garbage dealt in this order: yellow, blue, green, yellow, blue, green, ... (15 cards):
    # one at a time from seat 0 gives seat 0 every yellow, seat 1 every blue, seat 2 every green.
    prog, st = start(3, bins=["container:grey:1"], garbage=["yellow", "blue", "green"] * 5)
    assert names(prog, st, "hand(0)") == ["yellow"] * 5
    assert names(prog, st, "hand(1)") == ["blue"] * 5
    assert names(prog, st, "hand(2)") == ["green"] * 5


def test_every_deal_starts_with_the_current_first_player():
    # Two stops in a row. The first deals from seat 0 (the first player then), the second from
    # seat 1 (the first player after the first stop).
    hands = [["yellow"] * 5, ["blue"] * 5, ["green"] * 5]
    first_stop = ["red", "grey", "yellow"] * 5          # seat 0 red, seat 1 grey, seat 2 yellow
    second_stop = ["blue", "green", "grey"] * 5         # from seat 1: seat 1 blue, seat 2 green, seat 0 grey
    prog, st = dealt(3, hands, bins=["stop", "stop", "container:red:1"], then=first_stop + second_stop)
    assert names(prog, st, "hand(0)") == sorted(["yellow"] * 5 + ["red"] * 5 + ["grey"] * 5)
    assert names(prog, st, "hand(1)") == sorted(["blue"] * 5 + ["grey"] * 5 + ["blue"] * 5)
    assert names(prog, st, "hand(2)") == sorted(["green"] * 5 + ["yellow"] * 5 + ["green"] * 5)
    assert first_player(prog, st) == 2


def test_won_containers_and_unrecycled_garbage_lie_face_up_next_to_each_player():
    prog = program(4)
    everyone = (1 << 4) - 1
    for p in range(4):
        assert prog.zone_vis[zone_index(prog, f"won({p})")] == everyone
        assert prog.zone_vis[zone_index(prog, f"unrecycled({p})")] == everyone


# ---------------------------------------------------------------- Play: a container, the auction

@pytest.mark.parametrize("stops, first", [(0, 0), (1, 1), (2, 2), (3, 3), (4, 0)])
def test_auction_starts_with_the_first_player_then_clockwise(stops, first):
    prog, st = dealt(4, [["blue"] * 5] * 4, bins=["stop"] * stops + ["container:blue:5"])
    assert first_player(prog, st) == first and turned(prog, st) == "container:blue:5"
    order = deciders(prog, st, ["bid: 1*blue", "bid: 2*blue", "bid: 3*blue", "bid: 4*blue"])
    assert order == [first, (first + 1) % 4, (first + 2) % 4, (first + 3) % 4]
    assert st.decider == first                       # round two, again from the first player


def test_bid_puts_garbage_of_the_containers_colour_face_up_added_to_the_bid_so_far():
    prog, st = dealt(2, [["blue"] * 4 + ["red"], ["blue"] * 4 + ["green"]],
                     bins=["container:blue:3", "container:yellow:1"])
    do(prog, st, "bid: 1*blue")
    assert names(prog, st, "bids(0)") == ["blue"]
    assert names(prog, st, "hand(0)") == ["blue", "blue", "blue", "red"]
    assert prog.zone_vis[zone_index(prog, "bids(0)")] == 0b11          # face up
    do(prog, st, "bid: 2*blue")
    assert names(prog, st, "bids(1)") == ["blue", "blue"]
    do(prog, st, "bid: 2*blue")                                        # 1 + 2 = 3
    assert names(prog, st, "bids(0)") == ["blue"] * 3
    assert names(prog, st, "hand(0)") == ["blue", "red"]
    assert var(prog, st, "high") == 3
    assert st.decider == 1 and texts(prog, st) == ["bid: 2*blue", "pass"]   # 2 + 2 = 4 beats 3


def test_bid_only_allowed_if_total_is_at_least_one_more_than_highest_bid():
    prog, st = dealt(2, [["blue"] * 5, ["blue"] * 4 + ["grey"]], bins=["container:blue:2"])
    do(prog, st, "bid: 2*blue")
    # seat 1: 2 is the highest bid; a total of 3 or 4 is allowed
    assert texts(prog, st) == ["bid: 3*blue", "bid: 4*blue", "pass"]
    for bad in ("bid: 2*blue", "bid: 1*blue"):            # the same total, or lower
        refused(prog, st, bad)
    refused(prog, st, bid_move(prog, st, {"blue": 2}))
    do(prog, st, "bid: 3*blue")
    # seat 0 has bid 2 and holds 3: its total must reach 4, so it adds at least 2
    assert texts(prog, st) == ["bid: 2*blue", "bid: 3*blue", "pass"]
    reason = refused(prog, st, "bid: 1*blue")             # 2 + 1 = 3: only the same total
    assert "bid: 2*blue" in reason                         # the reason lists the legal moves
    refused(prog, st, bid_move(prog, st, {"blue": 1}))
    do(prog, st, "bid: 2*blue")
    # seat 1 (3 bid, 1 left) cannot reach 5: seat 0 wins with a total of 4
    assert names(prog, st, "won(0)") == ["container:blue:2"]
    assert names(prog, st, "recycled") == ["blue"] * 4 and names(prog, st, "unrecycled(1)") == ["blue"] * 3


def test_only_garbage_of_the_containers_colour_may_be_bid():
    prog, st = dealt(2, [["blue", "blue", "red", "red", "green"], ["blue"] * 5], bins=["container:blue:3"])
    assert texts(prog, st) == ["bid: 1*blue", "bid: 2*blue", "pass"]
    refused(prog, st, "bid: 1*red")
    refused(prog, st, "bid: 1*blue + 1*red")
    refused(prog, st, bid_move(prog, st, {"red": 2}))
    refused(prog, st, bid_move(prog, st, {"blue": 1, "green": 1}))
    refused(prog, st, "bid: 3*blue")                  # only cards from hand: it holds 2 blue
    assert names(prog, st, "bids(0)") == []


def test_passing_is_not_final_a_player_who_passed_bids_again_and_wins():
    hands = [["blue"] * 5, ["blue"] * 5, ["blue"] * 3 + ["grey"] * 2]
    prog, st = dealt(3, hands, bins=["container:blue:5", "container:yellow:1"])
    order = deciders(prog, st, ["pass", "bid: 1*blue", "pass",      # round 1: seat 0 passes
                                "bid: 2*blue", "pass", "pass"])     # round 2: seat 0 is back
    assert order == [0, 1, 2, 0, 1, 2]
    assert names(prog, st, "won(0)") == ["container:blue:5"]
    assert names(prog, st, "recycled") == ["blue", "blue"]
    assert names(prog, st, "unrecycled(1)") == ["blue"]


def test_bidding_goes_round_the_table_for_any_number_of_rounds():
    prog, st = dealt(2, [["blue"] * 5, ["blue"] * 5], bins=["container:blue:5", "container:yellow:1"])
    order = deciders(prog, st, ["bid: 1*blue", "bid: 2*blue", "bid: 2*blue", "bid: 2*blue", "bid: 2*blue"])
    assert order == [0, 1, 0, 1, 0]                  # three rounds: totals 1, 2, 3, 4, 5
    # seat 1 (4 bid, 1 left) cannot reach 6: the auction is over, seat 0 has won with 5
    assert names(prog, st, "won(0)") == ["container:blue:5"]
    assert names(prog, st, "recycled") == ["blue"] * 5
    assert names(prog, st, "unrecycled(1)") == ["blue"] * 4


@pytest.mark.parametrize("players", [2, 3, 5])
def test_highest_bidder_is_never_asked_to_raise_their_own_bid(players):
    prog, st = dealt(players, [["green"] * 5] * players, bins=["container:green:3", "container:green:1"])
    order = deciders(prog, st, ["pass"] + ["bid: 1*green"] + ["pass"] * (players - 1))
    assert order == [0] + [1] + [(1 + k) % players for k in range(1, players)]
    # every other player passed since seat 1's bid: seat 1 was not asked, it won
    assert 1 not in order[2:]
    assert names(prog, st, "won(1)") == ["container:green:3"]
    assert turned(prog, st) == "container:green:1" and st.turn == 2


@pytest.mark.parametrize("players", [2, 3, 6])
def test_auction_ends_when_everyone_passed_once_and_nobody_bid(players):
    prog, st = dealt(players, [["red"] * 5] * players, bins=["container:red:5", "container:red:3"])
    order = deciders(prog, st, ["pass"] * players)
    assert order == list(range(players))
    assert names(prog, st, "unclaimed") == ["container:red:5"]
    assert all(size(prog, st, f"won({p})") == 0 for p in range(players))
    assert all(names(prog, st, f"hand({p})") == ["red"] * 5 for p in range(players))


def test_a_player_with_no_card_of_the_colour_passes_automatically():
    # seat 1 holds no green: it is never asked, and its pass counts.
    hands = [["green"] * 3 + ["blue"] * 2, ["red"] * 5, ["green"] + ["yellow"] * 4]
    prog, st = dealt(3, hands, bins=["container:green:2", "container:blue:1"])
    order = deciders(prog, st, ["pass", "bid: 1*green", "pass"])
    assert order == [0, 2, 0]
    # after seat 0's pass seat 1 is skipped: every other player passed since seat 2's bid
    assert names(prog, st, "won(2)") == ["container:green:2"]
    assert st.moves == 3                             # the automatic passes were nobody's decision


def test_a_player_who_cannot_raise_passes_automatically():
    # seat 0 bids 1 and keeps 1 green; seat 1 bids 2: 1 + 1 cannot beat 2, seat 0 is not asked.
    prog, st = dealt(2, [["green"] * 2 + ["red"] * 3, ["green"] * 5],
                     bins=["container:green:5", "container:red:1"])
    do(prog, st, "bid: 1*green")
    do(prog, st, "bid: 2*green")
    assert names(prog, st, "won(1)") == ["container:green:5"]
    assert names(prog, st, "unrecycled(0)") == ["green"]
    assert turned(prog, st) == "container:red:1" and st.decider == 0
    # with one more green seat 0 could reach 3 and is asked
    prog, st = dealt(2, [["green"] * 3 + ["red"] * 2, ["green"] * 5],
                     bins=["container:green:5", "container:red:1"])
    do(prog, st, "bid: 1*green")
    do(prog, st, "bid: 2*green")
    assert st.decider == 0 and texts(prog, st) == ["bid: 2*green", "pass"]


def test_a_player_who_cannot_raise_before_anyone_bid_is_skipped_and_nobody_asked_means_unclaimed():
    # nobody holds yellow: the container is unclaimed without a single decision
    prog, st = dealt(3, [["blue"] * 5] * 3, bins=["container:yellow:5", "container:blue:1"])
    assert names(prog, st, "unclaimed") == ["container:yellow:5"]
    assert st.moves == 0 and turned(prog, st) == "container:blue:1" and st.decider == 0


def test_highest_bidder_keeps_the_container_face_up_and_their_bid_is_recycled():
    prog, st = dealt(2, [["blue"] * 4 + ["red"], ["blue"] * 3 + ["green"] * 2],
                     bins=["container:blue:3", "container:yellow:1"])
    for text in ("bid: 1*blue", "bid: 2*blue", "bid: 2*blue"):
        do(prog, st, text)
    # seat 1 (bid 2, 1 blue left) cannot reach 4: seat 0 wins with 3
    assert names(prog, st, "won(0)") == ["container:blue:3"]
    assert prog.zone_vis[zone_index(prog, "won(0)")] == 0b11
    assert names(prog, st, "recycled") == ["blue"] * 3
    assert prog.zone_vis[zone_index(prog, "recycled")] == 0b11
    assert names(prog, st, "bids(0)") == [] and names(prog, st, "unrecycled(0)") == []


def test_every_other_bidder_keeps_their_bid_face_up_as_unrecycled_minus_one_each():
    hands = [["red"] * 5, ["red"] * 5, ["red"] * 5]
    prog, st = dealt(3, hands, bins=["container:red:2", "container:grey:1"])
    deciders(prog, st, ["bid: 1*red", "bid: 2*red", "bid: 3*red", "pass", "pass"])
    assert names(prog, st, "won(2)") == ["container:red:2"]
    assert names(prog, st, "recycled") == ["red"] * 3
    assert names(prog, st, "unrecycled(0)") == ["red"]
    assert names(prog, st, "unrecycled(1)") == ["red", "red"]
    assert names(prog, st, "unrecycled(2)") == []
    assert totals(prog, st) == [0, 0, 0]
    # -1 for each card in front of the player (and each card in hand)
    assert [prog.score(st, p) for p in range(3)] == [0 - 4 - 1, 0 - 3 - 2, 2 - 2]


def test_unrecycled_garbage_never_returns_to_play():
    hands = [["red"] * 5, ["red"] * 5, ["red"] * 5]
    prog, st = dealt(3, hands, bins=["container:red:2"], seed=4)
    deciders(prog, st, ["bid: 1*red", "bid: 2*red", "bid: 3*red", "pass", "pass"])
    lost = {p: cards(prog, st, f"unrecycled({p})") for p in range(3)}
    assert [len(lost[p]) for p in range(3)] == [1, 2, 0]
    finish_with_bots(prog, st, seed=4)
    for p in range(3):
        assert set(lost[p]) <= set(cards(prog, st, f"unrecycled({p})"))


def test_nobody_bids_container_goes_to_unclaimed_and_is_not_used_again():
    prog, st = dealt(2, [["grey"] * 5] * 2, bins=["container:grey:5"], seed=2)
    deciders(prog, st, ["pass", "pass"])
    assert names(prog, st, "unclaimed") == ["container:grey:5"]
    unclaimed = cards(prog, st, "unclaimed")
    assert prog.zone_vis[zone_index(prog, "unclaimed")] == 0b11
    finish_with_bots(prog, st, seed=2)
    assert set(unclaimed) <= set(cards(prog, st, "unclaimed"))


# ---------------------------------------------------------------- Play: a stop card

def test_stop_gives_every_player_5_new_cards_then_first_player_moves_left():
    hands = [["blue"] * 5, ["yellow"] * 5, ["green"] * 5]
    # the stop is the first card: it still counts
    prog, st = dealt(3, hands, bins=["stop", "container:grey:3"], then=["grey"] * 15)
    assert hand_sizes(prog, st) == [10, 10, 10]                # added: no hand limit
    for p in range(3):
        assert names(prog, st, f"hand({p})") == sorted(hands[p] + ["grey"] * 5)
    assert first_player(prog, st) == 1
    assert st.turn == 2 and st.current == 1 and st.decider == 1   # the next auction starts at seat 1


def test_stop_deals_even_to_full_hands_no_hand_limit():
    prog, st = dealt(2, [["blue"] * 5] * 2, bins=["stop"] * 3 + ["container:blue:1"])
    assert hand_sizes(prog, st) == [20, 20]


def test_two_stops_in_a_row_give_10_cards_and_move_the_first_player_twice():
    prog, st = dealt(4, [["red"] * 5] * 4, bins=["stop", "stop", "container:red:3"])
    assert hand_sizes(prog, st) == [15] * 4
    assert first_player(prog, st) == 2
    assert st.turn == 3 and st.decider == 2


def test_used_stop_card_leaves_play():
    prog, st = dealt(2, [["red"] * 5] * 2, bins=["stop", "container:red:3", "stop"], seed=1)
    assert names(prog, st, "used_stops") == ["stop"]
    assert size(prog, st, "bins") == 28 and names(prog, st, "turned") == ["container:red:3"]
    first = cards(prog, st, "used_stops")
    finish_with_bots(prog, st, seed=1)
    assert names(prog, st, "used_stops") == ["stop"] * 5
    assert set(first) <= set(cards(prog, st, "used_stops"))


def test_stop_as_the_last_card_still_deals_and_moves_the_first_player():
    prog, st = dealt(2, [["blue"] * 5, ["blue"] * 5], bins=["container:blue:1", "stop"])
    clear_bins(prog, st, keep=1)                       # only the stop is left in the bins deck
    deciders(prog, st, ["pass", "pass"])
    assert st.over and st.turn == 2
    assert hand_sizes(prog, st) == [10, 10]
    assert first_player(prog, st) == 1
    assert names(prog, st, "turned") == [] and size(prog, st, "bins") == 0
    assert prog.result(st)["scores"] == [-10, -10]


def test_a_player_with_no_garbage_cannot_bid_until_a_stop_gives_new_cards():
    hands = [["blue"] * 5, ["red"] * 5]
    prog, st = dealt(2, hands, bins=["container:blue:1", "container:blue:2", "stop", "container:blue:3"],
                     then=["blue"] * 10)
    do(prog, st, "bid: 5*blue")                        # seat 0 empties its hand
    assert names(prog, st, "won(0)") == ["container:blue:1"]
    # blue:2: seat 0 has no cards, seat 1 no blue: nobody is asked, unclaimed
    assert names(prog, st, "unclaimed") == ["container:blue:2"]
    # the stop: 5 cards each, first player seat 1; blue:3 is bid for, seat 0 bids again
    assert names(prog, st, "hand(0)") == ["blue"] * 5
    assert names(prog, st, "hand(1)") == ["blue"] * 5 + ["red"] * 5
    assert turned(prog, st) == "container:blue:3" and first_player(prog, st) == 1
    assert deciders(prog, st, ["pass", "bid: 1*blue"]) == [1, 0]
    assert st.moves == 3


# ---------------------------------------------------------------- all hands empty

def _empty_both_hands(bins, **kw):
    """2 players, 5 blue each: seat 0 bids all 5 for the first card (seat 1 cannot beat 5); for
    the second card seat 0 has nothing, seat 1 bids all 5. Every hand is empty then."""
    prog, st = dealt(2, [["blue"] * 5, ["blue"] * 5], bins=bins, then=["green", "red"] * 5, **kw)
    return prog, st


def test_all_hands_empty_after_a_card_gives_5_cards_each_and_first_player_moves():
    prog, st = _empty_both_hands(["container:blue:1", "container:blue:2", "container:green:1"])
    do(prog, st, "bid: 5*blue")
    assert hand_sizes(prog, st) == [0, 5] and first_player(prog, st) == 0
    do(prog, st, "bid: 5*blue")
    assert names(prog, st, "won(1)") == ["container:blue:2"]
    # every hand was empty: 5 each, from seat 0 (green, red, green, ...), then the first player moves
    assert names(prog, st, "hand(0)") == ["green"] * 5
    assert names(prog, st, "hand(1)") == ["red"] * 5
    assert first_player(prog, st) == 1
    # green:1 is auctioned from seat 1, which holds no green: seat 0 decides
    assert turned(prog, st) == "container:green:1" and st.current == 1 and st.decider == 0


def test_all_hands_empty_after_the_last_card_no_deal_the_game_is_over():
    prog, st = _empty_both_hands(["container:blue:1", "container:blue:2"])
    clear_bins(prog, st, keep=1)
    garbage = size(prog, st, "garbage")
    do(prog, st, "bid: 5*blue")
    do(prog, st, "bid: 5*blue")
    assert st.over
    assert hand_sizes(prog, st) == [0, 0]
    assert size(prog, st, "garbage") == garbage
    assert first_player(prog, st) == 0
    assert prog.result(st)["scores"] == [1, 2]


def test_one_hand_not_empty_no_deal():
    prog, st = dealt(2, [["blue"] * 5, ["blue"] * 4 + ["red"]],
                     bins=["container:blue:1", "container:blue:2", "container:red:1"])
    do(prog, st, "bid: 5*blue")
    do(prog, st, "bid: 4*blue")
    assert hand_sizes(prog, st) == [0, 1] and first_player(prog, st) == 0
    assert turned(prog, st) == "container:red:1" and st.decider == 1


# ---------------------------------------------------------------- the garbage deck runs out

def test_empty_garbage_deck_recycled_pile_shuffled_into_a_new_deck():
    hands = [["blue"] * 5, ["red"] * 5]
    prog, st = dealt(2, hands, bins=["container:blue:3", "stop", "container:yellow:1"],
                     then=["grey", "grey", "grey"])
    move_all(prog, st, "garbage", "recycled", keep=3)      # the deck holds its 3 top cards
    assert size(prog, st, "recycled") == 167
    recycled = collections.Counter(names(prog, st, "recycled")) + collections.Counter(["blue", "blue"])
    shuffled_top = ["blue", "blue", "yellow", "yellow", "green", "green", "yellow"]
    next_shuffle(prog, st, top=shuffled_top, extra=["blue", "blue"])
    do(prog, st, "bid: 2*blue")                            # seat 0 wins; its 2 blue are recycled
    assert names(prog, st, "won(0)") == ["container:blue:3"]
    # the stop deals 10 from seat 0: grey grey grey from the deck, then 7 from the new deck
    dealt_cards = ["grey"] * 3 + shuffled_top
    assert names(prog, st, "hand(0)") == sorted(["blue"] * 3 + dealt_cards[0::2])
    assert names(prog, st, "hand(1)") == sorted(["red"] * 5 + dealt_cards[1::2])
    assert size(prog, st, "recycled") == 0
    assert collections.Counter(names(prog, st, "garbage")) == recycled - collections.Counter(shuffled_top)
    assert st.script == []                                 # the scripted shuffle was used
    assert first_player(prog, st) == 1


@pytest.mark.parametrize("stops_before, first, got", [
    (0, 0, [2, 1, 1]),          # 4 cards from seat 0: seats 0, 1, 2, 0
    (1, 1, [1, 2, 1]),          # from seat 1: seats 1, 2, 0, 1
])
def test_garbage_and_recycled_both_empty_deal_stops_where_it_is(stops_before, first, got):
    bins = ["stop"] * stops_before + ["container:blue:1", "stop", "container:blue:2"]
    prog, st = dealt(3, [["blue"] * 5] * 3, bins=bins)
    assert first_player(prog, st) == first
    before = hand_sizes(prog, st)
    # surgery: the garbage deck keeps 4 cards, the rest is out of play (face up in front of seat 0)
    move_all(prog, st, "garbage", "unrecycled(0)", keep=4)
    assert size(prog, st, "recycled") == 0
    deciders(prog, st, ["pass"] * 3)                  # nobody bids: nothing is recycled
    assert [h - b for h, b in zip(hand_sizes(prog, st), before)] == got
    assert size(prog, st, "garbage") == 0 and size(prog, st, "recycled") == 0
    assert first_player(prog, st) == (first + 1) % 3
    assert turned(prog, st) == "container:blue:2" and not st.over


# ---------------------------------------------------------------- End

def test_game_ends_after_the_last_bins_card_is_resolved_and_its_auction_still_happens():
    prog, st = dealt(2, [["blue"] * 2 + ["red"] * 3, ["blue"] * 3 + ["red"] * 2],
                     bins=["container:blue:1", "container:red:5"])
    clear_bins(prog, st, keep=1)                       # red:5 is the last card
    deciders(prog, st, ["pass", "pass"])
    assert not st.over and st.turn == 2 and size(prog, st, "bins") == 0
    assert turned(prog, st) == "container:red:5" and st.decider == 0    # the last card's auction
    deciders(prog, st, ["bid: 1*red", "bid: 2*red", "bid: 2*red"])
    # seat 1 (bid 2, no red left) cannot beat 3: seat 0 wins red:5 and the game is over
    assert st.over
    assert names(prog, st, "won(0)") == ["container:red:5"]
    assert names(prog, st, "recycled") == ["red"] * 3
    assert names(prog, st, "unrecycled(1)") == ["red", "red"]
    assert prog.legal_moves(st) == []
    # 5 - 2 blue in hand = 3; seat 1: 0 - 3 blue in hand - 2 unrecycled = -5
    assert prog.result(st)["scores"] == [3, -5]
    assert prog.result(st)["winners"] == [0]


def test_a_game_turns_over_every_bins_card_once():
    prog = program(3)
    st = prog.new_state(5)
    finish_with_bots(prog, st, seed=5)
    assert st.turn == 30
    assert size(prog, st, "bins") == 0 and size(prog, st, "turned") == 0
    assert size(prog, st, "unclaimed") + sum(size(prog, st, f"won({p})") for p in range(3)) == 25
    assert size(prog, st, "used_stops") == 5


def test_nobody_plays_after_the_end():
    prog, st = dealt(2, [["blue"] * 5] * 2, bins=["container:blue:1", "container:blue:2"])
    clear_bins(prog, st, keep=1)
    deciders(prog, st, ["pass", "pass", "bid: 1*blue", "pass"])
    assert st.over and prog.legal_moves(st) == []
    for text in ("pass", "bid: 1*blue", "bid: 2*blue"):
        refused(prog, st, text)
    refused(prog, st, (0, ((prog.type_index["blue"], 2),)))
    assert names(prog, st, "won(0)") == ["container:blue:2"]


# ---------------------------------------------------------------- Scoring

def test_score_is_container_values_minus_garbage_in_hand_and_in_front():
    prog, st = dealt(3, [["blue"] * 5, ["red"] * 5, ["grey"] * 5], bins=["container:blue:1"])
    move(prog, st, ["container:blue:5", "container:red:1", "container:grey:3"], "won(0)")   # 9
    move(prog, st, ["yellow", "yellow"], "unrecycled(0)")                                    # -2
    move(prog, st, ["container:yellow:2"], "won(1)")                                         # 2
    set_zone(prog, st, "hand(1)", ["red"] * 7)                                               # -7
    set_zone(prog, st, "hand(2)", [])
    move(prog, st, ["green"] * 3, "unrecycled(2)")                                           # -3
    assert [prog.score(st, p) for p in range(3)] == [9 - 5 - 2, 2 - 7, -3]
    assert sheet_scores(prog, st) == [2, -5, -3]
    res = prog.result(st)
    assert res["scores"] == [2, -5, -3] and res["winners"] == [0]


def test_the_highest_score_wins():
    prog, st = dealt(4, [["blue"] * 5] * 4, bins=["container:blue:1"])
    move(prog, st, ["container:red:5", "container:red:3"], "won(2)")      # 8 - 5 = 3
    move(prog, st, ["container:grey:5"], "won(3)")                        # 5 - 5 = 0
    res = prog.result(st)
    assert res["scores"] == [-5, -5, 3, 0] and res["winners"] == [2]


def test_ties_are_shared():
    prog, st = dealt(3, [["blue"] * 5] * 3, bins=["container:blue:1"])
    move(prog, st, ["container:green:3"], "won(0)")                       # 3 - 5 = -2
    move(prog, st, ["container:green:5"], "won(2)")
    move(prog, st, ["yellow", "yellow"], "unrecycled(2)")                 # 5 - 5 - 2 = -2
    res = prog.result(st)
    assert res["scores"] == [-2, -5, -2] and res["winners"] == [0, 2]
    prog, st = dealt(2, [["blue"] * 5] * 2, bins=["container:blue:1"])
    assert prog.result(st)["winners"] == [0, 1]                           # -5 each


# ---------------------------------------------------------------- What each player sees

def _views_scenario():
    """3 players. blue:3: seat 0 bids 1, seat 1 bids 2, seat 0 raises to 3; seat 1 (nothing left)
    and seat 2 (no blue) cannot raise: seat 0 wins. yellow:1: only seat 2 holds yellow, passes:
    unclaimed. Stop: 5 red each, first player seat 1. red:2: seat 1 to decide."""
    hands = [["blue"] * 3 + ["red"] * 2, ["blue"] * 2 + ["green"] * 3, ["yellow"] * 5]
    prog, st = dealt(3, hands, bins=["container:blue:3", "container:yellow:1", "stop", "container:red:2"],
                     then=["red"] * 15, log=True)
    deciders(prog, st, ["bid: 1*blue", "bid: 2*blue", "bid: 2*blue", "pass"])
    return prog, st


def test_hidden_every_players_hand_but_its_size_is_public():
    prog, st = _views_scenario()
    assert hand_sizes(prog, st) == [7, 8, 10]
    for seat in range(3):
        view = view_of(prog, st.log, seat)
        for p in range(3):
            hand = f"hand({p})"
            assert view.size(hand) == size(prog, st, hand)
            if p == seat:
                assert [prog.type_names[t] for t in view.cards(hand)] == [type_name(prog, c) for c in
                                                                          st.zones[zone_index(prog, hand)]]
            else:
                assert not view.sees(hand)
                assert view.cards(hand) == [None] * size(prog, st, hand)
                assert view.known_cards(hand) == {}


def test_hidden_the_bins_and_garbage_decks():
    prog, st = _views_scenario()
    for seat in range(3):
        view = view_of(prog, st.log, seat)
        for deck in ("bins", "garbage"):
            assert not view.sees(deck)
            assert view.size(deck) == size(prog, st, deck)
            assert view.known_positions(deck) == {}          # not even the top card
        assert view.size("bins") == 26


def test_public_turned_card_bids_cards_in_front_of_players_piles_and_first_player():
    prog, st = _views_scenario()
    do(prog, st, "bid: 2*red")                                # seat 1 bids for red:2
    public = (["turned", "recycled", "unclaimed", "used_stops"]
              + [f"{z}({p})" for z in ("bids", "won", "unrecycled") for p in range(3)])
    for seat in range(3):
        view = view_of(prog, st.log, seat)
        for z in public:
            assert view.sees(z)
            assert [prog.type_names[t] for t in view.cards(z)] == [type_name(prog, c) for c in
                                                                   st.zones[zone_index(prog, z)]], z
        assert [prog.type_names[t] for t in view.cards("turned")] == ["container:red:2"]
        assert [prog.type_names[t] for t in view.cards("bids(1)")] == ["red", "red"]
        assert [prog.type_names[t] for t in view.cards("won(0)")] == ["container:blue:3"]
        assert [prog.type_names[t] for t in view.cards("unrecycled(1)")] == ["blue", "blue"]
        assert [prog.type_names[t] for t in view.cards("unclaimed")] == ["container:yellow:1"]
        assert view.var("first_player") == 1 == first_player(prog, st)
        assert view.current == 1


def test_public_every_bid_and_pass():
    prog, st = dealt(3, [["grey"] * 5] * 3, bins=["container:grey:2", "container:red:1"], log=True)
    do(prog, st, "pass")
    for seat in range(3):
        view = view_of(prog, st.log, seat)
        assert view.var("passes") == 1 and view.var("leader") == -1
    do(prog, st, "bid: 2*grey")
    for seat in range(3):
        view = view_of(prog, st.log, seat)
        assert view.var("passes") == 0 and view.var("leader") == 1 and view.var("high") == 2
        assert [prog.type_names[t] for t in view.cards("bids(1)")] == ["grey", "grey"]
