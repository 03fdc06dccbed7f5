"""ismcts (interpreter/seats/ismcts.py): single-observer information-set MCTS from the seat's knowledge.

- Every iteration draws a new world from the seat's knowledge (determinise with its view); with
  reuse=k every k iterations, each iteration on its own copy of it.
- A child's availability counts the iterations in which its move was legal at its parent; a move
  illegal in a world is neither counted available nor chosen there.
- Nodes are keyed by the acting seat's move, so the nodes of other seats' moves are shared across worlds.
- The move played is the root's most visited child.
- Payoffs: the win share when the game is over, the margin squashed into [0, 1] at the cut-off
  (payoff=gain: the margin gained since the decision).
- Moves are rated one step ahead on the seat's knowledge: a move that shows a guessed card is worth
  the mean of such moves, a sure one its own margin; with look, a move after which the seat decides
  again is worth its best next move. The best-rated untried move is tried first; one rated worse
  than the best tried waits until widening lets it in.
- Same seed, same choice; the budget is iterations, or seconds when given.
- It plays legal moves in every shipped ruleset, and beats random clearly.
The leak test (permuting hidden cards changes no decision) runs for ismcts in test_bots.py.
"""
import os
import random
import time
from types import SimpleNamespace

import pytest

from interpreter.compiler.game import load_game
from interpreter.errors import UsageError
from interpreter.runtime.engine import MOVE
from interpreter.seats import ismcts
from interpreter.seats import seat as seat_module
from interpreter.seats import make_bot
from interpreter.seats.bots import hidden_cards
from interpreter.seats.ismcts import IsmctsBot, Moves, Node, move_key
from interpreter.seats.worlds import margin
from interpreter.seats.views import View
from interpreter.tools.records import play_game
from helpers import game
from test_bots import head_to_head, seeded_states

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHIPPED = [("r_eco.yaml", 4), ("lixo.yaml", 4), ("sorting_memo.yaml", 2), ("lixo_two_colour.yaml", 3)]


class Pending:
    index = 0


class World:
    """A one-decision game: `decider` chooses among `legal`, and the game is over."""

    evals = moves = None        # what the bots' evaluation cache reads

    def __init__(self, legal: list, decider: int = 1):
        self.legal, self.decider, self.pending, self.over, self.played = legal, decider, Pending(), False, None


class OneDecision:
    """The program of World: the mover of ('win',) wins, else seat 0 does."""

    players, cooperative_fn = 2, None     # each seat for itself, as a Program of such a game
    eval_reads = eval_cache = None        # no cache of evaluations

    def legal_moves(self, world):
        return list(world.legal)

    def apply(self, world, move):
        world.played, world.over = move, True

    def result(self, world):
        return {"winners": [world.decider if world.played == ("win",) else 0]}

    def evaluations(self, world):       # payoff=gain reads every seat's value before an iteration
        return [0, 0]


def test_every_iteration_draws_a_new_world_from_the_seats_knowledge(monkeypatch):
    prog, st = next((p, s) for p, s in seeded_states(2, 3, log=True) if len(p.legal_moves(s)) > 1)
    drawn = []
    real = seat_module.determinise

    def counting(program, state, seat, gen, view=None, known=None):
        drawn.append((state, seat, view))
        return real(program, state, seat, gen, view, known)
    monkeypatch.setattr(seat_module, "determinise", counting)
    make_bot("ismcts:iterations=17,reuse=1", 3).choose(prog, st, prog.legal_moves(st))
    assert len(drawn) == 17
    # every world is dealt from the seat's one sanitised copy, never from the real state
    assert all(s is drawn[0][0] and s is not st and seat == st.decider and isinstance(view, View)
               for s, seat, view in drawn)


def test_with_reuse_a_world_is_dealt_every_reuse_iterations_each_played_on_its_own_copy(monkeypatch):
    prog, st = next((p, s) for p, s in seeded_states(2, 3, log=True) if len(p.legal_moves(s)) > 1)
    drawn, played = [], []
    real_deal, real_iterate = seat_module.determinise, IsmctsBot.iterate

    def counting(*a):
        drawn.append(real_deal(*a))
        return drawn[-1]

    def iterate(self, program, world, root, known=None, dealt=None):
        played.append((world, world.clone(log=False).zones, len(drawn)))
        return real_iterate(self, program, world, root, known, dealt)
    monkeypatch.setattr(seat_module, "determinise", counting)
    monkeypatch.setattr(IsmctsBot, "iterate", iterate)
    make_bot("ismcts:iterations=10,reuse=4", 3).choose(prog, st, prog.legal_moves(st))
    assert len(drawn) == 3 and len(played) == 10        # worlds for iterations 0-3, 4-7, 8-9
    assert [n for _, _, n in played] == [1] * 4 + [2] * 4 + [3] * 2
    assert len({id(w) for w, _, _ in played}) == 10     # a copy each: no iteration plays on another's
    assert all(w is not drawn[n - 1] and zones == drawn[n - 1].zones for w, zones, n in played)


def test_what_the_copies_of_one_dealt_world_start_from_is_worked_out_once_and_is_what_each_copy_would_give(monkeypatch):
    prog, st = next((p, s) for p, s in seeded_states(2, 3, log=True) if len(p.legal_moves(s)) > 1)
    given, real_iterate = [], IsmctsBot.iterate

    def iterate(self, program, world, root, known=None, dealt=None):
        given.append((dealt, self.dealt(program, world, known)))
        return real_iterate(self, program, world, root, known, dealt)
    monkeypatch.setattr(IsmctsBot, "iterate", iterate)
    make_bot("ismcts:iterations=8,reuse=4", 3).choose(prog, st, prog.legal_moves(st))
    assert len(given) == 8 and given[0][0] is given[3][0] and given[4][0] is given[7][0]
    assert all(once == fresh for once, fresh in given)
    assert given[0][0][0] is not None and given[0][0][1] is not None    # the default rates moves: payoff=gain


def test_a_move_illegal_in_a_world_is_not_counted_available():
    bot, prog, root = IsmctsBot(5), OneDecision(), Node(0)
    x, y, z = ("x",), ("y",), ("z",)
    expected = {}
    for i in range(40):
        legal = [x, y] if i % 2 == 0 else [x, z]        # y is legal in even worlds only, z in odd ones
        keys = [move_key(prog, World(legal), m) for m in legal]
        existed = {k for k in keys if k in root.children}
        bot.iterate(prog, World(legal), root)
        for k in keys:
            if k in root.children:
                expected[k] = expected.get(k, 0) + 1 if k in existed else 1
    for k, child in root.children.items():
        assert child.avail == expected[k], k
    ky, kz = move_key(prog, World([y]), y), move_key(prog, World([z]), z)
    assert root.children[ky].avail <= 20 and root.children[kz].avail <= 20
    assert root.children[move_key(prog, World([x]), x)].avail > 20


def test_a_move_illegal_in_a_world_is_never_chosen_there():
    bot, prog, root = IsmctsBot(2), OneDecision(), Node(0)
    win, lose, other = ("win",), ("lose",), ("other",)
    for _ in range(10):
        bot.iterate(prog, World([win, lose]), root)     # win becomes the best child by far
    world = World([lose, other])
    bot.iterate(prog, world, root)
    assert world.played in (lose, other)


def test_nodes_are_keyed_by_the_acting_seats_move_and_shared_across_worlds():
    bot, prog, root = IsmctsBot(1), OneDecision(), Node(0)
    for legal in ([("a",), ("b",)], [("b",), ("c",)], [("a",), ("c",)]) * 4:
        bot.iterate(prog, World(legal, decider=1), root)
    assert sorted(k[2] for k in root.children) == [("a",), ("b",), ("c",)]
    assert all(k[0] == 1 and child.mover == 1 for k, child in root.children.items())
    assert sum(child.visits for child in root.children.values()) == 12


class TurnThenGuess:
    """Seat 0 turns a card (its type differs from world to world) or waits, then guesses a or b;
    it wins when its guess fits the card (a for type 0, b for type 1)."""

    players, card_type, cooperative_fn = 2, [0, 1], None
    eval_reads = eval_cache = None

    def legal_moves(self, world):
        return [("turn",), ("wait",)] if world.stage == 0 else [("a",), ("b",)]

    def apply(self, world, move):
        if world.stage == 0:
            if move == ("turn",) and world.log is not None:
                world.log.append((MOVE, 0, 1, (world.kind,), 1))       # seen by seat 0 only
            world.stage, world.pending = 1, Pending1()
        else:
            world.over, world.played = True, move

    def result(self, world):
        return {"winners": [0 if (world.played == ("a",)) == (world.kind == 0) else 1]}

    def evaluations(self, world):
        return [0, 0]


class Pending1:
    index = 1


def guessing_world(kind: int):
    w = World([], decider=0)
    w.kind, w.stage, w.log = kind, 0, None
    return w


def test_the_seats_later_decisions_are_apart_by_what_it_saw():
    prog = TurnThenGuess()
    turn = (0, 0, ("turn",))
    for nodes in ("seen", "moves"):
        bot, root = make_bot(f"ismcts:nodes={nodes}", 4), Node(0)      # seat 0 observes
        for i in range(80):
            bot.iterate(prog, guessing_world(i % 2), root)
        after = root.children[turn]
        if nodes == "moves":
            assert after.shown is None and after.children
            continue
        assert not after.children and sorted(after.shown) == [((1, 0),), ((1, 1),)]
        for kind, right, wrong in ((0, "a", "b"), (1, "b", "a")):
            branch = after.shown[((1, kind),)]
            good, bad = branch[(0, 1, (right,))], branch[(0, 1, (wrong,))]
            assert good.total / good.visits == 1.0 and bad.total == 0 and good.visits > bad.visits


def test_what_the_seat_saw_is_the_card_moves_it_sees():
    prog = game().program(2)
    st = prog.new_state(1, log=True)
    while len(prog.legal_moves(st)) == 1:
        prog.apply(st, prog.legal_moves(st)[0])
    seat = st.decider
    mark = len(st.log)
    prog.apply(st, prog.legal_moves(st)[0])
    for k in range(2):
        shown = ismcts.seen(prog, st.log, mark, k)
        expect = [(e[2],) + tuple(sorted(prog.card_type[c] for c in e[3])) for e in st.log[mark:]
                  if e[0] == MOVE and e[4] >> k & 1]
        assert shown == (tuple(expect) or None)
    assert ismcts.seen(prog, st.log, len(st.log), seat) is None


def test_the_move_played_is_the_most_visited():
    bot, prog, root = IsmctsBot(1), OneDecision(), Node(0)
    moves = [("a",), ("b",), ("c",)]
    st = World(moves, decider=0)
    for m, visits in zip(moves, (3, 9, 5)):
        n = root.children[move_key(prog, st, m)] = Node(0)
        n.visits, n.total = visits, visits * 0.1
    seat = SimpleNamespace(number=st.decider, decision=st.pending.index, moves=moves,
                           text=lambda m: prog.move_text(st, m))
    assert bot.most_visited(seat, root) == ("b",)


def test_a_finished_world_pays_the_win_share_and_a_cut_off_the_squashed_margin():
    bot = IsmctsBot(1)
    _, over, _ = play_game(game(), 3, 4, [make_bot("random", k) for k in range(3)])
    prog = game().program(3)
    winners = prog.result(over)["winners"]
    assert bot.payoffs(prog, over) == [1 / len(winners) if p in winners else 0.0 for p in range(3)]
    for _, st in seeded_states(3, 4, log=False, span=(30, 60)):
        values = prog.evaluations(st)
        r = bot.payoffs(prog, st)
        assert all(0 <= v <= 1 for v in r)
        leader = max(range(3), key=values.__getitem__)
        if values.count(values[leader]) == 1:
            assert r[leader] > 0.5 and r[leader] == max(r)


def test_same_seed_same_choice():
    for prog, st in seeded_states(2, 4, log=True):
        moves = prog.legal_moves(st)
        assert make_bot("ismcts:iterations=25", 8).choose(prog, st, moves) == \
            make_bot("ismcts:iterations=25", 8).choose(prog, st, moves)

    def game_moves():
        return play_game(game(), 2, 3, [make_bot("ismcts:iterations=10,depth=6", 4), make_bot("greedy", 1)],
                         record=True)[2]
    assert game_moves() == game_moves()


def test_a_time_budget_runs_iterations_until_the_time_is_up(monkeypatch):
    prog, st = next((p, s) for p, s in seeded_states(2, 3, log=True) if len(p.legal_moves(s)) > 1)
    counted = []
    real = IsmctsBot.iterate
    monkeypatch.setattr(IsmctsBot, "iterate", lambda self, *a: counted.append(1) or real(self, *a))
    start = time.perf_counter()
    move = make_bot("ismcts:seconds=0.2,iterations=1", 3).choose(prog, st, prog.legal_moves(st))
    spent = time.perf_counter() - start
    assert move in prog.legal_moves(st)
    assert 0.2 <= spent < 1.5 and len(counted) > 1       # more than `iterations`: the time decides


@pytest.mark.parametrize("ruleset, players", SHIPPED)
@pytest.mark.parametrize("rollout", ["random", "greedy", "informed"])
def test_it_plays_only_legal_moves_in_every_shipped_ruleset(ruleset, players, rollout):
    g = load_game(os.path.join(ROOT, "rulesets", ruleset))
    prog = g.program(players)
    st = prog.new_state(7, log=True)
    bots = [make_bot(f"ismcts:iterations=8,depth=6,rollout={rollout}" if k == 0 else "random", k)
            for k in range(players)]
    decided = 0
    while not st.over and decided < 25:
        moves = prog.legal_moves(st)
        move = bots[st.decider].choose(prog, st, moves)
        assert move in moves
        prog.play(st, move)
        decided += st.decider == 0


def test_ismcts_beats_random_clearly():
    a = head_to_head(["ismcts:iterations=40,depth=8", "random"], 4)
    b = head_to_head(["random", "ismcts:iterations=40,depth=8"], 4)
    assert (a[0] + b[1]) / 2 >= 0.75, (a, b)


def test_unknown_option_is_a_usage_error_with_did_you_mean():
    with pytest.raises(UsageError, match=r"bot ismcts has no option 'iteratons'; did you mean 'iterations'\?"):
        make_bot("ismcts:iteratons=50", 1)
    with pytest.raises(UsageError, match=r"payoff=wins is not one of margin, gain, win; did you mean 'win'\?"):
        make_bot("ismcts:payoff=wins", 1)


STUCK_WORLDS = """
name: a world may be stuck
players: {min: 2, max: 2}
cards:
  a: {count: 1, start: deck}
  b: {count: 1, start: deck}
zones:
  deck: {visible: nobody}
  hand: {owner: each, visible: owner}
  played: {visible: everyone}
setup:
  - move deck where kind == 'a' to hand(1)
turn:
  steps:
    - step: main
      do:
        - if: current == 0
          then:
            - choose: pick
              options:
                left: {do: []}
                right: {do: []}
          else:
            - choose: lay
              cards: hand where kind == 'a'
              count: 1
            - move lay to played
end:
  when: count(played) > 0
score: count(played)
"""


@pytest.mark.parametrize("rollout", ["random", "greedy"])
def test_a_world_whose_decider_has_no_legal_move_teaches_nothing_and_the_bot_still_decides(tmp_path, rollout):
    # seat 0 cannot see which card seat 1 holds: in half its worlds seat 1 holds the b and has no
    # legal card to lay, so the rules fail there; those worlds are dropped like any other failure
    path = tmp_path / "stuck.yaml"
    path.write_text(STUCK_WORLDS, encoding="utf-8")
    program = load_game(str(path)).program(2)
    st = program.new_state(1, log=True)
    bot = make_bot(f"ismcts:iterations=40,rollout={rollout}", 1)
    assert bot.choose(program, st, program.legal_moves(st)) in program.legal_moves(st)


def memo_decision(first: bool):
    """A Sorting Memo state (2 players, seat 0 to choose a card after some random turns), with the
    world and the knowledge of ismcts's first iteration there: (program, world, known cards)."""
    prog = load_game(os.path.join(ROOT, "rulesets", "sorting_memo.yaml")).program(2)
    st = prog.new_state(3, log=True)
    rnd = random.Random(3)
    name = "first_spot" if first else "second_spot"
    while True:
        moves = prog.legal_moves(st)
        if st.turn > 12 and st.decider == 0 and len(moves) > 1 and prog.move_text(st, moves[0]).startswith(name):
            break
        prog.apply(st, moves[rnd.randrange(len(moves))])
    caught = []
    real = IsmctsBot.iterate

    def catch(self, program, world, root, known=None, dealt=None):
        if not caught:
            caught.append((world.clone(), set(known)))
        return real(self, program, world, root, known, dealt)
    IsmctsBot.iterate = catch
    try:
        make_bot("ismcts:iterations=1", 1).choose(prog, st, prog.legal_moves(st))
    finally:
        IsmctsBot.iterate = real
    return prog, caught[0][0], caught[0][1]


def test_a_move_that_shows_a_guessed_card_is_rated_the_mean_of_such_moves_a_sure_one_its_own_margin():
    prog, world, known = memo_decision(first=False)
    guessed = {c for c in hidden_cards(prog, world, 0) if c not in known}
    moves = prog.legal_moves(world)
    values = ismcts.one_step(prog, world, moves, 0, guessed)[0]
    gambles, sure = [], []
    for m, v in zip(moves, values):
        trial = world.clone(log=False)
        trial.log = []
        prog.apply(trial, m)
        if guessed & ismcts.seen_cards(trial.log, 0):
            gambles.append((v, margin(prog, trial, 0)))
        else:
            sure.append((v, margin(prog, trial, 0)))
    assert gambles and sure
    mean = sum(own for _, own in gambles) / len(gambles)
    assert all(v == pytest.approx(mean) for v, _ in gambles)
    assert all(v == own for v, own in sure)


def test_with_look_a_move_after_which_the_seat_decides_again_is_worth_its_best_next_move():
    prog, world, _ = memo_decision(first=True)
    moves = prog.legal_moves(world)
    values = ismcts.one_step(prog, world, moves, 0, None, through=True)[0]
    for m, v in list(zip(moves, values))[:5]:
        trial = world.clone(log=False)
        trial.log = []
        prog.apply(trial, m)
        if trial.decider == 0 and len(prog.legal_moves(trial)) > 1:
            assert v == max(ismcts.one_step(prog, trial, prog.legal_moves(trial), 0, None)[0])


def test_the_best_rated_untried_move_is_tried_first():
    bot, moves = IsmctsBot(1), Moves()
    keys = [("a",), ("b",), ("c",)]
    moves.prior = {("a",): [1.0, 1], ("b",): [6.0, 2], ("c",): [2.0, 1]}
    assert bot.first([0, 1, 2], keys, moves) == 1


def test_a_move_rated_worse_than_the_best_tried_waits_until_widening_lets_it_in():
    bot, moves = IsmctsBot(1), Moves()
    keys = [("a",), ("b",)]
    moves.prior = {("a",): [5.0, 1], ("b",): [1.0, 1]}
    moves[("a",)] = Node(0)
    moves.visits = 4                    # 0.3 * sqrt(4) < 1 tried: b waits
    assert bot.first([1], keys, moves) is None
    moves.visits = 16                   # 0.3 * sqrt(16) > 1 tried: b is tried
    assert bot.first([1], keys, moves) == 1
    moves.prior[("b",)] = [5.0, 1]      # as good as the best tried: tried at once
    moves.visits = 1
    assert bot.first([1], keys, moves) == 1


def test_a_cut_off_pays_with_payoff_gain_the_squashed_margin_gained_since_the_decision():
    bot = IsmctsBot(1)
    for prog, st in seeded_states(3, 2, log=False, span=(30, 60)):
        now = ismcts.all_margins(prog, st)
        assert bot.payoffs(prog, st, now) == [0.5, 0.5, 0.5]     # nothing gained
        start = [now[0] - 5] + now[1:]
        r = bot.payoffs(prog, st, start)
        assert r[0] > 0.5 and r[1:] == [0.5, 0.5]
