"""Helpers for the tests of the example games (rulesets/examples): a fixed deal from the top of a
zone, zones and variables by name, moves by text, and random games checked after every move."""
from __future__ import annotations

import collections
import functools
import os

from helpers import check_loc, do, texts  # noqa: F401  (shared with the R-Eco tests)
from interpreter.compiler.game import load_game
from interpreter.seats import make_bot

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@functools.lru_cache(maxsize=None)
def game(name: str, overrides: tuple = ()):
    """The example game rulesets/examples/NAME.yaml, loaded once (overrides: (('k', v), ...))."""
    path = os.path.join(ROOT, "rulesets", "examples", f"{name}.yaml")
    return load_game(path, dict(overrides) or None)


def zone(prog, zone_name: str) -> int:
    return prog.zone_names.index(zone_name)


def names(prog, st, zone_name: str) -> list:
    """The type names of a zone's cards, bottom to top."""
    return [prog.type_names[prog.card_type[c]] for c in st.zones[zone(prog, zone_name)]]


def size(prog, st, zone_name: str) -> int:
    return len(st.zones[zone(prog, zone_name)])


def var(prog, st, name: str, owner: int | None = None):
    """A variable declared under vars (owner: the seat of a per-player one)."""
    return st.vars[prog.var_base[name] + (owner or 0)]


def stacked(prog, zone_name: str, top, all_names) -> tuple:
    """A shuffle outcome of `zone_name`: the cards `top` come off first (in order), the rest of
    `all_names` (a Counter of every card the zone holds when shuffled) lie below them."""
    rest = collections.Counter(all_names)
    for n in top:
        assert rest[n] > 0, f"no (further) {n} to stack"
        rest[n] -= 1
    bottom = [n for n in sorted(rest) for _ in range(rest[n])]
    return (zone(prog, zone_name), [prog.type_index[n] for n in bottom + list(reversed(list(top)))])


def deal_top(hands) -> list:
    """Draw order for `deal N` one card at a time from seat 0: hands[seat] in order."""
    return [hands[s][r] for r in range(len(hands[0])) for s in range(len(hands))]


def deck_counter(prog) -> collections.Counter:
    """Every card of the game by type name."""
    return collections.Counter(prog.type_names[t] for t in prog.card_type)


def seeded_games(prog, seeds, kinds=("random", "greedy")):
    """Yield (seed, state, bots) for new games; the caller plays them."""
    for seed in seeds:
        kind = kinds[seed % len(kinds)]
        bots = [make_bot(kind, seed * 101 + p) for p in range(prog.players)]
        yield seed, prog.new_state(seed), bots


def to_bottom(prog, st, card_names, frm: str, to: str) -> None:
    """Position surgery: move cards (by type name, from the top of `frm` down) to the bottom of `to`."""
    src, dst = zone(prog, frm), zone(prog, to)
    for n in card_names:
        c = next(c for c in reversed(st.zones[src]) if prog.type_names[prog.card_type[c]] == n)
        st.zones[src].remove(c)
        st.zones[dst].insert(0, c)
        st.loc[c] = dst
    check_loc(st)


def move_texts(prog, st) -> list:
    """The canonical texts of the legal moves, sorted."""
    return sorted(texts(prog, st))


def arrange(prog, st, layout: dict, spare: str) -> None:
    """Position surgery: each zone of `layout` holds exactly the named cards (bottom to top); its
    other cards, and the named cards taken from elsewhere, go through `spare`."""
    for zone_name in layout:
        for c in list(st.zones[zone(prog, zone_name)]):
            st.zones[zone(prog, zone_name)].remove(c)
            st.zones[zone(prog, spare)].insert(0, c)
            st.loc[c] = zone(prog, spare)
    for zone_name, wanted in layout.items():
        for n in wanted:
            c = next(c for z in st.zones for c in z
                     if prog.type_names[prog.card_type[c]] == n and st.loc[c] != zone(prog, zone_name))
            st.zones[st.loc[c]].remove(c)
            st.zones[zone(prog, zone_name)].append(c)
            st.loc[c] = zone(prog, zone_name)
    check_loc(st)


def set_var(prog, st, name: str, value, owner: int | None = None) -> None:
    st.vars[prog.var_base[name] + (owner or 0)] = value


def card_move(prog, decision: str, card_names) -> str:
    """The text of a card choice: `decision: 1*a + 1*b` in declaration order."""
    ordered = sorted(card_names, key=lambda n: prog.type_index[n])
    return f"{decision}: " + " + ".join(f"1*{n}" for n in ordered)


def scripted(prog, script, seed: int = 0):
    """A new game (with its log) whose first shuffles come out as `script` says; later ones use
    the seed."""
    st = prog.new_state(seed, log=True, script=script)
    if not st.script:
        st.script = None
    return st


def told(prog, st, seat: int) -> list:
    """The lines of the log as `seat` was told them."""
    from interpreter.runtime.events import describe, for_seat
    return [describe(prog, e, seat) for e in for_seat(prog, st.log, seat)]
