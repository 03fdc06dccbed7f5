"""Fitting a decision screen into the terminal: short items packed into lines, rendered heights, a
block cut to a number of lines, the legal moves in columns and pages."""
from __future__ import annotations

from rich.segment import Segment
from rich.table import Table
from rich.text import Text

SEP = " · "           # between two items packed on one line
MOVE_GAP = 2          # spaces between two columns of moves


def brief_counts(names: list, counts, unknown: int = 0) -> str:
    """'red:1, 2×blue:2' (type order; a count only above one), '?×n' for n unknown cards, '—' for none."""
    parts = [names[t] if n == 1 else f"{n}×{names[t]}" for t, n in sorted(dict(counts).items()) if n > 0]
    if unknown:
        parts.append(f"?×{unknown}")
    return ", ".join(parts) or "—"


def pack(items: list, width: int) -> list:
    """Items ('label: text') joined by ' · ' into as few lines of at most width characters as keeps
    their order; an item longer than a line gets a line of its own (and wraps)."""
    lines: list = []
    for item in items:
        if lines and len(lines[-1]) + len(SEP) + len(item) <= width:
            lines[-1] += SEP + item
        else:
            lines.append(item)
    return lines


def height(console, renderable, width: int) -> int:
    """How many lines the renderable takes at this width."""
    return len(console.render_lines(renderable, console.options.update_width(width), pad=False))


class Cut:
    """The first `lines` lines of a renderable at a width, the last one saying what was left out."""

    def __init__(self, renderable, lines: int, width: int, note: str):
        self.renderable, self.lines, self.width, self.note = renderable, lines, width, note

    def __rich_console__(self, console, options):
        rendered = console.render_lines(self.renderable, options.update_width(self.width), pad=False)
        if len(rendered) <= self.lines:
            keep, cut = rendered, False
        else:
            keep, cut = rendered[:max(self.lines - 1, 0)], True
        for line in keep:
            yield from line
            yield Segment.line()
        if cut and self.lines > 0:
            yield Text(f"… {self.note}", style="dim", no_wrap=True, overflow="ellipsis")


class MovePage:
    """One page of the legal moves as shown: rows × columns cells, down then across."""

    def __init__(self, entries: list, width: int, rows: int | None, page: int = 0, whole: bool = False):
        """entries: [(key, move, text)]; rows None: as many as all the moves need in as many
        columns as fit; whole: all the moves, in at least `rows` rows (fewer when fewer moves)."""
        keys = max((len(k) for k, _, _ in entries), default=1)
        self.cells = [f"{k:>{keys}}. {text}" for k, _, text in entries]
        self.cell = cell = max((len(c) for c in self.cells), default=1)
        self.columns = max(1, (width + MOVE_GAP) // (cell + MOVE_GAP))
        total = len(self.cells)
        if rows is None or whole:
            rows = max(-(-total // self.columns), min(rows or 0, total))
        self.rows = max(rows, 1)
        self.size = self.rows * self.columns
        self.pages = max(1, -(-total // self.size))
        self.page = min(max(page, 0), self.pages - 1)
        self.first = self.page * self.size
        self.last = min(self.first + self.size, total)      # one past the last shown
        self.total = total

    def tallest(self, console, width: int, cell_heights: dict) -> int:
        """The height of the tallest page at this width (its title and its rows); cell_heights
        caches each cell's height in a single column, where a long move wraps."""
        longest = self.title(width, self.total, self.total)
        title = height(console, Text(longest), width) if self.pages > 1 else 1
        if self.columns > 1:                     # cells as narrow as a column: one line each
            return title + min(self.rows, self.total)
        if width not in cell_heights:
            cell_heights[width] = [height(console, Text(c), width) for c in self.cells]
        rows = cell_heights[width]
        return title + max(sum(rows[i:i + self.size]) for i in range(0, max(self.total, 1), self.size))

    def title(self, width: int = 80, first: int | None = None, last: int | None = None) -> str:
        """'legal moves:', or which moves the page shows (shorter when the width is short)."""
        if self.pages == 1:
            return "legal moves:"
        first = self.first + 1 if first is None else first
        last = self.last if last is None else last
        text = f"legal moves {first}–{last} of {self.total}, n/p for more:"
        return text if len(text) <= width else f"legal moves {first}–{last} of {self.total}, n/p:"

    def table(self) -> Table:
        """The page's cells, column after column."""
        shown = self.cells[self.first:self.last]
        rows = min(self.rows, len(shown)) or 1
        grid = Table.grid(padding=(0, MOVE_GAP, 0, 0))
        columns = -(-len(shown) // rows) if shown else 1
        for _ in range(columns):
            grid.add_column()
        for r in range(rows):
            grid.add_row(*[Text(shown[c * rows + r]) if c * rows + r < len(shown) else Text("")
                           for c in range(columns)])
        return grid
