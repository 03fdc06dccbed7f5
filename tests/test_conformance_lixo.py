"""Conformance of the Lixo ruleset: seeded bot games with the rule sheet's invariants checked after
every move (on the state) and after every event (on the event log), determinism, replay, and clone
independence (the same layer as tests/test_conformance.py for R-Eco).

The default run stays small; `pytest -m soak tests/test_conformance_lixo.py` runs many more games
(pyproject.toml deselects the `soak` marker by default).
"""
import collections
import json

import pytest

from interpreter.seats import make_bot
from interpreter.runtime.engine import DECIDE, END, MOVE, SET, SHUFFLE, TURN
from interpreter.tools.records import make_record, replay
from lixo_helpers import (
    BINS, COLOURS, CONTAINERS, GARBAGE, START_HAND, STOP_DEAL, EMPTY_DEAL, bot_names, bots,
    check_loc, container_colour, game, is_container, is_garbage, program, sheet_scores, sheet_winners,
    type_name, variant, zone_index,
)
from helpers import check_clone_then_same_moves, check_play_game_matches_checked_play

PLAYERS = [2, 3, 4, 5, 6]
KINDS = ["random", "greedy", "mixed"]
GAMES = {"random": 8, "greedy": 2, "mixed": 2}          # default run: games per (players, kind)
SOAK_GAMES = {"random": 300, "greedy": 60, "mixed": 60}
MAX_MOVES = 5000
TURNS = sum(BINS.values())                                # one turn per bins card: 30


class Checker:
    """Invariants of a Lixo game: on the state after every move, and on every new event of the log."""

    def __init__(self, prog, st, garbage=GARBAGE):
        self.prog, self.n = prog, prog.players
        self.garbage_cards = collections.Counter(garbage)      # the deck's garbage cards by colour
        z = lambda name: zone_index(prog, name)   # noqa: E731
        n = self.n
        self.bins, self.garbage, self.recycled = z("bins"), z("garbage"), z("recycled")
        self.unclaimed, self.turned, self.used_stops = z("unclaimed"), z("turned"), z("used_stops")
        self.hand = [z(f"hand({p})") for p in range(n)]
        self.bids = [z(f"bids({p})") for p in range(n)]
        self.unrecycled = [z(f"unrecycled({p})") for p in range(n)]
        self.won = [z(f"won({p})") for p in range(n)]
        self.container_zones = {self.bins, self.turned, self.unclaimed, *self.won}
        self.stop_zones = {self.bins, self.turned, self.used_stops}
        self.garbage_zones = {self.garbage, self.recycled, *self.hand, *self.bids, *self.unrecycled}
        self.names = [type_name(prog, c) for c in range(len(prog.card_type))]
        self.var = {v: prog.var_base[v] for v in ("first_player", "high", "leader", "passes")}
        # cards that never move again once there
        self.kept = {z: set() for z in [self.unclaimed, self.used_stops, *self.won, *self.unrecycled]}
        self.bins_cards = list(st.zones[self.bins])
        self.moves = 0
        # event-log replay (sheet rules on the order of things)
        self.sizes = collections.Counter(prog.card_start)
        self.fp = 0                  # first player as the events tell it
        self.events = 0
        self.turn = None             # per-turn record, see on_turn
        self.turns = 0
        self.deal = [0] * n          # garbage -> hand since the last first-player move
        self.setup_done = False
        self.seen = collections.Counter()   # how often the rare rules came up: reshuffle, short deal, ...
        self.check_start(st)
        self.check(st)

    # ---------------------------------------------------------------- the state

    def v(self, st, name):
        return st.vars[self.var[name]]

    def check_start(self, st):
        n = self.n
        stops = len(st.zones[self.used_stops])
        # before the first decision only stops and containers nobody could bid for went by
        assert len(st.zones[self.bins]) == TURNS - st.turn
        assert st.turn == 1 + stops + len(st.zones[self.unclaimed])
        if sum(self.garbage_cards.values()) >= (START_HAND + STOP_DEAL * stops) * n:
            assert all(len(st.zones[h]) == START_HAND + STOP_DEAL * stops for h in self.hand)
        assert not st.zones[self.recycled] and all(not st.zones[z] for z in self.unrecycled + self.won)
        assert self.v(st, "first_player") == stops % n
        assert st.moves == 0

    def check(self, st):
        prog, names, n = self.prog, self.names, self.n
        check_loc(st)                                             # one zone per card, loc agrees
        assert len(st.loc) == sum(BINS.values()) + sum(self.garbage_cards.values())
        kinds = collections.Counter()
        for z, zone in enumerate(st.zones):
            for c in zone:
                name = names[c]
                kinds[name] += 1
                if is_container(name):
                    assert z in self.container_zones, f"{name} in {prog.zone_names[z]}"
                elif name == "stop":
                    assert z in self.stop_zones, f"stop in {prog.zone_names[z]}"
                else:
                    assert is_garbage(name) and z in self.garbage_zones, f"{name} in {prog.zone_names[z]}"
        assert kinds == BINS + self.garbage_cards                 # 25 + 5 + 180 cards
        # the bins deck only shrinks, from the top
        bins = st.zones[self.bins]
        assert bins == self.bins_cards[:len(bins)]
        self.bins_cards = list(bins)
        # cards won, unclaimed, used stops and unrecycled garbage never leave
        for z, seen in self.kept.items():
            assert seen <= set(st.zones[z]), prog.zone_names[z]
            seen.update(st.zones[z])
        assert st.moves == self.moves
        self.check_events(st)
        if st.over:
            self.check_end(st)
            return
        # a decision: always a bid or a pass in an auction for the container turned over
        assert st.turn == TURNS - len(bins)
        assert len(st.zones[self.turned]) == 1
        lot = names[st.zones[self.turned][0]]
        assert is_container(lot)
        colour = container_colour(lot)
        fp, high, leader = self.v(st, "first_player"), self.v(st, "high"), self.v(st, "leader")
        assert st.current == fp and st.pending.name == "auction"
        bids = [len(st.zones[b]) for b in self.bids]
        assert all(names[c] == colour for b in self.bids for c in st.zones[b])
        if leader < 0:
            assert high == 0 and bids == [0] * n
        else:
            assert bids[leader] == high and all(b < high for p, b in enumerate(bids) if p != leader)
        d = st.decider
        assert d != leader                                        # never asked to raise their own bid
        matching = sum(1 for c in st.zones[self.hand[d]] if names[c] == colour)
        assert bids[d] + matching > high                          # who cannot raise is not asked
        texts = [prog.move_text(st, m) for m in prog.legal_moves(st)]
        assert texts[-1] == "pass" and len(texts) == len(set(texts))
        for t in texts[:-1]:
            k, c = t.removeprefix("bid: ").split("*")
            assert c == colour and bids[d] + int(k) >= high + 1 and int(k) <= matching

    def check_end(self, st):
        prog, names = self.prog, self.names
        assert st.turn == TURNS and self.turns == TURNS
        assert prog.legal_moves(st) == []
        assert not st.zones[self.bins] and not st.zones[self.turned]
        assert all(not st.zones[b] for b in self.bids)
        placed = [c for z in [self.unclaimed, *self.won] for c in st.zones[z]]
        assert collections.Counter(names[c] for c in placed) == CONTAINERS   # every container
        assert len(st.zones[self.used_stops]) == 5                           # every stop
        res = prog.result(st)
        scores = sheet_scores(prog, st)
        assert res["scores"] == scores
        assert res["winners"] == sheet_winners(scores)

    def moved(self, st):
        self.moves += 1
        self.check(st)

    # ---------------------------------------------------------------- the events

    def check_events(self, st):
        log = st.log
        for e in log[self.events:]:
            self.on_event(e)
        self.events = len(log)

    def check_deal(self, start, each):
        """A deal just ended: `each` cards to every player, one at a time from `start`; short only
        when the garbage deck and the recycled pile are both empty."""
        n, k = self.n, sum(self.deal)
        want = each * n
        assert k <= want
        if k < want:
            assert self.sizes[self.garbage] == 0 and self.sizes[self.recycled] == 0
            self.seen["short deal"] += 1
        for j in range(n):
            seat = (start + j) % n
            assert self.deal[seat] == k // n + (1 if j < k % n else 0), (self.deal, start, k)
        self.deal = [0] * n

    def on_turn_end(self):
        t = self.turn
        if t is None:
            return
        assert self.deal == [0] * self.n                         # no deal without moving the first player
        last = self.sizes[self.bins] == 0
        assert t["resolved"] is not None
        want = (1 if t["card"] == "stop" else 0) + (1 if t["resolved"] and not last else 0)
        assert t["fp_moves"] == want, t

    def on_event(self, e):
        kind, n = e[0], self.n
        if kind == TURN:
            if not self.setup_done:                              # setup: 5 each from seat 0
                self.check_deal(0, START_HAND)
                self.setup_done = True
            self.on_turn_end()
            self.turns += 1
            assert e[1] == self.fp and e[2] == self.turns        # each turn led by the first player
            self.turn = {"card": None, "fp_moves": 0, "resolved": None}
        elif kind == MOVE:
            _, src, dst, cards = e[:4]
            k = len(cards)
            assert k > 0
            assert dst != self.bins                              # nothing goes back to the bins deck
            if src == self.bins:
                assert dst == self.turned and k == 1 and self.sizes[self.turned] == 0
                assert all(self.sizes[b] == 0 for b in self.bids)   # bids are empty between auctions
                self.turn["card"] = self.names[cards[0]]
            if src == self.turned:
                assert dst in (self.used_stops if self.turn["card"] == "stop" else self.unclaimed, *self.won)
                self.on_moved(src, dst, k)
                # after the card is resolved: are all hands empty?
                self.turn["resolved"] = all(self.sizes[h] == 0 for h in self.hand)
                return
            if dst in self.hand:
                assert src == self.garbage                       # hands are dealt from the garbage deck only
                self.deal[self.hand.index(dst)] += k
            if dst == self.recycled:
                assert src in self.bids                          # only a winning bid is recycled
            if dst in self.unrecycled:
                assert src == self.bids[self.unrecycled.index(dst)]
            if src == self.recycled:                             # reshuffled only into an empty deck
                assert dst == self.garbage and self.sizes[self.garbage] == 0
                self.seen["reshuffle"] += 1
            if dst in self.bids:
                assert src == self.hand[self.bids.index(dst)]
            self.on_moved(src, dst, k)
        elif kind == SET:
            if e[1] == "first_player":
                assert e[3] == (self.fp + 1) % n                 # one seat to the left
                stop_deal = self.turn["card"] == "stop" and self.turn["fp_moves"] == 0
                self.seen["stop" if stop_deal else "all hands empty"] += 1
                self.check_deal(self.fp, STOP_DEAL if stop_deal else EMPTY_DEAL)
                self.fp = e[3]
                self.turn["fp_moves"] += 1
        elif kind == END:
            self.on_turn_end()
            self.turn = None
        else:
            assert kind in (SHUFFLE, DECIDE)

    def on_moved(self, src, dst, k):
        self.sizes[src] -= k
        self.sizes[dst] += k
        assert self.sizes[src] >= 0


def checked_game(players, seed, kind, per_colour=None):
    """Play one game with the given bots, checking the invariants after every move; `per_colour`:
    a garbage deck of that many cards of each colour instead of 36."""
    if per_colour is None:
        prog, garbage = program(players), GARBAGE
    else:
        prog = variant(garbage_per_colour=per_colour).program(players)
        garbage = {c: per_colour for c in COLOURS}
    st = prog.new_state(seed, log=True)
    checker = Checker(prog, st, garbage)
    seats = bots(kind, players, seed)
    while not st.over:
        assert st.moves < MAX_MOVES
        move = seats[st.decider].choose(prog, st, prog.legal_moves(st))
        prog.play(st, move)
        checker.moved(st)
    return st, checker.seen


def run_many(players, kind, count, first_seed=0, per_colour=None):
    """Checked games; returns how often the rare rules came up in them."""
    seen = collections.Counter()
    for seed in range(first_seed, first_seed + count):
        seen += checked_game(players, seed, kind, per_colour)[1]
    return seen


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("players", PLAYERS)
def test_invariants_after_every_move(players, kind):
    run_many(players, kind, GAMES[kind])


@pytest.mark.parametrize("per_colour", [1, 2])
@pytest.mark.parametrize("players", PLAYERS)
def test_invariants_with_a_scarce_garbage_deck(players, per_colour):
    # With 5 or 10 garbage cards in all, the deck runs out: the recycled pile is shuffled back,
    # deals stop short, and every hand is sometimes empty after a card (a deal and the first
    # player moving). The bot games with 180 cards almost never get there.
    seen = run_many(players, "greedy", 2, per_colour=per_colour)
    seen += run_many(players, "random", 5, per_colour=per_colour)
    assert seen["reshuffle"] > 0 and seen["short deal"] > 0


def test_scarce_garbage_games_reach_the_all_hands_empty_rule():
    seen = collections.Counter()
    for players in PLAYERS:
        seen += run_many(players, "greedy", 2, first_seed=50, per_colour=1)
    assert seen["all hands empty"] > 0


@pytest.mark.soak
@pytest.mark.parametrize("per_colour", [1, 2, 3])
@pytest.mark.parametrize("players", PLAYERS)
def test_invariants_with_a_scarce_garbage_deck_soak(players, per_colour):
    seen = run_many(players, "greedy", 40, first_seed=1000, per_colour=per_colour)
    seen += run_many(players, "random", 200, first_seed=1000, per_colour=per_colour)
    assert seen["reshuffle"] > 0 and seen["short deal"] > 0 and seen["all hands empty"] > 0


@pytest.mark.soak
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("players", PLAYERS)
def test_invariants_after_every_move_soak(players, kind):
    run_many(players, kind, SOAK_GAMES[kind], first_seed=1000)
    for seed in range(SOAK_GAMES[kind] // 4):
        rec = make_record(game(), players, 10_000 + seed, bots(kind, players, seed), bot_names(kind, players, seed))
        assert replay(game(), json.loads(json.dumps(rec))) == rec["result"]


def test_checker_catches_a_broken_invariant():
    # the checker is not vacuous: a card moved by hand from a won pile back into a hand is caught
    prog = program(3)
    st = prog.new_state(3, log=True)
    checker = Checker(prog, st)
    seat_bots = bots("random", 3, 3)
    while not any(st.zones[w] for w in checker.won):
        prog.play(st, seat_bots[st.decider].choose(prog, st, prog.legal_moves(st)))
        checker.moved(st)
    bad = st.clone()
    w = next(w for w in checker.won if bad.zones[w])
    c = bad.zones[w].pop()
    bad.zones[checker.hand[0]].append(c)
    bad.loc[c] = checker.hand[0]
    with pytest.raises(AssertionError):
        checker.check(bad)


@pytest.mark.parametrize("drop", ["first_player", "hand"])
def test_checker_catches_a_broken_event_order(drop):
    # the event checks are not vacuous either: a game's log with one first-player move left out,
    # or one dealt card left out, is caught
    prog = program(4)
    st = prog.new_state(8, log=True)
    seat_bots = bots("random", 4, 8)
    while not st.over:
        prog.apply(st, seat_bots[st.decider].choose(prog, st, prog.legal_moves(st)))
    fresh = prog.new_state(8, log=True)
    checker = Checker(prog, fresh)
    hand = {zone_index(prog, f"hand({p})") for p in range(4)}
    log = list(st.log[len(fresh.log):])
    if drop == "first_player":
        i = next(i for i, e in enumerate(log) if e[0] == SET and e[1] == "first_player")
    else:
        i = next(i for i, e in enumerate(log) if e[0] == MOVE and e[2] in hand)
    del log[i]
    with pytest.raises(AssertionError):
        for e in log:
            checker.on_event(e)


@pytest.mark.parametrize("players", PLAYERS)
def test_same_seed_same_record(players):
    for seed in range(2):
        for kind in ("random", "greedy"):
            a = make_record(game(), players, seed, bots(kind, players, seed), bot_names(kind, players, seed))
            b = make_record(game(), players, seed, bots(kind, players, seed), bot_names(kind, players, seed))
            assert a == b
    # a different seed deals differently
    a = make_record(game(), players, 1, bots("random", players, 1), bot_names("random", players, 1))
    b = make_record(game(), players, 2, bots("random", players, 1), bot_names("random", players, 1))
    assert a["chance"][0] != b["chance"][0] and a["chance"][1] != b["chance"][1]


@pytest.mark.parametrize("players", PLAYERS)
def test_replay_gives_same_result(players):
    for seed in range(4):
        kind = ("random", "greedy", "mixed")[seed % 3]
        rec = make_record(game(), players, 100 + seed, bots(kind, players, seed), bot_names(kind, players, seed))
        assert rec["players"] == players and rec["moves"]
        assert rec["chance"][0]["zone"] == "bins" and len(rec["chance"][0]["order"]) == 30
        assert rec["chance"][1]["zone"] == "garbage" and len(rec["chance"][1]["order"]) == 180
        assert rec["result"]["turns"] == TURNS
        rec = json.loads(json.dumps(rec))                     # a record is plain JSON
        assert replay(game(), rec) == rec["result"]
        # the replay needs the recorded outcomes, not the seed
        assert replay(game(), dict(rec, seed=rec["seed"] + 1)) == rec["result"]


@pytest.mark.parametrize("players", PLAYERS)
def test_clone_then_same_moves_equal_state(players):
    prog = program(players)
    for seed in range(3):
        check_clone_then_same_moves(prog, prog.new_state(seed), make_bot("random", seed), cut=3 + 4 * seed)


def test_play_game_matches_checked_play():
    for players in PLAYERS:
        check_play_game_matches_checked_play(game(), players, 5, bots("mixed", players, 5))
