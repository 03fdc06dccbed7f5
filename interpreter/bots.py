"""Bots that decide from what their seat may know: legal moves and what the seat can see.

Every bot that looks ahead does so on *determinised* copies of the state (`determinise`): the cards
the seat cannot see are dealt back at random (from the bot's own generator) into the places hidden
from it, so the real hidden cards never influence a choice. What a copy keeps is exactly what the
seat's view holds: the zones it sees, the sizes of the others, and, when the state carries its event
log, the seat's perfect-memory knowledge (views.py): the card types guaranteed in each hidden zone
(K) and the positions it knows there are dealt first, the rest at random.

  random  uniform over the legal moves;
  greedy  one step ahead on one determinised copy: the move that most raises
          (own evaluation − best opponent's);
  automa  determinised Monte-Carlo look-ahead: each candidate move is played on a few determinised
          copies, followed by a short greedy roll-out of every seat's decisions until the bot's next
          turn (or the game's end); the move with the best mean margin wins.

All bots are generic: they know the ruleset only through the Program (legal moves, apply, the
ruleset's score or its `bots.eval` expression via program.evaluate).
"""
from __future__ import annotations

import random

from . import rng
from .errors import RuleRuntimeError
from .views import Observer


class Bot:
    """Base class: a named policy with its own seeded generator."""

    name = "bot"
    uses_view = True        # plays from the seat's view, which needs the game's event log

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self._memory = None     # (program, seat, log list, events fed, last event, Observer)

    def choose(self, program, st, moves: list):
        raise NotImplementedError

    def view(self, program, st, seat: int):
        """The seat's view from the state's event log (None when the state keeps no log).

        One Observer per bot is fed only the events it has not read yet; it is rebuilt when the
        log is another one or was cut back (an undo)."""
        log = st.log
        if log is None:
            return None
        mem = self._memory
        if (mem is None or mem[0] is not program or mem[1] != seat or mem[2] is not log
                or mem[3] > len(log) or (mem[3] and log[mem[3] - 1] is not mem[4])):
            mem = [program, seat, log, 0, None, Observer(program, seat)]
            self._memory = mem
        obs, fed = mem[5], mem[3]
        if fed < len(log):
            obs.observe_all(log[fed:])
            mem[3], mem[4] = len(log), log[-1]
        return obs.view()


class RandomBot(Bot):
    """Uniform over the legal moves."""

    name = "random"
    uses_view = False

    def choose(self, program, st, moves):
        return moves[self.rng.randrange(len(moves))] if len(moves) > 1 else moves[0]


class GreedyBot(Bot):
    """One-step look-ahead: the move that most raises (own evaluation − best opponent's)."""

    name = "greedy"

    def choose(self, program, st, moves):
        if len(moves) == 1:
            return moves[0]
        seat = st.decider
        base = determinise(program, st, seat, self.rng, self.view(program, st, seat))
        best = best_moves(program, base, moves, seat)
        return best[self.rng.randrange(len(best))]


class AutomaBot(Bot):
    """Determinised Monte-Carlo look-ahead (the "Automa+" of the issue), generic.

    For each of `samples` determinised copies (the same copies for every move, so moves are compared
    on equal worlds) and each candidate move: play the move, then let every seat (this one too) play
    greedily on that copy until this seat's next turn begins, the game ends or `depth` decisions
    were made; score the copy by margin (own evaluation − best opponent's). The best mean wins; ties
    go to the better immediate margin, then to the bot's generator. With more than `width` legal
    moves only the `width` best by immediate mean margin are rolled out.
    """

    name = "automa"
    samples = 4
    width = 6
    depth = 12

    def choose(self, program, st, moves):
        if len(moves) == 1:
            return moves[0]
        seat = st.decider
        view = self.view(program, st, seat)
        worlds = [determinise(program, st, seat, self.rng, view) for _ in range(self.samples)]
        seeds = [self.rng.getrandbits(32) for _ in worlds]
        # one step ahead on every world: the immediate margin, and the copies to roll out from
        after = []
        for move in moves:
            trials, total = [], 0
            for w in worlds:
                trial = w.clone()
                program.apply(trial, move)
                trials.append(trial)
                total += margin(program, trial, seat)
            after.append((total / len(worlds), trials))
        order = sorted(range(len(moves)), key=lambda i: -after[i][0])
        candidates = order[:self.width]
        best, best_key = [], None
        for i in candidates:
            now, trials = after[i]
            total = 0
            for trial, s in zip(trials, seeds):
                try:
                    rollout(program, trial, seat, st.turn, random.Random(s), self.depth)
                except RuleRuntimeError:
                    pass        # a copy the rules cannot play on (only without the seat's knowledge)
                total += margin(program, trial, seat)
            key = (total / len(trials), now)
            if best_key is None or key > best_key:
                best, best_key = [i], key
            elif key == best_key:
                best.append(i)
        return moves[best[self.rng.randrange(len(best))]]


def rollout(program, st, seat: int, turn: int, gen: random.Random, depth: int) -> None:
    """Play st on greedily (each decider's one-step best margin on this very copy) until `seat`
    decides in a turn after `turn`, the game ends, or `depth` decisions were made."""
    for _ in range(depth):
        if st.over or (st.decider == seat and st.turn > turn):
            return
        moves = program.legal_moves(st)
        if not moves:
            return
        me = st.decider
        if len(moves) == 1:
            move = moves[0]
        else:
            best = best_moves(program, st, moves, me)
            move = best[gen.randrange(len(best))] if len(best) > 1 else best[0]
        program.apply(st, move)


def best_moves(program, st, moves: list, seat: int) -> list:
    """The moves whose one-step result has the best margin for seat (ties all kept, in order)."""
    best, best_value = [], None
    for move in moves:
        trial = st.clone()
        program.apply(trial, move)
        value = margin(program, trial, seat)
        if best_value is None or value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    return best


def margin(program, st, seat: int):
    """The seat's evaluation minus the best of the other seats'."""
    mine = program.evaluate(st, seat)
    others = [program.evaluate(st, p) for p in range(program.players) if p != seat]
    return mine - max(others) if others else mine


def determinise(program, st, seat: int, gen: random.Random, view=None):
    """A copy of st in which every card hidden from `seat` is redealt at random among the hidden places.

    What the copy takes from st is what the seat's view holds: the zones the seat sees, the sizes of
    the others, and the set of cards hidden from it (every card minus those it sees). With `view`
    (the seat's View, views.py) the seat's knowledge is dealt first: each known position of a hidden
    zone gets a card of its type, then the rest of the zone's K (types guaranteed there) go to random
    free positions of the zone; the remaining hidden cards fill the remaining places at random.
    Cards of one type are interchangeable, so which id of a type goes where is immaterial."""
    copy = st.clone()
    copy.log = copy.chance = copy.script = None
    copy.rng = rng.seed_state(gen.getrandbits(62))
    mask = 1 << seat
    hidden = [z for z, vis in enumerate(program.zone_vis) if not vis & mask and copy.zones[z]]
    pool = sorted(c for z in hidden for c in copy.zones[z])
    gen.shuffle(pool)
    if view is not None and _knowledge_fits(view, copy, hidden):
        _deal_with_knowledge(program, copy, hidden, pool, view, gen)
        return copy
    i = 0
    for z in hidden:
        zone = copy.zones[z]
        zone[:] = pool[i:i + len(zone)]
        i += len(zone)
        for c in zone:
            copy.loc[c] = z
    return copy


def _knowledge_fits(view, st, hidden: list) -> bool:
    """The view's sizes agree with the state's (they do but while an on-empty trigger runs)."""
    return all(len(view.zones[z]) == len(st.zones[z]) for z in hidden)


def _deal_with_knowledge(program, copy, hidden: list, pool: list, view, gen: random.Random) -> None:
    ctype = program.card_type
    by_type: dict = {}
    for c in pool:                          # already shuffled: every type's list is in random order
        by_type.setdefault(ctype[c], []).append(c)
    placed = {}
    for z in hidden:
        slots = view.zones[z]
        zone = [None] * len(slots)
        need = view.known_cards(z)
        for i, t in enumerate(slots):
            if t is not None and by_type.get(t):
                zone[i] = by_type[t].pop()
                need[t] -= 1
        free = [i for i, c in enumerate(zone) if c is None]
        gen.shuffle(free)
        for t in sorted(need):
            for _ in range(max(0, need[t])):
                if not free or not by_type.get(t):
                    break
                zone[free.pop()] = by_type[t].pop()
        placed[z] = zone
    rest = sorted(c for cs in by_type.values() for c in cs)
    gen.shuffle(rest)
    kind_of = program.attr_tables["kind"]
    by_kind: dict = {}
    for c in rest:
        by_kind.setdefault(kind_of[c], []).append(c)
    free = [(z, i) for z in hidden for i, c in enumerate(placed[z]) if c is None]
    gen.shuffle(free)
    free.sort(key=lambda slot: len(view.kinds[slot[0]]) if view.kinds else 0)   # the most constrained first
    for z, i in free:
        allowed = sorted(k for k in (view.kinds[z] if view.kinds else by_kind) if by_kind.get(k)) \
            or sorted(k for k, cs in by_kind.items() if cs)    # no kind fits: any card (not in a sound view)
        r = gen.randrange(sum(len(by_kind[k]) for k in allowed))  # each fitting card equally likely
        for k in allowed:
            if r < len(by_kind[k]):
                placed[z][i] = by_kind[k].pop(r)
                break
            r -= len(by_kind[k])
    if view.kinds:
        _repair_kinds(program, placed, free, view.kinds)
    for z in hidden:
        zone = placed[z]
        copy.zones[z][:] = zone
        for c in zone:
            copy.loc[c] = z


def _repair_kinds(program, placed: dict, filled: list, kinds: list) -> None:
    """Swap freely dealt cards until each lies where its kind may be, where one swap does it.

    The greedy fill can give a zone the last card of a kind another zone needed; a swap with
    a place that accepts the misplaced card mends that (a full matching is not needed here)."""
    kind_of = program.attr_tables["kind"]
    for z, i in filled:
        c = placed[z][i]
        if kind_of[c] in kinds[z]:
            continue
        for z2, j in filled:
            d = placed[z2][j]
            if kind_of[d] in kinds[z] and kind_of[c] in kinds[z2] and kind_of[d] != kind_of[c]:
                placed[z][i], placed[z2][j] = d, c
                break


BOTS = {cls.name: cls for cls in (RandomBot, GreedyBot, AutomaBot)}


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name (see BOTS)."""
    return BOTS[name](seed)
