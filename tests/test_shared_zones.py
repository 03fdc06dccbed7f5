"""A bot's look-ahead copy shares its zones' lists (interpreter/runtime/engine.py, State).

`State.clone(share=True)` copies only the list of the zones; both states are then `shared`, and
the rules change no zone's list of a shared state in place: every write puts a new list in its
place, so no copy sees another's moves. Checked on whole games of every shipped ruleset and the
tests' own game, with every look-ahead bot: each zone list that a shared copy was made with holds,
at the end, what it held then (a move, a shuffle, a deal, a refill from an empty pile, a
`together` block or a dealt world that changed a shared list in place would show here). And a
state and its shared copy, played on turn about, end as two plain copies of it played alike."""
import glob
import os
import random

import pytest

from interpreter.compiler.game import load_game
from interpreter.runtime import engine
from interpreter.runtime.rng import derive
from interpreter.seats import make_bot
from interpreter.tools.records import play_game
from test_cli import ROOT

RULESETS = sorted(path for pattern in ("rulesets/*.yaml", "rulesets/examples/*.yaml", "tests/games/*.yaml")
                  for path in glob.glob(os.path.join(ROOT, pattern)))
LOOK_AHEAD = ["greedy", "automa:samples=1,width=3,depth=4", "memory:budget=8,samples=1", "ismcts:iterations=24",
              os.path.join(ROOT, "docs", "examples", "cautious_bot.py") + ":Cautious"]     # the Seat's own copies


class Watched:
    """Every zone list a shared copy was made with, with what it held then (by identity)."""

    def __init__(self):
        self.lists = {}

    def clone(self, original):
        def clone(st, *args, **kwargs):
            if kwargs.get("share"):
                for zone in st.zones:
                    if id(zone) not in self.lists:
                        self.lists[id(zone)] = (zone, tuple(zone))
            return original(st, *args, **kwargs)
        return clone

    def changed(self) -> list:
        return [(held, list(now)) for now, held in self.lists.values() if list(held) != now]


def players_of(game) -> int:
    """Three players where the game allows it (a seat other than the next and the last one)."""
    return max(game.rules.min_players, min(3, game.rules.max_players))


# A pile shuffled after a decision though nothing was put on it since (the shipped games shuffle only
# a zone just refilled, a new list), and cards put under a pile.
PILE = """
name: Pile shuffle
players: {min: 2, max: 3}
cards:
  card: {for: {rank: "numbers(6)"}, name: "card:{rank}", count: 2, start: deck}
zones:
  deck: {visible: nobody}
  hand: {owner: each, visible: owner}
  pile: {visible: everyone}
setup: ["shuffle deck", "deal 2 from deck to hand"]
turn:
  steps:
    - step: play
      do:
        - choose: played
          cards: hand
          count: 1
        - shuffle deck
        - move played to bottom of pile
        - if: count(deck) > 0
          then: ["move top of deck to hand"]
end:
  when: count(hand) == 0
score: count(pile where rank > 3)
"""


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.split("/")[-1])
def test_no_zone_list_is_changed_in_place_after_a_state_is_copied(path, monkeypatch):
    played_unchanged(path, monkeypatch)


def test_a_pile_shuffled_or_put_under_is_a_new_list(tmp_path, monkeypatch):
    path = tmp_path / "pile.yaml"
    path.write_text(PILE)
    played_unchanged(str(path), monkeypatch)


def played_unchanged(path: str, monkeypatch) -> None:
    """Whole games of the ruleset, a look-ahead bot in one seat: no zone list seen by a copy changed."""
    watched = Watched()
    monkeypatch.setattr(engine.State, "clone", watched.clone(engine.State.clone))
    game = load_game(path)
    players = players_of(game)
    for seed, bot in enumerate(LOOK_AHEAD):
        bots = [make_bot(bot if s == seed % players else "random", derive(seed, s)) for s in range(players)]
        _, st, _ = play_game(game, players, seed, bots)
        assert st.over
    assert watched.lists                # the bots did share states (the check saw their zones)
    assert watched.changed() == []


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.split("/")[-1])
def test_a_state_and_its_shared_copy_play_on_as_two_separate_copies_would(path):
    """Moves played on a state and on its shared copy, turn about, leave each as the same moves
    leave two plain copies: neither sees the other's moves."""
    game = load_game(path)
    program = game.program(players_of(game))
    for seed in range(3):
        st = program.new_state(seed)
        pick = random.Random(seed)
        for _ in range(pick.randrange(0, 30)):          # somewhere into the game
            if st.over:
                break
            program.apply(st, pick.choice(program.legal_moves(st)))
        shared, one, two = st.clone(share=True), st.clone(), st.clone()
        for step in range(60):
            pair = (st, one) if step % 2 else (shared, two)
            if pair[0].over:
                break
            move = pick.choice(program.legal_moves(pair[0]))
            program.apply(pair[0], move)
            program.apply(pair[1], move)
            assert st == one and shared == two
        assert st.shared and shared.shared and not one.shared
