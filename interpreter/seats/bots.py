"""Bots that decide from what their seat may know: legal moves and what the seat can see.

Every bot that looks ahead does so on *determinised* copies of the state (worlds.py): the cards
the seat cannot see are dealt back at random (from the bot's own generator) into the places hidden
from it, so the real hidden cards never influence a choice. What a copy keeps is exactly what the
seat's view holds: the zones it sees, the sizes of the others, and, when the state carries its event
log, the seat's perfect-memory knowledge (views.py): the card types guaranteed in each hidden zone
(K) and the positions it knows there are dealt first, the rest at random.

  random  uniform over the legal moves;
  greedy  one step ahead on one determinised copy: the move that most raises
          (own evaluation − best opponent's);
  automa  determinised Monte-Carlo look-ahead: each candidate move is played on two determinised
          copies, followed by a short greedy roll-out of every seat's decisions until the bot's next
          turn (or the game's end; a large decision on the way is decided among a few of its moves
          drawn at random); the move with the best mean margin wins;
  memory  perfect-memory look-ahead through the seat's own consecutive decisions that tells sure
          moves (their outcome follows from what the seat knows) from gambles (they show it a card
          it cannot place), and looks through sure moves only.

Every bot decides from a Seat (seat.py): the legal moves, the seat's view and events, and worlds
dealt from its knowledge (seat.world()). All bots are generic: they know the ruleset only through
the Program (legal moves, apply, the ruleset's score or its `bots.eval` via program.evaluations).
"""
from __future__ import annotations

import random

from ..runtime.engine import MOVE, State
from ..errors import RuleRuntimeError
from .player import follow
from .seat import Bot
from .specs import Option
from ..runtime.simultaneous import Simultaneous
from .eval_cache import cache_of
from .rounds import as_unseen, finish_round
from .views import Observer
from .worlds import _below, below, margin


class RandomBot(Bot):
    """Uniform over the legal moves."""

    name = "random"
    uses_view = False
    looks_ahead = False

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        # below()'s draws inlined in choose_from, as worlds.py does (_draws_match checks they are the very draws)
        self.bits = self.rng.getrandbits if below is _below else None

    def choose(self, seat):
        return self.choose_from(seat.moves)

    def choose_from(self, moves: list):
        """choose() from the legal moves alone (what a Player calls: it reads nothing else of the seat)."""
        n = len(moves)
        if n < 2:               # one move; none: moves[0]'s error, never an endless draw below
            return moves[0]
        bits = self.bits
        if bits is None:
            return moves[self.rng.randrange(n)]
        k = n.bit_length()      # the generator's _randbelow(n), n > 1
        r = bits(k)
        while r >= n:
            r = bits(k)
        return moves[r]

    @staticmethod
    def draws(choosers: list):
        """Per seat the getrandbits that choose_from draws with, when every chooser is choose_from of
        a RandomBot whose draws are inlined (Program.play_out then draws them itself, the very
        same draws); else None."""
        out = []
        for chooser in choosers:
            bot = getattr(chooser, "__self__", None)
            if getattr(chooser, "__func__", None) is not RandomBot.choose_from or bot.bits is None:
                return None
            out.append(bot.bits)
        return out


class GreedyBot(Bot):
    """One-step look-ahead: the move that most raises (own evaluation − best opponent's)."""

    name = "greedy"
    reads_events = False

    def choose(self, seat):
        moves = seat.moves
        if len(moves) == 1:
            return moves[0]
        best = best_trials(seat.program, seat.world(), moves, seat.number, spare=True)[0]
        return best[self.rng.randrange(len(best))]


class AutomaBot(Bot):
    """Determinised Monte-Carlo look-ahead: each candidate move played on, greedily, to its next turn.

    For each of `samples` determinised copies (the same copies for every move, so moves are compared
    on equal worlds) and each candidate move: play the move, then let every seat (this one too) play
    greedily on that copy until this seat's next turn begins, the game ends or `depth` decisions
    were made; score the copy by margin (own evaluation − best opponent's). The best mean wins; ties
    go to the better immediate margin, then to the bot's generator. With more than `width` legal
    moves only the `width` best by immediate mean margin are rolled out. In a roll-out, a decision
    of more than `tries` legal moves is decided greedily among `tries` of them drawn at random.

    Two copies and the capped roll-out decisions cost about a third of four copies with every
    move tried, at the same strength against greedy (R-Eco, 2 players); fewer candidates or
    copies lose clearly more.
    """

    name = "automa"
    reads_events = False
    samples = 2
    width = 6
    depth = 12
    tries = 6       # moves tried per decision of a roll-out (drawn at random when there are more)
    options = (Option("samples", int, "determinised copies every candidate move is played on", 1, 1000),
               Option("width", int, "candidate moves rolled out (the best by immediate margin)", 1, 1000),
               Option("depth", int, "decisions a roll-out plays at most", 0, 10_000),
               Option("tries", int, "moves tried per roll-out decision (drawn at random when more)", 1, 1000))

    def choose(self, seat_):
        moves, program, seat = seat_.moves, seat_.program, seat_.number
        if len(moves) == 1:
            return moves[0]
        worlds = seat_.worlds(self.samples)
        seeds = [self.rng.getrandbits(32) for _ in worlds]
        # one step ahead on every world: the immediate margin, and the copies to roll out from
        after = []
        last = len(moves) - 1
        for i, move in enumerate(moves):
            trials, total = [], 0
            for w in worlds:
                trial = w if i == last else w.clone(share=True)  # the worlds serve no move after the last
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
            played = [None]
            for trial, s in zip(trials, seeds):
                try:
                    trial = rollout(program, trial, seat, seat_.turn, random.Random(s), self.depth, played,
                                    self.tries)
                except RuleRuntimeError:
                    trial = played[0]   # a copy the rules cannot play on (only without the seat's knowledge)
                total += margin(program, trial, seat)
            key = (total / len(trials), now)
            if best_key is None or key > best_key:
                best, best_key = [i], key
            elif key == best_key:
                best.append(i)
        return moves[best[self.rng.randrange(len(best))]]


class MemoryBot(Bot):
    """Perfect-memory look-ahead over the seat's own consecutive decisions.

    On a determinised copy every hidden card is either dealt from the seat's knowledge (a card of
    the type it remembers at that position) or guessed. A move that brings no guessed card into the
    seat's sight (read from the copy's own events, so a card turned up and down again counts) is
    *sure*: its outcome is the same in every world the seat thinks possible, so the
    bot looks through it while the same seat decides again (the second card of a turn, the choices
    of an effect, an extra turn), up to `depth` decisions and a share of
    `budget` trial moves. A move that shows
    a guessed card is a *gamble*: gambles are valued together, by the mean one-step margin of up
    to `all_gambles` of them (drawn at random when there are more; only these are evaluated) plus
    what they lead to, never by the best of them, since one imagined world would otherwise credit
    the bot with knowing hidden cards. The best sure move is played unless the gambles are worth
    more (or as much: a gamble shows the seat more), then the valued gamble that did best.

    To stay fast the look-ahead follows, after a move that showed some card types, only the moves
    that show a type already shown on the way (or nothing, or that were not tried yet): cards of one
    type are the ones that meet in pairs, sets and suits. Which move shows what is learnt from the
    trials of this decision, by move, and every move of a decision met on the way is tried once the
    first time (`classify`). A decision's gambles are all valued, up to `all_gambles` of them
    (else as many drawn at random): in one world each shows another hidden card, so together they
    weigh what may be hidden. With few
    legal moves (`few`) the first step is a mean over `samples` copies, which weighs what the seat
    cannot see (other players' hidden cards) more fairly.
    When sure moves tie and nothing else tells them apart, the bot keeps the one that leaves the
    next player least to gain from its own memory (`deny`).
    """

    name = "memory"
    samples = 3     # determinised copies for the first step when there are few moves
    few = 8
    depth = 4       # own consecutive decisions looked through
    spread = 3      # gambles sampled to estimate what follows a gamble
    budget = 48     # trial moves per decision beyond the first step
    least = 3       # trial moves each sure move may look through at least
    _others = None    # follow(): the other seats' Observers, fed the events as this seat saw them
    _no_denial = None  # (turn, decision) where a tie was found to deny the next player nothing
    far = 12          # own decisions left after which a tie is not broken that way
    tie_budget = 300  # trial moves to break a tie by what the next player could gain
    # Up to this many gambles of one decision are all valued, not sampled: in one world each
    # shows another hidden card, so together they are the spread of what may be hidden (e.g. how
    # many of the unknown places hold a card that completes a pair), where a sample is a guess.
    # 16 (not 60) plays as well against random in the shipped memory game at a fraction of the trials.
    all_gambles = 16
    options = (Option("samples", int, "determinised copies for the first step when there are few moves", 1, 1000),
               Option("depth", int, "own consecutive decisions looked through", 1, 100),
               Option("budget", int, "trial moves per decision beyond the first step", 0, 1_000_000))

    def choose(self, seat_):
        moves, program, seat = seat_.moves, seat_.program, seat_.number
        if len(moves) == 1:
            return moves[0]
        worlds = []
        for _ in range(self.samples if len(moves) <= self.few else 1):
            known: set = set()
            w = seat_.world(known)
            w.log = []                      # the look-ahead reads what each trial move shows from its events
            worlds.append((w, set(guessed_cards(program, w, seat, known)), set(hidden_cards(program, w, seat))))
        self._seen, self._chance, self._classified = {}, {}, set()
        sure, gambles = [], []              # (one-step mean margin, move, its copy in each world)
        for move in moves:
            shown, trials, types = 0, [], None
            for w, guessed, hidden in worlds:
                trial = w.clone(share=True)
                program.apply(trial, move)
                seen = sight(program, w, trial, seat)
                shown += len(guessed.intersection(seen))      # the guessed cards it saw
                if types is None:                               # what it showed, in the first world
                    types = _types(program, seen, hidden)
                trials.append(trial)
            self._seen[move] = (not shown, types)
            if shown:                       # valued below only if sampled: its margin waits till then
                gambles.append((None, move, trials))
            else:
                sure.append((sum(margin(program, t, seat) for t in trials) / len(worlds), move, trials))
        # half the budget looks through the sure moves (in every world), half samples what
        # follows the gambles (in the first)
        share = max(self.least, self.budget // 2 // (len(sure) * len(worlds) or 1))
        best, best_value = [], None
        for now, move, trials in sure:
            later = 0
            for trial, (w, guessed, hidden) in zip(trials, worlds):
                self._left = share
                later += self.value(program, trial, seat, guessed, hidden, self._seen[move][1], self.depth - 1) \
                    - margin(program, trial, seat)
            v = now + later / len(worlds)
            if best_value is None or v > best_value:
                best, best_value = [move], v
            elif v == best_value:
                best.append(move)
        if gambles:
            chance, picked = self.chance(program, seat, worlds, gambles)
            if best_value is None or chance >= best_value:
                top = max(g[0] for g in picked)
                best = [g[1] for g in picked if g[0] == top]
        elif len(best) > 1 and seat_.events is not None and self._no_denial != (seat_.turn, seat_.decision):
            tied = best
            best = self.deny(program, seat_.events, worlds[0][0], seat, best)
            if len(best) == len(tied):      # nothing to deny here: not again at this decision this turn
                self._no_denial = (seat_.turn, seat_.decision)
        return best[self.rng.randrange(len(best))]

    def chance(self, program, seat: int, worlds: list, gambles: list) -> tuple:
        """What a decision's gambles are worth together, and the gambles valued ((one-step mean
        margin, move, copies) each): up to `all_gambles` of them, drawn at random when there are
        more, by their mean one-step margin plus the mean of what follows each (in the first world)."""
        picked = self.pick(gambles, max(self.all_gambles, self.budget // 2 // (self.spread + 1)))
        picked = [(sum(margin(program, t, seat) for t in trials) / len(trials), move, trials)
                  for _, move, trials in picked]
        chance = sum(g[0] for g in picked) / len(picked)
        if self.depth > 1:
            guessed, hidden = worlds[0][1], worlds[0][2]
            total = 0
            for _, move, trials in picked:
                self._left = self.spread + 1
                total += self.value(program, trials[0], seat, guessed, hidden, self._seen[move][1],
                                    self.depth - 1) - margin(program, trials[0], seat)
            chance += total / len(picked)
        return chance, picked

    def value(self, program, st, seat: int, guessed: set, hidden: set, path: frozenset, depth: int):
        """The margin st is worth to seat when it plays on with its best sure moves (gambles
        averaged), in this one world; `path` holds the card types shown on the way here."""
        if depth <= 0 or st.over or st.decider != seat or self._left <= 0:
            return margin(program, st, seat)
        sure, gambles = [], []
        moves = program.legal_moves(st)
        tried = self.classify(program, st, seat, moves, guessed, hidden)
        seen_of = self._seen
        for move in moves:
            if self._left <= 0:
                break
            seen = seen_of.get(move)
            if seen is not None:
                if not seen[0]:
                    gambles.append(move)
                    continue
                if path and seen[1] and not seen[1] & path:
                    continue                # shows only types unrelated to the way here
            trial = tried.pop(move, None) if tried else None
            if trial is None:
                trial = self.played(program, st, move)
                seen = seen_of[move] = _shown(program, st, trial, seat, guessed, hidden)
            else:                           # classify played it here just now: what it showed is known
                self._left -= 1
            is_sure, types = seen
            (sure if is_sure else gambles).append((trial, types))
        best = None
        for trial, types in sure:
            v = self.value(program, trial, seat, guessed, hidden, path | types, depth - 1)
            best = v if best is None or v > best else best
        if gambles:
            # One estimate per decision for the whole look-ahead: a gain over this node's margin,
            # the same on every path, so that no path looks better only by a lucky sample.
            key = (st.pending.index, depth)
            gain = self._chance.get(key)
            if gain is None:                # what is left of the share buys a closer mean
                picked = [g[0] if isinstance(g[0], State) else self.replayed(program, st, g, tried)
                          for g in self.pick(gambles, max(self.all_gambles, self._left))]
                gain = sum(margin(program, g, seat) for g in picked) / len(picked) - margin(program, st, seat)
                self._chance[key] = gain
            chance = margin(program, st, seat) + gain
            best = chance if best is None or chance > best else best
        return margin(program, st, seat) if best is None else best

    def classify(self, program, st, seat: int, moves: list, guessed: set, hidden: set) -> dict:
        """The first time the look-ahead meets a decision, try each of its moves once to learn which
        are sure and what they show; later paths then skip, at no cost, the moves that show only
        types unrelated to their way (e.g. every second card but the partner of the first), where
        the budget would otherwise run out on the first moves in order. Returns the copies played
        ({move: copy}), for the caller to go on from instead of playing the moves again."""
        key = (st.pending.index, st.decider)
        if key in self._classified or len(moves) > self.all_gambles:
            return {}
        self._classified.add(key)
        tried = {}
        for move in moves:
            if move not in self._seen:
                trial = st.clone(share=True)
                program.apply(trial, move)
                self._seen[move] = _shown(program, st, trial, seat, guessed, hidden)
                tried[move] = trial
        return tried

    def deny(self, program, events: list, world, seat: int, moves: list) -> list:
        """Among sure moves of equal worth, the ones that leave the next player least to gain
        from what it knows: each is played on the copy, the seat's own following decisions at
        random, then the next player's best sure line (from its knowledge as this seat can
        tell it) is looked through. E.g. a player who must mix some face-down cards mixes the
        ones the next player remembers."""
        known = self.others_known(program, events, seat)
        rollout_gen = random.Random(self.rng.getrandbits(32))
        order = moves[:1] + moves[-1:] + self.pick(moves[1:-1], len(moves))   # the ends of a range first
        best, best_value, spent = [], None, 0
        for move in order[:8]:
            trial = world.clone(share=True)
            program.apply(trial, move)
            steps = 0
            while not trial.over and trial.decider == seat and steps < 200:
                options = program.legal_moves(trial)
                program.apply(trial, options[rollout_gen.randrange(len(options))])
                steps += 1
            spent += steps + 1
            if steps > self.far and not best:
                return moves                # the next player is too far off to tell the moves apart
            value = margin(program, trial, seat)
            if not trial.over and trial.decider in known:
                other = trial.decider
                hidden = set(hidden_cards(program, trial, other))
                guessed = {c for c in hidden if trial.loc[c] not in known[other]}
                self._seen, self._chance, self._left, self._classified = {}, {}, self.budget // 2, set()
                value = -self.value(program, trial, other, guessed, hidden, frozenset(), self.depth)
                spent += self.budget // 2 - self._left
            if best_value is None or value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
            if spent > self.tie_budget:
                break
        return best

    def others_known(self, program, events: list, seat: int) -> dict:
        """Per other seat, the zones hidden from it where it knows a position, as far as this
        seat can tell from the events it saw (a sound lower bound of that seat's memory)."""
        def feed(observers, new):
            for obs in observers.values():
                obs.observe_all(new)
        self._others = mem = follow(self._others, program, seat, events,
                                    lambda: {s: Observer(program, s) for s in range(program.players) if s != seat},
                                    feed)
        out = {}
        for s, obs in mem[5].items():
            v, bit = obs.view(), 1 << s
            out[s] = {z for z, slots in enumerate(v.zones)
                      if not program.zone_vis[z] & bit and any(t is not None for t in slots)}
        return out

    def pick(self, items: list, n: int = 0) -> list:
        """Up to n (default `spread`) items at random, in their order."""
        n = n or self.spread
        if len(items) <= n:
            return items
        return [items[i] for i in sorted(self.rng.sample(range(len(items)), n))]

    def replayed(self, program, st, move, tried: dict):
        """played(), or the copy classify already played the move on (counted all the same)."""
        trial = tried.pop(move, None)
        if trial is None:
            return self.played(program, st, move)
        self._left -= 1
        return trial

    def played(self, program, st, move):
        """A copy of st with move played (counted against the budget)."""
        trial = st.clone(share=True)
        program.apply(trial, move)
        self._left -= 1
        return trial


def hidden_cards(program, st, seat: int) -> list:
    """The cards of st that lie hidden from seat."""
    mask = 1 << seat
    return [c for z, vis in enumerate(program.zone_vis) if not vis & mask for c in st.zones[z]]


def sight(program, before, after, seat: int) -> list:
    """The cards hidden from seat in `before` that it saw move on the way to `after` (a copy of
    before played on, both keeping an event log): a card turned up and down again was seen too."""
    bit, vis, loc = 1 << seat, program.zone_vis, before.loc
    return [c for e in after.log[len(before.log):] if e[0] == MOVE and e[4] & bit
            for c in e[3] if not vis[loc[c]] & bit]


def _shown(program, before, after, seat: int, guessed: set, hidden: set) -> tuple:
    """(whether the move was sure: it showed no guessed card, the types of `hidden` it showed)."""
    seen = sight(program, before, after, seat)
    return (not any(c in guessed for c in seen), _types(program, seen, hidden))


def _types(program, seen: list, hidden: set) -> frozenset:
    """The types of the cards of `hidden` among the cards seen."""
    ctype = program.card_type
    return frozenset(ctype[c] for c in seen if c in hidden)


def guessed_cards(program, st, seat: int, known: set) -> list:
    """The cards of a determinised copy that lie hidden from seat and were not dealt from its knowledge."""
    return [c for c in hidden_cards(program, st, seat) if c not in known]


def rollout(program, st, seat: int, turn: int, gen: random.Random, depth: int, played: list,
            tries: int = 0):
    """Play st on greedily (each decider's one-step best margin on this very copy; inside a round of
    simultaneous choices, on a copy with the round's earlier choices redrawn, rounds.py) until `seat`
    decides in a turn after `turn`, the game ends, or `depth` decisions were made; the state
    reached is returned, and also left in played[0] should the rules fail on the way.

    With `tries`, a decision of more legal moves is decided greedily among `tries` of them drawn
    at random (a large choice, such as which cards to discard, mostly ties on margin: any of
    them is as good a model of the decider, at a fraction of the trials).
    A step goes on from the one-step copy of the move chosen (the very state its move makes),
    not by playing the move again."""
    played[0] = st
    legal_moves, apply = program.legal_moves, program.apply
    for _ in range(depth):
        if st.over or (st.decider == seat and st.turn > turn):
            break
        moves = legal_moves(st)
        if not moves:
            break
        if len(moves) == 1:
            apply(st, moves[0])
            continue
        if tries and len(moves) > tries:
            moves = [moves[i] for i in sorted(gen.sample(range(len(moves)), tries))]
        dec = st.pending                # the round's earlier choices stay unseen by this decider too
        known = as_unseen(st, gen) if type(dec) is Simultaneous else st
        best, trials = best_trials(program, known, moves, st.decider, spare=known is not st)
        pick = gen.randrange(len(best)) if len(best) > 1 else 0
        if known is st:
            st = trials[pick]
        else:
            st = st.clone(log=False, share=True)
            program.apply(st, best[pick])
        played[0] = st
    return st


def best_trials(program, st, moves: list, seat: int, spare: bool = False) -> tuple:
    """The moves whose one-step result has the best margin for seat (ties all kept, in order), and
    beside them the copies of st they were played on. `spare`: the caller needs
    st no more, so the last move is played on st itself (one copy fewer)."""
    best, trials, best_value = [], [], None
    seed, last = st.rng, len(moves) - 1 if spare else -1
    apply, two = program.apply, program.players == 2 and program.cooperative_fn is None
    cache = program.eval_cache
    if cache is None:
        cache = cache_of(program)
    for i, move in enumerate(moves):
        trial = st if i == last else st.clone(share=True)
        apply(trial, move)
        dec = trial.pending         # in_round(trial), inlined:
        if type(dec) is Simultaneous and trial.vars[dec.kept_slot]:
            finish_round(program, trial, seed)      # a simultaneous choice shows nothing until the round ends
        # margin(program, trial, seat) of a copy just played on (no evaluation kept yet), inlined
        values = cache.values(program, trial) if cache else program.evaluations(trial)
        trial.evals = (trial.moves, values)
        value = values[seat] - values[1 - seat] if two else margin(program, trial, seat)
        if best_value is None or value > best_value:
            best, trials, best_value = [move], [trial], value
        elif value == best_value:
            best.append(move)
            trials.append(trial)
    return best, trials

