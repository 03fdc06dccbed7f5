"""The ruleset schema: valid Draft-07, accepts every shipped ruleset, explains broken ones precisely."""
import glob
import json
import os
import re
import textwrap

import pytest
import yaml
from jsonschema import Draft7Validator

from interpreter.frontend.loader import load
from interpreter.frontend.schema import SCHEMA_PATH, load_schema, validate

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


# --- the schema as an editor reads it --------------------------------------------------------------
# Editors with a YAML language server show a key's `description` on hover and in completion, offer
# `examples`, `default`s and `enum` values as completions, and `defaultSnippets` for new list items.
# In Draft-07 a keyword beside a `$ref` is ignored, so a key that is only a `$ref` is described by the
# definition it names (or by a description beside an `allOf: [{$ref}]`).

MODELINE = "# yaml-language-server: $schema=../schemas/ruleset.schema.json"
# Keywords whose values are subschemas: a mapping of them, a list of them, or one.
SCHEMA_MAPS = ("properties", "patternProperties", "definitions")
SCHEMA_LISTS = ("allOf", "anyOf", "oneOf")
SCHEMA_ONE = ("additionalProperties", "items", "additionalItems", "propertyNames", "contains", "not",
              "if", "then", "else")


def _target(root, ref):
    """The subschema a local $ref names, with its pointer."""
    assert ref.startswith("#/"), ref
    node = root
    for part in ref[2:].split("/"):
        node = node[part]
    return node, ref[1:]


def _subschemas(node, where):
    """(pointer, subschema, keyword) for every subschema directly inside a schema node."""
    for keyword in SCHEMA_MAPS:
        for key, sub in node.get(keyword, {}).items():
            yield f"{where}/{keyword}/{key}", sub, keyword
    for keyword in SCHEMA_LISTS:
        for i, sub in enumerate(node.get(keyword, [])):
            yield f"{where}/{keyword}/{i}", sub, keyword
    for keyword in SCHEMA_ONE:
        sub = node.get(keyword)
        if isinstance(sub, dict):
            yield f"{where}/{keyword}", sub, keyword
        elif keyword == "items" and isinstance(sub, list):
            for i, item in enumerate(sub):
                yield f"{where}/items/{i}", item, keyword


def _schema_nodes(root):
    """(pointer, node, keyword it stands under) for every schema node, each once, $refs followed."""
    todo, seen = [("", root, None)], set()
    while todo:
        where, node, keyword = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        yield where, node, keyword
        if "$ref" in node:
            target, pointer = _target(root, node["$ref"])
            todo.append((pointer, target, keyword))
        todo.extend(_subschemas(node, where))


def _described(root, node):
    """Whether a subschema has a description an editor shows: its own, or its $ref's or single allOf's."""
    if "description" in node:
        return True
    if "$ref" in node:
        return _described(root, _target(root, node["$ref"])[0])
    if len(node.get("allOf", [])) == 1:
        return _described(root, node["allOf"][0])
    return False


def test_every_key_value_and_item_has_a_description():
    """Every key (properties), every free-named key's value (additionalProperties, patternProperties),
    every key name (propertyNames) and every list item (items) says what it is, so a key added without
    a description fails here."""
    root = load_schema()
    checked = [(where, node, keyword) for where, node, keyword in _schema_nodes(root)
               if keyword in ("properties", "patternProperties", "additionalProperties", "propertyNames", "items")]
    undescribed = [where for where, node, _ in checked if not _described(root, node)]
    assert not undescribed, f"schemas without a description: {undescribed}"
    assert len(checked) > 100            # the walk reached the whole schema, definitions included
    keys = {where.rsplit("/", 1)[-1] for where, _, keyword in checked if keyword == "properties"}
    assert {"visible", "knowledge", "by_players", "same", "until", "families", "on_empty"} <= keys


def test_the_walk_finds_a_key_without_a_description():
    schema = {"properties": {"a": {"$ref": "#/definitions/d"}, "b": {"allOf": [{"$ref": "#/definitions/d"}],
                                                                     "description": "B."}},
              "definitions": {"d": {"type": "object", "properties": {"x": {"type": "string"}}}}}
    missing = [where for where, node, keyword in _schema_nodes(schema)
               if keyword == "properties" and not _described(schema, node)]
    assert sorted(missing) == ["/definitions/d/properties/x", "/properties/a"]


def test_closed_sets_are_enums_with_a_word_for_each_value():
    root = load_schema()
    enums = {where: node for where, node, _ in _schema_nodes(root) if "enum" in node}
    assert {where.rsplit("/", 1)[-1] for where in enums} == {"owner", "visible", "knowledge", "per", "wins"}
    for where, node in enums.items():
        assert len(node["enumDescriptions"]) == len(node["enum"]), where
        assert all(isinstance(text, str) and text for text in node["enumDescriptions"]), where


def _against(root, node):
    """A validator for one subschema, with the ruleset schema's definitions in reach of its $refs."""
    return Draft7Validator({"definitions": root["definitions"], "allOf": [node]})


def _unsnippet(value):
    """A defaultSnippets body as the text it inserts when its placeholders are left as they are."""
    if isinstance(value, dict):
        return {_unsnippet(k): _unsnippet(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_unsnippet(v) for v in value]
    return re.sub(r"\$\{\d+:([^}]*)\}", r"\1", value) if isinstance(value, str) else value


def test_examples_defaults_and_snippets_are_valid_where_they_stand():
    root = load_schema()
    counted = 0
    for where, node, _ in _schema_nodes(root):
        samples = [("example", e) for e in node.get("examples", [])]
        samples += [("default", node["default"])] if "default" in node else []
        samples += [(f"snippet {s['label']!r}", _unsnippet(s["body"])) for s in node.get("defaultSnippets", [])]
        for what, value in samples:
            errors = [e.message for e in _against(root, node).iter_errors(value)]
            assert not errors, f"{where}: {what} {value!r}: {errors}"
            counted += 1
    assert counted > 100


# What each rules-language string of the schema is parsed as (see interpreter/frontend/parser.py).
DSL = {
    "/properties/cards/additionalProperties/properties/count": "expr",
    "/properties/cards/additionalProperties/properties/for/additionalProperties": "expr",
    "/properties/cards/additionalProperties/properties/attrs/additionalProperties": "expr",
    "/properties/zones/additionalProperties/properties/per": "expr",
    "/properties/vars/additionalProperties/properties/initial": "expr",
    "/properties/functions/additionalProperties": "expr",
    "/properties/turn/properties/first": "expr",
    "/properties/turn/properties/next": "expr",
    "/properties/end/properties/when": "expr",
    "/properties/score": "expr",
    "/properties/tiebreak/items/properties/most": "expr",
    "/properties/tiebreak/items/properties/fewest": "expr",
    "/properties/bots/properties/eval": "expr",
    "/properties/display/properties/grid/properties/columns": "expr",
    "/definitions/statement": "stmt",
    "/definitions/ifStatement/properties/if": "expr",
    "/definitions/forStatement/properties/for": "for",
    "/definitions/whileStatement/properties/while": "expr",
    "/definitions/aroundStatement/properties/from": "expr",
    "/definitions/aroundStatement/properties/until": "expr",
    "/definitions/chooseStatement/properties/by": "expr",
    "/definitions/chooseStatement/properties/from": "expr",
    "/definitions/choiceCards": "expr",
    "/definitions/choiceWhere": "expr",
    "/definitions/choiceMin": "expr",
    "/definitions/choiceMax": "expr",
    "/definitions/choiceCount": "expr",
}
STATEMENT_KINDS = {"if": "ifStatement", "for": "forStatement", "while": "whileStatement",
                   "around": "aroundStatement", "step": "stepStatement", "choose": "chooseStatement"}


def _rules_in(root, where, node, value):
    """(pointer, kind, text) for every rules-language string in a sample value, found by walking the
    value alongside the schema it stands for; a function's key (name(a, b)) is a signature."""
    if "$ref" in node:
        node_, where = _target(root, node["$ref"])
        yield from _rules_in(root, where, node_, value)
        return
    if where == "/definitions/statement" and isinstance(value, dict):
        kind = next(k for k in STATEMENT_KINDS if k in value)
        yield from _rules_in(root, f"/definitions/{STATEMENT_KINDS[kind]}",
                             root["definitions"][STATEMENT_KINDS[kind]], value)
    elif isinstance(value, str) and where in DSL:
        yield where, DSL[where], value
    elif isinstance(value, list) and isinstance(node.get("items"), dict):
        for item in value:
            yield from _rules_in(root, f"{where}/items", node["items"], item)
    elif isinstance(value, dict):
        for key, item in value.items():
            if where == "/properties/functions":
                yield where, "sig", key
            if key in node.get("properties", {}):
                yield from _rules_in(root, f"{where}/properties/{key}", node["properties"][key], item)
            elif isinstance(node.get("additionalProperties"), dict):
                yield from _rules_in(root, f"{where}/additionalProperties", node["additionalProperties"], item)


def test_rules_language_in_examples_and_snippets_parses():
    """The expressions and statements the editor offers are written as the manual teaches them."""
    from interpreter.frontend.parser import parse
    root = load_schema()
    found = []
    for where, node, _ in _schema_nodes(root):
        samples = list(node.get("examples", [])) + [_unsnippet(s["body"]) for s in node.get("defaultSnippets", [])]
        for value in samples:
            found.extend(_rules_in(root, where, node, value))
    for where, kind, text in found:
        parse(text, kind)               # raises DSLSyntaxError, with the position, if it does not parse
    assert {kind for _, kind, _ in found} == {"expr", "stmt", "for", "sig"}
    assert len(found) > 80
    assert set(DSL) <= {where for where, _, _ in found}, "a rules-language key without an example"


@pytest.mark.parametrize("file", RULESETS, ids=os.path.basename)
def test_shipped_ruleset_files_match_the_schema_as_an_editor_checks_them(file):
    """Each file as written (a variant without its base), read by the editor through its modeline."""
    with open(file, encoding="utf-8") as fh:
        text = fh.read()
    assert text.splitlines()[0] == MODELINE
    schema_file = os.path.normpath(os.path.join(os.path.dirname(file), MODELINE.split("$schema=")[1]))
    assert schema_file == SCHEMA_PATH
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in Draft7Validator(load_schema()).iter_errors(
        json.loads(json.dumps(yaml.safe_load(text), default=str)))]
    assert not errors


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
        (6, 19, "'visible' of zone 'draw' must be one of everyone, owner, others, nobody, not 'nobdy'",
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
        (9, 5, "statement 1 of 'setup' needs one of the keys 'if', 'for', 'while', 'around', 'step', 'choose' or 'together'",
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
         'or a mapping for if, for, while, around, step, choose or together. Example: "shuffle draw"'),
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
