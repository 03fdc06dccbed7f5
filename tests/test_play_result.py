"""The running score and the shown values (only what the seat may know), and the end screen: every
score in its parts, the tie-breaks named, the winners, the hidden cards revealed."""
from __future__ import annotations

import io
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from rich.console import Console

from interpreter.compiler.game import load_game
from interpreter.tools.play import Session, counts_text

BASE = (Path(__file__).parent / "errors" / "_valid_base.yaml").read_text(encoding="utf-8")
ROOT = Path(__file__).resolve().parents[1]
BASE_SCORE = "score: sum(sum(pile[c].value) for c in colours) + bonus - count(hand)"


def mini(tmp_path, score: str, extra: str = ""):
    path = tmp_path / "mini.yaml"
    path.write_text(BASE.replace(BASE_SCORE, f"score: {score}") + extra, encoding="utf-8")
    return load_game(str(path))


def session(g, players: int = 2, bots: dict | None = None, seed: int = 1, width: int = 120) -> Session:
    out = io.StringIO()
    s = Session(g, players, seed, {} if bots is None else bots, ask=lambda prompt: "q",
                console=Console(file=out, width=width, highlight=False, color_system=None))
    s.out = out
    return s


def real_score(s, seat: int) -> str:
    return str(s.program.score(s.st, seat))


# ---- the running score ----
def test_a_score_that_reads_a_hidden_hand_is_known_to_its_owner_only(tmp_path):
    s = session(mini(tmp_path, "sum(hand.value)"))
    assert s.running_scores(0) == [real_score(s, 0), None]
    assert s.running_scores(1) == [None, real_score(s, 1)]


def test_a_score_of_public_cards_and_sizes_is_known_to_everyone(tmp_path):
    s = session(mini(tmp_path, "sum(sum(pile[c].value) for c in colours) + bonus - count(hand)"))
    everyone = [real_score(s, 0), real_score(s, 1)]
    assert s.running_scores(0) == everyone == s.running_scores(1)


def test_the_running_score_is_the_score_as_if_the_game_ended_now(tmp_path):
    s = session(mini(tmp_path, "sum(sum(pile[c].value) for c in colours) + bonus - count(hand)"))
    before = s.running_scores(1)
    s.program.apply(s.st, s.program.legal_moves(s.st)[0])       # seat 0 plays a card onto a pile
    assert s.running_scores(1) == [real_score(s, 0), real_score(s, 1)]
    assert s.running_scores(1)[0] != before[0]


def test_the_screen_shows_the_running_score_in_each_panel_and_a_question_mark_where_hidden(tmp_path):
    s = session(mini(tmp_path, "sum(hand.value)"))
    s.show(0, s.program.legal_moves(s.st))
    out = s.out.getvalue()
    assert re.search(rf"^seat 0 · .*· score {real_score(s, 0)} ", out, re.M)      # the own title line
    assert re.search(r"^\W*seat 1 · human · score \? ", out, re.M)                # the other seat's line


# ---- the shown values ----
SHOW = ("display:\n  show:\n    - {label: hand value, value: sum(hand.value), per: seat}\n"
        "    - {label: cards left, value: count(draw)}\n")


def test_a_shown_value_is_given_for_every_seat_as_the_viewer_may_know_it(tmp_path):
    s = session(mini(tmp_path, "0", SHOW))
    prog, st = s.program, s.st
    hand = [str(prog.as_seat(st, p, prog.function(prog.rules.display["show"][0].expr), None)) for p in (0, 1)]
    left = str(len(st.zones[prog.zone_base["draw"]]))
    assert s.shown_values(0) == [(0, "hand value", hand[0]), (1, "hand value", "?"), (None, "cards left", left)]
    assert s.shown_values(1) == [(0, "hand value", "?"), (1, "hand value", hand[1]), (None, "cards left", left)]


def test_the_screen_shows_per_seat_values_in_the_panels_and_table_values_on_the_table(tmp_path):
    s = session(mini(tmp_path, "0", SHOW))
    s.show(1, s.program.legal_moves(s.st))
    lines = s.out.getvalue().splitlines()
    other = next(line for line in lines if "seat 0 ·" in line)
    own = lines[next(i for i, line in enumerate(lines) if line.startswith("seat 1 ·")) + 1:]
    assert "hand value: ?" in other and re.search(r"hand value: \d+", "\n".join(own))
    table = [line for line in lines if "pile[red]" in line]
    assert len(table) == 1 and re.search(r"cards left: \d+", table[0])


def redealt(prog, st, viewer: int, rnd: random.Random):
    """A copy of st with every card the viewer cannot see dealt anew among the zones it cannot see
    (the same sizes): a state the viewer cannot tell from st."""
    t = st.clone()
    hidden = [z for z in range(len(prog.zone_names)) if not prog.zone_vis[z] >> viewer & 1]
    cards = [c for z in hidden for c in t.zones[z]]
    rnd.shuffle(cards)
    for z in hidden:
        t.zones[z], cards = cards[:len(t.zones[z])], cards[len(t.zones[z]):]
        for c in t.zones[z]:
            t.loc[c] = z
    return t


def seen(s, viewer: int) -> tuple:
    return tuple(s.running_scores(viewer)), tuple(s.shown_values(viewer))


@pytest.mark.parametrize("name,players", [("sorting_memo", 2), ("r_eco", 3), ("lixo", 3)])
def test_no_running_score_or_shown_value_tells_a_seat_a_card_it_cannot_see(name, players):
    """Whatever the cards hidden from a seat are, it is shown the same scores and values."""
    s = session(load_game(str(ROOT / "rulesets" / f"{name}.yaml")), players)
    rnd, unknown, known = random.Random(7), 0, 0
    while not s.st.over and s.st.turn < 40:
        for viewer in range(players):
            before = seen(s, viewer)
            real = s.st
            s.st = redealt(s.program, real, viewer, rnd)
            assert seen(s, viewer) == before
            s.st = real
            unknown += sum(v is None for v in before[0]) + sum(v[2] == "?" for v in before[1])
            known += sum(v is not None for v in before[0])
        s.program.apply(s.st, rnd.choice(s.program.legal_moves(s.st)))
    assert known > 0
    if name == "sorting_memo":       # the score reads the seat's own containers, face down
        assert unknown > 0


# ---- the end screen ----
def whole_game(name: str, players: int, seed: int = 3, width: int = 120) -> Session:
    g = load_game(str(ROOT / "rulesets" / f"{name}.yaml"))
    s = session(g, players, {k: "random" for k in range(players)}, seed, width)
    assert s.run() is True
    return s


def parts_table(text: str) -> dict:
    """{row label: [value per seat]} of the end screen's "the score in parts"."""
    block = text[text.index("the score in parts"):].splitlines()
    rows = {}
    for line in block:
        cells = [c.strip() for c in line.strip().strip("│┃").split("│")]
        if len(cells) > 1 and all(re.fullmatch(r"-?\d+", c) for c in cells[1:]):
            rows[cells[0]] = [int(c) for c in cells[1:]]
        if line.startswith("└"):
            break
    return rows


def test_the_end_screen_breaks_every_score_into_the_terms_it_adds_up():
    s = whole_game("lixo", 3)
    rows = parts_table(s.out.getvalue())
    # Lixo's score: sum(won.value) - count(hand) - count(unrecycled) - count(bids), its first three
    # terms reported by the stats container_points, garbage_left and lost_bids
    assert list(rows) == ["container_points", "− garbage_left", "− lost_bids", "− count(bids)", "score"]
    # each row shows the term's own value under its sign: the column reads as the sum
    for p in range(3):
        terms = [-v[p] if k.startswith("− ") else v[p] for k, v in rows.items() if k != "score"]
        assert sum(terms) == rows["score"][p] == s.program.score(s.st, p)
    assert rows["− garbage_left"] == [len(s.st.zones[s.program.zone_names.index(f"hand({p})")]) for p in range(3)]


def test_the_end_screen_names_what_each_tie_break_counts():
    text = whole_game("r_eco", 2).out.getvalue()
    assert "tie-break 1 (fewest)" in text and "tie-break 1: fewest count(disposal)" in text
    memo = whole_game("sorting_memo", 2).out.getvalue()
    assert "tie-break 1: fewest unsorted cards" in memo          # the function's label


def test_a_score_of_one_term_is_broken_down_by_the_per_seat_stats():
    s = whole_game("sorting_memo", 2)
    text = s.out.getvalue()
    block = text[text.index("per seat (the ruleset's stats)"):]
    stats = s.program.stat_values(s.st)
    for name in ("pairs_found", "sorted", "unsorted", "trucks_unused"):
        assert re.search(rf"│ {name}\s+│\s+{stats[name][0]} │\s+{stats[name][1]} │", block), name
    assert "trucks_on_grid" not in block         # a stat of the game, not of a seat


def test_the_end_screen_reveals_every_seats_hidden_cards():
    s = whole_game("r_eco", 3)
    text, prog, st = s.out.getvalue(), s.program, s.st
    revealed = text[text.index("hidden cards, revealed:"):]
    for p in range(3):
        for zone, words in (("hand", "hand"), ("disposal", "disposed illegally")):
            cards = st.zones[prog.zone_names.index(f"{zone}({p})")]
            if cards:
                counts = counts_text(prog.type_names, Counter(prog.card_type[c] for c in cards))
                assert f"seat {p} · {words}: {counts}" in revealed
    assert "box" not in revealed           # display.hide leaves the unused rewards out
