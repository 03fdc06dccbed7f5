"""Random-bot statistics of the hand-written Lixo reference (tests/reference/lixo.py), to set
beside `cardrules simulate rulesets/lixo.yaml --players P --games N --seed S --json`.

    python tests/reference/stats_lixo.py --players P --games N --seed S

Every seat plays uniformly among its legal moves (pass, or a bid of k cards for each legal k),
as the interpreter's random bot does. Game g of a run seeded with S uses random.Random(S *
1_000_003 + g) for its shuffles and choices (not the interpreter's generator: the numbers agree
in distribution, not game by game). Wins are shared like `cardrules simulate` does: each of
w tied winners gets 1/w of a win.
"""

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from reference.lixo import random_game  # noqa: E402


def spread(values):
    return {"mean": statistics.fmean(values), "sd": statistics.pstdev(values),
            "min": min(values), "max": max(values)}


def stats(players, games, seed):
    scores = [[] for _ in range(players)]
    won_by_seat = [[] for _ in range(players)]
    wins = [0.0] * players
    won, unclaimed, turns, moves = [], [], [], []
    empty_deals = rebuilt = short = 0
    start = time.perf_counter()
    for g in range(games):
        rec, game = random_game(players, seed * 1_000_003 + g)
        res = rec["result"]
        for p, s in enumerate(res["scores"]):
            scores[p].append(s)
            won_by_seat[p].append(len(game.won[p]))
        for p in res["winners"]:
            wins[p] += 1.0 / len(res["winners"])
        won.append(sum(len(w) for w in game.won))
        unclaimed.append(len(game.unclaimed))
        turns.append(res["turns"])
        moves.append(res["moves"])
        empty_deals += game.empty_hand_deals
        rebuilt += game.rebuilt_decks
        short += game.short_deals
    seconds = time.perf_counter() - start
    return {
        "name": "Lixo (reference)",
        "players": players,
        "games": games,
        "seed": seed,
        "bots": ["random"] * players,
        "turns": spread(turns),
        "moves": spread(moves),
        "score": {"mean_by_seat": [statistics.fmean(s) for s in scores],
                  "sd_by_seat": [statistics.pstdev(s) for s in scores]},
        "wins_by_seat": [w / games for w in wins],
        "containers_won": spread(won),
        "containers_won_by_seat": [statistics.fmean(w) for w in won_by_seat],
        "unclaimed": spread(unclaimed),
        "every_hand_empty_deals_per_game": empty_deals / games,
        "rebuilt_decks_per_game": rebuilt / games,
        "short_deals_per_game": short / games,
        "seconds": seconds,
        "games_per_second": games / max(seconds, 1e-9),
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if not 2 <= args.players <= 6:
        ap.error("Lixo is for 2-6 players")
    if args.games < 1:
        ap.error("need at least one game")
    print(json.dumps(stats(args.players, args.games, args.seed), indent=2))


if __name__ == "__main__":
    main()
