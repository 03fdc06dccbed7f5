"""The rules language, construct by construct, each with a tiny purpose-made ruleset.

Every test compiles through the `make` fixture; nothing here depends on a real game. Rulesets are
written to tmp_path.
"""
from __future__ import annotations

import copy
import textwrap
import time

import pytest

from interpreter.compiler import build
from interpreter.runtime import events
from interpreter.runtime import engine as E
from interpreter.seats import make_bot
from interpreter.tools.cli import set_option
from interpreter.errors import IllegalMove, RecordError, RuleRuntimeError, RulesetError
from interpreter.compiler.game import load_game
from interpreter.tools.records import make_record, play_game, replay
from language_helpers import do, edit, ids, local, make, names, ok, texts, var, write  # noqa: F401

# `- {choose: go, options: {ok: {}}}` in a ruleset: a decision that only pauses the rules,
# so that a test can look at the state at that point (answered with ok()).




def turns(st) -> list:
    """(seat, turn number) of every turn started, from the event log."""
    return [(e[1], e[2]) for e in st.log if e[0] == E.TURN]


def moves_logged(st) -> list:
    return [e for e in st.log if e[0] == E.MOVE]


# ---------------------------------------------------------------- cards

CARDS = """
    name: cards
    players: {min: 2, max: 2}
    params:
      suits: [red, blue]
    cards:
      num:
        for: {suit: suits, rank: [1, 2, 3]}
        name: "{suit}:{rank}"
        count: "if rank == 3 then 2 else 1"
        attrs:
          pts: "rank * 10 + (if suit == 'red' then 1 else 0)"
          colour: "'dark'"
          tags: [plain, simple]
          big: "rank >= 3"
        start: deck
      joker:
        count: 2
        attrs: {wild: true}
        start: deck
      ghost:
        for: {g: [1, 2]}
        name: "ghost:{g}"
        count: 0
        start: deck
    zones:
      deck: {visible: nobody}
    turn:
      steps:
        - step: main
          do:
            - let n_cards = count(deck)
            - let n_jokers = count(deck where kind == 'joker')
            - let n_threes = count(deck where kind == 'num' and rank == 3)
            - let n_red3 = count(deck where name == 'red:3')
            - let n_dark = count(deck where colour == 'dark')
            - let n_wild = count(deck where wild == true)
            - let n_big = count(deck where kind == 'num' and big)
            - let total = sum((deck where kind == 'num').pts)
            - let bottom_name = first(deck).name
            - let top_kind = last(deck).kind
            - let kinds = deck.kind
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""


def test_card_kinds_for_over_two_lists_counts_attrs_and_automatic_attributes(make):
    p = make(CARDS)
    # one type per combination, the first `for` variable changing slowest; count 0 makes no type
    assert p.type_names == ["red:1", "red:2", "red:3", "blue:1", "blue:2", "blue:3", "joker"]
    st = p.new_state(0)
    # declaration order in the start zone, the first declared card at the bottom
    assert names(p, st, "deck") == ["red:1", "red:2", "red:3", "red:3", "blue:1", "blue:2", "blue:3", "blue:3",
                                    "joker", "joker"]
    assert local(p, st, "n_cards") == 10
    assert local(p, st, "n_jokers") == 2
    assert local(p, st, "n_threes") == 4
    assert local(p, st, "n_red3") == 2
    assert local(p, st, "n_dark") == 8           # a joker has no colour
    assert local(p, st, "n_wild") == 2           # a number card has no wild
    assert local(p, st, "n_big") == 4
    # pts = rank*10 (+1 for red): red 11+21+31+31, blue 10+20+30+30
    assert local(p, st, "total") == 94 + 90
    assert local(p, st, "bottom_name") == "red:1"
    assert local(p, st, "top_kind") == "joker"
    assert local(p, st, "kinds") == ["num"] * 8 + ["joker"] * 2


@pytest.mark.parametrize("fancy_tags", ["[big, round]", '''"['big', 'round']"'''])
def test_list_attributes_work_as_lists(make, fancy_tags):
    """An attribute may be a list (a YAML list, or an expression giving one); `in` and `count` read it."""
    text = """
    name: list attrs
    players: {min: 2, max: 2}
    cards:
      plain:
        count: 2
        attrs: {tags: [small, round]}
        start: deck
      fancy:
        attrs: {tags: FANCY}
        start: deck
    zones:
      deck: {}
    turn:
      steps:
        - step: main
          do:
            - let n_small = count(deck where 'small' in tags)
            - let n_round = count(deck where 'round' in tags)
            - let n_tags = count(first(deck).tags)
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
    """
    p = make(edit(text, "FANCY", fancy_tags))
    st = p.new_state(0)
    assert local(p, st, "n_small") == 2
    assert local(p, st, "n_round") == 3
    assert local(p, st, "n_tags") == 2


# ---------------------------------------------------------------- params and overrides

PARAMS = """
    name: params
    players: {min: 2, max: 4}
    params:
      n: {by_players: {2: 4, 3-4: 3}}
      suits: [red, blue]
      word: hello
    cards:
      c:
        for: {suit: suits}
        name: "{suit}"
        count: n
        start: deck
    zones:
      deck: {}
      pile: {per: suits}
    turn:
      steps:
        - step: main
          do:
            - let got_n = n
            - let got_word = word
            - let got_suits = count(suits)
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""


@pytest.mark.parametrize("overrides, expected", [
    (None, {2: 4, 3: 3, 4: 3}),
    ({"n": 7}, {2: 7, 3: 7, 4: 7}),                  # NAME=VALUE replaces the whole table
    ({"n.3": 9}, {2: 4, 3: 9, 4: 3}),                # NAME.PLAYERS=VALUE replaces one row
    ({"n.2": 1, "n.4": 6}, {2: 1, 3: 3, 4: 6}),
])
def test_params_by_players_rows_and_overrides(make, overrides, expected):
    for players, n in expected.items():
        p = make(PARAMS, players, overrides)
        st = p.new_state(0)
        assert local(p, st, "got_n") == n
        assert len(ids(p, st, "deck")) == 2 * n      # the card count uses the parameter too
        assert local(p, st, "got_word") == "hello"


def test_list_param_override_changes_cards_and_families(make):
    p = make(PARAMS, 2, {"suits": ["red", "blue", "green"], "word": "bye"})
    st = p.new_state(0)
    assert p.type_names == ["red", "blue", "green"]
    assert [z for z in p.zone_names if z.startswith("pile")] == ["pile[red]", "pile[blue]", "pile[green]"]
    assert local(p, st, "got_suits") == 3
    assert local(p, st, "got_word") == "bye"


def test_set_option_reads_values_as_yaml():
    assert set_option("n.3=9") == ("n.3", 9)
    assert set_option("suits=[red, blue]") == ("suits", ["red", "blue"])
    assert set_option("word=glass") == ("word", "glass")


@pytest.mark.parametrize("overrides", [
    {"n": "many"},           # a text for a number
    {"nn": 3},               # no such parameter
    {"n.5": 3},              # no row for 5 players
    {"suits.2": ["red"]},    # not a by_players table
    {"suits": 3},            # a number for a list
])
def test_bad_overrides_are_errors_at_set(write, overrides):
    with pytest.raises(RulesetError) as exc:
        load_game(write(PARAMS), overrides)
    assert all(d.pos.file == "--set" for d in exc.value.diagnostics)


# ---------------------------------------------------------------- zones and visibility

ZONES = """
    name: zones
    players: {min: 3, max: 3}
    params:
      colours: [red, blue]
    cards:
      c:
        for: {colour: colours, rank: [1, 2, 3, 4, 5, 6]}
        name: "{colour}:{rank}"
        start: deck
    zones:
      deck: {visible: nobody}
      table: {}
      hand: {owner: each}
      secret: {owner: each, visible: nobody}
      shown: {owner: each, visible: everyone}
      pile: {per: colours}
      tab: {owner: each, per: colours}
    turn:
      steps:
        - step: main
          do:
            - move top of deck to hand(1)
            - move hand(1) to secret(1)
            - move top of deck to table
            - move top of deck to shown(2)
            - "move top of deck to tab(0)['red']"
            - "move tab(0)['red'] to pile['blue']"
            - "move secret(1) to tab(2)['blue']"
            - move top of deck to hand
            - "move hand to tab['red']"
            - for: col in colours
              do: ["move top of deck to pile[col]"]
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""


def test_zones_of_the_table_each_player_and_families(make):
    p = make(ZONES, 3)
    assert p.zone_names == [
        "deck", "table", "hand(0)", "hand(1)", "hand(2)", "secret(0)", "secret(1)", "secret(2)",
        "shown(0)", "shown(1)", "shown(2)", "pile[red]", "pile[blue]",
        "tab(0)[red]", "tab(0)[blue]", "tab(1)[red]", "tab(1)[blue]", "tab(2)[red]", "tab(2)[blue]"]
    everyone, nobody = 0b111, 0
    vis = dict(zip(p.zone_names, p.zone_vis))
    assert vis["deck"] == nobody and vis["table"] == everyone
    assert [vis[f"hand({s})"] for s in range(3)] == [1, 2, 4]          # owner by default
    assert [vis[f"secret({s})"] for s in range(3)] == [nobody] * 3
    assert [vis[f"shown({s})"] for s in range(3)] == [everyone] * 3
    assert vis["pile[red]"] == vis["pile[blue]"] == everyone            # table default: everyone
    assert vis["tab(2)[blue]"] == 4
    st = p.new_state(0, log=True)
    # deck bottom to top: red:1..red:6, blue:1..blue:6; taken from the top
    assert names(p, st, "secret(1)") == []
    assert names(p, st, "table") == ["blue:5"]
    assert names(p, st, "shown(2)") == ["blue:4"]
    assert names(p, st, "pile[blue]") == ["blue:3", "red:6"]       # then the for loop put red:6 on top
    assert names(p, st, "tab(2)[blue]") == ["blue:6"]
    assert names(p, st, "tab(0)[red]") == ["blue:2"]               # `tab['red']` is my (seat 0's) zone
    assert names(p, st, "hand(0)") == []
    assert names(p, st, "pile[red]") == ["blue:1"]


def test_event_masks_and_what_each_seat_sees(make):
    p = make(ZONES, 3)
    st = p.new_state(0, log=True)
    mv = moves_logged(st)
    z = p.zone_names.index
    assert [(e[1], e[2]) for e in mv[:7]] == [
        (z("deck"), z("hand(1)")), (z("hand(1)"), z("secret(1)")), (z("deck"), z("table")),
        (z("deck"), z("shown(2)")), (z("deck"), z("tab(0)[red]")), (z("tab(0)[red]"), z("pile[blue]")),
        (z("secret(1)"), z("tab(2)[blue]"))]
    # faces are seen by the seats that see either zone
    assert [e[4] for e in mv[:7]] == [0b010, 0b010, 0b111, 0b111, 0b001, 0b111, 0b100]
    for seat in range(3):
        seen = [e for e in events.for_seat(p, st.log, seat) if e[0] == E.MOVE][:7]
        for full, shown in zip(mv[:7], seen):
            if full[4] >> seat & 1:
                assert shown == full
            else:       # hidden: only how many cards went from where to where
                assert shown == (E.MOVE, full[1], full[2], len(full[3]), 0)
                assert "hidden card" in events.describe(p, shown, seat)
    # decisions are seen by the deciding seat only
    ok(p, st)
    assert [e for e in events.for_seat(p, st.log, 0) if e[0] == E.DECIDE]
    assert not [e for e in events.for_seat(p, st.log, 1) if e[0] == E.DECIDE]


# ---------------------------------------------------------------- moves

MOVES = """
    name: moves
    players: {min: 2, max: 2}
    cards:
      n:
        for: {rank: [1, 2, 3, 4, 5, 6, 7, 8]}
        name: "n{rank}"
        start: deck
    zones:
      deck: {visible: nobody}
      a: {}
      b: {}
      c: {}
      d: {}
      e: {}
      f: {}
    turn:
      steps:
        - step: main
          do:
            - let top_rank = last(deck).rank
            - let top_of = first(top of deck).rank
            - let bottom_rank = first(deck).rank
            - let bottom_of = first(bottom of deck).rank
            - let top2 = (top 2 of deck).rank
            - let bottom2 = (bottom 2 of deck).rank
            - move top 3 of deck to a
            - move bottom 2 of deck to b
            - move top of deck to c
            - move a to d
            - move d where rank >= 7 to e
            - move top of deck where rank == 3 to f
            - move e to e
            - move top 5 of c to b
            - move top of a to b
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""


def test_top_is_last_and_the_forms_of_move(make):
    p = make(MOVES)
    st = p.new_state(0)
    assert local(p, st, "top_rank") == local(p, st, "top_of") == 8
    assert local(p, st, "bottom_rank") == local(p, st, "bottom_of") == 1
    assert local(p, st, "top2") == [7, 8] and local(p, st, "bottom2") == [1, 2]
    # top 3 went to a (see the next test), then the whole of a to d, keeping its order;
    # `where` then moved the matching cards of d, in their order
    assert names(p, st, "a") == []
    assert names(p, st, "d") == ["n6"]
    assert names(p, st, "e") == ["n8", "n7"]
    # bottom 2, one at a time: the bottom card is taken (and placed) first
    # then `top 5 of c` moves the only card there (no trigger, no error), nothing from empty a
    assert names(p, st, "b") == ["n1", "n2", "n5"]
    assert names(p, st, "c") == []
    # the topmost matching card, from anywhere in the zone
    assert names(p, st, "f") == ["n3"]
    assert names(p, st, "deck") == ["n4"]


def test_top_n_moves_one_card_at_a_time_and_a_zone_moves_in_order(make):
    text = edit(MOVES, "            - move a to d\n",
                "            - let a_then = a.rank\n            - move a to d\n            - let d_then = d.rank\n")
    p = make(text)
    st = p.new_state(0)
    assert local(p, st, "a_then") == [8, 7, 6]     # the old top card (n8) ends lowest
    assert local(p, st, "d_then") == [8, 7, 6]     # a whole zone keeps its order


# ---------------------------------------------------------------- on_empty

ON_EMPTY = """
    name: on_empty
    players: {min: 2, max: 2}
    vars:
      fired: {initial: 0}
    cards:
      a: {count: 3, start: deck}
      b: {count: 4, start: discard}
    zones:
      deck:
        visible: nobody
        on_empty: ["move discard to deck", "shuffle deck", "set fired = fired + 1"]
      discard: {}
      hand: {owner: each}
      other: {}
    turn:
      steps:
        - step: main
          do:
            - move top 5 of deck to hand
            - let after1 = hand.name
            - let deck1 = count(deck)
            - let fired1 = fired
            - move top 5 of deck to hand
            - let deck2 = count(deck)
            - let fired2 = fired
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""


def test_on_empty_refills_in_the_middle_of_a_move_and_stops_when_both_are_empty(make):
    p = make(ON_EMPTY)
    st = p.new_state(3)
    # 3 from the deck, the trigger moves and shuffles the discard pile in, 2 more
    assert local(p, st, "after1") == ["a", "a", "a", "b", "b"]
    assert local(p, st, "deck1") == 2 and local(p, st, "fired1") == 1
    # 2 left: take them, the trigger runs on an empty discard pile, the move takes what it got
    assert local(p, st, "deck2") == 0 and local(p, st, "fired2") == 2
    assert names(p, st, "hand(0)") == ["a"] * 3 + ["b"] * 4
    assert names(p, st, "discard") == []


def test_on_empty_does_not_fire_for_count_zone_moves_or_filtered_sets(make):
    text = edit(ON_EMPTY, """            - move top 5 of deck to hand
            - let after1 = hand.name""", """            - move deck to other
            - let n0 = count(deck)
            - move deck to hand
            - move top of deck where kind == 'b' to hand
            - let quiet = fired
            - move bottom 1 of deck to hand
            - let after1 = hand.name""")
    p = make(text)
    st = p.new_state(0)
    assert local(p, st, "n0") == 0
    assert local(p, st, "quiet") == 0
    # `bottom 1 of` an empty deck does fire
    assert local(p, st, "after1") == ["b"] and local(p, st, "fired1") == 1


def test_deal_uses_on_empty_and_stops_in_the_middle_of_a_round(make):
    text = edit(ON_EMPTY, "  b: {count: 4, start: discard}", "  b: {count: 2, start: discard}")
    text = edit(text, """            - move top 5 of deck to hand
            - let after1 = hand.name""", """            - deal 4 from deck to hand
            - let after1 = hand.name""")
    p = make(text)
    st = p.new_state(0)
    # 5 cards for 8 places: seat 0, 1, 0, 1, 0, then the trigger finds nothing and dealing stops
    assert names(p, st, "hand(0)") == ["a", "a", "b"]
    assert names(p, st, "hand(1)") == ["a", "b"]
    assert var(p, st, "fired") == 3        # once to refill, once dry during the deal, once in the move


# ---------------------------------------------------------------- deal

DEAL = """
    name: deal
    players: {min: 3, max: 3}
    cards:
      n:
        for: {rank: [1, 2, 3, 4, 5, 6, 7, 8]}
        name: "n{rank}"
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each}
    turn:
      first: 2
      steps:
        - step: main
          do:
            - deal 2 from deck to hand starting 1
            - let first_deal = [hand(0).rank, hand(1).rank, hand(2).rank]
            - deal 1 from deck to hand
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""


def test_deal_one_card_at_a_time_round_the_table(make):
    p = make(DEAL, 3)
    st = p.new_state(0, log=True)
    assert local(p, st, "first_deal") == [[6, 3], [8, 5], [7, 4]]
    # by default from the current player (seat 2); dealing stops when the deck is dry
    assert names(p, st, "hand(2)") == ["n7", "n4", "n2"]
    assert names(p, st, "hand(0)") == ["n6", "n3", "n1"]
    assert names(p, st, "hand(1)") == ["n8", "n5"]
    z = p.zone_names.index
    mv = moves_logged(st)
    assert all(len(e[3]) == 1 for e in mv)
    assert [e[2] for e in mv] == [z(f"hand({s})") for s in (1, 2, 0, 1, 2, 0, 2, 0)]


# ---------------------------------------------------------------- variables

VARS = """
    name: vars
    players: {min: 3, max: 3}
    vars:
      round: {initial: 1}
      coins: {owner: each, initial: "3 + me"}
      flag: {owner: each, initial: false}
      diff: {initial: 0}
      seen: {initial: 0}
    turn:
      steps:
        - step: one
          do:
            - if: turn == 1
              then:
                - let x = round + 1
                - set round = x * 10
                - set coins(next(current)) = coins(next(current)) + 100
                - set coins = 0
                - set flag(2) = true
                - set diff = coins(1) - coins
                - let keep = 42
        - step: two
          do:
            - set seen = keep + turn
        - {choose: go, options: {ok: {}}}
    end:
      when: turn >= 2
      finish: [two]
    score: coins
"""


def test_let_set_and_per_player_variables(make):
    p = make(VARS, 3)
    st = p.new_state(0, log=True)
    assert var(p, st, "round") == 20
    assert [var(p, st, "coins", s) for s in range(3)] == [0, 104, 5]
    assert [var(p, st, "flag", s) for s in range(3)] == [False, False, True]
    assert var(p, st, "diff") == 104
    assert var(p, st, "seen") == 43
    sets = [e for e in st.log if e[0] == E.SET]
    assert sets[:5] == [(E.SET, "round", None, 20), (E.SET, "coins", 1, 104), (E.SET, "coins", 0, 0),
                        (E.SET, "flag", 2, True), (E.SET, "diff", None, 104)]
    ok(p, st)
    # a local keeps its value across turns until bound again; the game ends in turn 2 after
    # step one, but step two is a finish step
    assert st.over and st.turn == 2 and st.current == 1
    assert var(p, st, "seen") == 44
    assert p.result(st)["scores"] == [0, 104, 5]      # score `coins` is the scored player's


LET_ZONE = """
    name: let zone
    players: {min: 2, max: 2}
    cards:
      n: {count: 4, start: deck}
    zones:
      deck: {visible: nobody}
      hand: {owner: each, visible: owner}
    turn:
      steps:
        - let z = if turn > 99 then hand else deck
        - let y = z
        - step: main
          do:
            - choose: go
              options:
                go: {do: []}
            - move top 1 of y to hand
    end:
      when: count(deck) == 0
    score: count(hand)
"""


def test_a_local_that_names_a_zone_names_the_copys_own_zone_in_a_copy(make):
    p = make(LET_ZONE)
    st = p.new_state(1)
    copy = st.clone()
    p.apply(copy, p.legal_moves(copy)[0])
    assert (len(ids(p, st, "deck")), len(ids(p, copy, "deck"))) == (4, 3)
    assert not any(v is z for v in copy.vars for z in st.zones)
    p.apply(st, p.legal_moves(st)[0])
    assert st == copy


def test_variable_initial_may_use_current(make):
    """`initial` is worked out before setup; `current` there must not crash the interpreter."""
    text = edit(VARS, "      seen: {initial: 0}\n", "      seen: {initial: 0}\n      starter: {initial: current}\n")
    text = edit(text, "    turn:\n", "    turn:\n      first: 2\n")
    try:
        p = make(text, 3)
    except RulesetError:
        return                      # refusing it is fine too
    st = p.new_state(0)
    assert var(p, st, "starter") == 2


# ---------------------------------------------------------------- control flow

FLOW = """
    name: flow
    players: {min: 3, max: 3}
    vars:
      w: {initial: 0}
      bid: {initial: 0}
      high: {initial: -1}
    cards:
      n:
        for: {rank: [1, 2, 3]}
        name: "n{rank}"
        start: deck
    zones:
      deck: {}
      hand: {owner: each}
      won: {owner: each}
    turn:
      steps:
        - step: main
          do:
            - let total = 0
            - for: i in [1, 2, 3]
              do:
                - for: j in [10, 20]
                  do: ["let total = total + i * j"]
            - let k = 0
            - while: k < 5
              do: ["let k = k + 1"]
            - if: k == 5
              then: ["set w = 1"]
              else: ["set w = 2"]
            - if: k != 5
              then: ["set w = 3"]
            - let up = 0
            - for: c in deck
              do: ["let up = up * 10 + c.rank"]
            - let down = 0
            - for: c in reversed(deck)
              do: ["let down = down * 10 + c.rank", "move top of deck to hand"]
            - let dealt = count(hand)
            # decisions inside for: every seat keeps one card of its own
            - move top of hand to hand(1)
            - move top of hand to hand(2)
            - for: p in seats
              do:
                - choose: keep
                  by: p
                  cards: hand(p)
                  count: 1
                - move keep to won(p)
            # decisions inside if
            - if: count(won(0)) == 1
              then:
                - choose: agree
                  from: [true, false]
            # a decision inside while: bidding goes round until every player passed in a row
            - let who = current
            - let passes = 0
            - while: passes < players
              do:
                - choose: act
                  by: who
                  options:
                    pass:
                      do: ["let passes = passes + 1"]
                    raise:
                      do: ["set bid = bid + 1", "set high = who", "let passes = 0"]
                - let who = next(who)
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""


def test_if_for_while_without_decisions(make):
    p = make(FLOW, 3)
    st = p.new_state(0)
    assert local(p, st, "total") == (1 + 2 + 3) * (10 + 20)
    assert local(p, st, "k") == 5
    assert var(p, st, "w") == 1
    assert local(p, st, "up") == 123                 # a zone is gone over bottom to top
    # the loop's list is taken once: moving cards inside does not shorten it
    assert local(p, st, "down") == 321
    assert local(p, st, "dealt") == 3


def test_decisions_inside_for_if_and_while(make):
    p = make(FLOW, 3)
    st = p.new_state(0)
    assert st.pending.name == "keep" and st.decider == 0 and texts(p, st) == ["keep: 1*n3"]
    do(p, st, "keep: 1*n3")
    assert st.decider == 1 and texts(p, st) == ["keep: 1*n1"]
    do(p, st, "keep: 1*n1")
    assert st.decider == 2 and texts(p, st) == ["keep: 1*n2"]
    do(p, st, "keep: 1*n2")
    assert [names(p, st, f"won({s})") for s in range(3)] == [["n3"], ["n1"], ["n2"]]
    assert st.pending.name == "agree" and sorted(texts(p, st)) == ["agree: false", "agree: true"]
    do(p, st, "agree: true")
    # the auction: raise, pass, raise, pass, pass, pass
    seq = [(0, "raise"), (1, "pass"), (2, "raise"), (0, "pass"), (1, "pass"), (2, "pass")]
    for seat, move in seq:
        assert st.pending.name == "act" and st.decider == seat and st.current == 0
        assert sorted(texts(p, st)) == ["pass", "raise"]
        do(p, st, move)
    assert st.pending.name == "go"
    assert var(p, st, "bid") == 2 and var(p, st, "high") == 2


# ---------------------------------------------------------------- around

AROUND = """
    name: around
    players: {min: 2, max: 5}
    vars:
      order: {initial: 0}
      start: {initial: 2}
      high: {initial: 0}
      leader: {initial: -1}
      passes: {initial: 0}
    turn:
      steps:
        - step: main
          do:
            # once round the table from a given seat: every seat has exactly one go
            - around: p
              from: start
              do: ["set order = order * 10 + p + 1"]
            # without from: starting with the current player
            - around: q
              do: ["let final = q"]
            # round and round until every other player has passed since the last raise
            - around: b
              from: start
              until: passes == players or leader >= 0 and passes == players - 1
              do:
                - choose: act
                  by: b
                  options:
                    raise:
                      do: ["set high = high + 1", "set leader = b", "set passes = 0"]
                    pass:
                      do: ["set passes = passes + 1"]
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""


@pytest.mark.parametrize("players, order", [(3, 312), (4, 3412), (5, 34512)])
def test_around_gives_every_seat_one_go_clockwise_from_the_start(make, players, order):
    p = make(AROUND, players)
    st = p.new_state(0)
    assert var(p, st, "order") == order
    assert local(p, st, "final") == players - 1        # from the current player (0) round to its right


def test_around_until_goes_on_for_more_rounds_and_stops_before_the_seat_it_would_ask(make):
    p = make(AROUND, 3)
    st = p.new_state(0)
    asked = []
    # 2 raises, 0 passes, 1 raises, 2 passes, 0 raises (its pass was not final), 1 and 2 pass
    for move in ["raise", "pass", "raise", "pass", "raise", "pass", "pass"]:
        assert st.pending.name == "act"
        asked.append(st.decider)
        do(p, st, move)
    assert asked == [2, 0, 1, 2, 0, 1, 2]
    assert st.pending.name == "go"                   # the leader (0) is not asked again
    assert var(p, st, "high") == 3 and var(p, st, "leader") == 0


def test_around_until_true_at_once_runs_no_go(make):
    p = make(edit(AROUND, "until: passes == players or", "until: true or"), 3)
    st = p.new_state(0)
    assert st.pending.name == "go" and var(p, st, "high") == 0


def test_around_until_everyone_passing_once(make):
    p = make(AROUND, 4)
    st = p.new_state(0)
    for seat in (2, 3, 0, 1):
        assert st.pending.name == "act" and st.decider == seat
        do(p, st, "pass")
    assert st.pending.name == "go" and var(p, st, "leader") == -1


def test_a_first_player_marker_that_moves_leads_the_next_turns(make):
    text = """
    name: marker
    players: {min: 3, max: 3}
    vars:
      leads: {initial: 1}
    turn:
      first: 1
      next: leads                # the marker, not the seat to the left
      steps:
        - step: main
          do:
            - if: turn % 2 == 0
              then: ["set leads = next(leads)"]
    end: {when: "turn >= 6"}
    score: 0
    """
    p = make(text, 3)
    st = p.new_state(0, log=True)
    # turns 1 and 2 are led by seat 1; the marker moves after turn 2, 4, 6
    assert [s for s, _ in turns(st)] == [1, 1, 2, 2, 0, 0]


TABLE_OPTIONS = """
    name: table options
    players: {min: 2, max: 2}
    cards:
      n:
        for: {colour: [red, blue], rank: [1, 2]}
        name: "{colour}{rank}"
        count: 2
        attrs: {counts_as: "[colour]"}
        start: deck
      wild: {count: 1, attrs: {counts_as: "['red', 'blue']"}, start: deck}
      lot: {count: 1, attrs: {colour: "'blue'"}, start: deck}
    zones:
      deck: {}
      shown: {visible: everyone}
      hand: {owner: each}
      bids: {owner: each, visible: everyone}
    vars:
      high: {initial: 2}
    setup:
      - move deck where kind == 'lot' to shown
      - move deck where kind != 'lot' to hand(1)
    turn:
      steps:
        - step: main
          do:
            - choose: act
              by: 1
              options:
                # only cards that count as the shown card's colour, enough to beat `high`
                offer:
                  cards: hand(1) where first(shown).colour in counts_as
                  min: high + 1 - count(bids(1))
                  do: ["move offer to bids(1)", "set high = count(bids(1))"]
                pass: {}
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""


def test_option_cards_and_their_least_number_follow_the_table(make):
    p = make(TABLE_OPTIONS, 2)
    st = p.new_state(0)
    # blue1 x2, blue2 x2 and the wild count as blue (red cards do not); at least 3 beat high = 2
    want = {"pass"}
    for a in range(3):
        for b in range(3):
            for w in range(2):
                if a + b + w >= 3:
                    terms = [f"{n}*{t}" for n, t in ((a, "blue1"), (b, "blue2"), (w, "wild")) if n]
                    want.add("offer: " + " + ".join(terms))
    assert set(texts(p, st)) == want
    do(p, st, "offer: 2*blue1 + 1*wild")
    assert var(p, st, "high") == 3 and names(p, st, "bids(1)") == ["blue1", "blue1", "wild"]


# ---------------------------------------------------------------- procedures

CALL = """
    name: call
    players: {min: 2, max: 2}
    vars:
      calls: {initial: 0}
      picked: {initial: 0}
      after: {initial: 0}
    procedures:
      bump: ["set calls = calls + 1", "call bump2"]
      bump2: ["set calls = calls + 10"]
      ask:
        - choose: pick
          from: [1, 2, 3]
        - set picked = picked + pick
        - call bump
      outer:
        - call ask
        - set picked = picked * 100
    turn:
      steps:
        - step: main
          do:
            - call bump
            - call ask
            - call outer
            - set after = calls * 2
    end: {when: "turn >= 1"}
    score: picked
"""


def test_call_procedures_with_and_without_decisions(make):
    p = make(CALL)
    st = p.new_state(0)
    assert var(p, st, "calls") == 11
    assert st.pending.name == "pick" and texts(p, st) == ["pick: 1", "pick: 2", "pick: 3"]
    do(p, st, "pick: 2")
    assert var(p, st, "picked") == 2 and var(p, st, "calls") == 22
    do(p, st, "pick: 3")          # from `outer`, which goes on after its call
    assert st.over
    assert var(p, st, "picked") == 500 and var(p, st, "calls") == 33 and var(p, st, "after") == 66
    # no moves once the game is over
    assert p.legal_moves(st) == []
    with pytest.raises(IllegalMove):
        p.play(st, (1,))


# ---------------------------------------------------------------- choosing cards

CHOOSE = """
    name: choose
    players: {min: 2, max: 2}
    cards:
      c:
        for: {suit: [red, blue], rank: [1, 2]}
        name: "{suit}:{rank}"
        count: "if rank == 2 then (if suit == 'red' then 1 else 0) else (if suit == 'red' then 3 else 2)"
        start: deck
    zones:
      deck: {}
      hand: {owner: each}
      out: {}
    turn:
      steps:
        - step: main
          do:
            - move deck to hand
            - choose: a
              cards: hand
              count: 2
            - choose: b
              cards: hand
              min: 0
              max: 1
            - choose: c
              cards: hand
            - choose: d
              cards: hand
              same: suit
            - choose: e
              cards: hand
              where: rank == 1
            - choose: f
              cards: hand
              count: 2
              same: suit
            - choose: g
              cards: hand
              where: suit == 'red'
              min: 2
              max: 3
            - choose: h
              cards: hand
              count: count(hand) - 4
            - move h to out
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""


def test_choose_cards_min_max_count_same_where_deduplicated_by_type(make):
    p = make(CHOOSE)
    st = p.new_state(0)
    # hand: 3 x red:1, 1 x red:2, 2 x blue:1
    assert names(p, st, "hand(0)") == ["red:1"] * 3 + ["red:2", "blue:1", "blue:1"]
    expected = {
        "a": ["2*red:1", "1*red:1 + 1*red:2", "1*red:1 + 1*blue:1", "1*red:2 + 1*blue:1", "2*blue:1"],
        "b": ["nothing", "1*red:1", "1*red:2", "1*blue:1"],
        "c": 4 * 2 * 3 - 1,                 # every non-empty multiset
        "d": (4 * 2 - 1) + 2,               # one suit only
        "e": 4 * 3 - 1,                     # red:1 and blue:1 only
        "f": ["2*red:1", "1*red:1 + 1*red:2", "2*blue:1"],
        "g": ["2*red:1", "3*red:1", "1*red:1 + 1*red:2", "2*red:1 + 1*red:2"],
        "h": 5,                             # count is an expression: 6 - 4 = 2
    }
    for name in "abcdefgh":
        assert st.pending.name == name
        got = texts(p, st)
        assert len(got) == len(set(got)), f"{name}: duplicate moves {got}"
        want = expected[name]
        if isinstance(want, int):
            assert len(got) == want, f"{name}: {got}"
        else:
            assert sorted(got) == sorted(f"{name}: {w}" for w in want)
        if name != "h":
            p.play(st, p.legal_moves(st)[0])
    hand_ids = ids(p, st, "hand(0)")
    do(p, st, "h: 2*red:1")
    # interchangeable cards: the topmost of the type are taken
    assert ids(p, st, "out") == hand_ids[1:3]
    assert names(p, st, "hand(0)") == ["red:1", "red:2", "blue:1", "blue:1"]


def test_choose_from_a_list_with_where(make):
    text = """
    name: values
    players: {min: 3, max: 3}
    params:
      limit: 1
      colours: [red, blue, green]
    vars:
      got: {initial: 0}
    cards:
      x: {count: 1, start: pile_blue}
    zones:
      pile_blue: {}
      pile: {per: colours}
    turn:
      steps:
        - step: main
          do:
            - "move pile_blue to pile['blue']"
            - choose: n
              from: [1, 2, 3, 4, 5, 6, 4]
              where: n % 2 == 0 and n > limit
            - set got = n
            - choose: col
              from: colours
              where: count(pile[col]) > 0
            - choose: who
              from: seats
              where: who != current
            - choose: any_col
              from: colours
    end: {when: "turn >= 1"}
    score: 0
    """
    p = make(text, 3)
    st = p.new_state(0)
    assert texts(p, st) == ["n: 2", "n: 4", "n: 6"]        # a repeated value is one move
    do(p, st, "n: 4")
    assert var(p, st, "got") == 4
    assert texts(p, st) == ["col: blue"]
    do(p, st, "col: blue")
    assert texts(p, st) == ["who: 1", "who: 2"]
    do(p, st, "who: 2")
    assert texts(p, st) == ["any_col: red", "any_col: blue", "any_col: green"]
    assert local(p, st, "n") == 4 and local(p, st, "col") == "blue" and local(p, st, "who") == 2


OPTIONS = """
    name: options
    players: {min: 3, max: 3}
    vars:
      was: {initial: 0}
    cards:
      n:
        for: {rank: [1, 2, 3, 4, 5, 6, 7, 8]}
        name: "n{rank}"
        start: deck
    zones:
      deck: {}
      hand: {owner: each}
      won: {owner: each}
    turn:
      steps:
        - step: main
          do:
            - move top 2 of deck to hand(next(current))
            - move top of deck to hand
            - choose: action
              by: next(current)
              options:
                pass: {}
                give:
                  cards: hand(next(current))
                  count: 1
                  do: ["move give to won", "set was = 10"]
            - set was = was + (if action == 'give' then 1 else 2)
            - choose: mine
              options:
                keep: {}
                swap:
                  cards: hand
                  where: rank > 5
                  min: 0
                  max: 1
                  do: ["move swap to won(next(current))"]
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 2"}
    score: count(won)
"""


def test_choose_options_with_cards_plain_options_and_by(make):
    p = make(OPTIONS, 3)
    st = p.new_state(0)
    assert st.pending.name == "action"
    assert st.current == 0 and st.decider == 1                 # `by` hands the decision on
    assert sorted(texts(p, st)) == ["give: 1*n7", "give: 1*n8", "pass"]
    do(p, st, "give: 1*n8")
    assert names(p, st, "won(0)") == ["n8"]                   # `won` is still the current player's
    assert names(p, st, "hand(1)") == ["n7"]
    assert var(p, st, "was") == 11
    assert local(p, st, "action") == "give"
    assert st.decider == 0 and sorted(texts(p, st)) == ["keep", "swap: 1*n6", "swap: nothing"]
    do(p, st, "swap: 1*n6")
    assert names(p, st, "won(1)") == ["n6"]
    ok(p, st)
    # turn 2: seat 1 plays, seat 2 decides
    assert st.current == 1 and st.decider == 2
    do(p, st, "pass")
    assert var(p, st, "was") == 13 and local(p, st, "action") == "pass"


# ---------------------------------------------------------------- move texts

def test_canonical_texts_and_parse_move_forgiving_spaces_case_and_order(make):
    p = make(CHOOSE)
    st = p.new_state(0)
    want = p.parse_move(st, "a: 1*red:1 + 1*blue:1")
    assert p.move_text(st, want) == "a: 1*red:1 + 1*blue:1"
    for typed in ["A:1*RED:1+1*BLUE:1", "  a :  1 * red:1  +  1 * blue:1 ", "a: 1×red:1 + 1×blue:1",
                  "a: 1*blue:1 + 1*red:1", "a:1*BLUE:1+1*red:1"]:
        assert p.parse_move(st, typed) == want, typed
    for bad in ["a: 3*blue:1", "a: 1*red:1", "b: 1*red:1 + 1*blue:1", "a: 1*red:1 + 1*blue:1 + 1*red:2", ""]:
        with pytest.raises(IllegalMove):
            p.parse_move(st, bad)
    # every legal move's canonical text parses back to that move
    for m in p.legal_moves(st):
        assert p.parse_move(st, p.move_text(st, m)) == m
    q = make(OPTIONS, 3)
    st = q.new_state(0)
    assert q.parse_move(st, " Give : 1 × N8 ") == q.parse_move(st, "give: 1*n8")
    assert q.move_text(st, q.parse_move(st, "PASS")) == "pass"


def test_illegal_move_is_refused_and_changes_nothing(make):
    p = make(CHOOSE)
    st = p.new_state(0)
    before = st.clone()
    legal = p.legal_moves(st)
    illegal = ((p.type_index["blue:1"], 3),)
    assert illegal not in legal
    with pytest.raises(IllegalMove):
        p.play(st, illegal)
    with pytest.raises(IllegalMove):
        p.play(st, ((p.type_index["red:1"], 1),))          # count: 2 needs two cards
    assert st == before and st.moves == 0 and p.legal_moves(st) == legal
    do(p, st, "a: 2*red:1")
    assert st.moves == 1 and st.pending.name == "b"


# ---------------------------------------------------------------- the turn

def test_extra_turn_same_player_again_and_turns_counted(make):
    text = """
    name: extra
    players: {min: 2, max: 2}
    vars:
      took: {owner: each, initial: 0}
      latest: {initial: 0}
    turn:
      steps:
        - step: main
          do:
            - set took = took + 1
            - if: took == 1
              then: ["extra turn", "extra turn"]
            - set latest = turn
    end: {when: "turn >= 5"}
    score: took
    """
    p = make(text)
    st = p.new_state(0, log=True)
    assert st.over
    assert turns(st) == [(0, 1), (0, 2), (1, 3), (1, 4), (0, 5)]      # twice in a turn: one extra turn
    assert st.turn == 5 and var(p, st, "latest") == 5
    assert [var(p, st, "took", s) for s in range(2)] == [3, 2]


@pytest.mark.parametrize("first, nxt, seats", [
    ("players - 1", "prev(current)", [2, 1, 0, 2, 1, 0]),
    ("0", "current + 2", [0, 2, 1, 0, 2, 1]),                  # taken modulo the number of players
    ("1", None, [1, 2, 0, 1, 2, 0]),                           # default: next seat clockwise
])
def test_turn_first_and_next(make, first, nxt, seats):
    text = f"""
    name: order
    players: {{min: 3, max: 3}}
    vars:
      starter: {{initial: -1}}
      setup_turn: {{initial: -1}}
    setup:
      - set starter = current
      - set setup_turn = turn
    turn:
      first: "{first}"
      {'next: "' + nxt + '"' if nxt else ''}
      steps:
        - step: main
          do:
            - let t = turn
    end: {{when: "turn >= 6"}}
    score: 0
    """
    p = make(text, 3)
    st = p.new_state(0, log=True)
    assert [s for s, _ in turns(st)] == seats
    assert var(p, st, "starter") == seats[0]       # setup runs with the first player as current
    assert var(p, st, "setup_turn") == 0


END = """
    name: end
    players: {min: 2, max: 2}
    vars:
      done: {initial: false}
      a: {initial: 0}
      b: {initial: 0}
      c: {initial: 0}
      d: {initial: 0}
      e: {initial: 0}
    cards:
      x: {count: 1, start: spare}
    zones:
      deck:
        on_empty: ["move spare to deck", "set done = turn == 3"]
      spare: {}
      hand: {owner: each}
    procedures:
      finish_it: ["set done = turn == 3"]
      ask_then_finish:
        - choose: sure
          from: [1]
        - set done = turn == 3
    turn:
      steps:
        - step: one
          do: ["set a = a + 1"]
        - step: two
          do:
            - HOW
            - set b = b + 1
        - step: three
          do: ["set c = c + 1"]
        - step: four
          do: ["set d = d + 1"]
        - set e = e + 1
    end:
      when: done
      finish: [four]
    score: d
"""

HOW = {
    "direct": "set done = turn == 3",
    "if": '{if: "turn == 3", then: ["set done = true"]}',
    "for": '{for: "t in [3]", do: ["set done = turn == t"]}',
    "procedure": "call finish_it",
    "procedure with a decision": "call ask_then_finish",
    "option": '{choose: o, options: {fine: {do: ["set done = turn == 3"]}}}',
    "on_empty trigger": '{if: "turn == 3", then: ["move top of deck to hand"]}',
}


@pytest.mark.parametrize("how", list(HOW))
def test_end_when_sees_a_variable_set_in_a_step_and_finish_steps_still_run(make, how):
    p = make(edit(END, "- HOW", "- " + HOW[how]))
    st = p.new_state(0, log=True)
    while not st.over:
        p.play(st, p.legal_moves(st)[0])
    assert var(p, st, "done") is True
    # the game ends at the end of turn 3: step three and the unnamed statement are skipped,
    # the finish step four still runs, and nobody plays on
    assert turns(st) == [(0, 1), (1, 2), (0, 3)]
    assert (var(p, st, "a"), var(p, st, "b"), var(p, st, "c"), var(p, st, "d"), var(p, st, "e")) == (3, 3, 2, 3, 2)
    assert st.log[-1] == (E.END,)


@pytest.mark.parametrize("reads", ["my zone", "my variable"])
def test_end_condition_about_me_sees_the_current_player_change(make, reads):
    """`hand` and `coins` in `when` are the current player's: a new turn can make it true
    although no step touches them."""
    text = """
    name: mine
    players: {min: 2, max: 2}
    vars:
      coins: {owner: each, initial: "me * 3"}
    cards:
      x: {count: 9, start: deck}
    zones:
      deck: {}
      discard: {}
      hand: {owner: each}
    setup:
      - move top of deck to hand(0)
    turn:
      steps:
        - step: main
          do: ["move top of deck to discard"]
    end: {when: WHEN}
    score: 0
    """
    when = "count(hand) == 0" if reads == "my zone" else "coins >= 3"
    p = make(edit(text, "WHEN", f'"{when}"'))
    st = p.new_state(0, log=True)
    # seat 0 holds a card and has 0 coins; seat 1 holds none and has 3: the game ends after turn 2
    assert st.over and turns(st) == [(0, 1), (1, 2)]
    assert len(ids(p, st, "discard")) == 2


def test_end_game_statement_and_when_not_checked_during_setup(make):
    text = edit(END, "- HOW", '- {if: "turn == 2", then: ["end game", "set e = 100"]}')
    p = make(text)
    st = p.new_state(0, log=True)
    # `end game` in turn 2: the rest of the step still runs; three and the unnamed step are skipped
    assert st.over and turns(st) == [(0, 1), (1, 2)]
    assert (var(p, st, "a"), var(p, st, "b"), var(p, st, "c"), var(p, st, "d"), var(p, st, "e")) == (2, 2, 1, 2, 100)


@pytest.mark.parametrize("how", ["set in setup", "constant"])
def test_end_condition_true_from_the_start_still_runs_the_first_step(make, how):
    """`when` is checked after every top-level step, also when no step changes what it reads."""
    text = edit(END, "- HOW", "- set e = e")
    if how == "set in setup":
        text = edit(text, "    turn:\n", '    setup: ["set done = true"]\n    turn:\n')
    else:
        text = edit(text, "when: done", 'when: "true"')
    p = make(text)
    st = p.new_state(0, log=True)
    assert st.over and turns(st) == [(0, 1)]
    assert (var(p, st, "a"), var(p, st, "b"), var(p, st, "c"), var(p, st, "d")) == (1, 0, 0, 1)


# ---------------------------------------------------------------- expressions

EXPRESSIONS = {
    # name: (expression, expected value)
    "sum_gen": ("sum(x for x in L if x > 2)", 12),
    "sum_list": ("sum(L)", 12),
    "sum_empty": ("sum(x for x in L if x > 100)", 0),
    "count_gen": ("count(x for x in L if x % 2 == 1)", 4),
    "count_list": ("count(L)", 5),
    "size_list": ("size(L)", 5),
    "count_zone": ("count(deck where rank > 1)", 2),
    "any_true": ("any(x < 0 for x in L)", True),
    "any_false": ("any(x > 9 for x in L)", False),
    "all_true": ("all(x < 9 for x in L)", True),
    "all_false": ("all(x < 5 for x in L)", False),
    "min_list": ("min(L)", -1),
    "max_list": ("max(L)", 5),
    "min_args": ("min(3, 7, 2)", 2),
    "max_args": ("max(3, 7, 2)", 7),
    "max_gen": ("max(x * 2 for x in L)", 10),
    "min_empty": ("min(x for x in L if x > 100)", 0),
    "max_seats": ("max(count(hand(p)) for p in seats)", 0),
    "first_l": ("first(L)", 3),
    "last_l": ("last(L)", 5),
    "reversed_l": ("reversed(L)", [5, 1, 4, -1, 3]),
    "first_rev": ("first(reversed(L))", 5),
    "rev_cards": ("reversed(deck).rank", [3, 2, 1]),
    "first_card": ("first(deck).rank", 1),
    "last_card": ("last(deck).rank", 3),
    "next_last": ("next(2)", 0),
    "prev_first": ("prev(0)", 2),
    "next_cur": ("next(current)", 1),
    "abs_neg": ("abs(-7)", 7),
    "abs_pos": ("abs(4 - 1)", 3),
    "pos_of": ("index_of(L, 4)", 2),
    "pos_of_first": ("index_of([5, 7, 5], 5)", 0),
    "pos_of_text": ("index_of(suits, 'red')", 0),
    "div": ("7 / 2", 3),
    "div_neg": ("-7 / 2", -4),
    "mod": ("7 % 2", 1),
    "mod_neg": ("-7 % 3", 2),
    "precedence": ("2 + 3 * 4 - 10 / 3", 11),
    "in_list": ("3 in L", True),
    "not_in_list": ("2 not in L", True),
    "in_text": ("'red' in suits", True),
    "not_in_text": ("'gold' not in suits", True),
    "card_in_zone": ("first(deck) in deck", True),
    "card_not_in_zone": ("first(deck) not in hand", True),
    "index": ("L[2]", 4),
    "if_else": ("if 1 > 2 then 1 else 2 + 3", 5),
    "not_cmp": ("not 1 > 2", True),
    "and_or": ("1 > 2 or 2 > 1 and 3 > 2", True),
    "fn_pure": ("pair(1, 2)", 12),
    "fn_nonpure": ("pair(L[0], first(L))", 33),
    "fn_nested": ("inc_double(4)", 9),
    "fn_bare": ("seven", 7),
    "fn_call": ("seven() + 1", 8),
    "fn_gen": ("sum(pair(x, 1) for x in L)", 125),
    "fn_zone": ("ranks_over(1)", 5),
    "n_players": ("players", 3),
    "all_seats": ("seats", [0, 1, 2]),
    "gen_over_filter": ("sum(c.rank for c in (deck where rank != 2))", 4),
    "attr_list": ("deck.rank", [1, 2, 3]),
}


def expressions_ruleset() -> str:
    lets = "\n".join(f"            - let {name} = {expr}" for name, (expr, _) in EXPRESSIONS.items())
    return """
    name: expressions
    players: {min: 3, max: 3}
    params:
      L: [3, -1, 4, 1, 5]
      suits: [red, blue]
    functions:
      pair(a, b): a * 10 + b
      inc_double(x): pair(0, x) * 2 + 1
      seven: "7"
      ranks_over(r): sum((deck where rank > r).rank)
    cards:
      n:
        for: {rank: [1, 2, 3]}
        name: "n{rank}"
        start: deck
    zones:
      deck: {}
      hand: {owner: each}
    turn:
      steps:
        - step: main
          do:
""" + lets + """
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
"""


def test_expressions_functions_and_generators(make):
    p = make(expressions_ruleset(), 3)
    st = p.new_state(0)
    got = {name: local(p, st, name) for name in EXPRESSIONS}
    assert got == {name: want for name, (_, want) in EXPRESSIONS.items()}


@pytest.mark.parametrize("expr, message", [
    ("1 / (players - 3)", "division by zero"),
    ("1 % (players - 3)", "division by zero"),
    ("L[players + 2]", "outside the list"),
    ("L[0 - 1]", "outside the list"),
    ("index_of(L, 99)", "99 is not in the list"),
])
def test_run_time_errors_in_expressions_name_the_rule(make, expr, message):
    text = edit(expressions_ruleset(), "            - let sum_gen", f"            - let oops = {expr}\n"
                                                                        "            - let sum_gen")
    p = make(text, 3)
    with pytest.raises(RuleRuntimeError, match=message) as exc:
        p.new_state(0)
    # the error points at the rule that failed
    line = textwrap.dedent(text).splitlines().index(f"        - let oops = {expr}") + 1
    assert exc.value.pos is not None, f"no position in {exc.value}"
    assert exc.value.pos.file.endswith("rules.yaml") and exc.value.pos.line == line


def test_functions_with_parameters_and_names_local_to_generators(make):
    text = """
    name: functions
    players: {min: 3, max: 3}
    params: {L: [3, -1, 4, 1, 5]}
    cards:
      n:
        for: {rank: [1, 2, 3, 4, 5, 6]}
        name: "n{rank}"
        start: deck
    zones:
      deck: {}
      won: {owner: each}
    functions:
      won_count(q): count(won(q))
      ranks_over(r): sum((deck where rank > r).rank)
      best(q): max(c.rank for c in won(q))
    turn:
      steps:
        - step: main
          do:
            - move top 2 of deck to won(1)
            - let g = 100
            - let s_g = sum(g for g in L)
            - let g_after = g
            - for: i in [1, 2, 3]
              do: ["let z = i * 2"]
            - let i_after = i
            - let wc = won_count(next(current))
            - let wc0 = won_count(0)
            - let ro = ranks_over(L[3])
            - let b1 = best(next(current))
            - let n1 = sum(won_count(p) for p in seats)
            - let n2 = sum(best(p) for p in seats)
            - let n3 = count(p for p in seats if won_count(p) > 0 and best(p) > 5)
            - {choose: go, options: {ok: {}}}
    end: {when: "turn >= 1"}
    score: 0
    """
    p = make(text, 3)
    st = p.new_state(0)
    got = {k: local(p, st, k) for k in ("s_g", "g_after", "i_after", "z", "wc", "wc0", "ro", "b1", "n1", "n2", "n3")}
    assert got == {"s_g": 12, "g_after": 100,          # a generator's name is local to it
                   "i_after": 3, "z": 6,               # a for loop's name keeps its last value
                   "wc": 2, "wc0": 0, "ro": 2 + 3 + 4, "b1": 6, "n1": 2, "n2": 6, "n3": 1}


SCORE = """
    name: score
    players: {min: 4, max: 4}
    params:
      pts: PTS
      most_of: MOST
      fewest_of: FEWEST
    vars:
      p: {owner: each, initial: "pts[me]"}
      m: {owner: each, initial: "most_of[me]"}
      f: {owner: each, initial: "fewest_of[me]"}
    functions:
      bonus(k): if me == k then 1000 else 0
    turn:
      steps: ["let z = 0"]
    end: {when: "turn >= 1"}
    score: p + bonus(9)
    tiebreak:
      - most: m
      - fewest: f
"""


@pytest.mark.parametrize("pts, most, fewest, winners", [
    ([5, 5, 5, 2], [1, 3, 3, 9], [0, 2, 2, 0], [1, 2]),      # still tied after the chain: shared victory
    ([5, 5, 5, 2], [1, 3, 3, 9], [0, 2, 1, 0], [2]),         # fewest decides between seats 1 and 2
    ([5, 5, 5, 2], [4, 3, 3, 9], [9, 0, 0, 0], [0]),         # most decides first
    ([1, 5, 2, 2], [0, 0, 9, 9], [0, 9, 0, 0], [1]),         # the best score wins outright
    ([3, 3, 3, 3], [1, 1, 1, 1], [2, 2, 2, 2], [0, 1, 2, 3]),
])
def test_tiebreak_chain_most_fewest_then_shared_victory(make, pts, most, fewest, winners):
    text = SCORE.replace("PTS", str(pts)).replace("MOST", str(most)).replace("FEWEST", str(fewest))
    p = make(text, 4)
    st = p.new_state(0)
    result = p.result(st)
    assert result["scores"] == pts
    assert result["winners"] == winners


def test_score_is_worked_out_with_me_as_the_scored_player(make):
    text = """
    name: me
    players: {min: 3, max: 3}
    cards:
      n:
        for: {rank: [1, 2, 3, 4, 5, 6, 7]}
        name: "n{rank}"
        start: deck
    zones:
      deck: {}
      hand: {owner: each}
    functions:
      mine: sum(hand.rank)
      more_than(q): count(hand) > count(hand(q))
    turn:
      steps:
        - step: main
          do:
            - deal 2 from deck to hand
            - move top of deck to hand(2)
    end: {when: "turn >= 1"}
    score: mine * 10 + me + count(q for q in seats if more_than(q))
    bots:
      eval: 0 - mine
    """
    p = make(text, 3)
    st = p.new_state(0)
    # dealt from the top (n7) round the table from seat 0; seat 2 gets the last card too
    assert [names(p, st, f"hand({s})") for s in range(3)] == [["n7", "n4"], ["n6", "n3"], ["n5", "n2", "n1"]]
    want = [11 * 10 + 0 + 0, 9 * 10 + 1 + 0, 8 * 10 + 2 + 2]
    assert [p.score(st, s) for s in range(3)] == want
    assert [p.evaluate(st, s) for s in range(3)] == [-11, -9, -8]
    assert p.result(st)["scores"] == want and p.result(st)["winners"] == [0]
    assert st.me == 0          # scoring puts `me` back


# ---------------------------------------------------------------- records

RECORDED = """
    name: recorded
    players: {min: 2, max: 3}
    cards:
      n:
        for: {rank: [1, 2, 3, 4, 5, 6]}
        name: "n{rank}"
        count: 2
        start: deck
    zones:
      deck:
        visible: nobody
        on_empty: ["move discard to deck", "shuffle deck"]
      discard: {}
      hand: {owner: each}
      won: {owner: each, visible: everyone}
    setup:
      - shuffle deck
      - deal 2 from deck to hand
    turn:
      steps:
        - step: main
          do:
            - move top of deck to hand
            - choose: play
              cards: hand
              count: 1
            - if: first(play).rank >= 6
              then: ["move play to won"]
              else: ["move play to discard"]
    end: {when: "turn >= 12"}
    score: sum(won.rank)
"""


def test_a_record_replays_and_a_tampered_record_fails(write):
    game = load_game(write(RECORDED))

    def bots():
        return [make_bot("random", 1), make_bot("greedy", 2), make_bot("random", 3)]
    record = make_record(game, 3, 7, bots(), ["random", "greedy", "random"])
    assert len(record["moves"]) == 12 and len(record["chance"]) >= 2      # setup shuffle + reshuffles
    assert record["chance"][0]["zone"] == "deck" and len(record["chance"][0]["order"]) == 12
    assert replay(game, record) == record["result"]
    # the same seed and bots play the same game
    assert make_record(game, 3, 7, bots(), ["random", "greedy", "random"]) == record

    # a well-formed move of a card type the first decider does not hold
    program = game.program(3)
    script = [(program.zone_names.index(c["zone"]), [program.type_index[t] for t in c["order"]])
              for c in record["chance"]]
    st = program.new_state(7, script=script)
    held = {program.type_names[program.card_type[c]] for c in st.zones[program.zone_names.index("hand(0)")]}
    absent = next(f"n{r}" for r in range(1, 7) if f"n{r}" not in held)

    def tampered(change):
        bad = copy.deepcopy(record)
        change(bad)
        return bad

    bad_records = {
        "a card not held": tampered(lambda r: r["moves"][0].update(move=f"play: 1*{absent}")),
        "two cards for one": tampered(lambda r: r["moves"][0].update(move="play: 2*n1")),
        "an unknown card": tampered(lambda r: r["moves"][3].update(move="play: 1*n9")),
        "the wrong seat": tampered(lambda r: r["moves"][1].update(seat=(r["moves"][1]["seat"] + 1) % 3)),
        "a move missing": tampered(lambda r: r["moves"].pop()),
        "a move too many": tampered(lambda r: r["moves"].append(dict(r["moves"][-1]))),
        "a shuffle of an unknown card": tampered(lambda r: r["chance"][0]["order"].__setitem__(0, "n9")),
        "a shuffle of other cards": tampered(lambda r: r["chance"][0].update(order=["n1"] * 12)),
        "a shuffle with a card too few": tampered(lambda r: r["chance"][0]["order"].pop()),
        "no shuffles": tampered(lambda r: r["chance"].clear()),
        "a shuffle of another zone": tampered(lambda r: r["chance"][0].update(zone="discard")),
        "no moves field": tampered(lambda r: r.pop("moves")),
    }
    for what, bad in bad_records.items():
        try:
            replay(game, bad)
        except RecordError:
            continue
        pytest.fail(f"a record with {what} replayed without an error")


def test_play_game_plays_the_same_game_each_time_and_its_moves_replay_it(write):
    results = []
    for _ in range(2):          # loaded and compiled afresh each time
        game = load_game(write(RECORDED))
        program, st, moves = play_game(game, 2, 11, [make_bot("greedy", 1), make_bot("random", 2)], record=True)
        assert st.over and st.turn == 12
        results.append((program.result(st), moves))
        # the moves, played by their text on the recorded shuffles, give the same game
        again = program.new_state(11, script=st.chance)
        for seat, text in moves:
            assert again.decider == seat
            program.play(again, program.parse_move(again, text))
        # (a replayed shuffle takes interchangeable cards of a type in id order: compare types)
        types = [[program.card_type[c] for c in z] for z in st.zones]
        assert again.over and [[program.card_type[c] for c in z] for z in again.zones] == types
        assert (again.turn, again.moves, program.result(again)) == (st.turn, st.moves, program.result(st))
    assert results[0] == results[1]


# ---------------------------------------------------------------- the deterministic setup prefix

PREFIX = """
    name: prefix
    players: {min: 2, max: 3}
    params:
      stack: [3, 1, 2]
    vars:
      total: {initial: 0}
    cards:
      n:
        for: {rank: [1, 2, 3, 4, 5, 6, 7, 8]}
        name: "n{rank}"
        start: box
      d:
        for: {v: [1, 2, 3, 4, 5, 6, 7, 8]}
        name: "d{v}"
        start: deck
    zones:
      box: {visible: nobody}
      pile: {}
      side: {}
      spare: {}
      deck: {visible: nobody}
      hand: {owner: each}
    setup:
      - for: r in stack
        do: ["move top of box where rank == r to pile"]
    STACKING
      - set total = sum(pile.rank)
      - shuffle deck
      - deal 2 from deck to hand
      - set total = total + count(deck)
    turn:
      steps:
        - step: main
          do:
            - choose: c
              cards: hand
              count: 1
            - move c to pile
    end: {when: "turn >= 4"}
    score: sum(hand.rank)
"""

# The statements between the stacking loop and `set total`, the length of the prefix (every
# statement before `shuffle deck`), and the stacked cards: zone -> names, bottom to top.
PREFIX_VARIANTS = {
    "where only": ("""\
      - move box where rank >= 7 to side
""", 3, {"pile": ["n3", "n1", "n2"], "side": ["n7", "n8"], "box": ["n4", "n5", "n6"]}),
    "top, bottom and deal": ("""\
      - move top 2 of box to side
      - move bottom of box to side
      - deal 1 from box to hand
      - move box to spare
""", 6, {"pile": ["n3", "n1", "n2"], "side": ["n8", "n7", "n4"], "box": [], "spare": []}),
}


def prefix_game(write, variant: str) -> tuple:
    stacking, length, stacked = PREFIX_VARIANTS[variant]
    return load_game(write(edit(PREFIX, "    STACKING\n", stacking))), length, stacked


@pytest.mark.parametrize("variant", list(PREFIX_VARIANTS))
def test_deterministic_setup_prefix_stacks_the_same_cards_in_every_game(write, variant):
    game, length, stacked = prefix_game(write, variant)
    for players in (2, 3):
        p = game.program(players)
        assert p.prefix == length                      # every statement before `shuffle deck`
        states = [p.new_state(seed) for seed in range(6)]
        for st in states:
            for zone, want in stacked.items():
                assert names(p, st, zone) == want, zone
            if variant == "top, bottom and deal":      # the box then held n5, n6: one each
                assert names(p, st, "hand(0)")[0] == "n6" and names(p, st, "hand(1)")[0] == "n5"
            assert var(p, st, "total") == 6 + 8 - 2 * players
        # the shuffle after the prefix differs across seeds
        assert len({tuple(names(p, st, "deck")) for st in states}) > 1


@pytest.mark.parametrize("variant", list(PREFIX_VARIANTS))
def test_deterministic_setup_prefix_gives_the_same_state_as_running_it(write, monkeypatch, variant):
    game, _, _ = prefix_game(write, variant)
    for players in (2, 3):
        cached = game.program(players)
        monkeypatch.setattr(build, "deterministic_prefix", lambda rules: 0)
        full = build.compile_program(game.rules, players)      # runs the whole setup in every game
        monkeypatch.undo()
        assert full.prefix == 0
        for seed in range(4):
            a, b = cached.new_state(seed, log=True), full.new_state(seed, log=True)
            assert a.pending.index == b.pending.index
            b.pending = a.pending
            assert a == b and a.log == b.log
            for _ in range(3):                        # and they stay the same through play
                m = cached.legal_moves(a)[0]
                cached.apply(a, m)
                full.apply(b, m)
                b.pending = a.pending
                assert a == b


@pytest.mark.parametrize("variant", list(PREFIX_VARIANTS))
def test_setup_prefix_stays_the_same_across_seeds_and_games_played(write, variant):
    game, _, _ = prefix_game(write, variant)
    for players in (2, 3):
        played, fresh = game.program(players), build.compile_program(game.rules, players)
        for seed in range(4):
            a = played.new_state(seed, log=True)
            while not a.over:                       # a game played to its end leaves the prefix as it was
                played.apply(a, played.legal_moves(a)[-1])
            a, b = played.new_state(seed, log=True), fresh.new_state(seed, log=True)
            assert a.pending.index == b.pending.index
            b.pending = a.pending
            assert a == b and a.log == b.log


# ---------------------------------------------------------------- run-time guards

def test_a_while_true_loop_without_decisions_stops_with_an_error(make):
    text = """
    name: forever
    players: {min: 2, max: 2}
    turn:
      steps:
        - step: main
          do:
            - let k = 0
            - while: true
              do: ["let k = k + 1"]
    end: {when: "turn >= 1"}
    score: 0
    """
    p = make(text)
    t = time.perf_counter()
    with pytest.raises(RuleRuntimeError, match="never ends"):
        p.new_state(0)
    assert time.perf_counter() - t < 10


def test_a_loop_around_a_decision_that_is_never_asked_stops_with_an_error(make):
    text = """
    name: forever2
    players: {min: 2, max: 2}
    turn:
      steps:
        - step: main
          do:
            - while: true
              do:
                - if: false
                  then:
                    - choose: never
                      from: [1]
    end: {when: "turn >= 1"}
    score: 0
    """
    p = make(text)
    t = time.perf_counter()
    with pytest.raises(RuleRuntimeError, match="never ends"):
        p.new_state(0)
    assert time.perf_counter() - t < 10


def test_an_end_condition_never_true_stops_after_the_turn_limit(make):
    text = """
    name: endless
    players: {min: 2, max: 2}
    turn:
      steps: ["let k = turn"]
    end: {when: "false"}
    score: 0
    """
    p = make(text)
    t = time.perf_counter()
    with pytest.raises(RuleRuntimeError, match="turns"):
        p.new_state(0)
    assert time.perf_counter() - t < 10
