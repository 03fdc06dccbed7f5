"""Helpers for the Lixo tests: fixed deals, zones by name, moves by text, position surgery.

Conventions (as in interpreter/runtime/engine.py and tests/helpers.py): a zone is a list of card ids,
bottom first, top last. "Top lists" here are in *draw order*: the first name is the first card
turned over (bins) or dealt (garbage).

Setup shuffles `bins` first, then `garbage`; start() scripts both outcomes, so a test fixes the
order of the bins cards and of the garbage cards dealt, and nothing else is left to chance.
The figures below are the rule sheet's (docs/games.md, "Lixo?", "Components"), not the
ruleset's.
"""
from __future__ import annotations

import collections
import functools
import os

from interpreter.compiler.game import load_game
# generic helpers (they only use the program's zone and type names)
import helpers as H
from helpers import (  # noqa: F401  (re-exported for the Lixo tests)
    bot_names, bots, cards, check_loc, do, move_all, move_of, names, pile, put, size, texts, type_name,
    zone_index,
)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULESET = os.path.join(ROOT, "rulesets", "lixo.yaml")

COLOURS = ("yellow", "blue", "green", "red", "grey")
VALUES = (1, 1, 2, 3, 5)                     # container values of each colour
STOPS = 5
GARBAGE_PER_COLOUR = 36
START_HAND = 5                               # garbage cards each player gets at the start
STOP_DEAL = 5                                # ... at a stop card
EMPTY_DEAL = 5                               # ... when every hand is empty after a card
CONTAINERS = collections.Counter(f"container:{c}:{v}" for c in COLOURS for v in VALUES)   # 25
BINS = CONTAINERS + collections.Counter({"stop": STOPS})                                  # 30
GARBAGE = collections.Counter({c: GARBAGE_PER_COLOUR for c in COLOURS})                   # 180
ALL_CARDS = sum(BINS.values()) + sum(GARBAGE.values())                                    # 210


@functools.lru_cache(maxsize=None)
def game():
    """The Lixo Game (loaded once per test session)."""
    return load_game(RULESET)


def program(players: int):
    return game().program(players)


@functools.lru_cache(maxsize=None)
def _variant(params: tuple):
    return load_game(RULESET, dict(params))


def variant(**params):
    """The Lixo Game with some parameters changed (e.g. garbage_per_colour=2), loaded once."""
    return _variant(tuple(sorted(params.items())))


# ---------------------------------------------------------------- card names

def is_container(name: str) -> bool:
    return name.startswith("container:")


def is_garbage(name: str) -> bool:
    return name in COLOURS


def container_colour(name: str) -> str:
    """'container:blue:3' -> 'blue' (read from the name)."""
    return name.split(":")[1]


def container_value(name: str) -> int:
    """'container:blue:3' -> 3 (read from the name)."""
    return int(name.split(":")[2])


def reservoir(name: str) -> str:
    """The deck a card type comes from: bins for containers and stops, else garbage."""
    return "garbage" if is_garbage(name) else "bins"


# ---------------------------------------------------------------- game variables

def var(prog, st, name: str):
    """A game variable (first_player, high, leader, passes) of the state."""
    return st.vars[prog.var_base[name]]


def set_var(prog, st, name: str, value) -> None:
    st.vars[prog.var_base[name]] = value


def first_player(prog, st) -> int:
    return var(prog, st, "first_player")


def turned(prog, st):
    """The type name of the bins card turned over (None when there is none)."""
    z = st.zones[zone_index(prog, "turned")]
    return type_name(prog, z[-1]) if z else None


# ---------------------------------------------------------------- fixed deals

def _order(prog, full: collections.Counter, top) -> list:
    """Type ids bottom to top of a deck holding the cards `full`, whose first drawn are `top`
    (in order); the others lie below in a fixed order: stops at the very bottom, the other types
    in reverse kind order, so that after `top` come the grey cards (containers: grey 5, 3, 2, 1,
    1), then red, green, blue, yellow, and the stops last."""
    rest = collections.Counter(full)
    for name in top:
        if rest[name] <= 0:
            raise ValueError(f"more {name} cards asked for than the game has")
        rest[name] -= 1
    kinds = sorted(full, key=lambda n: n != "stop")          # stable: the stops first (bottom)
    bottom = [n for n in kinds for _ in range(rest[n])]
    return [prog.type_index[n] for n in bottom + list(reversed(list(top)))]


def bins_order(prog, top) -> list:
    return _order(prog, BINS, top)


def garbage_order(prog, top) -> list:
    return _order(prog, GARBAGE, top)


def deal_order(players: int, hands, first: int = 0) -> list:
    """The draw order of a deal of len(hands[p]) cards to every seat, one card at a time,
    clockwise from seat `first` (all hands the same length)."""
    k = len(hands[0])
    assert all(len(h) == k for h in hands), "a deal gives every seat the same number of cards"
    top = []
    for r in range(k):
        for i in range(players):
            top.append(hands[(first + i) % players][r])
    return top


def start(players: int, bins=(), garbage=(), later=(), seed: int = 0, **kw):
    """(program, state) of a new game whose bins deck turns over `bins` first and whose garbage
    deck deals `garbage` first (both in draw order).

    `later`: further shuffles of the garbage deck (the recycled pile shuffled into it), each the
    complete deck in draw order. Without them, later shuffles use the state's own generator."""
    prog = program(players)
    script = [(zone_index(prog, "bins"), bins_order(prog, bins)),
              (zone_index(prog, "garbage"), garbage_order(prog, garbage))]
    for order in later:
        script.append((zone_index(prog, "garbage"), [prog.type_index[n] for n in reversed(list(order))]))
    st = prog.new_state(seed, script=script, **kw)
    if not st.script:
        st.script = None
    return prog, st


def dealt(players: int, hands, bins=(), then=(), **kw):
    """start() with the start hands (START_HAND garbage names per seat, dealt from seat 0), the
    bins cards in the order they are turned over, and the next garbage cards dealt (`then`)."""
    assert all(len(h) == START_HAND for h in hands) and len(hands) == players
    return start(players, bins=bins, garbage=deal_order(players, hands) + list(then), **kw)


def next_shuffle(prog, st, top, extra=()) -> None:
    """Script the next shuffle of the garbage deck: the cards now in `recycled`, plus the cards
    `extra` that will join them first, come out with `top` dealt first, the others below in a
    fixed order."""
    have = collections.Counter(names(prog, st, "recycled")) + collections.Counter(extra)
    for name in top:
        if have[name] <= 0:
            raise ValueError(f"recycled holds no (further) {name}")
        have[name] -= 1
    bottom = [n for n in sorted(have) for _ in range(have[n])]
    order = [prog.type_index[n] for n in bottom + list(reversed(list(top)))]
    st.script = (st.script or []) + [(zone_index(prog, "garbage"), order)]


# ---------------------------------------------------------------- moves

def bid(colour: str, k: int) -> str:
    return f"bid: {k}*{colour}"


def pass_until(prog, st, seat: int) -> None:
    """Everyone deciding before `seat` passes (in the current auction)."""
    guard = 0
    while st.decider != seat:
        do(prog, st, "pass")
        guard += 1
        assert guard < 100 and not st.over


def totals(prog, st) -> list:
    """Each seat's bid so far in the current auction."""
    return [size(prog, st, f"bids({p})") for p in range(prog.players)]


def hand_sizes(prog, st) -> list:
    return [size(prog, st, f"hand({p})") for p in range(prog.players)]


# ---------------------------------------------------------------- position surgery

# The R-Eco helpers, with each card taken from and returned to its own deck (bins or garbage).
def take(prog, st, name: str, frm: str | None = None, exclude=()) -> int:
    return H.take(prog, st, name, frm, exclude, home=reservoir)


def move(prog, st, card_names, to: str, frm: str | None = None) -> list:
    return H.move(prog, st, card_names, to, frm, home=reservoir)


def set_zone(prog, st, zone: str, card_names) -> list:
    return H.set_zone(prog, st, zone, card_names, home=reservoir)


def clear_bins(prog, st, keep: int) -> None:
    """Play out the bins deck but its top `keep` cards by surgery: the containers below go to
    unclaimed, the stops to used_stops (as if turned over with nobody bidding)."""
    src = st.zones[zone_index(prog, "bins")]
    moving = src[:len(src) - keep]
    del src[:len(src) - keep]
    for c in moving:
        put(prog, st, "used_stops" if type_name(prog, c) == "stop" else "unclaimed", c)
    check_loc(st)


# ---------------------------------------------------------------- the sheet's scoring, by hand

def sheet_scores(prog, st) -> list:
    """Scores per the rule sheet: values of the containers won, −1 per garbage card still held
    (in hand and face up in front of the player)."""
    out = []
    for p in range(prog.players):
        won = sum(container_value(n) for n in names(prog, st, f"won({p})"))
        held = size(prog, st, f"hand({p})") + size(prog, st, f"unrecycled({p})") + size(prog, st, f"bids({p})")
        out.append(won - held)
    return out


def sheet_winners(scores) -> list:
    """Highest score wins; ties are shared."""
    best = max(scores)
    return [p for p, s in enumerate(scores) if s == best]


def bid_move(prog, st, counts: dict):
    """A bid built by hand (not from the legal list): {'blue': 2, 'red': 1} -> (bid option, payload)."""
    option = [name for name, _, _ in st.pending.options].index("bid")
    return (option, move_of(prog, counts))
