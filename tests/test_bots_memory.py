"""The `memory` bot (interpreter/seats/bots.py) on Sorting Memo: it plays from its seat's perfect memory.

What the issue asks of it, one test each: it collects every pair it knows; else it turns an
unknown card and completes the pair when it knows where the partner lies; else it turns another
unknown card; it uses a kept truck when that gains it sorted cards, sheds its own unsorted pairs
(to a player they do not fit either) or costs an opponent sorted cards it deduces from the public
stack choices; a Shuffle mixes the pairs the next player knows. It never reads what its seat has not
seen (leak test), is reproducible from its seed, plays legal moves in every shipped ruleset, and
beats random clearly (the 2,000-game figures are measured with `cardrules simulate`, README).
"""
import random

import pytest

from interpreter.seats import BOTS, make_bot
from interpreter.tools.records import play_game
from interpreter.seats.views import view_of
import helpers
import lixo_helpers
from test_bots import permute_hidden, seeded_states
from memo_helpers import collect, containers, face_up, game, keep, names, start, turn_over


def move_text(prog, st, seed: int = 0) -> str:
    """The memory bot's choice for the seat to decide, as text."""
    moves = prog.legal_moves(st)
    return prog.move_text(st, make_bot("memory", seed).choose(prog, st, moves))


def play_own_turns(prog, st, seed: int = 0) -> list:
    """Let the memory bot play while seat 0 decides; the texts of its moves."""
    bot, out = make_bot("memory", seed), []
    while not st.over and st.decider == 0:
        move = bot.choose(prog, st, prog.legal_moves(st))
        out.append(prog.move_text(st, move))
        prog.apply(st, move)
    return out


def test_memory_is_registered_and_plays_legal_moves_in_every_ruleset():
    assert "memory" in BOTS
    games = [(helpers.game(), 3), (lixo_helpers.game(), 3), (game(), 2)]
    for g, players in games:
        prog = g.program(players)
        st = prog.new_state(5, log=True)
        bots = [make_bot("memory" if k == 0 else "random", k) for k in range(players)]
        for _ in range(30):
            if st.over:
                break
            moves = prog.legal_moves(st)
            move = bots[st.decider].choose(prog, st, moves)
            assert move in moves
            prog.play(st, move)                 # play() checks legality again


def test_memory_collects_every_pair_it_knows():
    # seat 1 shows two cards whose partners seat 0 turned before: seat 0 knows two pairs
    prog, st = start(2, grid={1: "glass:2", 2: "metal:1", 3: "glass:2", 5: "metal:1", 4: "paper:3", 6: "organic:2"})
    turn_over(prog, st, 1, 2)                   # seat 0: no pair
    turn_over(prog, st, 3, 5)                   # seat 1: no pair
    for seed in range(3):
        trial = st.clone()
        moves = play_own_turns(prog, trial, seed)
        pairs = [{1, 3}, {2, 5}]
        turned = [int(m.split(": ")[1]) for m in moves[:4]]
        assert {turned[0], turned[1]} in pairs and {turned[2], turned[3]} in pairs, moves
        won = names(prog, trial, "won(0)")
        assert won.count("glass:2") == 2 and won.count("metal:1") == 2, (seed, moves)


def test_memory_completes_the_pair_of_a_new_card_when_it_knows_the_partner():
    prog, st = start(2, grid={7: "plastic:4", 8: "paper:1", 20: "plastic:4", 30: "organic:1", 31: "glass:4"})
    turn_over(prog, st, 30, 31)                 # seat 0: no pair
    turn_over(prog, st, 7, 8)                   # seat 1 shows plastic:4 at 7
    turn_over(prog, st, 20)                     # seat 0 turns an unknown card: plastic:4
    assert face_up(prog, st)[20] == "plastic:4"
    for seed in range(4):
        assert move_text(prog, st, seed) == "second_spot: 7"


def test_memory_turns_another_unknown_card_when_no_partner_is_known():
    prog, st = start(2, grid={7: "plastic:4", 8: "paper:1", 20: "glass:3", 30: "organic:1", 31: "glass:4"})
    turn_over(prog, st, 30, 31)
    turn_over(prog, st, 7, 8)                   # seat 0 knows plastic:4 at 7 and paper:1 at 8
    turn_over(prog, st, 20)                     # glass:3: its partner is not known
    known = {7, 8, 30, 31}
    for seed in range(6):
        chosen = int(move_text(prog, st, seed).split(":")[1])
        assert chosen not in known, seed        # a known card would be a sure mismatch


def test_memory_starts_a_turn_with_an_unknown_card_when_it_knows_no_pair():
    prog, st = start(2, grid={7: "plastic:4", 8: "paper:1", 30: "organic:1", 31: "glass:4"})
    turn_over(prog, st, 30, 31)
    turn_over(prog, st, 7, 8)                   # four known cards, no two alike
    known = {7, 8, 30, 31}
    firsts = [int(move_text(prog, st, seed).split(":")[1]) for seed in range(10)]
    assert sum(c not in known for c in firsts) >= 8, firsts


def next_own_turn(prog, st) -> None:
    """Seat 0 and then seat 1 turn two cards that do not match: seat 0's next turn begins."""
    turn_over(prog, st, 1, 2)
    turn_over(prog, st, 3, 4)
    assert st.decider == 0


NO_PAIRS = {1: "organic:1", 2: "glass:4", 3: "organic:2", 4: "glass:3"}


def test_memory_uses_a_kept_take_on_another_players_pair():
    prog, st = start(2, grid=NO_PAIRS)
    keep(prog, st, 0, ["truck:take"])
    collect(prog, st, 1, ["paper:3", "paper:3"])             # sorted for both (paper containers)
    next_own_turn(prog, st)
    moves = play_own_turns(prog, st, 1)
    assert moves[0].startswith("take") and names(prog, st, "won(0)")[:2] == ["paper:3", "paper:3"], moves


def test_memory_keeps_a_take_rather_than_take_a_pair_that_fits_nobody():
    # a pair unsorted for both seats: taking it only adds to the taker's unsorted cards (the tie-break)
    prog, st = start(2, grid=NO_PAIRS)
    keep(prog, st, 0, ["truck:take"])
    collect(prog, st, 1, ["metal:3", "metal:3"])
    next_own_turn(prog, st)
    moves = play_own_turns(prog, st, 1)
    assert moves[0] == "stop" and names(prog, st, "won(1)") == ["metal:3", "metal:3"], moves


def test_memory_swaps_an_unsorted_pair_for_a_sorted_one():
    # both seats drew from stacks 1, 2, 3 (paper, plastic, glass): each knows the other's containers
    prog, st = start(2, grid=NO_PAIRS)
    assert sorted(containers(prog, st, 0)) == ["container:glass", "container:paper", "container:plastic"]
    keep(prog, st, 0, ["truck:swap"])
    collect(prog, st, 0, ["metal:2", "metal:2"])             # unsorted for seat 0 (and for seat 1)
    collect(prog, st, 1, ["paper:4", "paper:4"])             # sorted for seat 0 (and for seat 1)
    next_own_turn(prog, st)
    moves = play_own_turns(prog, st, 2)
    assert moves[0].startswith("swap"), moves
    assert names(prog, st, "won(0)") == ["paper:4", "paper:4"]
    assert names(prog, st, "won(1)") == ["metal:2", "metal:2"]


def test_memory_keeps_a_give_rather_than_hand_a_sorted_pair_away():
    prog, st = start(2, grid=NO_PAIRS)
    keep(prog, st, 0, ["truck:give"])
    collect(prog, st, 0, ["paper:4", "paper:4"])             # sorted for seat 0
    next_own_turn(prog, st)
    moves = play_own_turns(prog, st, 3)
    assert moves[0] == "stop" and names(prog, st, "won(0)").count("paper:4") == 2, moves
    assert names(prog, st, "kept(0)") == ["truck:give"] and "paper:4" not in names(prog, st, "won(1)")


def test_memory_swaps_a_container_no_pair_fits_for_one_from_a_stack_it_has_not_seen():
    # seat 0 holds paper, plastic and glass (stacks 1, 2, 3, whose types it saw) and two metal
    # pairs and a paper pair: plastic or glass goes back; stacks 4 and 5 hold metal and organic
    prog, st = start(2, grid=NO_PAIRS)
    keep(prog, st, 0, ["truck:container_swap"])
    collect(prog, st, 0, ["metal:1", "metal:1", "metal:2", "metal:2", "paper:1", "paper:1"])
    next_own_turn(prog, st)
    for seed in range(4):
        moves = play_own_turns(prog, st.clone(), seed)
        assert moves[0] == "container: 1*truck:container_swap", (seed, moves)
        assert moves[1] in ("returned: 1*container:plastic", "returned: 1*container:glass"), (seed, moves)
        assert moves[2] in ("source: 4", "source: 5"), (seed, moves)   # a known stack gives a duplicate


THREE_NO_PAIRS = {**NO_PAIRS, 5: "metal:4", 6: "paper:3"}


def next_own_turn_of_three(prog, st) -> None:
    """Seats 0, 1 and 2 each turn two cards that do not match: seat 0's next turn begins."""
    turn_over(prog, st, 1, 2)
    turn_over(prog, st, 3, 4)
    turn_over(prog, st, 5, 6)
    assert st.decider == 0


def test_memory_gives_an_unsorted_pair_to_a_player_it_does_not_fit_either():
    # seats 0 and 1 drew from stacks 1, 2, 3 (paper, plastic, glass): seat 0 saw those stacks'
    # types and that seat 1 drew from them; seat 2 drew from stacks 3, 4, 5 (glass and two others)
    prog, st = start(3, grid=THREE_NO_PAIRS, draws=[(1, 2, 3), (1, 2, 3), (3, 4, 5)])
    keep(prog, st, 0, ["truck:give"])
    collect(prog, st, 0, ["metal:2", "metal:2"])             # fits none of seat 0's containers
    next_own_turn_of_three(prog, st)
    for seed in range(3):
        trial = st.clone()
        moves = play_own_turns(prog, trial, seed)
        assert moves[:3] == ["give: 1*truck:give", "mine: 2*metal:2", "receiver: 1"], (seed, moves)
        assert names(prog, trial, "won(1)") == ["metal:2", "metal:2"]


def test_memory_takes_the_pair_whose_loss_costs_its_owner_sorted_cards():
    # seat 1 drew from stack 3 after seat 0 had seen it holds glass: seat 0 knows seat 1 has a
    # glass container. Seat 2 drew paper and plastic (stacks 1, 2) and one from stack 4.
    prog, st = start(3, grid=THREE_NO_PAIRS, draws=[(1, 2, 3), (3, 4, 5), (1, 2, 4)])
    keep(prog, st, 0, ["truck:take"])
    collect(prog, st, 1, ["glass:1", "glass:1"])             # sorted for seat 1
    collect(prog, st, 2, ["glass:2", "glass:2"])             # unsorted for seat 2
    view = view_of(prog, st.log, 0)
    assert {prog.type_names[t] for t in view.known_cards("containers(1)")} == {"container:glass"}
    next_own_turn_of_three(prog, st)
    for seed in range(4):
        trial = st.clone()
        moves = play_own_turns(prog, trial, seed)
        assert moves[:3] == ["take: 1*truck:take", "victim: 1", "theirs: 2*glass:1"], (seed, moves)


def memo_states(players: int, games: int, per_game: int = 4):
    """(program, state) at seat decisions with a choice, from seeded random games with a log."""
    return seeded_states(players, games, True, per_game, prog=game().program(players), span=(8, 120))


@pytest.mark.parametrize("players", [2, 3])
def test_permuting_cards_the_seat_never_saw_never_changes_a_memory_decision(players):
    """Hidden cards are permuted, but the ones the seat remembers stay where they are: what the
    seat knows is the same, so its decision must be too."""
    rnd = random.Random(players)
    checked = 0
    for prog, st in memo_states(players, 5):
        seat = st.decider
        view = view_of(prog, st.log, seat)
        other = permute_unknown(prog, st, seat, view, rnd)
        moves = prog.legal_moves(st)
        assert prog.legal_moves(other) == moves
        seed = rnd.getrandbits(32)
        assert (make_bot("memory", seed).choose(prog, st, moves)
                == make_bot("memory", seed).choose(prog, other, moves)), (seat, st.turn)
        checked += 1
    assert checked >= 12


def permute_unknown(prog, st, seat: int, view, rnd: random.Random):
    """test_bots.permute_hidden, but the hidden zones where the seat knows a position keep their cards."""
    known = {z for z, slots in enumerate(view.zones) if any(t is not None for t in slots)}
    return permute_hidden(prog, st, seat, rnd, keep=known)


def test_memory_same_seed_same_game():
    def moves(seed):
        bots = [make_bot("memory", seed), make_bot("random", 3)]
        return play_game(game(), 2, 7, bots, record=True)[2]
    first = moves(11)
    assert first == moves(11) and any(seat == 0 for seat, _ in first)


def test_memory_beats_random_clearly():
    wins = 0.0
    for g in range(6):
        names_ = ["memory", "random"] if g % 2 == 0 else ["random", "memory"]
        bots = [make_bot(n, 1000 + g * 10 + k) for k, n in enumerate(names_)]
        prog, st, _ = play_game(game(), 2, 500 + g, bots)
        winners = prog.result(st)["winners"]
        me = names_.index("memory")
        wins += (me in winners) / len(winners)
    assert wins >= 5, wins


def known_pairs(prog, st, seat: int) -> int:
    """Pairs of face-down cards whose both places the seat remembers."""
    view = view_of(prog, st.log, seat)
    seen = [t for z, name in enumerate(prog.zone_names) if name.startswith("down[")
            for t in view.zones[z] if t is not None]
    return sum(seen.count(t) // 2 for t in set(seen))


def test_memory_mixes_the_pairs_the_next_player_knows_with_a_shuffle():
    prog, st = start(2, grid={1: "glass:2", 2: "metal:1", 3: "glass:2", 4: "metal:1", 5: "truck:shuffle",
                              6: "paper:3", 7: "organic:2"})
    turn_over(prog, st, 1, 2)                   # seat 0
    turn_over(prog, st, 3, 4)                   # seat 1: now everyone knows both pairs
    turn_over(prog, st, 5)                      # seat 0 turns the Shuffle and must mix
    assert st.pending.name == "how_many" and known_pairs(prog, st, 1) == 2
    for seed in range(3):
        trial = st.clone()
        play_own_turns(prog, trial, seed)
        assert trial.decider == 1 and known_pairs(prog, trial, 1) == 0, seed
