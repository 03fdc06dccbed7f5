"""Lixo? written by hand in plain Python: the yardstick of `benchmarks/` (issue 16).

It plays what rulesets/lixo.yaml plays (and, with two_colour=True, rulesets/lixo_two_colour.yaml):
30 bins cards (25 containers, 5 stops) turned over one by one; a container is auctioned round
the table for garbage cards of its colour, a stop deals 5 cards to everyone and moves the first
player on. The random player picks uniformly among the distinct moves cardrules lists: pass,
or one bid for every multiset of matching card types that beats the highest bid.

    python benchmarks/yardsticks/lixo.py --players 4 --seconds 5 [--two-colour]
"""
import argparse
import os
import random
import time
from itertools import product

COLOURS = ("yellow", "blue", "green", "red", "grey")
PAIRS = tuple((a, b) for a in range(5) for b in range(a + 1, 5))
START_HAND, STOP_DEAL, EMPTY_DEAL = 5, 5, 5
STOP = None
# The bins deck: in each colour the containers 1, 1, 2, 3, 5, and 5 stop cards.
BINS = tuple((c, v) for c in range(5) for v in (1, 1, 2, 3, 5)) + (STOP,) * 5

# A garbage card is a kind (an index); KINDS lists the colours each kind may be bid for.
ONE_KINDS = tuple((c,) for c in range(5))
ONE_DECK = tuple(k for k in range(5) for _ in range(36))
TWO_KINDS = ONE_KINDS + PAIRS
TWO_DECK = tuple(k for k in range(5) for _ in range(24)) + tuple(5 + i for i in range(10) for _ in range(6))


def kinds_for(kinds):
    """Per colour, the kinds of garbage card that may be bid for it."""
    return tuple(tuple(k for k, colours in enumerate(kinds) if c in colours) for c in range(5))


ONE_MATCH, TWO_MATCH = kinds_for(ONE_KINDS), kinds_for(TWO_KINDS)


class Table:
    """Everything on the table but the bins deck: garbage deck, recycled pile, hands and what lies in front."""

    __slots__ = ("n", "rng", "match", "deck", "recycled", "hands", "held", "lost", "points", "first", "moves")

    def __init__(self, players, rng, two_colour):
        self.n, self.rng = players, rng
        self.match = TWO_MATCH if two_colour else ONE_MATCH
        self.deck = list(TWO_DECK if two_colour else ONE_DECK)
        rng.shuffle(self.deck)
        self.recycled = []
        kinds = len(TWO_KINDS if two_colour else ONE_KINDS)
        self.hands = [[0] * kinds for _ in range(players)]     # cards of each kind in hand
        self.held = [0] * players                               # hand sizes
        self.lost = [0] * players                               # unrecycled garbage: -1 each
        self.points = [0] * players                             # values of the containers won
        self.first = 0
        self.moves = 0

    def deal(self, k):
        """k cards each, one at a time from the first player; stops when deck and recycled pile are dry."""
        deck, hands, held, n = self.deck, self.hands, self.held, self.n
        order = [(self.first + i) % n for i in range(n)]
        for _ in range(k):
            for p in order:
                if not deck:
                    if not self.recycled:
                        return
                    deck.extend(self.recycled)
                    self.recycled.clear()
                    self.rng.shuffle(deck)
                hands[p][deck.pop()] += 1
                held[p] += 1

    def next_first(self):
        self.first = (self.first + 1) % self.n

    def choose(self, hand, kinds, least):
        """A uniform pick among pass and every distinct bid of at least `least` cards: the kinds bid ([]: pass)."""
        if len(kinds) == 1:
            kind = kinds[0]
            k = self.rng.randrange(hand[kind] - least + 2)     # 0: pass, else a bid of least + k - 1
            return [kind] * (least + k - 1) if k else []
        have = [(kind, hand[kind]) for kind in kinds if hand[kind]]
        bids = [counts for counts in product(*(range(c + 1) for _, c in have)) if sum(counts) >= least]
        k = self.rng.randrange(len(bids) + 1)
        if not k:
            return []
        cards = []
        for (kind, _), c in zip(have, bids[k - 1]):
            cards += [kind] * c
        return cards

    def auction(self, colour, value):
        """Round the table from the first player until all others passed since the last bid (or all passed)."""
        n, hands, held = self.n, self.hands, self.held
        kinds = self.match[colour]
        bids = [[] for _ in range(n)]
        high, leader, passes, p = 0, -1, 0, self.first
        while passes < (n - 1 if leader >= 0 else n):
            hand, bid = hands[p], bids[p]
            matching = hand[kinds[0]] if len(kinds) == 1 else sum(hand[k] for k in kinds)
            if len(bid) + matching > high:      # else a forced pass, not a move
                self.moves += 1
                cards = self.choose(hand, kinds, high + 1 - len(bid))
                if cards:
                    for k in cards:
                        hand[k] -= 1
                    held[p] -= len(cards)
                    bid += cards
                    high, leader, passes = len(bid), p, 0
                else:
                    passes += 1
            else:
                passes += 1
            p = (p + 1) % n
        if leader >= 0:
            self.points[leader] += value
            self.recycled += bids[leader]
            bids[leader] = []
        for q in range(n):
            self.lost[q] += len(bids[q])


def play_game(players, seed, two_colour=False):
    """One game of random players: (scores by seat, turns, decisions taken)."""
    rng = random.Random(seed)
    bins = list(BINS)
    rng.shuffle(bins)
    table = Table(players, rng, two_colour)
    table.deal(START_HAND)
    turns = 0
    while bins:
        card = bins.pop()
        turns += 1
        if card is STOP:
            table.deal(STOP_DEAL)
            table.next_first()
        else:
            table.auction(*card)
        if bins and not any(table.held):     # every hand empty: as a stop (not after the last card)
            table.deal(EMPTY_DEAL)
            table.next_first()
    scores = [table.points[p] - table.held[p] - table.lost[p] for p in range(players)]
    return scores, turns, table.moves


def play_random(players, seed, two_colour=False):
    """One game of random players: (final scores by seat, turns played)."""
    scores, turns, _ = play_game(players, seed, two_colour)
    return scores, turns


def main(argv=None):
    parser = argparse.ArgumentParser(description="Random Lixo? games per second, by hand-written Python.")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7))
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--two-colour", action="store_true", help="play rulesets/lixo_two_colour.yaml")
    args = parser.parse_args(argv)
    try:                                    # one core, as cardrules bench measures
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    except (AttributeError, OSError):
        pass
    games, start = 0, time.perf_counter()
    deadline = start + args.seconds
    while time.perf_counter() < deadline:
        play_random(args.players, games, args.two_colour)
        games += 1
    print(f"{games / (time.perf_counter() - start):.1f} games/s")


if __name__ == "__main__":
    main()
