"""The linter: one seeded defect per warning, no false alarms on the shipped rulesets, and the
command line (`cardrules lint`, `validate` with warnings, `--json`, `--strict`)."""
import json
import os

import pytest

from interpreter.tools.cli import main
from interpreter.errors import RulesetError
from interpreter.frontend.lint import CODES, lint_file

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHIPPED = [os.path.join(ROOT, "rulesets", name)
           for name in ("r_eco.yaml", "lixo.yaml", "lixo_two_colour.yaml", "sorting_memo.yaml")]
BASE_FILE = os.path.join(HERE, "errors", "lint_base_is_clean.yaml")


def base() -> str:
    with open(BASE_FILE, encoding="utf-8") as fh:
        return fh.read()


def seeded(tmp_path, *edits, name="game.yaml") -> str:
    """The clean mini game with text replaced (old, new), written to a file; its path."""
    text = base()
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def warnings_of(path, overrides=None) -> list:
    return [(d.code, d.message) for d in lint_file(path, overrides)]


def codes(path) -> list:
    return [code for code, _ in warnings_of(path)]


def call(capsys, *args):
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


ZONES_END = "  hand: {owner: each, visible: owner}\n"
PLAY_END = "        - move played to pile[first(played).colour]\n"
REFILL_END = '          then: ["move bottom of hand to discard"]\n'


# ---- no false alarms ----
@pytest.mark.parametrize("path", SHIPPED, ids=os.path.basename)
def test_shipped_rulesets_give_no_warning(path):
    assert lint_file(path) == []


@pytest.mark.parametrize("path", SHIPPED, ids=os.path.basename)
def test_cardrules_lint_on_shipped_rulesets(capsys, path):
    code, out, err = call(capsys, "lint", path, "--strict")
    assert (code, err) == (0, "")
    assert out.strip() == f"{path}: no warnings"


def test_the_clean_base_gives_no_warning():
    assert lint_file(BASE_FILE) == []


def test_every_code_is_described():
    assert all(isinstance(text, str) and text for text in CODES.values())


# ---- one seeded defect per warning ----
def test_zone_never_entered(tmp_path):
    path = seeded(tmp_path, (ZONES_END, ZONES_END + "  spare: {visible: everyone}\n"))
    [d] = lint_file(path)
    assert (d.code, d.severity) == ("zone-never-entered", "warning")
    assert "'spare'" in d.message and "start: spare" in d.hint
    assert (d.pos.line, d.pos.col) == (base().split("\n").index("  hand: {owner: each, visible: owner}") + 2, 3)


def test_zone_fed_only_from_a_zone_no_card_enters(tmp_path):
    path = seeded(tmp_path, (ZONES_END, ZONES_END + "  lost: {visible: everyone}\n  found: {visible: everyone}\n"),
                  (PLAY_END, PLAY_END + "        - move lost to found\n"))
    found = warnings_of(path)
    assert [c for c, _ in found] == ["zone-never-entered", "zone-never-entered"]
    assert "only from 'lost'" in found[1][1]


def test_per_player_zone_and_family_never_entered(tmp_path):
    path = seeded(tmp_path, (ZONES_END, ZONES_END + "  tricks: {owner: each, visible: everyone}\n"
                                                    "  row: {per: colours, visible: everyone}\n"))
    assert [m.split(":")[0] for _, m in warnings_of(path)] == ["no card ever enters zone 'tricks'",
                                                              "no card ever enters zone 'row'"]


def test_param_never_read(tmp_path):
    path = seeded(tmp_path, ("  hand_size: 2\n", "  hand_size: 2\n  hand_limit: 4\n"))
    assert warnings_of(path) == [("param-never-read", "parameter 'hand_limit' is never read")]


def test_a_param_read_only_by_the_display_or_a_card_count_is_read(tmp_path):
    path = seeded(tmp_path, ("  hand_size: 2\n", "  hand_size: 2\n  copies: 2\n"),
                  ("    count: 2\n", "    count: copies\n"))
    assert warnings_of(path) == []


def test_procedure_never_called(tmp_path):
    path = seeded(tmp_path, ("end:\n", "procedures:\n  reshuffle: [\"shuffle draw\", \"call tidy\"]\n"
                                       "  tidy: [\"shuffle draw\"]\nend:\n"))
    found = warnings_of(path)
    assert found == [("procedure-never-called", "procedure 'reshuffle' is never called"),
                     ("procedure-never-called", "procedure 'tidy' never runs: it is called only from procedure "
                                                "'reshuffle', which is never called")]


def test_a_procedure_called_from_a_trigger_runs(tmp_path):
    path = seeded(tmp_path, ('on_empty: ["move discard to draw", "shuffle draw"]', 'on_empty: ["call refill"]'),
                  ("end:\n", "procedures:\n  refill: [\"move discard to draw\", \"shuffle draw\"]\nend:\n"))
    assert warnings_of(path) == []


def test_step_after_an_unconditional_end_game(tmp_path):
    path = seeded(tmp_path, (PLAY_END, PLAY_END + "        - end game\n"),
                  ("end:\n", "    - step: tidy\n      do: [\"shuffle draw\"]\nend:\n"))
    [(code, message)] = warnings_of(path)
    assert code == "step-never-runs"
    assert message.startswith("step 'tidy' can never run: step 'play' always ends the game")
    # refill still runs: it is in end.finish


def test_end_game_inside_an_if_does_not_stop_later_steps(tmp_path):
    path = seeded(tmp_path, (PLAY_END, PLAY_END + "        - if: count(hand) == 0\n          then: [end game]\n"),
                  ("end:\n", "    - step: tidy\n      do: [\"shuffle draw\"]\nend:\n"))
    assert warnings_of(path) == []


def test_end_game_in_setup_and_an_end_condition_always_true(tmp_path):
    path = seeded(tmp_path, ("  - deal hand_size from draw to hand\n",
                             "  - deal hand_size from draw to hand\n  - end game\n"))
    [(code, message)] = warnings_of(path)
    assert code == "step-never-runs" and message.startswith("step 'play' can never run: setup always ends")
    path = seeded(tmp_path, ("  when: count(draw) == 0\n", "  when: true\n"),
                  ("end:\n", "    - step: tidy\n      do: [\"shuffle draw\"]\nend:\n"), name="g2.yaml")
    [(code, message)] = warnings_of(path)
    assert code == "step-never-runs" and "end condition is always true" in message and "'tidy'" in message


def test_if_with_a_constant_condition(tmp_path):
    path = seeded(tmp_path, (REFILL_END, REFILL_END + "        - if: 1 > 2 and rounds > 0\n"
                                                      "          then: [\"move top of draw to discard\"]\n"
                                                      "        - if: not false\n"
                                                      "          then: [\"shuffle draw\"]\n"
                                                      "          else: [\"shuffle discard\"]\n"))
    assert warnings_of(path) == [
        ("branch-never-runs", "the then-branch of this if never runs: its condition is always false"),
        ("branch-never-runs", "the else-branch of this if never runs: its condition is always true")]


def test_loops_that_never_run(tmp_path):
    path = seeded(tmp_path, (REFILL_END, REFILL_END + "        - while: false\n          do: [\"shuffle draw\"]\n"
                                                      "        - for: x in []\n          do: [\"shuffle draw\"]\n"
                                                      "        - around: p\n          until: 1 == 1\n"
                                                      "          do: [\"move top of draw to hand(p)\"]\n"))
    found = warnings_of(path)
    assert [c for c, _ in found] == ["branch-never-runs"] * 3
    assert [m.split(":")[0] for _, m in found] == ["this while loop never runs", "this for loop never runs",
                                                  "this around never gives anyone a go"]


def test_a_condition_on_a_parameter_is_not_constant(tmp_path):
    """A variant or --set may change a parameter: `if: advanced` is no dead code."""
    path = seeded(tmp_path, ("  hand_size: 2\n", "  hand_size: 2\n  advanced: false\n"),
                  (REFILL_END, REFILL_END + "        - if: advanced\n          then: [\"shuffle draw\"]\n"))
    assert warnings_of(path) == []


def test_decision_from_an_empty_list(tmp_path):
    path = seeded(tmp_path, (PLAY_END, PLAY_END + "        - choose: colour\n          from: []\n"))
    assert warnings_of(path) == [("decision-never-legal", "decision 'colour' can never have a legal option: the "
                                                          "list it chooses from is always empty")]


def test_decision_with_a_where_always_false(tmp_path):
    path = seeded(tmp_path, (PLAY_END, PLAY_END + "        - choose: colour\n          from: colours\n"
                                                  "          where: 1 == 2\n"))
    assert codes(path) == ["decision-never-legal"]


def test_decision_of_cards_from_a_zone_no_card_enters(tmp_path):
    path = seeded(tmp_path, (ZONES_END, ZONES_END + "  market: {visible: everyone}\n"),
                  (PLAY_END, PLAY_END + "        - choose: bought\n          cards: market\n"
                                        "        - move bought to hand\n"))
    found = warnings_of(path)
    assert [c for c, _ in found] == ["zone-never-entered", "decision-never-legal"]
    assert "chooses cards from zone 'market', which no card ever enters" in found[1][1]


def test_a_choice_of_no_card_is_legal_even_from_an_empty_zone(tmp_path):
    path = seeded(tmp_path, (ZONES_END, ZONES_END + "  market: {visible: everyone}\n"),
                  (PLAY_END, PLAY_END + "        - choose: bought\n          cards: market\n          min: 0\n"
                                        "        - move bought to hand\n"))
    assert codes(path) == ["zone-never-entered"]


def test_an_option_that_can_never_be_taken(tmp_path):
    path = seeded(tmp_path, (ZONES_END, ZONES_END + "  market: {visible: everyone}\n"),
                  (PLAY_END, PLAY_END + "        - choose: action\n          options:\n            pass: {}\n"
                                        "            buy:\n              cards: market\n              count: 1\n"
                                        "              do: [\"move buy to hand\"]\n"))
    found = warnings_of(path)
    assert found[1] == ("decision-never-legal", "option 'buy' of decision 'action' can never be taken: it chooses "
                                                "cards from zone 'market', which no card ever enters")


def test_cards_never_leave(tmp_path):
    path = seeded(tmp_path, ("    start: draw\n", "    start: draw\n  joker:\n    count: 2\n    start: box\n"),
                  (ZONES_END, ZONES_END + "  box: {visible: nobody}\n"))
    assert warnings_of(path) == [("cards-never-leave", "cards of kind 'joker' never leave their start zone 'box': "
                                                       "no move or deal takes cards from it")]


def test_cards_taken_through_a_local_name_leave(tmp_path):
    """`let x = top of box` then `move x to ...`: the linter follows the name to the zone."""
    path = seeded(tmp_path, ("    start: draw\n", "    start: draw\n  joker:\n    count: 2\n    start: box\n"),
                  (ZONES_END, ZONES_END + "  box: {visible: nobody}\n"),
                  ("  - shuffle draw\n", "  - let spare = top of box\n  - move spare to draw\n  - shuffle draw\n"))
    assert warnings_of(path) == []


def test_score_never_changes(tmp_path):
    path = seeded(tmp_path, ("score: sum(sum(pile[c].value) for c in colours) + bonus - count(hand)",
                             "score: bonus * 10 + count(p for p in seats if p == me)"))
    [(code, message)] = warnings_of(path)
    assert code == "score-never-changes" and message.startswith("the score cannot change")


def test_a_score_through_a_function_of_the_state_changes(tmp_path):
    path = seeded(tmp_path, ("score: sum(sum(pile[c].value) for c in colours) + bonus - count(hand)",
                             "score: points(bonus)\nfunctions:\n  points(b): b + count(hand)"))
    assert warnings_of(path) == []
    path = seeded(tmp_path, ("score: sum(sum(pile[c].value) for c in colours) + bonus - count(hand)",
                             "score: points(bonus)\nfunctions:\n  points(b): b * 2"), name="g2.yaml")
    assert codes(path) == ["score-never-changes"]


def test_row_outside_players(tmp_path):
    path = seeded(tmp_path, ("    by_players: {2: 1, 3: 0}\n", "    by_players: {2: 1, 3-4: 0, 6: 2}\n"))
    assert warnings_of(path) == [
        ("row-outside-players", "row '3-4' of 'bonus' also covers 4 players, but the game is for 2 to 3 players"),
        ("row-outside-players", "row '6' of 'bonus' is for 6 players, but the game is for 2 to 3 players")]


def test_a_variants_warning_points_into_the_file_with_the_mistake(tmp_path):
    seeded(tmp_path, name="base.yaml")
    variant = tmp_path / "variant.yaml"
    # (a new param no rule reads is no longer a warning but an error: see tests/test_variants.py)
    variant.write_text("extends: base.yaml\nname: Variant\nzones:\n  spare: {visible: everyone}\n", encoding="utf-8")
    [d] = lint_file(str(variant))
    assert d.code == "zone-never-entered" and (d.pos.file, d.pos.line, d.pos.col) == (str(variant), 4, 3)


def test_lint_of_an_invalid_ruleset_raises_its_errors(tmp_path):
    path = seeded(tmp_path, ("move top of draw to hand", "move top of drow to hand"))
    with pytest.raises(RulesetError):
        lint_file(path)


# ---- the command line ----
@pytest.fixture
def files(tmp_path):
    """A clean, a warning-only and an invalid ruleset."""
    return {"clean": seeded(tmp_path, name="clean.yaml"),
            "warning": seeded(tmp_path, ("  hand_size: 2\n", "  hand_size: 2\n  hand_limit: 4\n"),
                              name="warning.yaml"),
            "invalid": seeded(tmp_path, ("move top of draw to hand", "move top of drow to hand"),
                              name="invalid.yaml")}


@pytest.mark.parametrize("command", ["validate", "lint"])
@pytest.mark.parametrize("which, status, n_errors, n_warnings", [
    ("clean", "ok", 0, 0), ("warning", "warning", 0, 1), ("invalid", "error", 1, 0)])
def test_json_shape(capsys, files, command, which, status, n_errors, n_warnings):
    code, out, err = call(capsys, command, files[which], "--json")
    doc = json.loads(out)
    assert err == ""
    assert set(doc) == {"status", "errors", "warnings"}
    assert (doc["status"], len(doc["errors"]), len(doc["warnings"])) == (status, n_errors, n_warnings)
    assert code == (1 if which == "invalid" else 0)
    keys = {"file", "line", "column", "code", "message", "hint"}
    for item in doc["errors"] + doc["warnings"]:
        assert set(item) == keys
        assert isinstance(item["line"], int) and isinstance(item["column"], int) and item["line"] >= 1
        assert item["code"] and item["message"] and item["hint"]
    if which == "warning":
        assert doc["warnings"][0]["code"] == "param-never-read"
    if which == "invalid":
        assert doc["errors"][0]["code"] == "name"


@pytest.mark.parametrize("command", ["validate", "lint"])
def test_strict_exit_codes(capsys, files, command):
    assert call(capsys, command, files["clean"], "--strict")[0] == 0
    assert call(capsys, command, files["warning"])[0] == 0
    assert call(capsys, command, files["warning"], "--strict")[0] == 1
    assert call(capsys, command, files["warning"], "--strict", "--json")[0] == 1
    assert call(capsys, command, files["invalid"])[0] == 1
    assert call(capsys, command, files["invalid"], "--strict")[0] == 1


def test_validate_prints_warnings_with_the_line_and_a_caret(capsys, files):
    code, out, err = call(capsys, "validate", files["warning"])
    assert code == 0
    assert out.strip() == f"{files['warning']}: ok (Mini, 2–3 players), 1 warning"
    lines = err.splitlines()
    line = base().split("\n").index("  hand_size: 2") + 2
    assert lines[0] == f"{files['warning']}:{line}:3: warning: parameter 'hand_limit' is never read"
    assert lines[1] == "      hand_limit: 4"
    assert lines[2] == "      ^"
    assert lines[3].startswith("    hint: ")


def test_lint_prints_warnings_and_a_count(capsys, files):
    code, out, err = call(capsys, "lint", files["warning"])
    assert code == 0
    assert out.strip() == f"{files['warning']}: 1 warning"
    assert "warning: parameter 'hand_limit' is never read" in err and "hint:" in err


def test_errors_are_printed_with_the_line_and_a_caret(capsys, files):
    code, out, err = call(capsys, "validate", files["invalid"])
    assert code == 1 and out == ""
    lines = err.splitlines()
    assert lines[0].endswith("unknown name 'drow'")
    col = int(lines[0].split(":")[2])
    assert "move top of drow to hand" in lines[1]
    assert lines[2] == " " * (4 + col - 1) + "^"
    assert lines[1][4 + col - 1:].startswith("drow")
    assert lines[3] == "    hint: did you mean 'draw'?"


def test_lint_with_set(capsys, files):
    code, out, err = call(capsys, "lint", files["clean"], "--set", "hand_size=3")
    assert (code, out.strip()) == (0, f"{files['clean']}: no warnings")
    code, out, err = call(capsys, "lint", files["clean"], "--set", "hand_sise=3")
    assert code == 1 and "--set:1:1: hand_sise" in err and "did you mean 'hand_size'?" in err


def test_caret_lines_cut_a_long_line_around_the_column(tmp_path):
    from interpreter.tools.cli import caret_lines
    path = tmp_path / "long.yaml"
    path.write_text("x: " + "a" * 300 + "HERE" + "b" * 300 + "\n", encoding="utf-8")
    shown, caret = caret_lines(str(path), 1, 304)
    assert shown.startswith("    …") and shown.endswith("…") and len(shown) < 120
    assert shown[caret.index("^"):].startswith("HERE")
    assert caret_lines(str(path), 5, 1) == [] and caret_lines(str(tmp_path / "none.yaml"), 1, 1) == []
