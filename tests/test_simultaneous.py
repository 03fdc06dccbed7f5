"""Simultaneous decisions: `choose` with `each: p in SEATS` and `then:` (docs/language.md §8, "Choosing
all at once: `each`"). Each test is one sentence of the manual, on a tiny ruleset."""
from __future__ import annotations

import io
import json
import random
import textwrap

import pytest
from rich.console import Console

from interpreter.compiler.game import load_game
from interpreter.errors import RuleRuntimeError
from interpreter.runtime import events
from interpreter.runtime.engine import DECIDE, MOVE
from interpreter.seats.bots import best_trials, rollout
from interpreter.seats.registry import make_bot
from interpreter.seats.views import Observer
from interpreter.tools.cli import main
from interpreter.tools.play import Session
from interpreter.tools.records import make_record, replay
from language_helpers import do, edit, local, make, names, texts, write  # noqa: F401

# Every seat offers one card of its hand at once; the highest offer takes the prize.
OFFERS = """
    name: offers
    players: {min: 2, max: 4}
    cards:
      card:
        for: {rank: [1, 2, 3, 4, 5, 6]}
        name: "c{rank}"
        count: 4
        start: deck
      prize:
        for: {worth: [1, 2, 3, 4, 5]}
        name: "p{worth}"
        start: prizes
    zones:
      deck: {visible: nobody}
      prizes: {visible: nobody}
      stake: {visible: everyone}
      hand: {owner: each, visible: owner}
      shown: {owner: each, visible: everyone}
      won: {owner: each, visible: everyone}
      discard: {visible: everyone}
    setup:
      - shuffle deck
      - shuffle prizes
      - deal 5 from deck to hand
    turn:
      steps:
        - step: round
          do:
            - move top of prizes to stake
            - choose: offer
              each: p in seats
              cards: hand(p)
              count: 1
              then:
                - move offer to shown(p)
            - if: any(count(shown(p)) > 0 for p in seats)
              then:
                - let best = highest(p for p in seats if count(shown(p)) > 0 by first(shown(p)).rank)
                - move stake to won(best)
              else: ["move stake to discard"]
            - for: p in seats
              do: ["move shown(p) to discard"]
    end:
      when: count(prizes) == 0
    score: sum(won.worth)
"""


def line_of(text: str, fragment: str) -> int:
    """The line of a ruleset text (as written to a file, dedented) that holds fragment."""
    return next(i for i, line in enumerate(textwrap.dedent(text).split("\n"), 1) if fragment in line)


def test_every_seat_of_the_list_chooses_in_turn_in_the_lists_order(make):
    p = make(OFFERS, 3)
    st = p.new_state(2)
    deciders = []
    for _ in range(3):
        deciders.append(st.decider)
        p.play(st, p.legal_moves(st)[0])
    assert deciders == [0, 1, 2] and st.decider == 0 and st.turn == 2


def test_a_listed_set_of_seats_chooses_in_the_order_of_its_list(make):
    p = make(edit(OFFERS, "each: p in seats", "each: p in [2, 0]"), 3)
    st = p.new_state(2)
    deciders = []
    for _ in range(2):
        deciders.append(st.decider)
        p.play(st, p.legal_moves(st)[0])
    assert deciders == [2, 0] and st.turn == 2


def test_a_choice_has_no_effect_until_every_seat_has_chosen(make):
    p = make(OFFERS, 3)
    st = p.new_state(2, log=True)
    zones, logged = [z[:] for z in st.zones], len(st.log)
    p.play(st, p.legal_moves(st)[0])
    p.play(st, p.legal_moves(st)[0])
    assert st.zones == zones
    assert [e[0] for e in st.log[logged:]] == [DECIDE, DECIDE]


def test_then_runs_once_per_seat_in_the_lists_order_with_the_name_bound_to_that_seats_choice(make):
    p = make(OFFERS, 3)
    st = p.new_state(2, log=True)
    offered = []
    for seat in range(3):
        move = p.legal_moves(st)[-1]
        offered.append(p.type_names[move[0][0]])
        logged = len(st.log)
        p.play(st, move)
    shown = [p.zone_names.index(f"shown({s})") for s in range(3)]
    moved = [e for e in st.log[logged:] if e[0] == MOVE and e[2] in shown]
    assert [e[1] for e in moved] == [p.zone_names.index(f"hand({s})") for s in range(3)]
    assert [p.type_names[p.card_type[e[3][0]]] for e in moved] == offered


def test_a_later_seat_sees_nothing_of_an_earlier_seats_choice(make):
    p = make(OFFERS, 3)
    st = p.new_state(2, log=True)
    before = events.for_seat(p, st.log, 1)
    move = p.legal_moves(st)[0]
    p.play(st, move)
    assert events.for_seat(p, st.log, 1) == before     # nothing happened that seat 1 sees
    assert [e for e in events.for_seat(p, st.log, 0) if e[0] == DECIDE] == [(DECIDE, 0, 0, move)]


def test_a_later_seats_view_is_the_same_whatever_an_earlier_seat_chose(make):
    p = make(OFFERS, 3)
    st = p.new_state(2, log=True)
    views = []
    for move in p.legal_moves(st):
        trial = st.clone()
        p.play(trial, move)
        views.append(Observer(p, 1).observe_all(events.for_seat(p, trial.log, 1)).view().zones)
    assert len(views) > 1 and all(v == views[0] for v in views)


def test_a_seat_in_the_list_that_is_not_a_seat_stops_the_game_at_the_each(make):
    p = make(edit(OFFERS, "each: p in seats", "each: p in [0, 5]"), 3)
    st = p.new_state(2)
    with pytest.raises(RuleRuntimeError) as err:
        p.play(st, p.legal_moves(st)[0])        # seat 0 chose: seat 5 is next
    assert "there is no player 5 with 3 players" in str(err.value)
    assert err.value.pos.line == line_of(OFFERS, "each: p in seats")


def test_a_copy_of_the_game_in_the_middle_of_a_round_plays_on_without_changing_the_original(make):
    p = make(OFFERS, 3)
    st = p.new_state(2)
    p.play(st, p.legal_moves(st)[0])
    copy = st.clone()
    for _ in range(2):
        p.play(copy, p.legal_moves(copy)[-1])
    assert copy.turn == 2 and st.decider == 1 and len(p.legal_moves(st)) > 0
    p.play(st, p.legal_moves(st)[0])
    p.play(st, p.legal_moves(st)[0])
    assert st.turn == 2


def test_a_later_seats_legal_moves_never_depend_on_an_earlier_seats_choice(make):
    p = make(OFFERS, 3)
    st = p.new_state(2)
    later = set()
    for move in p.legal_moves(st):
        trial = st.clone()
        p.play(trial, move)
        later.add(tuple(p.legal_moves(trial)))
    assert len(p.legal_moves(st)) > 1 and len(later) == 1


@pytest.mark.parametrize("bot", ["greedy", "automa", "memory", "ismcts:iterations=40"])
def test_a_bot_for_a_later_seat_decides_the_same_whatever_an_earlier_seat_chose(make, bot):
    p = make(OFFERS, 2)
    for seed in range(4):
        st = p.new_state(seed, log=True)
        picked = set()
        for move in p.legal_moves(st):          # every choice seat 0 could have made
            trial = st.clone()
            p.play(trial, move)
            picked.add(make_bot(bot, 7).choose(p, trial, p.legal_moves(trial)))
        assert len(p.legal_moves(st)) > 1 and len(picked) == 1


def test_the_seat_a_bot_is_given_holds_none_of_the_earlier_seats_choices(make):
    p = make(OFFERS, 2)
    st = p.new_state(0, log=True)
    p.play(st, p.legal_moves(st)[-1])           # seat 0 chooses; seat 1 is asked
    seat = make_bot("greedy", 7).seat_for(p, st, p.legal_moves(st))
    kept = seat._base.vars[st.pending.kept_slot]
    assert st.vars[st.pending.kept_slot] != [None] and kept == [None]
    assert all(w.vars[st.pending.kept_slot] != [None] for w in seat.worlds(3))    # redrawn in every world


def put(st, card: int, zone: int) -> None:
    """Move one card by hand (a world imagined for a test)."""
    st.zones[st.loc[card]].remove(card)
    st.zones[zone].append(card)
    st.loc[card] = zone


def test_a_bots_imagined_world_leaves_out_a_seat_that_could_not_have_chosen_there(make):
    p = make(edit(OFFERS, "count: 1\n", "count: 1\n              where: rank > 1\n"), 3)
    st = p.new_state(2)
    real = p.legal_moves(st)[0]
    p.play(st, real)                                    # seat 0 chose; seat 1 decides
    world = st.clone()
    hand0, deck = p.zone_names.index("hand(0)"), p.zone_names.index("deck")
    for c in list(world.zones[hand0]):                  # seat 0 holds only c1s in this world: no legal move
        put(world, c, deck)
    for c in [c for c in range(len(p.card_type)) if p.type_names[p.card_type[c]] == "c1"]:
        put(world, c, hand0)
    world.pending.redraw(world, 1, random.Random(0))
    p.play(world, p.legal_moves(world)[0])
    p.play(world, p.legal_moves(world)[0])              # seat 2: the round ends without seat 0
    assert world.turn == 2 and [p.type_names[p.card_type[c]] for c in world.zones[hand0]] == ["c1"] * 4
    p.play(st, p.legal_moves(st)[0])
    p.play(st, p.legal_moves(st)[0])
    assert st.turn == 2                                 # the real game is untouched


def test_a_one_step_look_ahead_at_a_simultaneous_choice_sees_its_round_played_to_the_end(make):
    p = make(OFFERS, 3)
    st = p.new_state(2)
    best, trials = best_trials(p, st, p.legal_moves(st), 0)
    assert trials and all(t.turn == 2 for t in trials)      # the others' choices drawn, the prize taken
    again = best_trials(p, st, p.legal_moves(st), 0)
    assert again[0] == best                                 # drawn the same way every time


def test_a_seat_imagined_in_a_roll_out_does_not_see_the_choices_made_before_it(make):
    p = make(OFFERS, 2)
    for seed in range(4):
        st = p.new_state(seed)
        hand1 = p.zone_names.index("hand(1)")
        kept = set()
        for move in p.legal_moves(st):                      # every choice seat 0 could make
            trial = st.clone()
            p.apply(trial, move)
            after = rollout(p, trial, 0, st.turn, random.Random(5), 1, [None])
            kept.add(tuple(sorted(p.card_type[c] for c in after.zones[hand1])))
        assert len(kept) == 1                               # seat 1 chose the same card every time


def test_records_store_the_choices_in_the_lists_order_and_replay_them(write):
    game = load_game(write(OFFERS))
    for bot in ("random", "greedy", "automa", "memory"):
        record = make_record(game, 3, 5, [make_bot(bot, i) for i in range(3)], [bot] * 3)
        assert [m["seat"] for m in record["moves"]] == [0, 1, 2] * 5
        assert all(m["move"].startswith("offer: 1*c") for m in record["moves"])
        assert replay(game, json.loads(json.dumps(record))) == record["result"]


def test_a_game_of_simultaneous_choices_simulates(write, capsys):
    path = write(OFFERS)
    assert main(["simulate", path, "--games", "12", "--players", "3", "--seed", "2", "--jobs", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 12


# A value and a choice of parts, each chosen by every seat at once.
GUESS = """
    name: guess
    players: {min: 2, max: 3}
    cards:
      chip: {count: 1, start: pot}
    zones:
      pot: {visible: everyone}
    vars:
      said: {owner: each, initial: 0}
      aimed: {owner: each, initial: -1}
    turn:
      steps:
        - step: say
          do:
            - choose: number
              each: p in seats
              from: numbers(1, 3)
              then: ["set said(p) = number"]
            - choose: aim
              each: p in seats
              from: {target: seats, amount: numbers(2)}
              where: target != p
              then: ["set aimed(p) = target * 10 + amount"]
    end:
      when: turn >= 2
    score: said
"""


def test_a_choice_of_a_value_made_by_each_seat_binds_each_seats_value_in_then(make):
    p = make(GUESS, 3)
    st = p.new_state(1)
    for text in ("number: 3", "number: 1", "number: 2"):
        do(p, st, text)
    assert [st.vars[p.var_base["said"] + s] for s in range(3)] == [3, 1, 2]


def test_a_choice_of_parts_made_by_each_seat_binds_each_seats_parts_in_then(make):
    p = make(GUESS, 3)
    st = p.new_state(1)
    for text in ("number: 1", "number: 1", "number: 1"):
        do(p, st, text)
    assert texts(p, st)[0] == "aim: target=1 amount=1"         # where target != p: seat 0 cannot aim at 0
    for text in ("aim: target=2 amount=2", "aim: target=0 amount=1", "aim: target=1 amount=2"):
        do(p, st, text)
    assert [st.vars[p.var_base["aimed"] + s] for s in range(3)] == [22, 1, 12]




# ---- play: hot seat ----
def test_play_in_hot_seat_shows_a_later_seat_nothing_of_an_earlier_seats_choice(write):
    game = load_game(write(OFFERS))
    out = io.StringIO()
    lines = iter(["", "1", "c", "", "q", "y"])     # seat 0 offers its first card; seat 1 looks, then quits
    s = Session(game, 2, 3, {}, ask=lambda prompt: next(lines),
                console=Console(file=out, width=200, highlight=False, color_system=None))
    s.run()
    text = out.getvalue()
    assert "seat 0: offer 1×" in text                   # seat 0 was told its own choice
    seat1 = text[text.index("— pass to seat 1 —"):]
    assert "seat 0: offer (hidden cards)" in seat1 and "seat 0: offer 1×" not in seat1


PASS = """
    name: pass three
    players: {min: 3, max: 4}
    cards:
      card:
        for: {rank: [1, 2, 3, 4, 5, 6, 7, 8]}
        name: "c{rank}"
        count: 3
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each, visible: owner}
    setup:
      - shuffle deck
      - deal 5 from deck to hand
    turn:
      steps:
        - step: pass
          do:
            - choose: three
              each: p in seats
              cards: hand(p)
              count: 3
              then: ["move three to hand(next(p))"]
    end:
      when: turn >= 3
    score: sum(hand.rank)
"""


def test_every_seats_chosen_cards_are_taken_before_any_card_moves_so_none_passes_on_what_it_received(make):
    p = make(PASS, 3)
    st = p.new_state(1)
    hands = [p.zone_names.index(f"hand({s})") for s in range(3)]
    before = [list(st.zones[z]) for z in hands]
    chosen = []
    for _ in range(3):
        move = p.legal_moves(st)[0]
        chosen.append(p.decisions[0].cards.bind(st, move))     # the cards the seat picks, as ids
        p.play(st, move)
    for s in range(3):
        received = chosen[(s - 1) % 3]
        assert sorted(st.zones[hands[s]]) == sorted([c for c in before[s] if c not in chosen[s]] + received)


def test_undo_in_hot_seat_does_not_tell_a_later_seat_an_earlier_seats_choice(write):
    game = load_game(write(OFFERS))
    out = io.StringIO()
    lines = iter(["", "1", "c", "", "u", "q", "y"])     # seat 0 offers; seat 1 tries to undo, then quits
    s = Session(game, 2, 3, {}, ask=lambda prompt: next(lines),
                console=Console(file=out, width=200, highlight=False, color_system=None))
    chosen = s.program.move_text(s.st, s.shown_moves(s.program.legal_moves(s.st)).entries[0][1])
    s.run()
    seat1 = out.getvalue()[out.getvalue().index("— pass to seat 1 —"):]
    assert "nothing to undo: seat 0 decided since your last move" in seat1 and f"'{chosen}'" not in seat1
