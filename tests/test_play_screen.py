"""The decision screen of `play` fits the terminal: every shipped ruleset at 80×24 and 120×40, at its
fewest and most players, at the start, in the middle and at its longest move list; the deciding
seat's own panel and its moves always on screen, the other seats one line each, nothing shown that
the seat may not see; n/p pages and d the full detail through the input loop."""
from __future__ import annotations

import glob
import io
import os
import random
import re
from collections import Counter

import pytest
from rich.console import Console

from helpers import ROOT
from interpreter.compiler.game import load_game
from interpreter.tools.play import Session
from interpreter.tools.play.layout import MovePage, brief_counts, pack

RULESETS = sorted(glob.glob(os.path.join(ROOT, "rulesets", "*.yaml"))
                  + glob.glob(os.path.join(ROOT, "rulesets", "examples", "*.yaml")))
SIZES = [(80, 24), (120, 40)]
POINTS = ["start", "middle", "longest"]


def game_of(path: str):
    return load_game(path)


def cases():
    for path in RULESETS:
        rules = game_of(path).rules
        for players in sorted({rules.min_players, rules.max_players}):
            for width, height in SIZES:
                for point in POINTS:
                    yield pytest.param(path, players, width, height, point,
                                       id=f"{os.path.basename(path)[:-5]}-{players}p-{width}x{height}-{point}")


def table(path: str, players: int, point: str, seed: int = 3):
    """A Session of human seats whose state is at `point` of a game of random moves."""
    s = Session(game_of(path), players, seed, {}, ask=lambda prompt: "q",
                console=Console(file=io.StringIO(), width=80, height=24))
    prog, rng = s.program, random.Random(seed)
    states = []
    while not s.st.over and len(states) < 400:
        legal = prog.legal_moves(s.st)
        states.append((len(legal), len(states), s.st.clone()))
        prog.apply(s.st, rng.choice(legal))
    if point == "start":
        st = states[0][2]
    elif point == "middle":
        st = states[len(states) // 2][2]
    else:
        st = max(states, key=lambda x: (x[0], -x[1]))[2]
    s.set_state(st)
    return s


def render(s, width: int, height: int, page: int = 0, seat=None, legal=None) -> str:
    out = io.StringIO()
    s.console = Console(file=out, width=width, height=height, highlight=False, color_system=None)
    seat = s.st.decider if seat is None else seat
    s.show(seat, legal or s.program.legal_moves(s.st), page)
    return out.getvalue()


def flat(text: str) -> str:
    """Text with every run of white space as one space (wrapped lines joined again)."""
    return " ".join(text.split())


def own_region(text: str, seat: int, moves: str = "legal moves") -> tuple:
    """(the own panel's text, the moves' text): the lines under the seat's own title, split at the
    column where the moves (starting with `moves`) start, or at the line, when they are under it."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"seat {seat} · "))
    body = lines[start + 1:-1]                      # the last line is the help
    column = body[0].find(moves)
    if column <= 0:                                 # the moves under the panel
        row = next(i for i, line in enumerate(body) if line.startswith(moves))
        return flat("\n".join(body[:row])), flat("\n".join(body[row:]))
    return flat("\n".join(line[:column] for line in body)), flat("\n".join(line[column:] for line in body))


def hidden_names(s, seat: int, text: str) -> set:
    """Card type names on the screen that the seat cannot know: in no zone of its view (faces or
    cards known to be there) and in no legal move's text."""
    prog, v = s.program, s.view(seat)
    known = {t for z in range(len(prog.zone_names)) for t in v.cards(z) if t is not None}
    known |= {t for z in range(len(prog.zone_names)) for t in v.known_cards(z)}
    moves = " ".join(prog.move_text(s.st, m) for m in prog.legal_moves(s.st))
    out = set()
    for t, name in enumerate(prog.type_names):
        if t not in known and name not in moves and re.search(rf"(?<![^\s,(×\[]){re.escape(name)}(?![^\s,)\]])", text):
            out.add(name)
    return out


# ---- what every screen must show, in the terminal's size ----
@pytest.mark.parametrize("path,players,width,height,point", list(cases()))
def test_the_screen_fits_the_terminal_with_the_own_panel_and_the_moves(path, players, width, height, point):
    s = table(path, players, point)
    seat, prog = s.st.decider, s.program
    text = render(s, width, height)
    lines = text.splitlines()
    assert len(lines) <= height - 1, text                  # and the prompt's line below it
    assert max(len(line) for line in lines) <= width, text
    # the other seats: one line each, right under the header
    for p in range(players):
        if p != seat:
            assert sum(bool(re.match(rf"[▶ ] seat {p} · ", line)) for line in lines) == 1, text
    assert all(re.match(r"[▶ ] seat \d+ · ", line) for line in lines[1:players]), text
    # the own panel: every zone of the seat, its cards by name as it holds them
    shown = s.shown_moves(prog.legal_moves(s.st))
    own, moves = own_region(text, seat, shown.hint.split(":")[0] if shown.hint else "legal moves")
    v = s.view(seat)
    for z in s.shown_zones(seat):
        cards = s.st.zones[z]
        if not v.sees(z):
            continue
        if cards and prog.zone_decl[z].name in s.display.piles:       # a pile: its top card and size
            want = f"top {prog.type_names[prog.card_type[cards[-1]]]} ({len(cards)})"
        else:
            want = brief_counts(prog.type_names, Counter(prog.card_type[c] for c in cards))
        assert f"{s.zone_label(z)}: {want}" in own, (own, text)
    # the moves: the first page holds the first moves, each with its key and text; or the hint
    # that says how to type them (a grid position, a number: typed as the value itself)
    if shown.hint is not None:
        assert flat(shown.hint) in moves, text
        assert not hidden_names(s, seat, text), text
        return
    page = re.search(r"legal moves (\d+)–(\d+) of (\d+)", text)
    first, last = (int(page.group(1)), int(page.group(2))) if page else (1, len(shown.entries))
    assert first == 1 and (page is None or int(page.group(3)) == len(shown.entries))
    for key, _, words in shown.entries[first - 1:last]:
        assert f"{key}. {flat(words)}" in moves, (key, words, text)
    assert not hidden_names(s, seat, text), text


@pytest.mark.parametrize("path,players,width,height,point",
                         [c for c in cases() if c.values[4] == "longest"])
def test_the_pages_of_moves_hold_every_legal_move_once(path, players, width, height, point):
    s = table(path, players, point)
    legal = s.program.legal_moves(s.st)
    keys = [key for key, _, _ in s.shown_moves(legal).entries]
    seen = []
    render(s, width, height)
    for page in range(s.move_pages):
        text = render(s, width, height, page)
        assert len(text.splitlines()) <= height - 1
        hint = s.shown_moves(legal).hint
        if hint is not None:           # typed as values, listed by the hint: no pages of moves
            assert hint.split(":")[0] in text
            return
        _, moves = own_region(text, s.st.decider)
        seen += [k for k in keys if re.search(rf"(?<!\S){re.escape(k)}\. ", moves)]
    assert sorted(seen, key=keys.index) == keys and len(seen) == len(set(seen))


@pytest.mark.parametrize("path", RULESETS)
@pytest.mark.parametrize("point", POINTS)
def test_the_screen_is_the_same_whatever_the_cards_the_seat_cannot_see(path, point):
    """The cards of every zone hidden from the deciding seat, dealt again at random among those
    zones (same sizes), change nothing on its screen: the screen comes from its view only."""
    rules = game_of(path).rules
    s = table(path, rules.max_players, point)
    seat, prog, st = s.st.decider, s.program, s.st
    legal = prog.legal_moves(st)
    before = render(s, 80, 24, legal=legal)
    hidden = [z for z in range(len(prog.zone_names)) if not prog.zone_vis[z] >> seat & 1 and st.zones[z]]
    types = {z: Counter(prog.card_type[c] for c in st.zones[z]) for z in hidden}
    for seed in range(5, 25):       # a redeal that moves some type to another hidden zone, if one can
        cards = [c for z in hidden for c in st.zones[z]]
        random.Random(seed).shuffle(cards)
        for z in hidden:
            st.zones[z], cards = cards[:len(st.zones[z])], cards[len(st.zones[z]):]
        if any(Counter(prog.card_type[c] for c in st.zones[z]) != types[z] for z in hidden):
            break
    assert render(s, 80, 24, legal=legal) == before


# ---- the parts of the screen ----
def r_eco(players: int = 3, point: str = "middle"):
    return table(os.path.join(ROOT, "rulesets", "r_eco.yaml"), players, point)


def test_the_running_scores_and_the_shown_values_are_where_they_belong(monkeypatch):
    """Fake scores and values (the ruleset's display section is another part's): the seat's own
    score in its title, each other seat's in its line (? where unknown), a table value on the
    table, a seat's value in its line or the own panel."""
    s = r_eco(3)
    seat = s.st.decider
    other = (seat + 1) % 3
    scores = [None] * 3
    scores[seat], scores[other] = 17, -2
    monkeypatch.setattr(Session, "running_scores", lambda self, k: scores)
    monkeypatch.setattr(Session, "shown_values", lambda self, k: [
        (None, "icons out", "12"), (other, "to the limit", "3"), (seat, "my limit", "1")])
    text = render(s, 80, 24)
    lines = text.splitlines()
    assert re.match(rf"seat {seat} · human.* · score 17 ─", lines[next(
        i for i, line in enumerate(lines) if line.startswith(f"seat {seat} · "))])
    theirs = next(line for line in lines if re.match(rf"[▶ ] seat {other} · ", line))
    assert "score -2" in theirs and "to the limit: 3" in theirs
    third = next(line for line in lines if re.match(rf"[▶ ] seat {3 - seat - other} · ", line))
    assert "score ?" in third
    own, _ = own_region(text, seat)
    assert "my limit: 1" in own and "icons out" not in own
    table_part = "\n".join(lines[3:next(i for i, line in enumerate(lines) if line.startswith(f"seat {seat} · "))])
    assert "icons out: 12" in table_part


def test_labels_name_the_zones_and_variables_and_hidden_zones_are_left_out():
    s = r_eco(2)
    s.display.labels.update({"hand": "cards in hand", "discard": "discard pile"})
    s.display.hidden.add("box")
    text = render(s, 120, 40)
    own, _ = own_region(text, s.st.decider)
    assert own.startswith("cards in hand: ") and "discard pile: " in text
    assert not re.search(r"(?<!cards in )hand: ", text) and "box" not in text
    s.display.hidden.clear()
    assert "box: " in render(s, 120, 40)


def test_only_piles_are_shown_as_their_top_card():
    s = r_eco(2, "start")
    text = render(s, 120, 40)
    assert re.search(r"top reward:cans:0 \(\d\)", text)
    s.display.piles = set()
    text = render(s, 120, 40)
    assert "top " not in text and re.search(r"reward:cans:0, reward:cans:1", text)


def test_the_table_gives_way_before_the_own_panel_and_the_moves():
    """At 80×12 even the compact table does not fit: it is cut, with a note, and the seat's own
    panel and moves stay whole."""
    s = table(os.path.join(ROOT, "rulesets", "lixo.yaml"), 2, "middle")
    text = render(s, 80, 12)
    assert len(text.splitlines()) <= 11 and "… d shows the whole table" in text
    own, moves = own_region(text, s.st.decider)
    assert own.startswith("hand: ") and "legal moves" in moves


def test_pack_keeps_the_order_and_the_width():
    assert pack(["a: 1", "b: 2", "c: 333333"], 11) == ["a: 1 · b: 2", "c: 333333"]
    assert pack(["x" * 20, "y"], 10) == ["x" * 20, "y"]


def test_a_page_of_moves_lists_them_down_then_across():
    entries = [(str(i), None, f"m{i}") for i in range(1, 12)]
    page = MovePage(entries, 25, 3)
    assert (page.columns, page.size, page.pages) == (3, 9, 2)
    assert page.title() == "legal moves 1–9 of 11, n/p for more:"
    last = MovePage(entries, 25, 3, page=5)
    assert (last.page, last.first, last.last) == (1, 9, 11)
    out = io.StringIO()
    Console(file=out, width=25).print(page.table())
    assert out.getvalue().splitlines()[0].split() == ["1.", "m1", "4.", "m4", "7.", "m7"]


# ---- through the input loop ----
MEMO = os.path.join(ROOT, "rulesets", "sorting_memo.yaml")


def memo_play(answers: list, width: int = 80, height: int = 24):
    out = io.StringIO()
    it = iter(answers)
    s = Session(load_game(MEMO), 2, 1, {1: "random"}, ask=lambda prompt: next(it),
                console=Console(file=out, width=width, height=height, highlight=False, color_system=None))
    while s.st.pending.name != "first_spot":        # the setup's choices of stacks
        s.program.apply(s.st, s.program.legal_moves(s.st)[0])
    assert s.run() is False
    return s, out.getvalue()


MANY_MOVES = """
name: many moves
players: {min: 2, max: 2}
cards:
  chip: {for: {rank: "numbers(50)"}, name: "chip:{rank}", count: 1, start: deck}
zones:
  deck: {visible: nobody}
  hand: {owner: each, visible: owner}
  played: {visible: everyone}
setup: ["move deck to hand(0)"]
turn:
  steps:
    - choose: play
      cards: hand
      count: 1
    - move play to played
end: {when: "count(played) > 0"}
score: count(played)
"""


def many_moves(tmp_path, answers: list, width: int = 80, height: int = 24):
    """A game whose first decision has 50 moves (a card of 50, none typed as a value)."""
    path = tmp_path / "many.yaml"
    path.write_text(MANY_MOVES, encoding="utf-8")
    out, it = io.StringIO(), iter(answers)
    s = Session(load_game(str(path)), 2, 1, {1: "random"}, ask=lambda prompt: next(it),
                console=Console(file=out, width=width, height=height, highlight=False, color_system=None))
    assert s.run() is False
    return s, out.getvalue()


def test_n_and_p_turn_the_pages_of_moves_on_the_whole_screen(tmp_path):
    s, out = many_moves(tmp_path, ["p", "n", "n", "p", "q", "y"])
    titles = re.findall(r"legal moves (\d+)–(\d+) of 50, n/p for more:", out)
    size = int(titles[0][1])
    assert size < 50
    pages = [(int(a), int(b)) for a, b in titles]
    assert pages == [(1, size), (size + 1, 2 * size), (2 * size + 1, min(3 * size, 50)), (size + 1, 2 * size)]
    assert "this is the first page of moves: n for the next one" in out
    second = out.split("seat 0> n")[1]
    entries = s.shown_moves(s.program.legal_moves(s.st)).entries
    assert f"{size + 1}. {entries[size][2]}" in second and f" 1. {entries[0][2]} " not in second
    screens = out.split("seat 0> ")
    assert all(len(block.splitlines()) <= 24 for block in screens[1:-1])


def test_n_says_when_every_move_is_on_the_screen():
    out = io.StringIO()
    answers = iter(["n", "p", "q"])
    s = Session(load_game(os.path.join(ROOT, "rulesets", "r_eco.yaml")), 2, 1, {1: "random"},
                ask=lambda prompt: next(answers),
                console=Console(file=out, width=120, height=40, highlight=False, color_system=None))
    assert s.run() is False
    assert out.getvalue().count("all the legal moves are on the screen") == 2
    assert out.getvalue().count("legal moves:") == 1         # the screen is not shown again


def test_d_shows_every_panel_every_zone_and_every_move():
    s, out = memo_play(["d", "q"])
    detail = out.split("seat 0> d")[1]
    assert "╭─ seat 0 · you ★ started · to play · score 0" in detail     # its own containers: known
    assert "╭─ seat 1 · random · score ?" in detail and "╭─ table" in detail
    assert re.search(r"│\s+stack\s+│", detail) and "box" not in detail        # display.hide: box
    for k in range(1, 51):
        assert f"{k}. first_spot: {k}" in detail


def test_a_hint_instead_of_the_moves_is_shown_with_the_own_panel(monkeypatch):
    """When the moves are better chosen another way (a grid position typed as shown), the hint
    takes the moves' place and the screen still fits."""
    from interpreter.tools.play.typed_moves import MoveList
    hint = "type a position of the grid (1 to 50) to turn its card over"
    monkeypatch.setattr(Session, "shown_moves", lambda self, legal: MoveList([], hint))
    s = table(MEMO, 4, "middle")
    text = render(s, 80, 24)
    assert len(text.splitlines()) <= 23 and "legal moves" not in text
    own, moves = own_region(text, s.st.decider, hint[:12])
    assert moves == hint and own.startswith("containers: ")


@pytest.mark.parametrize("path", RULESETS)
@pytest.mark.parametrize("width,height", [(40, 12), (20, 8)])
def test_a_terminal_too_small_for_the_screen_still_gets_the_own_panel_and_the_moves(path, width, height):
    """Below 80×24 nothing is promised about the height, but the screen is drawn, the own panel
    and the moves (or the hint) first, the table cut."""
    g = game_of(path)
    for players in (g.rules.min_players, g.rules.max_players):
        for point in POINTS:
            s = table(path, players, point)
            text = flat(render(s, width, height))
            shown = s.shown_moves(s.program.legal_moves(s.st))
            assert f"seat {s.st.decider} · " in text
            assert flat(shown.hint)[:10] in text if shown.hint else shown.entries[0][2][:10] in text.replace("\n", "")
