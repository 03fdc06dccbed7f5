"""Helpers for the web table's tests: a table and its client, tokens by seat, moves through HTTP, and
the card names a viewer never saw (worked out here from the whole truth)."""
from __future__ import annotations

import functools
import os
import re

from interpreter.compiler.game import load_game
from interpreter.runtime.engine import DECIDE, MOVE, SHUFFLE
from interpreter.runtime.events import for_seat
from interpreter.tools.web.public import public_events
from interpreter.tools.web.table import PUBLIC, WebTable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHIPPED = ["lixo", "lixo_two_colour", "r_eco", "sorting_memo"]


@functools.lru_cache(maxsize=None)
def game(name: str):
    return load_game(os.path.join(ROOT, "rulesets", f"{name}.yaml"))


def new_table(name: str, players: int = 2, seed: int = 1, bots: dict | None = None, keeper=None) -> WebTable:
    return WebTable(game(name), players, seed, bots or {}, keeper=keeper)


def client(table):
    from starlette.testclient import TestClient
    from interpreter.tools.web.app import table_app
    return TestClient(table_app(table))


def tokens(table) -> dict:
    """{seat or PUBLIC: token}."""
    return {viewer: token for token, viewer in table.tokens.items()}


def play(c, token: str, page: dict, index: int):
    """Choose the listed move `index` (confirming it when asked); the page after it."""
    r = c.post(f"/api/{token}/move", json={"version": page["version"], "move": index})
    assert r.status_code == 200, r.text
    page = r.json()
    if page["decision"] and page["decision"].get("confirm"):
        r = c.post(f"/api/{token}/confirm", json={"version": page["version"]})
        assert r.status_code == 200, r.text
        page = r.json()
    return page


class Knowledge:
    """The card types whose faces a viewer has seen so far in the events (moved face up where it saw,
    a shuffle's order it saw, its own decisions' cards), worked out here from the whole truth."""

    def __init__(self, table, viewer):
        self.table, self.viewer = table, viewer
        self.log, self.read, self.faces = None, 0, set()
        self.names = table.program.type_names

    def update(self) -> set:
        log, prog = self.table.st.log, self.table.program
        if log is not self.log:             # another state (an undo): its log from the start
            self.log, self.read = log, 0
        new = log[self.read:]
        events = public_events(prog, new) if self.viewer == PUBLIC else for_seat(prog, new, self.viewer)
        for e in events:
            self.faces |= faces_of(prog, e)
        self.read = len(log)
        return self.faces

    def unseen_faces(self) -> list:
        """The names of the card types whose face this viewer never saw (up to now)."""
        self.update()
        return [self.names[t] for t in range(len(self.names)) if t not in self.faces]


def faces_of(prog, event: tuple) -> set:
    """The card types whose faces an event (as a viewer saw it) shows: cards moved face up, a
    shuffle's order, the cards of the viewer's own decision."""
    kind, ct = event[0], prog.card_type
    if kind == MOVE and not isinstance(event[3], int):
        return {ct[c] for c in event[3]}
    if kind == SHUFFLE and event[2] is not None:
        return {ct[c] for c in event[2]}
    if kind == DECIDE:
        dec, move = prog.decisions[event[2]], event[3]
        payload = move if dec.kind == "cards" else move[1] if dec.kind == "options" else None
        return {t for t, _ in payload or ()}
    return set()


def named(text: str, names: list) -> list:
    """The card names that occur in text as whole names (not inside a longer one: red in red:1 or blue/red)."""
    return [n for n in names if re.search(rf"(?<![\w:/]){re.escape(n)}(?![\w:/])", text)]
