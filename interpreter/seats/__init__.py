"""The seats: what one player may see and know, and the bots that decide from it alone.

`views` builds a seat's view and its perfect-memory knowledge from events only; `seat` is what a
bot is given (`Bot`, `Seat`); `worlds` deals copies of the game from a seat's knowledge (what the copies of one
decision share worked out once), so hidden cards never reach a choice, and `eval_cache` keeps the evaluations its copies ask for; `bots` and `ismcts` are our bots; `player` stands between a caller's
real state and a bot; `loading` finds users' bots (files, modules, entry points); `registry` makes
any of them from a spec; `rounds` plays a trial move at a simultaneous choice on to the end of its
round. Imports `interpreter.runtime` (states and events), never the front end or
the compiler.
"""
from .seat import Bot, Seat  # noqa: F401
from .specs import Option  # noqa: F401
from .registry import BOTS, make_bot, parse_bot  # noqa: F401
