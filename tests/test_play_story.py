"""The log of `play` (story.py, telling.py): each decision told in words, as far as the watching seats may
know it; labelled variables; the opening; and `o` (overview.py), one line per hidden zone."""
from __future__ import annotations

import io
import re
import textwrap
from collections import Counter

from rich.console import Console

from helpers import RULESET
from interpreter.compiler.game import load_game
from interpreter.runtime.engine import DECIDE, MOVE
from interpreter.runtime.events import for_seat
from interpreter.tools.play import Session

LIXO = RULESET.replace("r_eco.yaml", "lixo.yaml")
MEMO = RULESET.replace("r_eco.yaml", "sorting_memo.yaml")

SECRET = """
name: Secret
players: {min: 2, max: 2}
params:
  spots: [1, 2, 3]
cards:
  chip: {count: 8, start: bag}
zones:
  bag: {visible: nobody}
  pile: {per: spots, visible: everyone}
  hand: {owner: each, visible: owner}
vars:
  rounds: {initial: 0}
turn:
  steps:
    - step: go
      do:
        - choose: secret
          from: spots
        - let kept = secret
        - choose: open
          from: spots
        - move top of bag to pile[open]
        - choose: hide
          options:
            keep: {}
            stash:
              cards: pile[open]
              count: 1
              do: ["move stash to hand"]
        - choose: eye
          cards: pile[open]
          min: 0
          max: 1
        - let kept = eye
        - choose: mood
          options:
            calm: {}
            bold: {do: ["let kept = 0"]}
        - set rounds = rounds + 1
end:
  when: count(bag) == 0
score: count(hand)
"""


def autoplay(s, prompt: str) -> str:
    """The first move shown (by its key: a number choice is typed as the value), confirm
    everything, Enter at the pass screen."""
    if "confirm" in prompt:
        return "c"
    if "press Enter" in prompt:
        return ""
    return s.shown_moves(s.program.legal_moves(s.st)).entries[0][0]


def session(g, players: int, bots: dict, seed: int = 1, script=autoplay, memory_aid: bool = False) -> Session:
    """A Session on a wide console whose reports are kept: s.reports = [(actor, events, before, text shown)]."""
    out = io.StringIO()
    console = Console(file=out, width=200, highlight=False, color_system=None)
    holder: dict = {}
    s = Session(g, players, seed, bots, ask=lambda prompt: script(holder["s"], prompt), console=console,
                memory_aid=memory_aid)
    holder["s"], s.out, s.reports = s, out, []
    report = s.report

    def kept(actor, events, viewers, before=None):
        start = len(out.getvalue())
        report(actor, events, viewers, before)
        s.flush_story()             # a report's lines are held for the next screen: print them now
        s.reports.append((actor, list(events), before, out.getvalue()[start:]))
    s.report = kept
    return s


def secret_game(tmp_path):
    path = tmp_path / "secret.yaml"
    path.write_text(textwrap.dedent(SECRET), encoding="utf-8")
    return load_game(str(path))


def within(part: list, whole: list) -> bool:
    """Whether part is a run of consecutive items of whole."""
    return any(whole[i:i + len(part)] == part for i in range(len(whole) - len(part) + 1))


def decisions(s, seat: int, name: str) -> list:
    """The moves `seat` made in decision `name`, from the real log."""
    return [e[3] for e in s.st.log if e[0] == DECIDE and e[1] == seat and s.program.decisions[e[2]].name == name]


# ---- each decision told in words ----
def test_an_option_a_bot_chose_is_told_by_its_name():
    s = session(load_game(LIXO), 3, {1: "greedy", 2: "greedy"}, seed=2)
    assert s.run()
    out, prog = s.out.getvalue(), s.program
    auction = next(d for d in prog.decisions if d.name == "auction")
    passed = 0
    for seat in (1, 2):
        made = decisions(s, seat, "auction")
        passes = [m for m in made if auction.options[m[0]][0] == "pass"]
        bids = [m for m in made if auction.options[m[0]][0] == "bid"]
        assert len(re.findall(rf"^seat {seat} \(greedy\): pass$", out, re.M)) == len(passes)
        told = re.findall(rf"^seat {seat} \(greedy\): bid (.*) hand\({seat}\) → bids\({seat}\)$", out, re.M)
        assert told == [", ".join(f"{n}×{prog.type_names[t]}" for t, n in m[1]) for m in bids] and bids
        passed += len(passes)
    assert passed


def test_cards_chosen_from_a_hidden_hand_are_told_by_their_number_only():
    s = session(load_game(RULESET), 2, {1: "greedy"}, seed=5)
    assert s.run()
    out = s.out.getvalue()
    made = decisions(s, 1, "dispose")
    told = re.findall(r"^seat 1 \(greedy\): dispose (.*)$", out, re.M)
    assert told == [f"{sum(n for _, n in m)} hidden card{'s' if sum(n for _, n in m) != 1 else ''} "
                    f"hand(1) → {s.display.label('disposal')}(1)" for m in made] and len(made) > 3


def test_the_deciding_seat_is_told_its_whole_choice(tmp_path):
    s = session(secret_game(tmp_path), 2, {1: "random"})
    assert s.run()
    out = s.out.getvalue()
    assert len(re.findall(r"^you: secret 1$", out, re.M)) == len(decisions(s, 0, "secret")) > 0


def test_a_value_the_events_after_it_tell_apart_is_told(tmp_path):
    s = session(secret_game(tmp_path), 2, {1: "random"})
    assert s.run()
    told = re.findall(r"^seat 1 \(random\): open (\d)\n {4}1×chip bag → pile\[(\d)\]$", s.out.getvalue(), re.M)
    assert [int(a) for a, b in told] == [m[0] for m in decisions(s, 1, "open")] and all(a == b for a, b in told)


def test_a_choice_nothing_visible_follows_is_told_as_something_hidden(tmp_path):
    s = session(secret_game(tmp_path), 2, {1: "random"})
    assert s.run()
    out = s.out.getvalue()
    assert len(re.findall(r"^seat 1 \(random\) did something hidden \(secret\)$", out, re.M)) == \
        len(decisions(s, 1, "secret")) > 0
    assert "(nothing visible)" not in out and not re.search(r"seat 1 \(random\): secret", out)


def test_an_option_is_told_when_the_events_after_it_differ_from_every_other_options(tmp_path):
    """keep moves nothing, stash moves a card everyone sees: each is told apart from the other."""
    s = session(secret_game(tmp_path), 2, {1: "random"}, seed=3)
    assert s.run()
    out, prog = s.out.getvalue(), s.program
    hide = next(d for d in prog.decisions if d.name == "hide")
    made = [hide.options[m[0]][0] for m in decisions(s, 1, "hide")]
    assert "stash" in made and "keep" in made
    assert len(re.findall(r"^seat 1 \(random\): stash 1×chip pile\[\d\] → hand\(1\)$", out, re.M)) == made.count("stash")
    assert len(re.findall(r"^seat 1 \(random\): keep$", out, re.M)) == made.count("keep")


def test_an_option_whose_events_look_like_another_options_is_not_told(tmp_path):
    """calm and bold change only a local name: nobody else can tell which was chosen."""
    s = session(secret_game(tmp_path), 2, {1: "random"}, seed=3)
    assert s.run()
    out = s.out.getvalue()
    assert len(re.findall(r"^seat 1 \(random\)(?: did something hidden \(mood\)|: mood \(hidden\))$", out, re.M)) == \
        len(decisions(s, 1, "mood")) > 0
    assert not re.search(r"seat 1 \(random\): (calm|bold)", out) and re.search(r"^you: (calm|bold)$", out, re.M)


def test_cards_chosen_among_face_up_cards_and_not_moved_are_not_told(tmp_path):
    s = session(secret_game(tmp_path), 2, {1: "random"}, seed=4)
    assert s.run()
    out = s.out.getvalue()
    made = decisions(s, 1, "eye")
    assert {len(m) for m in made} == {0, 1}                 # chose nothing, and chose a chip
    assert len(re.findall(r"^seat 1 \(random\): eye \(hidden cards\)$", out, re.M)) == len(made)
    assert re.search(r"^you: eye (nothing|1×chip)$", out, re.M)


def test_the_log_never_names_a_card_the_watching_seat_could_not_see():
    """Every card named in a bot's report was face up to the human before it, or moved before its eyes."""
    for path, players, seed in [(RULESET, 3, 2), (LIXO, 3, 1), (MEMO, 2, 1)]:
        g = load_game(path)
        s = session(g, players, {k: "greedy" for k in range(1, players)}, seed=seed)
        assert s.run()
        prog, checked = s.program, 0
        for actor, events, before, text in s.reports:
            if not actor.endswith("(greedy)"):
                continue
            seen = {prog.type_names[prog.card_type[c]] for z, cards in enumerate(before.zones)
                    if prog.zone_vis[z] & 1 for c in cards}
            seen |= {prog.type_names[prog.card_type[c]] for e in for_seat(prog, events, 0)
                     if e[0] == MOVE and not isinstance(e[3], int) for c in e[3]}
            named = set(re.findall(r"\d+×([^\s,]+)", text))
            assert named <= seen, (path, text)
            checked += bool(named)
        assert checked > 5


def test_at_a_hot_seat_the_recap_tells_the_other_humans_decisions_as_this_seat_may_know_them():
    s = session(load_game(RULESET), 2, {}, seed=5)
    s.run()
    out, prog = s.out.getvalue(), s.program
    recaps = re.findall(r"^seat 1, since you last looked: (.*(?:\n {4}.*)*)", out, re.M)
    delivered = [", ".join(f"{n}×{prog.type_names[t]}" for t, n in m) for m in decisions(s, 0, "deliver")]
    told = [m for r in recaps for m in re.findall(r"^(?: {4}seat 0: )?deliver (.*) hand\(0\) → side", r, re.M)]
    assert within(told, delivered) and len(told) > 5
    disposed = [sum(n for _, n in m) for m in decisions(s, 0, "dispose")]
    disposal = re.escape(s.display.label("disposal"))
    told = [int(n) for r in recaps for n in re.findall(rf"dispose (\d+) hidden cards? hand\(0\) → {disposal}\(0\)", r)]
    assert within(told, disposed) and told
    assert not re.search(r"seat 0: dispose \d+×", " ".join(recaps)) and "you: dispose 1×" in " ".join(recaps)


def test_at_a_hot_seat_a_seats_first_look_tells_the_game_from_its_beginning():
    s = session(load_game(RULESET), 2, {}, seed=5)
    s.run()
    out = s.out.getvalue()
    first_screen = out.index("seat 1 decides")
    recap = out.rindex("seat 1, since you last looked: ", 0, first_screen)
    told = out[recap:first_screen]
    assert out.index("pass to seat 1") < recap
    assert "draw → hand: seat 0 3 hidden cards · seat 1 " in told          # the deal, as seat 1 saw it
    assert re.search(r"^ {4}seat 0: deliver \d×", told, re.M)               # seat 0's first move


# ---- variable changes ----
def test_a_change_of_an_unlabelled_variable_is_not_told(tmp_path):
    s = session(secret_game(tmp_path), 2, {1: "random"})
    assert s.run()
    log = [line for *_, text in s.reports for line in text.splitlines()]      # the log, not the screens
    assert any(line.startswith("    — turn ") for line in log)
    assert not any("rounds" in line for line in log)


def test_a_change_of_a_labelled_variable_is_told_with_its_label(tmp_path):
    s = session(secret_game(tmp_path), 2, {1: "random"})
    s.display.labels = {"rounds": "rounds played"}
    assert s.run()
    told = [int(n) for n in re.findall(r"^ {4}rounds played = (\d+)$", s.out.getvalue(), re.M)]
    assert told == list(range(1, s.st.turn + 1))[:len(told)] and len(told) >= 4


def test_a_labelled_zone_is_named_by_its_label_in_the_log(tmp_path):
    s = session(secret_game(tmp_path), 2, {1: "random"})
    s.display.labels = {"pile": "table pile"}
    assert s.run()
    out = s.out.getvalue()
    told = re.findall(r"^ {4}1×chip bag → table pile\[(\d)\]$", out, re.M)
    assert told and not re.search(r"→ pile\[", out)


# ---- the opening ----
def test_the_opening_is_told_like_every_other_turn():
    seen = {}

    def script(s, prompt):
        seen.setdefault("turned", [s.program.type_names[s.program.card_type[c]]
                                   for c in s.st.zones[s.program.zone_names.index("turned")]])
        return "q"

    s = session(load_game(LIXO), 3, {1: "greedy", 2: "greedy"}, seed=2, script=script)
    assert s.run() is False
    out = s.out.getvalue()
    opening = out[:out.index("legal moves:")]
    hand = Counter(s.program.type_names[s.program.card_type[c]] for c in s.st.zones[s.program.zone_names.index("hand(0)")])
    mine = ", ".join(f"{n}×{t}" for t, n in sorted(hand.items(), key=lambda x: s.program.type_index[x[0]]))
    assert opening.index("setup: bins shuffled") < opening.index(
        f"garbage → hand: seat 0 {mine} · seat 1 5 hidden cards · seat 2 5 hidden cards") < opening.index(
        "— turn 1: seat 0 (you) —") < opening.index(f"1×{seen['turned'][0]} bins → {s.display.label('turned')}")


def test_moves_into_one_family_are_told_on_one_line():
    s = session(load_game(MEMO), 2, {1: "greedy"}, script=lambda s, p: "q")
    s.run()
    assert "    stock → down[1–50]: 1 hidden card each\n" in s.out.getvalue()


# ---- o: what may still be in each hidden zone ----
def test_o_lists_only_the_types_the_rules_can_bring_to_a_zone():
    s = session(load_game(MEMO), 2, {1: "greedy"}, memory_aid=True,
                script=lambda s, p, it=iter(["o", "q"]): next(it))
    s.run()
    out = s.out.getvalue()
    block = out[out.index("what may still be in each hidden zone"):out.index("(counts include")]
    lines = [" ".join(entry.split("\n")) for entry in re.split(r"\n(?=  \S)", block)[1:]]    # wrapped lines joined
    stacks = [line for line in lines if line.startswith("  stack[")]
    cells = [line for line in lines if line.startswith("  down[")]
    assert stacks and cells
    assert all("container:" in line and not re.search(r"(paper|plastic|glass|metal|organic):\d", line) for line in stacks)
    assert all("container:" not in line and "truck:swap" in line for line in cells)


def test_o_groups_the_zones_of_a_family_that_show_the_same_line():
    s = session(load_game(MEMO), 2, {1: "greedy"}, script=lambda s, p, it=iter(["o", "q"]): next(it), memory_aid=True)
    s.run()
    out = s.out.getvalue()
    block = out[out.index("what may still be in each hidden zone"):out.index("(counts include")]
    assert "  down[1–50]: 1 card, may be paper:1, paper:2," in " ".join(block.split("\n"))
    assert len([line for line in block.splitlines() if line.startswith("  down[")]) == 1
