"""Helpers shared by the language tests: a tiny ruleset written to tmp_path and compiled (the
`make` fixture), and short ways to read zones, variables and moves."""
from __future__ import annotations

import textwrap

import pytest

from helpers import do, texts  # noqa: F401  (moves by text, as in every ruleset's tests)
from interpreter.compiler.game import load_game
from interpreter.errors import RulesetError

@pytest.fixture
def write(tmp_path):
    """write(text, name) -> path of a ruleset file holding the dedented text."""
    def write(text: str, name: str = "rules.yaml") -> str:
        path = tmp_path / name
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return str(path)
    return write


@pytest.fixture
def make(write):
    """make(text, players, overrides) -> the ruleset compiled for `players`."""
    def make(text: str, players: int = 2, overrides: dict | None = None):
        game = load_game(write(text), overrides)
        return game.program(players)
    return make


def names(p, st, zone: str) -> list:
    """The type names of a zone's cards, bottom to top."""
    return [p.type_names[p.card_type[c]] for c in st.zones[p.zone_names.index(zone)]]


def ids(p, st, zone: str) -> list:
    return list(st.zones[p.zone_names.index(zone)])


def var(p, st, name: str, owner: int | None = None):
    """A variable declared under vars (owner: the seat of a per-player one)."""
    return st.vars[p.var_base[name] + (owner or 0)]


def local(p, st, name: str):
    """The value of a local name (let, for, choose)."""
    return st.vars[p.rules.slots.index(name)]


def edit(text: str, old: str, new: str) -> str:
    """A variant of a ruleset text: `old` (which must occur exactly once) replaced by `new`."""
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times"
    return text.replace(old, new)


def ok(p, st):
    """Answer the pause decision `go`."""
    do(p, st, "ok")


def errors_of(write, text: str) -> list:
    """(line, col, message) of every diagnostic of a broken ruleset."""
    with pytest.raises(RulesetError) as exc:
        load_game(write(text))
    return [(d.pos.line, d.pos.col, d.message) for d in exc.value.diagnostics]
