"""Sorting Memo rule scenarios: one test per rule sentence or decision of the
Sorting Memo rule sheet, described in docs/games.md ("Sorting Memo").

Each test fixes a deal (memo_helpers.start: which stack holds which container type, which card
lies at each grid position, which stacks each seat draws from), plays moves by their text and
checks the outcome the rule sheet prescribes. Expected values are worked out by hand from the
sheet. Hidden information is checked on each seat's view (interpreter.seats.views), built from the
events only.

Reading aid: start() leaves the game at seat 0's first decision of turn 1. With the default
stacks (stack 1 paper, 2 plastic, 3 glass, 4 metal, 5 organic) and draws (stacks 1, 2, 3 for every
seat) everyone holds paper, plastic and glass containers. Without a `grid`, the pairs lie side by
side in type order (cells 1-2 paper:1, 3-4 paper:2, ..., 39-40 organic:4) and the trucks after them
(41-42 swap, 43-44 shuffle, 45-46 take, 47-48 give, 49-50 container_swap); cells a test names
displace that order.
"""
import collections

import pytest

import memo_helpers as M
from interpreter.runtime import events
from interpreter.seats import make_bot
from interpreter.tools.cli import build_parser, load
from interpreter.runtime.engine import MOVE
from interpreter.errors import IllegalMove
from interpreter.seats.views import view_of
from memo_helpers import (
    COLS, CONTAINERS_EACH, CONTAINERS_PER_TYPE, MATERIALS, ROWS, TRUCKS,
    bottom_up, card_at, cells, check_loc, clear_grid, collect, containers, deal, decisions, do,
    face_down, face_up, grid, keep, material, names, next_shuffle, program, sheet_containers,
    sheet_counts, sheet_deck, sheet_winners, size, stack_sizes, start, texts, turn_over, type_name,
    zone_index,
)


def refused(prog, st, text: str) -> str:
    """The move is refused with a reason and the state is unchanged; returns the reason."""
    before = st.clone()
    with pytest.raises(IllegalMove) as exc:
        do(prog, st, text)
    assert st == before
    reason = str(exc.value)
    assert "not a legal move" in reason or "not legal now" in reason or "the game is over" in reason
    return reason


def view(prog, st, seat):
    return view_of(prog, st.log, seat)


def seen(prog, v, zone) -> list:
    """A view's zone as type names, bottom first (None: a face the seat does not know)."""
    return [None if t is None else prog.type_names[t] for t in v.cards(zone)]


def known(prog, v, zone) -> dict:
    return {prog.type_names[t]: n for t, n in v.known_cards(zone).items()}


def spots(decision: str, cell_list) -> list:
    return [f"{decision}: {c}" for c in cell_list]


def mismatch(prog, st, a, b) -> None:
    """The current player turns two cards that do not match (checked): the turn passes."""
    seat = st.current
    names_ab = (grid(prog, st)[a], grid(prog, st)[b])
    assert names_ab[0] != names_ab[1] and not any(n.startswith("truck:") for n in names_ab)
    turn_over(prog, st, a, b)
    assert st.current != seat


# ---------------------------------------------------------------- Components

def test_components_40_recyclables_5_materials_4_pictures_2_copies_and_10_trucks():
    prog = program(2)
    on_grid = collections.Counter(type_name(prog, c) for c in prog.initial()[0][zone_index(prog, "stock")])
    assert on_grid == sheet_deck()
    recyclables = {n: k for n, k in on_grid.items() if not n.startswith("truck:")}
    assert sorted({material(n) for n in recyclables}) == sorted(MATERIALS)
    assert all(len([n for n in recyclables if material(n) == m]) == 4 for m in MATERIALS)    # 4 pictures
    assert set(recyclables.values()) == {2} and sum(recyclables.values()) == 40               # pairs
    trucks = {n: k for n, k in on_grid.items() if n.startswith("truck:")}
    assert trucks == {f"truck:{k}": 2 for k in TRUCKS} and sum(trucks.values()) == 10


def test_components_20_containers_4_of_each_of_5_types():
    prog = program(4)
    boxed = collections.Counter(type_name(prog, c) for c in prog.initial()[0][zone_index(prog, "box")])
    assert boxed == sheet_containers()
    assert sum(boxed.values()) == 20


# ---------------------------------------------------------------- Setup

def test_setup_containers_lie_in_5_stacks_of_4_each_of_one_type_placed_at_random():
    prog = program(2)
    placements = set()
    for seed in range(6):
        st = prog.new_state(seed)
        assert st.pending.name == "draw_from" and st.decider == 0
        types = []
        for s in range(1, 6):
            stack = names(prog, st, f"stack[{s}]")
            assert len(stack) == CONTAINERS_PER_TYPE and len(set(stack)) == 1      # 4 of one type
            types.append(stack[0])
        assert sorted(types) == sorted(f"container:{m}" for m in MATERIALS)       # one stack per type
        assert size(prog, st, "box") == 0
        placements.add(tuple(types))
    assert len(placements) > 1                      # which stack holds which type is left to chance


@pytest.mark.parametrize("players", [2, 4])
def test_setup_stacks_are_face_down_nobody_knows_which_stack_holds_which_type(players):
    order = ("metal", "organic", "paper", "glass", "plastic")
    prog, st = deal(players, stacks=order)
    for seat in range(players):
        v = view(prog, st, seat)
        for s in range(1, 6):
            z = f"stack[{s}]"
            assert not v.sees(z) and v.size(z) == size(prog, st, z) == CONTAINERS_PER_TYPE
            assert known(prog, v, z) == {} and set(seen(prog, v, z)) <= {None}
            # any container type may be there, as far as this seat's memory goes
            assert {f"container:{m}" for m in MATERIALS} <= {prog.type_names[t] for t in v.could_be_in(z)}


@pytest.mark.parametrize("players", [2, 4])
def test_setup_a_player_who_draws_from_a_stack_of_one_type_knows_that_stack_only(players):
    # "each stack of one type": the card drawn tells the drawer the type of the rest of its stack
    # (the stacks are declared alike); the other stacks stay unknown to it
    order = ("metal", "organic", "paper", "glass", "plastic")
    draws = [(1, 2, 3), (2, 3, 4), (3, 4, 5), (1, 4, 5)][:players]
    prog, st = start(players, stacks=order, draws=draws)
    for seat in range(players):
        v = view(prog, st, seat)
        for s in range(1, 6):
            z = f"stack[{s}]"
            assert set(seen(prog, v, z)) <= {None}              # no position, only the type
            if s in draws[seat]:
                assert known(prog, v, z) == {f"container:{order[s - 1]}": size(prog, st, z)}
            else:
                assert known(prog, v, z) == {}
                assert f"container:{order[s - 1]}" in {prog.type_names[t] for t in v.could_be_in(z)}


def test_setup_each_player_takes_3_containers_from_different_stacks_in_seat_order():
    prog, st = deal(3, stacks=("organic", "glass", "paper", "metal", "plastic"))
    assert texts(prog, st) == spots("draw_from", [1, 2, 3, 4, 5])
    chosen = {0: [5, 1, 4], 1: [1, 2, 3], 2: [4, 5, 2]}
    order = []
    for seat in range(3):
        taken = []
        for s in chosen[seat]:
            assert st.decider == seat
            # different stacks: those it drew from already are not offered again
            assert texts(prog, st) == spots("draw_from", [k for k in range(1, 6) if k not in taken])
            order.append(st.decider)
            do(prog, st, f"draw_from: {s}")
            taken.append(s)
        assert size(prog, st, f"containers({seat})") == CONTAINERS_EACH
    assert order == [0, 0, 0, 1, 1, 1, 2, 2, 2]                              # in seat order
    assert containers(prog, st, 0) == ["container:metal", "container:organic", "container:plastic"]
    assert containers(prog, st, 1) == ["container:glass", "container:organic", "container:paper"]
    assert containers(prog, st, 2) == ["container:glass", "container:metal", "container:plastic"]
    assert stack_sizes(prog, st) == [2, 2, 3, 2, 2]
    assert st.turn == 1 and st.current == 0 and st.pending.name == "first_spot"


def test_setup_an_empty_stack_cannot_be_chosen():
    # stacks of 2 (a parameter): seats 0 and 1 empty stack 1, seat 2 is not offered it
    prog, st = start(3, draws=[(1, 2, 3), (1, 4, 5), (2, 3, 4)], params={"containers_per_type": 2})
    assert stack_sizes(prog, st) == [0, 0, 0, 0, 1]
    prog, st = deal(3, params={"containers_per_type": 2})
    decisions(prog, st, ["draw_from: 1", "draw_from: 2", "draw_from: 3", "draw_from: 1", "draw_from: 4"])
    assert st.decider == 1 and texts(prog, st) == spots("draw_from", [2, 3, 5])
    do(prog, st, "draw_from: 5")
    assert st.decider == 2 and texts(prog, st) == spots("draw_from", [2, 3, 4, 5])
    refused(prog, st, "draw_from: 1")


@pytest.mark.parametrize("players", [2, 3])
def test_setup_which_stacks_a_player_drew_from_is_public_but_the_cards_are_not(players):
    draws = [(2, 4, 5), (1, 2, 3), (3, 4, 5)][:players]
    order = ("glass", "paper", "organic", "plastic", "metal")
    prog, st = start(players, stacks=order, draws=draws)
    c = zone_index(prog, "containers(0)")
    for seat in range(players):
        v = view(prog, st, seat)
        for p in range(players):
            z = f"containers({p})"
            assert v.size(z) == 3
            if p == seat:          # a player sees their own containers
                assert sorted(seen(prog, v, z)) == containers(prog, st, p)
            else:          # hidden; only the type of a container drawn from a stack the seat drew from too
                assert not v.sees(z) and seen(prog, v, z) == [None] * 3
                shared = [f"container:{order[j - 1]}" for j in draws[p] if j in draws[seat]]
                assert known(prog, v, z) == dict(collections.Counter(shared))
        # every seat saw from which stacks seat 0 drew, one card each, and no face
        to_seat0 = [e for e in events.for_seat(prog, st.log, seat) if e[0] == MOVE and e[2] == c]
        assert [prog.zone_names[e[1]] for e in to_seat0] == ["stack[2]", "stack[4]", "stack[5]"]
        if seat == 0:
            assert all(len(e[3]) == 1 for e in to_seat0)
        else:
            assert all(e[3] == 1 for e in to_seat0)          # a count: "1 hidden card"
    assert containers(prog, st, 0) == ["container:metal", "container:paper", "container:plastic"]


def test_setup_cards_laid_face_down_in_a_5_by_10_grid_one_card_a_position():
    prog = program(2)
    assert cells(prog) == list(range(1, ROWS * COLS + 1))
    layouts = set()
    for seed in range(4):
        st = prog.new_state(seed, log=True)
        g = grid(prog, st)
        assert all(n is not None for n in g.values())            # all 50 positions taken
        assert collections.Counter(g.values()) == sheet_deck()   # recyclables and trucks shuffled together
        assert face_up(prog, st) == {} and size(prog, st, "stock") == 0
        layouts.add(tuple(g.values()))
        for seat in (0, 1):
            v = view(prog, st, seat)
            assert all(seen(prog, v, f"down[{c}]") == [None] for c in g)     # face down for everyone
    assert len(layouts) == 4


@pytest.mark.parametrize("overrides, deck_args, positions", [
    ({"pictures": 2}, {"pictures": 2}, 50),
    ({"pictures": 6, "cols": 14}, {"pictures": 6}, 70),
    ({"copies": 4, "rows": 9}, {"copies": 4}, 90),
    ({"truck_copies": 1}, {"truck_copies": 1}, 50),
    ({"truck_copies": 0}, {"truck_copies": 0}, 50),
    ({"rows": 6, "cols": 12}, {}, 72),
    ({"rows": 10, "cols": 5}, {}, 50),
], ids=["pictures", "pictures-cols", "copies-rows", "truck_copies", "no-trucks", "rows-cols", "rows-cols-2"])
def test_param_overrides_change_the_deck_and_the_grid(overrides, deck_args, positions):
    prog = program(2, **overrides)
    deck = sheet_deck(**deck_args)
    assert cells(prog) == list(range(1, positions + 1))
    st = prog.new_state(3)
    g = grid(prog, st)
    laid = [n for n in g.values() if n is not None]
    assert collections.Counter(laid) == deck                      # every card on the grid, once
    assert all(g[c] is not None for c in range(1, len(laid) + 1))  # positions left over stay empty
    assert size(prog, st, "stock") == 0


def test_set_on_the_command_line_changes_the_deck_and_the_grid():
    args = build_parser().parse_args(["validate", M.RULESET, "--set", "pictures=3", "--set", "truck_copies=1",
                                      "--set", "rows=4", "--set", "cols=9"])
    prog = load(args).program(2)
    assert cells(prog) == list(range(1, 37))
    st = prog.new_state(0)
    assert collections.Counter(n for n in grid(prog, st).values() if n) == sheet_deck(pictures=3, truck_copies=1)


# ---------------------------------------------------------------- A turn

def test_seat_0_plays_first_and_turns_go_in_seat_order():
    prog, st = start(3, grid={1: "paper:1", 2: "glass:1", 3: "metal:1", 4: "plastic:1"})
    assert st.current == 0 and st.decider == 0 and view(prog, st, 2).current == 0
    order = []
    for a, b in [(1, 2), (2, 3), (3, 4), (1, 4)]:
        order.append(st.current)
        mismatch(prog, st, a, b)
    assert order == [0, 1, 2, 0] and st.current == 1


def test_turning_is_compulsory_no_pass_move():
    prog, st = start(2)
    assert texts(prog, st) == spots("first_spot", range(1, 51))       # any face-down card, nothing else
    for text in ("pass", "stop", "first_spot: 0", "first_spot: 51"):
        refused(prog, st, text)
    do(prog, st, "first_spot: 7")
    assert texts(prog, st) == spots("second_spot", [c for c in range(1, 51) if c != 7])
    refused(prog, st, "pass")


def test_a_matching_pair_is_collected_and_gives_another_turn():
    prog, st = start(2, grid={4: "glass:2", 9: "glass:2"})
    turn_over(prog, st, 4, 9)
    assert names(prog, st, "won(0)") == ["glass:2", "glass:2"]
    assert grid(prog, st)[4] is None and grid(prog, st)[9] is None and face_up(prog, st) == {}
    # another turn for the same player, and it must turn again
    assert st.turn == 2 and st.current == 0 and st.decider == 0
    assert texts(prog, st) == spots("first_spot", [c for c in range(1, 51) if c not in (4, 9)])
    refused(prog, st, "pass")


def test_extra_turns_chain():
    prog, st = start(2, grid={1: "metal:4", 2: "paper:2", 3: "organic:1", 4: "paper:2", 5: "metal:4",
                              6: "organic:1", 7: "glass:3", 8: "plastic:3"})
    seats = decisions(prog, st, ["first_spot: 2", "second_spot: 4", "first_spot: 5", "second_spot: 1",
                                 "first_spot: 6", "second_spot: 3", "first_spot: 7", "second_spot: 8"])
    assert seats == [0] * 8
    assert names(prog, st, "won(0)") == sorted(["paper:2"] * 2 + ["metal:4"] * 2 + ["organic:1"] * 2)
    assert st.current == 1 and st.turn == 5          # three pairs, three more turns; the mismatch ends


def test_same_material_but_a_different_picture_is_no_match():
    prog, st = start(2, grid={2: "plastic:1", 5: "plastic:2"})
    turn_over(prog, st, 2, 5)
    assert names(prog, st, "won(0)") == []
    assert grid(prog, st)[2] == "plastic:1" and grid(prog, st)[5] == "plastic:2"
    assert st.current == 1


def test_mismatched_cards_go_face_down_again_exactly_where_they_were():
    prog, st = start(2, grid={3: "metal:1", 7: "organic:2"})
    before = grid(prog, st)
    ids = {c: card_at(prog, st, c) for c in cells(prog)}
    do(prog, st, "first_spot: 3")
    assert face_up(prog, st) == {3: "metal:1"}
    do(prog, st, "second_spot: 7")
    assert face_up(prog, st) == {}
    assert grid(prog, st) == before
    assert {c: card_at(prog, st, c) for c in cells(prog)} == ids       # the very same cards
    assert st.current == 1 and st.turn == 2                           # the turn ends


def test_mismatched_cards_stay_known_to_every_seat_at_their_positions():
    prog, st = start(3, grid={3: "metal:1", 7: "organic:2", 10: "paper:4", 11: "glass:1"})
    turn_over(prog, st, 3, 7)
    turn_over(prog, st, 10, 11)
    for seat in range(3):
        v = view(prog, st, seat)
        memory = {c: seen(prog, v, f"down[{c}]")[0] for c in cells(prog)}
        assert {c: n for c, n in memory.items() if n} == {3: "metal:1", 7: "organic:2", 10: "paper:4",
                                                          11: "glass:1"}


def test_a_collected_pair_leaves_empty_positions_and_the_other_cards_keep_their_place():
    prog, st = start(2, grid={12: "organic:3", 30: "organic:3"})
    ids = {c: card_at(prog, st, c) for c in cells(prog)}
    turn_over(prog, st, 30, 12)
    for c in cells(prog):
        if c in (12, 30):
            assert size(prog, st, f"down[{c}]") == size(prog, st, f"up[{c}]") == 0
        else:
            assert card_at(prog, st, c) == ids[c]
    assert "first_spot: 12" not in texts(prog, st) and len(texts(prog, st)) == 48
    refused(prog, st, "first_spot: 30")
    for seat in (0, 1):                               # everyone sees the empty positions
        v = view(prog, st, seat)
        assert v.size("down[12]") == v.size("up[12]") == v.size("down[30]") == 0
        assert seen(prog, v, "won(0)") == ["organic:3", "organic:3"]   # a collected pair is public


# ---------------------------------------------------------------- Trucks turned over

def test_a_truck_as_first_card_ends_the_turn_at_once():
    prog, st = start(2, grid={6: "truck:take"})
    moves = st.moves
    do(prog, st, "first_spot: 6")
    assert names(prog, st, "kept(0)") == ["truck:take"]            # taken at once
    assert st.moves == moves + 1 and st.current == 1 and st.turn == 2      # no second card
    assert grid(prog, st)[6] is None and face_up(prog, st) == {}
    # in an extra turn too: the pair gives another turn, the truck ends it
    prog, st = start(2, grid={1: "glass:4", 2: "glass:4", 3: "truck:give"})
    turn_over(prog, st, 1, 2)
    turn_over(prog, st, 3)
    assert names(prog, st, "kept(0)") == ["truck:give"] and st.current == 1


def test_a_truck_as_second_card_turns_the_first_card_back_in_place():
    prog, st = start(2, grid={2: "glass:1", 8: "truck:give"})
    first = card_at(prog, st, 2)
    turn_over(prog, st, 2, 8)
    assert card_at(prog, st, 2) == first and grid(prog, st)[2] == "glass:1"    # face down, in place
    assert face_up(prog, st) == {} and grid(prog, st)[8] is None
    assert names(prog, st, "kept(0)") == ["truck:give"]
    assert st.current == 1                                                     # the turn ends
    assert seen(prog, view(prog, st, 1), "down[2]") == ["glass:1"]            # everyone saw it


@pytest.mark.parametrize("kind", ["swap", "take", "give", "container_swap"])
def test_the_other_trucks_are_kept_face_up_for_later(kind):
    prog, st = start(2, grid={5: f"truck:{kind}"})
    turn_over(prog, st, 5)
    assert names(prog, st, "kept(0)") == [f"truck:{kind}"] and names(prog, st, "discard") == []
    assert st.current == 1 and st.pending.name == "first_spot"      # not used now
    for seat in (0, 1):
        assert seen(prog, view(prog, st, seat), "kept(0)") == [f"truck:{kind}"]     # public


# ---------------------------------------------------------------- Shuffle

def test_shuffle_picks_at_least_two_face_down_cards_up_to_all():
    prog, st = start(2, grid={3: "truck:shuffle"})
    turn_over(prog, st, 1, 2)                        # paper:1 pair: cells 1 and 2 are empty now
    turn_over(prog, st, 3)                           # the Shuffle acts at once
    down = face_down(prog, st)
    assert down == list(range(4, 51)) and len(down) == 47
    assert texts(prog, st) == spots("how_many", range(2, 48))       # two to all
    refused(prog, st, "how_many: 1")
    refused(prog, st, "how_many: 48")
    before = grid(prog, st)
    do(prog, st, "how_many: 47")
    picked = []
    for c in reversed(down):
        # any face-down position not picked yet; the empty ones never
        assert texts(prog, st) == spots("spot", [d for d in down if d not in picked])
        do(prog, st, f"spot: {c}")
        picked.append(c)
    after = grid(prog, st)
    assert collections.Counter(after.values()) == collections.Counter(before.values())
    assert face_down(prog, st) == down
    assert names(prog, st, "discard") == ["truck:shuffle"] and names(prog, st, "kept(0)") == []
    assert st.current == 1


def test_shuffle_mixes_cards_only_among_their_own_positions():
    prog, st = start(2, grid={1: "truck:shuffle", 5: "metal:2", 12: "organic:1", 30: "truck:give"})
    before = grid(prog, st)
    ids = {c: card_at(prog, st, c) for c in (5, 12, 30)}
    turn_over(prog, st, 1)
    do(prog, st, "how_many: 3")
    next_shuffle(prog, st, ["organic:1", "truck:give", "metal:2"])   # what lands at 5, 12, 30
    for c in (5, 12, 30):                                            # a face-down truck may be picked
        do(prog, st, f"spot: {c}")
    after = grid(prog, st)
    assert {c: after[c] for c in (5, 12, 30)} == {5: "organic:1", 12: "truck:give", 30: "metal:2"}
    assert {card_at(prog, st, c) for c in (5, 12, 30)} == set(ids.values())
    assert {c: n for c, n in after.items() if c not in (1, 5, 12, 30)} == \
        {c: n for c, n in before.items() if c not in (1, 5, 12, 30)}
    assert after[1] is None and names(prog, st, "pool") == []
    check_loc(st)
    # left to chance: the picked cards are only ever mixed among the picked positions
    outcomes = set()
    for seed in range(8):
        prog, st = start(2, grid={1: "truck:shuffle"}, seed=seed)
        before = grid(prog, st)
        decisions(prog, st, ["first_spot: 1", "how_many: 4", "spot: 9", "spot: 2", "spot: 44", "spot: 20"])
        after = grid(prog, st)
        assert {c: n for c, n in after.items() if c not in (1, 2, 9, 20, 44)} == \
            {c: n for c, n in before.items() if c not in (1, 2, 9, 20, 44)}
        assert sorted(after[c] for c in (2, 9, 20, 44)) == sorted(before[c] for c in (2, 9, 20, 44))
        outcomes.add(tuple(after[c] for c in (2, 9, 20, 44)))
    assert len(outcomes) > 1


def test_shuffle_as_second_card_may_pick_the_first_card():
    prog, st = start(2, grid={4: "glass:3", 9: "truck:shuffle", 10: "metal:1"})
    turn_over(prog, st, 4, 9)
    assert grid(prog, st)[4] == "glass:3" and face_up(prog, st) == {}        # face down again already
    assert texts(prog, st) == spots("how_many", range(2, 50))                 # 49 face-down cards
    do(prog, st, "how_many: 2")
    assert "spot: 4" in texts(prog, st)
    next_shuffle(prog, st, ["metal:1", "glass:3"])
    decisions(prog, st, ["spot: 4", "spot: 10"])
    assert grid(prog, st)[4] == "metal:1" and grid(prog, st)[10] == "glass:3"
    assert names(prog, st, "discard") == ["truck:shuffle"] and st.current == 1


def test_shuffle_makes_the_shuffled_positions_unknown_again_for_everyone():
    prog, st = start(2, grid={1: "paper:1", 2: "metal:3", 3: "glass:4", 4: "truck:shuffle", 5: "organic:2"})
    mismatch(prog, st, 1, 2)                   # everyone saw paper:1 at 1, metal:3 at 2
    turn_over(prog, st, 3, 4)                  # seat 1: glass:4 at 3 (seen, back down), then the Shuffle
    assert st.decider == 1
    next_shuffle(prog, st, ["glass:4", "paper:1"])
    decisions(prog, st, ["how_many: 2", "spot: 1", "spot: 3"])
    assert grid(prog, st)[1] == "glass:4" and grid(prog, st)[3] == "paper:1"
    for seat in (0, 1):
        v = view(prog, st, seat)
        for c in (1, 3):
            assert seen(prog, v, f"down[{c}]") == [None] and known(prog, v, f"down[{c}]") == {}
            assert {"paper:1", "glass:4"} <= {prog.type_names[t] for t in v.could_be_in(f"down[{c}]")}
        assert seen(prog, v, "down[2]") == ["metal:3"]          # not shuffled: still known in place


# ---------------------------------------------------------------- Kept trucks

def test_kept_trucks_are_used_at_the_start_of_a_later_own_turn_before_turning():
    prog, st = start(2, grid={1: "paper:4", 2: "paper:4", 3: "truck:give", 4: "metal:1", 5: "organic:1"})
    turn_over(prog, st, 1, 2)
    turn_over(prog, st, 3)                     # kept; the turn ends: not usable in this turn
    assert st.current == 1 and st.pending.name == "first_spot"       # seat 1 holds no truck
    mismatch(prog, st, 4, 5)
    assert st.current == 0 and st.pending.name == "use"             # before turning a card
    assert texts(prog, st) == ["give: 1*truck:give", "stop"]
    decisions(prog, st, ["give: 1*truck:give", "mine: 2*paper:4", "receiver: 1"])
    assert names(prog, st, "won(1)") == ["paper:4", "paper:4"] and names(prog, st, "won(0)") == []
    assert st.current == 0 and st.pending.name == "first_spot"       # then the turn goes on


def test_kept_trucks_may_be_used_at_the_start_of_an_extra_turn():
    prog, st = start(2, grid={1: "paper:4", 2: "paper:4", 3: "truck:give", 4: "metal:1", 5: "organic:1",
                              6: "glass:2", 7: "glass:2"})
    turn_over(prog, st, 1, 2)
    turn_over(prog, st, 3)
    mismatch(prog, st, 4, 5)
    do(prog, st, "stop")                       # kept for later: it stays
    assert names(prog, st, "kept(0)") == ["truck:give"]
    turn_over(prog, st, 6, 7)                  # a pair: the extra turn starts with the trucks again
    assert st.current == 0 and st.pending.name == "use"
    assert texts(prog, st) == ["give: 1*truck:give", "stop"]


def test_several_kept_trucks_are_used_one_after_another():
    prog, st = start(2, grid={1: "paper:4", 2: "paper:4", 3: "truck:give", 4: "metal:1", 5: "organic:1",
                              6: "truck:container_swap"})
    turn_over(prog, st, 1, 2)
    turn_over(prog, st, 3)
    mismatch(prog, st, 4, 5)
    do(prog, st, "stop")
    turn_over(prog, st, 6)
    mismatch(prog, st, 4, 5)
    assert texts(prog, st) == ["give: 1*truck:give", "container: 1*truck:container_swap", "stop"]
    decisions(prog, st, ["give: 1*truck:give", "mine: 2*paper:4", "receiver: 1"])
    assert texts(prog, st) == ["container: 1*truck:container_swap", "stop"]     # the next one
    decisions(prog, st, ["container: 1*truck:container_swap", "returned: 1*container:glass", "source: 5"])
    assert st.pending.name == "first_spot" and names(prog, st, "kept(0)") == []
    assert names(prog, st, "discard") == ["truck:container_swap", "truck:give"]


def test_a_kept_truck_is_used_once_then_discarded():
    prog, st = start(2, grid={1: "paper:4", 2: "paper:4", 3: "glass:2", 4: "glass:2", 5: "truck:give",
                              6: "metal:1", 7: "organic:1"})
    turn_over(prog, st, 1, 2)
    turn_over(prog, st, 3, 4)
    turn_over(prog, st, 5)
    mismatch(prog, st, 6, 7)
    decisions(prog, st, ["give: 1*truck:give", "mine: 2*glass:2", "receiver: 1"])
    assert names(prog, st, "discard") == ["truck:give"] and names(prog, st, "kept(0)") == []
    assert st.pending.name == "first_spot"            # not offered again, though a pair is left to give
    mismatch(prog, st, 6, 7)
    mismatch(prog, st, 6, 7)
    assert st.current == 0 and st.pending.name == "first_spot"      # nor in a later turn


def test_single_use_false_keeps_the_truck_for_next_turn():
    prog, st = start(2, grid={1: "paper:4", 2: "paper:4", 3: "glass:2", 4: "glass:2", 5: "truck:give",
                              6: "metal:1", 7: "organic:1"}, params={"single_use": False})
    turn_over(prog, st, 1, 2)
    turn_over(prog, st, 3, 4)
    turn_over(prog, st, 5)
    mismatch(prog, st, 6, 7)
    decisions(prog, st, ["give: 1*truck:give", "mine: 2*glass:2", "receiver: 1"])
    assert names(prog, st, "discard") == [] and names(prog, st, "spent(0)") == ["truck:give"]
    assert st.pending.name == "first_spot"            # once a turn
    mismatch(prog, st, 6, 7)
    mismatch(prog, st, 6, 7)
    assert st.current == 0 and texts(prog, st) == ["give: 1*truck:give", "stop"]     # back next turn
    decisions(prog, st, ["give: 1*truck:give", "mine: 2*paper:4", "receiver: 1"])
    assert names(prog, st, "won(1)") == ["glass:2", "glass:2", "paper:4", "paper:4"]


def _three_collectors(truck: str, seat0_pair: bool):
    """3 players: seat 0 keeps `truck` (after collecting paper:1 if seat0_pair), seat 1 collects
    glass:2, seat 2 metal:3; back to seat 0, at its trucks."""
    prog, st = start(3, grid={1: "paper:1", 2: "paper:1", 3: truck, 4: "glass:2", 5: "glass:2",
                              6: "metal:3", 7: "metal:3", 8: "organic:1", 9: "plastic:4"})
    if seat0_pair:
        turn_over(prog, st, 1, 2)
    turn_over(prog, st, 3)
    turn_over(prog, st, 4, 5)
    mismatch(prog, st, 8, 9)
    turn_over(prog, st, 6, 7)
    mismatch(prog, st, 8, 9)
    assert st.current == 0 and st.pending.name == "use"
    return prog, st


def test_swap_exchanges_a_pair_of_mine_for_a_pair_of_another_player():
    prog, st = _three_collectors("truck:swap", seat0_pair=True)
    assert texts(prog, st) == ["swap: 1*truck:swap", "stop"]
    do(prog, st, "swap: 1*truck:swap")
    assert texts(prog, st) == ["victim: 1", "victim: 2"]           # any other player with a pair
    do(prog, st, "victim: 2")
    assert texts(prog, st) == ["mine: 2*paper:1"]                   # a pair, named by its picture
    do(prog, st, "mine: 2*paper:1")
    assert texts(prog, st) == ["theirs: 2*metal:3"]
    do(prog, st, "theirs: 2*metal:3")
    assert names(prog, st, "won(0)") == ["metal:3", "metal:3"]
    assert names(prog, st, "won(2)") == ["paper:1", "paper:1"]
    assert names(prog, st, "won(1)") == ["glass:2", "glass:2"]
    assert names(prog, st, "discard") == ["truck:swap"] and st.pending.name == "first_spot"


def test_take_makes_a_pair_of_another_player_mine():
    prog, st = _three_collectors("truck:take", seat0_pair=False)   # no pair of my own needed
    assert names(prog, st, "won(0)") == [] and texts(prog, st) == ["take: 1*truck:take", "stop"]
    decisions(prog, st, ["take: 1*truck:take"])
    assert texts(prog, st) == ["victim: 1", "victim: 2"]
    decisions(prog, st, ["victim: 1", "theirs: 2*glass:2"])
    assert names(prog, st, "won(0)") == ["glass:2", "glass:2"] and names(prog, st, "won(1)") == []
    assert names(prog, st, "won(2)") == ["metal:3", "metal:3"]
    assert names(prog, st, "discard") == ["truck:take"] and st.pending.name == "first_spot"


def test_give_a_pair_to_a_player_whose_containers_fit_it():
    # seat 0: paper, plastic, glass; seat 1: glass, metal, organic
    prog, st = start(2, grid={1: "metal:2", 2: "metal:2", 3: "truck:give", 4: "paper:3", 5: "organic:1"},
                     draws=[(1, 2, 3), (3, 4, 5)])
    turn_over(prog, st, 1, 2)
    turn_over(prog, st, 3)
    mismatch(prog, st, 4, 5)
    assert [sheet_counts(prog, st, p) for p in (0, 1)] == [(0, 2), (0, 0)]
    assert [prog.score(st, p) for p in (0, 1)] == [0, 0]
    do(prog, st, "give: 1*truck:give")
    do(prog, st, "mine: 2*metal:2")
    assert texts(prog, st) == ["receiver: 1"]                     # any other player
    do(prog, st, "receiver: 1")
    assert names(prog, st, "won(1)") == ["metal:2", "metal:2"]
    assert [sheet_counts(prog, st, p) for p in (0, 1)] == [(0, 0), (2, 0)]
    assert [prog.score(st, p) for p in (0, 1)] == [0, 2]          # their sorted count rises


def _container_swap_ready():
    """2 players, both hold paper, plastic, glass (stacks 1-3 keep 2 each, 4 metal and 5 organic
    keep 4); seat 0 collected metal:1 and keeps a container swap; back to seat 0, at its trucks."""
    prog, st = start(2, grid={1: "metal:1", 2: "metal:1", 3: "truck:container_swap", 4: "paper:3",
                              5: "organic:1"})
    turn_over(prog, st, 1, 2)
    turn_over(prog, st, 3)
    mismatch(prog, st, 4, 5)
    assert stack_sizes(prog, st) == [2, 2, 2, 4, 4]
    return prog, st


def test_container_swap_takes_the_top_of_a_stack_and_returns_mine_to_its_bottom():
    prog, st = _container_swap_ready()
    assert texts(prog, st) == ["container: 1*truck:container_swap", "stop"]
    top = st.zones[zone_index(prog, "stack[4]")][-1]
    assert prog.score(st, 0) == 0
    do(prog, st, "container: 1*truck:container_swap")
    assert sorted(texts(prog, st)) == ["returned: 1*container:glass", "returned: 1*container:paper",
                                       "returned: 1*container:plastic"]
    do(prog, st, "returned: 1*container:paper")
    assert texts(prog, st) == spots("source", [1, 2, 3, 4, 5])           # a non-empty stack
    mark = len(st.log)
    do(prog, st, "source: 4")
    assert containers(prog, st, 0) == ["container:glass", "container:metal", "container:plastic"]
    assert top in st.zones[zone_index(prog, "containers(0)")]             # that stack's top card
    assert bottom_up(prog, st, "stack[4]") == ["container:paper"] + ["container:metal"] * 3
    assert stack_sizes(prog, st) == [2, 2, 2, 4, 4]
    assert prog.score(st, 0) == 2                                          # the metal pair now fits
    assert names(prog, st, "discard") == ["truck:container_swap"] and st.pending.name == "first_spot"
    # nobody else sees either card: seat 1 saw one hidden card each way, and knows nothing new
    moved = [e for e in st.log[mark:] if e[0] == MOVE]
    for_1 = [e for e in events.for_seat(prog, st.log[mark:], 1) if e[0] == MOVE]
    assert [(prog.zone_names[e[1]], prog.zone_names[e[2]], e[3]) for e in for_1] == [
        ("stack[4]", "containers(0)", 1), ("containers(0)", "stack[4]", 1),
        ("kept(0)", "discard", moved[2][3])]                 # the truck itself is seen discarded
    assert events.describe(prog, moved[1], 1) == "1 hidden card containers(0) → bottom of stack[4]"
    assert events.describe(prog, moved[1], 0) == "1×container:paper containers(0) → bottom of stack[4]"
    other = view(prog, st, 1)
    assert seen(prog, other, "containers(0)") == [None] * 3 and known(prog, other, "containers(0)") == {}
    assert known(prog, other, "stack[4]") == {} and set(seen(prog, other, "stack[4]")) == {None}
    mine = view(prog, st, 0)                                 # the owner knows both
    assert sorted(seen(prog, mine, "containers(0)")) == containers(prog, st, 0)
    assert seen(prog, mine, "stack[4]")[0] == "container:paper"


def test_a_second_container_of_one_type_helps_nothing():
    prog, st = _container_swap_ready()
    collect(prog, st, 0, ["paper:2", "paper:2"])
    assert sheet_counts(prog, st, 0) == (2, 2) and prog.score(st, 0) == 2
    decisions(prog, st, ["container: 1*truck:container_swap", "returned: 1*container:plastic", "source: 1"])
    assert containers(prog, st, 0) == ["container:glass", "container:paper", "container:paper"]
    assert sheet_counts(prog, st, 0) == (2, 2) and prog.score(st, 0) == 2   # the paper pair counts once


def test_a_truck_with_no_legal_use_is_not_offered():
    # Take when nobody else has a pair: seat 0 is not even asked; the truck stays kept
    prog, st = start(2, grid={1: "truck:take", 2: "metal:1", 3: "organic:1", 4: "paper:3", 5: "paper:3"})
    turn_over(prog, st, 1)
    mismatch(prog, st, 2, 3)
    assert st.current == 0 and st.pending.name == "first_spot"
    assert names(prog, st, "kept(0)") == ["truck:take"]
    refused(prog, st, "take: 1*truck:take")
    mismatch(prog, st, 2, 3)
    turn_over(prog, st, 4, 5)                 # seat 1 collects a pair
    mismatch(prog, st, 2, 3)
    assert st.current == 0 and texts(prog, st) == ["take: 1*truck:take", "stop"]   # now it has a use
    # Give and Swap without a pair of my own; Swap when nobody else has one
    for truck, pair_of in (("give", None), ("swap", None), ("swap", 0)):
        prog, st = start(2, grid={1: f"truck:{truck}", 2: "metal:1", 3: "organic:1"})
        if pair_of is not None:
            collect(prog, st, pair_of, ["glass:4", "glass:4"])
        turn_over(prog, st, 1)
        mismatch(prog, st, 2, 3)
        assert st.current == 0 and st.pending.name == "first_spot", (truck, pair_of)
        assert names(prog, st, "kept(0)") == [f"truck:{truck}"]


# ---------------------------------------------------------------- End

def _play_out_standard_layout(players=2, draws=None):
    """Seat 0 turns the standard layout's pairs, cells (1, 2) .. (39, 40), one extra turn after
    another; returns (prog, st) just before the last pair (39, 40)."""
    prog, st = start(players, draws=draws)
    assert [grid(prog, st)[c] for c in (1, 2, 39, 40, 41, 50)] == [
        "paper:1", "paper:1", "organic:4", "organic:4", "truck:swap", "truck:container_swap"]
    for k in range(19):
        turn_over(prog, st, 2 * k + 1, 2 * k + 2)
    assert not st.over and st.current == 0
    return prog, st


def test_the_game_ends_as_soon_as_no_face_down_recyclable_is_left():
    prog, st = _play_out_standard_layout()
    turn = st.turn
    turn_over(prog, st, 39, 40)
    assert st.over and prog.legal_moves(st) == []
    assert st.turn == turn                                   # no extra turn after the last pair
    assert face_down(prog, st) == list(range(41, 51))       # the face-down trucks are ignored
    assert size(prog, st, "won(0)") == 40
    refused(prog, st, "first_spot: 41")
    assert view(prog, st, 1).over


def test_the_game_does_not_end_while_one_face_down_pair_is_left_among_trucks():
    prog, st = start(2, grid={1: "glass:1", 2: "glass:1", 3: "truck:swap", 4: "truck:give"})
    clear_grid(prog, st, keep_cells=(1, 2, 3, 4))          # only these four are left in play
    turn_over(prog, st, 3)                                  # a truck: seat 0's turn ends, the game goes on
    assert not st.over and st.current == 1
    turn_over(prog, st, 1, 4)                               # a truck as second card
    assert not st.over and st.current == 0
    turn_over(prog, st, 2, 1)                               # the last pair
    assert st.over and st.current == 0 and face_down(prog, st) == []


def test_containers_are_revealed_at_the_end():
    prog, st = _play_out_standard_layout(draws=[(1, 2, 3), (3, 4, 5)])
    for seat, other in ((0, 1), (1, 0)):
        assert seen(prog, view(prog, st, seat), f"containers({other})") == [None] * 3
    turn_over(prog, st, 39, 40)
    assert st.over
    for p in (0, 1):
        assert size(prog, st, f"containers({p})") == 0
    for seat in (0, 1):
        v = view(prog, st, seat)
        assert sorted(seen(prog, v, "shown(0)")) == ["container:glass", "container:paper", "container:plastic"]
        assert sorted(seen(prog, v, "shown(1)")) == ["container:glass", "container:metal", "container:organic"]


def test_at_the_end_seat_0_sorted_every_card_of_its_three_materials():
    prog, st = _play_out_standard_layout(draws=[(1, 2, 3), (3, 4, 5)])
    turn_over(prog, st, 39, 40)
    # 8 cards of each material: paper, plastic, glass fit seat 0's containers, metal and organic do not
    assert [sheet_counts(prog, st, p) for p in (0, 1)] == [(24, 16), (0, 0)]
    res = prog.result(st)
    assert res["scores"] == [24, 0] and res["winners"] == [0]


# ---------------------------------------------------------------- Scoring

def test_sorted_and_unsorted_counts():
    # seat 0 holds paper, plastic, glass; seat 1 glass, metal, organic
    prog, st = start(2, draws=[(1, 2, 3), (3, 4, 5)])
    collect(prog, st, 0, ["paper:1"] * 2 + ["glass:3"] * 2 + ["metal:2"] * 2 + ["organic:4"] * 2)
    collect(prog, st, 1, ["glass:1"] * 2 + ["plastic:2"] * 2)
    assert [sheet_counts(prog, st, p) for p in (0, 1)] == [(4, 4), (2, 2)]
    assert [prog.score(st, p) for p in (0, 1)] == [4, 2]                 # the score is the sorted count
    assert [prog.ranking_key(st, p) for p in (0, 1)] == [(4, -4), (2, -2)]


def test_most_sorted_wins():
    prog, st = start(3, draws=[(1, 2, 3), (3, 4, 5), (1, 4, 5)])
    collect(prog, st, 0, ["paper:1"] * 2 + ["metal:1"] * 2)
    collect(prog, st, 1, ["metal:2"] * 2 + ["organic:2"] * 2)
    collect(prog, st, 2, ["paper:3"] * 2 + ["plastic:3"] * 2 + ["glass:3"] * 2 + ["plastic:4"] * 2)
    counts = [sheet_counts(prog, st, p) for p in range(3)]
    assert counts == [(2, 2), (4, 0), (2, 6)]
    res = prog.result(st)
    assert res["scores"] == [2, 4, 2] and res["winners"] == [1] == sheet_winners(counts)


def test_a_tie_on_sorted_is_broken_by_fewest_unsorted():
    prog, st = start(3, draws=[(1, 2, 3), (3, 4, 5), (1, 4, 5)])
    collect(prog, st, 0, ["paper:1"] * 2 + ["glass:1"] * 2 + ["metal:1"] * 2)                   # 4, 2
    collect(prog, st, 1, ["metal:2"] * 2 + ["organic:2"] * 2)                                   # 4, 0
    collect(prog, st, 2, ["paper:3"] * 2 + ["organic:3"] * 2 + ["glass:3"] * 2 + ["plastic:4"] * 2)  # 4, 4
    counts = [sheet_counts(prog, st, p) for p in range(3)]
    assert counts == [(4, 2), (4, 0), (4, 4)]
    res = prog.result(st)
    assert res["scores"] == [4, 4, 4] and res["winners"] == [1] == sheet_winners(counts)


def test_still_tied_is_a_shared_victory():
    prog, st = start(3, draws=[(1, 2, 3), (3, 4, 5), (1, 4, 5)])
    collect(prog, st, 0, ["paper:1"] * 2 + ["metal:1"] * 2)          # 2, 2
    collect(prog, st, 1, ["glass:2"] * 2 + ["paper:2"] * 2)          # 2, 2
    collect(prog, st, 2, ["plastic:3"] * 2)                          # 0, 2
    counts = [sheet_counts(prog, st, p) for p in range(3)]
    assert counts == [(2, 2), (2, 2), (0, 2)]
    assert prog.result(st)["winners"] == [0, 1] == sheet_winners(counts)
    prog, st = start(2)                                              # nothing collected: all tied
    assert prog.result(st)["winners"] == [0, 1]


def test_unused_kept_trucks_score_nothing():
    prog, st = start(2, draws=[(1, 2, 3), (3, 4, 5)])
    collect(prog, st, 0, ["paper:1"] * 2)
    collect(prog, st, 1, ["metal:1"] * 2)
    plain = prog.result(st)
    assert plain["scores"] == [2, 2] and plain["winners"] == [0, 1]
    keep(prog, st, 0, ["truck:swap", "truck:take", "truck:give", "truck:container_swap"])
    assert prog.result(st) == plain
    assert [prog.ranking_key(st, p) for p in (0, 1)] == [(2, 0), (2, 0)]


def test_a_whole_game_scores_by_the_sheet():
    """Random players to the end (the conformance of the counting, not a rule sentence)."""
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        prog = program(players)
        st = prog.new_state(seed)
        bots = [make_bot("random", seed * 10 + p) for p in range(players)]
        while not st.over:
            prog.apply(st, bots[st.decider].choose(prog, st, prog.legal_moves(st)))
        assert [n for n in grid(prog, st).values() if n and not n.startswith("truck:")] == []
        counts = [sheet_counts(prog, st, p) for p in range(players)]
        assert prog.result(st)["scores"] == [s for s, _ in counts]
        assert prog.result(st)["winners"] == sheet_winners(counts)
        check_loc(st)


# ---------------------------------------------------------------- Illegal moves

def test_an_illegal_move_is_refused_with_a_reason_and_the_state_is_unchanged():
    prog, st = start(2, grid={1: "paper:1", 2: "paper:1", 3: "truck:give", 4: "metal:1", 5: "organic:1"})
    turn_over(prog, st, 1, 2)
    reason = refused(prog, st, "first_spot: 1")                     # an empty position
    assert "first_spot: 3" in reason                                # the reason lists legal moves
    refused(prog, st, "second_spot: 4")                             # not this decision
    do(prog, st, "first_spot: 4")
    refused(prog, st, "second_spot: 4")                             # the card already turned
    refused(prog, st, "second_spot: 1")
    do(prog, st, "second_spot: 5")
    # a move built by hand, not from the list, is refused by play() too
    before = st.clone()
    with pytest.raises(IllegalMove, match="not legal now"):
        prog.play(st, (99,))
    assert st == before
    assert st.current == 1
    refused(prog, st, "give: 1*truck:give")                         # seat 1 holds no truck


# ---------------------------------------------------------------- What each player sees

def test_public_turned_cards_collected_pairs_kept_trucks_and_sizes():
    prog, st = start(3, grid={1: "paper:2", 2: "paper:2", 3: "truck:take", 4: "metal:1", 5: "organic:1"},
                     draws=[(1, 2, 3), (1, 2, 4), (1, 4, 5)])
    turn_over(prog, st, 1, 2)
    turn_over(prog, st, 3)
    do(prog, st, "first_spot: 4")                                  # seat 1's first card, face up now
    for seat in range(3):
        v = view(prog, st, seat)
        assert seen(prog, v, "up[4]") == ["metal:1"]               # a turned card: where, what
        assert v.current == 1                                      # who turned it
        assert seen(prog, v, "won(0)") == ["paper:2", "paper:2"]
        assert seen(prog, v, "kept(0)") == ["truck:take"]
        assert sum(v.size(f"down[{c}]") for c in cells(prog)) == 46         # face-down cards
        assert [c for c in cells(prog) if v.size(f"down[{c}]") == v.size(f"up[{c}]") == 0] == [1, 2, 3]
        assert [v.size(f"stack[{s}]") for s in range(1, 6)] == [1, 2, 3, 2, 3] == stack_sizes(prog, st)


def test_hidden_faces_of_face_down_cards_and_other_players_containers():
    prog, st = start(2, grid={1: "paper:2", 2: "metal:2"}, draws=[(1, 2, 3), (3, 4, 5)])
    mismatch(prog, st, 1, 2)
    for seat in (0, 1):
        v = view(prog, st, seat)
        for c in cells(prog):
            if c in (1, 2):
                continue
            assert not v.sees(f"down[{c}]") and seen(prog, v, f"down[{c}]") == [None]
            assert known(prog, v, f"down[{c}]") == {}
        other = 1 - seat
        assert seen(prog, v, f"containers({other})") == [None] * 3
        # both drew from stack 3 (glass): that one container type is all either can tell
        assert known(prog, v, f"containers({other})") == {"container:glass": 1}
    # a seat's own view tells it nothing of the other's containers even from the events
    assert all(isinstance(e[3], int) for e in events.for_seat(prog, st.log, 0)
               if e[0] == MOVE and prog.zone_names[e[2]] == "containers(1)")
