"""The language constructs a memory game needs, each on its own with a tiny purpose-made ruleset.

- `numbers(n)` = [1..n] and `numbers(a, b)` = [a..b]: as values, as a zone family's `per`, in a
  card kind's `for`, in the `from` of a value choice;
- `LIST + LIST` joins two lists (a list and a number is still an error);
- `move CARDS to bottom of ZONE`: under the cards already there, in the events (a sixth field),
  in the descriptions and in every seat's memory (views.py);
- the guard: a choice among cards the decider cannot see is refused (at validate time for a
  face-down zone, at run time otherwise);
- the memory pattern (a face-down and a face-up zone per position) and what each seat's view and
  the bots' determinised copies make of it.

Every test compiles through `make` (or load_game).
The error-corpus side of these constructs lives in tests/errors/memo_*.yaml.
"""
from __future__ import annotations

import collections
import dataclasses
import random
import textwrap

import pytest

from interpreter.runtime import events
from interpreter.runtime import engine as E
from interpreter.seats.worlds import determinise
from interpreter.errors import RuleRuntimeError, RulesetError
from interpreter.compiler.game import load_game, validate_file
from interpreter.seats.views import view_of



from language_helpers import do, local, make, names, texts, write  # noqa: F401


def ok(p, st):
    """Answer the pause decision `go`."""
    do(p, st, "ok")


def moves_logged(st) -> list:
    return [e for e in st.log if e[0] == E.MOVE]


def line_of(text: str, needle: str) -> int:
    """The 1-based line of the dedented ruleset text that holds needle (exactly once)."""
    lines = textwrap.dedent(text).splitlines()
    found = [i + 1 for i, line in enumerate(lines) if needle in line]
    assert len(found) == 1, f"{needle!r} is on lines {found}"
    return found[0]


def col_of(text: str, needle: str, sub: str) -> int:
    """The 1-based column of sub on the (only) line of the dedented text holding needle."""
    line = textwrap.dedent(text).splitlines()[line_of(text, needle) - 1]
    assert sub in line, (sub, line)
    return line.index(sub) + 1


def errors_of(write, text: str) -> list:
    """(line, col, 'message (hint)') of every diagnostic of a broken ruleset."""
    with pytest.raises(RulesetError) as exc:
        load_game(write(text))
    return [(d.pos.line, d.pos.col, f"{d.message} ({d.hint})") for d in exc.value.diagnostics]


def types_in(p, st, zone) -> list:
    z = zone if isinstance(zone, int) else p.zone_names.index(zone)
    return [p.card_type[c] for c in st.zones[z]]


# ---------------------------------------------------------------- numbers

NUMBERS = """
    name: numbers
    players: {min: 2, max: 2}
    params:
      rows: 2
      cols: 3
    cards:
      n:
        for: {rank: numbers(3)}
        name: "n{rank}"
        start: deck
      m:
        for: {v: "numbers(4, 5)", w: "numbers(rows)"}
        name: "m{v}.{w}"
        start: deck
    zones:
      deck: {}
      cell: {per: numbers(rows * cols), visible: everyone}
    turn:
      steps:
        - step: main
          do:
            - let one_arg = numbers(4)
            - let two_args = numbers(2, 5)
            - let single = numbers(3, 3)
            - let backwards = numbers(3, 2)
            - let none = numbers(0)
            - let from_params = numbers(rows * cols)
            - let negative = numbers(0 - 1, 1)
            - let same_list = numbers(3) == [1, 2, 3]
            - let third = numbers(5)[2]
            - let has_four = 4 in numbers(2, 4)
            - let total = sum(numbers(100))
            - let last_cell = count(cell[rows * cols])
            - move top of deck to cell[rows * cols]
            - let last_cell_after = count(cell[rows * cols])
            - choose: k
              from: numbers(2, 5)
              where: k != 3
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""


def test_numbers_one_to_n_and_a_to_b_both_ends_included(make):
    p = make(NUMBERS)
    st = p.new_state(0)
    assert local(p, st, "one_arg") == [1, 2, 3, 4]
    assert local(p, st, "two_args") == [2, 3, 4, 5]
    assert local(p, st, "single") == [3]
    assert local(p, st, "backwards") == []          # a > b: nothing, not a countdown
    assert local(p, st, "none") == []
    assert local(p, st, "from_params") == [1, 2, 3, 4, 5, 6]
    assert local(p, st, "negative") == [-1, 0, 1]
    assert local(p, st, "same_list") is True
    assert local(p, st, "third") == 3
    assert local(p, st, "has_four") is True
    assert local(p, st, "total") == 5050


def test_numbers_as_a_zone_family_a_card_for_and_a_choice(make):
    p = make(NUMBERS)
    assert p.zone_names == ["deck"] + [f"cell[{i}]" for i in range(1, 7)]    # rows * cols = 6 zones
    # numbers in a card kind's for, on its own and with a param
    assert p.type_names == ["n1", "n2", "n3", "m4.1", "m4.2", "m5.1", "m5.2"]
    st = p.new_state(0)
    assert local(p, st, "last_cell") == 0 and local(p, st, "last_cell_after") == 1
    assert names(p, st, "cell[6]") == ["m5.2"]
    # numbers in a value choice's from, with where
    assert texts(p, st) == ["k: 2", "k: 4", "k: 5"]
    do(p, st, "k: 4")
    assert local(p, st, "k") == 4


def test_numbers_follows_overridden_params(make):
    p = make(NUMBERS, 2, {"rows": 4, "cols": 15})
    cells = [z for z in p.zone_names if z.startswith("cell[")]
    assert cells == [f"cell[{i}]" for i in range(1, 61)]
    assert [t for t in p.type_names if t.startswith("m")] == [f"m{v}.{w}" for v in (4, 5) for w in (1, 2, 3, 4)]
    st = p.new_state(0)
    assert local(p, st, "from_params") == list(range(1, 61))
    assert len(names(p, st, "cell[60]")) == 1


@pytest.mark.parametrize("expr, at, fragment", [
    ("numbers('a')", "'a'", "each argument of numbers must be a number, but this is a text"),
    ("numbers(1, 'x')", "'x'", "each argument of numbers must be a number, but this is a text"),
    ("numbers(1, 2, 3)", "numbers", "numbers takes 1 or 2 arguments, not 3"),
    ("numbers()", "numbers", "numbers takes 1 or 2 arguments, not 0"),
    ("numbers([1, 2])", "[1, 2]", "each argument of numbers must be a number, but this is a list"),
])
def test_numbers_with_wrong_arguments_is_refused_with_a_position(write, expr, at, fragment):
    text = NUMBERS.replace("- let one_arg = numbers(4)", f"- let one_arg = {expr}")
    line, col = line_of(text, "let one_arg"), col_of(text, "let one_arg", at)
    got = errors_of(write, text)
    assert [(ln, c) for ln, c, _ in got] == [(line, col)], got
    assert fragment in got[0][2]


# ---------------------------------------------------------------- LIST + LIST

LISTS = """
    name: lists
    players: {min: 2, max: 2}
    params:
      colours: [red, blue, green]
    cards:
      x: {count: 1, start: deck}
    zones:
      deck: {}
    turn:
      steps:
        - step: main
          do:
            - let picked = []
            - for: c in colours
              do: ["let picked = picked + [c]"]
            - let joined = [1, 2] + [3] + []
            - let twice = colours + colours
            - let n_mixed = count(colours + [1, 2])
            - let total = sum(numbers(3) + [10])
            - let first_of = first([] + colours)
            - let original = [1]
            - let longer = original + [2]
            - let seen = []
            - for: i in [1, 2]
              do:
                - choose: col
                  from: colours
                  where: col not in seen
                - let seen = seen + [col]
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""


def test_list_plus_list_joins_and_accumulates_in_a_loop(make):
    p = make(LISTS)
    st = p.new_state(0)
    assert local(p, st, "picked") == ["red", "blue", "green"]
    assert local(p, st, "joined") == [1, 2, 3]
    assert local(p, st, "twice") == ["red", "blue", "green"] * 2
    assert local(p, st, "n_mixed") == 5
    assert local(p, st, "total") == 16
    assert local(p, st, "first_of") == "red"
    assert local(p, st, "longer") == [1, 2]
    assert local(p, st, "original") == [1]          # a new list: the joined one is not changed


def test_choose_from_a_list_where_not_in_the_ones_picked_so_far(make):
    p = make(LISTS)
    st = p.new_state(0)
    assert texts(p, st) == ["col: red", "col: blue", "col: green"]
    do(p, st, "col: blue")
    assert texts(p, st) == ["col: red", "col: green"]
    do(p, st, "col: green")
    assert local(p, st, "seen") == ["blue", "green"]
    assert texts(p, st) == ["ok"]


@pytest.mark.parametrize("expr", ["colours + 1", "1 + colours", "picked - picked"])   # deck + deck: zones together
def test_list_with_a_number_or_a_zone_is_still_an_error(write, expr):
    text = LISTS.replace("- let joined = [1, 2] + [3] + []", f"- let joined = {expr}")
    line = line_of(text, "let joined")
    got = errors_of(write, text)
    assert got and all(ln == line for ln, _, _ in got), got
    assert all("must be a number" in msg or "joins a list only to a list" in msg for _, _, msg in got), got


def test_the_corpus_file_for_arithmetic_on_a_list_still_passes():
    import os
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "errors", "type_arithmetic_on_list.yaml")
    got = [(d.pos.line, d.pos.col, d.message) for d in validate_file(path)]
    assert got == [(37, 19, "'+' joins a list only to a list, but this is a number")]


# ---------------------------------------------------------------- move ... to bottom of ZONE

BOTTOM = """
    name: bottom
    players: {min: 2, max: 2}
    cards:
      n:
        for: {rank: numbers(12)}
        name: "n{rank}"
        start: deck
    zones:
      deck: {visible: nobody}
      a: {}
      b: {}
      c: {}
      d: {}
      hand: {owner: each}
    turn:
      steps:
        - step: main
          do:
            - move top of deck to bottom of deck
            - let cycled = deck.rank
            - move deck where rank > 10 to bottom of deck
            - let cycled2 = deck.rank
            - move top 2 of deck to a
            - move top 2 of deck to b
            - let b_before = b.rank
            - move a to bottom of b
            - let b_zone = b.rank
            - move top 2 of deck to bottom of b
            - let b_top_n = b.rank
            - move top 2 of deck to hand
            - move top of deck to c
            - move hand where rank >= 1 to bottom of c
            - move bottom 2 of deck to bottom of d
            - move deck to bottom of deck
            - move c to bottom of c
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""


def test_move_to_bottom_puts_cards_under_keeping_their_order_for_every_shape(make):
    p = make(BOTTOM)
    st = p.new_state(0)
    # the deck is n1 (bottom) .. n12 (top); the top card goes to the bottom of its own zone
    assert local(p, st, "cycled") == [12] + list(range(1, 12))
    # a filtered set: the matching cards in their order (12 below 11), under the rest
    assert local(p, st, "cycled2") == [12, 11] + list(range(1, 11))
    # a whole zone: a = [10, 9] goes under b = [8, 7], keeping its order
    assert local(p, st, "b_before") == [8, 7]
    assert local(p, st, "b_zone") == [10, 9, 8, 7]
    # top 2 of a zone: taken one at a time (6, then 5) and put under, in the order they would land on top
    assert local(p, st, "b_top_n") == [6, 5, 10, 9, 8, 7]
    # a filtered set from a hand: under the card already there
    assert names(p, st, "c") == ["n4", "n3", "n2"]
    # bottom 2 of a zone to the bottom of an empty one
    assert names(p, st, "d") == ["n12", "n11"]
    # a zone moved to the bottom of itself: nothing changes
    assert names(p, st, "deck") == ["n1"]
    assert names(p, st, "hand(0)") == [] and names(p, st, "a") == []


def test_a_move_to_bottom_is_logged_with_a_sixth_field_and_described(make):
    p = make(BOTTOM)
    st = p.new_state(0, log=True)
    z = p.zone_names.index
    mv = moves_logged(st)
    # moving a zone onto (the bottom of) itself logs nothing: 10 moves, 8 of them to a bottom
    assert [(e[1], e[2], len(e[3])) + tuple(e[5:]) for e in mv] == [
        (z("deck"), z("deck"), 1, True), (z("deck"), z("deck"), 2, True),
        (z("deck"), z("a"), 2), (z("deck"), z("b"), 2),
        (z("a"), z("b"), 2, True), (z("deck"), z("b"), 2, True),
        (z("deck"), z("hand(0)"), 2), (z("deck"), z("c"), 1),
        (z("hand(0)"), z("c"), 2, True), (z("deck"), z("d"), 2, True)]
    assert all(len(e) == 5 or (len(e) == 6 and e[5] is True) for e in mv)      # no False sixth field
    assert events.describe(p, mv[4]) == "1×n9, 1×n10 a → bottom of b"
    assert events.describe(p, mv[3]) == "1×n7, 1×n8 deck → b"
    # hidden from a seat: only how many, but still to the bottom
    assert events.describe(p, mv[0], 1) == "1 hidden card deck → bottom of deck"
    shown = [e for e in events.for_seat(p, st.log, 1) if e[0] == E.MOVE]
    assert shown[0] == (E.MOVE, z("deck"), z("deck"), 1, 0, True)
    assert shown[6] == (E.MOVE, z("deck"), z("hand(0)"), 2, 0)
    assert events.describe(p, shown[1]) == "2 hidden cards deck → bottom of deck"


SEVERAL = """
    name: several zones
    players: {min: 2, max: 2}
    cards:
      n:
        for: {rank: numbers(6)}
        name: "n{rank}"
        start: deck
    zones:
      deck: {}
      a: {}
      b: {}
      t: {}
      u: {}
    turn:
      steps:
        - step: main
          do:
            - move top of deck to t
            - move top of deck to u
            - move top 3 of deck to a
            - let picked = a where rank >= 2
            - let picked_ranks = picked.rank
            - move top of picked to b
            - move picked to bottom of t
            - move picked to u
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""


def test_a_set_from_several_zones_to_the_top_keeps_its_order(make):
    text = SEVERAL.replace("move picked to bottom of t", "move picked to t")
    p = make(text.replace("- move picked to u", "- let t_ranks = t.rank"))
    st = p.new_state(0)
    assert local(p, st, "picked_ranks") == [4, 3, 2]
    assert names(p, st, "t") == ["n6", "n4", "n3", "n2"]


def test_a_set_from_several_zones_to_the_bottom_keeps_its_order(make):
    p = make(SEVERAL.replace("            - move picked to u\n", "            - let t_ranks = t.rank\n"))
    st = p.new_state(0)
    # picked = n4, n3 (still in a), n2 (moved on to b): under n6, in that order
    assert local(p, st, "picked_ranks") == [4, 3, 2]
    assert local(p, st, "t_ranks") == [4, 3, 2, 6]      # actually [2, 4, 3, 6]: b's group went under a's


@pytest.mark.parametrize("dest, at, message", [
    ("bottom 2 of c", "bottom 2", "cards go to the bottom of a zone, not to 'bottom N of' it"),
    ("bottom 1 of c", "bottom 1", "cards go to the bottom of a zone, not to 'bottom N of' it"),
    ("top of c", "top of c", "cards moved to a zone go on its top"),
    ("bottom of c where rank > 1", "c where", "expected a zone here, but this is a set of cards"),
])
def test_bottom_n_of_or_a_set_as_a_destination_is_refused_with_a_position(write, dest, at, message):
    text = BOTTOM.replace("- move top of deck to c\n", f"- move top of deck to {dest}\n")
    line, col = line_of(text, f"move top of deck to {dest}"), col_of(text, f"move top of deck to {dest}", at)
    got = errors_of(write, text)
    assert [(ln, c) for ln, c, _ in got] == [(line, col)], got
    assert message in got[0][2]


HIDDEN_PILE = """
    name: bottom views
    players: {min: 2, max: 2}
    cards:
      n:
        for: {rank: numbers(6)}
        name: "n{rank}"
        start: deck
    zones:
      deck: {visible: nobody}
      table: {}
      hand: {owner: each, visible: owner}
      pile: {visible: nobody}
    turn:
      steps:
        - step: main
          do:
            - shuffle deck
            - move top 3 of deck to hand
            - move top of deck to table
            - move table to pile
            - move top of deck to pile
            - choose: give
              cards: hand
              count: 1
            - move give to bottom of pile
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""


@pytest.mark.parametrize("seed", [0, 1])
def test_who_moved_a_card_to_the_bottom_of_a_face_down_pile_knows_it_is_there(make, seed):
    p = make(HIDDEN_PILE)
    st = p.new_state(seed, log=True)
    mine = texts(p, st)[0]
    do(p, st, mine)
    real = types_in(p, st, "pile")
    given, public, unseen = real
    owner, other = view_of(p, st.log, 0), view_of(p, st.log, 1)
    # the owner knows the card at the bottom; the card everyone saw go in keeps its place, one up
    assert owner.cards("pile") == [given, public, None]
    assert other.cards("pile") == [None, public, None]
    assert owner.known_cards("pile") == collections.Counter([given, public])
    assert other.known_cards("pile") == collections.Counter([public])
    assert owner.size("hand(0)") == other.size("hand(0)") == 2
    # the other seat reads the same from the events it was shown
    assert view_of(p, events.for_seat(p, st.log, 1), 1) == other
    last = moves_logged(st)[-1]
    assert last[5] is True
    assert events.describe(p, last, 1) == "1 hidden card hand(0) → bottom of pile"
    assert events.describe(p, last, 0).endswith("hand(0) → bottom of pile")


# ---------------------------------------------------------------- the guard: choices among unseen cards

GUARD = """
    name: guard
    players: {min: 2, max: 2}
    cards:
      n:
        for: {rank: numbers(6)}
        name: "n{rank}"
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each, visible: owner}
      won: {owner: each}
    turn:
      steps:
        - step: main
          do:
            - move top 2 of deck to hand(next(current))
            - move top 2 of deck to hand
            - choose: mine
              cards: hand
              count: 1
            - choose: theirs
              cards: hand(next(current))
              count: 1
            - move theirs to won
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""


@pytest.mark.parametrize("cards", ["deck", "top 2 of deck", "deck where rank > 2", "(top 3 of deck) where rank > 1",
                                   "bottom of deck"])
def test_choosing_among_the_cards_of_a_face_down_zone_is_refused_at_validate_time(write, cards):
    text = GUARD.replace("cards: hand(next(current))", f"cards: {cards}")
    line, col = line_of(text, f"cards: {cards}"), col_of(text, f"cards: {cards}", cards)
    got = errors_of(write, text)
    assert [(ln, c) for ln, c, _ in got] == [(line, col)], got
    assert "zone 'deck' is face down (visible: nobody)" in got[0][2]


def test_an_option_choosing_among_face_down_cards_is_refused_too(write):
    text = GUARD.replace("""            - choose: theirs
              cards: hand(next(current))
              count: 1""", """            - choose: theirs
              options:
                pass: {}
                blind:
                  cards: deck
                  count: 1
                  do: ["move blind to won"]""").replace("            - move theirs to won\n", "")
    got = errors_of(write, text)
    assert [(ln, c) for ln, c, _ in got] == [(line_of(text, "cards: deck"), col_of(text, "cards: deck", "deck"))], got
    assert "zone 'deck' is face down" in got[0][2]


def test_choosing_among_cards_the_decider_cannot_see_is_a_run_time_error_naming_the_rule(make):
    p = make(GUARD)
    st = p.new_state(0)
    assert texts(p, st) == ["mine: 1*n4", "mine: 1*n3"]       # its own hand: fine
    do(p, st, "mine: 1*n3")
    assert st.pending.name == "theirs" and st.decider == 0
    with pytest.raises(RuleRuntimeError, match="cannot see") as exc:
        p.legal_moves(st)
    assert "hand(1)" in str(exc.value)
    assert exc.value.pos is not None and exc.value.pos.file.endswith("rules.yaml")
    assert exc.value.pos.line == line_of(GUARD, "cards: hand(next(current))")


def test_the_owner_may_choose_among_its_own_hidden_cards_when_asked_with_by(make):
    p = make(GUARD.replace("""            - choose: theirs
              cards: hand(next(current))""", """            - choose: theirs
              by: next(current)
              cards: hand(next(current))"""))
    st = p.new_state(0)
    do(p, st, "mine: 1*n3")
    assert st.decider == 1
    assert sorted(texts(p, st)) == ["theirs: 1*n5", "theirs: 1*n6"]


# ---------------------------------------------------------------- the memory pattern

MEMORY = """
    name: memory
    players: {min: 2, max: 2}
    params:
      rows: 2
      cols: 2
    functions:
      cells: numbers(rows * cols)
    cards:
      tile:
        for: {t: [a, b]}
        name: "{t}"
        count: "if t == 'a' then 2 else 1"
        start: bag
      box_card:
        for: {v: [x, y]}
        name: "box:{v}"
        start: box
    zones:
      bag: {visible: nobody}
      box: {visible: nobody}
      spare: {visible: nobody}
      down: {per: cells, visible: nobody}
      up: {per: cells, visible: everyone}
      pool: {visible: nobody}
    setup:
      - shuffle bag
      - for: c in cells
        do: ["move top of bag to down[c]"]     # 3 tiles for 4 cells: cell 4 stays empty
      - shuffle box
      - move top of box to spare
    turn:
      steps:
        - step: main
          do:
            - {choose: look, options: {flip: {}, skip: {}}}
            - if: look == 'flip'
              then:
                - for: c in cells
                  do: ["move down[c] to up[c]", "move up[c] to down[c]"]
            - let picked = []
            - choose: how_many
              from: numbers(0, 3)
            - for: i in numbers(how_many)
              do:
                - choose: cell
                  from: cells
                  where: cell not in picked and count(down[cell]) > 0
                - let picked = picked + [cell]
            - for: c in picked
              do: ["move down[c] to pool"]
            - shuffle pool
            - for: c in picked
              do: ["move top of pool to down[c]"]
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 2"}
    score: 0
"""


def cell_types(p, st) -> dict:
    """{cell: type of its face-down card} for the cells that hold one."""
    return {c: types_in(p, st, f"down[{c}]")[0] for c in range(1, 5) if types_in(p, st, f"down[{c}]")}


def test_memory_zones_per_cell_and_the_empty_position(make):
    p = make(MEMORY)
    assert [z for z in p.zone_names if z.startswith("down")] == [f"down[{c}]" for c in range(1, 5)]
    st = p.new_state(0, log=True)
    assert sorted(cell_types(p, st)) == [1, 2, 3]
    for seat in (0, 1):
        view = view_of(p, st.log, seat)
        assert [view.size(f"down[{c}]") for c in range(1, 5)] == [1, 1, 1, 0]
        assert all(view.cards(f"down[{c}]") == [None] for c in range(1, 4))      # shuffled, dealt face down


@pytest.mark.parametrize("seed", [0, 3])
def test_turning_a_card_up_and_down_again_shows_it_to_every_seat(make, seed):
    p = make(MEMORY)
    st = p.new_state(seed, log=True)
    do(p, st, "flip")
    real = cell_types(p, st)
    for seat in (0, 1):
        view = view_of(p, st.log, seat)
        for c, t in real.items():
            assert view.cards(f"down[{c}]") == [t]
            assert view.known_cards(f"down[{c}]") == collections.Counter([t])
            assert view.size(f"up[{c}]") == 0
        assert view.size("down[4]") == view.size("up[4]") == 0


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("same", [True, False], ids=["same-type", "mixed"])
def test_lifted_shuffled_and_put_back_a_cell_is_known_only_if_all_lifted_were_alike(make, seed, same):
    p = make(MEMORY)
    st = p.new_state(seed, log=True)
    do(p, st, "flip")
    real = cell_types(p, st)
    a = p.type_names.index("a")
    a_cells = [c for c, t in real.items() if t == a]
    b_cell = next(c for c, t in real.items() if t != a)
    lifted = a_cells if same else [a_cells[0], b_cell]
    kept = [c for c in real if c not in lifted]
    do(p, st, "how_many: 2")
    # the empty cell (4) is never offered; a picked cell is not offered again
    assert texts(p, st) == ["cell: 1", "cell: 2", "cell: 3"]
    do(p, st, f"cell: {lifted[0]}")
    assert f"cell: {lifted[0]}" not in texts(p, st)
    do(p, st, f"cell: {lifted[1]}")
    assert local(p, st, "picked") == lifted
    after = cell_types(p, st)
    assert sorted(after.values()) == sorted(real.values())
    for seat in (0, 1):
        view = view_of(p, st.log, seat)
        for c in lifted:
            z = f"down[{c}]"
            if same:        # every lifted card was an a: each lifted cell holds an a
                assert view.known_cards(z) == collections.Counter([a])
            else:
                assert view.known_cards(z) == collections.Counter() and view.cards(z) == [None]
                assert set(view.could_be_in(z)) >= {a, real[b_cell]}
        for c in kept:      # not lifted: still known, at its place
            assert view.cards(f"down[{c}]") == [real[c]]
        assert view.size("down[4]") == view.size("up[4]") == view.size("pool") == 0
    assert types_in(p, st, "down[4]") == types_in(p, st, "up[4]") == []


def test_without_looking_nothing_is_known_after_the_lift(make):
    p = make(MEMORY)
    st = p.new_state(0, log=True)
    do(p, st, "skip")
    do(p, st, "how_many: 3")
    for c in (1, 2, 3):
        do(p, st, f"cell: {c}")
    for seat in (0, 1):
        view = view_of(p, st.log, seat)
        assert all(view.cards(f"down[{c}]") == [None] and not view.known_cards(f"down[{c}]") for c in (1, 2, 3))
        assert view.size("down[4]") == 0


def kind_of(p, c) -> str:
    return p.type_attrs[p.card_type[c]]["kind"]


def misplaced(p, copy, view) -> list:
    """(zone, kind) of every card the copy puts where the view says its kind cannot be."""
    return [(p.zone_names[z], kind_of(p, c)) for z, zone in enumerate(copy.zones) for c in zone
            if kind_of(p, c) not in view.kinds[z]]


@pytest.mark.parametrize("look", ["flip", "skip"])
def test_the_view_knows_which_kinds_may_be_in_each_zone(make, look):
    p = make(MEMORY)
    st = p.new_state(1, log=True)
    do(p, st, look)
    do(p, st, "how_many: 2")
    do(p, st, "cell: 1")
    do(p, st, "cell: 3")
    for seat in (0, 1):
        view = view_of(p, st.log, seat)
        kinds = dict(zip(p.zone_names, view.kinds))
        assert all(kinds[f"down[{c}]"] == {"tile"} for c in (1, 2, 3))
        assert kinds["box"] == kinds["spare"] == {"box_card"}
        assert kinds["down[4]"] == kinds["pool"] == kinds["bag"] == frozenset()
        # sound: every card's kind is among its zone's kinds
        assert misplaced(p, st, view) == []


@pytest.mark.parametrize("lift", [False, True], ids=["dealt", "lifted-and-redealt"])
def test_determinised_copies_put_no_card_where_its_kind_cannot_be(make, lift):
    p = make(MEMORY)
    st = p.new_state(2, log=True)
    do(p, st, "skip")           # nothing is known of the tiles or of the box cards: only their kinds
    if lift:                    # the tiles go through the pool and back: still only tiles in the cells
        do(p, st, "how_many: 3")
        for c in (3, 1, 2):
            do(p, st, f"cell: {c}")
    seat = st.decider
    view = view_of(p, st.log, seat)
    assert not view.known_cards("box") and not view.known_cards("spare")
    for seed in range(40):
        copy = determinise(p, st, seat, random.Random(seed), view)
        assert misplaced(p, copy, view) == [], seed
        assert copy.zones[p.zone_names.index("down[4]")] == []
        assert sorted(copy.zones[p.zone_names.index("box")] + copy.zones[p.zone_names.index("spare")]) == \
            sorted(st.zones[p.zone_names.index("box")] + st.zones[p.zone_names.index("spare")])
    # without the kinds, box cards do end up in the cells: the kinds are what keeps them out
    blind = dataclasses.replace(view, kinds=())
    assert any(misplaced(p, determinise(p, st, seat, random.Random(seed), blind), view) for seed in range(40))


KIND_MATCHING = """
    name: kind matching
    players: {min: 2, max: 2}
    cards:
      ex: {count: 1, start: m1}
      wy: {count: 2, start: m2}
      zed: {count: 1, start: m3}
    zones:
      m1: {visible: nobody}
      m2: {visible: nobody}
      m3: {visible: nobody}
      p: {visible: nobody}
      q: {visible: nobody}
      r: {visible: nobody}
      s: {visible: nobody}
    setup:
      - move top of m2 to m1
      - shuffle m1
      - move top of m1 to p
      - move m1 to q
      - move m2 to m3
      - shuffle m3
      - move top of m3 to r
      - move m3 to s
    turn:
      steps:
        - step: main
          do:
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""


def test_determinised_copies_respect_kinds_even_when_zones_overlap(make):
    p = make(KIND_MATCHING)
    st = p.new_state(0, log=True)
    view = view_of(p, st.log, 0)
    kinds = dict(zip(p.zone_names, view.kinds))
    # p and q hold an ex and a wy, r and s a wy and a zed: nothing more is known
    assert kinds["p"] == kinds["q"] == {"ex", "wy"} and kinds["r"] == kinds["s"] == {"wy", "zed"}
    assert all(not view.known_cards(z) for z in "pqrs")
    bad = [seed for seed in range(60) if misplaced(p, determinise(p, st, 0, random.Random(seed), view), view)]
    assert bad == []        # fails: if r and s both take a wy, p or q is left with the zed


def test_views_stay_sound_in_random_memory_games(write):
    """At every decision, for every seat: known positions and K are true, kinds cover the real cards."""
    game = load_game(write(MEMORY))
    p = game.program(2)
    for seed in range(6):
        st = p.new_state(seed, log=True)
        gen = random.Random(seed)
        while not st.over:
            for seat in (0, 1):
                view = view_of(p, st.log, seat)
                assert misplaced(p, st, view) == []
                for z in range(len(p.zone_names)):
                    real = types_in(p, st, z)
                    assert view.size(z) == len(real)
                    assert all(real[i] == t for i, t in view.known_positions(z).items())
                    assert not view.known_cards(z) - collections.Counter(real)
            moves = p.legal_moves(st)
            p.apply(st, moves[gen.randrange(len(moves))])


# ---------------------------------------------------------------- moves to the bottom, as the events tell them

CYCLE = """
    name: cycle
    players: {min: 2, max: 2}
    cards:
      n:
        for: {rank: numbers(10)}
        name: "n{rank}"
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each}
      pile: {visible: nobody}
      out: {}
    setup:
      - shuffle deck
    turn:
      steps:
        - step: main
          do:
            - move top 2 of deck to hand
            - choose: back
              cards: hand
              min: 0
              max: 2
            - move back to bottom of deck
            - choose: how
              from: numbers(3)
            - if: how == 1
              then: ["move top 2 of deck to bottom of pile", "move top of deck to bottom of deck"]
              else: ["move hand where rank > 4 to bottom of pile", "move pile to bottom of out"]
            - if: how == 3
              then: ["move out to bottom of deck", "shuffle deck"]
    end: {when: "turn >= 8"}
    score: count(out)
"""


def replay_events(p, log: list) -> list:
    """The zones rebuilt from the start zones by the events alone: a move takes its cards out of
    where they were and lays them, in the order told, on top or (a sixth field, True) at the bottom."""
    zones = [[] for _ in p.zone_names]
    for c, z in enumerate(p.card_start):
        zones[z].append(c)
    for e in log:
        if e[0] == E.MOVE:
            _, src, dst, cards = e[:4]
            for c in cards:
                zones[src].remove(c)
            if e[5:] and e[5]:
                zones[dst][0:0] = cards
            else:
                zones[dst].extend(cards)
        elif e[0] == E.SHUFFLE:
            assert sorted(zones[e[1]]) == sorted(e[2])
            zones[e[1]] = list(e[2])
    return zones


def test_moves_to_the_bottom_give_the_same_game_each_time_and_as_the_events_tell(write):
    game = load_game(write(CYCLE))
    for seed in range(3):
        runs = []
        for p in (game.program(2), load_game(write(CYCLE)).program(2)):       # compiled twice
            st = p.new_state(seed, log=True)
            gen = random.Random(seed)
            shown = []
            while not st.over:
                moves = p.legal_moves(st)
                shown.append(texts(p, st))
                p.apply(st, moves[gen.randrange(len(moves))])
                assert replay_events(p, st.log) == st.zones
            runs.append((st.zones, st.loc, st.vars, st.turn, st.log, shown, p.result(st)))
        assert runs[0] == runs[1]
        assert any(len(e) > 5 for e in runs[0][4] if e[0] == E.MOVE)


# ---------------------------------------------------------------- alike zones

# Three face-down piles, each filled with the three tiles of one colour; a player draws the top
# tile of a pile (seen by that player only) or puts a tile from hand under a pile, or throws one
# away face down.
ALIKE = """
    name: alike piles
    players: {min: 2, max: 3}
    params:
      colours: [red, blue, green]
    cards:
      tile:
        for: {colour: colours}
        name: "{colour}"
        count: 3
        start: bag
    zones:
      bag: {visible: nobody}
      pile: {per: "numbers(3)", visible: nobody, alike: true}
      hand: {owner: each, visible: owner}
      away: {visible: nobody}
    setup:
      - shuffle bag
      - for: s in numbers(3)
        do:
          - let c = last(bag).colour
          - move bag where colour == c to pile[s]
    turn:
      steps:
        - step: play
          do:
            - choose: act
              options:
                draw:
                  do:
                    - choose: which
                      from: numbers(3)
                      where: count(pile[which]) > 0
                    - move top of pile[which] to hand
                back:
                  cards: hand
                  count: 1
                  do:
                    - choose: under
                      from: numbers(3)
                    - move back to bottom of pile[under]
                toss:
                  cards: hand
                  count: 1
                  do: ["move toss to away"]
    end: {when: "turn > 6"}
    score: count(hand)
"""


def pile_colours(p, st) -> dict:
    """{pile: its colour} as the setup dealt it."""
    return {s: p.type_names[types_in(p, st, f"pile[{s}]")[0]] for s in (1, 2, 3)}


def known(p, st, seat: int, zone: str) -> dict:
    """The seat's K of a zone, by type name."""
    return {p.type_names[t]: n for t, n in view_of(p, st.log, seat).known_cards(zone).items()}


def draw(p, st, pile: int) -> None:
    do(p, st, "draw")
    do(p, st, f"which: {pile}")


def test_alike_zones_are_each_filled_with_one_type_and_nobody_knows_which(make):
    p = make(ALIKE)
    st = p.new_state(1, log=True)
    colours = pile_colours(p, st)
    assert sorted(colours.values()) == ["blue", "green", "red"]
    for s in (1, 2, 3):
        assert names(p, st, f"pile[{s}]") == [colours[s]] * 3
        assert known(p, st, 0, f"pile[{s}]") == known(p, st, 1, f"pile[{s}]") == {}


def test_a_seat_that_sees_a_card_leave_an_alike_zone_knows_the_rest_of_it(make):
    p = make(ALIKE)
    st = p.new_state(1, log=True)
    colour = pile_colours(p, st)[2]
    draw(p, st, 2)                                          # seat 0 sees the tile it drew
    assert known(p, st, 0, "pile[2]") == {colour: 2}
    assert known(p, st, 1, "pile[2]") == {}                 # seat 1 saw nothing
    assert known(p, st, 1, "hand(0)") == {}


def test_what_left_an_alike_zone_unseen_is_known_once_its_type_is(make):
    p = make(ALIKE)
    st = p.new_state(2, log=True)
    colour = pile_colours(p, st)[1]
    draw(p, st, 1)                                          # seat 0 draws; seat 1 does not see what
    assert known(p, st, 1, "hand(0)") == {}
    draw(p, st, 1)                                          # seat 1 draws from the same pile
    assert known(p, st, 1, "hand(0)") == {colour: 1}        # so seat 0's tile is that colour too
    assert known(p, st, 1, "pile[1]") == {colour: 1}
    assert known(p, st, 0, "hand(1)") == {colour: 1}        # seat 0 knew the pile: seat 1's draw too


def test_a_card_put_under_an_alike_zone_ends_what_its_fill_tells(make):
    p = make(ALIKE)
    st = p.new_state(3, log=True)
    colours = pile_colours(p, st)
    draw(p, st, 1)                                          # seat 0: a tile of pile 1
    draw(p, st, 2)                                          # seat 1: a tile of pile 2
    do(p, st, "back: 1*" + colours[1])                      # seat 0 puts its tile back ...
    do(p, st, "under: 3")                                   # ... under pile 3 (seat 1 does not see it)
    assert known(p, st, 0, "pile[3]") == {colours[1]: 1}    # seat 0 knows only the tile it put there
    draw(p, st, 3)                                          # seat 1 draws the top of pile 3
    # pile 3 holds two types now: seat 1's tile tells nothing of the rest
    assert known(p, st, 1, "pile[3]") == {}


def test_an_unseen_card_that_may_have_moved_on_is_not_known(make):
    p = make(ALIKE)
    st = p.new_state(4, log=True)
    colours = pile_colours(p, st)
    draw(p, st, 1)                                          # seat 0 draws from pile 1, unseen
    draw(p, st, 2)
    draw(p, st, 3)                                          # seat 0 draws from pile 3, unseen
    draw(p, st, 3)                                          # seat 1 learns pile 3's colour ...
    assert known(p, st, 1, "hand(0)") == {colours[3]: 1}    # ... so that of seat 0's tile from it
    do(p, st, "toss: 1*" + colours[1])                      # seat 0 throws one tile away, unseen
    assert known(p, st, 1, "hand(0)") == {}                 # it may have been that one
    draw(p, st, 1)                                          # seat 1 learns pile 1's colour
    # the tile seat 0 drew from pile 1 may be the one it threw away: still not known in its hand
    assert known(p, st, 1, "hand(0)") == {}
    assert known(p, st, 1, "pile[1]") == {colours[1]: 1}


def test_determinised_copies_deal_an_alike_zones_known_type(make):
    p = make(ALIKE)
    st = p.new_state(5, log=True)
    colours = pile_colours(p, st)
    draw(p, st, 3)
    view = view_of(p, st.log, 0)
    for seed in range(5):
        copy = determinise(p, st, 0, random.Random(seed), view)
        assert names(p, copy, "pile[3]") == [colours[3]] * 2


def test_filling_an_empty_alike_zone_with_two_types_stops_the_game_at_the_move(make):
    text = ALIKE.replace("move bag where colour == c to pile[s]", "move top 2 of bag to pile[s]")
    p = make(text)
    with pytest.raises(RuleRuntimeError) as exc:
        for seed in range(20):                              # some seed deals two colours on top
            p.new_state(seed, log=False)
    assert exc.value.pos.line == line_of(text, "move top 2 of bag to pile[s]")
    assert "declared alike" in str(exc.value) and "empty pile[" in str(exc.value)


def test_a_card_of_another_type_may_join_a_zone_that_is_not_empty(make):
    p = make(ALIKE)
    st = p.new_state(6, log=True)
    colours = pile_colours(p, st)
    draw(p, st, 1)
    draw(p, st, 2)
    do(p, st, "back: 1*" + colours[1])
    do(p, st, "under: 2")                                   # pile 2 holds two types now: allowed
    assert names(p, st, "pile[2]") == [colours[1], colours[2], colours[2]]
