"""Helpers for the Sorting Memo tests: fixed deals, the grid by name, moves by text, surgery.

Conventions (as in interpreter/runtime/engine.py and tests/helpers.py): a zone is a list of card ids,
bottom first, top last. The grid is two zone families: down[c] holds the face-down card at
position c (1 .. rows*cols), up[c] the card turned face up there.

The setup shuffles `box` (the containers) and then `stock` (recyclables and trucks); start()
scripts both outcomes, so a test fixes which stack holds which container type and which card
lies at each position, then plays the setup's stack choices by their text. Without a `grid`,
the cards lie in the *standard layout*: the pairs side by side in type order (cells 1-2
paper:1, 3-4 paper:2, ..., 39-40 organic:4), then the trucks (41-42 swap, 43-44 shuffle, 45-46
take, 47-48 give, 49-50 container_swap). Cells a test names displace that order: the other
cards fill the remaining cells in the same order.

The figures below are the rule sheet's (docs/games.md, "Sorting Memo"), not the ruleset's.
"""
from __future__ import annotations

import collections
import functools
import os

from interpreter.compiler.game import load_game
from helpers import check_loc, do, texts, zone_index  # noqa: F401  (re-exported for the tests)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULESET = os.path.join(ROOT, "rulesets", "sorting_memo.yaml")

MATERIALS = ("paper", "plastic", "glass", "metal", "organic")      # container types = materials
TRUCKS = ("swap", "shuffle", "take", "give", "container_swap")
CONTAINERS_PER_TYPE = 4          # one stack of 4 per type
CONTAINERS_EACH = 3              # each player draws 3, from different stacks
PICTURES = 4                     # (param) pictures per material
COPIES = 2                       # (param) identical cards per picture
TRUCK_COPIES = 2                 # (param) trucks of each kind
ROWS, COLS = 5, 10               # (param) the grid

@functools.lru_cache(maxsize=None)
def _game(params: tuple):
    return load_game(RULESET, dict(params) or None)


def game(**params):
    """The Sorting Memo Game, with some parameters changed (loaded once per set of changes)."""
    return _game(tuple(sorted(params.items())))


def program(players: int, **params):
    return game(**params).program(players)


# ---------------------------------------------------------------- the sheet's components

def sheet_deck(pictures=PICTURES, copies=COPIES, truck_copies=TRUCK_COPIES) -> collections.Counter:
    """The cards laid out on the grid, per the sheet: recyclables 'material:picture' and trucks."""
    deck = collections.Counter({f"{m}:{i}": copies for m in MATERIALS for i in range(1, pictures + 1)})
    deck.update({f"truck:{k}": truck_copies for k in TRUCKS})
    return +deck


def sheet_containers() -> collections.Counter:
    return collections.Counter({f"container:{m}": CONTAINERS_PER_TYPE for m in MATERIALS})


def material(name: str) -> str:
    """'glass:3' -> 'glass', 'container:glass' -> 'glass' (read from the name)."""
    return name.split(":")[1] if name.startswith("container:") else name.split(":")[0]


def is_truck(name: str) -> bool:
    return name.startswith("truck:")


# ---------------------------------------------------------------- zones by name

def type_name(prog, card: int) -> str:
    return prog.type_names[prog.card_type[card]]


def names(prog, st, zone: str) -> list:
    """The zone's cards as a sorted list of type names."""
    return sorted(type_name(prog, c) for c in st.zones[zone_index(prog, zone)])


def bottom_up(prog, st, zone: str) -> list:
    """The zone's cards as type names, bottom first."""
    return [type_name(prog, c) for c in st.zones[zone_index(prog, zone)]]


def size(prog, st, zone: str) -> int:
    return len(st.zones[zone_index(prog, zone)])


def cells(prog) -> list:
    """The grid positions 1 .. rows*cols, read from the program's zones."""
    return [int(z[5:-1]) for z in prog.zone_names if z.startswith("down[")]


def grid(prog, st) -> dict:
    """{cell: name of the card lying face down there, or None}."""
    out = {}
    for c in cells(prog):
        z = st.zones[zone_index(prog, f"down[{c}]")]
        assert len(z) <= 1, f"two cards at position {c}"
        out[c] = type_name(prog, z[0]) if z else None
    return out


def face_up(prog, st) -> dict:
    """{cell: name} of the cards face up now."""
    out = {}
    for c in cells(prog):
        z = st.zones[zone_index(prog, f"up[{c}]")]
        if z:
            out[c] = type_name(prog, z[0])
    return out


def face_down(prog, st) -> list:
    """The cells holding a face-down card."""
    return [c for c, n in grid(prog, st).items() if n is not None]


def card_at(prog, st, cell: int) -> int:
    """The id of the card lying at a position (face down or up)."""
    z = st.zones[zone_index(prog, f"down[{cell}]")] or st.zones[zone_index(prog, f"up[{cell}]")]
    assert len(z) == 1
    return z[0]


def containers(prog, st, seat: int) -> list:
    """A seat's containers as sorted type names (held, or shown at the end)."""
    return sorted(names(prog, st, f"containers({seat})") + names(prog, st, f"shown({seat})"))


def stack_sizes(prog, st) -> list:
    n = sum(1 for z in prog.zone_names if z.startswith("stack["))
    return [size(prog, st, f"stack[{s}]") for s in range(1, n + 1)]


# ---------------------------------------------------------------- fixed deals

def layout(prog, fixed: dict | None = None) -> list:
    """The names lying at cells 1, 2, ... (None where empty): the cards of `fixed` {cell: name}
    where it says, the others in the standard order (type order: the pairs side by side, then
    the trucks) in the cells left."""
    stock = collections.Counter(type_name(prog, c) for c in prog.initial()[0][zone_index(prog, "stock")])
    fixed = dict(fixed or {})
    rest = stock - collections.Counter(fixed.values())
    if collections.Counter(fixed.values()) - stock:
        raise ValueError(f"more cards asked for than the game has: {collections.Counter(fixed.values()) - stock}")
    fill = iter(sorted(rest.elements(), key=prog.type_index.__getitem__))
    out = []
    for c in cells(prog):
        out.append(fixed[c] if c in fixed else next(fill, None))
    if any(c not in cells(prog) for c in fixed):
        raise ValueError("a named cell lies outside the grid")
    laid = [n is not None for n in out]
    if laid != sorted(laid, reverse=True):
        raise ValueError("the setup lays the cards on cells 1, 2, ... without gaps")
    return out


def start(players: int = 2, grid=None, stacks=MATERIALS, draws=None, seed: int = 0, log: bool = True,
          params=None):
    """(program, state) of a new game, waiting for seat 0's first move of turn 1.

    grid:   {cell: card name} fixed positions, the other cards in the standard layout;
    stacks: the container type of stack 1, 2, ... (MATERIALS order by default);
    draws:  per seat, the 3 stacks it draws from, in order (default 1, 2, 3 for every seat:
            with the default stacks, everyone holds paper, plastic and glass);
    params: parameter overrides (e.g. {'single_use': False})."""
    prog, st = deal(players, grid, stacks, seed, log, params)
    for p, chosen in enumerate(draws or [(1, 2, 3)] * players):
        for s in chosen:
            assert st.decider == p and st.pending.name == "draw_from"
            do(prog, st, f"draw_from: {s}")
    assert st.turn == 1 and st.current == 0
    return prog, st


def deal(players: int = 2, grid=None, stacks=MATERIALS, seed: int = 0, log: bool = True, params=None):
    """start() up to the setup's first choice of a container stack (seat 0 to choose)."""
    prog = program(players, **(params or {}))
    init = prog.initial()[0]
    box = collections.Counter(type_name(prog, c) for c in init[zone_index(prog, "box")])
    box_order = [prog.type_index[f"container:{m}"] for m in reversed(stacks)
                 for _ in range(box[f"container:{m}"])]            # stack 1's type on top
    lay = layout(prog, grid)
    laid = [n for n in lay if n is not None]
    left = collections.Counter(type_name(prog, c) for c in init[zone_index(prog, "stock")]) - collections.Counter(laid)
    stock_order = sorted((prog.type_index[n] for n in left.elements()))   # cards beyond the grid: below
    stock_order += [prog.type_index[n] for n in reversed(laid)]             # cell 1's card on top
    script = [(zone_index(prog, "box"), box_order), (zone_index(prog, "stock"), stock_order)]
    st = prog.new_state(seed, log=log, script=script)
    assert st.script == []
    st.script = None
    return prog, st


def next_shuffle(prog, st, dealt) -> None:
    """Script the next Shuffle: the i-th position picked receives the card named dealt[i]
    (the picked cards must be those, in some order)."""
    order = [prog.type_index[n] for n in reversed(list(dealt))]
    st.script = (st.script or []) + [(zone_index(prog, "pool"), order)]


# ---------------------------------------------------------------- moves

def turn_over(prog, st, first: int, second: int | None = None) -> None:
    """Turn the card at `first` over, then (if given) the one at `second`."""
    do(prog, st, f"first_spot: {first}")
    if second is not None:
        do(prog, st, f"second_spot: {second}")


def decisions(prog, st, moves) -> list:
    """Play moves by text; returns the seat that decided each."""
    out = []
    for text in moves:
        out.append(st.decider)
        do(prog, st, text)
    return out


# ---------------------------------------------------------------- position surgery (no events)

def _take_from_grid(prog, st, name: str) -> int:
    """Remove a face-down card of this type (the one at the highest position) or one out of play
    (stock); returns its id."""
    t = prog.type_index[name]
    for z in [zone_index(prog, "stock")] + [zone_index(prog, f"down[{c}]") for c in reversed(cells(prog))]:
        zone = st.zones[z]
        if zone and prog.card_type[zone[-1]] == t:
            c = zone.pop()
            st.loc[c] = None
            return c
    raise ValueError(f"no face-down {name} left")


def put(prog, st, zone: str, card: int) -> None:
    z = zone_index(prog, zone)
    st.zones[z].append(card)
    st.loc[card] = z


def collect(prog, st, seat: int, card_names) -> None:
    """Surgery: the named cards leave the grid (highest positions first) for won(seat)."""
    for name in card_names:
        put(prog, st, f"won({seat})", _take_from_grid(prog, st, name))
    check_loc(st)


def keep(prog, st, seat: int, card_names) -> None:
    """Surgery: the named trucks leave the grid for kept(seat)."""
    for name in card_names:
        put(prog, st, f"kept({seat})", _take_from_grid(prog, st, name))
    check_loc(st)


def clear_grid(prog, st, keep_cells) -> None:
    """Surgery: every face-down card not at one of `keep_cells` leaves play (into stock)."""
    for c in cells(prog):
        if c not in keep_cells:
            zone = st.zones[zone_index(prog, f"down[{c}]")]
            while zone:
                put(prog, st, "stock", zone.pop())
    check_loc(st)


# ---------------------------------------------------------------- the sheet's scoring, by hand

def sheet_counts(prog, st, seat: int) -> tuple:
    """(sorted, unsorted): collected recyclables whose material matches one of the seat's
    containers, and the rest."""
    mine = {material(n) for n in containers(prog, st, seat)}
    won = names(prog, st, f"won({seat})")
    sorted_ = sum(1 for n in won if material(n) in mine)
    return sorted_, len(won) - sorted_


def sheet_winners(counts) -> list:
    """Most sorted; tie: fewest unsorted; still tied: all of them."""
    best = max(s for s, _ in counts)
    tied = [p for p, (s, _) in enumerate(counts) if s == best]
    fewest = min(counts[p][1] for p in tied)
    return [p for p in tied if counts[p][1] == fewest]
