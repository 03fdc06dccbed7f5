"""The ruleset schema: valid Draft-07, accepts every shipped ruleset, explains broken ones precisely."""
import glob
import json
import os
import textwrap

import pytest
from jsonschema import Draft7Validator

from interpreter.loader import load
from interpreter.schema import SCHEMA_PATH, load_schema, validate

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULESETS = sorted(glob.glob(os.path.join(ROOT, "rulesets", "*.yaml")))

# A small valid ruleset; each broken case below replaces one line of it.
BASE = """\
name: Test
players: {min: 2, max: 4}
params:
  hand_size: 3
zones:
  draw: {visible: nobody}
  hand: {owner: each, visible: owner}
setup:
  - shuffle draw
turn:
  steps:
    - step: play
      do: ["move top of draw to hand"]
end: {when: count(draw) == 0}
score: count(hand)
"""


def check(tmp_path, text, name="game.yaml"):
    """Validate text as a ruleset file; (line, col, message, hint) for every diagnostic."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return [(d.pos.line, d.pos.col, d.message, d.hint) for d in validate(load(str(path)))]


def replace(old, new):
    """BASE with one piece of text replaced."""
    assert old in BASE
    return BASE.replace(old, new)


def test_schema_file_is_valid_draft7():
    schema = load_schema()
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    Draft7Validator.check_schema(schema)
    assert os.path.isabs(SCHEMA_PATH) and os.path.isfile(SCHEMA_PATH)
    with open(SCHEMA_PATH, encoding="utf-8") as fh:
        assert json.load(fh) == schema


def _objects(schema):
    """Every subschema of type object, with properties, anywhere in the schema."""
    if isinstance(schema, dict):
        if schema.get("type") == "object" and "properties" in schema:
            yield schema
        for value in schema.values():
            yield from _objects(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _objects(value)


def test_every_key_is_described_and_objects_are_closed():
    for obj in _objects(load_schema()):
        assert obj.get("additionalProperties") is False
        for key, prop in obj["properties"].items():
            assert "description" in prop or "$ref" in prop, key


@pytest.mark.parametrize("file", RULESETS, ids=os.path.basename)
def test_shipped_rulesets_are_valid(file):
    assert validate(load(file)) == []


def test_base_is_valid(tmp_path):
    assert check(tmp_path, BASE) == []


def test_misspelt_key_suggests_the_right_one(tmp_path):
    text = replace("draw: {visible: nobody}", "draw: {visable: nobody}")
    assert check(tmp_path, text) == [
        (6, 10, "unknown key 'visable' in zone 'draw'", "did you mean 'visible'?")]


def test_unknown_key_without_a_close_match_lists_the_allowed_keys(tmp_path):
    text = replace("end: {when: count(draw) == 0}", "end: {when: count(draw) == 0, zzz: 1}")
    [(line, col, message, hint)] = check(tmp_path, text)
    assert (line, col, message) == (14, 31, "unknown key 'zzz' in 'end'")
    assert hint == "the keys allowed here are when, finish"


def test_bad_enum_value(tmp_path):
    text = replace("hand: {owner: each,", "hand: {owner: player,")
    [(line, col, message, hint)] = check(tmp_path, text)
    assert (line, col, message) == (7, 17, "'owner' of zone 'hand' must be one of table, each, not 'player'")
    assert hint.startswith("table: one zone shared by everyone")


def test_bad_enum_value_suggests_a_close_one(tmp_path):
    text = replace("draw: {visible: nobody}", "draw: {visible: nobdy}")
    assert check(tmp_path, text) == [
        (6, 19, "'visible' of zone 'draw' must be one of everyone, owner, nobody, not 'nobdy'",
         "did you mean 'nobody'?")]


def test_missing_required_key(tmp_path):
    text = replace("score: count(hand)\n", "")
    [(line, col, message, hint)] = check(tmp_path, text)
    assert (line, col, message) == (1, 1, "missing required key 'score'")
    assert hint.startswith("Each player's final score")


def test_missing_required_key_in_a_section(tmp_path):
    text = replace("players: {min: 2, max: 4}", "players: {min: 2}")
    [(line, col, message, _)] = check(tmp_path, text)
    assert (line, col, message) == (2, 1, "missing required key 'max' in 'players'")


def test_wrong_type(tmp_path):
    text = replace("players: {min: 2,", "players: {min: two,")
    [(line, col, message, hint)] = check(tmp_path, text)
    assert (line, col, message) == (2, 16, "'min' of 'players' must be a whole number, not 'two'")
    assert "Example: 2" in hint


def test_param_value_by_players(tmp_path):
    text = replace("hand_size: 3", "hand_size:\n    by_players: {2: 4, 3 to 4: 3, 5: {x: 1}}")
    assert [(line, col, message) for line, col, message, _ in check(tmp_path, text)] == [
        (5, 24, "'3 to 4' is not a valid key in 'by_players' of param 'hand_size'"),
        (5, 38, "'5' of 'by_players' of param 'hand_size' must be a string, a number, true/false, "
                "empty (null) or a list, not a mapping"),
    ]


def test_bad_param_name(tmp_path):
    text = replace("hand_size: 3", "2nd_hand: 3")
    [(line, col, message, hint)] = check(tmp_path, text)
    assert (line, col, message) == (4, 3, "'2nd_hand' is not a valid key in 'params'")
    assert "not starting with a digit" in hint


def test_statement_without_a_kind_key(tmp_path):
    text = replace("  - shuffle draw", "  - {chose: x, cards: hand}")
    assert check(tmp_path, text) == [
        (9, 5, "statement 1 of 'setup' needs one of the keys 'if', 'for', 'while', 'around', 'step' or 'choose'",
         "did you mean 'choose'?")]


def test_statement_errors_name_the_statement(tmp_path):
    text = replace("  - shuffle draw", "  - {if: x, els: [a]}\n  - {for: m of materials, do: []}\n  - 5")
    assert check(tmp_path, text) == [
        (9, 5, "missing required key 'then' in 'if' statement 1 of 'setup'",
         "Statements run when the condition is true."),
        (9, 13, "unknown key 'els' in 'if' statement 1 of 'setup'", "did you mean 'else'?"),
        (10, 11, "'for' of 'for' statement 2 of 'setup' is not written the expected way: 'm of materials'",
         'The loop variable and the list it runs over, written "variable in list". Example: "m in materials"'),
        (11, 5, "statement 3 of 'setup' must be a string or a mapping of keys to values, not 5",
         'One rule to carry out: a statement of the rules language in a string, such as "shuffle draw", '
         'or a mapping for if, for, while, around, step or choose. Example: "shuffle draw"'),
    ]


def test_errors_inside_a_step_and_a_choice(tmp_path):
    text = replace('do: ["move top of draw to hand"]',
                   "do:\n        - choose: c\n          cards: hand\n          mni: 1\n"
                   "          options: {take: {do: [x], count: -1}}")
    assert [(line, col, message) for line, col, message, _ in check(tmp_path, text)] == [
        (16, 11, "unknown key 'mni' in choice 'c'"),
        (17, 44, "'count' of option 'take' must be at least 0, not -1"),
    ]


def test_tiebreak_takes_exactly_one_key(tmp_path):
    text = BASE + "tiebreak:\n  - {most: a, fewest: b}\n"
    [(line, col, message, _)] = check(tmp_path, text)
    assert (line, col, message) == (17, 5, "tiebreak rule 1 needs exactly one of the keys 'most' or 'fewest'")


def test_all_errors_reported_sorted(tmp_path):
    text = replace("draw: {visible: nobody}", "draw: {visible: all, per: 3}")
    text = text.replace("players: {min: 2, max: 4}", "players: {min: 0, max: 4}")
    positions = [(line, col) for line, col, _, _ in check(tmp_path, text)]
    assert positions == [(2, 16), (6, 19), (6, 29)]


def test_variant_errors_point_into_the_variant(tmp_path):
    check(tmp_path, BASE, "base.yaml")
    variant = "extends: base.yaml\nname: Short\nzones:\n  draw: {visibel: nobody}\n"
    assert check(tmp_path, variant, "variant.yaml") == [
        (4, 10, "unknown key 'visibel' in zone 'draw'", "did you mean 'visible'?")]
