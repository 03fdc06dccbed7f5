"""Bots' worlds and the rules' names for cards (seats/worlds.py follow_places).

A card id says its type, so a local bound to a card (`let secret = top 1 of deck`, a loop's list of
cards) must not keep the id of a card hidden from the seat when a bot's world redeals the hidden
cards: in every determinised copy, and in the copy a Seat keeps, the name follows the card's place.
"""
import random

from interpreter.compiler.game import load_game
from interpreter.seats import make_bot
from interpreter.seats.worlds import determinise, sanitised
from test_bots import renamed

PEEK = """
name: Peek
players: {min: 2, max: 2}
cards:
  card:
    for: {value: [1, 2, 3, 4, 5, 6]}
    name: "c{value}"
    count: 2
    start: deck
zones:
  deck: {visible: nobody}
  hand: {owner: each, visible: owner}
vars:
  held: {initial: "[]"}
setup: ["shuffle deck", "deal 1 from deck to hand"]
turn:
  steps:
    - for: c in top 2 of deck                 # a loop's list of hidden cards, held over its decisions
      do:
        - "let secret = top 1 of deck"       # the rules name a card nobody has seen
        - "set held = [top 2 of deck]"       # and keep a list of hidden cards in a variable
        - choose: action
          options:
            pass: {}
            draw: {do: ["move secret to hand"]}
end:
  when: count(deck) < 3
score: sum(c.value - 4 for c in hand(me))
"""


def peek(tmp_path):
    path = tmp_path / "peek.yaml"
    path.write_text(PEEK)
    return load_game(str(path)).program(2)


def slot_of(prog, name: str) -> int:
    return prog.rules.slots.index(name)


def relabel_hidden(prog, st, seat: int, rnd: random.Random):
    """st with the ids of the cards hidden from `seat` permuted everywhere the rules hold them: the
    zones and the names for cards. A seat cannot tell the two apart."""
    other = st.clone()
    hidden = [c for z, vis in enumerate(prog.zone_vis) if not vis >> seat & 1 for c in other.zones[z]]
    perm = dict(zip(hidden, rnd.sample(hidden, len(hidden))))
    other.zones = [[perm.get(c, c) for c in zone] for zone in other.zones]
    for z, zone in enumerate(other.zones):
        for c in zone:
            other.loc[c] = z
    for slot in prog.card_slots:
        other.vars[slot] = renamed(other.vars[slot], perm)
    return other


def test_a_name_for_a_hidden_card_names_the_card_now_in_its_place_in_every_world(tmp_path):
    prog = peek(tmp_path)
    deck, secret = prog.zone_base["deck"], slot_of(prog, "secret")
    for seed in range(30):
        st = prog.new_state(seed, log=True)
        place = st.zones[deck].index(st.vars[secret][0])
        world = determinise(prog, st, st.decider, random.Random(seed))
        assert world.vars[secret] == [world.zones[deck][place]]


def test_the_copy_a_seat_keeps_names_the_card_laid_in_the_named_place(tmp_path):
    prog = peek(tmp_path)
    deck, secret = prog.zone_base["deck"], slot_of(prog, "secret")
    for seed in range(10):
        st = prog.new_state(seed, log=True)
        place = st.zones[deck].index(st.vars[secret][0])
        kept = sanitised(prog, st, st.decider)
        assert kept.vars[secret] == [kept.zones[deck][place]]


def test_a_loops_list_of_hidden_cards_follows_their_places(tmp_path):
    prog = peek(tmp_path)
    deck = prog.zone_base["deck"]
    (loop_list,) = [slot for slot in prog.card_slots if prog.n_locals <= slot < prog.var_base["held"]]
    st = prog.new_state(3, log=True)
    places = [st.zones[deck].index(c) for c in st.vars[loop_list]]
    world = determinise(prog, st, st.decider, random.Random(3))
    assert world.vars[loop_list] == [world.zones[deck][i] for i in places] != st.vars[loop_list]


def test_a_variable_set_to_hidden_cards_follows_their_places(tmp_path):
    prog = peek(tmp_path)
    deck, held = prog.zone_base["deck"], prog.var_base["held"]
    st = prog.new_state(4, log=True)
    (cards,) = st.vars[held]
    places = [st.zones[deck].index(c) for c in cards]
    world = determinise(prog, st, st.decider, random.Random(4))
    assert world.vars[held] == [[world.zones[deck][i] for i in places]] != st.vars[held]


def test_relabelling_the_hidden_cards_a_rule_names_changes_no_decision_of_any_bot(tmp_path):
    """Before names followed places, greedy drew exactly when the named hidden card was good."""
    prog = peek(tmp_path)
    rnd = random.Random(5)
    for seed in range(40):
        st = prog.new_state(seed, log=True)
        moves = prog.legal_moves(st)
        other = relabel_hidden(prog, st, st.decider, rnd)
        for name in ("greedy", "automa", "memory", "ismcts:iterations=30,depth=4"):
            assert make_bot(name, seed).choose(prog, st, moves) == make_bot(name, seed).choose(prog, other, moves), \
                (name, seed)


def test_greedy_draws_as_often_whether_the_named_hidden_card_is_good_or_bad(tmp_path):
    prog = peek(tmp_path)
    secret, value = slot_of(prog, "secret"), prog.attr_tables["value"]
    draws = {True: [], False: []}
    for seed in range(200):
        st = prog.new_state(seed, log=True)
        move = make_bot("greedy", 1).choose(prog, st, prog.legal_moves(st))
        draws[value[st.vars[secret][0]] > 4].append(move[0] == 1)
    good, bad = (sum(d) / len(d) for d in (draws[True], draws[False]))
    assert abs(good - bad) < 0.25, (good, bad)     # a leak draws every good card: 100 % against ~25 %
