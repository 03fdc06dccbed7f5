"""Crazy Eights (rulesets/examples/crazy_eights.yaml): a conformance test over many seeded games
and one scenario per rule sentence of docs/games.md ("Crazy Eights")."""
import pytest

from example_helpers import (
    game, names, size, var, stacked, deal_top, deck_counter, seeded_games, to_bottom, move_texts,
    do, check_loc, scripted, told,
)

PENALTY = {"A": 1, "J": 10, "Q": 10, "K": 10, "8": 50}


def penalty(name: str) -> int:
    rank = name.split("-")[0]
    return PENALTY.get(rank) or int(rank)


def rank(name):
    return name.split("-")[0]


def suit(name):
    return name.split("-")[1]


def prog_for(players, **overrides):
    return game("crazy_eights", tuple(sorted(overrides.items()))).program(players)


def dealt(players, hands, starter, then=(), **overrides):
    """A game whose stock deals `hands` (seat 0 first), turns up `starter`, then yields `then`."""
    prog = prog_for(players, **overrides)
    top = deal_top(hands) + [starter] + list(then)
    st = scripted(prog, [stacked(prog, "stock", top, deck_counter(prog))])
    return prog, st


def text_is_play(prog, st):
    return prog.move_text(st, prog.legal_moves(st)[0]).startswith("play:")


def playable(name, top, to_match):
    return rank(name) == "8" or suit(name) == to_match or rank(name) == rank(top)


# ---------------------------------------------------------------- conformance

@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("reverse", ["none", "Q"])
def test_invariants_after_every_move_over_many_seeded_games(players, reverse):
    prog = prog_for(players, reverse_rank=reverse)
    deck = sum(deck_counter(prog).values())
    for seed, st, bots in seeded_games(prog, range(25)):
        assert deck == 52
        kept = {p: names(prog, st, f"hand({p})") for p in range(1, players)}   # after the deal
        dealt_size = 7 if players == 2 else 5
        assert sorted({size(prog, st, f"hand({p})") for p in range(players) if p != 0}) == [dealt_size]
        while not st.over:
            check_loc(st)
            assert sum(len(z) for z in st.zones) == 52
            seat = st.decider
            top, to_match = names(prog, st, "pile")[-1], var(prog, st, "suit_to_match")
            hand = names(prog, st, f"hand({seat})")
            if seat in kept and text_is_play(prog, st) and size(prog, st, "stock") > 0:
                # drawn this turn: the cards on top of what the seat kept; it drew only while it
                # could not play, and stopped at the first card it could play (while the stock
                # lasts, no turn of the seat passed without a decision)
                before, drawn = kept[seat], hand[len(kept[seat]):]
                assert hand[:len(before)] == before
                if drawn:
                    assert not any(playable(n, top, to_match) for n in before + drawn[:-1])
                    assert playable(drawn[-1], top, to_match)
            move = bots[seat].choose(prog, st, prog.legal_moves(st))
            text = prog.move_text(st, move)
            before_stock = size(prog, st, "stock")
            prog.apply(st, move)
            if text.startswith("play:"):
                card = text.split("*")[1]
                # a played card matched the top card's rank or the suit to match, or was an eight
                assert playable(card, top, to_match), (seed, card, top, to_match)
                assert names(prog, st, "pile")[-1] == card
                assert card not in hand or hand.count(card) > names(prog, st, f"hand({seat})").count(card)
            else:
                assert text.split(": ")[1] in ("clubs", "diamonds", "hearts", "spades")
                assert var(prog, st, "suit_to_match") == text.split(": ")[1]
            assert size(prog, st, "stock") <= before_stock
            kept[seat] = names(prog, st, f"hand({seat})")
        res = prog.result(st)
        hands = [names(prog, st, f"hand({p})") for p in range(players)]
        # the scores are the penalty values left in hand, and the lowest wins
        assert res["scores"] == [sum(penalty(n) for n in h) for h in hands]
        assert all(res["scores"][w] == min(res["scores"]) for w in res["winners"])
        # the game ended because somebody went out, or because nobody could play any more
        out = [p for p in range(players) if not hands[p]]
        if not out:
            top, to_match = names(prog, st, "pile")[-1], var(prog, st, "suit_to_match")
            assert size(prog, st, "stock") == 0
            assert not any(playable(n, top, to_match) for h in hands for n in h)


# ---------------------------------------------------------------- the deal

HANDS2 = [["2-clubs", "3-clubs", "4-clubs", "5-clubs", "6-clubs", "7-clubs", "10-hearts"],
          ["2-spades", "3-spades", "4-spades", "5-spades", "6-spades", "7-spades", "9-spades"]]


@pytest.mark.parametrize("players,dealt_size", [(2, 7), (3, 5), (4, 5), (5, 5)])
def test_two_players_are_dealt_seven_cards_three_or_more_five(players, dealt_size):
    prog = prog_for(players)
    st = prog.new_state(1)
    sizes = [size(prog, st, f"hand({p})") for p in range(players)]
    # seat 0 may have drawn already (it could not play): the others hold what they were dealt
    assert sizes[1:] == [dealt_size] * (players - 1) and sizes[0] >= dealt_size
    assert size(prog, st, "pile") == 1


def test_the_top_card_of_the_stock_is_turned_up_to_start_the_discard_pile():
    prog, st = dealt(2, HANDS2, "K-hearts")
    assert names(prog, st, "pile") == ["K-hearts"]
    assert var(prog, st, "suit_to_match") == "hearts"
    assert size(prog, st, "stock") == 52 - 14 - 1


def test_an_eight_turned_up_is_buried_in_the_stock_and_the_next_card_turned():
    prog, st = dealt(2, HANDS2, "8-diamonds", then=["K-hearts"])
    assert names(prog, st, "pile") == ["K-hearts"]
    assert names(prog, st, "stock")[0] == "8-diamonds"      # buried at the bottom
    assert var(prog, st, "suit_to_match") == "hearts"


# ---------------------------------------------------------------- playing

def test_a_card_may_be_played_if_it_matches_the_top_card_in_suit_or_in_rank():
    hands = [["2-clubs", "K-spades", "4-hearts", "5-clubs", "6-diamonds", "7-clubs", "9-clubs"],
             HANDS2[1]]
    prog, st = dealt(2, hands, "K-hearts")
    assert move_texts(prog, st) == ["play: 1*4-hearts", "play: 1*K-spades"]


def test_an_eight_may_be_played_at_any_time():
    hands = [["2-clubs", "8-spades", "3-clubs", "5-clubs", "6-diamonds", "7-clubs", "4-hearts"],
             HANDS2[1]]
    prog, st = dealt(2, hands, "K-hearts")
    assert move_texts(prog, st) == ["play: 1*4-hearts", "play: 1*8-spades"]


def test_whoever_plays_an_eight_names_a_suit_which_the_next_card_must_follow():
    hands = [["8-clubs"] + HANDS2[0][1:], ["2-hearts", "3-hearts", "2-clubs", "5-spades",
                                           "6-diamonds", "7-diamonds", "9-diamonds"]]
    prog, st = dealt(2, hands, "K-clubs")
    do(prog, st, "play: 1*8-clubs")
    assert move_texts(prog, st) == ["named: " + s for s in ("clubs", "diamonds", "hearts", "spades")]
    do(prog, st, "named: hearts")
    assert var(prog, st, "suit_to_match") == "hearts"
    assert st.decider == 1
    # clubs (the eight's own suit) no longer match: only hearts do
    assert move_texts(prog, st) == ["play: 1*2-hearts", "play: 1*3-hearts"]


def test_a_player_who_cannot_play_draws_one_card_at_a_time_until_they_can():
    prog, st = dealt(2, HANDS2, "K-diamonds", then=["J-hearts", "5-hearts", "9-diamonds", "Q-spades"])
    # seat 0 held no diamond, no king and no eight: it drew J-hearts, 5-hearts, then 9-diamonds
    assert size(prog, st, "hand(0)") == 10
    assert names(prog, st, "stock")[-1] == "Q-spades"
    assert move_texts(prog, st) == ["play: 1*9-diamonds"]
    # everyone sees the draws: before each, seat 0 held no diamond, no king and no eight
    lines = [t for t in told(prog, st, 1) if t.startswith("hand(0) holds none of:")]
    assert len(lines) == 3
    assert all("K-clubs" in t and "8-spades" in t and "2-diamonds" in t for t in lines)


def test_a_player_who_can_play_does_not_draw():
    prog, st = dealt(2, HANDS2, "K-hearts")
    assert size(prog, st, "hand(0)") == 7
    assert move_texts(prog, st) == ["play: 1*10-hearts"]


def test_play_passes_to_the_left():
    prog, st = dealt(3, [h[:5] for h in HANDS2] + [["2-hearts", "3-hearts", "4-hearts", "5-hearts",
                                                     "6-hearts"]], "K-clubs")
    do(prog, st, "play: 1*2-clubs")
    assert st.decider == 1


def test_when_the_stock_is_exhausted_a_player_who_cannot_play_passes():
    prog, st = dealt(2, HANDS2, "K-hearts")
    to_bottom(prog, st, names(prog, st, "stock")[::-1], "stock", "pile")   # the stock runs out
    do(prog, st, "play: 1*10-hearts")
    # seat 1 holds no heart, ten or eight, and there is nothing to draw: it passes
    assert size(prog, st, "hand(1)") == 7
    assert var(prog, st, "passes") >= 1


def test_the_game_ends_when_a_player_gets_rid_of_their_last_card():
    hands = [HANDS2[0], ["8-spades", "K-spades", "Q-diamonds", "J-clubs", "A-hearts", "10-spades",
                         "2-diamonds"]]
    prog, st = dealt(2, hands, "K-hearts")
    to_bottom(prog, st, HANDS2[0][:6], "hand(0)", "stock")              # seat 0 keeps one card
    do(prog, st, "play: 1*10-hearts")
    assert st.over
    res = prog.result(st)
    # Each player is charged the penalty values of the cards left in hand: 50 + 10 + 10 + 10 + 1
    # + 10 + 2 for seat 1; the player who went out has none and wins.
    assert res["scores"] == [0, 93]
    assert res["winners"] == [0]


def test_the_game_ends_when_the_stock_is_exhausted_and_nobody_can_play_lowest_total_wins():
    prog, st = dealt(2, HANDS2, "K-hearts")
    to_bottom(prog, st, names(prog, st, "stock")[::-1], "stock", "pile")
    do(prog, st, "play: 1*10-hearts")
    # seat 1 cannot play, then seat 0 (clubs only) cannot either: the game is blocked
    assert st.over
    res = prog.result(st)
    assert res["scores"] == [2 + 3 + 4 + 5 + 6 + 7, 2 + 3 + 4 + 5 + 6 + 7 + 9]
    assert res["winners"] == [0]


# ---------------------------------------------------------------- the house variant

def test_house_variant_a_card_of_the_reversing_rank_reverses_the_direction_of_play():
    hands = [["Q-clubs", "2-clubs", "3-clubs", "4-clubs", "5-clubs"],
             ["2-spades", "3-spades", "4-spades", "5-spades", "6-spades"],
             ["2-hearts", "3-clubs", "4-hearts", "5-hearts", "6-hearts"]]
    hands[2][1] = "9-clubs"
    prog, st = dealt(3, hands, "K-clubs", reverse_rank="Q")
    do(prog, st, "play: 1*Q-clubs")
    assert st.decider == 2                        # the player to the right is next
    do(prog, st, "play: 1*9-clubs")
    assert st.decider == 1                        # and play goes on to the right


def test_the_standard_game_has_no_reversal():
    hands = [["Q-clubs", "2-clubs", "3-clubs", "4-clubs", "5-clubs"],
             ["2-spades", "3-spades", "4-spades", "5-spades", "6-spades"],
             ["2-hearts", "9-clubs", "4-hearts", "5-hearts", "6-hearts"]]
    prog, st = dealt(3, hands, "K-clubs")
    do(prog, st, "play: 1*Q-clubs")
    # seat 1 cannot play: it draws until it can, still to the left of seat 0
    assert st.decider == 1
