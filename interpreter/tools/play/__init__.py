"""Terminal play as on Yucata: humans and bots at one table, one decision at a time (`cardrules play`).

Everything a human is shown comes from the deciding seat's View (views.py), fed the events of the
game as that seat saw them (events.for_seat) — never from the real state. The layout is generic
and fitted to the console's size (screen.py, layout.py):
  - a header; the other seats one line each (▶ to play, ★ the starter, running score, zones);
  - the table compact: the ruleset's `display.grid` families as a grid of positions (`columns` a
    row; a cell shows the index and the card of the first family holding one: its name, ? when
    hidden, [name] when remembered and knowledge is shown, · when empty), the other zone families
    sharing the same index list as one table (a line per index value), the rest packed in lines;
  - the seat's own panel (its own zones card by card) beside the legal moves, in columns, in
    pages (n/p) when they do not fit; the table gives way first (less detail, then cut).
  - the legal moves in one order (options as declared, cards by type), numbered, in canonical
    text; typed by number or any unambiguous part of the text; a choice of a number or of a grid
    position is typed as the value itself, and lists no numbers (typed_moves.py); a decision
    with one legal move is taken with a note.
Commands: n/p pages of moves, d the full detail (every panel, every zone), u undo, s the ordered
public piles in draw order (next first), o what may still be in each hidden table zone, r the
screen again, ? help, q quit (after asking; the end of the input quits at once).

Kept games (keeping.py): with `play -o FILE` the game's record is rewritten after every move, the
result null until the game is over; `play --resume FILE` plays its moves again (the bots choosing
again, records.continue_game) and goes on as if it had never stopped. Between two human seats a
terminal is cleared with its scrollback; a pipe gets a separator line.

How much knowledge is shown is the ruleset's `display.knowledge`: full (perfect memory) or faces
(only the cards visible now); `--memory-aid` shows the knowledge anyway.

Undo: a seat's own moves can be undone back to the last point where new information reached
anyone: a move whose events show a seat a card the deciding seat could not see before (a move out
of a zone hidden from it, with faces shown to someone), a shuffle, or another seat deciding. Such a
move, and any move that ends the seat's decisions (the turn passes, the game ends), is first
applied to a copy and only kept once the human confirms it (c), or dropped (u).

Output is plain sequential rich output (no full-screen UI), so it works with piped input.
Seats are numbered from 0; seat k's bot is seeded with `rng.derive(seed, k)`.
"""
from __future__ import annotations

from .display import ordered_families
from .grid import abbreviate, grid_layout
from .session import Quit, Session
from .words import counts_text, plural

__all__ = ["Quit", "Session", "abbreviate", "counts_text", "grid_layout", "ordered_families", "play", "plural"]


def play(game, players: int, seed: int, seat_bots: dict, ask=None, console=None,
         memory_aid: bool = False, keeper=None, start=None) -> bool:
    """Play one game in the terminal; False when a human quit before the end.

    ask(prompt) -> line replaces reading stdin (tests); console receives all output; keeper keeps
    the game's record as it goes; start goes on with a game played that far (see Session)."""
    return Session(game, players, seed, seat_bots, ask, console, memory_aid, keeper, start).run()
