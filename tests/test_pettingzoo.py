"""The PettingZoo environment (docs/rl.md): PettingZoo's own API test passes for every shipped
ruleset at 2 players and at its most; a random agent that follows the action mask plays whole games,
and the final payoffs are the win shares of program.result for the same moves replayed; no state
offers more legal moves than its decision's bound; an observation holds only what the seat may know.
Behind the `rl` marker (needs the rl extra: pip install -e '.[rl]'), but for the test that the package
works without PettingZoo."""
import glob
import importlib
import os
import random
import subprocess
import sys
import warnings

import pytest

from interpreter import load_game
from interpreter.errors import IllegalMove, RuleRuntimeError, RulesetError, UsageError
from interpreter.runtime import rng
from interpreter.runtime.events import for_seat
from interpreter.seats.views import view_of
from interpreter.tools.rl_actions import decision_bounds
from helpers import ROOT, RULESET
from test_bots import permute_hidden
from test_guards import NO_OPTION

RL = pytest.mark.rl
SHIPPED = sorted(glob.glob(os.path.join(ROOT, "rulesets", "*.yaml"))
                 + glob.glob(os.path.join(ROOT, "rulesets", "examples", "*.yaml")))
TABLES = [(path, n) for path in SHIPPED
          for n in sorted({load_game(path).rules.min_players, load_game(path).rules.max_players})]
IDS = [f"{os.path.basename(p)}-{n}" for p, n in TABLES]


def make(path=RULESET, players=2, *args, **kwargs):
    return importlib.import_module("interpreter.pettingzoo").env(path, players, *args, **kwargs)


def play_randomly(e, rnd: random.Random, seed=None) -> tuple:
    """One whole game with random legal actions: (game seed, the moves made, each agent's final
    cumulative payoff as last() gives it when the agent is done)."""
    e.reset(seed=seed)
    moves, final = [], {}
    for agent in e.agent_iter():
        obs, payoff, done, cut, _ = e.last()
        assert not cut
        if done:
            final[agent] = payoff
            e.step(None)
            continue
        assert agent == f"seat_{e.table.state.decider}"
        legal = [i for i, m in enumerate(obs["action_mask"].tolist()) if m]
        assert legal == list(range(len(e.table.program.legal_moves(e.table.state))))
        action = rnd.choice(legal)
        moves.append(e.table.program.legal_moves(e.table.state)[action])
        e.step(action)
    return e.game_seed, moves, final


@RL
@pytest.mark.parametrize("path,players", TABLES, ids=IDS)
def test_pettingzoo_api_test_passes_for_every_shipped_ruleset(path, players):
    api_test = importlib.import_module("pettingzoo.test").api_test
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # its advice (a dict observation, no render) is no failure
        api_test(make(path, players, seed=players), num_cycles=1000)


@RL
@pytest.mark.parametrize("path,players", TABLES, ids=IDS)
def test_a_random_agent_plays_whole_games_and_the_payoffs_are_the_results_win_shares(path, players):
    e = make(path, players, seed=11)
    program = e.table.program
    rnd = random.Random(players)
    for _ in range(2 if "memo" in path else 4):
        seed, moves, final = play_randomly(e, rnd)
        st = program.new_state(seed)
        for move in moves:
            program.play(st, move)
        assert st.over
        winners = program.result(st)["winners"]
        assert final == {f"seat_{p}": (1 / len(winners) if p in winners else 0.0) for p in range(players)}
        assert not e.agents


@RL
def test_the_margin_payoff_is_the_score_minus_the_best_other_score():
    e = make(RULESET, 3, seed=2, payoff="margin")
    _, _, final = play_randomly(e, random.Random(0))
    scores = e.table.program.result(e.table.state)["scores"]
    assert final == {f"seat_{p}": s - max(scores[:p] + scores[p + 1:]) for p, s in enumerate(scores)}


@RL
@pytest.mark.parametrize("path,players", TABLES, ids=IDS)
def test_no_state_of_a_shipped_ruleset_offers_more_moves_than_its_decisions_bound(path, players):
    program = load_game(path).program(players)
    bounds = [b for _, b in decision_bounds(program)]
    most = [0] * len(bounds)
    for seed in range(10 if "memo" in path else 60):
        rnd, st = random.Random(seed), program.new_state(seed)
        while not st.over:
            moves = program.legal_moves(st)
            most[st.pending.index] = max(most[st.pending.index], len(moves))
            program.apply(st, rnd.choice(moves))
    assert all(m <= b for m, b in zip(most, bounds)) and max(most) > 1


@RL
def test_a_decision_bound_is_its_constant_list_or_its_multisets_or_the_engines_limit():
    bounds = dict(decision_bounds(load_game(RULESET).program(2)))
    assert bounds["factory"] == 4            # from: materials, four values
    assert bounds["deliver"] == 10_000       # any number of one material from hand: only the limit bounds it
    small = make(RULESET, 2, max_moves=40).table
    assert dict(decision_bounds(small.program))["deliver"] == 40 and small.actions == 40


@RL
def test_a_decision_offering_more_moves_than_max_moves_stops_the_game_with_the_engines_error():
    e = make(RULESET, 2, seed=1, max_moves=3)
    assert e.action_space("seat_0").n == 3       # every decision is held to 3 moves, or stops the game
    with pytest.raises(RuleRuntimeError, match="decision '(deliver|dispose)' would have more than 3 legal moves"):
        play_randomly(e, random.Random(0))


@RL
def test_a_state_offering_more_moves_than_the_action_space_stops_with_an_error():
    e = make(RULESET, 2, seed=1)
    e.reset()
    e.table.actions = 1             # as if the bound were wrong
    with pytest.raises(Exception, match="more than the 1 actions"):
        e.observe(e.agent_selection)


@RL
@pytest.mark.parametrize("path,players", TABLES, ids=IDS)
def test_permuting_the_cards_hidden_from_a_seat_never_changes_its_observation(path, players):
    e = make(path, players, seed=5)
    rnd = random.Random(players)
    checked = changed = 0
    e.reset()
    while e.agents and checked < 25:
        agent = e.agent_selection
        if e.terminations[agent]:
            e.step(None)
            continue
        table = e.table
        for seat in range(players):
            before = e.observe(f"seat_{seat}")
            real = table.state
            table.state = permute_hidden(table.program, real, seat, rnd)
            changed += table.state.zones != real.zones
            after = e.observe(f"seat_{seat}")
            table.state = real
            assert before["observation"].tolist() == after["observation"].tolist()
            assert before["action_mask"].tolist() == after["action_mask"].tolist()
            checked += 1
        mask = e.observe(agent)["action_mask"].tolist()
        e.step(rnd.choice([i for i, m in enumerate(mask) if m]))
    assert checked >= 25 and changed >= checked // 3


@RL
@pytest.mark.parametrize("path,players", TABLES, ids=IDS)
def test_an_observation_is_made_from_the_events_as_the_seat_was_told_them(path, players):
    e = make(path, players, seed=6)
    program, layout = e.table.program, e.table.layout
    rnd = random.Random(players)
    e.reset()
    for _ in range(40):
        agent = e.agent_selection
        if e.terminations[agent]:
            break
        for seat in range(players):
            told = view_of(program, for_seat(program, e.table.state.log, seat), seat)
            assert e.observe(f"seat_{seat}")["observation"].tolist() == \
                layout.vector(told, e.table.asked(seat))
        mask = e.observe(agent)["action_mask"].tolist()
        e.step(rnd.choice([i for i, m in enumerate(mask) if m]))


@RL
def test_an_observation_is_what_the_seat_knows_by_name():
    e = make(RULESET, 2, seed=3)
    e.reset()
    names = e.observation_names()
    seat = int(e.agent_selection[-1])
    obs = dict(zip(names, e.observe(e.agent_selection)["observation"].tolist()))
    view = e.table.view(seat)
    assert len(names) == len(set(names)) == e.observation_space("seat_0")["observation"].shape[0]
    assert obs[f"seat {seat}"] == 1 and obs[f"seat {1 - seat}"] == 0 and obs[f"current {seat}"] == 1
    assert obs[f"size hand({1 - seat})"] == view.size(f"hand({1 - seat})") == 3
    hidden = [n for n in names if n.startswith(f"hand({1 - seat}) has ")]
    assert sum(obs[n] for n in hidden) == 0         # the other hand: its size only
    mine = {n.removeprefix(f"hand({seat}) has "): v for n, v in obs.items() if n.startswith(f"hand({seat}) has ") and v}
    type_names = e.table.program.type_names
    assert mine == {type_names[t]: n for t, n in view.known_cards(f"hand({seat})").items()}
    assert obs["asked deliver"] == 1 and obs["asked factory"] == obs["asked dispose"] == 0


@RL
def test_a_variable_is_observed_as_its_number():
    e = make(os.path.join(ROOT, "rulesets", "lixo.yaml"), 3, seed=3)
    e.reset()
    rnd, seen = random.Random(1), set()
    names = e.observation_names()
    assert [n for n in names if n.startswith("var ")] == ["var first_player", "var high", "var leader", "var passes"]
    while e.agents and len(seen) < 3:
        agent = e.agent_selection
        if e.terminations[agent]:
            e.step(None)
            continue
        obs = dict(zip(names, e.observe(agent)["observation"].tolist()))
        view = e.table.view(int(agent[-1]))
        for name in ("high", "leader", "passes"):
            assert obs[f"var {name}"] == view.var(name)
        seen |= {(obs["var high"], obs["var leader"], obs["var passes"])}
        e.step(rnd.choice([i for i, m in enumerate(e.observe(agent)["action_mask"].tolist()) if m]))
    assert len(seen) >= 3       # the variables did change


@RL
def test_the_same_seed_deals_the_same_game_and_the_same_observations():
    def run(e, seed):
        rnd, out = random.Random(0), []
        e.reset(seed=seed)
        for _ in range(30):
            obs = e.observe(e.agent_selection)
            out.append(obs["observation"].tolist())
            e.step(rnd.choice([i for i, m in enumerate(obs["action_mask"].tolist()) if m]))
        return out
    e = make(RULESET, 3)
    assert run(e, 8) == run(e, 8) == run(make(RULESET, 3, seed=99), 8)
    assert run(e, 8)[0] != run(e, 9)[0]
    a, b = make(RULESET, 3, seed=4), make(RULESET, 3, seed=4)
    a.reset(), b.reset()
    a.reset(), b.reset()        # the second game of a run seeded 4, in both
    assert a.game_seed == b.game_seed == rng.derive(4, 1)     # as game 1 of `simulate --seed 4`
    assert a.observe("seat_0")["observation"].tolist() == b.observe("seat_0")["observation"].tolist()


@RL
def test_overrides_mean_what_set_means_with_the_same_errors():
    assert make(RULESET, 2, hand_limit=6).table.program.param_values["hand_limit"] == 6
    with pytest.raises(RulesetError) as got:
        make(RULESET, 2, hand_limt=6)
    with pytest.raises(RulesetError) as want:
        load_game(RULESET, {"hand_limt": 6})
    assert str(got.value) == str(want.value) and "did you mean 'hand_limit'" in str(got.value)
    with pytest.raises(UsageError, match="for 2 to 5 players, not 7"):
        make(RULESET, 7)
    with pytest.raises(UsageError, match="payoff must be one of win, margin"):
        make(RULESET, 2, payoff="score")
    with pytest.raises(UsageError, match="a seed must be a whole number, not 'x'"):
        make(RULESET, 2, seed="x")


@RL
def test_a_decision_with_no_legal_move_stops_with_the_engines_error(tmp_path):
    path = tmp_path / "stuck.yaml"
    path.write_text(NO_OPTION, encoding="utf-8")
    e = make(str(path), 2)
    with pytest.raises(RuleRuntimeError, match=r"stuck.yaml:\d+:\d+: decision 'two' has no legal option for seat 0"):
        e.reset()
        e.observe(e.agent_selection)


@RL
def test_an_illegal_action_is_refused_and_changes_nothing():
    e = make(RULESET, 2, seed=1)
    e.reset()
    agent = e.agent_selection
    before = e.observe(agent)
    legal = sum(before["action_mask"].tolist())
    with pytest.raises(IllegalMove, match=f"has {legal} legal actions, 0 to {legal - 1}"):
        e.step(legal)
    assert e.agent_selection == agent
    assert e.observe(agent)["observation"].tolist() == before["observation"].tolist()


def test_import_interpreter_never_needs_pettingzoo():
    code = ("import sys; sys.modules['pettingzoo'] = None\n"
            "import interpreter, interpreter.tools.rl_table\n"
            "try:\n    import interpreter.pettingzoo\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "needs PettingZoo, an optional extra: pip install -e '.[rl]'" in out.stdout
