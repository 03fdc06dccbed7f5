"""Typing at the table (`play`): the moves in one order, each typed by its key or any unambiguous
part of its text, a number or grid position typed as itself, help on ?, a lone move taken for the
player. Driven through a Session with scripted input; each test is one sentence of the rules."""
from __future__ import annotations

import io
import os
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from rich.console import Console

from helpers import RULESET
from interpreter.compiler.game import load_game
from interpreter.runtime.engine import DECIDE, MOVE
from interpreter.tools.play import Session
from interpreter.tools.play.typed_moves import shown_order, text_matches

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MEMO = os.path.join(ROOT, "rulesets", "sorting_memo.yaml")
LIXO = os.path.join(ROOT, "rulesets", "lixo.yaml")

# A small game whose decisions are one of each kind: a lone option that opens the turn, options
# declared `pass` first (the cards option's moves come out of the engine in no type order), a
# lone option that does not end the turn, a number from a list out of order, and a lone option
# that ends the turn.
TYPING = """\
name: Typing
players: {min: 2, max: 2}
params:
  colours: [red, blue]
cards:
  card:
    for: {colour: colours, value: [1, 12]}
    name: "{colour}:{value}"
    count: 3
    start: draw
zones:
  draw: {visible: nobody}
  hand: {owner: each, visible: owner}
  played: {owner: each, visible: everyone}
vars:
  points: {owner: each, initial: 0}
setup:
  - shuffle draw
  - deal 4 from draw to hand
turn:
  steps:
    - step: open
      do:
        - choose: start
          options:
            go: {do: []}
    - step: play
      do:
        - choose: act
          options:
            pass: {do: []}
            play:
              cards: hand
              min: 1
              max: 2
              do: ["move play to played"]
        - choose: note
          options:
            noted: {do: []}
    - step: bet
      do:
        - choose: amount
          from: [5, 3, 2]
        - set points = points + amount
    - step: done
      do:
        - choose: finish
          options:
            done: {do: []}
end:
  when: turn >= 6
score: points
"""


@pytest.fixture(scope="module")
def typing_game(tmp_path_factory):
    path = tmp_path_factory.mktemp("typing") / "typing.yaml"
    path.write_text(TYPING, encoding="utf-8")
    return load_game(str(path))


def session(g, script, players: int = 2, bots=None, seed: int = 1, width: int = 200):
    """A Session whose input is script(session, prompt) -> line; its output in session.out."""
    out = io.StringIO()
    console = Console(file=out, width=width, highlight=False, color_system=None)
    holder = {}
    s = Session(g, players, seed, {1: "random"} if bots is None else bots,
                ask=lambda prompt: script(holder["s"], prompt), console=console)
    holder["s"] = s
    s.out = out
    return s


def quiet(g, bots=None, seed: int = 1):
    """A Session that is not run: its state is moved by hand, its parse called directly."""
    return session(g, lambda s, prompt: "q", bots=bots, seed=seed)


def lines(items):
    it = iter(items)
    return lambda s, prompt: next(it)


def to_decision(s, name: str) -> None:
    """Apply the engine's first legal move until the decision `name` is pending."""
    while s.st.pending.name != name:
        s.program.apply(s.st, s.program.legal_moves(s.st)[0])


def texts(s, legal=None):
    legal = s.program.legal_moves(s.st) if legal is None else legal
    return [t for _, _, t in s.shown_moves(legal).entries]


def typed(s, line: str):
    """The move a typed line names now (None if refused), and what the table said."""
    start = len(s.out.getvalue())
    move = s.parse(line, s.program.legal_moves(s.st))
    return move, s.out.getvalue()[start:]


def text_of(s, move) -> str:
    return s.program.move_text(s.st, move)


# ---- 1. one order ----
def test_moves_are_listed_by_card_type_in_declaration_order_and_options_in_ruleset_order(typing_game):
    s = quiet(typing_game)
    to_decision(s, "act")
    legal = s.program.legal_moves(s.st)
    engine = list(legal)
    shown = s.shown_moves(legal)
    assert legal == engine                                  # the engine's list is left as it is
    moves = [m for _, m, _ in shown.entries]
    assert moves[0] == (0, None) and text_of(s, moves[0]) == "pass"     # `pass` is declared first
    keys = [(tuple(t for t, _ in p), tuple(n for _, n in p)) for _, p in moves[1:]]
    assert keys == sorted(keys)                              # card types in declaration order
    assert sorted(moves) == sorted(legal) and len(moves) == len(legal)
    assert moves != legal                                    # this hand: the engine's order differs
    assert s.program.type_names == ["red:1", "red:12", "blue:1", "blue:12"]   # type order = declaration order


def test_the_engine_order_of_moves_does_not_change():
    """Bots and records read the legal moves in the engine's order: listing them changes nothing."""
    g = load_game(RULESET)
    s = quiet(g)
    prog, st = s.program, s.st
    for _ in range(30):                                      # along a game, at every decision
        legal = prog.legal_moves(st)
        shown = [m for _, m, _ in s.shown_moves(legal).entries]
        assert sorted(shown) == sorted(legal) and prog.legal_moves(st) == legal
        prog.apply(st, legal[-1])


def test_the_number_typed_is_the_number_shown(typing_game):
    s = quiet(typing_game)
    to_decision(s, "act")
    legal = s.program.legal_moves(s.st)
    entries = s.shown_moves(legal).entries
    assert [k for k, _, _ in entries] == [str(i) for i in range(1, len(entries) + 1)]
    for key, move, _ in entries:
        assert s.parse(key, legal) == move
    assert entries[1][1] != legal[1]             # so "2" is the second move shown, not the engine's


def test_the_screen_lists_each_move_with_the_key_that_chooses_it(typing_game):
    s = session(typing_game, lines(["2", "q"]))
    to_decision(s, "act")
    n = len(s.st.log)
    entries = s.shown_moves(s.program.legal_moves(s.st)).entries
    s.run()
    assert re.search(rf"(^|\s)2\. {re.escape(entries[1][2])}\s*$", s.out.getvalue(), re.M)
    assert s.st.log[n][0] == DECIDE and s.st.log[n][3] == entries[1][1]      # "2" made the second move shown


# ---- 2. any unambiguous part of the text ----
def test_a_move_may_be_typed_as_any_unambiguous_part_of_its_text(typing_game):
    s = quiet(typing_game)
    to_decision(s, "act")
    shown = texts(s)
    for line, want in [("2*blue", "play: 2*blue:1"), ("play 2", "play: 2*blue:1"),
                       ("red:1 + blue:12", "play: 1*red:1 + 1*blue:12"), ("pa", "pass"),
                       ("1*blue:12", "play: 1*blue:12")]:
        assert want in shown
        move, said = typed(s, line)
        assert move is not None and text_of(s, move) == want, (line, said)


def test_case_and_repeated_spaces_are_ignored(typing_game):
    s = quiet(typing_game)
    to_decision(s, "act")
    for line in ["PLAY   2*BLUE", "  play :  2 * blue : 1 ", "Play: 2×Blue:1"]:
        move, said = typed(s, line)
        assert move is not None and text_of(s, move) == "play: 2*blue:1", (line, said)


def test_an_exact_match_wins(typing_game):
    """'play: 1*blue:1' is also a part of 'play: 1*blue:1 + 1*blue:12': the whole text wins; so does
    a move's whole text after its name ('1*blue:12' is part of two other moves)."""
    s = quiet(typing_game)
    to_decision(s, "act")
    assert {"play: 1*blue:1", "play: 1*blue:1 + 1*blue:12", "play: 1*blue:12"} <= set(texts(s))
    for line, want in [("play: 1*blue:1", "play: 1*blue:1"), ("1*blue:12", "play: 1*blue:12"),
                       ("play:1*blue:12+1*blue:1", "play: 1*blue:1 + 1*blue:12")]:
        move, _ = typed(s, line)
        assert text_of(s, move) == want, line


def test_a_whole_word_wins_over_a_part_of_a_word():
    assert text_matches("paper", ["deliver: 1*paperboard:1", "deliver: 1*paper:1"]) == [1]
    assert text_matches("pap", ["deliver: 1*paper:1", "pass"]) == [0]          # a part of a word
    assert text_matches("pa", ["deliver: 1*paper:1", "pass"]) == [0, 1]


def test_a_number_is_never_a_part_of_a_longer_number():
    """'cans:1' does not name 1*cans:12, and '2' does not name the 2 of 12."""
    assert text_matches("cans:1", ["deliver: 1*cans:12", "deliver: 1*cans:1"]) == [1]
    assert text_matches("cans:1", ["deliver: 1*cans:12"]) == []
    assert text_matches("spot 2", ["spot: 12", "spot: 21"]) == []
    assert text_matches("spot 1", ["spot: 12", "spot: 1"]) == [1]


def test_an_ambiguous_part_lists_the_candidates(typing_game):
    s = quiet(typing_game)
    to_decision(s, "act")
    st = s.st.clone()
    move, said = typed(s, "red")
    assert move is None and s.st == st
    candidates = [t for t in texts(s) if "red" in t]
    assert len(candidates) > 1
    assert f"'red' fits {len(candidates)} moves — did you mean: {', '.join(candidates)}?" in said


def test_a_part_that_matches_no_move_gets_a_reason(typing_game):
    s = quiet(typing_game)
    to_decision(s, "act")
    st = s.st.clone()
    move, said = typed(s, "green")
    assert move is None and s.st == st
    assert "'green' is not a legal move for seat 0 now: no legal move's text contains it" in said


def test_move_numbers_keep_working_with_their_reasons(typing_game):
    s = quiet(typing_game)
    to_decision(s, "act")
    n = len(texts(s))
    assert text_of(s, typed(s, "1")[0]) == "pass"
    move, said = typed(s, str(n + 1))
    assert move is None and f"there is no move {n + 1}: type 1 to {n}" in said


HOSTILE = ["7" * 5000, "0", "-3", "+99", "x" * 100_000, "\x1b[2J\x07\x00", "\u0663\u00b2", "   ", "*", ":", "+"]


@pytest.mark.parametrize("decision", ["act", "amount"])
@pytest.mark.parametrize("line", HOSTILE, ids=lambda x: repr(x[:12]))
def test_any_line_of_any_length_or_content_is_refused_with_a_reason(typing_game, decision, line):
    s = quiet(typing_game)
    to_decision(s, decision)
    st = s.st.clone()
    move, said = typed(s, line)
    assert move is None and s.st == st
    assert said.strip() and len(said) < 2000 and "\x1b" not in said and "Traceback" not in said


AT_DECISION: dict = {}


@settings(max_examples=150, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=hs.one_of(hs.text(max_size=40), hs.from_regex(r"[a-z0-9*:+ ]{1,30}", fullmatch=True)),
       decision=hs.sampled_from(["act", "amount"]))
def test_any_typed_line_makes_a_legal_move_or_is_refused_with_a_reason(typing_game, line, decision):
    s = AT_DECISION.get(decision)
    if s is None:                # one table per decision: a refused line changes nothing in it
        s = AT_DECISION[decision] = quiet(typing_game)
        to_decision(s, decision)
    st, legal = s.st.clone(), s.program.legal_moves(s.st)
    move, said = typed(s, line)
    assert s.st == st
    assert move in legal if move is not None else said.strip()


@pytest.mark.parametrize("line", HOSTILE, ids=lambda x: repr(x[:12]))
def test_any_line_at_a_grid_position_is_refused_with_a_reason(line):
    s = quiet(load_game(MEMO), bots={})
    to_decision(s, "first_spot")
    st = s.st.clone()
    move, said = typed(s, line)
    assert move is None and s.st == st
    assert said.strip() and len(said) < 2000 and "\x1b" not in said


# ---- 3. help ----
@pytest.mark.parametrize("command", ["?", "h", "help", "HELP"])
def test_question_mark_prints_help_not_the_same_screen(typing_game, command):
    s = session(typing_game, lines([command, "q"]))
    to_decision(s, "act")
    s.run()
    out = s.out.getvalue()
    assert out.count("legal moves:") == 1                    # the screen once, before the command
    helped = out[out.index(f"seat 0> {command}"):]
    assert "how to choose a move:" in helped and "legal moves:" not in helped
    assert "type its number in the list (1 to " in helped
    assert "any part of it that fits one move only" in helped
    for cmd in ["u ", "c ", "s ", "o ", "r ", "q "]:
        assert re.search(rf"^  {cmd.strip()}\s+\S", helped, re.M), cmd


def test_help_at_a_number_choice_says_to_type_the_number(typing_game):
    s = session(typing_game, lines(["?", "q"]))
    to_decision(s, "amount")
    s.run()
    helped = s.out.getvalue().split("seat 0> ?")[1]
    assert "amount: type the value itself (2, 3, 5)" in helped and "number in the list" not in helped


def test_r_shows_the_screen_again(typing_game):
    s = session(typing_game, lines(["r", "q"]))
    to_decision(s, "act")
    s.run()
    assert s.out.getvalue().count("legal moves:") == 2


# ---- 4. one legal move ----
def test_a_decision_with_one_legal_move_is_taken_with_a_note(typing_game):
    """At the start of the turn nothing could be taken back: the lone move is not asked."""
    prompts = []

    def script(s, prompt):
        prompts.append((prompt, s.st.pending.name))
        return "q"

    s = session(typing_game, script)
    s.run()
    out = s.out.getvalue()
    assert "only one move: go — taken" in out
    assert prompts[0] == ("seat 0> ", "act")                 # first asked at the next decision
    assert out.index("only one move: go — taken") < out.index("seat 0 decides: act")


def test_a_lone_move_after_a_move_of_this_turn_is_taken_and_undo_goes_back_past_it(typing_game):
    """`noted` does not end the turn: taken at once; u then takes back the move before it."""
    saved = {}

    def script(s, prompt):
        if s.st.pending.name == "act" and "act" not in saved:
            saved["act"] = s.st.clone()
            return "pass"
        if s.st.pending.name == "amount" and "amount" not in saved:
            saved["amount"] = True
            return "u"
        assert s.st.pending.name == "act" and s.st == saved["act"]
        return "q"

    s = session(typing_game, script)
    s.run()
    out = s.out.getvalue()
    assert "only one move: noted — taken" in out and "undone: pass" in out


def test_a_lone_move_that_ends_the_turn_asks_first_when_a_move_could_be_taken_back(typing_game):
    answers = iter(["pass", "2", "u", "u", "q"])
    seen = []

    def script(s, prompt):
        seen.append((prompt, s.st.pending.name, s.st.clone()))
        return next(answers)

    s = session(typing_game, script)
    s.run()
    out = s.out.getvalue()
    assert ("only one move: done — this ends your decisions (seat 1 decides next): c to confirm, "
            "u to go back (then u takes back 'amount: 2')") in out
    assert seen[2][0] == "seat 0 confirm (c/u)> " and seen[2][1] == "finish"
    # u at the confirmation: nothing taken, the screen of `finish`; u again takes back the amount
    assert seen[3][1] == "finish" and seen[3][0] == "seat 0> "
    assert seen[4][1] == "amount" and seen[4][2] == seen[1][2]
    assert "undone: amount: 2" in out


def test_a_lone_move_that_ends_the_turn_is_confirmed_with_c(typing_game):
    answers = iter(["pass", "2", "c", "q"])
    s = session(typing_game, lambda s, prompt: next(answers), bots={1: "random"})
    s.run()
    finish = s.program.decisions.index(next(d for d in s.program.decisions if d.name == "finish"))
    assert any(e[0] == DECIDE and e[1] == 0 and e[2] == finish for e in s.st.log)
    assert (s.st.current, s.st.turn, s.st.pending.name) == (0, 3, "act")     # seat 1 played turn 2


# ---- 5. numbers and grid positions typed as themselves ----
def test_a_number_choice_is_typed_as_the_number_itself(typing_game):
    """`from: [5, 3, 2]`: 2 means 2 (not the third entry), 5 means 5; 1 and 4 are no value."""
    s = quiet(typing_game)
    to_decision(s, "amount")
    assert [k for k, _, _ in s.shown_moves(s.program.legal_moves(s.st)).entries] == ["5", "3", "2"]
    for line, value in [("2", 2), ("5", 5), ("+3", 3), ("amount: 3", 3), ("amount 5", 5)]:
        assert typed(s, line)[0] == (value,), line
    for line in ["1", "4", "0"]:
        move, said = typed(s, line)
        assert move is None and f"there is no amount {line} now: type the value itself (2, 3, 5)" in said


def test_a_number_choice_lists_no_move_numbers(typing_game):
    s = session(typing_game, lines(["q"]))
    to_decision(s, "amount")
    s.run()
    out = s.out.getvalue()
    assert "amount: type the value itself (2, 3, 5)" in out
    assert "legal moves:" not in out and not re.search(r"^\s+\d+\. ", out, re.M)


def test_a_grid_position_is_typed_as_the_position_shown_even_after_cells_are_emptied():
    """After a pair at positions a and b is collected, the legal moves skip them: position p is
    still typed as p (a move number would now name the next position)."""
    s = quiet(load_game(MEMO), bots={})
    to_decision(s, "first_spot")
    prog, st = s.program, s.st
    names = {c: prog.type_names[prog.card_type[st.zones[prog.zone_base["down"] + prog.family["down"][c]][-1]]]
             for c in prog.family["down"]}
    a = min(c for c, n in names.items() if not n.startswith("truck:"))
    b = next(c for c, n in names.items() if n == names[a] and c != a)
    for spot in (a, b):
        prog.apply(st, typed(s, str(spot))[0])
    assert st.pending.name == "first_spot" and st.current == 0        # the pair: seat 0 plays again
    legal = prog.legal_moves(st)
    later = min(v for (v,) in legal if v > max(a, b))
    assert typed(s, str(later))[0] == (later,) != legal[later - 1]        # the move numbered `later` is another
    move, said = typed(s, str(a))
    assert move is None and f"there is no first_spot {a} now: type a position shown in the grid (" in said


def test_the_move_list_is_not_printed_under_the_grid():
    s = session(load_game(MEMO), lines(["", "q"]), bots={}, width=120)
    to_decision(s, "first_spot")
    s.run()
    out = s.out.getvalue()
    assert "first_spot: type a position shown in the grid (1 to 50)" in out
    assert "legal moves:" not in out and "first_spot: 1\n" not in out
    assert not re.search(r"^\s+\d+\. first_spot", out, re.M)


def test_only_choices_of_grid_positions_are_typed_as_positions():
    """Sorting Memo: the spots are positions of the grid; a stack, a seat or a count is a number."""
    s = quiet(load_game(MEMO), bots={})
    kinds = {}
    rng = random.Random(3)
    for _ in range(3000):
        if s.st.over:
            break
        legal = s.program.legal_moves(s.st)
        kinds.setdefault(s.st.pending.name, (s.grid_choice(legal), s.shown_moves(legal).hint))
        s.program.apply(s.st, rng.choice(legal))
    for name in ("first_spot", "second_spot"):
        assert kinds[name][0] and "position shown in the grid" in kinds[name][1]
    for name in ("draw_from", "how_many", "spot", "victim", "receiver", "source"):
        if name in kinds and name != "spot":
            assert not kinds[name][0] and "type the value itself" in kinds[name][1], name
    assert kinds["draw_from"][1].startswith("draw_from: type the value itself (")
    if "spot" in kinds:
        assert kinds["spot"][0]                              # a Shuffle's positions are grid positions too


# ---- every shipped ruleset, played to the end by typing ----
def typing_script(rng, forms):
    """Choose a random legal move and type it by its key, its text in capitals or a unique part;
    the move each line should make is kept, to check it was the one made."""
    def script(s, prompt):
        if "confirm" in prompt:
            return "c"
        if "press Enter" in prompt:
            return ""
        legal = s.program.legal_moves(s.st)
        entries = s.shown_moves(legal).entries
        key, move, text = rng.choice(entries)
        others = [t for _, _, t in entries]
        form = len(forms) % 3
        if form == 0:
            line = key
        elif form == 1:
            line = "  ".join(text.upper().split())
        else:
            words = re.split(r"[\s]+", text)
            line = next((" ".join(words[i:]) for i in range(len(words) - 1, -1, -1)
                         if text_matches(" ".join(words[i:]), others) == [others.index(text)]), text)
        forms.append((s.st.clone(), move, line))
        return line
    return script


@pytest.mark.parametrize("ruleset", ["r_eco", "lixo", "lixo_two_colour", "sorting_memo"])
def test_every_shipped_ruleset_can_be_played_to_the_end_by_typed_input(ruleset):
    g = load_game(os.path.join(ROOT, "rulesets", f"{ruleset}.yaml"))
    players = g.rules.min_players
    forms: list = []
    s = session(g, typing_script(random.Random(7), forms), players=players,
                bots={k: "random" for k in range(1, players)}, seed=5)
    assert s.run() is True and s.st.over
    assert len(forms) > 5
    # every typed line made the move it was typed for (no line was refused: one line a decision)
    out = s.out.getvalue()
    assert "is not a legal move" not in out and "did you mean" not in out and "there is no " not in out
    for before, move, line in forms:
        decided = s.st.log[len(before.log)]
        assert decided[0] == DECIDE and decided[3] == move, line
    # the game replays from its moves to the same end (nothing but legal moves was made)
    prog = s.program
    st = prog.new_state(5, log=True)
    for e in s.st.log:
        if e[0] == DECIDE:
            prog.play(st, e[3])
    assert st.over and prog.result(st) == prog.result(s.st)


def test_at_hot_seat_a_lone_move_is_taken_only_after_the_screen_is_passed(typing_game):
    """The note names the move (a lone card move would name the seat's own cards): it comes after
    the pass screen, never on the previous player's screen."""
    def script(s, prompt):
        if "press Enter" in prompt:
            return ""
        if "confirm" in prompt:
            return "c"
        if s.st.current == 1 and s.st.pending.name == "act":
            return "q"
        return {"act": "pass", "amount": "2"}[s.st.pending.name]

    s = session(typing_game, script, bots={})
    s.run()
    out = s.out.getvalue()
    passed = out.index("seat 1, press Enter when ready")
    note = out.index("only one move: go — taken", passed)
    assert passed < note < out.index("seat 1> ")
    assert out.count("only one move: go — taken") == 2       # seat 0's turn 1 and seat 1's turn 2


# A grid whose positions are named like the commands d, u and q, and one that is not.
LETTERS = """\
name: Letters
players: {min: 2, max: 2}
params:
  spots: [a, d, u, q]
cards:
  tile: {count: 4, start: stock}
zones:
  stock: {visible: nobody}
  cell: {per: spots, visible: everyone}
  taken: {owner: each, visible: everyone}
setup:
  - for: s in spots
    do: ["move top of stock to cell[s]"]
turn:
  steps:
    - step: take
      do:
        - choose: spot
          from: spots
          where: count(cell[spot]) > 0
        - move top of cell[spot] to taken
end:
  when: sum(count(cell[s]) for s in spots) == 0
score: count(taken)
display:
  grid: {families: [cell], columns: 4}
"""


@pytest.fixture(scope="module")
def letters_game(tmp_path_factory):
    path = tmp_path_factory.mktemp("letters") / "letters.yaml"
    path.write_text(LETTERS, encoding="utf-8")
    return load_game(str(path))


def test_a_position_named_like_a_command_is_typed_with_an_equals_sign(letters_game):
    s = quiet(letters_game, bots={})
    legal = s.program.legal_moves(s.st)
    assert s.grid_choice(legal)
    hint = s.shown_moves(legal).hint
    assert "type =d, =u, =q for the positions d, u, q (commands otherwise)" in hint
    assert typed(s, "=d")[0] == ("d",) and typed(s, "= q")[0] == ("q",) and typed(s, "=a")[0] == ("a",)


def test_commands_come_before_moves_and_the_equals_sign_makes_a_move(letters_game):
    s = session(letters_game, lines(["d", "=d", "c", "q", "y"]), bots={1: "random"})
    assert not s.run()                                           # quit after the first move
    prog, out = s.program, s.out.getvalue()
    assert "everything seat 0 knows" in out                      # d: the detail, not the position
    cell = prog.zone_base["cell"] + prog.family["cell"]["d"]
    first = next(i for i, e in enumerate(s.st.log) if e[0] == DECIDE)
    assert next(e for e in s.st.log[first:] if e[0] == MOVE)[1] == cell   # then =d took the card at d
    assert len(s.st.zones[prog.zone_names.index("taken(0)")]) == 1
