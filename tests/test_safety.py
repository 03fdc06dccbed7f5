"""Safe by construction: opening a hostile ruleset cannot reach Python or other files, and fails
cleanly, with a positioned error, within bounded time and memory.

- YAML is loaded safely: Python object tags are refused (on values, lists and mappings) and nothing
  is built or run.
- The rules language has no way to Python: no eval of ruleset text, no attribute access on Python
  objects; the generated code reaches only our helpers and a few harmless built-ins, and ruleset
  texts enter it as constants.
- `extends` resolves only to files beside the named ruleset or below its folder.
- Billion laughs, deep nesting, huge counts and lists: a positioned error within seconds, checked
  in a child process with a cap on its memory.
"""
from __future__ import annotations

import dis
import json
import os
import subprocess
import sys
import textwrap

import pytest

from interpreter.compiler import codegen

from interpreter.frontend import loader
from interpreter.compiler.game import load_game, validate_file
from interpreter.tools.records import play_game
from interpreter.seats import make_bot

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE = os.path.join(ROOT, "tests", "errors", "_valid_base.yaml")
RULESETS = [os.path.join(ROOT, "rulesets", f) for f in ("r_eco.yaml", "lixo.yaml", "lixo_two_colour.yaml",
                                                        "sorting_memo.yaml")]


def base_text() -> str:
    with open(BASE, encoding="utf-8") as fh:
        return fh.read()


def variant(tmp_path, old: str, new: str, name: str = "rules.yaml") -> str:
    text = base_text()
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return str(path)


def line_of(path: str, fragment: str) -> int:
    with open(path, encoding="utf-8") as fh:
        return next(n for n, line in enumerate(fh, 1) if fragment in line)


def only_error(path: str):
    diagnostics = validate_file(path)
    assert len(diagnostics) == 1, [str(d) for d in diagnostics]
    return diagnostics[0]


# ---------------------------------------------------------------- YAML

@pytest.mark.parametrize("old,new", [
    ("hand_size: 2", "hand_size: !!python/object/apply:os.system ['touch {marker}']"),
    ("players: {min: 2, max: 3}", "players: !!python/object/apply:os.system {min: 2, max: 3}"),
    ("colours: [red, blue]", "colours: !!python/object/new:os.system ['touch {marker}']"),
    ("hand_size: 2", "hand_size: !!python/name:os.system"),
    ("hand_size: 2", "hand_size: !!python/module:os"),
    ("hand_size: 2", "hand_size: !custom 2"),
    ("colours: [red, blue]", "colours: !!set {red, blue}"),
])
def test_yaml_object_tags_are_refused_and_nothing_runs(tmp_path, old, new):
    marker = tmp_path / "PWNED"
    path = variant(tmp_path, old, new.replace("{marker}", str(marker)))
    d = only_error(path)
    assert d.code == "yaml-tag" and "is not allowed in a ruleset" in d.message
    assert d.pos.file == path and d.pos.line == line_of(path, new.split(":")[0].strip() + ":")
    assert not marker.exists()


def test_the_loader_is_a_safe_loader():
    assert issubclass(loader._Loader, __import__("yaml").SafeLoader)


# ---------------------------------------------------------------- the rules language

@pytest.mark.parametrize("rule,message", [
    ("__import__('os')", "unknown function '__import__'"),
    ("eval('1 + 1')", "unknown function 'eval'"),
    ("count(hand).__class__", "no card has the attribute '__class__'"),
    ("first(hand).__globals__", "no card has the attribute '__globals__'"),
    ("__builtins__", "unknown name '__builtins__'"),
    ("open", "unknown name 'open'"),
])
def test_the_rules_language_has_no_way_into_python(tmp_path, rule, message):
    path = variant(tmp_path, "score: sum(sum(pile[c].value) for c in colours) + bonus - count(hand)", f"score: {rule}")
    diagnostics = validate_file(path)
    assert diagnostics and all(d.pos.line == line_of(path, "score:") for d in diagnostics)
    assert any(message in d.message for d in diagnostics), [str(d) for d in diagnostics]


HOSTILE_TEXT = "'); import os; os.system('touch PWNED'); ('"


def test_texts_and_names_of_a_ruleset_never_become_code(tmp_path, monkeypatch):
    """Names that are also names of the generated code (E, Z, V, L, st, c, _h, K0, list) and a text
    written to break out of a string literal are just names and text."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "names.yaml"
    path.write_text(textwrap.dedent(f'''
    name: Names
    players: {{min: 2, max: 2}}
    params:
      K0: 3
      list: [1, 2]
      evil: "{HOSTILE_TEXT}"
    cards:
      card: {{for: {{st: [1, 2, 3]}}, name: "c{{st}}", count: 2, start: E}}
    zones:
      E: {{visible: nobody, on_empty: ["move Z to E"]}}
      Z: {{visible: everyone}}
      V: {{owner: each, visible: owner}}
    vars:
      L: {{initial: 0}}
      _h: {{initial: evil}}
    functions:
      c(x): x + K0
    turn:
      steps:
        - step: main
          do:
            - let st = c(1)
            - choose: pick
              from: list
            - set L = L + st + pick
            - move top of E to V
            - move V to Z
            - if: evil == _h
              then: ["set _h = evil"]
    end: {{when: "turn >= 6"}}
    score: L
    ''').lstrip(), encoding="utf-8")
    game = load_game(str(path))
    program = game.program(2)
    st = program.new_state(0)
    while not st.over:
        program.play(st, program.legal_moves(st)[0])      # always pick 1
    assert program.result(st)["scores"] == [6 * (4 + 1)] * 2
    assert st.vars[program.var_base["_h"]] == HOSTILE_TEXT
    assert not (tmp_path / "PWNED").exists()


def global_names(fn) -> set:
    """The global names a function's code (and the code inside it) loads."""
    names, todo = set(), [fn.__code__]
    while todo:
        code = todo.pop()
        for ins in dis.get_instructions(code):
            if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME", "STORE_GLOBAL", "DELETE_GLOBAL"):
                names.add(ins.argval)
        todo.extend(k for k in code.co_consts if hasattr(k, "co_code"))
    return names


@pytest.mark.parametrize("path", RULESETS + [BASE], ids=os.path.basename)
def test_generated_code_reaches_only_our_helpers_and_harmless_builtins(path):
    game = load_game(path)
    allowed_builtins = set(codegen._BUILTINS)
    for n in range(game.rules.min_players, game.rules.max_players + 1):
        program = game.program(n)
        fns = [f for f in program.code if hasattr(f, "__code__") and f.__code__.co_filename.startswith("<")]
        fns += [program.end_fn, program.score_fn] + [f for _, f in program.tiebreak_fns]
        assert fns
        for fn in fns:
            globals_ = fn.__globals__
            assert globals_["__builtins__"] is codegen._BUILTINS
            assert not {"__import__", "open", "eval", "exec", "getattr", "compile"} & set(globals_["__builtins__"])
            used = global_names(fn)
            ours = {k for k in globals_ if k != "__builtins__"}
            assert used <= ours | allowed_builtins, sorted(used - ours - allowed_builtins)
            # every constant of the ruleset is a named table or a literal: no name comes from the ruleset
            assert all(name in ("E", "RuleRuntimeError", "_h") or name.startswith(("K", "op_", "trigger_", "_f"))
                       or name in allowed_builtins for name in used), sorted(used)


def test_games_still_play_with_the_restricted_builtins():
    for path in RULESETS:
        game = load_game(path)
        lo = game.rules.min_players
        play_game(game, lo, 1, [make_bot("random", k) for k in range(lo)])


# ---------------------------------------------------------------- extends

def write(path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("target", ["../../etc/passwd", "/etc/passwd", "../outside.yaml", "sub/../../outside.yaml",
                                    "link.yaml"])
def test_extends_outside_the_folder_is_refused_before_reading(tmp_path, target):
    write(tmp_path / "outside.yaml", base_text())                # a valid ruleset, but outside
    folder = tmp_path / "game"
    folder.mkdir()
    os.symlink(tmp_path / "outside.yaml", folder / "link.yaml")  # a link beside it that leads outside
    path = write(folder / "variant.yaml", f"extends: {target}\nname: Variant\n")
    d = only_error(path)
    assert d.code == "bad-extends" and "points outside the ruleset's folder" in d.message
    assert (d.pos.file, d.pos.line, d.pos.col) == (path, 1, 10)
    assert "beside" in d.hint


def test_extends_beside_and_below_is_allowed(tmp_path):
    folder = tmp_path / "game"
    write(folder / "base.yaml", base_text())
    write(folder / "variants" / "middle.yaml", "extends: ../base.yaml\nparams: {hand_size: 3}\n")
    top = write(folder / "top.yaml", "extends: variants/middle.yaml\nname: Top\n")
    assert validate_file(top) == []
    assert load_game(top).rules.name == "Top"
    # the folder that counts is the one of the file the user named: middle.yaml alone may not go up
    d = only_error(str(folder / "variants" / "middle.yaml"))
    assert "points outside" in d.message


# ---------------------------------------------------------------- hostile files, in a child process with capped memory

LAUGHS = "".join(f"l{k}: &l{k} [" + ", ".join([f"*l{k - 1}" if k else "lol"] * 10) + "]\n" for k in range(10))
HOSTILE = {
    # name: (how to make the file from the base, where the error is, what it says)
    "billion_laughs": (lambda b: LAUGHS + b, "l4:", "once its aliases (*name) are expanded"),
    "alias_cycle": (lambda b: b.replace("colours: [red, blue]", "colours: &c [red, *c]"), "colours:",
                    "inside the very value it names"),
    "deep_flow": (lambda b: b + "deep: " + "[" * 100_000 + "]" * 100_000 + "\n", "deep:", "nested too deeply"),
    "deep_block": (lambda b: b + "deep:\n  " + "- " * 5_000 + "x\n", "- - -", "nested too deeply"),
    "deep_mappings": (lambda b: b + "deep: " + "{a: " * 5_000 + "1" + "}" * 5_000 + "\n", "deep:",
                      "nested too deeply"),
    "huge_file": (lambda b: b + "# " + "x" * 600_000 + "\n", None, "too large for a ruleset"),
    "deep_rule": (lambda b: b.replace("score: sum(", "score: count(" + "[" * 2_000 + "]" * 2_000 + ") + sum("),
                  "score:", "nested too deeply"),
    "deep_parens": (lambda b: b.replace("score: sum(", "score: " + "(" * 4_000 + "1" + ")" * 4_000 + " + sum("),
                    None, None),
    "long_rule": (lambda b: b.replace("score: sum(", "score: " + "1 + " * 2_000 + "sum("), "score:",
                  "nested too deeply"),
    "huge_rule": (lambda b: b.replace("score: sum(", "score: " + "1 + " * 50_000 + "sum("), "score:",
                  "characters long"),
    "billion_cards": (lambda b: b.replace("count: 2", "count: 1000000000"), "count:", "more than 100,000 cards"),
    "million_types": (lambda b: b.replace("value: [1, 2, 3]", 'value: "numbers(1000000)"'), "for:",
                      "more than 100,000 card types"),
    "billion_numbers": (lambda b: b.replace("value: [1, 2, 3]", 'value: "numbers(1000000000)"'), "for:",
                        "a list holds at most 1,000,000"),
    "million_row_grid": (lambda b: b.replace("  discard: {visible: everyone}",
                                             '  discard: {visible: everyone}\n  grid: {per: "numbers(1000000)"}'),
                         "grid:", "more than 100,000"),
    "huge_player_range": (lambda b: b.replace("{2: 1, 3: 0}", "{2: 1, 3-1000000000: 0}"), None, None),
    "many_players": (lambda b: b.replace("max: 3}", "max: 1000000000}"), "players:", "more than cardrules plays"),
}

CHILD = r"""
import json, resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))
from interpreter.compiler.game import validate_file
out = {}
for path in sys.argv[1:]:
    t = time.perf_counter()
    try:
        found = [[d.pos.file, d.pos.line, d.pos.col, d.message] for d in validate_file(path)]
    except BaseException as exc:
        found = f"{type(exc).__name__}: {exc}"
    out[path] = {"seconds": time.perf_counter() - t, "found": found}
print(json.dumps(out))
"""


def test_hostile_rulesets_fail_cleanly_in_bounded_time_and_memory(tmp_path):
    paths = {}
    for name, (make, _, _) in HOSTILE.items():
        paths[name] = write(tmp_path / f"{name}.yaml", make(base_text()))
    done = subprocess.run([sys.executable, "-c", CHILD, *paths.values()], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads(done.stdout)
    for name, (_, fragment, message) in HOSTILE.items():
        path = paths[name]
        result = results[path]
        assert result["seconds"] < 20, f"{name} took {result['seconds']:.1f} s"
        found = result["found"]
        assert isinstance(found, list), f"{name}: {found}"
        if message is None:                     # harmless: valid, or only a missing table row
            assert all("no row" in m for _, _, _, m in found), f"{name}: {found}"
            continue
        assert found, f"{name}: no error"
        file, line, col, text = found[0]
        assert file == path and line >= 1 and col >= 1, f"{name}: {found}"
        assert any(message in m for _, _, _, m in found), f"{name}: {found}"
        if fragment is not None:
            assert line == line_of(path, fragment), f"{name}: {found}"
