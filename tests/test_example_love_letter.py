"""Love Letter (rulesets/examples/love_letter.yaml): a conformance test over many seeded games
and one scenario per rule sentence of docs/games.md ("Love Letter")."""
import collections

import pytest

from interpreter.runtime.engine import DECIDE
from interpreter.runtime.events import describe, for_seat
from interpreter.seats.views import view_of
from example_helpers import (
    game, names, size, var, set_var, stacked, deck_counter, seeded_games, move_texts, do, check_loc,
)

VALUE = {"guard": 1, "priest": 2, "baron": 3, "handmaid": 4, "prince": 5, "king": 6,
         "countess": 7, "princess": 8}
GOAL = {2: 7, 3: 5, 4: 4}


def prog_for(players):
    return game("love_letter").program(players)


def dealt(players, hands, draws=(), aside="guard", shown=()):
    """A round dealt from a stacked deck: the card set aside, the cards shown (two players), one
    card per seat from seat 0, then the draws in order."""
    prog = prog_for(players)
    top = [aside] + list(shown) + list(hands) + list(draws)
    st = prog.new_state(0, log=True, script=[stacked(prog, "deck", top, deck_counter(prog))])
    if not st.script:
        st.script = None
    return prog, st


def hand(prog, st, p):
    return names(prog, st, f"hand({p})")


def out(prog, st, p):
    """Seat p is out of the round: its hand was discarded and it gets no more turns."""
    return size(prog, st, f"hand({p})") == 0


# ---------------------------------------------------------------- conformance

@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_after_every_move_over_many_seeded_games(players):
    prog = prog_for(players)
    for seed, st, bots in seeded_games(prog, range(20)):
        while not st.over:
            check_loc(st)
            assert sum(len(z) for z in st.zones) == 16
            seat, current = st.decider, st.current
            held = hand(prog, st, current)
            move = bots[seat].choose(prog, st, prog.legal_moves(st))
            text = prog.move_text(st, move)
            if text.startswith("play:"):
                # the current player holds two cards when they play, the others in the round one
                assert len(held) == 2
                for p in range(players):
                    if p != current and not out(prog, st, p):
                        assert size(prog, st, f"hand({p})") == 1
                card = text.split("*")[1]
                # the Countess is played when the other card is the King or a Prince
                if "countess" in held and ({"king", "prince"} & set(held)):
                    assert card == "countess"
            elif text.split(":")[0] in ("guard", "look_at", "compare_with", "trade_with"):
                # a card targets another player still in the round and not protected
                parts = dict(w.split("=") for w in text.split(": ")[1].split()) \
                    if text.startswith("guard") else {"named": text.split(": ")[1]}
                target = int(parts["named"])
                assert target != current and not out(prog, st, target)
                assert not var(prog, st, "protected", target)
                if "guess" in parts:                     # a value from 2 to 8, never the Guard
                    assert 2 <= int(parts["guess"]) <= 8
            prog.apply(st, move)
        tokens = [var(prog, st, "tokens", p) for p in range(players)]
        assert max(tokens) == GOAL[players]
        # every round gave at least one token (ties at the end of the deck give more)
        assert sum(tokens) >= var(prog, st, "rounds")
        assert prog.result(st)["winners"] == [p for p in range(players) if tokens[p] == GOAL[players]]


# ---------------------------------------------------------------- setup

def test_the_deck_has_16_cards_five_guards_two_each_of_priest_baron_handmaid_prince_one_each_of_the_rest():
    prog = prog_for(2)
    assert deck_counter(prog) == collections.Counter(
        {"guard": 5, "priest": 2, "baron": 2, "handmaid": 2, "prince": 2, "king": 1,
         "countess": 1, "princess": 1})


def test_one_card_is_set_aside_face_down_and_each_player_dealt_one():
    prog, st = dealt(3, ["priest", "baron", "king"], draws=["guard"], aside="princess")
    assert names(prog, st, "aside") == ["princess"]
    assert hand(prog, st, 1) == ["baron"] and hand(prog, st, 2) == ["king"]
    assert sorted(hand(prog, st, 0)) == ["guard", "priest"]      # seat 0 has drawn its card
    assert size(prog, st, "shown") == 0 and size(prog, st, "deck") == 16 - 1 - 3 - 1


def test_with_two_players_three_more_cards_are_set_aside_face_up():
    prog, st = dealt(2, ["priest", "baron"], draws=["guard"], shown=["king", "handmaid", "guard"])
    assert sorted(names(prog, st, "shown")) == ["guard", "handmaid", "king"]
    assert size(prog, st, "deck") == 16 - 1 - 3 - 2 - 1


# ---------------------------------------------------------------- the cards

def test_guard_names_a_player_and_a_value_other_than_guard_and_a_right_guess_knocks_them_out():
    prog, st = dealt(3, ["guard", "baron", "king"], draws=["priest"])
    do(prog, st, "play: 1*guard")
    # one decision names the player and the value: never 1, the Guard, never yourself
    assert move_texts(prog, st) == sorted(f"guard: named={p} guess={v}" for p in (1, 2) for v in range(2, 9))
    do(prog, st, "guard: named=2 guess=6")
    assert out(prog, st, 2) and names(prog, st, "discards(2)") == ["king"]
    assert st.current == 1                               # seat 2 gets no more turns: 0, 1, 0, ...


def test_guard_a_wrong_guess_does_nothing_but_everyone_learns_that_card_is_not_there():
    prog, st = dealt(3, ["guard", "baron", "king"], draws=["priest"])
    do(prog, st, "play: 1*guard")
    do(prog, st, "guard: named=1 guess=6")
    assert "baron" in hand(prog, st, 1)
    assert not out(prog, st, 1)
    # the guess is said aloud: seat 2 hears it
    assert any(e[0] == DECIDE and e[1] == 0 for e in for_seat(prog, st.log, 2))
    # seat 2 is told that hand(1) holds no king (until seat 1 draws a card it does not see)
    told = [describe(prog, e, 2) for e in for_seat(prog, st.log, 2)]
    assert "hand(1) holds none of: king" in told, told


def test_priest_looks_at_another_players_hand():
    prog, st = dealt(3, ["priest", "baron", "king"], draws=["guard"])
    do(prog, st, "play: 1*priest")
    do(prog, st, "look_at: 2")
    assert view_of(prog, for_seat(prog, st.log, 0), 0).cards("hand(2)") == [prog.type_index["king"]]
    assert view_of(prog, for_seat(prog, st.log, 1), 1).cards("hand(2)") == [None]


def test_baron_compares_hands_and_the_lower_card_is_knocked_out():
    prog, st = dealt(3, ["baron", "priest", "king"], draws=["handmaid"])
    do(prog, st, "play: 1*baron")
    do(prog, st, "compare_with: 1")                      # handmaid (4) against priest (2)
    assert out(prog, st, 1) and not out(prog, st, 0)


def test_baron_the_player_with_the_lower_card_may_be_the_one_who_played_it():
    prog, st = dealt(3, ["baron", "priest", "king"], draws=["guard"])
    do(prog, st, "play: 1*baron")
    do(prog, st, "compare_with: 2")                      # guard (1) against king (6)
    assert out(prog, st, 0) and not out(prog, st, 2)


def test_baron_a_tie_does_nothing():
    prog, st = dealt(3, ["baron", "priest", "king"], draws=["priest"])
    do(prog, st, "play: 1*baron")
    do(prog, st, "compare_with: 1")
    assert not out(prog, st, 0) and not out(prog, st, 1)


def test_handmaid_protects_until_your_next_turn():
    prog, st = dealt(3, ["handmaid", "guard", "baron"], draws=["priest", "prince", "king"])
    do(prog, st, "play: 1*handmaid")
    assert var(prog, st, "protected", 0)
    do(prog, st, "play: 1*guard")                        # seat 1 may only name seat 2
    assert {t.split()[1] for t in move_texts(prog, st)} == {"named=2"}
    do(prog, st, "guard: named=2 guess=2")
    do(prog, st, "play: 1*baron")                        # seat 2 may only compare with seat 1
    assert move_texts(prog, st) == ["compare_with: 1"]
    do(prog, st, "compare_with: 1")
    # seat 0's next turn: the protection is over
    assert not var(prog, st, "protected", 0)


def test_a_card_with_no_player_to_target_has_no_effect():
    prog, st = dealt(2, ["handmaid", "guard"], draws=["priest", "king"], shown=["baron", "baron", "guard"])
    do(prog, st, "play: 1*handmaid")
    do(prog, st, "play: 1*king")                         # seat 0 is protected: no trade
    assert hand(prog, st, 1) == ["guard"] and "priest" in hand(prog, st, 0)
    assert st.current == 0


def test_prince_makes_a_player_discard_their_hand_and_draw_a_new_card():
    prog, st = dealt(3, ["prince", "baron", "king"], draws=["guard", "handmaid"])
    do(prog, st, "play: 1*prince")
    assert move_texts(prog, st) == ["prince_on: 0", "prince_on: 1", "prince_on: 2"]   # yourself too
    do(prog, st, "prince_on: 2")
    assert names(prog, st, "discards(2)") == ["king"] and hand(prog, st, 2) == ["handmaid"]


def test_prince_whoever_discards_the_princess_is_knocked_out():
    prog, st = dealt(3, ["prince", "princess", "king"], draws=["guard"])
    do(prog, st, "play: 1*prince")
    do(prog, st, "prince_on: 1")
    assert out(prog, st, 1) and names(prog, st, "discards(1)") == ["princess"]


def empty_deck(prog, st, into: str):
    """Surgery: the deck runs out (its cards go to the bottom of `into`)."""
    d, tgt = prog.zone_names.index("deck"), prog.zone_names.index(into)
    for c in st.zones[d]:
        st.loc[c] = tgt
    st.zones[tgt] = st.zones[d] + st.zones[tgt]
    st.zones[d] = []
    check_loc(st)


def test_prince_with_the_deck_empty_the_player_draws_the_card_set_aside():
    prog, st = dealt(3, ["prince", "baron", "king"], draws=["guard"], aside="countess")
    empty_deck(prog, st, "discards(1)")
    do(prog, st, "play: 1*prince")
    do(prog, st, "prince_on: 2")
    # seat 2 discarded the king and drew the countess set aside; the deck is empty, so the round
    # ends: countess (7) against baron (3) and guard (1)
    assert [var(prog, st, "tokens", p) for p in range(3)] == [0, 0, 1]


def test_king_trades_hands_with_another_player():
    prog, st = dealt(3, ["king", "baron", "princess"], draws=["guard"])
    do(prog, st, "play: 1*king")
    do(prog, st, "trade_with: 2")
    assert hand(prog, st, 0) == ["princess"] and hand(prog, st, 2) == ["guard"]


def test_the_countess_must_be_played_when_the_other_card_is_the_king_or_a_prince():
    for other in ("king", "prince"):
        prog, st = dealt(3, ["countess", "baron", "priest"], draws=[other])
        assert move_texts(prog, st) == ["play: 1*countess"]
    prog, st = dealt(3, ["countess", "baron", "priest"], draws=["guard"])
    assert move_texts(prog, st) == ["play: 1*countess", "play: 1*guard"]


def test_discarding_the_princess_knocks_you_out():
    prog, st = dealt(3, ["princess", "baron", "priest"], draws=["handmaid"])
    do(prog, st, "play: 1*princess")
    assert out(prog, st, 0) and st.current == 1


# ---------------------------------------------------------------- rounds and tokens

def test_the_round_ends_when_one_player_is_left_and_they_win_a_token():
    prog, st = dealt(2, ["guard", "king"], draws=["priest"], shown=["baron", "baron", "guard"])
    do(prog, st, "play: 1*guard")
    do(prog, st, "guard: named=1 guess=6")
    assert var(prog, st, "tokens", 0) == 1 and var(prog, st, "tokens", 1) == 0
    assert var(prog, st, "rounds") == 2                  # the next round is dealt
    assert st.current == 0                               # and its winner starts it


def test_the_round_ends_when_the_deck_is_empty_and_the_highest_card_wins():
    prog, st = dealt(3, ["guard", "priest", "baron"], draws=["handmaid"])
    # the deck runs out (its cards are put aside)
    empty_deck(prog, st, "aside")
    do(prog, st, "play: 1*guard")                        # seat 0 keeps the handmaid (4)
    do(prog, st, "guard: named=1 guess=5")
    assert [var(prog, st, "tokens", p) for p in range(3)] == [1, 0, 0]


def test_a_tie_at_the_end_of_the_deck_goes_to_the_higher_total_of_discards():
    prog, st = dealt(3, ["guard", "priest", "priest"], draws=["baron"])
    empty_deck(prog, st, "aside")
    do(prog, st, "play: 1*baron")                        # seat 0 keeps the guard (1): it loses
    do(prog, st, "compare_with: 2")
    # seats 1 and 2 both hold a priest; seat 2 discarded nothing, seat 1 nothing: a tie on both,
    # so both win a token
    assert [var(prog, st, "tokens", p) for p in range(3)] == [0, 1, 1]


def test_a_tie_on_both_counts_gives_each_tied_player_a_token():
    prog, st = dealt(3, ["guard", "priest", "priest"], draws=["handmaid"])
    empty_deck(prog, st, "aside")
    do(prog, st, "play: 1*guard")
    do(prog, st, "guard: named=1 guess=5")
    # seat 0 keeps the handmaid (4) and wins alone
    assert [var(prog, st, "tokens", p) for p in range(3)] == [1, 0, 0]


def test_the_first_to_win_seven_tokens_with_two_players_wins_the_game():
    prog, st = dealt(2, ["guard", "king"], draws=["priest"], shown=["baron", "handmaid", "guard"])
    set_var(prog, st, "tokens", 6, 0)
    set_var(prog, st, "tokens", 6, 1)
    do(prog, st, "play: 1*guard")
    do(prog, st, "guard: named=1 guess=6")
    assert st.over and prog.result(st)["winners"] == [0] and var(prog, st, "tokens", 0) == 7


def test_the_first_to_win_five_tokens_with_three_players_wins_the_game():
    prog, st = dealt(3, ["guard", "king", "princess"], draws=["priest", "handmaid"])
    set_var(prog, st, "tokens", 4, 0)
    do(prog, st, "play: 1*guard")
    do(prog, st, "guard: named=1 guess=6")
    assert not st.over                                   # seat 2 is still in the round
    do(prog, st, "play: 1*princess")
    assert st.over and prog.result(st)["winners"] == [0] and var(prog, st, "tokens", 0) == 5
    # (four players need four tokens: the conformance test ends every game at 7, 5 or 4)
