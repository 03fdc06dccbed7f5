"""Sorting Memo by hand: random self-play of rulesets/sorting_memo.yaml with its default parameters.

The yardstick of `benchmarks/` (issue 16): plain Python, no interpreter, every decision chosen
uniformly among the distinct moves cardrules lists there (two containers of one type are one
move, a collected pair is one move), so games have cardrules' length and score distribution.
Setup: 5 container stacks of random type, 3 blind draws each from different stacks; 40
recyclables (20 pairs) and 10 trucks shuffled onto 50 positions. Kept trucks are used once, at
the start of a turn; the game ends when no face-down recyclable is left; most sorted cards wins,
then fewest unsorted.
"""
import argparse
import os
import random
import time

MATERIALS = ("paper", "plastic", "glass", "metal", "organic")
CONTAINERS_PER_TYPE = 4
CONTAINERS_EACH = 3
PICTURES = 4
COPIES = 2
TRUCK_KINDS = ("swap", "shuffle", "take", "give", "container_swap")
TRUCK_COPIES = 2
POSITIONS = 5 * 10
MIN_SHUFFLE = 2
PLAYERS = (2, 3, 4)

TRUCK = "truck"
STOP = "stop"
# a card is (material, picture) or (TRUCK, kind); a pair is named by its card
DECK = ([(m, p) for m in MATERIALS for p in range(1, PICTURES + 1)] * COPIES
        + [(TRUCK, k) for k in TRUCK_KINDS] * TRUCK_COPIES)


class Memo:
    """One game: the grid, the container stacks and every player's containers, pairs and kept trucks."""

    def __init__(self, players: int, rng: random.Random):
        self.players, self.rng = players, rng
        types = list(MATERIALS)
        rng.shuffle(types)
        self.stacks = [[m] * CONTAINERS_PER_TYPE for m in types]      # top card last
        self.containers = []
        for _ in range(players):
            drawn = rng.sample([s for s in self.stacks if s], CONTAINERS_EACH)
            self.containers.append([s.pop() for s in drawn])
        deck = list(DECK)
        rng.shuffle(deck)
        self.grid = deck[:POSITIONS]            # position -> card; collected positions stay empty
        self.down = list(range(len(self.grid)))  # the positions holding a face-down card
        self.hidden = sum(1 for c in self.grid if c[0] != TRUCK)
        self.won = [[] for _ in range(players)]                # collected pairs
        self.kept = [dict.fromkeys(TRUCK_KINDS, 0) for _ in range(players)]

    def play(self) -> int:
        """Play to the end; the number of turns (extra turns included)."""
        cur, turns = 0, 0
        while True:
            turns += 1
            self.use_trucks(cur)
            again = self.turn_cards(cur)
            if self.hidden == 0:
                return turns
            if not again:
                cur = (cur + 1) % self.players

    def turn_cards(self, cur: int) -> bool:
        """Turn the first and maybe the second card; True when a pair earns another turn."""
        rng, grid, down = self.rng, self.grid, self.down
        first = rng.choice(down)
        down.remove(first)
        if grid[first][0] == TRUCK:
            self.take_truck(cur, first)
            return False
        second = rng.choice(down)
        down.remove(second)
        if grid[second][0] == TRUCK:
            down.append(first)
            self.take_truck(cur, second)
            return False
        if grid[first] == grid[second]:
            self.won[cur].append(grid[first])
            self.hidden -= 2
            return True
        down.append(first)
        down.append(second)
        return False

    def take_truck(self, cur: int, pos: int) -> None:
        """A turned truck: a Shuffle acts at once, the other kinds are kept."""
        kind = self.grid[pos][1]
        if kind == "shuffle":
            self.shuffle_grid()
        else:
            self.kept[cur][kind] += 1

    def shuffle_grid(self) -> None:
        """The turner picks how many (two to all) and which face-down cards; they mix among their places."""
        rng, grid, down = self.rng, self.grid, self.down
        if len(down) < MIN_SHUFFLE:
            return
        picked = rng.sample(down, rng.randint(MIN_SHUFFLE, len(down)))
        cards = [grid[p] for p in picked]
        rng.shuffle(cards)
        for p, c in zip(picked, cards):
            grid[p] = c

    def use_trucks(self, cur: int) -> None:
        """Kept trucks with a legal use, one after another, until the player stops or none is usable."""
        rng, won, kept = self.rng, self.won, self.kept[cur]
        while any(kept.values()):
            others = any(won[q] for q in range(self.players) if q != cur)
            usable = []
            if kept["swap"] and won[cur] and others:
                usable.append("swap")
            if kept["take"] and others:
                usable.append("take")
            if kept["give"] and won[cur]:
                usable.append("give")
            if kept["container_swap"] and self.containers[cur] and any(self.stacks):
                usable.append("container_swap")
            if not usable:
                return
            kind = rng.choice(usable + [STOP])
            if kind == STOP:
                return
            kept[kind] -= 1
            getattr(self, kind)(cur)

    def victim(self, cur: int) -> int:
        """Another player holding a pair."""
        return self.rng.choice([q for q in range(self.players) if q != cur and self.won[q]])

    def swap(self, cur: int) -> None:
        """One of my pairs for one of another player's."""
        rng, won = self.rng, self.won
        v = self.victim(cur)
        mine, theirs = rng.choice(won[cur]), rng.choice(won[v])
        won[cur].remove(mine)
        won[v].remove(theirs)
        won[v].append(mine)
        won[cur].append(theirs)

    def take(self, cur: int) -> None:
        """Another player's pair becomes mine."""
        v = self.victim(cur)
        theirs = self.rng.choice(self.won[v])
        self.won[v].remove(theirs)
        self.won[cur].append(theirs)

    def give(self, cur: int) -> None:
        """One of my pairs to another player."""
        rng, won = self.rng, self.won
        mine = rng.choice(won[cur])
        receiver = rng.choice([q for q in range(self.players) if q != cur])
        won[cur].remove(mine)
        won[receiver].append(mine)

    def container_swap(self, cur: int) -> None:
        """One of my containers (a type: two alike are one choice) for the top of a stack; it goes under."""
        rng, hand = self.rng, self.containers[cur]
        returned = rng.choice(sorted(set(hand)))
        stack = rng.choice([s for s in self.stacks if s])
        hand.append(stack.pop())
        hand.remove(returned)
        stack.insert(0, returned)

    def result(self) -> tuple:
        """Sorted cards by seat (the scores) and the winners: most sorted, then fewest unsorted."""
        scores, keys = [], []
        for p in range(self.players):
            fits = set(self.containers[p])
            sorted_cards = COPIES * sum(1 for pair in self.won[p] if pair[0] in fits)
            scores.append(sorted_cards)
            keys.append((sorted_cards, sorted_cards - COPIES * len(self.won[p])))
        best = max(keys)
        return scores, [p for p in range(self.players) if keys[p] == best]


def play_game(players: int, seed: int) -> tuple:
    """One random game: (scores by seat, winners, turns played)."""
    game = Memo(players, random.Random(seed))
    turns = game.play()
    scores, winners = game.result()
    return scores, winners, turns


def play_random(players: int, seed: int) -> tuple[list, int]:
    """One random game: final scores by seat and turns played."""
    scores, _, turns = play_game(players, seed)
    return scores, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, choices=PLAYERS)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(f"Sorting Memo yardstick, {args.players} players: playing for {args.seconds:g} s", flush=True)
    games, start = 0, time.perf_counter()
    while True:
        play_random(args.players, games)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= args.seconds:
            break
    print(f"{games / elapsed:.1f} games/s")


if __name__ == "__main__":
    main()
