"""Bots (interpreter/seats/bots.py), mostly on R-Eco: they decide from what their seat may know.

- Leak test: permuting the cards a seat cannot see (within and across the zones hidden from it,
  sizes kept) never changes the seat's determinised copies or any bot's decision for the same seed,
  with and without the event log (with it, determinisation uses the seat's perfect-memory view);
  for every bot (ours, ismcts included, and the manual's example bot) on every shipped ruleset.
- The copy a Seat keeps is the same wherever the hidden cards lie, and deals the very worlds the
  real state would.
- Determinisation keeps the visible zones, every hidden zone's size, the seat's guaranteed cards (K)
  and known positions, and the multiset of hidden cards.
- automa: legal moves only, reproducible from its seed, and clearly better than random (the
  2,000-game comparisons with greedy are a soak test and reported numbers, not the default run).
"""
import collections
import os
import random

import pytest

from interpreter.compiler.game import load_game
from interpreter.seats import BOTS, make_bot
from interpreter.seats.worlds import determinise, sanitised
from interpreter.tools.records import play_game
from interpreter.seats.views import view_of
from helpers import game, program
from test_cli import ROOT


def hidden_zones(prog, seat: int) -> list:
    return [z for z, vis in enumerate(prog.zone_vis) if not vis >> seat & 1]


def permute_hidden(prog, st, seat: int, rnd: random.Random, keep=()):
    """A copy of st with the cards hidden from `seat` permuted within and across the zones hidden
    from it (but those in `keep`), every zone keeping its size; loc follows, and so do the rules'
    names for cards (a local bound to the top card names the new top card). Log and all else
    unchanged."""
    other = st.clone()
    zones = [z for z in hidden_zones(prog, seat) if z not in keep]
    cards = [c for z in zones for c in other.zones[z]]
    rnd.shuffle(cards)
    i = 0
    for z in zones:
        n = len(other.zones[z])
        other.zones[z][:] = cards[i:i + n]
        i += n
        for c in other.zones[z]:
            other.loc[c] = z
    now = {old: new for z in zones for old, new in zip(st.zones[z], other.zones[z])}
    for slot in prog.card_slots:
        other.vars[slot] = renamed(other.vars[slot], now)
    return other


def renamed(value, now: dict):
    """value with card ids replaced as `now` says, in lists of any depth."""
    return [renamed(v, now) for v in value] if isinstance(value, list) else now.get(value, value)


def seeded_states(players: int, games: int, log: bool, per_game: int = 3, prog=None, span=(4, 60)):
    """(program, state) at decisions with a choice, from seeded random games (R-Eco unless prog
    is given), stopping per_game times at random moves within span."""
    prog = prog or program(players)
    out = []
    for seed in range(games):
        st = prog.new_state(seed, log=log)
        rnd = random.Random(seed)
        stops = sorted(rnd.sample(range(*span), per_game))
        step = 0
        while not st.over and stops:
            moves = prog.legal_moves(st)
            if step == stops[0]:
                stops.pop(0)
                if len(moves) > 1:
                    out.append((prog, st.clone()))
            prog.apply(st, moves[rnd.randrange(len(moves))])
            step += 1
    return out


@pytest.mark.parametrize("log", [False, True], ids=["pooled", "with-view"])
@pytest.mark.parametrize("players", [2, 4])
def test_permuting_hidden_cards_never_changes_a_decision(players, log):
    rnd = random.Random(players * 10 + log)
    checked = changed = 0
    for prog, st in seeded_states(players, 12 if players == 2 else 8, log):
        seat = st.decider
        moves = prog.legal_moves(st)
        for trial in range(2):
            other = permute_hidden(prog, st, seat, rnd)
            changed += other.zones != st.zones
            assert prog.legal_moves(other) == moves          # the seat's options are its own
            seed = rnd.getrandbits(32)
            # the determinised copies themselves are the same
            view = view_of(prog, st.log, seat) if log else None
            a = determinise(prog, st, seat, random.Random(seed), view)
            b = determinise(prog, other, seat, random.Random(seed), view)
            assert a.zones == b.zones and a.loc == b.loc
            for name in ("greedy", "automa", "memory", "ismcts:iterations=20,depth=8"):
                assert (make_bot(name, seed).choose(prog, st, moves)
                        == make_bot(name, seed).choose(prog, other, moves)), (name, seat, st.turn)
            checked += 1
    assert checked >= 20 and changed >= checked // 2


SHIPPED = ["r_eco", "lixo", "lixo_two_colour", "sorting_memo"]
EXAMPLE = os.path.join(ROOT, "docs", "examples", "cautious_bot.py") + ":Cautious"
EVERY_BOT = [n for n in sorted(BOTS) if n != "ismcts"] + ["ismcts:iterations=20,depth=8", EXAMPLE]


@pytest.mark.parametrize("spec", EVERY_BOT, ids=lambda s: s.rsplit("/", 1)[-1])
@pytest.mark.parametrize("ruleset", SHIPPED)
def test_permuting_the_cards_a_seat_cannot_see_changes_no_decision_of_any_bot(ruleset, spec):
    """Every bot, ours and the manual's example, on every shipped ruleset: the cards hidden from the
    deciding seat shuffled within and across the zones hidden from it (the seat's events kept)."""
    prog = load_game(os.path.join(ROOT, "rulesets", f"{ruleset}.yaml")).program(3)
    rnd = random.Random(SHIPPED.index(ruleset))
    checked = changed = 0
    for _, st in seeded_states(3, 4, log=True, prog=prog, span=(2, 40)):
        seat, moves = st.decider, prog.legal_moves(st)
        other = permute_hidden(prog, st, seat, rnd)
        changed += other.zones != st.zones
        assert prog.legal_moves(other) == moves          # the seat's options are its own
        seed = rnd.getrandbits(32)
        assert make_bot(spec, seed).choose(prog, st, moves) == make_bot(spec, seed).choose(prog, other, moves), \
            (seat, st.turn)
        checked += 1
    assert checked >= 6 and changed >= checked // 2


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_the_copy_a_seat_keeps_is_the_same_wherever_the_hidden_cards_lie(ruleset):
    prog = load_game(os.path.join(ROOT, "rulesets", f"{ruleset}.yaml")).program(3)
    rnd = random.Random(1)
    for _, st in seeded_states(3, 3, log=True, prog=prog, span=(2, 40)):
        seat = st.decider
        a, b = sanitised(prog, st, seat), sanitised(prog, permute_hidden(prog, st, seat, rnd), seat)
        assert a == b and a.log is None and a.rng != st.rng


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_a_world_dealt_from_the_seats_copy_is_the_world_dealt_from_the_real_state(ruleset):
    """The same generator deals the very same world from either: no bot's decision changes."""
    prog = load_game(os.path.join(ROOT, "rulesets", f"{ruleset}.yaml")).program(3)
    for _, st in seeded_states(3, 3, log=True, prog=prog, span=(2, 40)):
        seat = st.decider
        view, base = view_of(prog, st.log, seat), sanitised(prog, st, seat)
        for seed in range(3):
            a = determinise(prog, st, seat, random.Random(seed), view)
            b = determinise(prog, base, seat, random.Random(seed), view)
            assert a == b


@pytest.mark.parametrize("players", [2, 3, 4])
def test_determinised_copy_keeps_what_the_seat_knows(players):
    """Visible zones as they are; hidden zones keep size, hold their K and known positions; the
    hidden cards as a whole are the same set (only their places change)."""
    prog = program(players)
    gen = random.Random(players)
    for prog_, st in seeded_states(players, 6, log=True):
        seat = st.decider
        view = view_of(prog, st.log, seat)
        copy = determinise(prog, st, seat, gen, view)
        hidden = set(hidden_zones(prog, seat))
        assert sorted(c for z in hidden for c in copy.zones[z]) == sorted(c for z in hidden for c in st.zones[z])
        for z in range(len(prog.zone_names)):
            if z not in hidden:
                assert copy.zones[z] == st.zones[z]
                continue
            types = [prog.card_type[c] for c in copy.zones[z]]
            assert len(types) == len(st.zones[z])
            assert not view.known_cards(z) - collections.Counter(types), prog.zone_names[z]
            for i, t in view.known_positions(z).items():
                assert types[i] == t
            for c in copy.zones[z]:
                assert copy.loc[c] == z
        # the unused rewards stay where the seat knows they are (the box's K is exact)
        box = prog.zone_names.index("box")
        assert sorted(prog.card_type[c] for c in copy.zones[box]) == sorted(prog.card_type[c] for c in st.zones[box])


def test_automa_is_registered_and_returns_legal_moves():
    assert "automa" in BOTS
    for players in (2, 3, 5):
        prog = program(players)
        for log in (False, True):
            st = prog.new_state(players, log=log)
            bots = [make_bot("automa" if k == 0 else "random", k) for k in range(players)]
            decisions = 0
            while not st.over and decisions < 40:
                moves = prog.legal_moves(st)
                move = bots[st.decider].choose(prog, st, moves)
                assert move in moves
                prog.play(st, move)                # play() checks legality again
                decisions += 1


def test_automa_same_seed_same_decisions():
    def game_moves(seed):
        _, st, moves = play_game(game(), 2, 7, [make_bot("automa", seed), make_bot("greedy", 3)], record=True)
        return moves
    first = game_moves(11)
    assert first == game_moves(11)
    assert any(seat == 0 for seat, _ in first)


def head_to_head(names: list, games: int, seed: int = 1, log: bool = False) -> list:
    """Win shares by seat (a shared win split evenly)."""
    wins = [0.0] * len(names)
    for g in range(games):
        bots = [make_bot(n, seed * 1000 + g * 10 + k) for k, n in enumerate(names)]
        prog, st, _ = play_game(game(), len(names), seed * 100_000 + g, bots, log=log)
        winners = prog.result(st)["winners"]
        for k in winners:
            wins[k] += 1 / len(winners)
    return [w / games for w in wins]


def test_automa_beats_random_clearly():
    a = head_to_head(["automa", "random"], 12)
    b = head_to_head(["random", "automa"], 12)
    assert (a[0] + b[1]) / 2 >= 0.8, (a, b)


@pytest.mark.soak
def test_soak_automa_beats_greedy():
    a = head_to_head(["automa", "greedy"], 200, seed=2)
    b = head_to_head(["greedy", "automa"], 200, seed=2)
    assert (a[0] + b[1]) / 2 > 0.6, (a, b)
    c = head_to_head(["automa", "greedy", "greedy", "greedy"], 100, seed=2)
    assert c[0] > 0.35, c


def test_every_seats_evaluation_in_one_call_is_each_seats_own():
    """program.evaluations(st) gives, in seat order, what program.evaluate(st, seat) gives."""
    for prog, st in seeded_states(4, 3, log=False):
        assert prog.evaluations(st) == [prog.evaluate(st, p) for p in range(prog.players)]


def test_a_margin_is_worked_out_anew_after_a_move():
    """The evaluations a bot caches on a copy hold only until a move is applied to it."""
    from interpreter.seats.bots import margin
    for prog, st in seeded_states(2, 4, log=False, span=(10, 60)):
        trial = st.clone()
        margin(prog, trial, 0)
        prog.apply(trial, prog.legal_moves(trial)[0])
        fresh = trial.clone()
        assert margin(prog, trial, 0) == margin(prog, fresh, 0) \
            == prog.evaluate(fresh, 0) - prog.evaluate(fresh, 1)


def test_the_bots_shuffle_and_draw_as_the_generator_does():
    """determinise's shuffle and draws take the generator's very draws (same seed, same copies)."""
    from interpreter.seats.worlds import below, shuffle
    a, b = random.Random(11), random.Random(11)
    for n in range(0, 300, 7):
        x, y = list(range(n)), list(range(n))
        a.shuffle(x)
        shuffle(b, y)
        assert x == y
        if n:
            assert a.randrange(n) == below(b, n)
    assert a.random() == b.random()


def test_a_copy_without_its_log_keeps_the_game_and_drops_the_log():
    for prog, st in seeded_states(3, 2, log=True):
        copy = st.clone(log=False)
        assert copy == st and copy.log is None and copy.chance is None and copy.script is None


def test_the_random_bot_draws_as_randrange_does():
    import random
    from interpreter.seats import make_bot
    from types import SimpleNamespace
    bot, gen = make_bot("random", 12345).bot, random.Random(12345)
    moves = list(range(1000))
    for n in (2, 3, 7, 64, 1000):
        seat = SimpleNamespace(moves=moves[:n])     # the random bot reads only the legal moves
        assert [bot.choose(seat) for _ in range(50)] == [gen.randrange(n) for _ in range(50)]


def test_a_roll_out_decides_a_large_choice_among_tries_moves_drawn_at_random(monkeypatch):
    """In a roll-out, a decision of more than `tries` legal moves is decided greedily among
    `tries` of them drawn at random; a smaller one among all of its moves."""
    from interpreter.seats import bots
    tried = []
    real = bots.best_trials

    def counting(program, st, moves, seat, **options):
        tried.append((len(program.legal_moves(st)), len(moves), all(m in program.legal_moves(st) for m in moves)))
        return real(program, st, moves, seat, **options)
    monkeypatch.setattr(bots, "best_trials", counting)
    for prog, st in seeded_states(3, 12, log=False, span=(4, 80)):
        bots.rollout(prog, st.clone(), st.decider, st.turn, random.Random(5), 12, [None], tries=4)
    assert any(legal > 4 for legal, _, _ in tried) and any(legal <= 4 for legal, _, _ in tried)
    for legal, used, legal_only in tried:
        assert used == min(legal, 4) and legal_only


def test_memory_evaluates_only_the_gambles_it_values(monkeypatch):
    """Gambles are valued by the mean one-step margin of up to `all_gambles` of them, drawn at
    random when there are more: no other gamble's copy is evaluated."""
    from interpreter.seats import bots
    from memo_helpers import start
    prog, st = start(2)
    moves = prog.legal_moves(st)
    bot = make_bot("memory", 3)
    monkeypatch.setattr(bot, "all_gambles", 5)
    monkeypatch.setattr(bot, "budget", 0)
    monkeypatch.setattr(bot, "depth", 1)
    evaluated = []
    real = bots.margin

    def counting(program, state, seat):
        evaluated.append(id(state))
        return real(program, state, seat)
    monkeypatch.setattr(bots, "margin", counting)
    assert len(moves) > 5
    assert bot.choose(prog, st, moves) in moves
    assert len(set(evaluated)) == 5     # every first card is a gamble at the start: five valued


def test_a_look_ahead_that_spares_its_copy_finds_the_same_best_moves_and_states():
    """best_trials with spare=True plays its last move on the state itself, not a copy: the best
    moves, and the states they lead to, are those of the look-ahead that copies every time."""
    from interpreter.seats.bots import best_trials
    compared = 0
    for prog, st in seeded_states(2, 6, log=False) + seeded_states(4, 6, log=False):
        moves = prog.legal_moves(st)
        plain = st.clone()
        best, trials = best_trials(prog, plain, moves, st.decider)
        best2, trials2 = best_trials(prog, st.clone(), moves, st.decider, spare=True)
        assert best2 == best and trials2 == trials
        assert plain == st                      # the state passed without spare is left as it was
        compared += len(moves) > 1
    assert compared > 10
