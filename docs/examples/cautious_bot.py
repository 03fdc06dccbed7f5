"""Cautious: a bot that plays the move whose worst outcome is best (docs/bots.md teaches how it works).

    cardrules simulate rulesets/r_eco.yaml --players 3 --games 100 --bots docs/examples/cautious_bot.py:Cautious,greedy,random
    cardrules simulate rulesets/lixo.yaml --players 2 --games 100 --bots docs/examples/cautious_bot.py:Cautious:samples=5,greedy
"""
from interpreter.seats import Bot, Option


class Cautious(Bot):
    """Plays the move whose worst margin over a few redealt copies of the game is the best."""

    name = "cautious"
    samples = 3                 # the default of the option below
    options = (Option("samples", int, "redealt copies each move is tried on", 1, 100),)

    def choose(self, seat):
        # Copies of the game in which the cards this seat cannot see are dealt again at random,
        # keeping what it knows: the same copies for every move, so moves are compared fairly.
        worlds = seat.worlds(self.samples)
        best, best_worst = [], None
        for move in seat.moves:
            # seat.play(world, move) is a new copy with the move played; seat.margin is this
            # seat's evaluation minus the best other seat's (the ruleset's bots.eval, or score)
            worst = min(seat.margin(seat.play(world, move)) for world in worlds)
            if best_worst is None or worst > best_worst:
                best, best_worst = [move], worst
            elif worst == best_worst:
                best.append(move)
        # Ties are broken with the bot's own generator: the same seed gives the same game.
        return best[self.rng.randrange(len(best))]
