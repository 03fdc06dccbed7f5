"""Conformance of the Sorting Memo ruleset (rulesets/sorting_memo.yaml; rules in docs/games.md,
"Sorting Memo"): seeded bot games with the rule sheet's invariants checked after every move (on
the state) and after every event (on the event log), every seat's perfect-memory view compared
after every move with a memory model kept here from the raw events, determinism, records and
replay, clone independence (the same layer as tests/test_conformance.py for R-Eco and
tests/test_conformance_lixo.py).

The memory model is independent of interpreter/seats/views.py: on the grid every face is public (a card
turned up is seen by all), so every seat should know, at a face-down position c, exactly the face
that was turned up at c and turned back down there since the card last moved; a Shuffle lifts its
cards out of sight and lays them back on the same positions, so its positions are forgotten, unless
every lifted card was known and all had one type (then every one of them is still that type).

The default run stays small; `pytest -m soak tests/test_conformance_memo.py` runs many more games
(pyproject.toml deselects the `soak` marker by default).
"""
from __future__ import annotations

import collections
import functools
import json
import os
import subprocess
import sys

import pytest

from interpreter.seats import make_bot
from interpreter.runtime.engine import DECIDE, END, MOVE, SET, SHUFFLE, TURN
from interpreter.compiler.game import load_game
from interpreter.tools.records import make_record, replay
from interpreter.seats.views import Observer, view_of
from helpers import (
    ROOT, check_clone_then_same_moves, check_loc, check_play_game_matches_checked_play, do, type_name,
    zone_index,
)

RULESET = os.path.join(ROOT, "rulesets", "sorting_memo.yaml")

# The rule sheet's components (not read from the ruleset).
MATERIALS = ("paper", "plastic", "glass", "metal", "organic")
CONTAINERS_PER_TYPE = 4
CONTAINERS_EACH = 3
PICTURES = 4
TRUCK_KINDS = ("swap", "shuffle", "take", "give", "container_swap")
CELLS = 5 * 10
CONTAINER_CARDS = collections.Counter({f"container:{m}": CONTAINERS_PER_TYPE for m in MATERIALS})   # 20
RECYCLABLES = collections.Counter({f"{m}:{i}": 2 for m in MATERIALS for i in range(1, PICTURES + 1)})  # 40
TRUCKS = collections.Counter({f"truck:{k}": 2 for k in TRUCK_KINDS})                                 # 10
ALL_CARDS = CONTAINER_CARDS + RECYCLABLES + TRUCKS                                                    # 70

PLAYERS = [2, 3, 4]
# Bot mixes: seat p of game `seed` plays MIX[(seed + p) % len(MIX)]. The automa bot (about 0.3 s a
# decision) plays only in the soak run.
MIXES = {
    "random": ["random"],
    "greedy": ["greedy"],
    "random+greedy": ["random", "greedy"],
    "mixed": ["random", "greedy", "memory"],
    "automa": ["automa", "random", "greedy", "memory"],
}
# default run: (seed, kind) games per player count; every bot of a mix plays in its games
GAMES = {2: [(0, "random"), (1, "mixed")], 3: [(0, "random"), (0, "mixed")], 4: [(0, "random"), (2, "mixed")]}
SOAK_GAMES = {"random": 15, "mixed": 6}
MAX_MOVES = 10_000          # the bound every game ends within (random bots: about 1,000 moves)

DECISIONS = {"draw_from", "use", "victim", "mine", "theirs", "receiver", "returned", "source",
             "first_spot", "second_spot", "how_many", "spot"}


@functools.lru_cache(maxsize=None)
def game():
    """The Sorting Memo Game (loaded once per test session)."""
    return load_game(RULESET)


def program(players: int):
    return game().program(players)


def kind_of(name: str) -> str:
    """The card kind, read from its name: 'container:glass', 'truck:take', 'glass:3'."""
    if name.startswith("container:"):
        return "container"
    if name.startswith("truck:"):
        return "truck"
    return "recyclable"


def material(name: str) -> str:
    """'glass:3' -> 'glass'; 'container:glass' -> 'glass'."""
    return name.split(":")[1] if name.startswith("container:") else name.split(":")[0]


def bot_names(kind: str, players: int, seed: int) -> list:
    mix = MIXES[kind]
    return [mix[(seed + p) % len(mix)] for p in range(players)]


def bots(kind: str, players: int, seed: int) -> list:
    """One seeded bot per seat."""
    return [make_bot(name, seed * 101 + p) for p, name in enumerate(bot_names(kind, players, seed))]


# ---------------------------------------------------------------- the sheet's scoring, by hand

def sheet_scores(prog, st) -> list:
    """(sorted, unsorted) per seat: collected recyclables whose material is one of the owner's
    containers' (in hand or shown), and the rest."""
    out = []
    for p in range(prog.players):
        mine = {material(type_name(prog, c)) for zone in (f"containers({p})", f"shown({p})")
                for c in st.zones[zone_index(prog, zone)]}
        won = [type_name(prog, c) for c in st.zones[zone_index(prog, f"won({p})")]]
        won = [n for n in won if kind_of(n) == "recyclable"]
        good = sum(1 for n in won if material(n) in mine)
        out.append((good, len(won) - good))
    return out


def sheet_winners(scores) -> list:
    """Most sorted; tie: fewest unsorted; still tied: shared victory."""
    best = max(s for s, _ in scores)
    tied = [p for p, (s, _) in enumerate(scores) if s == best]
    fewest = min(scores[p][1] for p in tied)
    return [p for p in tied if scores[p][1] == fewest]


# ---------------------------------------------------------------- the checker

class Checker:
    """Invariants of a Sorting Memo game: on the state after every move, on every new event of the
    log, and on every seat's view (views.py) against the memory model kept here."""

    def __init__(self, prog, st, observer=Observer):
        """`observer`: the class of the per-seat memories checked (views.Observer; a test of the
        checker passes a broken one)."""
        self.prog, self.n = prog, prog.players
        n = self.n
        z = lambda name: zone_index(prog, name)   # noqa: E731
        self.box, self.stock, self.pool, self.discard = z("box"), z("stock"), z("pool"), z("discard")
        self.stacks = [z(f"stack[{j}]") for j in range(1, len(MATERIALS) + 1)]
        self.down = {c: z(f"down[{c}]") for c in range(1, CELLS + 1)}
        self.up = {c: z(f"up[{c}]") for c in range(1, CELLS + 1)}
        self.cell_of_down = {zi: c for c, zi in self.down.items()}
        self.cell_of_up = {zi: c for c, zi in self.up.items()}
        self.containers = [z(f"containers({p})") for p in range(n)]
        self.shown = [z(f"shown({p})") for p in range(n)]
        self.won = [z(f"won({p})") for p in range(n)]
        self.kept = [z(f"kept({p})") for p in range(n)]
        self.spent = [z(f"spent({p})") for p in range(n)]
        self.names = [type_name(prog, c) for c in range(len(prog.card_type))]
        self.kinds = [kind_of(name) for name in self.names]
        grid = set(self.down.values()) | set(self.up.values())
        self.allowed = {     # where each kind of card may ever be
            "container": {self.box, *self.stacks, *self.containers, *self.shown},
            "recyclable": {self.stock, self.pool, *grid, *self.won},
            "truck": {self.stock, self.pool, *grid, self.discard, *self.kept, *self.spent},
        }
        # state history
        self.moves = st.moves              # 0 but for a test that checks a game under way
        self.empty_cells: set = set()      # positions emptied after the deal: they stay empty
        self.discarded: set = set()        # used trucks never come back
        # event replay
        self.events = 0
        self.sizes = [0] * len(prog.zone_names)
        for zi in prog.card_start:
            self.sizes[zi] += 1
        self.face_up = 0
        self.in_play = False               # after the first turn began
        self.turn_no = 0
        self.turn_seat = None
        self.flips: list = []              # cards turned up in the current turn
        self.collected: list = []          # cards taken up[c] -> won in the current turn
        self.truck_taken = False           # a truck was turned this turn: no card after it
        # the memory model: per position, the card whose face every seat saw there
        self.memo: dict = {}
        self.memo_turn: dict = {}          # per position: the turn its face was seen
        self.lifted: list = []             # (position, card, known?) lifted by the Shuffle under way
        self.laid: set = set()
        self.uniform = False               # the Shuffle under way keeps its positions known
        self.returned = [collections.Counter() for _ in range(n)]   # container types p put in a stack
        self.drawn = [set() for _ in range(n)]                      # stacks p drew from in the setup
        # stacks are `alike`: each fill of an empty stack is one type (a fill id per fill; None
        # once a container was put under others); a seat learns a fill's type when it sees a card
        # of it, and then knows the type of every container drawn from that fill
        self.fill = {zi: None for zi in self.stacks}
        self.fills = 0
        self.learned = [set() for _ in range(n)]                    # fill ids whose type seat s knows
        self.origin: dict = {}                                      # container -> fill drawn from
        self.observers = [observer(prog, s) for s in range(n)]
        self.visible = [[bool(v >> s & 1) for v in prog.zone_vis] for s in range(n)]
        self.names_of_type = list(prog.type_names)
        self.nones = [(None,) * k for k in range(len(prog.card_type) + 1)]
        self.seen = collections.Counter()  # how often the rarer situations came up
        self.check_events(st)
        self.check(st)

    # ---------------------------------------------------------------- the state

    def types(self, st, zi) -> list:
        return [self.names[c] for c in st.zones[zi]]

    def check(self, st):
        prog, names, n = self.prog, self.names, self.n
        check_loc(st)                                             # one zone per card, loc agrees
        assert len(st.loc) == sum(ALL_CARDS.values()) == 70
        counts = collections.Counter()
        for zi, zone in enumerate(st.zones):
            for c in zone:
                counts[names[c]] += 1
                assert zi in self.allowed[self.kinds[c]], f"{names[c]} in {prog.zone_names[zi]}"
        assert counts == ALL_CARDS                                # 20 containers, 40 recyclables, 10 trucks
        assert st.moves == self.moves
        # the grid: at most one card per position, an emptied position stays empty
        empty, face_up, hidden_recyclables = set(), 0, 0
        for c in range(1, CELLS + 1):
            d, u = st.zones[self.down[c]], st.zones[self.up[c]]
            assert len(d) + len(u) <= 1, f"position {c} holds {len(d) + len(u)} cards"
            face_up += len(u)
            hidden_recyclables += sum(1 for card in d if self.kinds[card] == "recyclable")
            if not d and not u:
                empty.add(c)
        assert face_up <= 2
        if st.turn > 0:
            assert self.empty_cells <= empty, f"positions {sorted(self.empty_cells - empty)} filled again"
            self.empty_cells = empty
            assert not st.zones[self.box] and not st.zones[self.stock]
        assert not st.zones[self.pool]                            # a Shuffle lays every card back
        assert all(not st.zones[s] for s in self.spent)           # single use: straight to the discard
        assert self.discarded <= set(st.zones[self.discard])
        self.discarded = set(st.zones[self.discard])
        for p in range(n):
            won = collections.Counter(self.types(st, self.won[p]))
            assert all(k == 2 for k in won.values()), won         # whole pairs only
            assert all(kind_of(t) == "truck" and t != "truck:shuffle" for t in self.types(st, self.kept[p]))
        in_hand = sum(len(st.zones[zi]) for zi in self.containers + self.shown)
        assert in_hand + sum(len(st.zones[s]) for s in self.stacks) + len(st.zones[self.box]) == 20
        self.check_events(st)
        self.check_views(st)
        if st.over:
            self.check_end(st, hidden_recyclables, face_up)
            return
        assert hidden_recyclables > 0                             # the end comes as soon as none is left
        kind = st.pending.name
        assert kind in DECISIONS, kind
        legal = prog.legal_moves(st)
        assert legal and len(legal) == len(set(legal))
        texts = [prog.move_text(st, m) for m in legal]
        assert len(set(texts)) == len(texts)                      # one canonical text per move
        if kind == "draw_from":                                   # setup: 3 from different stacks each
            assert st.turn == 0 and face_up == 0
            options = {j for j, zi in enumerate(self.stacks, 1) if st.zones[zi]} - self.drawn[st.decider]
            assert sorted(int(t.split(": ")[1]) for t in texts) == sorted(options)
            mine = len(st.zones[self.containers[st.decider]])
            assert mine < CONTAINERS_EACH
            assert all(len(st.zones[zi]) == CONTAINERS_EACH for zi in self.containers[:st.decider])
            assert all(not st.zones[zi] for zi in self.containers[st.decider + 1:])
            return
        assert st.turn > 0 and st.decider == st.current == self.turn_seat and 0 <= st.current < n
        assert all(len(st.zones[zi]) == CONTAINERS_EACH for zi in self.containers)
        down = sorted(c for c in range(1, CELLS + 1) if st.zones[self.down[c]])
        if kind in ("first_spot", "second_spot"):
            # any face-down card, and only those
            assert sorted(int(t.split(": ")[1]) for t in texts) == down
            # between turns and before the first card, nothing is face up; then only the first card
            want = 0 if kind == "first_spot" else 1
            assert face_up == want
            if kind == "second_spot":
                first = next(c for c in range(1, CELLS + 1) if st.zones[self.up[c]])
                assert self.kinds[st.zones[self.up[first]][0]] == "recyclable"   # a truck ends the turn
        elif kind in ("how_many", "spot"):
            # a Shuffle: the truck is gone, every card is face down again
            assert face_up == 0
            if kind == "how_many":
                assert sorted(int(t.split(": ")[1]) for t in texts) == list(range(2, len(down) + 1))
            else:
                assert set(int(t.split(": ")[1]) for t in texts) <= set(down)
        else:                                                     # kept trucks, before the first card
            assert face_up == 0
            assert st.zones[self.kept[st.current]] or kind != "use"

    def check_end(self, st, hidden_recyclables, face_up):
        prog, n = self.prog, self.n
        assert hidden_recyclables == 0 and face_up == 0
        assert prog.legal_moves(st) == []
        collected = collections.Counter(t for p in range(n) for t in self.types(st, self.won[p]))
        assert collected == RECYCLABLES                           # every pair was collected
        for p in range(n):                                        # the containers are revealed
            assert not st.zones[self.containers[p]]
            assert len(st.zones[self.shown[p]]) == CONTAINERS_EACH
        res = prog.result(st)
        scores = sheet_scores(prog, st)
        assert res["scores"] == [s for s, _ in scores]
        assert res["winners"] == sheet_winners(scores)
        assert res["moves"] == st.moves < MAX_MOVES
        # at the end every seat sees every container
        for s in range(n):
            view = self.observers[s].view()
            for p in range(n):
                assert view.cards(self.shown[p]) == [prog.card_type[c] for c in st.zones[self.shown[p]]]
            # the views fed here one event at a time are those of view_of on the whole log
            assert view == view_of(prog, st.log, s)

    def moved(self, st):
        self.moves += 1
        self.check(st)

    # ---------------------------------------------------------------- the events

    def check_events(self, st):
        log = st.log
        for e in log[self.events:]:
            self.on_event(e)
        self.events = len(log)
        assert self.sizes == [len(zone) for zone in st.zones]

    def on_event(self, e):
        for obs in self.observers:
            obs.observe(e)
        kind = e[0]
        if kind == MOVE:
            self.on_move(e)
        elif kind == SHUFFLE:
            zi = e[1]
            assert zi in (self.box, self.stock, self.pool), self.prog.zone_names[zi]
            if zi == self.pool:
                self.on_pool_shuffle()
            else:
                assert not self.in_play                          # the deal, before the first turn
        elif kind == TURN:
            self.on_turn_end()
            seat, number = e[1], e[2]
            assert self.face_up == 0                              # none face up between turns
            if not self.in_play:                                  # setup done: seat 0 starts
                assert seat == 0 and number == 1
                assert not any(self.sizes[zi] for zi in (self.box, self.stock, self.pool))
                assert all(self.sizes[self.down[c]] == 1 for c in self.down)
                assert all(self.sizes[zi] == CONTAINERS_EACH for zi in self.containers)
                assert all(len(d) == CONTAINERS_EACH for d in self.drawn)
                self.in_play = True
            else:
                # after a pair the same player plays again, else the next one
                assert number == self.turn_no + 1
                want = self.turn_seat if self.collected else (self.turn_seat + 1) % self.n
                assert seat == want, (seat, want)
                if self.collected:
                    self.seen["extra turn"] += 1
            self.turn_no, self.turn_seat = number, seat
            self.flips, self.collected, self.truck_taken = [], [], False
        elif kind == END:
            self.on_turn_end()
            assert self.in_play and self.face_up == 0
        else:
            assert kind in (DECIDE, SET), e

    def on_turn_end(self):
        """The turn just ended: a pair is collected exactly when two cards of one picture were turned."""
        if not self.in_play:
            return
        names = [self.names[c] for c in self.flips]
        assert 1 <= len(self.flips) <= 2
        pair = len(names) == 2 and names[0] == names[1] and kind_of(names[0]) == "recyclable"
        if pair:
            assert sorted(self.collected) == sorted(self.flips)
        else:
            assert self.collected == []
            assert self.truck_taken == any(kind_of(t) == "truck" for t in names)

    def on_move(self, e):
        _, src, dst, cards, mask = e[:5]
        bottom = len(e) > 5 and e[5]
        k = len(cards)
        assert k > 0
        self.sizes[src] -= k
        self.sizes[dst] += k
        assert self.sizes[src] >= 0
        names = self.names
        if dst in self.cell_of_up:                                # a card turned face up
            c = self.cell_of_up[dst]
            assert src == self.down[c] and k == 1, (self.prog.zone_names[src], c)
            assert self.in_play and not self.truck_taken and len(self.flips) < 2
            self.flips.append(cards[0])
            self.face_up += 1
            assert self.face_up <= 2
        if src in self.cell_of_up:                                # ... and where it goes next
            c = self.cell_of_up[src]
            assert k == 1
            self.face_up -= 1
            card = cards[0]
            seat = self.turn_seat
            if dst == self.down[c]:
                pass                                              # back face down, exactly in place
            elif dst == self.won[seat]:
                assert self.kinds[card] == "recyclable"
                self.collected.append(card)
            else:
                assert self.kinds[card] == "truck" and dst in (self.kept[seat], self.discard)
                assert (dst == self.discard) == (names[card] == "truck:shuffle")
                assert self.face_up == 0          # a truck as the second card: the first went back first
                self.truck_taken = True
                self.seen[f"{names[card]} turned"] += 1
        if dst in self.cell_of_down:                              # a card laid face down
            c = self.cell_of_down[dst]
            assert k == 1 and self.sizes[dst] + self.sizes[self.up[c]] == 1
            card = cards[0]
            if src == self.up[c]:
                self.memo[c] = card                               # every seat saw this face here
                self.memo_turn[c] = self.turn_no
            elif src == self.stock:
                assert not self.in_play                           # the deal
            else:
                assert src == self.pool, self.prog.zone_names[src]
                assert c in {p for p, _, _ in self.lifted} and c not in self.laid
                self.laid.add(c)
                if self.uniform:
                    self.memo[c] = card
                    self.memo_turn[c] = self.turn_no
                if self.sizes[self.pool] == 0:                    # the Shuffle is done
                    assert self.laid == {p for p, _, _ in self.lifted}
                    self.lifted, self.laid, self.uniform = [], set(), False
        if src in self.cell_of_down:                              # a face-down card leaves its place
            c = self.cell_of_down[src]
            assert k == 1 and dst in (self.up[c], self.pool), self.prog.zone_names[dst]
            known = self.memo.pop(c, None)
            self.memo_turn.pop(c, None)
            assert known in (None, cards[0])
            if dst == self.pool:
                assert self.in_play
                self.lifted.append((c, cards[0], known is not None))
        if src in self.stacks and dst in self.containers and not self.in_play:
            p, j = self.containers.index(dst), self.stacks.index(src) + 1
            assert k == 1 and j not in self.drawn[p]               # the setup: three different stacks
            self.drawn[p].add(j)
        if src in self.containers and dst in self.stacks:         # a container swap returns one
            assert bottom and k == 1
            p = self.containers.index(src)
            self.returned[p][names[cards[0]]] += 1
            self.seen["container swap"] += 1
        if src in self.stacks and self.fill[src] is not None and dst in self.containers:
            p = self.containers.index(dst)
            self.origin[cards[0]] = self.fill[src]
            self.learned[p].add(self.fill[src])                   # p sees the container it drew
        if dst in self.stacks:
            if self.sizes[dst] == k:                              # a fill of an empty stack
                assert len({names[c] for c in cards}) == 1
                self.fills += 1
                self.fill[dst] = self.fills
                if src in self.containers:                        # the seat that returned it knows it
                    self.learned[self.containers.index(src)].add(self.fills)
            else:
                self.fill[dst] = None
        if src in self.won and dst in self.won:
            assert k == 2 and names[cards[0]] == names[cards[1]]  # swap, take, give: one pair
            self.seen["pair moved"] += 1

    def on_pool_shuffle(self):
        lifted = self.lifted
        assert self.in_play and len(lifted) >= 2 and self.sizes[self.pool] == len(lifted)
        assert all(self.sizes[self.down[c]] == 0 for c, _, _ in lifted)
        types = {self.names[card] for _, card, _ in lifted}
        self.uniform = all(known for _, _, known in lifted) and len(types) == 1
        if self.uniform:
            self.seen["shuffle of one known type"] += 1
        elif any(known for _, _, known in lifted):
            self.seen["shuffle forgot a face"] += 1

    # ---------------------------------------------------------------- the views

    def check_views(self, st):
        """Every seat's view: sound everywhere, and on the grid exactly the faces the memory model
        says the seat saw (perfect memory, no face it did not see, forgotten after a Shuffle)."""
        prog, n, ct = self.prog, self.n, self.prog.card_type
        real = [tuple(ct[c] for c in zone) for zone in st.zones]
        memo = {c: ct[card] for c, card in self.memo.items()}
        for c, card in self.memo.items():                         # the model itself is true
            assert st.zones[self.down[c]] == [card]
        nones = self.nones
        for s in range(n):
            view = self.observers[s].view()
            seen, known = self.visible[s], view.known
            for zi, slots in enumerate(view.zones):
                r = real[zi]
                if seen[zi]:                                      # a zone the seat sees: known exactly
                    assert slots == r, (s, prog.zone_names[zi], slots, r)
                    continue
                # soundness: the size, every known position and K are true
                assert len(slots) == len(r), (s, prog.zone_names[zi])
                if slots != nones[len(slots)]:
                    assert all(t is None or t == x for t, x in zip(slots, r)), (s, prog.zone_names[zi], slots, r)
                if known[zi]:
                    assert all(r.count(t) >= k for t, k in known[zi]), (s, prog.zone_names[zi])
            for c, zi in self.down.items():
                slots, k = view.zones[zi], dict(view.known[zi])
                slot = slots[0] if slots else None
                if slot is not None:
                    assert k == {slot: 1}
                knows = slot if slot is not None else (next(iter(k)) if k else None)
                saw = memo.get(c)
                if knows != saw:
                    tn = prog.type_names
                    assert knows is not None, f"seat {s} forgot the {tn[saw]} it saw at position {c}"
                    assert saw is not None, f"seat {s} knows {tn[knows]} at position {c}, a face it did not see there"
                    assert False, f"seat {s} thinks {tn[knows]} lies at position {c}, but saw {tn[saw]} there"
            if any(t < self.turn_no for t in self.memo_turn.values()):
                self.seen["face remembered"] += 1                # from an earlier turn
            for p in range(n):
                if p == s:
                    continue
                # another seat's containers: never a known position, and a type only if s itself
                # returned that container to the stack p drew from, or s knows the type of the
                # stack's fill p drew it from (s drew from that fill too)
                zi = self.containers[p]
                assert view.zones[zi].count(None) == len(view.zones[zi]), f"seat {s} knows a container of seat {p}"
                deducible = collections.Counter(self.names[c] for c in st.zones[zi]
                                                if self.origin.get(c) in self.learned[s])
                for t, x in view.known[zi]:
                    name = self.names_of_type[t]
                    assert self.returned[s][name] + deducible[name] >= x, (s, p, view.known[zi])
                    self.seen["a container deduced from a stack" if deducible[name] else
                              "a returned container followed"] += 1


def checked_game(players, seed, kind):
    """Play one game with the given bots, checking everything after every move."""
    prog = program(players)
    st = prog.new_state(seed, log=True)
    checker = Checker(prog, st)
    seats = bots(kind, players, seed)
    while not st.over:
        assert st.moves < MAX_MOVES
        move = seats[st.decider].choose(prog, st, prog.legal_moves(st))
        prog.play(st, move)
        checker.moved(st)
    return st, checker.seen


def run_many(players, kind, count, first_seed=0):
    seen = collections.Counter()
    for seed in range(first_seed, first_seed + count):
        seen += checked_game(players, seed, kind)[1]
    return seen


# what every game reaches: faces remembered, a Shuffle forgetting some, extra turns, every truck
REACHED = ("face remembered", "shuffle forgot a face", "extra turn", "a container deduced from a stack",
           *(f"truck:{k} turned" for k in TRUCK_KINDS))
# what random bots reach too, as they use every kept truck sooner or later
REACHED_BY_RANDOM = REACHED + ("container swap", "pair moved")


# ---------------------------------------------------------------- many games

@pytest.mark.parametrize("players", PLAYERS)
def test_invariants_and_knowledge_after_every_move(players):
    for seed, kind in GAMES[players]:
        seen = checked_game(players, seed, kind)[1]
        # the games are not vacuous: the rules of memory and every truck come up
        for what in REACHED_BY_RANDOM if kind == "random" else REACHED:
            assert seen[what] > 0, (seed, kind, what, seen)


def test_the_mixes_seat_every_bot():
    for players in PLAYERS:
        kinds = {k for seed, kind in GAMES[players] for k in bot_names(kind, players, seed)}
        assert kinds == {"random", "greedy", "memory"}


@pytest.mark.soak
@pytest.mark.parametrize("kind", ["random", "mixed"])
@pytest.mark.parametrize("players", PLAYERS)
def test_invariants_and_knowledge_after_every_move_soak(players, kind):
    seen = run_many(players, kind, SOAK_GAMES[kind], first_seed=1000)
    for what in REACHED_BY_RANDOM:
        assert seen[what] > 0, (what, seen)
    for seed in range(SOAK_GAMES[kind] // 5):
        rec = make_record(game(), players, 10_000 + seed, bots(kind, players, seed), bot_names(kind, players, seed))
        check_record(rec, players)
        if seed < 2:                                          # the memory bot too: same seed, same record
            again = make_record(game(), players, 10_000 + seed, bots(kind, players, seed), bot_names(kind, players, seed))
            assert again == rec
        assert replay(game(), json.loads(json.dumps(rec))) == rec["result"]


@pytest.mark.soak
@pytest.mark.parametrize("players", PLAYERS)
def test_invariants_and_knowledge_with_the_automa_bot_soak(players):
    # seat 0 is the automa bot, the others random, greedy (and memory, when there)
    assert bot_names("automa", players, 1000)[0] == "automa"
    seen = run_many(players, "automa", 1, first_seed=1000)
    for what in REACHED:
        assert seen[what] > 0, (what, seen)


# ---------------------------------------------------------------- the memory model, by hand

def grid_order(prog, faces: dict) -> list:
    """The stock's shuffle outcome (type ids bottom to top) that deals `faces` ({position: name})
    to those positions and the other cards to the other positions in a fixed order."""
    rest = RECYCLABLES + TRUCKS - collections.Counter(faces.values())
    others = iter(sorted(rest.elements()))
    by_cell = [faces[c] if c in faces else next(others) for c in range(1, CELLS + 1)]
    return [prog.type_index[t] for t in reversed(by_cell)]     # position 1 gets the top card


def scripted_start(faces: dict, players: int = 2):
    """A game whose grid holds `faces` ({position: name}); setup done with stacks 1, 2, 3 each."""
    prog = program(players)
    box = [prog.type_index[t] for t in sorted(CONTAINER_CARDS.elements())]
    script = [(zone_index(prog, "box"), box), (zone_index(prog, "stock"), grid_order(prog, faces))]
    st = prog.new_state(0, log=True, script=script)
    st.script = None                       # later shuffles from the state's generator
    checker = Checker(prog, st)
    for p in range(players):
        for j in (1, 2, 3):
            do(prog, st, f"draw_from: {j}")
            checker.moved(st)
    return prog, st, checker


def knows(prog, st, seat, cell):
    """The face `seat` knows at a face-down position (a name), or None."""
    view = view_of(prog, st.log, seat)
    slot = view.cards(f"down[{cell}]")
    k = view.known_cards(f"down[{cell}]")
    t = slot[0] if slot and slot[0] is not None else (next(iter(k)) if k else None)
    return None if t is None else prog.type_names[t]


def play(prog, st, checker, *texts):
    for text in texts:
        do(prog, st, text)
        checker.moved(st)


def test_faces_are_remembered_until_a_shuffle_mixes_them():
    faces = {1: "paper:1", 2: "glass:1", 3: "paper:1", 4: "glass:2", 5: "truck:shuffle",
             6: "truck:shuffle", 7: "metal:1", 8: "organic:2"}
    prog, st, checker = scripted_start(faces)
    assert all(knows(prog, st, s, c) is None for s in (0, 1) for c in faces)   # dealt face down
    play(prog, st, checker, "first_spot: 1", "second_spot: 2")                  # seat 0: no pair
    play(prog, st, checker, "first_spot: 3", "second_spot: 4")                  # seat 1: no pair
    play(prog, st, checker, "first_spot: 7", "second_spot: 8")                  # seat 0: no pair
    for s in (0, 1):                     # both seats saw all six faces, whoever turned them
        assert [knows(prog, st, s, c) for c in (1, 2, 3, 4, 7, 8)] == [faces[c] for c in (1, 2, 3, 4, 7, 8)]
    # seat 1 turns a Shuffle and mixes positions 1 and 3: two known cards of one type stay known
    play(prog, st, checker, "first_spot: 5", "how_many: 2", "spot: 1", "spot: 3")
    assert checker.seen["shuffle of one known type"] == 1
    assert not st.zones[zone_index(prog, "down[5]")] and not st.zones[zone_index(prog, "up[5]")]
    for s in (0, 1):
        assert knows(prog, st, s, 1) == knows(prog, st, s, 3) == "paper:1"
    # seat 0 turns the other Shuffle and mixes 2, 4 and 7: those faces are forgotten, 8 is not
    play(prog, st, checker, "first_spot: 6", "how_many: 3", "spot: 2", "spot: 4", "spot: 7")
    assert checker.seen["shuffle forgot a face"] == 1
    for s in (0, 1):
        assert [knows(prog, st, s, c) for c in (2, 4, 7)] == [None, None, None]
        assert knows(prog, st, s, 8) == "organic:2" and knows(prog, st, s, 1) == "paper:1"
    # the next seat collects the known pair at once: the pair leaves, its positions stay empty
    assert st.current == 1
    play(prog, st, checker, "first_spot: 1", "second_spot: 3")
    assert sorted(type_name(prog, c) for c in st.zones[zone_index(prog, "won(1)")]) == ["paper:1", "paper:1"]
    assert {1, 3, 5, 6} <= checker.empty_cells and st.current == 1    # and plays again


def test_a_truck_as_second_card_puts_the_first_back_and_it_is_remembered():
    faces = {1: "plastic:3", 2: "truck:take", 3: "plastic:3"}
    prog, st, checker = scripted_start(faces, players=3)
    play(prog, st, checker, "first_spot: 1", "second_spot: 2")
    assert type_name(prog, st.zones[zone_index(prog, "down[1]")][0]) == "plastic:3"
    assert [type_name(prog, c) for c in st.zones[zone_index(prog, "kept(0)")]] == ["truck:take"]
    assert st.current == 1
    assert all(knows(prog, st, s, 1) == "plastic:3" for s in range(3))
    assert all(knows(prog, st, s, 3) is None for s in range(3))


# ---------------------------------------------------------------- the checker is not vacuous

def played(players, seed, until):
    """A random-bot game (with its log) played until `until(checker, st)` holds."""
    prog = program(players)
    st = prog.new_state(seed, log=True)
    checker = Checker(prog, st)
    seat_bots = bots("random", players, seed)
    while not until(checker, st):
        prog.play(st, seat_bots[st.decider].choose(prog, st, prog.legal_moves(st)))
        checker.moved(st)
    return prog, st, checker


def test_checker_catches_two_cards_at_one_position():
    prog, st, checker = played(3, 4, lambda ch, st: st.turn >= 5 and st.pending.name == "first_spot")
    bad = st.clone()
    a, b = [c for c in range(1, CELLS + 1) if bad.zones[checker.down[c]]][:2]
    card = bad.zones[checker.down[b]].pop()
    bad.zones[checker.up[a]].append(card)
    bad.loc[card] = checker.up[a]
    with pytest.raises(AssertionError, match="position"):
        checker.check(bad)


def publish(log, *zones):
    """The log with every move out of `zones` shown to all seats (a wrong visibility mask)."""
    return [e[:4] + (~0,) + e[5:] if e[0] == MOVE and e[1] in zones else e for e in log]


def test_checker_catches_a_view_that_knows_an_unseen_face():
    # the deal's moves shown to everyone: every seat's view "knows" faces nobody turned up
    prog, st, _ = played(2, 6, lambda ch, st: st.turn >= 3)
    leaky = st.clone()
    leaky.log = publish(st.log, zone_index(prog, "stock"))
    with pytest.raises(AssertionError, match="a face it did not see there"):
        Checker(prog, leaky)


def test_checker_catches_a_view_that_follows_a_shuffle():
    # a Shuffle's cards laid back in sight of everyone: the views know where the mixed cards went
    prog, st, checker = played(3, 2, lambda ch, st: ch.seen["shuffle forgot a face"] > 0)
    leaky = st.clone()
    leaky.log = publish(st.log, zone_index(prog, "pool"))
    with pytest.raises(AssertionError, match="a face it did not see there"):
        Checker(prog, leaky)


def test_checker_catches_a_view_that_knows_another_seats_containers():
    # the containers drawn in the setup shown to everyone
    prog, st, _ = played(3, 1, lambda ch, st: st.turn >= 2)
    leaky = st.clone()
    leaky.log = publish(st.log, *(zone_index(prog, f"stack[{j}]") for j in range(1, len(MATERIALS) + 1)))
    with pytest.raises(AssertionError, match="knows a container of seat"):
        Checker(prog, leaky)


class ForgetfulObserver(Observer):
    """An Observer that forgets a face as soon as it is turned back down."""

    def observe(self, event):
        super().observe(event)
        if event[0] == MOVE and self.program.zone_names[event[2]].startswith("down["):
            self.slots[event[2]] = [None] * len(self.slots[event[2]])
            self.known[event[2]].clear()


def test_checker_catches_a_view_that_forgets_a_face():
    prog = program(2)
    st = prog.new_state(6, log=True)
    checker = Checker(prog, st, observer=ForgetfulObserver)      # nothing seen yet: nothing to forget
    seat_bots = bots("random", 2, 6)
    with pytest.raises(AssertionError, match="forgot the .* it saw at position"):
        while not st.over:
            prog.play(st, seat_bots[st.decider].choose(prog, st, prog.legal_moves(st)))
            checker.moved(st)


# ---------------------------------------------------------------- determinism, records, replay

def check_record(rec, players):
    """A record's chance outcomes: the container stacks, the grid, then one per Shuffle used."""
    assert rec["players"] == players and rec["moves"]
    chance = rec["chance"]
    assert chance[0]["zone"] == "box" and collections.Counter(chance[0]["order"]) == CONTAINER_CARDS
    assert chance[1]["zone"] == "stock" and collections.Counter(chance[1]["order"]) == RECYCLABLES + TRUCKS
    how_many = [int(m["move"].split(": ")[1]) for m in rec["moves"] if m["move"].startswith("how_many:")]
    assert [c["zone"] for c in chance[2:]] == ["pool"] * len(how_many)
    assert [len(c["order"]) for c in chance[2:]] == how_many
    return len(how_many)


@pytest.mark.parametrize("players", PLAYERS)
def test_same_seed_same_record_and_replay_gives_same_result(players):
    shuffles = 0
    for seed, kind in ((0, "random"), (1, "random+greedy"), (2, "greedy")):
        a = make_record(game(), players, 100 + seed, bots(kind, players, seed), bot_names(kind, players, seed))
        b = make_record(game(), players, 100 + seed, bots(kind, players, seed), bot_names(kind, players, seed))
        assert a == b                                         # same seed, same bots: same record
        shuffles += check_record(a, players)
        rec = json.loads(json.dumps(a))                       # a record is plain JSON
        assert replay(game(), rec) == rec["result"]
        # the replay needs the recorded outcomes, not the seed
        assert replay(game(), dict(rec, seed=rec["seed"] + 1)) == rec["result"]
    assert shuffles > 0
    # a different seed deals differently
    a = make_record(game(), players, 1, bots("random", players, 1), bot_names("random", players, 1))
    b = make_record(game(), players, 2, bots("random", players, 1), bot_names("random", players, 1))
    assert a["chance"][1] != b["chance"][1]


def test_cli_record_then_replay(tmp_path, capsys):
    from interpreter.tools.cli import main
    path = tmp_path / "memo.json"
    assert main(["record", RULESET, "--players", "3", "--seed", "7", "--bots", "random,greedy,random",
                 "-o", str(path)]) == 0
    rec = json.loads(path.read_text(encoding="utf-8"))
    assert rec["players"] == 3 and rec["bots"] == ["random", "greedy", "random"]
    check_record(rec, 3)
    assert replay(game(), rec) == rec["result"]
    # `cardrules replay` in a process of its own (`python cli.py` is the installed `cardrules`)
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "cli.py"), "replay", str(path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("replay ok") and proc.stderr == ""
    # a record whose grid was dealt otherwise does not replay: the first two cards turned in one
    # turn (no Shuffle before) made a pair where they were none, or none where they were one, so
    # that an extra turn comes where the record has none, or none where it has one
    capsys.readouterr()
    order = rec["chance"][1]["order"]          # bottom first: position c's card is order[-c]
    spots = [int(m["move"].split(": ")[1]) for m in rec["moves"] if m["move"].startswith(("first_", "second_"))]
    texts = [m["move"].split(":")[0] for m in rec["moves"]]
    turn1 = texts.index("first_spot")
    assert texts[turn1 + 1] == "second_spot", "seed 7's first turn shows two cards"
    a, b = spots[0], spots[1]
    if order[-a] == order[-b]:
        c = next(c for c in range(1, len(order) + 1)
                 if kind_of(order[-c]) == "recyclable" and order[-c] != order[-a])
    else:
        c = next(c for c in range(1, len(order) + 1) if c != a and order[-c] == order[-a])
    order[-b], order[-c] = order[-c], order[-b]
    path.write_text(json.dumps(rec), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("players", PLAYERS)
def test_clone_then_same_moves_equal_state(players):
    prog = program(players)
    for seed in range(3):
        check_clone_then_same_moves(prog, prog.new_state(seed), make_bot("random", seed), cut=10 + 17 * seed)
    check_clone_then_same_moves(prog, prog.new_state(3, log=True), make_bot("greedy", 3), cut=30)


def test_play_game_matches_checked_play():
    for players in PLAYERS:
        check_play_game_matches_checked_play(game(), players, 5, bots("random+greedy", players, 5))
    check_play_game_matches_checked_play(game(), 3, 6, bots("mixed", 3, 6))
