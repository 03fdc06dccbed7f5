"""Text from outside (a record, a typed line) made safe to print: short, and with
control characters shown as escapes, so that it cannot flood or drive the terminal."""
from __future__ import annotations

SHOWN = 60                      # characters of an outside text quoted in a message


def clipped(text: str, width: int = 300) -> str:
    """text cut to width characters, with control characters (escape codes, line breaks) as \\xNN."""
    cut = text if len(text) <= width else text[:width - 1] + "…"
    return "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" if ord(ch) < 256 else f"\\u{ord(ch):04x}"
                   for ch in cut)


def quoted(text) -> str:
    """An outside text quoted for a message: short, control characters escaped."""
    return f"'{clipped(str(text), SHOWN)}'"

