"""The options a ruleset gives its bots (`bots.options`), as written and where: the frontend knows
no bot, so the bots check them (seats/registry.py ruleset_options) when a command loads the game."""
from __future__ import annotations

from .context import Context

WHERE = ("bots", "options")


def read_bot_options(cx: Context) -> dict:
    """{bot name: (place of the name, {option: (value as text, place of the key, place of the
    value)})} in the file's order (the schema checked the shape)."""
    out = {}
    for name, given in (cx.get(WHERE, {}) or {}).items():
        options = {str(key): (str(raw), cx.doc.key_pos(WHERE + (name, key)), cx.pos(WHERE + (name, key)))
                   for key, raw in (given or {}).items()}
        out[str(name)] = (cx.doc.key_pos(WHERE + (name,)), options)
    return out
