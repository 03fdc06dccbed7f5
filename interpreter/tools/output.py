"""What the command line prints: plain lines, JSON, diagnostics with the line of the file and a
caret, rich consoles. stdout is for results (and --json); everything else goes to stderr."""
from __future__ import annotations

import json
import sys

from rich.console import Console

from ..frontend.loader import MAX_FILE_BYTES
from ..frontend.reading import read_lines


def out(text: str = "") -> None:
    print(text, file=sys.stdout)


def err(text: str) -> None:
    print(text, file=sys.stderr)


def print_json(doc) -> None:
    sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


def source_line(file: str, line: int, cache: dict | None = None) -> str | None:
    """Line `line` (1-based) of a file, without its line break; None if it cannot be read."""
    cache = {} if cache is None else cache
    if file not in cache:
        cache[file] = read_lines(file, MAX_FILE_BYTES)     # bounded, like every read of a user's file
    lines = cache[file]
    if not lines or not 1 <= line <= len(lines):
        return None
    return lines[line - 1].rstrip("\r")


def caret_lines(file: str, line: int, col: int, cache: dict | None = None, width: int = 100) -> list:
    """The source line at a position and a caret under its column (long lines cut around it)."""
    text = source_line(file, line, cache)
    if text is None or not text.strip():
        return []
    col = max(1, min(col, len(text) + 1))
    start = 0
    if len(text) > width:
        start = max(0, min(col - 1 - width // 2, len(text) - width))
    shown = text[start:start + width]
    lead = "…" if start > 0 else ""
    tail = "…" if start + width < len(text) else ""
    under = "".join(ch if ch == "\t" else " " for ch in shown[:col - 1 - start])
    return [f"    {lead}{shown}{tail}", f"    {' ' * len(lead)}{under}^"]


def print_diagnostics(diagnostics: list) -> None:
    """Every diagnostic as file:line:col: message, then the line of the file with a caret under the
    column, then the hint on its own indented line."""
    files: dict = {}        # each file read once
    for d in diagnostics:
        label = "" if d.severity == "error" else f"{d.severity}: "
        err(f"{d.pos}: {label}{d.message}")
        if d.pos.line > 0 and d.pos.file != "--set":
            for text in caret_lines(d.pos.file, d.pos.line, d.pos.col, files):
                err(text)
        if d.hint:
            err(f"    hint: {d.hint}")


def console(stderr: bool = False):
    return Console(file=sys.stderr if stderr else sys.stdout, highlight=False)


def players_text(lo: int, hi: int) -> str:
    return f"{lo} player{'s' if lo != 1 else ''}" if lo == hi else f"{lo}–{hi} players"
