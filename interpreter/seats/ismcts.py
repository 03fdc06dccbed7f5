"""ismcts: single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse 2012).

One tree over the deciding seat's information sets is grown for each decision. Every iteration
draws a new world from the seat's knowledge (`determinise`: the cards it cannot see dealt again,
what it remembers kept) and walks the tree in that world:

  rate     the first `prior` times a decision is met, every legal move is played one step ahead
           in the world (`one_step`): its worth is the mover's margin after it, or, for a move that
           shows the seat a card it only guessed (dealt at random, not from its knowledge), the
           mean of such moves: which card one of them shows in this world is luck. At the root
           (`look`) a move after which the seat decides again is worth its best next move, so
           the first of two cards that belong together is rated by what the second brings;
  select   go to the tried move with the best UCB1 score, mean payoff + c * sqrt(ln(N_avail) / N)
           + bias * (its rating's rank among the moves, 0 to 1) / (N + 1), where N_avail counts
           the iterations in which the move was legal at its parent (a move the world does not
           allow is neither counted nor chosen);
  expand   the untried legal move rated best gets a node, unless it is rated worse than the best
           tried move and widen * sqrt(visits) moves are tried already (progressive widening);
  roll out random, greedy or informed moves (option `rollout`; informed: every decider takes the
           move rated best as above) until the game ends or `depth` decisions were made from the
           root, tree and roll-out together;
  back up  each node on the way gains the payoff of the seat that moved into it.

The payoff of a seat is 1 for a win (a shared win split) and 0 for a loss when the game ends; at
the cut-off it is its margin (own evaluation − best opponent's, the ruleset's `bots.eval` or score;
in a cooperative game the win is everyone's whole 1 and the cut-off is always the squashed shared
evaluation, `payoff=win` too), with `payoff=gain` (the default) less its margin in the world
before the iteration, squashed into [0, 1] by 0.5 + 0.5 tanh(margin / s), s being the mean size of
the margins met in this search, or with `payoff=win` whether it leads then. (The gain, not the
whole margin: a seat far ahead or behind would otherwise see every move squashed to the same worth.)
Other seats' decisions are made in the
tree too, from the world of the iteration: their nodes are keyed by the move (interchangeable
cards are one move, so a move means the same in every world) and shared across worlds, as in the
single-observer search. With `nodes=seen` (the default) the moves after a node are also kept
apart by what the seat saw on the way there (the card moves it sees, by type and destination,
of that move and the forced moves after it), so a node is one of the seat's information sets
even where a move shows a card its text does not name (turning a card); `nodes=moves` keys them
by the moves alone. Forced moves (only one legal) are played without a node.

With `reuse` = k a world serves k iterations in a row, each played on its own copy of it: dealing a
world costs far more than copying one (every hidden card is dealt again), so more iterations fit in
the same time, over fewer worlds.

The budget is `iterations` (the default, fully determined by the bot's seed) or, when `seconds`
is more than 0, the time: then how many iterations fit depends on the machine, and so does the
choice. The move played is the root's most visited child.
"""
from __future__ import annotations

import math
import time

from ..errors import RuleRuntimeError
from ..runtime.announce import NONE
from ..runtime.engine import DECIDE, MOVE, REVEAL
from .bots import hidden_cards, rollout
from .rounds import finish_round, in_round
from .seat import Bot
from .worlds import below, evaluations, margin
from .specs import Option


class Moves(dict):
    """The nodes of the moves at one decision (an information set with nodes=seen), by move key, and
    what the moves are worth one step ahead: prior[key] = [total margin, worlds rated]."""

    __slots__ = ("prior", "rated", "visits")

    def __init__(self):
        super().__init__()
        self.prior, self.rated, self.visits = {}, 0, 0


class Node:
    """A move in the tree: who made it, the next moves by key (apart by what the seat saw it and
    the forced moves after it show, with nodes=seen), visits, availability, payoff."""

    __slots__ = ("mover", "children", "shown", "visits", "avail", "total")

    def __init__(self, mover: int):
        self.mover, self.children, self.shown = mover, Moves(), None
        self.visits, self.avail, self.total = 0, 1, 0.0

    def branch(self, sight) -> Moves:
        """The next moves after the seat saw `sight` (None: nothing, or nodes=moves)."""
        if sight is None:
            return self.children
        if self.shown is None:
            self.shown = {}
        found = self.shown.get(sight)
        if found is None:
            found = self.shown[sight] = Moves()
        return found


class IsmctsBot(Bot):
    """Information-set MCTS over the seat's knowledge: a new determinised world every `reuse` iterations."""

    name = "ismcts"
    reads_events = False
    iterations = 400
    seconds = 0.0
    rollout = "random"
    depth = 16
    c = 0.7
    payoff = "gain"
    nodes = "seen"
    prior = 1
    bias = 1.0
    widen = 0.3
    look = 1
    reuse = 4
    options = (Option("iterations", int, "search iterations per decision (the budget unless seconds > 0)",
                      1, 1_000_000),
               Option("seconds", float, "thinking time per decision instead of iterations (0: use "
                      "iterations; a time budget makes the choices depend on the machine)", 0.0, 3600.0),
               Option("rollout", ("random", "greedy", "informed"), "how the roll-out after the tree plays"),
               Option("depth", int, "decisions from the root (tree and roll-out) before the position is scored",
                      1, 100_000),
               Option("c", float, "UCB1 exploration constant", 0.0, 100.0),
               Option("payoff", ("margin", "gain", "win"), "what a cut-off position is worth: the squashed "
                      "margin, the squashed margin gained since the decision, or 1 for the leader"),
               Option("nodes", ("seen", "moves"), "a node per move and what the seat saw it show (its "
                      "information sets), or per move alone"),
               Option("prior", int, "worlds each decision's moves are rated one step ahead on, to try the "
                      "best first and bias the choice (0: no priors)", 0, 1000),
               Option("bias", float, "weight of a move's prior in the choice, fading with its visits", 0.0, 100.0),
               Option("widen", float, "moves worse by prior than the best tried are tried only while fewer "
                      "than widen * sqrt(visits) are", 0.0, 1000.0),
               Option("look", int, "1: the moves of the decision itself are rated through the seat's next "
                      "decision when it decides again; 0: one step ahead like the others", 0, 1),
               Option("reuse", int, "iterations played on each redealt world, each on a copy of it (1: a "
                      "new world every iteration; more: fewer, cheaper deals)", 1, 1000))

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self._seat = 0                  # the seat deciding (the observer of this search)
        self._scale = [0.0, 0]          # the margins met in this search: their total size and number

    def choose(self, seat):
        moves, program = seat.moves, seat.program
        if len(moves) == 1:
            return moves[0]
        self._seat = seat.number
        root = Node(seat.number)
        self._scale = [0.0, 0]
        deadline = time.perf_counter() + self.seconds if self.seconds > 0 else None
        done, reuse, world, known, dealt = 0, self.reuse, None, None, None
        while (done < self.iterations) if deadline is None else (done == 0 or time.perf_counter() < deadline):
            if done % reuse == 0:       # a new world: dealing one costs far more than copying it
                known = set() if self.prior else None
                world = seat.world(known)
                dealt = self.dealt(program, world, known)
            self.iterate(program, world if reuse == 1 else world.clone(log=False, share=True), root, known, dealt)
            done += 1
        return self.most_visited(seat, root)

    def dealt(self, program, world, known: set | None) -> tuple:
        """What every iteration on one dealt world starts from, worked out once for its copies: the
        cards the world guessed rather than dealt from the seat's knowledge (None when no move is
        rated), and every seat's margin in it (None unless payoff=gain)."""
        guessed = {c for c in hidden_cards(program, world, self._seat) if c not in (known or ())} \
            if self.rates(known) or self.rollout == "informed" else None
        return guessed, all_margins(program, world) if self.payoff == "gain" else None

    def rates(self, known: set | None) -> bool:
        """Whether the moves are rated one step ahead: priors asked for, on a world dealt from `known`."""
        return self.prior > 0 and known is not None

    def iterate(self, program, world, root: Node, known: set | None = None, dealt: tuple | None = None) -> None:
        """One iteration on one world: select, expand, roll out, back up (nothing is learnt from a
        world the rules fail on). `known`: the cards the world was dealt from the seat's knowledge;
        without it the moves are not rated one step ahead (no priors). `dealt`: self.dealt of the
        world (or of the world it is a copy of, not played on yet)."""
        seat, by_sight = self._seat, self.nodes == "seen"
        path, node, children, fresh, made, mark = [], root, root.children, None, 0, -1    # -1: at the root
        rate = self.rates(known)
        informed = self.rollout == "informed"
        guessed, start = self.dealt(program, world, known) if dealt is None else dealt
        if by_sight or rate or informed:
            world.log = []              # what the seat sees of each move, read from the world's events
        try:
            while not world.over and made < self.depth:
                moves = program.legal_moves(world)
                if not moves:           # this world offers its decider nothing: the rules fail in it
                    raise program.stuck(world)
                if len(moves) == 1:
                    program.apply(world, moves[0])
                    continue
                made += 1
                if mark >= 0:
                    children = node.branch(seen(program, world.log, mark, seat) if by_sight else None)
                keys = move_keys(program, world, moves)
                if rate and children.rated < self.prior:
                    self.rate(program, world, moves, keys, children, guessed, mark < 0 and self.look > 0)
                untried = []
                for i, k in enumerate(keys):
                    child = children.get(k)
                    if child is None:
                        untried.append(i)
                    else:
                        child.avail += 1
                children.visits += 1
                worth = self.worth(children, keys)
                i = self.first(untried, keys, children, worth) if untried else None
                if i is not None:
                    fresh = (children, keys[i], Node(world.decider))
                    program.apply(world, moves[i])
                    path.append(fresh[2])
                    break
                i = self.select(children, keys, worth)
                node = children[keys[i]]
                mark = 0 if world.log is None else len(world.log)
                program.apply(world, moves[i])
                path.append(node)
            if self.rollout == "informed":
                unsure = guessed - seen_cards(world.log, seat) if guessed else None
                world = self.informed(program, world, self.depth - made, unsure)
            else:
                world.log = None        # the roll-out needs no events
                world = self.roll_out(program, world, self.depth - made)
            payoffs = self.payoffs(program, world, start)
        except RuleRuntimeError:
            return
        if fresh is not None:
            fresh[0][fresh[1]] = fresh[2]
        for n in path:
            n.visits += 1
            n.total += payoffs[n.mover]

    def rate(self, program, world, moves: list, keys: list, children: Moves, guessed: set,
             through: bool = False) -> None:
        """Add this world's one-step worth of every move (one_step) to the decision's priors."""
        unsure = guessed - seen_cards(world.log, self._seat) if guessed else None
        values = one_step(program, world, moves, self._seat, unsure, through)[0]
        prior = children.prior
        for k, v in zip(keys, values):
            p = prior.get(k)
            if p is None:
                p = prior[k] = [0.0, 0]
            p[0] += v
            p[1] += 1
        children.rated += 1

    @staticmethod
    def worth(children: Moves, keys: list) -> list | None:
        """Each move's prior mean, None for a move not rated (None when none is: no priors), worked
        out once for first and select at each step."""
        prior = children.prior
        if not prior:
            return None
        return [prior[k][0] / prior[k][1] if k in prior else None for k in keys]

    def first(self, untried: list, keys: list, children: Moves, worth: list | None = None) -> int | None:
        """The untried move to expand, or None to choose among the tried ones: the best by prior
        (a move not rated counts as the mean of those rated; the first of equals drawn at random),
        when it is as good as the best tried move's prior or fewer than widen * sqrt(visits) of
        the legal moves were tried (progressive widening: a clearly worse move waits its turn)."""
        if worth is None:
            worth = self.worth(children, keys)
        if worth is not None:
            rated = [w for w in worth if w is not None]
            if rated:
                mean = sum(rated) / len(rated)
                worth = [mean if w is None else w for w in worth]
                top = max(worth[i] for i in untried)
                tried = len(keys) - len(untried)
                if tried and top < max(w for i, w in enumerate(worth) if keys[i] in children) \
                        and tried >= self.widen * math.sqrt(children.visits):
                    return None
                untried = [i for i in untried if worth[i] == top]
        return untried[below(self.rng, len(untried))]

    def select(self, children: Moves, keys: list, worth: list | None = None) -> int:
        """Which tried legal move's child has the best UCB1 score by availability, plus the progressive
        bias of its prior, bias * (prior's rank in [0, 1]) / (visits + 1) (the first of equals).
        `worth`: self.worth(children, keys), when the caller has it."""
        best, best_score, c, sqrt, log = 0, None, self.c, math.sqrt, math.log
        bias = self.bias
        lo = span = None
        if bias and children.prior:
            if worth is None:
                worth = self.worth(children, keys)
            rated = [w for w in worth if w is not None]
            if rated:
                lo = min(rated)
                span = max(rated) - lo
        for i, k in enumerate(keys):
            n = children.get(k)
            if n is None:               # not tried yet (progressive widening holds it back)
                continue
            score = n.total / n.visits + c * sqrt(log(n.avail) / n.visits)
            if span:
                w = worth[i]
                h = 0.5 if w is None else (w - lo) / span
                score += bias * h / (n.visits + 1)
            if best_score is None or score > best_score:
                best, best_score = i, score
        return best

    def informed(self, program, world, left: int, unsure: set | None):
        """The world played on for up to `left` decisions, each decider taking the move of the best
        one-step worth (one_step: a move that shows the seat a card it only guessed is worth the
        mean of such moves, so every decider plays on what the seat knows, no more)."""
        rng, made = self.rng, 0
        while not world.over and made < left:
            moves = program.legal_moves(world)
            if not moves:
                raise program.stuck(world)
            if len(moves) == 1:
                program.apply(world, moves[0])
                continue
            made += 1
            values, trials = one_step(program, world, moves, self._seat, unsure)
            top = max(values)
            best = [i for i, v in enumerate(values) if v == top]
            world = trials[best[below(rng, len(best))] if len(best) > 1 else best[0]]
            if unsure:
                unsure = unsure - seen_cards(world.log, self._seat)
        return world

    def roll_out(self, program, world, left: int):
        """The world played on for up to `left` decisions by the roll-out policy."""
        if left <= 0 or world.over:
            return world
        if self.rollout == "greedy":
            played = [world]
            return rollout(program, world, -1, 1 << 62, self.rng, left, played)
        rng, made = self.rng, 0
        while not world.over and made < left:
            moves = program.legal_moves(world)
            if not moves:
                raise program.stuck(world)
            if len(moves) > 1:
                made += 1
                program.apply(world, moves[below(rng, len(moves))])
            else:
                program.apply(world, moves[0])
        return world

    def payoffs(self, program, world, start: list | None = None) -> list:
        """Every seat's payoff in [0, 1]: the game's result when it is over, else the cut-off's worth
        (with payoff=gain, `start` holds every seat's margin in the world before the iteration)."""
        players = program.players
        if world.over:
            winners = program.result(world)["winners"]
            if program.cooperative_fn is not None:      # the table wins or loses together
                return [1.0 if winners else 0.0] * players
            return [1 / len(winners) if p in winners else 0.0 for p in range(players)]
        margins = all_margins(program, world)
        if self.payoff == "win" and program.cooperative_fn is None:     # nobody leads a cooperative table
            leaders = [p for p, m in enumerate(margins) if m >= 0]
            return [1 / len(leaders) if p in leaders else 0.0 for p in range(players)]
        if start is not None:
            margins = [m - m0 for m, m0 in zip(margins, start)]
        scale = self._scale
        scale[0] += sum(abs(m) for m in margins)
        scale[1] += len(margins)
        size = scale[0] / scale[1] or 1.0
        return [0.5 + 0.5 * math.tanh(m / size) for m in margins]

    def most_visited(self, seat, root: Node):
        """The legal move whose child was visited most (then the better mean, then the generator)."""
        best, best_key = [], None
        for m in seat.moves:
            n = root.children.get(root_key(seat, m))
            key = (n.visits, n.total / n.visits) if n is not None and n.visits else (0, 0.0)
            if best_key is None or key > best_key:
                best, best_key = [m], key
            elif key == best_key:
                best.append(m)
        return best[below(self.rng, len(best))] if len(best) > 1 else best[0]


def all_margins(program, st) -> list:
    """Every seat's margin: its evaluation minus the best other seat's (a cooperative table, or a
    lone seat: the evaluation)."""
    values = evaluations(program, st)
    if len(values) == 1 or program.cooperative_fn is not None:
        return values
    return [v - max(values[:p] + values[p + 1:]) for p, v in enumerate(values)]


def one_step(program, world, moves: list, seat: int, unsure: set | None, through: bool = False) -> tuple:
    """Every move's one-step worth to the world's decider, and the copies it was played on (each
    with the events of its move): the decider's margin after it, or, for a move that shows `seat`
    a card of `unsure` (dealt at random, not from its knowledge), the mean of those moves: what
    one of them shows in this world is luck the seat cannot count on. With `through`, a move after
    which the same seat decides again is worth the best of its next moves (rated likewise, from
    what the move showed)."""
    mover = world.decider
    values, trials, gambles = [], [], []
    for m in moves:
        trial = world.clone(log=False, share=True)
        trial.log = []
        program.apply(trial, m)
        if in_round(trial):             # a simultaneous choice shows nothing until the round ends
            finish_round(program, trial, world.rng)
        shown = seen_cards(trial.log, seat) if unsure else None
        value = margin(program, trial, mover)
        if through and not trial.over and trial.decider == mover:
            nexts = program.legal_moves(trial)
            if len(nexts) > 1:
                value = max(one_step(program, trial, nexts, seat, unsure - shown if unsure else None)[0])
        values.append(value)
        trials.append(trial)
        if unsure:
            gambles.append(not unsure.isdisjoint(shown))
    if any(gambles):
        luck = [v for v, g in zip(values, gambles) if g]
        chance = sum(luck) / len(luck)
        values = [chance if g else v for v, g in zip(values, gambles)]
    return values, trials


def seen_cards(log: list, seat: int) -> set:
    """The cards whose faces the seat saw in the events of log (moved or revealed to it)."""
    out = set()
    for e in log:
        if e[0] == MOVE and e[4] >> seat & 1:
            out.update(e[3])
        elif e[0] == REVEAL and e[3] >> seat & 1:
            out.update(c for _, c in e[2])
    return out


def seen(program, log: list, mark: int, seat: int):
    """What the seat saw of the events since `mark`: per card move it sees, where to and the cards'
    types, per reveal to it, the zone and the types, every announcement and public decision (None when it saw none,
    or when the world keeps no events: nodes=moves)."""
    if log is None:
        return None
    ctype, out = program.card_type, []
    for e in log[mark:]:
        if e[0] == MOVE and e[4] >> seat & 1:
            out.append((e[2],) + tuple(sorted(ctype[c] for c in e[3])))
        elif e[0] == REVEAL and e[3] >> seat & 1:      # shown where they lie: the zone and the faces
            out.append((REVEAL, e[1]) + tuple(sorted(ctype[c] for _, c in e[2])))
        elif e[0] == NONE:                              # announced to everyone: the zone and the types
            out.append(e)
        elif e[0] == DECIDE and program.decisions[e[2]].public:    # a public choice: who chose what
            out.append((DECIDE, e[1], program.decisions[e[2]].text(e[3])))
    return tuple(out) or None


def move_key(program, st, move):
    """A move as the tree knows it: who makes it at which decision, and the move (its canonical
    text when the move holds a value that is not hashable)."""
    key = (st.decider, st.pending.index, move)
    try:
        hash(key)
    except TypeError:
        key = (st.decider, st.pending.index, program.move_text(st, move))
    return key


def move_keys(program, st, moves: list) -> list:
    """move_key of every move (hashed at once: a move holding a value that is not hashable is rare)."""
    who, at = st.decider, st.pending.index
    keys = [(who, at, m) for m in moves]
    try:
        hash(tuple(keys))
    except TypeError:
        keys = [move_key(program, st, m) for m in moves]
    return keys


def root_key(seat, move):
    """move_key of a legal move at the seat's decision (what the worlds of this decision key it by)."""
    key = (seat.number, seat.decision, move)
    try:
        hash(key)
    except TypeError:
        key = (seat.number, seat.decision, seat.text(move))
    return key
