"""Fireworks (rulesets/examples/fireworks.yaml), a cooperative game in the manner of Hanabi: a
conformance test over many seeded games and one scenario per rule sentence of docs/games.md
("Fireworks")."""
import collections
import json

import pytest

from interpreter.runtime.events import for_seat
from interpreter.seats.views import view_of
from interpreter.tools.cli import main
from example_helpers import (  # noqa: F401
    ROOT, game, names, size, var, set_var, stacked, deck_counter, seeded_games, move_texts, do, check_loc, arrange,
    deal_top, scripted,
)

COLOURS = ["white", "yellow", "green", "blue", "red"]
HAND = {2: 5, 3: 5, 4: 4, 5: 4}
PATH = f"{ROOT}/rulesets/examples/fireworks.yaml"


def prog_for(players, overrides=()):
    return game("fireworks", overrides).program(players)


def dealt(players, hands, draws=(), overrides=()):
    """A game dealt from a stacked deck: hands[seat] bottom first (the first card dealt is the card
    held longest, place 1), then the draws in order."""
    prog = prog_for(players, overrides)
    return prog, scripted(prog, [stacked(prog, "deck", deal_top(hands) + list(draws), deck_counter(prog))])


def hand(prog, st, p):
    return names(prog, st, f"hand({p})")


def firework(prog, st, colour):
    return names(prog, st, f"fireworks[{colour}]")


def build(prog, st, layout):
    """Position surgery: fireworks already standing, e.g. {"red": 4} holds red1..red4."""
    arrange(prog, st, {f"fireworks[{c}]": [f"{c}{r}" for r in range(1, k + 1)] for c, k in layout.items()}, "deck")


# Two players, five cards each: seat 0 holds white1 red1 red2 blue5 green3, seat 1 red3 red4 white1
# yellow1 blue1; the next cards drawn are green1, green2, then the rest of the shuffled deck.
HANDS_2 = [["white1", "red1", "red2", "blue5", "green3"], ["red3", "red4", "white1", "yellow1", "blue1"]]


def two():
    return dealt(2, HANDS_2, ["green1", "green2"])


# ---------------------------------------------------------------- conformance

def oracle(prog, st, rng):
    """A test player that looks at the real cards: plays a playable card, else discards (place 1),
    else gives the first clue; so games reach the end of the deck and complete fireworks."""
    texts = move_texts(prog, st)
    held = hand(prog, st, st.current)
    playable = [i + 1 for i, n in enumerate(held)
                if int(n[-1]) == size(prog, st, f"fireworks[{n[:-1]}]") + 1]
    if "play" in texts:
        choice = "play" if playable else "discard" if "discard" in texts else \
            next(t for t in texts if t.startswith("clue"))
    elif texts[0].startswith("played:"):
        choice = f"played: {playable[0]}" if playable else rng.choice(texts)
    elif texts[0].startswith("discarded:"):
        choice = "discarded: 1"
    else:
        choice = rng.choice(texts)
    return prog.parse_move(st, choice)


def complete(prog, st):
    return all(size(prog, st, f"fireworks[{c}]") == 5 for c in COLOURS)


def check_invariants(prog, st, players):
    check_loc(st)
    assert sum(len(z) for z in st.zones) == 50
    assert 0 <= var(prog, st, "clues") <= 8
    assert 0 <= var(prog, st, "fuses") <= 3
    for c in COLOURS:                                   # every firework in order from its 1
        assert firework(prog, st, c) == [f"{c}{r}" for r in range(1, len(firework(prog, st, c)) + 1)]
    late = var(prog, st, "late_turns")
    if size(prog, st, "deck") > 0:
        assert late == 0
        assert all(size(prog, st, f"hand({p})") == HAND[players] for p in range(players))
    else:                                               # the last draw's turn and one more each
        assert 1 <= late <= players + 1
        assert st.over == (late == players + 1 or var(prog, st, "fuses") == 0 or complete(prog, st))
        assert all(HAND[players] - 1 <= size(prog, st, f"hand({p})") <= HAND[players] for p in range(players))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_invariants_after_every_move_over_many_seeded_games(players):
    import random
    prog = prog_for(players)
    ends = collections.Counter()
    for seed, st, bots in seeded_games(prog, range(16), kinds=("random",)):
        rng = random.Random(seed)
        policy = (lambda s: oracle(prog, s, rng)) if seed % 2 else \
            (lambda s: bots[s.decider].choose(prog, s, prog.legal_moves(s)))
        while not st.over:
            check_invariants(prog, st, players)
            prog.apply(st, policy(st))
        check_invariants(prog, st, players)
        show = sum(size(prog, st, f"fireworks[{c}]") for c in COLOURS)
        fuses = var(prog, st, "fuses")
        ends["fuse" if fuses == 0 else "complete" if show == 25 else "deck"] += 1
        result = prog.result(st)
        assert result["scores"] == [0 if fuses == 0 else show] * players
        assert result["winners"] == (list(range(players)) if fuses > 0 and show == 25 else [])
    assert ends["fuse"] > 0 and ends["deck"] + ends["complete"] > 0, ends


def test_a_player_never_sees_their_own_cards_and_sees_every_other_hand():
    prog = prog_for(3)
    for seed, st, bots in seeded_games(prog, range(3), kinds=("random",)):
        st = prog.new_state(seed, log=True)
        for _ in range(12):
            if st.over:
                break
            prog.apply(st, bots[st.decider].choose(prog, st, prog.legal_moves(st)))
            for seat in range(3):
                view = view_of(prog, for_seat(prog, st.log, seat), seat)
                for p in range(3):
                    faces = view.cards(f"hand({p})")
                    real = [prog.card_type[c] for c in st.zones[prog.zone_names.index(f"hand({p})")]]
                    assert faces == ([None] * len(real) if p == seat else real)


# ---------------------------------------------------------------- setup

def test_the_deck_has_50_cards_three_1s_two_2s_3s_and_4s_and_one_5_in_each_of_five_colours():
    counts = deck_counter(prog_for(2))
    assert sum(counts.values()) == 50
    assert counts == collections.Counter({f"{c}{r}": n for c in COLOURS for r, n in zip(range(1, 6), [3, 2, 2, 2, 1])})


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_five_cards_each_with_2_or_3_players_four_with_4_or_5(players):
    prog = prog_for(players)
    st = prog.new_state(1)
    assert [size(prog, st, f"hand({p})") for p in range(players)] == [HAND[players]] * players
    assert size(prog, st, "deck") == 50 - players * HAND[players]


def test_the_game_starts_with_8_clue_tokens_and_3_fuses_and_no_firework():
    prog, st = two()
    assert (var(prog, st, "clues"), var(prog, st, "fuses")) == (8, 3)
    assert all(firework(prog, st, c) == [] for c in COLOURS)


def test_the_cards_are_dealt_to_each_player_in_turn_the_first_dealt_held_longest():
    prog, st = two()
    assert hand(prog, st, 0) == HANDS_2[0] and hand(prog, st, 1) == HANDS_2[1]


# ---------------------------------------------------------------- a turn

def test_a_turn_is_exactly_one_of_giving_a_clue_discarding_or_playing_said_aloud():
    prog, st = two()
    set_var(prog, st, "clues", 5)
    assert move_texts(prog, st) == ["clue_colour", "clue_number", "discard", "play"]
    do(prog, st, "play")
    assert "seat 0 chose play" in told(prog, st, 1)


def told(prog, st, seat):
    from interpreter.runtime.events import describe
    return [describe(prog, e, seat) for e in for_seat(prog, st.log, seat)]


def test_a_colour_clue_names_another_player_and_a_colour_they_hold():
    prog, st = two()
    do(prog, st, "clue_colour")
    assert move_texts(prog, st) == sorted(f"colour_clue: target=1 hue={c}" for c in ("white", "yellow", "blue", "red"))


def test_a_number_clue_names_another_player_and_a_number_they_hold():
    prog, st = two()
    do(prog, st, "clue_number")
    assert move_texts(prog, st) == sorted(f"number_clue: target=1 number={n}" for n in (1, 3, 4))


def test_a_clue_costs_a_clue_token():
    prog, st = two()
    do(prog, st, "clue_number")
    do(prog, st, "number_clue: target=1 number=1")
    assert var(prog, st, "clues") == 7 and st.current == 1
    assert any("number_clue: target=1 number=1" in line for line in told(prog, st, 1))


def facts(prog, st, seat, p):
    """What `seat` was told of each place of hand(p): {place from 1: set of card names it may be}."""
    view = view_of(prog, for_seat(prog, st.log, seat), seat)
    return {i + 1: {prog.type_names[t] for t in ts} for i, ts in view.told(f"hand({p})").items()}


def of(colour=None, rank=None, not_colour=None, not_rank=None):
    """The card names with (or without) a colour and a number."""
    return {f"{c}{r}" for c in COLOURS for r in range(1, 6)
            if (colour is None or c == colour) and (rank is None or r == rank)
            and c != not_colour and r != not_rank}


def test_a_colour_clue_points_out_every_card_of_that_colour_and_so_tells_the_others_are_not_of_it():
    prog, st = two()
    do(prog, st, "clue_colour")
    do(prog, st, "colour_clue: target=1 hue=red")       # seat 1 holds red3 red4 white1 yellow1 blue1
    red, other = of(colour="red"), of(not_colour="red")
    assert facts(prog, st, 1, 1) == {1: red, 2: red, 3: other, 4: other, 5: other}


def test_a_number_clue_points_out_every_card_of_that_number_and_so_tells_the_others_are_not_of_it():
    prog, st = two()
    do(prog, st, "clue_number")
    do(prog, st, "number_clue: target=1 number=1")
    one, other = of(rank=1), of(not_rank=1)
    assert facts(prog, st, 1, 1) == {1: other, 2: other, 3: one, 4: one, 5: one}


def test_what_a_player_was_told_stays_with_each_card_while_it_stays_in_their_hand():
    prog, st = two()
    do(prog, st, "clue_number")
    do(prog, st, "number_clue: target=1 number=4")     # seat 1's red4, in place 2
    do(prog, st, "clue_colour")
    do(prog, st, "colour_clue: target=0 hue=red")      # seat 1 tells seat 0 of its reds
    four, other = of(rank=4), of(not_rank=4)
    assert facts(prog, st, 1, 1) == {1: other, 2: four, 3: other, 4: other, 5: other}
    do(prog, st, "play")
    do(prog, st, "played: 1")                           # seat 0 plays; seat 1's hand is as it was
    do(prog, st, "play")
    do(prog, st, "played: 1")                           # seat 1 plays red3 (place 1): red4 is now place 1
    assert facts(prog, st, 1, 1) == {1: four, 2: other, 3: other, 4: other}   # the drawn card: nothing told


def test_a_clue_is_given_to_the_player_named_and_is_heard_by_everyone():
    prog, st = dealt(3, [HANDS_2[0], HANDS_2[1], ["green1", "green2", "green4", "yellow2", "yellow3"]])
    do(prog, st, "clue_colour")
    do(prog, st, "colour_clue: target=2 hue=green")
    assert facts(prog, st, 2, 2) == {k: of(colour="green") if k <= 3 else of(not_colour="green")
                                     for k in range(1, 6)}
    assert all("seat 0 chose colour_clue: target=2 hue=green" in told(prog, st, seat) for seat in range(3))


def test_the_hands_a_players_bots_imagine_agree_with_every_clue_they_were_told():
    import random
    from interpreter.seats.worlds import determinise
    prog, st = two()
    do(prog, st, "clue_number")
    do(prog, st, "number_clue: target=1 number=1")     # seat 1's places 3, 4, 5 are 1s, places 1, 2 are not
    view = view_of(prog, for_seat(prog, st.log, 1), 1)
    hand1, gen, seen = prog.zone_names.index("hand(1)"), random.Random(0), set()
    for _ in range(300):
        world = determinise(prog, st, 1, gen, view)
        dealt = [prog.type_names[prog.card_type[c]] for c in world.zones[hand1]]
        assert [n.endswith("1") for n in dealt] == [False, False, True, True, True]
        seen.add(tuple(dealt))
    assert len(seen) > 50                               # still dealt at random within what it was told


def test_with_no_clue_token_left_no_clue_can_be_given():
    prog, st = two()
    set_var(prog, st, "clues", 0)
    assert move_texts(prog, st) == ["discard", "play"]


def test_discarding_is_not_possible_while_all_8_clue_tokens_are_in_play():
    prog, st = two()
    assert "discard" not in move_texts(prog, st)
    set_var(prog, st, "clues", 7)
    assert "discard" in move_texts(prog, st)


def test_a_player_names_the_place_of_the_card_they_discard_or_play_not_the_card():
    prog, st = two()
    do(prog, st, "play")
    assert move_texts(prog, st) == [f"played: {k}" for k in range(1, 6)]


def test_discarding_puts_the_named_card_face_up_on_the_discard_pile_takes_a_clue_token_back_and_draws():
    prog, st = two()
    set_var(prog, st, "clues", 6)
    do(prog, st, "discard")
    do(prog, st, "discarded: 4")                        # blue5, the fourth card held
    assert names(prog, st, "discard") == ["blue5"]
    assert var(prog, st, "clues") == 7
    assert hand(prog, st, 0) == ["white1", "red1", "red2", "green3", "green1"]   # drawn on top: place 5
    assert "seat 0 chose discarded: 4" in told(prog, st, 0)


def test_a_card_that_is_the_next_number_of_its_colours_firework_goes_on_it():
    prog, st = two()
    do(prog, st, "play")
    do(prog, st, "played: 2")                           # red1 starts the red firework
    assert firework(prog, st, "red") == ["red1"] and var(prog, st, "fuses") == 3
    do(prog, st, "play")
    do(prog, st, "played: 1")                           # seat 1's red3 is not next: red2 is
    do(prog, st, "play")
    do(prog, st, "played: 2")                           # seat 0's red2, now in place 2
    assert firework(prog, st, "red") == ["red1", "red2"]


def test_a_card_that_is_not_the_next_number_goes_to_the_discard_pile_and_burns_a_fuse():
    prog, st = two()
    do(prog, st, "play")
    do(prog, st, "played: 5")                           # green3 on no green firework
    assert firework(prog, st, "green") == [] and names(prog, st, "discard") == ["green3"]
    assert var(prog, st, "fuses") == 2


def test_after_playing_the_player_draws_a_card():
    prog, st = two()
    do(prog, st, "play")
    do(prog, st, "played: 1")
    assert hand(prog, st, 0) == ["red1", "red2", "blue5", "green3", "green1"]
    assert size(prog, st, "deck") == 50 - 10 - 1


def test_completing_a_firework_with_its_5_takes_a_clue_token_back():
    prog, st = two()
    build(prog, st, {"blue": 4})
    set_var(prog, st, "clues", 3)
    do(prog, st, "play")
    do(prog, st, "played: 4")                           # blue5
    assert firework(prog, st, "blue") == [f"blue{r}" for r in range(1, 6)] and var(prog, st, "clues") == 4


def test_completing_a_firework_while_every_clue_token_is_in_play_takes_none():
    prog, st = two()
    build(prog, st, {"blue": 4})
    do(prog, st, "play")
    do(prog, st, "played: 4")
    assert len(firework(prog, st, "blue")) == 5 and var(prog, st, "clues") == 8


def test_once_the_last_card_is_drawn_every_player_has_one_more_turn_the_one_who_drew_it_last():
    prog, st = dealt(3, [["red1"] * 3 + ["white2", "white3"], ["yellow1"] * 3 + ["white4", "white4"],
                         ["green1"] * 3 + ["blue2", "blue3"]])
    arrange(prog, st, {"deck": ["blue1"]}, "discard")
    assert names(prog, st, "deck") == ["blue1"]
    do(prog, st, "play")
    do(prog, st, "played: 1")                           # seat 0 draws the last card
    assert size(prog, st, "deck") == 0 and var(prog, st, "late_turns") == 1
    for seat in (1, 2, 0):                              # one more turn each, seat 0 last
        assert not st.over and st.current == seat
        do(prog, st, "play")
        do(prog, st, "played: 1")
    assert st.over
    assert [size(prog, st, f"hand({p})") for p in range(3)] == [4, 4, 4]     # no more cards drawn


# ---------------------------------------------------------------- end and score

def test_the_game_ends_when_the_third_fuse_burns_and_the_show_then_scores_0():
    prog, st = two()
    build(prog, st, {"white": 2})
    set_var(prog, st, "fuses", 1)
    do(prog, st, "play")
    do(prog, st, "played: 5")                           # green3: a misfire, the third fuse
    assert st.over and var(prog, st, "fuses") == 0
    assert (prog.result(st)["scores"], prog.result(st)["winners"]) == ([0, 0], [])


def test_the_game_ends_when_all_five_fireworks_are_complete_and_the_table_wins():
    prog, st = two()
    build(prog, st, {"white": 5, "yellow": 5, "green": 5, "red": 5, "blue": 4})
    do(prog, st, "play")
    do(prog, st, "played: 4")
    assert st.over and prog.result(st)["scores"] == [25, 25] and prog.result(st)["winners"] == [0, 1]


def test_the_score_is_the_number_of_cards_on_the_fireworks_the_same_for_every_player():
    prog, st = two()
    build(prog, st, {"white": 3, "red": 2})
    assert [prog.score(st, p) for p in (0, 1)] == [5, 5]


def test_a_show_short_of_25_is_lost_and_win_score_moves_the_line():
    for overrides, winners in (((), []), ((("win_score", 20),), [0, 1])):
        prog, st = dealt(2, HANDS_2, ["green1", "green2"], overrides)
        build(prog, st, {"white": 5, "yellow": 5, "green": 5, "red": 5})
        set_var(prog, st, "fuses", 1)
        do(prog, st, "play")
        do(prog, st, "played: 5")                       # a misfire: the third fuse, scores 0
        assert prog.result(st)["winners"] == []
        prog, st = dealt(2, HANDS_2, ["green1", "green2"], overrides)
        build(prog, st, {"white": 5, "yellow": 5, "green": 5, "red": 5})
        arrange(prog, st, {"deck": []}, "discard")
        set_var(prog, st, "clues", 4)
        for _ in range(3):                              # the deck is empty: one more turn each
            do(prog, st, "discard")
            do(prog, st, "discarded: 1")
        assert st.over and prog.score(st, 0) == 20
        assert prog.result(st)["winners"] == winners


# ---------------------------------------------------------------- whole games through the tools

def test_the_ruleset_validates_and_lints_clean(capsys):
    assert main(["validate", PATH]) == 0
    assert "ok (Fireworks, 2–5 players, cooperative: the table wins or loses together)" in capsys.readouterr().out
    assert main(["lint", PATH, "--strict"]) == 0


def test_simulate_plays_whole_games_and_reports_the_tables_win_rate_and_shared_score(capsys, tmp_path):
    results = str(tmp_path / "r.jsonl")
    assert main(["simulate", PATH, "-n", "3", "--games", "30", "--seed", "4", "--jobs", "1", "--json",
                 "--results", results]) == 0
    doc = json.loads(capsys.readouterr().out)
    with open(results, encoding="utf-8") as fh:
        games = [json.loads(line) for line in fh]
    assert doc["games"] == 30 and "table_wins" in doc["cooperative"]
    assert doc["cooperative"]["score"]["value"] == pytest.approx(sum(g["scores"][0] for g in games) / 30)
    assert all(len(set(g["scores"])) == 1 for g in games)


@pytest.mark.parametrize("players", [2, 5])
def test_a_recorded_game_replays(players, capsys, tmp_path):
    record = str(tmp_path / "game.json")
    for seed in range(3):
        assert main(["record", PATH, "-n", str(players), "--seed", str(seed), "--bots", "greedy", "-o", record]) == 0
        assert main(["replay", record, "--ruleset", PATH]) == 0
        assert "replay ok" in capsys.readouterr().out
