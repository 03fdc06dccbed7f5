"""The `display` section: zones hidden, piles, labels and shown values, as the checker hands them to
`play`, and what an expression reads (compiler/reads.py), which decides who may see a shown value."""
from __future__ import annotations

import copy
import io
import random
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from test_fuzz import FAST, check_diagnostics, dsl_text, original, time_limit
from interpreter.compiler.game import validate_file

from interpreter.compiler.game import load_game
from interpreter.compiler.reads import Reads
from interpreter.frontend import ir
from interpreter.frontend.check.display import score_terms
from interpreter.tools.play import Session
from interpreter.tools.play.display import Display

BASE = (Path(__file__).parent / "errors" / "_valid_base.yaml").read_text(encoding="utf-8")
ROOT = Path(__file__).resolve().parents[1]


def mini(tmp_path, extra: str = "", score: str | None = None, zones: str = ""):
    """The corpus's valid mini game with more YAML added at the end (another score, more zones)."""
    text = BASE if score is None else BASE.replace(
        "score: sum(sum(pile[c].value) for c in colours) + bonus - count(hand)", f"score: {score}")
    text = text.replace("zones:\n", "zones:\n" + zones, 1)
    path = tmp_path / "mini.yaml"
    path.write_text(text + extra, encoding="utf-8")
    return load_game(str(path))


def screen(g, players: int = 2, seat: int = 0) -> str:
    """The first decision's screen for seat (both seats human), as text."""
    out = io.StringIO()
    s = Session(g, players, 1, {}, ask=lambda prompt: "q",
                console=Console(file=out, width=120, highlight=False, color_system=None))
    s.show(seat, s.program.legal_moves(s.st))
    return out.getvalue()


# ---- hide ----
def test_a_hidden_zone_is_never_shown_on_the_screen(tmp_path):
    shown = screen(mini(tmp_path))
    assert "discard: " in shown and "draw: " in shown
    hidden = screen(mini(tmp_path, "display:\n  hide: [discard, hand]\n"))
    assert "discard: " not in hidden and "hand: " not in hidden and "draw: " in hidden


# ---- piles ----
DRAWS_FROM_HAND = "procedures:\n  unused:\n    - move top of hand to discard\n"


def test_without_piles_every_zone_the_rules_draw_from_is_a_pile(tmp_path):
    g = mini(tmp_path, DRAWS_FROM_HAND)
    assert Display(g.program(2)).piles == {"draw", "hand"}
    assert "hand: top " in screen(g)          # the rule of old: the own hand as its top card


def test_only_the_declared_piles_are_shown_as_piles(tmp_path):
    g = mini(tmp_path, DRAWS_FROM_HAND + "display:\n  piles: [discard]\n")
    d = Display(g.program(2))
    assert d.piles == {"discard"} and "hand" in d.ordered     # `s` still lists what the rules draw from
    text = screen(g)
    assert "hand: top " not in text and "hand: " in text


# ---- labels ----
def test_labels_name_variables_and_zones_on_the_screen(tmp_path):
    g = mini(tmp_path, "display:\n  labels: {rounds: rounds played, pile: colour piles, hand: my cards}\n")
    assert g.rules.display["labels"] == {"rounds": "rounds played", "pile": "colour piles", "hand": "my cards"}
    text = screen(g)
    assert "rounds played: 0" in text and "colour piles" in text and "my cards: " in text
    assert "rounds: " not in text and "rounds = " not in text


def test_a_label_of_a_function_names_its_term_of_the_score(tmp_path):
    g = mini(tmp_path, "functions:\n  held: count(hand)\ndisplay:\n  labels: {held: cards held}\n",
             score="bonus - held")
    d = Display(g.program(2))
    assert [(sign, words) for sign, _, words in d.score_parts(g.rules.score)] == [(1, "bonus"), (-1, "cards held")]


# ---- show ----
def test_shown_values_keep_their_label_expression_and_whom_they_are_for(tmp_path):
    g = mini(tmp_path, "display:\n  show:\n    - {label: to the limit, value: 5 - count(hand), per: seat}\n"
                       "    - {label: cards left, value: count(draw)}\n")
    first, second = g.rules.display["show"]
    assert isinstance(first, ir.ShownValue) and (first.label, first.per_seat) == ("to the limit", True)
    assert (second.label, second.per_seat, second.expr.type) == ("cards left", False, "int")


def test_the_shipped_rulesets_display_sections_are_valid_and_change_no_rule():
    for name in ("lixo", "r_eco", "sorting_memo"):
        rules = load_game(str(ROOT / "rulesets" / f"{name}.yaml")).rules
        assert rules.display["piles"] and rules.display["labels"] and rules.display["show"]


# ---- what an expression reads ----
SPARE = "  spare: {per: colours, visible: nobody}\n"
READS = "functions:\n  held_value: sum(hand.value)\n"


def faces(g, text: str, seat: int = 0, players: int = 2) -> set:
    """The zone names whose faces the expression (a shown table value) reads for seat."""
    path = tmp = Path(g.path).parent / "reads.yaml"
    tmp.write_text(Path(g.path).read_text(encoding="utf-8")
                   + f"display:\n  show:\n    - {{label: x, value: \"{text}\", per: seat}}\n", encoding="utf-8")
    g2 = load_game(str(path))
    prog = g2.program(players)
    expr = g2.rules.display["show"][0].expr
    return {prog.zone_names[z] for z in Reads(prog).faces(expr, seat)}


@pytest.fixture
def reads_game(tmp_path):
    return mini(tmp_path, READS, zones=SPARE)


def test_the_size_of_a_zone_reads_no_face(reads_game):
    assert faces(reads_game, "count(hand) + count(top 2 of hand) + count(spare['red'])") == set()


def test_where_attributes_and_first_read_the_faces(reads_game):
    assert faces(reads_game, "count(hand where value > 1)") == {"hand(0)"}
    assert faces(reads_game, "sum(hand.value) + count(discard)") == {"hand(0)"}
    assert faces(reads_game, "first(hand).value + count(discard)") == {"hand(0)"}


def test_a_zone_without_a_seat_is_the_seat_worked_out_for(reads_game):
    assert faces(reads_game, "sum(hand.value)", seat=1) == {"hand(1)"}
    assert faces(reads_game, "sum(hand(0).value) + count(hand)", seat=1) == {"hand(0)"}


def test_an_index_or_seat_not_known_before_the_game_reads_every_zone_of_the_family(reads_game):
    assert faces(reads_game, "count(hand) + count(spare[first(discard).colour] where value > 0)") == \
        {"spare[red]", "spare[blue]", "discard"}
    assert faces(reads_game, "sum(sum(hand(p).value) for p in seats) + count(hand)", players=3) == \
        {"hand(0)", "hand(1)", "hand(2)"}
    assert faces(reads_game, "sum(spare['blue'].value) + count(hand)") == {"spare[blue]"}


def test_the_functions_an_expression_calls_are_followed(reads_game):
    assert faces(reads_game, "held_value + 1", seat=1) == {"hand(1)"}


def test_the_score_is_cut_into_the_terms_it_adds_up(tmp_path):
    g = mini(tmp_path, score="count(discard) - (count(hand) - rounds) + -bonus")
    terms = [(sign, type(e).__name__) for sign, e in score_terms(g.rules.score)]
    assert terms == [(1, "Func"), (-1, "Func"), (1, "Var"), (-1, "Param")]


ATOMS = ["count(hand)", "count(hand(0))", "count(hand(current))", "sum(hand.value)", "sum(discard.value)",
         "first(discard).value", "first(hand).value", "rounds", "bonus", "turn", "current", "players",
         "count(draw where value > 1)", "sum(count(pile[c]) for c in colours)", "count(pile[first(hand).colour])",
         "sum(pile['red'].value)", "count(hand(next(me)) where colour == 'red')", "first(hand).colour"]


def valued_text():
    """Expressions of the mini game's names, most of them valid, some reading hidden hands."""
    return st.recursive(st.sampled_from(ATOMS), lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from([" + ", " - ", " * ", " == ", " > "]), inner).map("".join),
        st.tuples(inner, inner).map(lambda t: f"if {t[0]} > 0 then {t[1]} else 0"),
        st.tuples(inner, inner).map(lambda t: f"max({t[0]}, {t[1]})")), max_leaves=5)


# ---- fuzzed: any shown value is an error at its place, or a value at every decision ----
@FAST
@given(data=st.data())
def test_generated_shown_values_give_positioned_errors_or_a_value_for_every_seat(tmp_path_factory, data):
    _, base, names = original("_valid_base.yaml")
    mutant = copy.deepcopy(base)
    text = data.draw(st.one_of(dsl_text(names, "start_expr", max_depth=data.draw(st.integers(2, 7))),
                               valued_text()), label="value")
    per = data.draw(st.sampled_from(["seat", "table"]), label="per")
    mutant["display"] = {"show": [{"label": "x", "value": text, "per": per}]}
    path = str(tmp_path_factory.mktemp("shown") / "mini.yaml")
    Path(path).write_text(yaml.safe_dump(mutant, sort_keys=False), encoding="utf-8")
    with time_limit(20):
        diagnostics = validate_file(path)
        check_diagnostics(diagnostics, path)
        if diagnostics:
            return
        s = Session(load_game(path), 2, 1, {}, ask=lambda prompt: "q",
                    console=Console(file=io.StringIO(), width=80, highlight=False, color_system=None))
        rnd = random.Random(1)
        for _ in range(6):
            for viewer in (0, 1):
                shown = s.shown_values(viewer)
                assert len(shown) == (2 if per == "seat" else 1)
                assert all(isinstance(words, str) and words for _, _, words in shown)
            if s.st.over:
                break
            s.program.apply(s.st, rnd.choice(s.program.legal_moves(s.st)))
