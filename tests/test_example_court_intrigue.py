"""Court Intrigue (rulesets/examples/court_intrigue.yaml), a bluffing game in the manner of Coup: a
conformance test over many seeded games and one scenario per rule sentence of docs/games.md
("Court Intrigue")."""
import collections

import pytest

from example_helpers import game, names, size, var, set_var, arrange, seeded_games, move_texts, do, check_loc

ROLES = ["duke", "assassin", "captain", "ambassador", "contessa"]


def prog_for(players):
    return game("court_intrigue").program(players)


def hand(prog, st, p):
    return sorted(names(prog, st, f"hand({p})"))


def lost(prog, st, p):
    return sorted(names(prog, st, f"lost({p})"))


def out(prog, st, p):
    """Seat p has lost both influences."""
    return size(prog, st, f"lost({p})") == 2


# ---------------------------------------------------------------- conformance

@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_invariants_after_every_move_over_many_seeded_games(players):
    prog = prog_for(players)
    for seed, st, bots in seeded_games(prog, range(24), kinds=("random", "greedy", "automa")):
        while not st.over:
            check_loc(st)
            # the 15 characters are all somewhere: court deck, face down or face up
            every = collections.Counter(n for z in range(len(st.zones)) for n in
                                        [prog.type_names[prog.card_type[c]] for c in st.zones[z]])
            assert every == collections.Counter({r: 3 for r in ROLES})
            for p in range(players):
                assert var(prog, st, "coins", p) >= 0
                # a seat out has no face-down influence and neither plays nor decides
                if out(prog, st, p):
                    assert size(prog, st, f"hand({p})") == 0
                    assert st.current != p and st.decider != p
                else:
                    assert size(prog, st, f"hand({p})") + size(prog, st, f"lost({p})") in (2, 4)
            legal = move_texts(prog, st)
            # with 10 coins or more the only action is a coup
            if "income" in legal or "coup" in legal:
                if var(prog, st, "coins", st.current) >= 10:
                    assert legal == ["coup"]
                if var(prog, st, "coins", st.current) < 7:
                    assert "coup" not in legal
            move = bots[st.decider].choose(prog, st, prog.legal_moves(st))
            prog.apply(st, move)
        standing = [p for p in range(players) if not out(prog, st, p)]
        assert len(standing) == 1
        assert prog.result(st)["winners"] == standing


# ---------------------------------------------------------------- scenarios

def dealt(players, hands, coins=None):
    """A game whose seats hold the named influences (hands[p]); coins[p] if given."""
    prog = prog_for(players)
    st = prog.new_state(0, log=True)
    arrange(prog, st, {f"hand({p})": h for p, h in enumerate(hands)}, "court")
    for p, c in enumerate(coins or []):
        set_var(prog, st, "coins", c, p)
    return prog, st


def coins(prog, st, p):
    return var(prog, st, "coins", p)


def test_the_court_deck_has_three_of_each_of_five_characters_and_each_player_two_influences_and_two_coins():
    prog = prog_for(4)
    st = prog.new_state(3)
    assert collections.Counter(prog.type_names[t] for t in prog.card_type) == {r: 3 for r in ROLES}
    for p in range(4):
        assert size(prog, st, f"hand({p})") == 2 and coins(prog, st, p) == 2
    assert size(prog, st, "court") == 15 - 8


def test_income_takes_one_coin_and_cannot_be_challenged():
    prog, st = dealt(3, [["duke", "captain"], ["contessa", "assassin"], ["ambassador", "duke"]])
    do(prog, st, "income")
    assert coins(prog, st, 0) == 3 and st.current == 1


def test_tax_unchallenged_takes_three_coins():
    prog, st = dealt(3, [["contessa", "captain"], ["contessa", "assassin"], ["ambassador", "duke"]])
    do(prog, st, "tax")
    do(prog, st, "accept")
    do(prog, st, "accept")
    assert coins(prog, st, 0) == 5 and st.current == 1


def test_a_challenge_is_asked_in_seat_order_and_the_first_challenge_ends_the_round():
    prog, st = dealt(3, [["contessa", "captain"], ["contessa", "assassin"], ["ambassador", "duke"]])
    do(prog, st, "tax")
    assert st.decider == 1
    do(prog, st, "challenge")
    assert st.decider == 0          # seat 2 is not asked: the claimant answers at once
    assert move_texts(prog, st) == ["concede"]


def test_a_challenge_lost_by_a_bluffer_costs_them_an_influence_of_their_choice_and_the_action_fails():
    prog, st = dealt(3, [["contessa", "captain"], ["contessa", "assassin"], ["ambassador", "duke"]])
    do(prog, st, "tax")
    do(prog, st, "accept")
    do(prog, st, "challenge")
    do(prog, st, "concede")
    assert move_texts(prog, st) == ["give_up: 1*captain", "give_up: 1*contessa"]
    do(prog, st, "give_up: 1*captain")
    assert lost(prog, st, 0) == ["captain"] and hand(prog, st, 0) == ["contessa"]
    assert coins(prog, st, 0) == 2 and st.current == 1


def test_a_challenge_won_costs_the_challenger_an_influence_and_the_shown_card_is_replaced():
    prog, st = dealt(3, [["duke", "captain"], ["contessa", "assassin"], ["ambassador", "duke"]])
    do(prog, st, "tax")
    do(prog, st, "challenge")
    assert move_texts(prog, st) == ["concede", "prove: 1*duke"]
    do(prog, st, "prove: 1*duke")
    do(prog, st, "give_up: 1*assassin")
    assert lost(prog, st, 1) == ["assassin"]
    assert coins(prog, st, 0) == 5
    # the duke went back into the court deck, shuffled, and seat 0 drew a card for it
    assert size(prog, st, "hand(0)") == 2 and "captain" in hand(prog, st, 0)
    assert size(prog, st, "court") == 15 - 6


def test_a_claim_is_public_every_seat_is_told_the_action():
    from interpreter.runtime.events import describe, for_seat
    prog, st = dealt(3, [["duke", "captain"], ["contessa", "assassin"], ["ambassador", "duke"]])
    do(prog, st, "tax")
    told = [describe(prog, e, 2) for e in for_seat(prog, st.log, 2)]
    assert any("tax" in line for line in told)


def test_foreign_aid_takes_two_coins_when_nobody_blocks():
    prog, st = dealt(3, [["duke", "captain"], ["contessa", "assassin"], ["ambassador", "duke"]])
    do(prog, st, "foreign_aid")
    do(prog, st, "allow")
    do(prog, st, "allow")
    assert coins(prog, st, 0) == 4


def test_any_player_may_block_foreign_aid_by_claiming_the_duke():
    prog, st = dealt(3, [["duke", "captain"], ["contessa", "assassin"], ["ambassador", "duke"]])
    do(prog, st, "foreign_aid")
    do(prog, st, "allow")
    do(prog, st, "block_duke")               # seat 2 blocks
    # the block is a claim: anyone else may challenge it, from the blocker's left (seat 0, seat 1)
    assert st.decider == 0
    do(prog, st, "accept")
    do(prog, st, "accept")
    assert coins(prog, st, 0) == 2 and st.current == 1


def test_a_block_challenged_and_not_proved_fails_and_the_action_goes_ahead():
    prog, st = dealt(3, [["duke", "captain"], ["contessa", "assassin"], ["ambassador", "duke"]])
    do(prog, st, "foreign_aid")
    do(prog, st, "block_duke")               # seat 1 bluffs a duke
    do(prog, st, "accept")                   # seat 2
    do(prog, st, "challenge")                # seat 0
    do(prog, st, "concede")
    do(prog, st, "give_up: 1*contessa")
    assert lost(prog, st, 1) == ["contessa"] and coins(prog, st, 0) == 4


def test_assassinate_costs_three_coins_and_the_target_loses_an_influence():
    prog, st = dealt(2, [["assassin", "captain"], ["contessa", "duke"]], coins=[3, 2])
    do(prog, st, "assassinate")
    do(prog, st, "target: 1")
    do(prog, st, "accept")
    assert move_texts(prog, st) == ["block: contessa", "block: none"]
    do(prog, st, "block: none")
    do(prog, st, "give_up: 1*duke")
    assert coins(prog, st, 0) == 0 and lost(prog, st, 1) == ["duke"]


def test_the_contessa_blocks_an_assassination_and_the_coins_stay_paid():
    prog, st = dealt(2, [["assassin", "captain"], ["contessa", "duke"]], coins=[3, 2])
    do(prog, st, "assassinate")
    do(prog, st, "target: 1")
    do(prog, st, "accept")
    do(prog, st, "block: contessa")
    do(prog, st, "accept")
    assert coins(prog, st, 0) == 0 and lost(prog, st, 1) == [] and st.current == 1


def test_assassinate_is_offered_only_with_three_coins():
    prog, st = dealt(2, [["assassin", "captain"], ["contessa", "duke"]], coins=[2, 2])
    assert "assassinate" not in move_texts(prog, st)


def test_steal_takes_up_to_two_coins_from_the_target():
    prog, st = dealt(2, [["captain", "duke"], ["contessa", "duke"]], coins=[2, 1])
    do(prog, st, "steal")
    do(prog, st, "target: 1")
    do(prog, st, "accept")
    assert move_texts(prog, st) == ["block: ambassador", "block: captain", "block: none"]
    do(prog, st, "block: none")
    assert coins(prog, st, 0) == 3 and coins(prog, st, 1) == 0


def test_the_captain_or_the_ambassador_blocks_a_steal():
    prog, st = dealt(2, [["captain", "duke"], ["ambassador", "duke"]], coins=[2, 2])
    do(prog, st, "steal")
    do(prog, st, "target: 1")
    do(prog, st, "accept")
    do(prog, st, "block: ambassador")
    do(prog, st, "challenge")
    do(prog, st, "prove: 1*ambassador")      # seat 0 challenged and loses an influence
    do(prog, st, "give_up: 1*duke")
    assert coins(prog, st, 0) == 2 and coins(prog, st, 1) == 2 and lost(prog, st, 0) == ["duke"]


def test_exchange_draws_two_from_the_court_deck_and_returns_two():
    prog, st = dealt(2, [["ambassador", "duke"], ["contessa", "duke"]])
    do(prog, st, "exchange")
    do(prog, st, "accept")
    assert size(prog, st, "hand(0)") == 4
    do(prog, st, move_texts(prog, st)[0])
    assert size(prog, st, "hand(0)") == 2 and size(prog, st, "court") == 15 - 4


def test_a_coup_costs_seven_coins_and_the_target_loses_an_influence_unblockable():
    prog, st = dealt(3, [["duke", "captain"], ["contessa", "assassin"], ["ambassador", "duke"]],
                     coins=[7, 2, 2])
    do(prog, st, "coup")
    do(prog, st, "target: 2")
    assert st.decider == 2 and move_texts(prog, st) == ["give_up: 1*ambassador", "give_up: 1*duke"]
    do(prog, st, "give_up: 1*duke")
    assert coins(prog, st, 0) == 0 and lost(prog, st, 2) == ["duke"] and st.current == 1


def test_a_coup_is_offered_only_with_seven_coins():
    prog, st = dealt(2, [["duke", "captain"], ["contessa", "assassin"]], coins=[6, 2])
    assert "coup" not in move_texts(prog, st)


def test_with_ten_coins_or_more_a_player_must_launch_a_coup():
    prog, st = dealt(2, [["duke", "captain"], ["contessa", "assassin"]], coins=[10, 2])
    assert move_texts(prog, st) == ["coup"]


def test_a_player_with_no_influence_left_is_out_and_takes_no_more_turns():
    prog, st = dealt(3, [["duke", "captain"], ["contessa", "assassin"], ["ambassador", "duke"]],
                     coins=[7, 2, 2])
    do(prog, st, "coup")
    do(prog, st, "target: 1")
    do(prog, st, "give_up: 1*assassin")
    set_var(prog, st, "coins", 7, 2)
    do(prog, st, "income")                   # seat 1
    do(prog, st, "coup")                     # seat 2 coups seat 1's last influence
    do(prog, st, "target: 1")
    assert out(prog, st, 1) and hand(prog, st, 1) == []
    assert lost(prog, st, 1) == ["assassin", "contessa"]
    assert st.current == 0
    do(prog, st, "income")
    assert st.current == 2                   # seat 1 is passed over


def test_the_last_player_standing_wins():
    prog, st = dealt(2, [["duke", "captain"], ["contessa", "assassin"]], coins=[7, 2])
    do(prog, st, "coup")
    do(prog, st, "target: 1")
    do(prog, st, "give_up: 1*assassin")
    set_var(prog, st, "coins", 7, 0)
    do(prog, st, "income")
    do(prog, st, "coup")
    do(prog, st, "target: 1")
    assert st.over and prog.result(st)["winners"] == [0]
