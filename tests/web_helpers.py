"""Helpers for the web table's tests: a table and its client, tokens by seat, moves through HTTP, and
the card names a viewer may not see (from its own View, worked out here from the whole truth)."""
from __future__ import annotations

import functools
import os
import re

from interpreter.compiler.game import load_game
from interpreter.seats.views import Observer
from interpreter.runtime.events import for_seat
from interpreter.tools.web.public import public_events, public_observer
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
    """Every card type a viewer has known of so far (seen, or known to be somewhere), from the truth."""

    def __init__(self, table, viewer):
        self.table, self.viewer = table, viewer
        prog = table.program
        self.obs = public_observer(prog) if viewer == PUBLIC else Observer(prog, viewer)
        self.read, self.known = 0, set()
        self.names = prog.type_names

    def update(self) -> set:
        log, prog = self.table.st.log, self.table.program
        new = log[self.read:]
        events = public_events(prog, new) if self.viewer == PUBLIC else for_seat(prog, new, self.viewer)
        for e in events:
            self.obs.observe(e)
            v = self.obs.view()
            for z in range(len(v.zones)):
                self.known |= {t for t in v.cards(z) if t is not None} | set(v.known_cards(z))
        self.read = len(log)
        return self.known

    def unseen_names(self) -> list:
        """The names of the card types this viewer has never known of."""
        return [self.names[t] for t in range(len(self.names)) if t not in self.known]


def named(text: str, names: list) -> list:
    """The card names that occur in text as whole names (not inside a longer name)."""
    return [n for n in names if re.search(rf"(?<![\w:]){re.escape(n)}(?![\w:])", text)]
