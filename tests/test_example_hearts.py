"""Hearts (rulesets/examples/hearts.yaml): a conformance test over many seeded games and one
scenario per rule sentence of docs/games.md ("Hearts")."""
import collections

import pytest

from example_helpers import (
    game, names, size, var, set_var, stacked, deal_top, deck_counter, seeded_games, move_texts,
    arrange, card_move, do, check_loc, scripted, told,
)

SUITS = ("clubs", "diamonds", "hearts", "spades")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def suit(n):
    return n.split("-")[1]


def value(n):
    return RANKS.index(n.split("-")[0]) + 2


def points(n):
    return 1 if suit(n) == "hearts" else 13 if n == "Q-spades" else 0


def prog_for(**overrides):
    return game("hearts", tuple(sorted(overrides.items()))).program(4)


def hold(prog, st, p):
    return names(prog, st, f"hand({p})")


# ---------------------------------------------------------------- conformance

def test_invariants_after_every_move_over_many_seeded_games():
    prog = prog_for()
    for seed, st, bots in seeded_games(prog, range(12)):
        deal_totals = [0] * 4
        while not st.over:
            check_loc(st)
            assert sum(len(z) for z in st.zones) == 52
            # every seat has as many cards in hand, set aside and in the trick as every other
            held = {size(prog, st, f"hand({p})") + size(prog, st, f"passing({p})")
                    + size(prog, st, f"played({p})") for p in range(4)}
            assert len(held) == 1 or size(prog, st, "stock") == 52
            seat = st.decider
            hand = hold(prog, st, seat)
            trick = [names(prog, st, f"played({p})") for p in range(4)]
            led, broken = var(prog, st, "led_suit"), var(prog, st, "broken")
            first = var(prog, st, "first_trick")
            move = bots[seat].choose(prog, st, prog.legal_moves(st))
            text = prog.move_text(st, move)
            prog.apply(st, move)
            if text.startswith("play:"):
                card = text.split("*")[1]
                leading = not any(trick)
                if leading and first:
                    assert card == "2-clubs"
                elif leading:
                    assert suit(card) != "hearts" or broken or all(suit(n) == "hearts" for n in hand)
                else:
                    # a played card followed suit when it could
                    assert suit(card) == led or not any(suit(n) == led for n in hand)
                    if first and points(card):
                        assert all(points(n) for n in hand), (seed, card, hand)
            totals = [var(prog, st, "total", p) for p in range(4)]
            if totals != deal_totals:
                added = [t - d for t, d in zip(totals, deal_totals)]
                # a deal adds 26 points in all, or 26 to each of three players (shooting the moon)
                assert sorted(added) in ([0, 26, 26, 26],) or sum(added) == 26, added
                deal_totals = totals
        res = prog.result(st)
        assert res["scores"] == deal_totals
        assert max(deal_totals) >= 100
        assert res["winners"] == [p for p in range(4) if deal_totals[p] == min(deal_totals)]


def test_passes_go_left_then_right_then_across_then_none_in_rotation():
    prog = prog_for()
    for seed, st, bots in seeded_games(prog, range(2)):
        passed = {}
        seen_deals = []
        while not st.over and var(prog, st, "deals") <= 5:
            seat = st.decider
            move = bots[seat].choose(prog, st, prog.legal_moves(st))
            text = prog.move_text(st, move)
            if text.startswith("three:"):
                passed[seat] = [part.split("*")[1] for part in text[len("three: "):].split(" + ")]
                before = [collections.Counter(hold(prog, st, p)) for p in range(4)]
            deal = var(prog, st, "deals")
            prog.apply(st, move)
            if text.startswith("three:") and len(passed) == 4:
                direction = (deal - 1) % 4
                to = {0: lambda p: (p + 1) % 4, 1: lambda p: (p - 1) % 4, 2: lambda p: (p + 2) % 4}
                for p in range(4):
                    got = collections.Counter(hold(prog, st, to[direction](p)))
                    assert all(got[n] for n in passed[p]), (deal, p)
                seen_deals.append(direction)
                passed = {}
        # deals 1, 2, 3 pass (left, right, across); deal 4 has no pass; deal 5 passes left again
        assert seen_deals[:4] == [0, 1, 2, 0]


# ---------------------------------------------------------------- a fixed deal

SUITED = [[f"{r}-{s}" for r in RANKS] for s in SUITS]    # seat 0 clubs, 1 diamonds, 2 hearts, 3 spades


def dealt(hands=SUITED, **overrides):
    prog = prog_for(**overrides)
    st = scripted(prog, [stacked(prog, "stock", deal_top(hands), deck_counter(prog))])
    return prog, st


def passed_left(prog, st):
    """Everyone passes their three lowest cards (the first deal passes to the left)."""
    for p in range(4):
        assert st.decider == p
        do(prog, st, card_move(prog, "three", SUITED[p][:3]))


def test_the_whole_pack_is_dealt_thirteen_cards_each():
    prog, st = dealt()
    assert [size(prog, st, f"hand({p})") for p in range(4)] == [13] * 4
    assert size(prog, st, "stock") == 0


def test_each_player_passes_three_cards_at_the_same_time_to_the_left_in_the_first_deal():
    prog, st = dealt()
    assert len(move_texts(prog, st)) == 286            # any 3 of 13 cards
    do(prog, st, card_move(prog, "three", SUITED[0][:3]))
    # nothing lands in a hand before everyone has passed
    assert size(prog, st, "hand(1)") == 13 and size(prog, st, "passing(0)") == 3
    for p in (1, 2, 3):
        do(prog, st, card_move(prog, "three", SUITED[p][:3]))
    for p in range(4):
        assert sorted(SUITED[p][:3]) == sorted(n for n in hold(prog, st, (p + 1) % 4) if suit(n) == SUITS[p])
        assert size(prog, st, f"hand({p})") == 13


def test_the_player_holding_the_two_of_clubs_leads_it_to_the_first_trick():
    prog, st = dealt()
    passed_left(prog, st)
    assert st.decider == 1                             # seat 0 passed the two of clubs to seat 1
    assert move_texts(prog, st) == ["play: 1*2-clubs"]


def test_a_player_must_follow_suit_if_able():
    prog, st = dealt()
    passed_left(prog, st)
    do(prog, st, "play: 1*2-clubs")
    do(prog, st, "play: 1*2-diamonds")
    do(prog, st, "play: 1*5-spades")
    assert st.decider == 0
    assert all(suit(t.split("*")[1]) == "clubs" for t in move_texts(prog, st))


def test_everyone_learns_that_a_player_who_does_not_follow_suit_holds_none_of_it():
    prog, st = dealt()
    passed_left(prog, st)
    do(prog, st, "play: 1*2-clubs")
    do(prog, st, "play: 1*2-diamonds")
    clubs = ", ".join(f"{r}-clubs" for r in RANKS)
    assert f"hand(2) holds none of: {clubs}" in told(prog, st, 0)


def test_no_heart_or_queen_of_spades_may_be_played_on_the_first_trick():
    prog, st = dealt()
    passed_left(prog, st)
    do(prog, st, "play: 1*2-clubs")
    # seat 2 holds no club: diamonds only, none of its hearts
    assert move_texts(prog, st) == ["play: 1*2-diamonds", "play: 1*3-diamonds", "play: 1*4-diamonds"]
    do(prog, st, "play: 1*2-diamonds")
    # seat 3 holds no club: any spade but the queen, none of the hearts it was passed
    legal = move_texts(prog, st)
    assert "play: 1*Q-spades" not in legal and not any("hearts" in t for t in legal)
    assert len(legal) == 9                             # 5 to ace, but not the queen


def test_on_the_first_trick_a_player_holding_only_points_may_play_one():
    prog, st = dealt()
    passed_left(prog, st)
    do(prog, st, "play: 1*2-clubs")
    arrange(prog, st, {"hand(2)": ["5-hearts", "6-hearts", "Q-spades"]}, "stock")
    assert move_texts(prog, st) == ["play: 1*5-hearts", "play: 1*6-hearts", "play: 1*Q-spades"]


def first_trick(prog, st):
    passed_left(prog, st)
    for t in ("2-clubs", "2-diamonds", "5-spades", "A-clubs"):
        do(prog, st, f"play: 1*{t}")


def test_the_highest_card_of_the_suit_led_wins_the_trick_and_its_player_leads_next():
    prog, st = dealt()
    first_trick(prog, st)
    # the ace of clubs was the highest club (the five of spades was higher, but off suit)
    assert sorted(names(prog, st, "taken(0)")) == sorted(["2-clubs", "2-diamonds", "5-spades", "A-clubs"])
    assert st.decider == 0 and var(prog, st, "leader") == 0


def test_a_player_who_cannot_follow_may_play_any_card_after_the_first_trick():
    prog, st = dealt()
    first_trick(prog, st)
    do(prog, st, "play: 1*2-spades")
    # seat 1 holds no spade: any of its cards
    assert len(move_texts(prog, st)) == 12
    do(prog, st, "play: 1*3-clubs")
    # seat 2 holds no spade: it may play a heart now
    assert "play: 1*5-hearts" in move_texts(prog, st)


def test_hearts_may_not_be_led_until_a_heart_has_been_played():
    prog, st = dealt()
    first_trick(prog, st)
    arrange(prog, st, {"hand(0)": ["3-spades", "5-hearts"]}, "stock")
    assert move_texts(prog, st) == ["play: 1*3-spades"]
    set_var(prog, st, "broken", True)
    assert move_texts(prog, st) == ["play: 1*3-spades", "play: 1*5-hearts"]


def test_a_leader_holding_only_hearts_may_lead_one():
    prog, st = dealt()
    first_trick(prog, st)
    arrange(prog, st, {"hand(0)": ["5-hearts", "6-hearts"]}, "stock")
    assert move_texts(prog, st) == ["play: 1*5-hearts", "play: 1*6-hearts"]


def last_trick(prog, st, taken: dict, totals=(0, 0, 0, 0)):
    """Surgery before the first trick (seat 1 leads): one club left in each hand, `taken` piles as
    given; the trick is played out, and seat 0's five of clubs wins it: no points in it."""
    layout = {f"hand({p})": [f"{(p - 1) % 4 + 2}-clubs"] for p in range(4)}
    layout.update({f"taken({p})": cards for p, cards in taken.items()})
    arrange(prog, st, layout, "stock")
    for p, t in enumerate(totals):
        set_var(prog, st, "total", t, p)
    for p in (1, 2, 3, 0):
        do(prog, st, f"play: 1*{(p - 1) % 4 + 2}-clubs")


HEARTS = [f"{r}-hearts" for r in RANKS]


def after_passing():
    prog, st = dealt()
    passed_left(prog, st)
    return prog, st


def test_each_heart_counts_one_point_and_the_queen_of_spades_thirteen():
    prog, st = after_passing()
    last_trick(prog, st, {0: HEARTS[:3], 1: ["Q-spades"] + HEARTS[3:5], 2: HEARTS[5:]})
    assert [var(prog, st, "total", p) for p in range(4)] == [3, 15, 8, 0]
    assert not st.over
    assert var(prog, st, "deals") == 2                 # the next deal has begun


def test_shooting_the_moon_scores_nothing_and_every_other_player_26():
    prog, st = after_passing()
    last_trick(prog, st, {2: HEARTS + ["Q-spades"]}, totals=(10, 20, 30, 40))
    assert [var(prog, st, "total", p) for p in range(4)] == [36, 46, 30, 66]


def test_the_game_ends_when_a_player_reaches_100_and_the_lowest_total_wins():
    prog, st = after_passing()
    last_trick(prog, st, {1: HEARTS[:5], 3: HEARTS[5:] + ["Q-spades"]}, totals=(50, 95, 40, 60))
    assert st.over
    res = prog.result(st)
    assert res["scores"] == [50, 100, 40, 81]
    assert res["winners"] == [2]


def test_the_end_score_is_a_parameter():
    prog = prog_for(end_score=200)
    st = scripted(prog, [stacked(prog, "stock", deal_top(SUITED), deck_counter(prog))])
    passed_left(prog, st)
    last_trick(prog, st, {1: HEARTS[:5], 3: HEARTS[5:] + ["Q-spades"]}, totals=(50, 95, 40, 60))
    assert not st.over
