"""Per-seat views and perfect-memory knowledge (interpreter/seats/views.py), on R-Eco.

The rules under test: the knowledge model of docs/language.md §11 "Events and visibility" and
the rule sheet's last section ("What each player sees"; described in docs/games.md, R-Eco,
"What each player knows").
Scenarios fix the deal with helpers.dealt (draw order: hands one card at a time from seat 0, then
the dump sites cans, glass, plastic, paper, then the refills) and play moves by their text;
expected knowledge is worked out by hand in the comments.
"""
import collections
import random

import pytest

from interpreter.runtime.engine import DECIDE, END, MOVE, SET, SHUFFLE, TURN
from interpreter.errors import IllegalMove
from interpreter.runtime.events import for_seat
from interpreter.seats.views import Observer, View, view_of
from helpers import RECYCLING, bots, dealt, do, program, start, zone_index


def named(prog, counts) -> dict:
    """{type index: n} -> {type name: n}."""
    return {prog.type_names[t]: n for t, n in dict(counts).items()}


def real_types(prog, st, zone) -> list:
    """The zone's card types bottom to top, from the real state (tests only)."""
    z = zone if isinstance(zone, int) else zone_index(prog, zone)
    return [prog.card_type[c] for c in st.zones[z]]


def recycling_types(prog) -> dict:
    return {prog.type_index[n]: k for n, k in RECYCLING.items()}


def play_random(prog, seed: int, record: bool = False, kind: str = "random"):
    """A whole seeded bot game with its event log; returns (state, move texts)."""
    st = prog.new_state(seed, log=True, record=record)
    players = bots(kind, prog.players, seed)
    texts = []
    while not st.over:
        move = players[st.decider].choose(prog, st, prog.legal_moves(st))
        texts.append(prog.move_text(st, move))
        prog.apply(st, move)
    return st, texts


def check_sound(prog, st, view: View) -> None:
    """Everything the view claims is true of the real state, and seen zones are exact."""
    for z, label in enumerate(prog.zone_names):
        real = real_types(prog, st, z)
        assert view.size(z) == len(real), label
        for i, t in view.known_positions(z).items():
            assert real[i] == t, f"{label}: position {i} is {real[i]}, the view says {t}"
        have = collections.Counter(real)
        k = view.known_cards(z)
        assert not k - have, f"{label}: K {named(prog, k)} is not in {named(prog, have)}"
        over = {t: n for t, n in view.at_most(z).items() if have[t] > n}
        assert not over, f"{label}: holds more than the upper bounds {named(prog, over)} allow"
        could = collections.Counter(view.could_be_in(z))
        assert not have - could, f"{label}: {named(prog, have - could)} is there but not in could_be_in"
        if view.sees(z):
            assert view.cards(z) == real, label        # known exactly, in order
            assert view.unknown(z) == 0


# ---------------------------------------------------------------- what each seat is shown

@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_each_seat_sees_its_own_hand_and_only_the_sizes_of_other_hands(players):
    types = list(RECYCLING)
    hands = [[types[(3 * p + r) % 8] for r in range(3)] for p in range(players)]
    prog, st = dealt(players, hands, ["cans:1", "glass:2", "plastic:1", "paper:2"], log=True)
    for seat in range(players):
        view = view_of(prog, st.log, seat)
        assert view.turn == 1 and view.current == 0 and not view.over
        for p in range(players):
            hand = f"hand({p})"
            assert view.size(hand) == 3
            if p == seat:
                assert view.cards(hand) == real_types(prog, st, hand)
                assert named(prog, view.known_cards(hand)) == dict(collections.Counter(hands[p]))
            else:
                assert view.cards(hand) == [None, None, None]
                assert view.known_cards(hand) == {} and view.unknown(hand) == 3
                assert view.known_positions(hand) == {}
        for m, top in zip(("cans", "glass", "plastic", "paper"), ("cans:1", "glass:2", "plastic:1", "paper:2")):
            assert [prog.type_names[t] for t in view.cards(f"dump[{m}]")] == [top]
            assert view.cards(f"rewards[{m}]") == real_types(prog, st, f"rewards[{m}]")
        assert view.size("draw") == 88 - 3 * players - 4
        assert view.known_positions("draw") == {}       # shuffled: no position is known
        d = view.to_dict()["zones"]
        assert d[f"hand({seat})"]["cards"] == [prog.type_names[t] for t in real_types(prog, st, f"hand({seat})")]
        assert all(d[f"hand({p})"]["cards"] == [None] * 3 for p in range(players) if p != seat)
        check_sound(prog, st, view)


# ---------------------------------------------------------------- knowledge of hidden zones

# Scenario A (2 players): seat 0 collects a dump site holding two paper cards, then must dispose
# of one card face down.
A_HANDS = [["cans:1", "glass:1", "glass:1"], ["cans:1", "cans:1", "plastic:1"]]
A_DUMPS = ["cans:1", "glass:2", "plastic:2", "paper:2"]
A_THEN = ["glass:1", "plastic:1",                          # turn 1: refill dump[cans], 1 icon + 1
          "paper:1", "paper:1", "plastic:1", "glass:2",    # turn 2: refill dump[cans], 3 icons + 1
          "cans:2"]                                        # turn 3: refill dump[cans], cleared: 0 + 1


def scenario_a(upto: int, dispose: str = "dispose: 1*glass:1"):
    prog, st = dealt(2, A_HANDS, A_DUMPS, A_THEN, log=True)
    do(prog, st, "deliver: 1*cans:1")       # turn 1, seat 0: 1 icon; collects dump[cans] (cans:1)
    if upto >= 2:
        do(prog, st, "deliver: 2*cans:1")   # turn 2, seat 1: 3 icons; collects glass:1, plastic:1
    if upto >= 3:
        do(prog, st, "deliver: 1*cans:1")   # turn 3, seat 0: 4 icons, a reward; collects 4 cards: 6 in hand
        do(prog, st, dispose)               # hand limit: one card face down
    return prog, st


def test_a_collected_dump_card_is_shown_in_the_collectors_hand():
    prog, st = scenario_a(upto=1)
    view = view_of(prog, st.log, 1)
    # seat 0 delivered its cans:1 (seen) and collected dump[cans] (seen by all): on top of its hand
    assert view.size("hand(0)") == 3
    assert named(prog, view.known_cards("hand(0)")) == {"cans:1": 1}
    assert view.known_positions("hand(0)") == {2: prog.type_index["cans:1"]}
    assert view.unknown("hand(0)") == 2
    check_sound(prog, st, view)
    # the collector itself knows its whole hand
    assert view_of(prog, st.log, 0).cards("hand(0)") == real_types(prog, st, "hand(0)")


@pytest.mark.parametrize("dispose", ["dispose: 1*glass:1", "dispose: 1*paper:1", "dispose: 1*plastic:1"])
def test_two_known_paper_cards_and_one_hidden_disposal_leave_one_guaranteed(dispose):
    prog, st = scenario_a(upto=3, dispose=dispose)
    hand, disposal = "hand(0)", "disposal(0)"
    # Before the disposal seat 1 knew 4 of the 6 cards: paper:1 ×2, plastic:1, glass:2.
    # One card left unseen: K[t] = max(0, K[t] − 1) for every t -> paper:1 ×1.
    # disposal(0) gains max(0, 1 − (6 − K[t])): 1 − (6 − 2) < 0 for paper:1 -> nothing.
    decided = max(i for i, e in enumerate(st.log) if e[0] == DECIDE)      # seat 0 chose its disposal
    before = view_of(prog, st.log[:decided], 1)
    assert named(prog, before.known_cards(hand)) == {"paper:1": 2, "plastic:1": 1, "glass:2": 1}
    assert before.size(hand) == 6
    view = view_of(prog, st.log, 1)
    assert view.size(hand) == 5 and view.size(disposal) == 1
    assert named(prog, view.known_cards(hand)) == {"paper:1": 1}
    assert view.known_cards(disposal) == {} and view.unknown(disposal) == 1
    assert view.known_positions(hand) == {}      # an unseen departure forgets every position
    check_sound(prog, st, view)
    # which card went face down makes no difference to what seat 1 knows
    other = scenario_a(upto=3, dispose="dispose: 1*glass:2")[1]
    assert view_of(prog, other.log, 1) == view
    assert sorted(real_types(prog, other, disposal)) != sorted(real_types(prog, st, disposal)) or \
        dispose == "dispose: 1*glass:2"


def test_the_draw_pile_overview_after_a_known_sequence():
    prog, st = scenario_a(upto=3, dispose="dispose: 1*glass:1")
    # Seat 1 knows, outside the draw pile: its hand plastic:1, glass:1, plastic:1; the discard pile
    # cans:1 ×4 (seat 0's, its own two, the dump card seat 0 delivered); the dump sites cans:2,
    # glass:2, plastic:2, paper:2; paper:1 ×1 guaranteed in hand(0); nothing in disposal(0); every
    # reward (stacks, won, box). All recycling cards (19 single, 3 double per material) minus those:
    want1 = {"cans:1": 19 - 4, "cans:2": 3 - 1, "glass:1": 19 - 1, "glass:2": 3 - 1,
             "plastic:1": 19 - 2, "plastic:2": 3 - 1, "paper:1": 19 - 1, "paper:2": 3 - 1}
    assert named(prog, view_of(prog, st.log, 1).could_be_in("draw")) == want1
    # 71 cards in the draw pile + 4 unknown in hand(0) + 1 in disposal(0): 76 unknown cards
    assert sum(want1.values()) == 88 - 6 - 4 - 2 - 4 - 1 + 4 + 1
    # Seat 0 knows its hand glass:1, paper:1 ×2, plastic:1, glass:2 and its disposal glass:1;
    # of hand(1) the two cards it collected (glass:1, plastic:1); its delivered cans:1 went public.
    want0 = {"cans:1": 19 - 4, "cans:2": 3 - 1, "glass:1": 19 - 3, "glass:2": 3 - 2,
             "plastic:1": 19 - 2, "plastic:2": 3 - 1, "paper:1": 19 - 2, "paper:2": 3 - 1}
    assert named(prog, view_of(prog, st.log, 0).could_be_in("draw")) == want0
    assert sum(want0.values()) == 71 + 1


def test_a_fully_known_hand_passes_its_knowledge_to_the_disposal_pile():
    # Scenario B (2 players): seat 0 shows its whole hand, collects only seen cards, ends with six
    # paper:1 and disposes one face down: the disposal pile holds at least 1 − (6 − 6) = 1 paper:1.
    prog, st = dealt(2, [["glass:1", "glass:1", "glass:2"], ["plastic:1", "plastic:2", "cans:1"]],
                     ["cans:1", "plastic:1", "cans:1", "paper:2"],
                     ["glass:1", "cans:1", "paper:1", "paper:1", "paper:1", "glass:1",
                      "paper:1", "paper:1", "paper:1"], log=True)
    do(prog, st, "deliver: 2*glass:1 + 1*glass:2")   # seat 0: 4 icons; collects plastic:1
    do(prog, st, "deliver: 1*plastic:1 + 1*plastic:2")   # seat 1: 3 icons; dump[plastic] refilled with 4
    do(prog, st, "deliver: 1*plastic:1")             # seat 0: 4 icons; collects cans:1, paper:1 ×3
    do(prog, st, "deliver: 2*cans:1")                # seat 1: 2 icons; dump[cans] refilled with 3 paper:1
    do(prog, st, "deliver: 1*cans:1")                # seat 0: 3 icons; collects 3 paper:1: six cards
    do(prog, st, "dispose: 1*paper:1")
    view = view_of(prog, st.log, 1)
    assert named(prog, view.known_cards("hand(0)")) == {"paper:1": 5} and view.unknown("hand(0)") == 0
    assert named(prog, view.known_cards("disposal(0)")) == {"paper:1": 1}
    assert view.known_positions("hand(0)") == {}
    check_sound(prog, st, view)


def test_a_shuffle_keeps_what_is_known_but_forgets_positions():
    prog, st = start(3, log=True)
    draw = zone_index(prog, "draw")
    at = next(i for i, e in enumerate(st.log) if e[0] == SHUFFLE)
    before = view_of(prog, st.log[:at], 1)
    after = view_of(prog, st.log[:at + 1], 1)
    # before the shuffle the draw pile is in the ruleset's card order: every position known
    assert len(before.known_positions(draw)) == before.size(draw) == 88
    assert after.known_positions(draw) == {}
    assert after.known_cards(draw) == before.known_cards(draw) == collections.Counter(recycling_types(prog))


def test_turn_end_and_public_variables_come_from_events():
    prog = program(3)
    obs = Observer(prog, 2)
    assert obs.view().turn == 0 and obs.view().current is None
    for event in [(TURN, 1, 4), (SET, "round", None, 2), (SET, "bid", 1, 7), (END,)]:
        obs.observe(event)
    view = obs.view()
    assert (view.turn, view.current, view.over) == (4, 1, True)
    assert view.var("round") == 2 and view.var("bid", 1) == 7 and view.var("bid", 0) is None
    assert view.to_dict()["vars"] == {"bid(1)": 7, "round": 2}


# ---------------------------------------------------------------- soundness over whole games

@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_views_are_true_and_seen_zones_exact_at_every_decision(players):
    prog = program(players)
    for seed in range(4):
        st = prog.new_state(seed, log=True)
        observers = [Observer(prog, s) for s in range(players)]
        players_ = bots("mixed" if seed % 2 else "random", players, seed)
        fed = 0
        while True:
            for obs in observers:
                obs.observe_all(st.log[fed:])
            fed = len(st.log)
            for obs in observers:
                view = obs.view()
                check_sound(prog, st, view)
                assert view.turn == st.turn and view.over == st.over
                if not st.over:
                    assert view.current == st.current
            if st.over:
                break
            prog.apply(st, players_[st.decider].choose(prog, st, prog.legal_moves(st)))
        assert observers[0].view() == view_of(prog, st.log, 0)


# ---------------------------------------------------------------- no leaks

def scramble_hidden(log: list, seat: int, n_cards: int, rnd: random.Random) -> list:
    """The log with the cards of every move `seat` did not see replaced by arbitrary other ids."""
    out = []
    for e in log:
        if e[0] == MOVE and not e[4] >> seat & 1:
            e = (MOVE, e[1], e[2], tuple(rnd.sample(range(n_cards), len(e[3]))), e[4])
        out.append(e)
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_faces_a_seat_did_not_see_change_nothing_in_its_view(players):
    """The whole log, the log as events.for_seat censors it, and the log with the cards of every
    unseen move replaced by arbitrary ids give the same view after every event."""
    prog = program(players)
    rnd = random.Random(players)
    for seed in range(6):
        st, _ = play_random(prog, seed)
        for seat in range(players):
            scrambled = scramble_hidden(st.log, seat, len(prog.card_type), rnd)
            whole, censored, junk = Observer(prog, seat), Observer(prog, seat), Observer(prog, seat)
            for event, other in zip(st.log, scrambled):
                whole.observe(event)
                junk.observe(other)
                censored.observe_all(for_seat(prog, [event], seat))
                if event[0] in (TURN, END, SHUFFLE):
                    assert whole.view() == junk.view() == censored.view()
            assert whole.view() == junk.view() == censored.view() == view_of(prog, st.log, seat)


def initial_draw(prog, st0) -> list:
    """Card ids of the shuffled draw pile, bottom to top, from a new state's setup log (tests only)."""
    draw = zone_index(prog, "draw")
    at = max(i for i, e in enumerate(st0.log) if e[0] == SHUFFLE and e[1] == draw)
    dealt_ids = [c for e in st0.log[at + 1:] if e[0] == MOVE and e[1] == draw for c in e[3]]
    return list(st0.zones[draw]) + dealt_ids[::-1]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_real_games_differing_only_in_hidden_cards_give_equal_views(players):
    """Swap, in the shuffled draw, a card dealt to an opponent's hand with one left in the draw pile
    (of another type), replay the same moves: until either card shows up again in an event, every
    other seat's view is the same after every event, though the opponent's hand really differs."""
    prog = program(players)
    draw = zone_index(prog, "draw")
    compared = 0
    for seed in range(6):
        st0 = prog.new_state(seed, log=True, record=True)      # the setup, to know the shuffled order
        setup = len(st0.log)
        order = initial_draw(prog, st0)
        assert [prog.card_type[c] for c in order] == st0.chance[0][1]
        st, texts = play_random(prog, seed)
        assert st.log[:setup] == st0.log

        def first_mention(card):
            return next((i for i, e in enumerate(st.log[setup:], setup) if e[0] == MOVE and card in e[3]),
                        len(st.log))

        for opp in range(players):
            a = max(st0.zones[zone_index(prog, f"hand({opp})")], key=first_mention)
            b = max((c for c in st0.zones[draw] if prog.card_type[c] != prog.card_type[a]), key=first_mention)
            cut = min(first_mention(a), first_mention(b))
            types = [prog.card_type[c] for c in order]
            pa, pb = order.index(a), order.index(b)
            types[pa], types[pb] = types[pb], types[pa]
            alt = prog.new_state(seed, log=True, script=[(draw, types)])
            alt.script = None                      # later shuffles: the state's own generator
            assert (sorted(real_types(prog, alt, f"hand({opp})"))
                    != sorted(real_types(prog, st0, f"hand({opp})")))
            for text in texts:
                if len(alt.log) >= cut:
                    break
                try:
                    prog.play(alt, prog.parse_move(alt, text))
                except IllegalMove:
                    break
            end = min(cut, len(alt.log))
            assert [e[0] for e in alt.log[:end]] == [e[0] for e in st.log[:end]]
            for seat in range(players):
                if seat == opp:         # the opponent itself sees the difference
                    assert view_of(prog, st.log[:setup], opp) != view_of(prog, alt.log[:setup], opp)
                    continue
                mine, theirs = Observer(prog, seat), Observer(prog, seat)
                for i in range(end):
                    mine.observe(st.log[i])
                    theirs.observe(alt.log[i])
                    assert mine.view() == theirs.view(), f"seed {seed}: views differ after {st.log[i]}"
                compared += end - setup
    assert compared > 50 * 6 * players * (players - 1) // 2


def test_which_copy_of_a_type_left_a_partly_known_zone_tells_nothing():
    """The rules take the topmost card of a chosen type (decisions.py), so whether the copy the seat
    had seen is the one that left depends on the hidden cards above it: such a departure must forget
    the zone's positions whichever copy it was. Two event streams: a hidden card lands on top of a
    hand with a known glass and a known paper below; a paper card leaves face up. If the hidden card
    is paper, it is the one taken; if it is glass, the known paper is taken."""
    prog = program(2)
    draw, hand, side = (zone_index(prog, z) for z in ("draw", "hand(0)", "side[paper]"))
    ids = collections.defaultdict(list)
    for c, t in enumerate(prog.card_type):
        ids[prog.type_names[t]].append(c)
    glass, paper = ids["glass:1"], ids["paper:1"]
    q, p = glass[0], paper[0]
    views = []
    for hidden, taken in ((paper[1], paper[1]), (glass[1], p)):
        log = [(SHUFFLE, draw), (MOVE, draw, hand, (ids["cans:1"][0],), 0b01),
               (MOVE, draw, hand, (q,), 0b11), (MOVE, draw, hand, (p,), 0b11),
               (MOVE, draw, hand, (hidden,), 0b01), (MOVE, hand, side, (taken,), 0b11)]
        views.append(view_of(prog, log, 1))
    assert views[0] == views[1]
    assert views[0].known_positions(hand) == {}
    assert named(prog, views[0].known_cards(hand)) == {"glass:1": 1}


@pytest.mark.parametrize("players", [2, 4])
def test_a_view_asked_for_between_events_is_the_view_of_the_whole_log(players):
    """An Observer fed the log piece by piece, asked for a view after each piece, gives the view a
    new Observer gives from the whole log so far (view() refreezes only the zones events touched)."""
    prog = program(players)
    for seed in range(3):
        st, _ = play_random(prog, seed)
        for seat in range(players):
            fed = Observer(prog, seat)
            rnd = random.Random(seed)
            i = 0
            while i < len(st.log):
                j = i + rnd.randrange(1, 12)
                fed.observe_all(st.log[i:j])
                i = min(j, len(st.log))
                want = view_of(prog, st.log[:i], seat)
                got = fed.view()
                assert got == want and got.kinds == want.kinds, f"seed {seed}, seat {seat}, after {i} events"
