"""The seats: what one player may see and know, and the bots that decide from it alone.

`views` builds a seat's view and its perfect-memory knowledge from events only; `bots` decide
on copies of the state re-dealt from that knowledge, so hidden cards never reach a choice;
`rounds` plays a trial move at a simultaneous choice on to the end of its round.
Imports `interpreter.runtime` (states and events), never the front end or the compiler.
"""
from . import ismcts  # noqa: F401,E402  (registers the ismcts bot in bots.BOTS)
