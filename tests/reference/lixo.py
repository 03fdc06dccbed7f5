"""Independent hand-written reference implementation of Lixo? (garbage auction).

Follows the Lixo rule sheet as docs/games.md describes it ("Lixo?", Components .. End and
scoring), not the ruleset or
the interpreter.  Used by tests to cross-check the rules interpreter, so it is
deliberately plain: card types are small ints, piles are lists (bottom to top, top card
= last element), hands, bids and unrecycled garbage are per-colour count lists.

Garbage card type g (0..4) is a colour: yellow, blue, green, red, grey (36 cards each).
Bins card type b: 0..19 a container, colour b // 4, value VALUES[b % 4] (values 1, 2, 3, 5;
two copies of each 1); b == STOP (20) a stop card (5 copies).

Move texts (decisions in an auction for the turned-over container):
    bid: 3*blue     (k garbage cards of the container's colour onto the bid so far)
    pass

Chance entries (shuffle outcomes): {"zone": "bins" | "garbage", "order": [type names
bottom to top]}; the top card (drawn first) is the last name.  A pile of fewer than 2
cards is never shuffled and uses no entry.  Setup shuffles the bins, then the garbage;
a garbage deck rebuilt from the recycled pile is shuffled again ("garbage").
"""

import random

COLOURS = ("yellow", "blue", "green", "red", "grey")
COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}
GARBAGE_PER_COLOUR = 36
VALUES = (1, 2, 3, 5)
VALUE_COPIES = (2, 1, 1, 1)             # values 1, 1, 2, 3, 5 in each colour
STOP = 20
STOP_CARDS = 5
BIN_TYPES = tuple("container:%s:%d" % (c, v) for c in COLOURS for v in VALUES) + ("stop",)
BIN_INDEX = {name: b for b, name in enumerate(BIN_TYPES)}
START_HAND = 5
STOP_DEAL = 5
EMPTY_DEAL = 5


def container_colour(b):
    return b // 4


def container_value(b):
    return VALUES[b % 4]


def bid_text(colour, k):
    return "bid: %d*%s" % (k, COLOURS[colour])


class Game:
    """One game up to its next decision.  Shuffles take their outcomes from `chance`
    (a record's list) while it lasts, then from random.Random(seed); replays give only
    `chance`, so running out of outcomes is an error there."""

    def __init__(self, players, seed=None, chance=None):
        if not 2 <= players <= 6:
            raise ValueError("Lixo needs 2-6 players")
        if seed is None and chance is None:
            raise ValueError("give a seed, a chance list, or both (the list's outcomes first)")
        self.players = players
        self._rng = random.Random(seed) if seed is not None else None
        self._chance = list(chance) if chance is not None else None
        self._ci = 0
        self.chance_log = []

        n = players
        self.hands = [[0] * 5 for _ in range(n)]
        self.hand_size = [0] * n
        self.bids = [0] * n                 # cards on each player's bid (all of the lot's colour)
        self.unrecycled = [[0] * 5 for _ in range(n)]
        self.won = [[] for _ in range(n)]   # bins types of the containers won
        self.recycled = []                  # garbage types
        self.unclaimed = []                 # bins types
        self.used_stops = 0
        self.turned = None                  # the bins card being resolved
        self.first = 0                      # first player (seat 0: the youngest)
        self.turns = 0                      # bins cards turned over
        self.moves = 0                      # decisions taken
        self.over = False
        # how often the rarer rules applied (for tests and statistics)
        self.empty_hand_deals = 0           # every hand empty after a card: new cards
        self.rebuilt_decks = 0              # garbage deck rebuilt from the recycled pile
        self.short_deals = 0                # deals stopped by an empty deck and recycled pile
        # auction
        self.in_auction = False
        self.lot = None                     # colour of the turned container
        self.high = 0
        self.leader = -1
        self.passes = 0                     # passes in a row since the last bid (or the start)
        self.asker = 0                      # whose turn it is in the auction
        self.decider = None

        bins = []
        for c in range(5):
            for i in range(4):
                bins.extend([c * 4 + i] * VALUE_COPIES[i])
        bins.extend([STOP] * STOP_CARDS)
        self.bins = bins
        self.garbage = [g for g in range(5) for _ in range(GARBAGE_PER_COLOUR)]
        self._shuffle(self.bins, "bins")
        self._shuffle(self.garbage, "garbage")
        self._deal(START_HAND)
        self._run()

    # ---------------------------------------------------------------- chance
    def _shuffle(self, pile, zone):
        if len(pile) < 2:
            return
        names = BIN_TYPES if zone == "bins" else COLOURS
        if self._chance is None or (self._ci >= len(self._chance) and self._rng is not None):
            self._rng.shuffle(pile)
        else:
            if self._ci >= len(self._chance):
                raise ValueError("chance list exhausted")
            entry = self._chance[self._ci]
            if entry.get("zone") != zone:
                raise ValueError("chance entry %d is for zone %r, expected %r" % (self._ci, entry.get("zone"), zone))
            index = BIN_INDEX if zone == "bins" else COLOUR_INDEX
            try:
                order = [index[name] for name in entry["order"]]
            except KeyError as e:
                raise ValueError("unknown card type %s in chance entry" % e) from None
            if sorted(order) != sorted(pile):
                raise ValueError("chance entry %d does not match the pile's cards" % self._ci)
            pile[:] = order
        self._ci += 1
        self.chance_log.append({"zone": zone, "order": [names[t] for t in pile]})

    @property
    def chance_used(self):
        return self._ci

    # ---------------------------------------------------------------- dealing
    def _draw_garbage(self):
        """The top garbage card, rebuilding the deck from the recycled pile when it is
        empty; None when both are empty."""
        deck = self.garbage
        if not deck:
            if not self.recycled:
                return None
            deck.extend(self.recycled)
            self.recycled.clear()
            self.rebuilt_decks += 1
            self._shuffle(deck, "garbage")
        return deck.pop()

    def _deal(self, per_player):
        """One card at a time, clockwise, from the first player; stops when no card is left."""
        n = self.players
        for _ in range(per_player):
            for i in range(n):
                g = self._draw_garbage()
                if g is None:
                    self.short_deals += 1
                    return
                p = (self.first + i) % n
                self.hands[p][g] += 1
                self.hand_size[p] += 1

    # ---------------------------------------------------------------- flow
    def _run(self):
        """Play on until a player must decide or the game is over."""
        n = self.players
        while not self.over:
            if self.in_auction:
                # round the table until every other player has passed since the last bid,
                # or everyone passed once and nobody bid
                while not (self.passes == n or (self.leader >= 0 and self.passes == n - 1)):
                    p = self.asker
                    if self.bids[p] + self.hands[p][self.lot] > self.high:
                        self.decider = p
                        return
                    self.passes += 1            # cannot raise: passes automatically
                    self.asker = (p + 1) % n
                self._settle()
                self._after_card()
                continue
            card = self.bins.pop()
            self.turns += 1
            self.turned = card
            if card == STOP:
                self._deal(STOP_DEAL)
                self.first = (self.first + 1) % n
                self.used_stops += 1
                self.turned = None
                self._after_card()
            else:
                self.in_auction = True
                self.lot = container_colour(card)
                self.high = 0
                self.leader = -1
                self.passes = 0
                self.asker = self.first
        self.decider = None

    def _settle(self):
        card = self.turned
        lot = self.lot
        if self.leader >= 0:
            w = self.leader
            self.won[w].append(card)
            self.recycled.extend([lot] * self.bids[w])
            self.bids[w] = 0
        else:
            self.unclaimed.append(card)
        for p in range(self.players):
            if self.bids[p]:
                self.unrecycled[p][lot] += self.bids[p]
                self.bids[p] = 0
        self.turned = None
        self.in_auction = False

    def _after_card(self):
        if not self.bins:
            self.over = True
            return
        if not any(self.hand_size):
            self.empty_hand_deals += 1
            self._deal(EMPTY_DEAL)
            self.first = (self.first + 1) % self.players

    # ---------------------------------------------------------------- moves
    def _options(self):
        """Legal choices of the decider: 0 for pass, k > 0 for a bid of k cards."""
        if self.over:
            return []
        p = self.decider
        need = self.high + 1 - self.bids[p]
        return [0] + list(range(max(need, 1), self.hands[p][self.lot] + 1))

    def _text(self, k):
        return "pass" if k == 0 else bid_text(self.lot, k)

    def legal_moves(self):
        return [self._text(k) for k in self._options()]

    def apply(self, text):
        if self.over:
            raise ValueError("game is over")
        if text == "pass":
            k = 0
        else:
            kind, sep, rest = text.partition(": ")
            n, star, colour = rest.partition("*")
            if kind != "bid" or not sep or not star or not n.isdigit() or str(int(n)) != n:
                raise ValueError("bad move %r" % text)
            if colour != COLOURS[self.lot]:
                raise ValueError("illegal move %r: the container is %s" % (text, COLOURS[self.lot]))
            k = int(n)
            if k not in self._options():
                raise ValueError("illegal move %r" % text)
        self._do(k)

    def _do(self, k):
        p = self.decider
        if k:
            self.hands[p][self.lot] -= k
            self.hand_size[p] -= k
            self.bids[p] += k
            self.high = self.bids[p]
            self.leader = p
            self.passes = 0
        else:
            self.passes += 1
        self.asker = (p + 1) % self.players
        self.moves += 1
        self._run()

    # ---------------------------------------------------------------- result
    def scores(self):
        return [sum(container_value(b) for b in self.won[p]) - self.hand_size[p]
                - sum(self.unrecycled[p]) - self.bids[p] for p in range(self.players)]

    def result(self):
        """Scores of the current state (final once `over`), the winners (ties shared),
        turns (bins cards turned over) and moves (decisions)."""
        sc = self.scores()
        best = max(sc)
        return {"scores": sc, "winners": [p for p, s in enumerate(sc) if s == best],
                "turns": self.turns, "moves": self.moves}


def replay(record, require_complete=True):
    """Replay a record {"players", "chance", "moves": [{"seat", "move"}]} and return
    the result.  Raises ValueError on an illegal move, a wrong seat, moves after the
    end, or (require_complete) an unfinished game or unused chance entries."""
    g = Game(record["players"], chance=record["chance"])
    for i, mv in enumerate(record["moves"]):
        if g.over:
            raise ValueError("move %d after the end of the game" % i)
        if mv["seat"] != g.decider:
            raise ValueError("move %d: seat %r is not to decide (seat %d is)" % (i, mv["seat"], g.decider))
        g.apply(mv["move"])
    if require_complete:
        if not g.over:
            raise ValueError("record ends before the game is over")
        if g.chance_used != len(record["chance"]):
            raise ValueError("record has %d unused chance entries" % (len(record["chance"]) - g.chance_used))
    return g.result()


def random_game(players, seed, max_moves=100000):
    """Play one game with uniformly random legal moves (pass, or a bid of k cards for each
    legal k); one random.Random(seed) drives both shuffles and choices.
    Returns (record, game): record = {"players", "seed", "chance", "moves", "result"}."""
    g = Game(players, seed=seed)
    rng = g._rng
    moves = []
    while not g.over:
        if len(moves) >= max_moves:
            raise RuntimeError("random game exceeded %d moves" % max_moves)
        opts = g._options()
        k = opts[rng.randrange(len(opts))]
        moves.append({"seat": g.decider, "move": g._text(k)})
        g._do(k)
    rec = {"players": players, "seed": seed, "chance": g.chance_log,
           "moves": moves, "result": g.result()}
    return rec, g
