"""The grid of positions (display.grid): cells a row, what the seat knows at each position."""
from __future__ import annotations

import re
from collections import Counter

from rich.table import Table
from rich.text import Text

from ...errors import RuleRuntimeError
from ...runtime.decisions import show

GRID_GAP = 2              # spaces between two cells of a grid (1 when cells would be narrower than…
GRID_CELL = 8             # …this many characters)
PANEL_EDGE = 4            # a panel's borders and padding, left and right


def grid_layout(program, grid):
    """display.grid worked out for this player count: (family names, columns), or None."""
    if not grid or not grid.get("families"):
        return None
    columns = program.const(grid["columns"])
    if isinstance(columns, bool) or not isinstance(columns, int) or columns < 1:
        raise RuleRuntimeError(grid["columns"].pos, f"the grid's columns must be a positive whole number, "
                                                     f"not {show(columns, True)} with {program.players} players")
    return list(grid["families"]), columns


def abbreviate(name: str, width: int) -> tuple:
    """name in at most width characters, and {short word: word} for the words shortened: the longest
    words lose letters first, numbers never ('organic:4' -> 'organ:4', {'organ': 'organic'}); cut
    with '…' only when every word is down to one letter."""
    if len(name) <= width:
        return name, {}
    parts = re.split(r"([^\W_]+)", name)          # separators at even indices, words at odd ones
    whole = list(parts)
    words = [i for i in range(1, len(parts), 2) if not parts[i].isdigit()]
    excess = len(name) - width
    while excess > 0:
        longest = max(words, key=lambda i: len(parts[i]), default=None)
        if longest is None or len(parts[longest]) <= 1:
            break
        parts[longest] = parts[longest][:-1]
        excess -= 1
    short = "".join(parts)
    if len(short) > width:
        short = short[:max(width - 1, 0)] + "…"
    return short, {parts[i]: whole[i] for i in words if parts[i] != whole[i]}


class Grid:
    """The grid part of a Session: one cell per position of the grid's families."""

    def grid_cell(self, v, value) -> tuple:
        """What the seat knows at one grid position: (card type or None, how, cards there), how being
        'face' (seen now), 'remembered' (face down, known, knowledge shown), 'hidden' or 'empty'."""
        prog = self.program
        for name in self.grid[0]:
            z = prog.zone_base[name] + prog.family[name][value]
            size = v.size(z)
            if not size:
                continue
            top = v.cards(z)[-1]
            if v.sees(z):
                return top, ("hidden" if top is None else "face"), size
            if not self.full:
                return None, "hidden", size
            known = v.known_cards(z)
            if top is None and len(known) == 1 and sum(known.values()) == size:
                top = next(iter(known))
            return top, ("hidden" if top is None else "remembered"), size
        return None, "empty", 0

    def grid_view(self, v) -> list:
        """The grid families as `columns` cells a row: index (and card count above one), then the card."""
        prog, (families, columns) = self.program, self.grid
        names = prog.type_names
        positions = list(prog.family[families[0]])
        cells = [(value, *self.grid_cell(v, value)) for value in positions]
        longest = max(max(len(n) for n in names) + (2 if self.full else 0),
                      max(len(str(value)) for value in positions))
        for gap in (GRID_GAP, 1):          # closer cells rather than cells too narrow for a name
            room = (self.console.width - PANEL_EDGE - gap * (columns - 1)) // columns
            if room >= min(longest, GRID_CELL):
                break
        width = max(3, min(room, longest))
        grid = Table(show_header=False, box=None, padding=(0, gap, 0, 0), pad_edge=False, expand=False)
        for _ in range(columns):
            grid.add_column(width=width, no_wrap=True, overflow="ellipsis")
        short: dict = {}             # short word -> the words it stands for
        fit = width - 2 if self.full else width      # the same abbreviation face up and remembered
        row = []
        for value, t, how, size in cells:
            cell = Text(str(value) + (f" ×{size}" if size > 1 else ""), style="dim")
            cell.append("\n")
            if how == "face" or how == "remembered":
                text, words = abbreviate(names[t], fit)
                for a, b in words.items():
                    short.setdefault(a, set()).add(b)
                if how == "face":
                    cell.append(text, style="bold")
                else:
                    cell.append(f"[{text}]", style="dim italic")
            else:
                cell.append("?" if how == "hidden" else "·", style="dim")
            row.append(cell)
            if len(row) == columns:
                grid.add_row(*row)
                row = []
        if row:
            grid.add_row(*row, *[""] * (columns - len(row)))
        held = Counter(how for _, _, how, _ in cells)
        down = f"{held['hidden'] + held['remembered']} face down"
        if held["remembered"]:
            down += f" ({held['remembered']} remembered)"
        summary = ([f"{held['face']} face up"] if held["face"] else []) + [down, f"{held['empty']} empty"]
        names = " / ".join(self.display.label(f) for f in families)
        title = Text(f"{names}: {len(positions)} positions, {columns} a row — " + ", ".join(summary))
        out = [title, grid]
        if short:
            out.append(Text("abbreviated: " + ", ".join(f"{a} = {' / '.join(sorted(b))}"
                                                        for a, b in sorted(short.items())), style="dim"))
        return out
