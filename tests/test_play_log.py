"""`play`'s log above each screen: on a terminal the lines told since the last screen fit in the
rows the screen leaves free (every decision's first line kept, the rest cut with a note), `l`
prints them all, and a pipe gets every line."""
from __future__ import annotations

import io
import os
import re

from rich.console import Console

from interpreter.compiler.game import load_game
from interpreter.tools.play import Session
from interpreter.tools.play.recent import LOG_NOTE

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
R_ECO = os.path.join(ROOT, "rulesets", "r_eco.yaml")
PROMPT = "seat 0> "


def answers(script: list):
    """Input: the next scripted line at the move prompt, c at a confirmation, then q and y."""
    it = iter(script)

    def ask(prompt):
        if "confirm" in prompt:
            return "c"
        if prompt.startswith("quit?"):
            return "y"
        return next(it, "q")
    return ask


def played(script: list, terminal: bool, height: int = 24):
    """R-Eco, 4 players, seat 0 typed by the script against three random bots; its output."""
    out = io.StringIO()
    console = Console(file=out, width=80, height=height, force_terminal=terminal, color_system=None,
                      highlight=False)
    s = Session(load_game(R_ECO), 4, 7, {1: "random", 2: "random", 3: "random"}, ask=answers(script),
                console=console)
    s.run()
    return s, out.getvalue()


def screens(out: str) -> list:
    """What was printed after each confirmed move up to the next move prompt."""
    return [part.split(PROMPT)[0] for part in re.split(r"seat 0 confirm \(c/u\)> c\n", out)[1:] if PROMPT in part]


def log_part(text: str) -> list:
    """The lines of a screen's text above its header rule."""
    lines = text.rstrip("\n").split("\n")
    return lines[:next(i for i, line in enumerate(lines) if re.match(r"─+ turn ", line))]


def test_on_a_terminal_the_log_and_the_screen_fit_in_the_window_together():
    _, out = played(["1"] * 6, terminal=True)
    shown = screens(out)
    assert len(shown) >= 4
    for text in shown:
        assert len(text.rstrip("\n").split("\n")) <= 24 - 1, text        # the prompt takes the last row
    assert any(LOG_NOTE in text for text in shown)                      # at 80×24 some lines were cut


def test_the_first_lines_of_the_latest_decisions_are_kept_before_any_other_line():
    _, piped = played(["1"] * 6, terminal=False)
    _, out = played(["1"] * 6, terminal=True)
    for full, cut in zip(screens(piped), screens(out)):
        every, kept = log_part(full), log_part(cut)
        if kept[-1].endswith(LOG_NOTE):
            kept.pop()
        heads = [line for line in every if not line.startswith("    ")]
        kept_heads = [line for line in kept if not line.startswith("    ")]
        assert kept_heads == heads[len(heads) - len(kept_heads):]           # the latest ones
        assert kept_heads == heads or len(kept_heads) == len(kept)          # others only once all fit
        assert all(line in every for line in kept)


def test_l_prints_every_line_told_before_the_screen():
    _, piped = played(["1"] * 2, terminal=False)
    _, out = played(["1", "l"], terminal=True)
    told = log_part(screens(piped)[0])                                  # the log above the second screen
    after = out[out.index(PROMPT + "l\n") + len(PROMPT + "l\n"):]
    assert after.startswith("the log before this screen:\n")
    assert after.split("\n")[1:1 + len(told)] == told


def test_away_from_a_terminal_no_line_is_left_out():
    _, out = played(["1"] * 6, terminal=False)
    assert LOG_NOTE not in out


def test_q_at_the_pass_screen_asks_before_quitting():
    out = io.StringIO()
    script = iter(["q", "y"])
    s = Session(load_game(R_ECO), 2, 7, {}, ask=lambda prompt: next(script),
                console=Console(file=out, width=80, height=24, color_system=None))
    assert not s.run()
    text = out.getvalue()
    assert "press Enter when ready q" in text and "quit? the game is not saved" in text
    assert "game abandoned in turn 1." in text
