"""`play` driven end to end through scripted input, its output checked against the rule sheet and the
seats' views (never the real state)."""
from __future__ import annotations

import io
import os
import re
import shutil
import sys
from collections import Counter

import pytest
from rich.console import Console

from helpers import MATERIALS, RECYCLING, REWARD_ROWS, RULESET, game, program
from interpreter.runtime.events import for_seat
from interpreter.compiler.game import load_game
from interpreter.tools.play import Session, ordered_families
from interpreter.tools.play.layout import brief_counts
from interpreter.seats.views import view_of

WIDTH = 200      # wide enough that no line of the layout wraps


def session(script, players: int = 2, seed: int = 1, bots=None, g=None, memory_aid: bool = False,
            width: int = WIDTH):
    """A Session whose input is script(session, prompt) -> line; the output goes to session.out."""
    out = io.StringIO()
    console = Console(file=out, width=width, highlight=False, color_system=None)
    holder = {}
    s = Session(g or game(), players, seed, {1: "greedy"} if bots is None else bots,
                ask=lambda prompt: script(holder["s"], prompt), console=console, memory_aid=memory_aid)
    holder["s"] = s
    s.out = out
    return s


def autoplay(s, prompt: str) -> str:
    """Always the first legal move, confirm everything, Enter at the pass screen."""
    if "confirm" in prompt:
        return "c"
    if "press Enter" in prompt:
        return ""
    return "1"


def lines(items):
    """A script from a list of answers; the input ends after the last (the game is abandoned)."""
    it = iter(items)
    return lambda s, prompt: next(it)


def grouped(prog, st, zone: str) -> str:
    """How a seat's own panel shows its zone (exact cards grouped by type)."""
    cards = st.zones[prog.zone_names.index(zone)]
    return brief_counts(prog.type_names, Counter(prog.card_type[c] for c in cards))


# ---- a whole game ----
def test_whole_game_against_greedy_ends_with_the_score_table():
    s = session(autoplay, seed=4)
    assert s.run() is True
    out = s.out.getvalue()
    prog, st = s.program, s.st
    assert st.over
    result = prog.result(st)
    assert "final scores" in out and "tie-break 1 (fewest)" in out
    table = out[out.index("final scores"):]
    for k in range(2):
        key = prog.ranking_key(st, k)
        assert re.search(rf"│\s+{k}\s+│\s+\S+\s+│\s+{key[0]}\s+│\s+{-key[1]}\s+│", table), table
    label = "shared victory" if len(result["winners"]) > 1 else "winner"
    assert f"{label}: " + ", ".join(f"seat {k} ({s.who(k)})" for k in result["winners"]) in out
    # the human's screen: the opponent's line, the table as one grid, the own panel with the starter's star
    first = out[:out.index("legal moves:")]
    assert first.index("seat 1 · greedy") < first.index("side") < first.index("seat 0 · you ★ started")
    assert re.search(r"side\s+rewards\s+dump", first)
    for m in MATERIALS:
        assert re.search(rf"^{m}\s.*top reward:{m}:0 \(6\)", first, re.M)
    assert "draw: " in first and "discard: " in first
    # bots' moves as they happen; the human's own hand never leaks the opponent's hidden cards
    assert re.search(r"^seat 1 \(greedy\): deliver \d+×\S+ hand\(1\) → side\[", out, re.M)
    assert "known: " in out                # perfect memory shown (R-Eco: display.knowledge full)


# ---- undo ----
def test_undo_restores_the_exact_state_and_stops_at_revealed_cards():
    """Play the first move until seat 0 must dispose (its deliver was not revealing, so it is on the
    undo stack); undo it, redo it, dispose and confirm; then undo is refused."""
    saved, log = {}, []

    def script(s, prompt):
        st = s.st
        step = saved.get("step")
        if step is None:                                   # phase 1: play on until a disposal is due
            if "confirm" in prompt:
                return "c"
            if st.pending.name == "dispose" and st.decider == 0:
                assert s.undo_stack, "the deliver before a disposal stays undoable"
                saved.update(step="undone", at_dispose=st.clone(), before=s.undo_stack[-1][0].clone(),
                             text=s.undo_stack[-1][1])
                return "u"
            return "1"
        if step == "undone":                               # back before the deliver, exactly
            assert st == saved["before"] and st.pending.name == "deliver"
            saved["step"] = "redone"
            return saved["text"]
        if step == "redone":                               # the same deliver gives the same state
            assert st == saved["at_dispose"]
            saved["step"] = "dispose"
            return "1"
        if step == "dispose":                              # disposing lets the refill turn cards over
            assert "confirm" in prompt
            saved["step"] = "cancel"
            return "u"                                     # u at the confirmation: nothing applied
        if step == "cancel":
            assert st == saved["at_dispose"] and "confirm" not in prompt
            saved["step"] = "confirm"
            return "1"
        if step == "confirm":
            assert "confirm" in prompt
            saved["step"] = "after"
            return "c"
        if step == "after":                                # a new turn of seat 0: nothing to undo
            if "confirm" in prompt:
                return "c"
            if st.decider == 0 and st.turn > saved["at_dispose"].turn:
                saved["step"] = "refused"
                saved["before_refused"] = st.clone()
                return "u"
            return "1"
        assert st == saved["before_refused"]
        return "q"

    s = session(script, seed=3)
    for seed in range(3, 40):                              # a deal where seat 0 soon has to dispose
        saved.clear()
        s = session(script, seed=seed)
        if s.run() is False and saved.get("step") == "refused":
            break
    else:
        pytest.fail("no seed with a disposal by seat 0")
    out = s.out.getvalue()
    assert f"undone: {saved['text']}" in out
    assert "this reveals new cards: c to confirm, u to undo" in out
    assert "nothing to undo: " in out
    refused = out[out.rindex("nothing to undo: "):].splitlines()[0]
    assert "confirmed" in refused or "decided since" in refused


def test_undo_at_the_first_decision_says_why():
    s = session(lines(["u", "q"]))
    assert s.run() is False
    assert "nothing to undo: you have made no move yet" in s.out.getvalue()


# ---- illegal input ----
def test_illegal_input_leaves_the_state_unchanged():
    saved = {}

    def script(s, prompt):
        if "st" not in saved:
            saved["st"] = s.st.clone()
        answers = saved.setdefault("answers", iter(["deliver: 9*cans:1", "99", "frobnicate", "c", "?", "STOP"]))
        answer = next(answers)
        if answer == "STOP":
            assert s.st == saved["st"] and s.st.pending.name == "deliver"
            return "q"
        return answer

    s = session(script)
    assert s.run() is False
    out = s.out.getvalue()
    assert "'deliver: 9*cans:1' is not a legal move for seat 0" in out
    assert "there is no move 99" in out
    assert "'frobnicate' is not a legal move" in out
    assert "nothing to confirm" in out
    assert out.count("legal moves:") == 1 and "how to choose a move:" in out    # ? prints help, not the screen
    assert "game abandoned in turn 1." in out


HOSTILE_LINES = {
    "a number of 5,000 digits": ("7" * 5000, "there is no move 7777"),
    "a move number out of range": ("0", "there is no move 0: type 1 to"),
    "a negative number": ("-3", "there is no move -3: type 1 to"),
    "a very long line": ("deliver: " + "x" * 100_000, "that is not a move: 100,009 characters"),
    "control characters": ("\x1b[2J\x07\x00", "'\\x1b[2J\\x07\\x00' is not a legal move"),
    "digits that are not ASCII": ("\u0663\u00b2", "is not a legal move"),
}


@pytest.mark.parametrize("what", HOSTILE_LINES)
def test_any_line_however_long_is_refused_with_a_reason_and_asked_again(what):
    line, reason = HOSTILE_LINES[what]
    saved = {}

    def script(s, prompt):
        answers = saved.setdefault("answers", iter([line, "", "STOP"]))
        saved.setdefault("st", s.st.clone())
        answer = next(answers)
        if answer == "STOP":
            assert s.st == saved["st"]                   # refused: the state is unchanged
            return "q"
        return answer

    s = session(script)
    assert s.run() is False
    out = s.out.getvalue()
    assert reason in out
    assert out.count("seat 0> ") == 3                    # asked again after the refusal and the empty line
    assert "\x1b" not in out and len(out) < 20_000       # the echo and the reason are cut and escaped


def test_piped_input_of_any_kind_never_ends_play_with_an_error():
    """EOF, empty lines, long lines, control characters, bad numbers and bytes that are not UTF-8, by
    subprocess: exit 0 (the input ends the game), no traceback."""
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    data = b"\n\n" + b"9" * 5000 + b"\n-1\n0\n" + b"x" * 200_000 + b"\n\x1b[31m\x00\n\xff\xfe\n"
    proc = subprocess.run([sys.executable, os.path.join(root, "cli.py"), "play", RULESET, "--players", "2",
                           "--seed", "3", "--seat", "1=random"], input=data, capture_output=True, timeout=120)
    err = proc.stderr.decode("utf-8", "replace")
    out = proc.stdout.decode("utf-8", "replace")
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "internal error" not in err
    assert "there is no move 9999" in out and "there is no move -1" in out and "there is no move 0" in out
    assert "that is not a move: 200,000 characters" in out and "game abandoned" in out


def test_markup_in_names_is_shown_as_written(tmp_path):
    base = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "errors", "_valid_base.yaml"),
                encoding="utf-8").read()
    path = tmp_path / "markup.yaml"
    path.write_text(base.replace("name: Mini", 'name: "[bold red]x[/] game"')
                    .replace('name: "{colour}:{value}"', 'name: "[{colour}]:{value}"'), encoding="utf-8")
    s = session(lines(["q"]), g=load_game(str(path)), bots={1: "random"})
    s.run()
    out = s.out.getvalue()
    assert "[bold red]x[/] game, 2 players" in out
    assert re.search(r"hand: \[\w+\]:\d, \[\w+\]:\d", out), out
    assert re.search(r"1\. played: 1\*\[\w+\]:\d", out), out


# ---- reward stacks and the draw-pile overview ----
@pytest.mark.parametrize("players", [2, 3, 5])
def test_s_lists_the_reward_stacks_next_card_first(players):
    bots = {k: "random" for k in range(1, players)}
    s = session(lines(["s", "q"]), players=players, bots=bots)
    s.run()
    out = s.out.getvalue()
    block = out[out.index("piles in draw order (next card first):"):]
    for m in MATERIALS:
        want = ", ".join(f"reward:{m}:{v}" for v in REWARD_ROWS[players])
        assert f"  rewards[{m}]: {want}\n" in block
    assert "draw:" not in block.split("seat 0>")[0]       # the hidden draw pile's order is not shown


def test_ordered_families_are_the_piles_the_rules_take_from_the_top():
    assert ordered_families(program(2).rules) == {"box", "draw", "rewards"}


def test_o_shows_what_may_still_be_in_the_draw_pile():
    s = session(lines(["o", "q"]), seed=6)
    s.run()
    out = s.out.getvalue()
    prog, st = s.program, s.st
    draw = prog.zone_names.index("draw")
    m = re.search(rf"\n  draw: {len(st.zones[draw])} cards, may be (.*?)(?: \(known there: [^)]*\))?\n[ (]",
                  out, re.S)
    assert m, out
    shown = {t: int(n) for n, t in (c.split("×") for c in " ".join(m.group(1).split()).split(", "))}
    # by hand, from the sheet: every recycling card but seat 0's hand and the four dump sites
    # (the opponent's three hidden cards may be in the draw pile as far as seat 0 knows)
    seen = Counter(prog.type_names[prog.card_type[c]]
                   for z in ["hand(0)"] + [f"dump[{m}]" for m in MATERIALS]
                   for c in st.zones[prog.zone_names.index(z)])
    want = {t: n - seen[t] for t, n in RECYCLING.items() if n - seen[t] > 0}
    assert shown == want
    view = view_of(prog, for_seat(prog, st.log, 0), 0)
    assert {prog.type_names[t]: n for t, n in view.could_be_in("draw").items()} == want
    assert "box:" not in out            # the unused rewards: display.hide leaves them out of o too


# ---- what the ruleset lets the terminal show ----
def faces_game(tmp_path):
    path = tmp_path / "r_eco_faces.yaml"
    shutil.copy(RULESET, tmp_path)      # a base ruleset lies beside its variant
    path.write_text(f"extends: {os.path.basename(RULESET)}\ndisplay: {{knowledge: faces}}\n", encoding="utf-8")
    return load_game(str(path))


def test_faces_hides_the_knowledge_unless_memory_aid(tmp_path):
    g = faces_game(tmp_path)
    assert g.rules.display["knowledge"] == "faces" and game().rules.display["knowledge"] == "full"
    s = session(lines(["o", "q"]), g=g)
    s.run()
    out = s.out.getvalue()
    assert "known:" not in out and "what may still be in" not in out
    assert "--memory-aid for the overview" in out
    assert re.search(r"draw: \d+ cards\s", out)
    s = session(lines(["o", "q"]), g=g, memory_aid=True)
    s.run()
    out = s.out.getvalue()
    assert "known: " in out and "what may still be in each hidden zone" in out


def test_cli_memory_aid_option(capsys, monkeypatch, tmp_path):
    from interpreter.tools.cli import main
    g = tmp_path / "r_eco_faces.yaml"
    shutil.copy(RULESET, tmp_path)      # a base ruleset lies beside its variant
    g.write_text(f"extends: {os.path.basename(RULESET)}\ndisplay: {{knowledge: faces}}\n", encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO("o\nq\n"))
    assert main(["play", str(g), "-n", "2", "--seed", "1", "--seat", "1=random", "--memory-aid"]) == 0
    assert "what may still be in each hidden zone" in capsys.readouterr().out


# ---- hot seat ----
def test_hot_seat_hides_the_previous_hand():
    passes = []

    def script(s, prompt):
        if "press Enter" in prompt:
            passes.append((len(s.out.getvalue()), s.st.clone(), s.st.decider))
        if len(passes) >= 4:
            return "q"
        return autoplay(s, prompt)

    s = session(script, bots={}, seed=2)
    assert s.run() is False
    out, prog = s.out.getvalue(), s.program
    assert "— pass to seat 0 —" in out and "— pass to seat 1 —" in out
    secret = 0
    for start, st, nxt in passes[1:3]:
        prev = 1 - nxt
        block = out[start:]
        block = block[:block.index(f"seat {nxt}> ")]
        assert "press Enter" in block
        # the next seat's own hand, exactly
        mine = re.search(rf"seat {nxt} · human[^\n]*\nhand: (.*?)(?: · |\s\s)", block).group(1)
        assert mine == grouped(prog, st, f"hand({nxt})")
        # the previous seat's line shows its hand by size (and what the next seat knows of it) only
        theirs = re.search(rf"seat {prev} · human[^\n]*? · hand: ([^·\n]*)", block).group(1)
        n = len(st.zones[prog.zone_names.index(f"hand({prev})")])
        assert re.match(rf"{n}( cards?)?\b", theirs), theirs
        known = view_of(prog, for_seat(prog, st.log, nxt), nxt).known_cards(f"hand({prev})")
        if sum(known.values()) < n:                          # some of its cards are secret
            assert grouped(prog, st, f"hand({prev})") not in block
            secret += 1
        assert block.index(f"seat {prev} · human") < block.index(f"seat {nxt} · human")
    assert secret                                           # the check above did happen


# ---- Lixo: auctions decided by other seats, deals on one line ----
def test_a_whole_lixo_game_by_hand_against_two_greedy_bots():
    lixo = load_game(RULESET.replace("r_eco.yaml", "lixo.yaml"))
    s = session(autoplay, players=3, seed=2, bots={1: "greedy", 2: "greedy"}, g=lixo)
    assert s.run() is True
    out = s.out.getvalue()
    st, prog = s.st, s.program
    assert st.over and st.turn == 30
    assert "final scores" in out
    # the human is asked in auctions led by other seats, and bids or passes
    assert re.search(r"turn \d+ \(seat [12]'s turn\) — seat 0 decides: auction", out)
    assert re.search(r"\b1\. bid: 1\*", out) and re.search(r"\d+\. pass\s*$", out, re.M)
    # a deal is one line: the seat's own cards by name, the others' as hidden counts
    deal = re.search(r"garbage → hand: seat 0 ([^·\n]+) · seat 1 5 hidden cards · seat 2 5 hidden cards", out)
    assert deal, out[:3000]
    assert "known: " not in out          # Lixo shows the faces up now (display.knowledge faces)
    # the greedy bots' bids are public: shown card by card as they happen
    assert re.search(r"^seat [12] \(greedy\): bid \d+×\S+ hand\([12]\) → bids\([12]\)", out, re.M)


# ---- Sorting Memo: the grid of positions (display.grid) ----
MEMO = RULESET.replace("r_eco.yaml", "sorting_memo.yaml")
GRID_WIDTH = 120     # a common terminal: a 10-column grid must fit without wrapping


def memo_session(script=None, memory_aid: bool = False, g=None, seed: int = 1):
    """A two-seat Sorting Memo game at 120 columns; both seats are scripted (no bot moves)."""
    return session(script or lines(["", "q"]), g=g or load_game(MEMO), bots={}, seed=seed,
                   memory_aid=memory_aid, width=GRID_WIDTH)


def screen(s, seat: int) -> str:
    """The decision screen `seat` would be shown now (its own view), as text."""
    out = io.StringIO()
    s.console = Console(file=out, width=GRID_WIDTH, highlight=False, color_system=None)
    s.show(seat, s.program.legal_moves(s.st))
    return out.getvalue()


def grid_rows(text: str) -> list:
    """The lines of the last grid shown in text, cell by cell: [index cells, card cells, ...]."""
    block = text[text.rindex("up / down: "):]
    block = block[block.index(" empty"):].splitlines()[1:]           # the title may take two lines
    rows, starts = [], []
    for line in block:
        inner = line.strip().strip("│").rstrip()
        if not inner.strip() or inner.strip().startswith("abbreviated"):
            break
        if len(rows) % 2 == 0:           # an index line: where its cells start
            if not inner.split()[0].isdigit():        # the grid is over: the table goes on
                break
            starts = [m.start() for m in re.finditer(r"\S+", inner)] + [None]
        rows.append([inner[a:b].strip() for a, b in zip(starts, starts[1:])])
    return rows


def grid_cells(text: str) -> dict:
    """{position: what its cell shows} in the last grid of text."""
    rows = grid_rows(text)
    return {int(i): c for idx, cards in zip(rows[0::2], rows[1::2]) for i, c in zip(idx, cards)}


def spot_names(s) -> dict:
    """{position: name of the card face down there} from the real state (to choose moves, not to check)."""
    prog, st = s.program, s.st
    out = {}
    for c in prog.family["down"]:
        cards = st.zones[prog.zone_base["down"] + prog.family["down"][c]]
        if cards:
            out[c] = prog.type_names[prog.card_type[cards[-1]]]
    return out


def to_first_card(s) -> None:
    """Play the setup's stack choices (the first legal one) until a seat turns its first card."""
    while s.st.pending.name != "first_spot":
        s.program.apply(s.st, s.program.legal_moves(s.st)[0])


def turn_over(s, decision: str, spot: int) -> None:
    s.program.apply(s.st, s.program.parse_move(s.st, f"{decision}: {spot}"))


def two_different(s, width: int = 7) -> tuple:
    """Two face-down recyclables of different pictures whose names fit a remembered cell unabbreviated."""
    names = {c: n for c, n in spot_names(s).items() if not n.startswith("truck:") and len(n) <= width}
    a = next(iter(names))
    b = next(c for c, n in names.items() if n != names[a])
    return (a, names[a]), (b, names[b])


def test_memo_grid_lays_out_rows_by_cols_positions_within_120_columns():
    g = load_game(MEMO)
    grid = g.rules.display["grid"]
    assert g.rules.display["knowledge"] == "faces" and grid["families"] == ["up", "down"]
    s = memo_session(g=g)
    assert s.run() is False
    out = s.out.getvalue()
    assert "up / down: 50 positions, 10 a row — 50 face down, 0 empty" in out
    rows = grid_rows(out)
    assert len(rows) == 2 * 5
    for r in range(5):
        assert rows[2 * r] == [str(c) for c in range(10 * r + 1, 10 * r + 11)]
        assert rows[2 * r + 1] == ["?"] * 10
    assert max(len(line) for line in out.splitlines()) <= GRID_WIDTH
    # the positions are no longer listed one per line; the other families keep their table
    assert not re.search(r"│\s+\d+\s+1 card\s+—", out)
    assert re.search(r"stack\[1\]: 4 cards", out) and re.search(r"stack\[5\]: 4 cards", out)


def test_memo_grid_columns_follow_the_param():
    s = memo_session(g=load_game(MEMO, {"rows": 4, "cols": 6}))
    s.run()
    rows = grid_rows(s.out.getvalue())
    assert [len(r) for r in rows] == [6, 6] * 4
    assert rows[-2] == [str(c) for c in range(19, 25)]


def test_memo_a_face_up_card_is_shown_to_every_seat():
    s = memo_session()
    to_first_card(s)
    (a, name), _ = two_different(s)
    turn_over(s, "first_spot", a)
    for seat in (0, 1):
        cells = grid_cells(screen(s, seat))
        assert cells[a] == name
        assert all(c == "?" for p, c in cells.items() if p != a)


@pytest.mark.parametrize("memory_aid", [False, True])
def test_memo_a_face_down_face_is_shown_only_as_remembered(memory_aid):
    """Faces only: a card turned back is '?' for everyone who saw it; --memory-aid shows it, marked."""
    s = memo_session(memory_aid=memory_aid)
    to_first_card(s)
    (a, name_a), (b, name_b) = two_different(s)
    turn_over(s, "first_spot", a)
    turn_over(s, "second_spot", b)             # no pair: both go face down again in place
    assert s.st.pending.name == "first_spot" and s.st.current == 1
    for seat in (0, 1):
        text = screen(s, seat)
        cells = grid_cells(text)
        if memory_aid:
            assert (cells[a], cells[b]) == (f"[{name_a}]", f"[{name_b}]")
            assert "face down (2 remembered)" in text
        else:
            assert (cells[a], cells[b]) == ("?", "?")
            assert name_a not in text and name_b not in text       # the whole screen, moves too
        assert all(c == "?" for p, c in cells.items() if p not in (a, b))


def test_memo_knowledge_full_shows_remembered_faces_without_memory_aid(tmp_path):
    path = tmp_path / "memo_full.yaml"
    shutil.copy(MEMO, tmp_path)         # a base ruleset lies beside its variant
    path.write_text(f"extends: {os.path.basename(MEMO)}\ndisplay: {{knowledge: full}}\n", encoding="utf-8")
    g = load_game(str(path))
    assert g.rules.display["grid"]["families"] == ["up", "down"]      # the variant keeps the base's grid
    s = memo_session(g=g)
    to_first_card(s)
    (a, name_a), (b, _) = two_different(s)
    turn_over(s, "first_spot", a)
    turn_over(s, "second_spot", b)
    assert grid_cells(screen(s, 1))[a] == f"[{name_a}]"


def test_memo_a_collected_pair_leaves_empty_positions():
    s = memo_session()
    to_first_card(s)
    names = spot_names(s)
    a = next(c for c, n in names.items() if not n.startswith("truck:"))
    b = next(c for c, n in names.items() if n == names[a] and c != a)
    turn_over(s, "first_spot", a)
    turn_over(s, "second_spot", b)             # a pair: collected, and seat 0 plays again
    assert s.st.current == 0
    for seat in (0, 1):
        text = screen(s, seat)
        cells = grid_cells(text)
        assert (cells[a], cells[b]) == ("·", "·")
        assert "48 face down, 2 empty" in text
        assert sum(c == "?" for c in cells.values()) == 48


def test_memo_grid_through_the_input_loop_with_memory_aid():
    """A whole scripted turn typed in: the remembered faces appear in the next screen, abbreviated
    names with their legend."""
    picked = {}

    def script(s, prompt):
        if "confirm" in prompt:
            return "c"
        if "press Enter" in prompt:
            return ""
        st = s.st
        if st.pending.name == "first_spot" and not picked:
            names = spot_names(s)
            picked["a"] = next(c for c, n in names.items() if n.startswith("organic:"))
            picked["b"] = next(c for c, n in names.items() if not n.startswith(("truck:", "organic:")))
            picked["names"] = names
            return f"first_spot: {picked['a']}"
        if st.pending.name == "second_spot" and st.current == 0:
            return f"second_spot: {picked['b']}"
        if picked and st.current == 1:
            return "q"
        return s.shown_moves(s.program.legal_moves(st)).entries[0][0]     # the first move, by its key

    s = memo_session(script, memory_aid=True)
    assert s.run() is False
    out = s.out.getvalue()
    last = grid_cells(out)
    a, b, names = picked["a"], picked["b"], picked["names"]
    short = names[a].replace("organic", "organ")            # 'organic:4' in a 9-wide cell with [ ]
    assert last[a] == f"[{short}]" and last[b] == f"[{names[b]}]".replace("plastic", "plast")
    assert "abbreviated: organ = organic" in out
    assert max(len(line) for line in out.splitlines()) <= GRID_WIDTH


def test_abbreviate_keeps_numbers_and_shortens_the_longest_words_first():
    from interpreter.tools.play import abbreviate
    assert abbreviate("paper:1", 7) == ("paper:1", {})
    assert abbreviate("organic:4", 7) == ("organ:4", {"organ": "organic"})
    assert abbreviate("truck:shuffle", 9) == ("truc:shuf", {"truc": "truck", "shuf": "shuffle"})
    assert len(abbreviate("a_b_c_d_e_f", 5)[0]) == 5


def test_memo_grid_fits_80_columns_with_shorter_names():
    s = memo_session(memory_aid=True)
    to_first_card(s)
    (a, name_a), (b, _) = two_different(s)
    turn_over(s, "first_spot", a)
    turn_over(s, "second_spot", b)
    out = io.StringIO()
    s.console = Console(file=out, width=80, height=40, highlight=False, color_system=None)
    s.show(1, s.program.legal_moves(s.st))
    text = out.getvalue()
    rows = grid_rows(text)
    assert [len(r) for r in rows] == [10] * 10
    material, number = name_a.split(":")
    assert re.fullmatch(rf"\[{material[:2]}\w*:{number}\]", grid_cells(text)[a])
    assert f"{grid_cells(text)[a][1:].split(':')[0]} = {material}" in text       # the legend
