"""The worlds of one decision share their dealer (interpreter/seats/worlds.py, Dealer).

- A Seat's copy (sanitised) works out once what all its worlds share (the hidden zones and cards,
  the places the seat's knowledge fixes, the cards left to deal): every world it deals, the first
  and the later ones, is the world determinise deals afresh with the same generator, and gives the
  same cards dealt from the seat's knowledge; on every shipped ruleset and on examples whose rules
  tell facts and announce what zones hold none of, with and without the seat's view.
- A world played on changes none of the worlds dealt after it (they share no list with it).
- A Dealer's plan (what the seat's knowledge fixes, worked out once) deals the very world the deal
  without a plan (_deal_with_knowledge, every place worked out at each world) deals.
"""
import os
import random

import pytest

from interpreter.compiler.game import load_game
from interpreter.seats.views import view_of
from interpreter.seats.worlds import KNOWN, TOLD, Base, Dealer, determinise, sanitised
from test_bots import seeded_states
from test_cli import ROOT

RULESETS = [("rulesets/r_eco.yaml", 3), ("rulesets/lixo.yaml", 4), ("rulesets/lixo_two_colour.yaml", 3),
            ("rulesets/sorting_memo.yaml", 2), ("rulesets/examples/fireworks.yaml", 3),
            ("rulesets/examples/love_letter.yaml", 3), ("rulesets/examples/court_intrigue.yaml", 3),
            ("rulesets/examples/hearts.yaml", 4)]


def states(path: str, players: int) -> list:
    prog = load_game(os.path.join(ROOT, path)).program(players)
    return seeded_states(players, 3, log=True, prog=prog, span=(2, 40))


@pytest.mark.parametrize("with_view", [True, False], ids=["with-view", "pooled"])
@pytest.mark.parametrize("path,players", RULESETS, ids=[os.path.basename(p) for p, _ in RULESETS])
def test_every_world_of_a_seats_copy_is_the_world_determinise_deals_afresh(path, players, with_view):
    for prog, st in states(path, players):
        seat = st.decider
        view = view_of(prog, st.log, seat) if with_view else None
        base = sanitised(prog, st, seat)
        plain = base.clone()                    # a State, not a Base: each determinise deals afresh
        assert type(base) is Base and type(plain) is not Base
        shared, fresh = random.Random(5), random.Random(5)
        for _ in range(4):
            known_shared, known_fresh = set(), set()
            a = determinise(prog, base, seat, shared, view, known_shared)
            b = determinise(prog, plain, seat, fresh, view, known_fresh)
            assert a == b and known_shared == known_fresh
        assert shared.random() == fresh.random()    # the very same draws were taken


@pytest.mark.parametrize("path,players", RULESETS[:4], ids=[os.path.basename(p) for p, _ in RULESETS[:4]])
def test_a_world_played_on_changes_none_of_the_worlds_dealt_after_it(path, players):
    for prog, st in states(path, players):
        seat = st.decider
        view = view_of(prog, st.log, seat)
        base = sanitised(prog, st, seat)
        plain = base.clone()
        shared, fresh = random.Random(9), random.Random(9)
        for _ in range(3):
            world = determinise(prog, base, seat, shared, view)
            assert world == determinise(prog, plain, seat, fresh, view)
            while not world.over and world.turn <= st.turn + 1:     # play it on, moving dealt cards
                moves = prog.legal_moves(world)
                prog.apply(world, moves[len(moves) // 2])
        assert base == sanitised(prog, st, seat)     # the Seat's copy itself is untouched


@pytest.mark.parametrize("path,players", RULESETS, ids=[os.path.basename(p) for p, _ in RULESETS])
def test_a_dealers_plan_deals_the_world_the_deal_without_a_plan_deals(path, players):
    planned = 0
    for prog, st in states(path, players):
        seat = st.decider
        view = view_of(prog, st.log, seat)
        base = sanitised(prog, st, seat)
        plan, without = Dealer(prog, base, seat, view), Dealer(prog, base, seat, view)
        if plan.mode != KNOWN:
            continue
        without.mode = TOLD                     # told nothing: the deal of every place afresh
        a, b = random.Random(3), random.Random(3)
        for _ in range(3):
            known_a, known_b = set(), set()
            assert plan.deal(base, a, known_a) == without.deal(base, b, known_b) and known_a == known_b
        assert a.random() == b.random()
        planned += 1
    assert planned >= 2


def test_the_dealers_own_shuffle_and_draws_are_the_generators_very_draws():
    """worlds._shuffle (the generator's draws inlined) shuffles as Random.shuffle does,
    at every size; so this Python deals with it, not with Random's slower own methods."""
    from interpreter.seats import worlds
    for n in range(300):
        a, b = random.Random(n), random.Random(n)
        x, y = list(range(n)), list(range(n))
        a.shuffle(x)
        worlds._shuffle(b, y)
        assert x == y and a.random() == b.random(), n
    assert worlds.shuffle is worlds._shuffle and worlds.below is worlds._below


def test_a_free_place_with_no_card_left_is_an_error_never_an_endless_draw():
    from interpreter.seats.worlds import _deal_free
    placed = {0: [None, None]}
    with pytest.raises(ValueError):
        _deal_free([(0, 0), (0, 1)], placed, {"any": [7]}, None, random.Random(1))
    assert placed[0][0] == 7


def test_a_random_bot_given_no_move_raises_never_draws_for_ever():
    from interpreter.seats.bots import RandomBot
    bot = RandomBot(1)
    with pytest.raises(IndexError):
        bot.choose_from([])
    assert bot.choose_from(["only"]) == "only"
