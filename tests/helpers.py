"""Helpers for the R-Eco tests: fixed deals, zones by name, moves by text, position surgery.

Conventions (as in interpreter/runtime/engine.py): a zone is a list of card ids, bottom first, top last.
"Top lists" in this module are in *draw order*: the first name is the first card drawn.
"""
from __future__ import annotations

import collections
import functools
import os

from interpreter.seats import make_bot
from interpreter.compiler.game import load_game

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULESET = os.path.join(ROOT, "rulesets", "r_eco.yaml")

MATERIALS = ("cans", "glass", "plastic", "paper")
# The rule sheet's components: per material 19 single-icon and 3 double-icon cards (88 in all).
RECYCLING = {f"{m}:{i}": (19 if i == 1 else 3) for m in MATERIALS for i in (1, 2)}
# The rule sheet's reward stacks, top first.
REWARD_ROWS = {
    2: [0, 1, 2, -2, 4, 5],
    3: [0, 1, 2, 3, -2, 4, 5],
    4: [0, 1, 2, 3, -2, 4, 5],
    5: [0, 1, 2, 3, 3, -2, 4, 5],
}
ALL_REWARD_VALUES = [0, 1, 2, 3, 3, -2, 4, 5]   # the 8 reward cards of each material
HAND_LIMIT = 5


@functools.lru_cache(maxsize=None)
def game():
    """The R-Eco Game (loaded once per test session)."""
    return load_game(RULESET)


def program(players: int):
    return game().program(players)


# ---------------------------------------------------------------- card names

def type_name(prog, card: int) -> str:
    return prog.type_names[prog.card_type[card]]


def is_reward(name: str) -> bool:
    return name.startswith("reward:")


def reward_value(name: str) -> int:
    """'reward:glass:-2' -> -2 (read from the name, not from the program's tables)."""
    return int(name.split(":")[2])


def reward_material(name: str) -> str:
    return name.split(":")[1]


def icons(name: str) -> int:
    """Icons of a recycling card, read from its name ('glass:2' -> 2)."""
    return int(name.split(":")[1])


def zone_index(prog, zone: str) -> int:
    try:
        return prog.zone_names.index(zone)
    except ValueError:
        raise KeyError(f"no zone {zone!r}; zones: {prog.zone_names}") from None


def cards(prog, st, zone: str) -> list:
    """Card ids of a zone, bottom to top."""
    return list(st.zones[zone_index(prog, zone)])


def names(prog, st, zone: str) -> list:
    """The zone's cards as a sorted list of type names."""
    return sorted(type_name(prog, c) for c in st.zones[zone_index(prog, zone)])


def pile(prog, st, zone: str) -> list:
    """The zone's cards as type names, top first (e.g. a reward stack in taking order)."""
    return [type_name(prog, c) for c in reversed(st.zones[zone_index(prog, zone)])]


def size(prog, st, zone: str) -> int:
    return len(st.zones[zone_index(prog, zone)])


def reward_values_top_first(prog, st, material: str) -> list:
    return [reward_value(n) for n in pile(prog, st, f"rewards[{material}]")]


def side_icons(prog, st, material: str) -> int:
    return sum(icons(n) for n in names(prog, st, f"side[{material}]"))


# ---------------------------------------------------------------- fixed deals

def draw_order(prog, top) -> list:
    """Type ids for the draw pile, bottom to top, whose first drawn cards are `top` (in order).

    The other recycling cards lie below, in a fixed order."""
    rest = collections.Counter(RECYCLING)
    for name in top:
        if rest[name] <= 0:
            raise ValueError(f"more {name} cards asked for than the game has")
        rest[name] -= 1
    bottom = [n for n in RECYCLING for _ in range(rest[n])]
    return [prog.type_index[n] for n in bottom + list(reversed(list(top)))]


def deal_order(players: int, hands=None, dumps=None, then=()) -> list:
    """A top list (draw order) that deals `hands[seat]` (3 names each) and `dumps`
    (cans, glass, plastic, paper), followed by the cards `then` (next refills, in order)."""
    hands = hands or [[] for _ in range(players)]
    top = []
    for r in range(3):
        for seat in range(players):
            top.append(hands[seat][r])
    top.extend(dumps or [])
    top.extend(then)
    return top


def start(players: int, top=(), later=(), seed: int = 0, **kw):
    """(program, state) of a new game whose draw pile yields `top` first (draw order).

    `later`: further shuffle outcomes of the draw pile (reshuffled discards), each the
    complete pile in draw order (first drawn first). Without `later`, further shuffles use
    the state's own generator."""
    prog = program(players)
    draw = zone_index(prog, "draw")
    script = [(draw, draw_order(prog, top))]
    for order in later:
        script.append((draw, [prog.type_index[n] for n in reversed(list(order))]))
    st = prog.new_state(seed, script=script, **kw)
    if not st.script:
        st.script = None
    return prog, st


def dealt(players: int, hands=None, dumps=None, then=(), **kw):
    """start() with hands, dump sites and the next draw cards given by name."""
    return start(players, top=deal_order(players, hands, dumps, then), **kw)


def next_shuffle(prog, st, zone: str, top, extra=()) -> None:
    """Script the next shuffle: the cards now in `zone` (which will be shuffled into the
    draw pile), plus the cards `extra` that will join them first, come out with `top`
    drawn first, the others below in a fixed order."""
    have = collections.Counter(names(prog, st, zone)) + collections.Counter(extra)
    for name in top:
        if have[name] <= 0:
            raise ValueError(f"{zone} holds no (further) {name}")
        have[name] -= 1
    bottom = [n for n in sorted(have) for _ in range(have[n])]
    order = [prog.type_index[n] for n in bottom + list(reversed(list(top)))]
    st.script = (st.script or []) + [(zone_index(prog, "draw"), order)]


def payload_names(prog, move) -> dict:
    """A card-choice move as {type name: count}."""
    return {prog.type_names[t]: n for t, n in move}


# ---------------------------------------------------------------- moves

def texts(prog, st) -> list:
    """Canonical texts of the legal moves."""
    return [prog.move_text(st, m) for m in prog.legal_moves(st)]


def do(prog, st, text: str):
    """Play a move given by its text (parse_move + play); returns the move."""
    move = prog.parse_move(st, text)
    prog.play(st, move)
    return move


def move_of(prog, counts: dict):
    """A card-choice move payload built by hand: {'glass:1': 2} -> ((type, 2),)."""
    return tuple(sorted((prog.type_index[n], k) for n, k in counts.items()))


# ---------------------------------------------------------------- position surgery

def check_loc(st) -> None:
    """st.loc agrees with st.zones and every card is in exactly one zone."""
    seen = {}
    for z, zone in enumerate(st.zones):
        for c in zone:
            assert c not in seen, f"card {c} is in zones {seen[c]} and {z}"
            seen[c] = z
    assert len(seen) == len(st.loc), "some card is in no zone"
    for c, z in seen.items():
        assert st.loc[c] == z, f"card {c} is in zone {z} but loc says {st.loc[c]}"


def take(prog, st, name: str, frm: str | None = None, exclude=(), home=None) -> int:
    """Remove one card of type `name` from zone `frm` (topmost there), or, without `frm`, from
    the bottom of its deck (`home(name)`, the draw pile by default) or else from any zone not in
    `exclude`; returns its id."""
    t = prog.type_index[name]
    if frm is not None:
        order = [zone_index(prog, frm)]
    else:
        deck = zone_index(prog, (home or _draw_pile)(name))
        order = [deck] + [z for z in range(len(st.zones)) if prog.zone_names[z] not in exclude and z != deck]
    for z in order:
        zone = st.zones[z]
        ids = [c for c in zone if prog.card_type[c] == t]
        if ids:
            c = ids[0] if (frm is None and z == order[0]) else ids[-1]
            zone.remove(c)
            st.loc[c] = None
            return c
    raise ValueError(f"no {name} card available" + (f" in {frm}" if frm else ""))


def _draw_pile(name: str) -> str:
    """R-Eco's deck for every card taken by surgery."""
    return "draw"


def put(prog, st, zone: str, card: int, bottom: bool = False) -> None:
    z = zone_index(prog, zone)
    if bottom:
        st.zones[z].insert(0, card)
    else:
        st.zones[z].append(card)
    st.loc[card] = z


def move(prog, st, card_names, to: str, frm: str | None = None, home=None) -> list:
    """Move cards by type name onto the top of zone `to` (from `frm`, or from the bottom of
    their deck / anywhere else); returns their ids."""
    ids = []
    for name in card_names:
        c = take(prog, st, name, frm, exclude=(to,), home=home)
        put(prog, st, to, c)
        ids.append(c)
    check_loc(st)
    return ids


def move_all(prog, st, frm: str, to: str, keep: int = 0) -> list:
    """Move every card of `frm` except its top `keep` onto `to` (bottom card first)."""
    src = st.zones[zone_index(prog, frm)]
    moving = src[:len(src) - keep]
    del src[:len(src) - keep]
    for c in moving:
        put(prog, st, to, c)
    check_loc(st)
    return moving


def set_zone(prog, st, zone: str, card_names, home=None) -> list:
    """Make `zone` hold exactly these cards (listed bottom to top). Its old cards go to the
    bottom of their deck, the new ones come from the bottom of their deck: the cards on top
    of each deck (the scripted next draws) stay where they are."""
    home = home or _draw_pile
    z = zone_index(prog, zone)
    old = st.zones[z][:]
    st.zones[z].clear()
    new = []
    for name in card_names:
        c = take(prog, st, name, exclude=(zone,), home=home)
        put(prog, st, zone, c)
        new.append(c)
    for c in reversed(old):
        put(prog, st, home(type_name(prog, c)), c, bottom=True)
    check_loc(st)
    return new


def give_rewards(prog, st, seat: int, rewards) -> list:
    """Move reward cards, given as (material, value), from the reward stacks to won(seat)."""
    ids = []
    for material, value in rewards:
        name = f"reward:{material}:{value}"
        ids += move(prog, st, [name], f"won({seat})", frm=f"rewards[{material}]")
    return ids


def dispose_cards(prog, st, seat: int, n: int) -> list:
    """Put n recycling cards (from the bottom of the draw pile) on disposal(seat)."""
    draw = st.zones[zone_index(prog, "draw")]
    ids = []
    for _ in range(n):
        c = draw.pop(0)
        put(prog, st, f"disposal({seat})", c)
        ids.append(c)
    check_loc(st)
    return ids


# ---------------------------------------------------------------- bots and games

def bots(kind: str, players: int, seed: int) -> list:
    """One seeded bot per seat: all 'random', all 'greedy', or 'mixed' (alternating)."""
    return [make_bot(k, seed * 101 + p) for p, k in enumerate(bot_names(kind, players, seed))]


def bot_names(kind: str, players: int, seed: int) -> list:
    if kind in ("random", "greedy"):
        return [kind] * players
    return [("random", "greedy")[(seed + p) % 2] for p in range(players)]


# ---------------------------------------------------------------- the sheet's scoring, by hand

def clean_bonus(players: int, disposers: int) -> int:
    """The rule sheet's clean-collector bonus table."""
    if players == 2:
        return 4
    if players == 3:
        return 2 * disposers
    return disposers


def sheet_scores(prog, st) -> list:
    """Scores of a position per the rule sheet, read from won(p) and disposal(p)."""
    n = prog.players
    disposed = [size(prog, st, f"disposal({p})") for p in range(n)]
    disposers = sum(1 for d in disposed if d)
    out = []
    for p in range(n):
        per = collections.defaultdict(list)
        for name in names(prog, st, f"won({p})"):
            per[reward_material(name)].append(reward_value(name))
        s = sum(sum(v) for v in per.values() if len(v) >= 2) - disposed[p]
        if disposed[p] == 0:
            s += clean_bonus(n, disposers)
        out.append(s)
    return out


def sheet_winners(scores, disposed) -> list:
    """Most points; tie: fewer disposed cards; still tied: all of them."""
    best = max(scores)
    tied = [p for p, s in enumerate(scores) if s == best]
    fewest = min(disposed[p] for p in tied)
    return [p for p in tied if disposed[p] == fewest]


# ---------------------------------------------------------------- generic conformance checks

def check_clone_then_same_moves(prog, st, bot, cut: int) -> None:
    """Play st to the end; at move `cut`, a clone played out must leave st untouched, and the
    clone's moves replayed (checked) on st must give an equal state and result."""
    while not st.over:
        if st.moves == cut:
            snapshot, copy = st.clone(), st.clone()
            assert copy == st and copy is not st
            moves = []
            while not copy.over:                          # play the copy to the end
                m = bot.choose(prog, copy, prog.legal_moves(copy))
                moves.append(m)
                prog.apply(copy, m)
            assert st == snapshot                         # the original is untouched
            assert st != copy
            for m in moves:                               # the same moves on the original
                prog.play(st, m)
            assert st == copy
            assert prog.result(st) == prog.result(copy)
            break
        prog.apply(st, bot.choose(prog, st, prog.legal_moves(st)))
    assert st.over


def check_play_game_matches_checked_play(g, players: int, seed: int, seat_bots: list) -> None:
    """records.play_game (unchecked apply) and a checked replay of its moves agree."""
    from interpreter.tools.records import play_game
    prog, st, moves = play_game(g, players, seed, seat_bots, record=True)
    st2 = prog.new_state(seed)
    for seat, text in moves:
        assert st2.decider == seat
        prog.play(st2, prog.parse_move(st2, text))
    assert st2 == st
