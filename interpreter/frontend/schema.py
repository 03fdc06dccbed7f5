"""Check a loaded ruleset against schemas/ruleset.schema.json, in words a game designer understands.

The schema (JSON Schema Draft-07) is the same file editors use to check rulesets as they are typed.
`validate` runs jsonschema over the document's data and turns each error into a Diagnostic at the
offending key or value, e.g. "unknown key 'visable' in zone 'draw'" with the hint "did you mean
'visible'?". Mapping keys are strings in JSON but may be ints in the document (a YAML key `2:`),
so error paths are mapped back to the document's own keys before positions are looked up.
"""
from __future__ import annotations

import functools
import json
import os
import re
from typing import Any

from jsonschema import Draft7Validator
from jsonschema.exceptions import ValidationError, best_match

from ..errors import Diagnostic, closest, did_you_mean
from .loader import Document, Path

SCHEMA_PATH = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                            os.pardir, os.pardir, "schemas", "ruleset.schema.json"))

SECTIONS = {"params": "param", "cards": "card kind", "zones": "zone", "vars": "variable",
            "functions": "function", "procedures": "procedure", "stats": "stat"}
STATEMENT_LISTS = {"setup", "steps", "do", "then", "else", "on_empty", "together"}
STATEMENT_KINDS = ("if", "for", "while", "step", "choose", "together")
TYPE_NAMES = {"string": "a string", "integer": "a whole number", "number": "a number",
              "boolean": "true/false", "array": "a list", "object": "a mapping of keys to values",
              "null": "empty (null)"}


@functools.lru_cache(maxsize=None)
def load_schema() -> dict:
    """The ruleset schema, read once; callers must not modify it."""
    with open(SCHEMA_PATH, encoding="utf-8") as fh:
        return json.load(fh)


@functools.lru_cache(maxsize=None)
def _validator() -> Draft7Validator:
    """A Draft-07 validator for the ruleset schema, built once."""
    return Draft7Validator(load_schema())


def validate(doc: Document) -> list[Diagnostic]:
    """Every schema error in doc as a positioned diagnostic, deduplicated and sorted by position."""
    found: dict[Diagnostic, None] = {}
    errors = list(_validator().iter_errors(_to_json(doc.data)))
    misspelt = _misspelt_keys(doc, errors)
    colonless = []          # keys such as 'discard {visible' (YAML read on past a missing ':')
    for error in errors:
        if _is_bad_key(error) and _colon_missing(error.instance):
            parent = _doc_path(doc.data, error.absolute_path)
            colonless.append(parent + (_doc_key(_at(doc.data, parent), error.instance),))
    for error in errors:
        path = _doc_path(doc.data, error.absolute_path)
        if any(path[:len(bad)] == bad for bad in colonless):
            continue        # the value of such a key: reported once, as the missing ':'
        if error.validator == "required":
            # a missing key that an unknown key there misspells is reported once, as that unknown key
            diags = _missing(doc, path, error, skip=misspelt.get(path, set()))
        else:
            diags = _diagnose(doc, error)
        for diag in diags:
            found.setdefault(diag, None)
    return sorted(found, key=lambda d: (d.pos.file, d.pos.line, d.pos.col, d.message))


def _misspelt_keys(doc: Document, errors) -> dict:
    """For each mapping path, the allowed keys that an unknown key there is a close misspelling of."""
    out: dict = {}
    for error in errors:
        if error.validator != "additionalProperties" or not isinstance(error.instance, dict):
            continue
        for key in error.instance:
            match = _meant_key(key, error)
            if match:
                out.setdefault(_doc_path(doc.data, error.absolute_path), set()).add(match)
    return out


def _meant_key(key: Any, error: ValidationError) -> str | None:
    """The allowed key an unknown key of a mapping stands for: a close spelling of one the mapping
    lacks, else the one required key it lacks when this is its only unknown key ('do:' under an
    'if' that has no 'then:'); None for a key that is allowed."""
    allowed = list(error.schema.get("properties", {}))
    patterns = list(error.schema.get("patternProperties", {}))
    if key in allowed or any(re.search(p, str(key)) for p in patterns):
        return None
    absent = [k for k in allowed if k not in error.instance]
    match = closest(key, allowed, prefer=absent)   # the fewest slips win; a lacking key breaks a tie
    if match:
        return match
    unknown = [k for k in error.instance if k not in allowed and not any(re.search(p, str(k)) for p in patterns)]
    lacking = [k for k in error.schema.get("required", []) if k not in error.instance]
    return lacking[0] if len(unknown) == 1 and len(lacking) == 1 else None


# --- from JSON back to the document -------------------------------------------------------------

def _to_json(value: Any) -> Any:
    """The data in JSON form: every mapping key a string."""
    if isinstance(value, dict):
        return {str(k): _to_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_to_json(v) for v in value]
    return value


def _doc_key(node: Any, key: Any) -> Any:
    """The document's own key for a JSON key (YAML may have read `2:` as the int 2)."""
    if isinstance(node, dict) and key not in node:
        return next((k for k in node if str(k) == key), key)
    return key


def _doc_path(data: Any, json_path) -> Path:
    """A jsonschema error path as a path of the document's own keys."""
    path = []
    for step in json_path:
        key = _doc_key(data, step)
        path.append(key)
        data = data[key] if isinstance(data, (dict, list)) else None
    return tuple(path)


def _at(data: Any, path: Path) -> Any:
    """The value at path."""
    for key in path:
        data = data[key]
    return data


# --- naming things the way a designer would -----------------------------------------------------

def _what(data: Any, path: Path) -> str:
    """A designer's name for the thing at path, such as "zone 'draw'" or "'min' of 'players'"."""
    if not path:
        return "the ruleset"
    parent, last = path[:-1], path[-1]
    if isinstance(_at(data, parent), list):
        return _what_item(data, path)
    if len(path) == 2 and path[0] in SECTIONS:
        return f"{SECTIONS[path[0]]} '{last}'"
    if parent and parent[-1] == "options":
        return f"option '{last}'"
    return f"'{last}' of {_what(data, parent)}" if parent else f"'{last}'"


def _what_item(data: Any, path: Path) -> str:
    """A designer's name for a list item: a statement, a tiebreak rule or a plain item."""
    parent, number = path[:-1], path[-1] + 1
    if parent == ("tiebreak",):
        return f"tiebreak rule {number}"
    where = _what(data, parent)
    if not _is_statement_list(parent):
        return f"item {number} of {where}"
    value = _at(data, path)
    kind = next((k for k in STATEMENT_KINDS if isinstance(value, dict) and k in value), None)
    if kind in ("step", "choose") and isinstance(value[kind], str):
        return f"{'step' if kind == 'step' else 'choice'} '{value[kind]}'"
    return f"'{kind}' statement {number} of {where}" if kind else f"statement {number} of {where}"


def _is_statement_list(path: Path) -> bool:
    """Whether the list at path holds statements."""
    if len(path) == 2 and path[0] in SECTIONS:
        return path[0] == "procedures"
    return bool(path) and path[-1] in STATEMENT_LISTS


def _show(value: Any) -> str:
    """A short rendering of a value for a message."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "empty"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    text = str(value)
    text = text if len(text) <= 40 else text[:37] + "..."
    return f"'{text}'" if isinstance(value, str) else text


def _either(words: list[str]) -> str:
    """'a', 'a or b', 'a, b or c'."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _did_you_mean(word: Any, candidates) -> str:
    """A 'did you mean' hint for a close candidate, else ''."""
    return did_you_mean(word, candidates)


def _explain(schema: dict) -> str:
    """A schema's description, with its first example."""
    text = schema.get("description", "")
    if schema.get("examples"):
        example = json.dumps(schema["examples"][0], ensure_ascii=False)
        text = f"{text} Example: {example}".strip()
    return text


def _resolve(schema: dict) -> dict:
    """Follow a local "$ref" in the ruleset schema."""
    ref = schema.get("$ref", "")
    if not ref.startswith("#/"):
        return schema
    return _at(load_schema(), tuple(ref[2:].split("/")))


# --- one handler per kind of jsonschema error ---------------------------------------------------

def _diagnose(doc: Document, error: ValidationError) -> list[Diagnostic]:
    """The diagnostics for one jsonschema error."""
    path = _doc_path(doc.data, error.absolute_path)
    if _is_bad_key(error):
        return _bad_key(doc, path, error)
    return _HANDLERS.get(error.validator, _other)(doc, path, error)


def _diag(pos, message: str, hint: str = "") -> Diagnostic:
    """A schema diagnostic."""
    return Diagnostic(pos, message, "schema", hint)


def _unknown_keys(doc: Document, path: Path, error: ValidationError) -> list[Diagnostic]:
    """additionalProperties: false — one diagnostic per key the schema does not know."""
    allowed = list(error.schema.get("properties", {}))
    patterns = list(error.schema.get("patternProperties", {}))
    node, where = _at(doc.data, path), _what(doc.data, path)
    out = []
    for key in error.instance:
        if key in allowed or any(re.search(p, key) for p in patterns):
            continue
        meant = _meant_key(key, error)
        hint = _misplaced(key, allowed) or (f"did you mean '{meant}'?" if meant else
                                            f"the keys allowed here are {', '.join(allowed)}")
        out.append(_diag(doc.key_pos(path + (_doc_key(node, key),)), f"unknown key '{key}' in {where}", hint))
    return out


# A key written one level away from where it belongs: (the key, a key of the mapping it stands in)
# -> where to write it. Checked before the spelling, which would find a look-alike ('when': 'then').
_MISPLACED = {
    ("when", "options"): "when belongs to one option, not to the choose: options: {coup: {when: coins >= 7, "
                         "do: [...]}}; to ask the whole choice only sometimes, put it in an if",
    ("public", "when"): "public belongs to the choose, not to one of its options: choose: action, public: true, "
                        "options: {...}",
}


def _misplaced(key: Any, allowed: list) -> str:
    """Where an unknown key belongs when it is a key of the mapping above or below, else ''."""
    return next((hint for (k, has), hint in _MISPLACED.items() if k == key and has in allowed), "")


def _is_bad_key(error: ValidationError) -> bool:
    """Whether error is a propertyNames error: a key that is not a valid name."""
    return list(error.absolute_schema_path)[-2:-1] == ["propertyNames"]


def _colon_missing(key: Any) -> str:
    """The word before a missing ':' when YAML read 'discard {visible: everyone}' as the key
    'discard {visible' (a name, a space, then more), else ''."""
    m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)\s+\S", str(key))
    return m.group(1) if m else ""


def _bad_key(doc: Document, path: Path, error: ValidationError) -> list[Diagnostic]:
    """propertyNames — a key that is not a valid name here."""
    key = _doc_key(_at(doc.data, path), error.instance)
    word = _colon_missing(key)
    if word:
        value = _at(doc.data, path + (key,))
        written = f"{key}: {value}" if isinstance(value, (str, int, float)) and not isinstance(value, bool) else key
        fixed = f"{word}: {written[len(word):].strip()}"
        return [Diagnostic(doc.key_pos(path + (key,)), f"YAML syntax error: missing ':' after '{word}'",
                           "yaml-syntax", f"did you mean '{fixed}'? a key is followed by ': ' and its value")]
    message = f"'{key}' is not a valid key in {_what(doc.data, path)}"
    return [_diag(doc.key_pos(path + (key,)), message, error.schema.get("description", ""))]


def _missing(doc: Document, path: Path, error: ValidationError, skip: set = frozenset()) -> list[Diagnostic]:
    """required — one diagnostic per missing key (but none for the keys in skip)."""
    props = error.schema.get("properties") or (load_schema()["properties"] if not path else {})
    out = []
    for key in error.validator_value:
        if key not in error.instance and key not in skip:
            message = f"missing required key '{key}'" + (f" in {_what(doc.data, path)}" if path else "")
            hint = _explain(_resolve(props.get(key, {}))) or f"add {key}: ..."
            out.append(_diag(doc.key_pos(path), message, hint))
    return out


def _not_one_of(doc: Document, path: Path, error: ValidationError) -> list[Diagnostic]:
    """enum — a value outside the allowed words."""
    values = [_show(v).strip("'") for v in error.validator_value]
    message = f"{_what(doc.data, path)} must be one of {', '.join(values)}"
    if not isinstance(error.instance, (dict, list)):
        message += f", not {_show(error.instance)}"
    hint = _did_you_mean(error.instance, values) or error.schema.get("description", "")
    return [_diag(doc.pos(path), message, hint)]


def _wrong_type(doc: Document, path: Path, error: ValidationError) -> list[Diagnostic]:
    """type — a value of the wrong kind."""
    types = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
    expected = _either([TYPE_NAMES.get(t, t) for t in types])
    message = f"{_what(doc.data, path)} must be {expected}, not {_show(error.instance)}"
    return [_diag(doc.pos(path), message, _explain(error.schema) or f"write {expected} here")]


def _too_small(doc: Document, path: Path, error: ValidationError) -> list[Diagnostic]:
    """minimum — a number below the lowest allowed."""
    message = f"{_what(doc.data, path)} must be at least {error.validator_value}, not {_show(error.instance)}"
    return [_diag(doc.pos(path), message, _explain(error.schema) or f"use {error.validator_value} or more")]


def _empty(doc: Document, path: Path, error: ValidationError) -> list[Diagnostic]:
    """minLength / minItems / minProperties — an empty string, list or mapping."""
    if error.validator == "minProperties" and error.schema.get("maxProperties") == 1:
        return _exactly_one(doc, path, error)
    return [_diag(doc.pos(path), f"{_what(doc.data, path)} must not be empty",
                  _explain(error.schema) or "write something here, or remove the key")]


def _exactly_one(doc: Document, path: Path, error: ValidationError) -> list[Diagnostic]:
    """minProperties / maxProperties of 1 — a mapping that takes exactly one of its keys."""
    keys = _either([f"'{k}'" for k in error.schema.get("properties", {})])
    message = f"{_what(doc.data, path)} needs exactly one of the keys {keys}"
    return [_diag(doc.pos(path), message, error.schema.get("description", ""))]


def _too_many(doc: Document, path: Path, error: ValidationError) -> list[Diagnostic]:
    """maxProperties — more keys than allowed."""
    if error.validator_value == 1:
        return _exactly_one(doc, path, error)
    message = f"{_what(doc.data, path)} may have at most {error.validator_value} keys"
    return [_diag(doc.pos(path), message, error.schema.get("description", ""))]


def _wrong_form(doc: Document, path: Path, error: ValidationError) -> list[Diagnostic]:
    """pattern — a string that is not written the expected way."""
    message = f"{_what(doc.data, path)} is not written the expected way: {_show(error.instance)}"
    return [_diag(doc.pos(path), message, _explain(error.schema) or f"it must match {error.validator_value}")]


def _alternatives(doc: Document, path: Path, error: ValidationError) -> list[Diagnostic]:
    """anyOf / oneOf — a missing kind key, else the best-matching alternative's own error."""
    if error.context and all(e.validator == "required" for e in error.context):
        return _no_kind_key(doc, path, error)
    best = best_match(error.context) if error.context else None
    return _diagnose(doc, best) if best is not None else _other(doc, path, error)


def _no_kind_key(doc: Document, path: Path, error: ValidationError) -> list[Diagnostic]:
    """A mapping that needs one of several keys (a statement's if, for, while, step or choose)."""
    kinds = list(dict.fromkeys(k for e in error.context for k in e.validator_value))
    present = error.instance if isinstance(error.instance, dict) else {}
    guesses = (_did_you_mean(key, kinds) for key in present)
    hint = next((g for g in guesses if g), "") or error.schema.get("description", "")
    message = f"{_what(doc.data, path)} needs one of the keys {_either([repr(k) for k in kinds])}"
    return [_diag(doc.pos(path), message, hint)]


def _not_allowed(doc: Document, path: Path, error: ValidationError) -> list[Diagnostic]:
    """A `false` schema — a value that may not appear here at all."""
    return [_diag(doc.key_pos(path), f"{_what(doc.data, path)} is not allowed here", "remove it")]


def _other(doc: Document, path: Path, error: ValidationError) -> list[Diagnostic]:
    """Any other error, with jsonschema's message cut short."""
    text = error.message if len(error.message) <= 100 else error.message[:97] + "..."
    hint = error.schema.get("description", "") if isinstance(error.schema, dict) else ""
    return [_diag(doc.pos(path), f"{_what(doc.data, path)}: {text}", hint or "see schemas/ruleset.schema.json")]


_HANDLERS = {
    "additionalProperties": _unknown_keys,
    "required": _missing,
    "enum": _not_one_of,
    "type": _wrong_type,
    "minimum": _too_small,
    "minLength": _empty,
    "minItems": _empty,
    "minProperties": _empty,
    "maxProperties": _too_many,
    "pattern": _wrong_form,
    "anyOf": _alternatives,
    "oneOf": _alternatives,
    None: _not_allowed,
}
