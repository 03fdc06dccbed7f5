"""The run-time's quick ways of doing common things (a shuffle's draws made in C, a deal without an
event log, a chosen move bound to cards in C, a decision's generated bind, the random bots' draws
made by play_out) do exactly what the plain way does: the same cards in the same places, the same
generator state after."""
from __future__ import annotations

import random
from pathlib import Path

from interpreter.compiler.game import load_game
from interpreter.runtime import engine as E
from interpreter.runtime import rng
from interpreter.runtime.decisions import CardSpec

ROOT = Path(__file__).resolve().parent.parent


def plain_shuffle(items: list, state: int) -> int:
    """Fisher–Yates as rng.py describes it, one draw at a time."""
    gen = random.Random(state)
    for i in range(len(items) - 1, 0, -1):
        j = int(gen.random() * (i + 1))
        items[i], items[j] = items[j], items[i]
    return gen.getrandbits(64)


def test_a_shuffle_is_fisher_yates_on_the_generators_draws_and_leaves_the_same_state():
    for n in (0, 1, 2, 3, 17, 180, 1000):
        for seed in range(20):
            state = rng.seed_state(seed)
            mine, plain = list(range(n)), list(range(n))
            assert rng.shuffle(mine, state) == plain_shuffle(plain, state)
            assert mine == plain


def lixo_start(seed: int, log: bool):
    program = load_game(str(ROOT / "rulesets" / "lixo.yaml")).program(4)
    return program, program.new_state(seed, log=log)


def test_a_deal_without_an_event_log_puts_every_card_where_a_logged_deal_does():
    for seed in range(5):
        program, logged = lixo_start(seed, True)
        quiet = logged.clone(log=False)
        first, pile, hands = 2, program.zone_names.index("garbage"), program.zone_names.index("hand(0)")
        for st in (logged, quiet):
            E.deal(st, 5, pile, first, hands, 1, 4, None, program.zone_vis)
        assert quiet.zones == logged.zones and quiet.loc == logged.loc
        dealt = [e for e in logged.log[-20:] if e[0] == E.MOVE]
        assert len(dealt) == 20 and [e[2] for e in dealt[:4]] == [hands + 2, hands + 3, hands, hands + 1]


def test_a_bound_move_takes_the_topmost_candidates_of_each_type_in_the_payloads_order():
    # cards 0..7 of types 0, 1, 0, 2, 1, 0, 2, 0 lying in that order (bottom first)
    types = [0, 1, 0, 2, 1, 0, 2, 0]
    spec = CardSpec(None, types, ["a", "b", "c"])
    spec.candidates = lambda st: [0, 1, 2, 3, 4, 5, 6, 7]
    assert spec.bind(None, ((2, 1), (0, 3))) == [6, 2, 5, 7]
    assert spec.bind(None, ((1, 2),)) == [1, 4]
    assert spec.bind(None, ()) == []


def test_a_decisions_own_bind_stores_what_the_plain_bind_does():
    """The generated bind of every kind of decision (a value, cards, an option with cards) leaves the
    state Decision.bind leaves, for every legal move at the decisions of a played game."""
    from interpreter.runtime.decisions import Decision
    kinds = set()
    for name in ("lixo", "r_eco", "sorting_memo"):
        program = load_game(str(ROOT / "rulesets" / f"{name}.yaml")).program(2)
        st, gen = program.new_state(5), random.Random(5)
        for _ in range(300):
            if st.over:
                break
            dec = st.pending
            legal = program.legal_moves(st)
            for move in legal[:12]:
                own, plain = st.clone(), st.clone()
                dec.bind(own, move)
                Decision.bind(dec, plain, move)
                assert own == plain, (name, dec.name, move)
            kinds.add(dec.kind)
            program.apply(st, legal[gen.randrange(len(legal))])
    assert kinds == {"value", "cards", "options"}


def test_random_draws_made_by_play_out_are_the_draws_the_random_bots_make():
    """play_out drawing the random bots' moves itself (RandomBot.draws) plays the very game that asking
    each bot's choose_from plays: the same moves, the same end."""
    from interpreter.seats.bots import RandomBot
    for name, players in (("lixo", 4), ("r_eco", 3), ("sorting_memo", 2)):
        program = load_game(str(ROOT / "rulesets" / f"{name}.yaml")).program(players)
        games = []
        for inline in (True, False):
            choosers = [RandomBot(rng.derive(9, k)).choose_from for k in range(players)]
            draws = RandomBot.draws(choosers)
            assert draws is not None
            st, moves = program.new_state(9), []
            program.play_out(st, choosers, moves, draws=draws if inline else None)
            games.append((moves, program.result(st)))
        assert games[0] == games[1] and len(games[0][0]) > 10, name


def test_play_out_draws_nothing_itself_for_a_chooser_that_is_not_a_plain_random_bot():
    from interpreter.seats.bots import RandomBot
    assert RandomBot.draws([RandomBot(1).choose_from, lambda moves: moves[0]]) is None
