"""Public decisions: `public: true` on a `choose` (docs/language.md §8, "Choices everyone sees:
`public`"). Each test is one sentence of the manual, on a tiny ruleset."""
from __future__ import annotations

import io
import json
import re

from rich.console import Console

from interpreter.compiler.game import load_game, validate_file
from interpreter.runtime import events
from interpreter.runtime.engine import DECIDE
from interpreter.seats.ismcts import seen
from interpreter.seats.registry import make_bot
from interpreter.tools.cli import main
from interpreter.tools.play import Session
from interpreter.tools.records import make_record, replay
from language_helpers import do, edit, make, write  # noqa: F401

# Each turn the current seat announces what it does (public), then settles a private matter.
CLAIMS = """
    name: claims
    players: {min: 2, max: 4}
    cards:
      card:
        for: {rank: [1, 2, 3, 4, 5]}
        name: "c{rank}"
        count: 4
        start: deck
    zones:
      deck: {visible: nobody}
      hand: {owner: each, visible: owner}
      pile: {visible: nobody}
    vars:
      coins: {owner: each, initial: 0}
    setup:
      - shuffle deck
      - deal 2 from deck to hand
    turn:
      steps:
        - choose: action
          public: true
          options:
            take: {do: ["set coins = coins + 1"]}
            wait: {}
        - choose: mood
          options:
            calm: {}
            bold: {}
        - choose: hide
          public: true
          cards: hand
          min: 0
          max: 1
        - move hide to pile
    end:
      when: turn > 6
    score: coins
"""


def decides(log: list) -> list:
    return [e for e in log if e[0] == DECIDE]


def test_every_seat_sees_a_public_choice_as_it_is_made(make):
    p = make(CLAIMS, 3)
    st = p.new_state(1, log=True)
    do(p, st, "wait")
    for seat in (1, 2):
        assert [(e[1], p.decisions[e[2]].text(e[3])) for e in decides(events.for_seat(p, st.log, seat))] == \
            [(0, "wait")]


def test_a_choice_not_declared_public_is_seen_by_the_deciding_seat_only(make):
    p = make(CLAIMS, 2)
    st = p.new_state(1, log=True)
    do(p, st, "take")
    do(p, st, "bold")
    assert [p.decisions[e[2]].name for e in decides(events.for_seat(p, st.log, 1))] == ["action"]
    assert [p.decisions[e[2]].name for e in decides(events.for_seat(p, st.log, 0))] == ["action", "mood"]


def test_the_log_says_which_seat_chose_what(make):
    p = make(CLAIMS, 2)
    st = p.new_state(1, log=True)
    do(p, st, "take")
    event = decides(events.for_seat(p, st.log, 1))[0]
    assert events.describe(p, event, 1) == "seat 0 chose take"


def test_a_public_card_choice_shows_every_seat_the_cards_chosen(make):
    p = make(CLAIMS, 2)
    st = p.new_state(1, log=True)
    do(p, st, "take")
    do(p, st, "calm")
    move = next(m for m in p.legal_moves(st) if m)          # one card of seat 0's hand
    p.play(st, move)
    told = decides(events.for_seat(p, st.log, 1))[-1]
    assert told[3] == move and p.decisions[told[2]].name == "hide"
    card = p.type_names[move[0][0]]
    assert events.describe(p, told, 1) == f"seat 0 chose hide: 1*{card}"


def test_the_bot_search_counts_a_public_choice_as_seen_by_every_seat(make):
    p = make(CLAIMS, 2)
    st = p.new_state(1, log=True)
    mark = len(st.log)
    do(p, st, "take")
    do(p, st, "bold")
    assert seen(p, st.log, mark, 1) == ((DECIDE, 0, "take"),)


def story(path: str, seed: int = 2) -> str:
    """The text `play` shows seat 0 (a human who always takes the first move) against a random seat 1."""
    out = io.StringIO()
    console = Console(file=out, width=200, highlight=False, color_system=None)
    holder: dict = {}

    def ask(prompt: str) -> str:
        if "confirm" in prompt:
            return "c"
        if "press Enter" in prompt:
            return ""
        s = holder["s"]
        return s.shown_moves(s.program.legal_moves(s.st)).entries[0][0]
    s = holder["s"] = Session(load_game(path), 2, seed, {1: "random"}, ask=ask, console=console)
    assert s.run()
    s.flush_story()
    return out.getvalue()


def test_play_tells_every_seat_the_option_a_public_choice_picked_and_not_a_private_one(write):
    out = story(write(CLAIMS))
    assert re.search(r"^seat 1 \(random\): (take|wait)$", out, re.M)
    assert not re.search(r"seat 1 \(random\): (calm|bold)", out)


def test_play_tells_every_seat_the_cards_of_a_public_card_choice(write):
    out = story(write(CLAIMS))
    assert re.search(r"^seat 1 \(random\): hide 1×c\d$", out, re.M)     # into a face-down pile
    assert not re.search(r"hide \(hidden cards\)|did something hidden \(hide\)", out)


def test_a_choice_every_seat_makes_with_each_cannot_be_public(write):
    mood = "          options:\n            calm: {}\n            bold: {}\n"
    text = edit(CLAIMS, mood, "          each: p in seats\n          public: true\n          from: [1, 2]\n")
    diags = validate_file(write(text))
    assert [(d.pos.line, d.pos.col) for d in diags] == [(28, 7)]
    assert "with each is made unseen by the other seats" in diags[0].message and diags[0].hint


def test_public_takes_true_or_false(write):
    diags = validate_file(write(edit(CLAIMS, "public: true\n          options", "public: sometimes\n          options")))
    assert len(diags) == 1 and diags[0].pos.line == 22


def test_whole_games_with_public_choices_simulate(write, capsys):
    assert main(["simulate", write(CLAIMS), "--games", "12", "--players", "3", "--seed", "2", "--jobs", "1",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 12


def test_a_game_with_public_choices_is_recorded_and_replays(write):
    game = load_game(write(CLAIMS))
    for bot in ("random", "greedy", "ismcts:iterations=30"):
        record = make_record(game, 2, 5, [make_bot(bot, i) for i in range(2)], [bot] * 2)
        assert any(m["move"] in ("take", "wait") for m in record["moves"])
        assert replay(game, json.loads(json.dumps(record))) == record["result"]


def test_the_web_table_tells_a_spectator_the_public_choice_and_not_the_private_one(write):
    from interpreter.tools.web.table import WebTable
    t = WebTable(load_game(write(CLAIMS)), 2, 3, {1: "random"})
    t.try_web_move(0, (1, None))        # wait (public)
    t.try_web_move(0, (1, None))        # bold (private)
    log = t.page(None)["log"]
    assert "seat 0: wait" in log and "seat 0 did something hidden (mood)" in log
    assert not any("bold" in line for line in log)
