"""R-Eco written by hand: the yardstick of the speed benchmark in `benchmarks/` (issue 16).

Plays what `rulesets/r_eco.yaml` plays, for 2 to 5 players, with every seat choosing uniformly at
random among the distinct legal moves cardrules offers: a deliver is a multiset of card types of one
material, a disposal a multiset of the excess size, an empty hand picks one of the four factories.
Plain Python, standard library only, no interpreter and no checks: card types are ints 0..7
(material = t // 2, icons = t % 2 + 1), hands are count lists, piles are lists with the top last.

    python benchmarks/yardsticks/r_eco.py --players 4 --seconds 5
"""
import argparse
import os
import random
import time
from itertools import combinations

MATERIALS = 4
HAND_SIZE = 3
HAND_LIMIT = 5
THRESHOLD = 4
COPIES = (19, 3, 19, 3, 19, 3, 19, 3)      # 19 one-icon and 3 two-icon cards per material
DECK = [t for t in range(8) for _ in range(COPIES[t])]
# Reward stack of every material, top (next to take) first, by player count.
REWARDS = {2: (0, 1, 2, -2, 4, 5), 3: (0, 1, 2, 3, -2, 4, 5),
           4: (0, 1, 2, 3, -2, 4, 5), 5: (0, 1, 2, 3, 3, -2, 4, 5)}
# Clean-collector bonus: (flat part, part per player who disposed), by player count.
CLEAN_BONUS = {2: (4, 0), 3: (0, 2), 4: (0, 1), 5: (0, 1)}


def deliveries(hand):
    """The distinct delivers of a hand: (material, one-icon cards, two-icon cards)."""
    moves = []
    for m in range(MATERIALS):
        ones, twos = hand[2 * m], hand[2 * m + 1]
        if not ones and not twos:
            continue
        for a in range(ones + 1):
            for b in range(twos + 1):
                if a or b:
                    moves.append((m, a, b))
    return moves


def disposals(hand, k):
    """The distinct multisets of k cards of a hand, as sorted tuples of card types."""
    cards = [t for t in range(8) for _ in range(hand[t])]
    return list(set(combinations(cards, k)))


def refill(rng, draw, discard, dump, n):
    """Deal n cards onto a dump site; an empty draw pile is the shuffled discard pile."""
    for _ in range(n):
        if not draw:
            if not discard:
                return
            draw.extend(discard)
            discard.clear()
            rng.shuffle(draw)
        dump.append(draw.pop())


def scores_of(players, won, disposed):
    """Final scores: rewards of a material count only in twos or more, −1 a disposal, clean bonus."""
    flat, per = CLEAN_BONUS[players]
    dirty = sum(1 for d in disposed if d)
    scores = []
    for p in range(players):
        s = -disposed[p]
        for values in won[p]:
            if len(values) >= 2:
                s += sum(values)
        if disposed[p] == 0:
            s += flat + per * dirty
        scores.append(s)
    return scores


def winners(scores, disposed):
    """The seats with the best score, then the fewest disposed cards (a tie left shares the win)."""
    best = max(scores)
    tied = [p for p in range(len(scores)) if scores[p] == best]
    fewest = min(disposed[p] for p in tied)
    return [p for p in tied if disposed[p] == fewest]


def play_game(players, rng):
    """One random game: (scores by seat, disposed cards by seat, turns played)."""
    rewards = [list(reversed(REWARDS[players])) for _ in range(MATERIALS)]
    draw = DECK[:]
    rng.shuffle(draw)
    hands = [[0] * 8 for _ in range(players)]
    sizes = [HAND_SIZE] * players
    for _ in range(HAND_SIZE):
        for p in range(players):
            hands[p][draw.pop()] += 1
    dumps = [[draw.pop()] for _ in range(MATERIALS)]
    sides = [[] for _ in range(MATERIALS)]
    icons = [0] * MATERIALS
    discard = []
    won = [[[] for _ in range(MATERIALS)] for _ in range(players)]
    disposed = [0] * players
    p, turns = 0, 0
    while True:
        turns += 1
        hand = hands[p]
        over = False
        if sizes[p] == 0:
            f = rng.randrange(MATERIALS)
        else:
            f, a, b = rng.choice(deliveries(hand))
            hand[2 * f] -= a
            hand[2 * f + 1] -= b
            sizes[p] -= a + b
            side = sides[f]
            side.extend([2 * f] * a)
            side.extend([2 * f + 1] * b)
            icons[f] += a + 2 * b
            if icons[f] >= THRESHOLD:
                stack = rewards[f]
                won[p][f].append(stack.pop())
                discard.extend(side)
                side.clear()
                icons[f] = 0
                over = not stack
        dump = dumps[f]
        for t in dump:
            hand[t] += 1
        sizes[p] += len(dump)
        dump.clear()
        if sizes[p] > HAND_LIMIT:
            excess = sizes[p] - HAND_LIMIT
            for t in rng.choice(disposals(hand, excess)):
                hand[t] -= 1
            sizes[p] = HAND_LIMIT
            disposed[p] += excess
        if over:
            return scores_of(players, won, disposed), disposed, turns
        refill(rng, draw, discard, dump, icons[f] + 1)
        p = (p + 1) % players


def play_random(players: int, seed: int) -> tuple[list, int]:
    """One game of uniformly random moves from random.Random(seed): (final scores by seat, turns)."""
    scores, _, turns = play_game(players, random.Random(seed))
    return scores, turns


def main():
    """Play random games for --seconds on one core and print the games per second."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4, choices=sorted(REWARDS))
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    games = 0
    start = time.perf_counter()
    deadline = start + args.seconds
    while time.perf_counter() < deadline:
        play_random(args.players, games)
        games += 1
    print("%.1f games/s" % (games / (time.perf_counter() - start)))


if __name__ == "__main__":
    main()
