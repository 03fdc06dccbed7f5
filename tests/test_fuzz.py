"""Fuzzing (hypothesis): broken rulesets and random play never crash cardrules.

(a) Valid rulesets (every shipped one and tests/errors/_valid_base.yaml) are mutated: keys
    dropped, values replaced by values of another type, keys and names misspelt, rules-language
    strings cut short or replaced by strings generated from interpreter/grammar.lark, numbers made
    huge, the YAML text itself cut or garbled. Validating the result must give cardrules' own
    diagnostics, each at a file:line:col, or a valid game — never another Python exception, and
    never a hang (each example runs under a time limit). A mutant that is still valid is compiled
    for every player count and played a little: it may stop only with a RuleRuntimeError that
    names the rule.
(b) Random games on every shipped ruleset and player count: random legal moves, moves given as
    text through program.parse_move (the canonical text, a garbled one, random text), garbage
    payloads through program.play, and undo through clone(); the engine never crashes, an illegal
    move changes nothing, and replaying from a clone gives the same state.

The default run is short and the same every time; `pytest -m soak tests/test_fuzz.py` runs many
more, new examples each time. Every crash found here was fixed in the interpreter, and its minimal
reproducer kept: a corpus file in tests/errors/ (see tests/test_error_corpus.py) for a ruleset,
a test in tests/test_guards.py for a game that fails while it runs:
  params_fraction.yaml            a float parameter used as a list crashed the compiler
  players_too_many.yaml           `players: max: 10000` made validate compile 10,000 player counts
  test_a_failing_rule_is_named_even_inside_merged_code   a run-time error without a position
(and, found while writing the guards: valid_trigger_takes_from_a_later_zone.yaml, an on_empty
taking from a zone declared after it, crashed the compiler; a trigger emptying its own zone
recursed without end — test_guards.py.)
"""
from __future__ import annotations

import contextlib
import copy
import functools
import os
import random
import re
import signal
import time

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as s

from interpreter.errors import CardrulesError, IllegalMove, RuleRuntimeError, RulesetError
from interpreter.compiler.game import load_game, validate_file
from interpreter.frontend.parser import _lark
from interpreter.tools.cli import set_option

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULESETS = {name: os.path.join(ROOT, "rulesets", name)
            for name in ("r_eco.yaml", "lixo.yaml", "lixo_two_colour.yaml", "sorting_memo.yaml")}
BASE = os.path.join(ROOT, "tests", "errors", "_valid_base.yaml")
SOURCES = {**RULESETS, "_valid_base.yaml": BASE}

EXAMPLE_SECONDS = 20        # no single example may take longer: a hang is a failure
# The default run is the same every time (derandomize); the soak run explores new examples each time.
FAST = settings(max_examples=60, deadline=None, database=None, derandomize=True,
                suppress_health_check=list(HealthCheck))
SOAK = settings(max_examples=800, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))


class Hang(BaseException):
    """An example ran past its time limit (a BaseException, so no `except Exception` swallows it)."""


@contextlib.contextmanager
def time_limit(seconds: float):
    """Raise Hang in this (main) thread after `seconds` (pytest-timeout's own alarm, also SIGALRM,
    is set again afterwards for the time it had left)."""
    def alarm(signum, frame):
        signal.setitimer(signal.ITIMER_REAL, 1.0)      # again, should this one land where it is ignored (gc)
        raise Hang(f"took longer than {seconds} s")
    old = signal.signal(signal.SIGALRM, alarm)
    outer, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    start = time.monotonic()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        if outer > 0:
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - start), 0.001))


# ---------------------------------------------------------------- rules-language strings from the grammar

@functools.lru_cache(maxsize=None)
def grammar_rules() -> tuple:
    """The grammar's rules by nonterminal, each with the least depth it needs to reach terminals."""
    lark = _lark()
    rules: dict = {}
    for r in lark.rules:
        rules.setdefault(r.origin.name, []).append([(sym.name, sym.is_term) for sym in r.expansion])
    depth = {name: 10**9 for name in rules}
    changed = True
    while changed:                  # least fixed point: the depth of the shallowest derivation
        changed = False
        for name, expansions in rules.items():
            for exp in expansions:
                d = 1 + max([depth[sym] for sym, term in exp if not term] or [0])
                if d < depth[name]:
                    depth[name], changed = d, True
    terminals = {t.name: t.pattern for t in lark.terminals}
    return rules, depth, terminals


KEYWORD = re.compile(r"^([a-z]+)\\b$")
HOSTILE_NAMES = ["__import__", "__class__", "__builtins__", "eval", "exec", "open", "os", "self", "st",
                 "V", "Z", "L", "E", "_h", "K0", "c", "None", "lambda", "import", "def", "return"]


@s.composite
def dsl_text(draw, names: tuple, start: str = "start_expr", max_depth: int = 6, free_names: bool = True):
    """A random derivation of the grammar from `start`, its names drawn from `names` (and, with
    free_names, from names that mean something to Python and from random identifiers)."""
    rules, depth, terminals = grammar_rules()
    out: list = []

    def derive(symbol: str, level: int) -> None:
        options = rules[symbol]
        if level >= max_depth:          # head for the leaves
            least = min(1 + max([depth[x] for x, t in e if not t] or [0]) for e in options)
            options = [e for e in options if 1 + max([depth[x] for x, t in e if not t] or [0]) == least]
        for sym, is_term in draw(s.sampled_from(options)):
            if is_term:
                out.append(terminal(sym))
            else:
                derive(sym, level + 1)

    def terminal(name: str) -> str:
        if name == "NAME":
            if not free_names:
                return draw(s.sampled_from(names))
            return draw(s.sampled_from(names) | s.sampled_from(HOSTILE_NAMES)
                        | s.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,6}", fullmatch=True))
        if name == "NUMBER":
            return str(draw(s.sampled_from([0, 1, 2, 3, 5, 10, 10**6, 10**9, 10**30]) | s.integers(0, 99)))
        if name == "STRING":
            return repr(draw(s.sampled_from(names) | s.text("ab_ {}:'\"", max_size=5))).replace("\\", "")
        pattern = terminals[name]
        m = KEYWORD.match(pattern.value)
        if m:
            return m.group(1)
        if type(pattern).__name__ == "PatternStr":
            return pattern.value
        return draw(s.from_regex(pattern.value, fullmatch=True))

    derive(start, 0)
    return " ".join(out)


# ---------------------------------------------------------------- mutating a ruleset

@functools.lru_cache(maxsize=None)
def original(name: str) -> tuple:
    """(text, data, names) of a ruleset file: its YAML text, its data and the words it uses."""
    with open(SOURCES[name], encoding="utf-8") as fh:
        text = fh.read()
    data = yaml.safe_load(text)
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))
    return text, data, tuple(sorted(words))


def paths(data, prefix=()) -> list:
    """Every path in a data tree (the root excluded), parents before children."""
    out = []
    if isinstance(data, dict):
        items = list(data.items())
    elif isinstance(data, list):
        items = list(enumerate(data))
    else:
        return out
    for k, v in items:
        out.append(prefix + (k,))
        out.extend(paths(v, prefix + (k,)))
    return out


def get(data, path):
    for k in path:
        data = data[k]
    return data


def misspell(draw, word: str) -> str:
    """One edit: a letter dropped, doubled, swapped with the next, or changed."""
    if not word:
        return "x"
    i = draw(s.integers(0, len(word) - 1))
    how = draw(s.sampled_from(["drop", "double", "swap", "change"]))
    if how == "drop":
        return word[:i] + word[i + 1:] or "x"
    if how == "double":
        return word[:i] + word[i] + word[i:]
    if how == "swap" and i + 1 < len(word):
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    return word[:i] + draw(s.sampled_from("aeiouxz_1 ")) + word[i + 1:]


def other_value(draw, names: tuple):
    """A value of any YAML type, hostile sizes included."""
    return draw(s.one_of(
        s.sampled_from([None, True, False, 0, 1, -1, 2, 7, 1.5, "", "x", [], {}, 10**6, 10**9, 10**18, -10**9,
                        "numbers(1000000000)", "numbers(10000000)", "count(x", "move top of to",
                        "__import__('os')", "x.__class__", "!", [[[]]], {"by_players": {2: 1}}]),
        s.sampled_from(names),
        s.lists(s.sampled_from(names), max_size=3),
        s.dictionaries(s.sampled_from(names), s.sampled_from([0, 1, "x", None]), max_size=2),
    ))


@s.composite
def mutate_data(draw, name: str):
    """A ruleset's data with one to three random changes."""
    _, data, names = original(name)
    data = copy.deepcopy(data)
    for _ in range(draw(s.integers(1, 3))):
        all_paths = paths(data)
        if not all_paths:
            break
        path = draw(s.sampled_from(all_paths))
        parent, key = get(data, path[:-1]), path[-1]
        value = parent[key]
        how = draw(s.sampled_from(["drop", "type", "misspell key", "misspell", "cut", "grammar", "grammar stmt",
                                   "name", "duplicate", "number", "swap", "rename", "insert"]))
        if how == "drop":
            del parent[key]
        elif how == "type":
            parent[key] = other_value(draw, names)
        elif how == "misspell key" and isinstance(parent, dict):
            new = misspell(draw, str(key))
            parent[new] = parent.pop(key)
        elif how == "misspell" and isinstance(value, str):
            words = re.findall(r"[A-Za-z_]+", value)
            if words:
                w = draw(s.sampled_from(words))
                parent[key] = value.replace(w, misspell(draw, w), 1)
        elif how == "cut" and isinstance(value, str) and value:
            parent[key] = value[:draw(s.integers(0, len(value) - 1))]
        elif how == "grammar":
            parent[key] = draw(dsl_text(names, "start_expr"))
        elif how == "grammar stmt":
            parent[key] = draw(dsl_text(names, "start_stmt"))
        elif how == "name" and isinstance(value, str):
            parent[key] = draw(s.sampled_from(names))
        elif how == "duplicate" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(value))
        elif how == "number" and isinstance(value, int) and not isinstance(value, bool):
            parent[key] = draw(s.sampled_from([0, -1, 10**4, 10**6, 10**9, 10**30, value + 1, value * 1000]))
        elif how == "swap" and isinstance(value, str):
            # a rule from elsewhere in the file: right syntax, likely the wrong kind or names out of scope
            strings = [get(data, p) for p in all_paths if isinstance(get(data, p), str)]
            parent[key] = draw(s.sampled_from(strings))
        elif how == "rename" and isinstance(value, str):
            words = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", value)
            if words:
                w = draw(s.sampled_from(words))
                parent[key] = re.sub(r"\b" + re.escape(w) + r"\b", draw(s.sampled_from(names)), value,
                                     count=draw(s.integers(0, 2)))
        elif how == "insert" and isinstance(parent, list):
            # a statement (or any value) added to a list: generated, or copied from elsewhere in the file
            strings = [get(data, p) for p in all_paths if isinstance(get(data, p), (str, dict))]
            new = draw(dsl_text(names, "start_stmt")) if draw(s.booleans()) else \
                copy.deepcopy(draw(s.sampled_from(strings)))
            parent.insert(key, new)
    return data


@s.composite
def garble_text(draw, text: str) -> str:
    """The YAML text cut short, a line dropped, or a stray character or tag inserted."""
    how = draw(s.sampled_from(["cut", "line", "insert"]))
    if how == "cut":
        return text[:draw(s.integers(0, len(text)))]
    lines = text.split("\n")
    i = draw(s.integers(0, len(lines) - 1))
    if how == "line":
        del lines[i]
        return "\n".join(lines)
    line = lines[i]
    j = draw(s.integers(0, len(line)))
    bit = draw(s.sampled_from([":", "- ", "[", "{", "]", "}", '"', "'", "\t", "&a ", "*a", "!!python/object:os.system ",
                               "!!str ", "!!binary ", "? ", "|", ">", "#", "%", "@", "`", "\x00", "\ufeff", " ",
                               "---\n"]))
    lines[i] = line[:j] + bit + line[j:]
    return "\n".join(lines)


def write_case(tmp_path, name: str, text: str) -> str:
    """Write the mutated file (and, for a variant, its untouched base beside it); returns its path."""
    path = os.path.join(str(tmp_path), name)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    if name == "lixo_two_colour.yaml":
        with open(os.path.join(str(tmp_path), "lixo.yaml"), "w", encoding="utf-8") as fh:
            fh.write(original("lixo.yaml")[0])
    return path


def dump(data) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=200)


# ---------------------------------------------------------------- what must hold

def check_diagnostics(diagnostics: list, path: str) -> None:
    """Every diagnostic is positioned in a file that was read, with a message."""
    for d in diagnostics:
        assert d.pos.file and d.pos.line >= 1 and d.pos.col >= 1, f"no position: {d}"
        assert os.path.dirname(os.path.abspath(d.pos.file)) == os.path.dirname(os.path.abspath(path)), str(d)
        assert d.message, f"no message: {d.pos}"


def play_a_little(game, players: int, seed: int, moves: int) -> None:
    """Random legal moves; the only failure allowed is a rule that fails, named by position."""
    program = game.program(players)
    gen = random.Random(seed)
    try:
        st = program.new_state(seed)
        for _ in range(moves):
            if st.over:
                break
            legal = program.legal_moves(st)
            if not legal:
                break
            program.apply(st, legal[gen.randrange(len(legal))])
        program.stat_values(st)     # the designer's stats, where the game stopped
    except RuleRuntimeError as exc:
        assert exc.pos is not None and exc.pos.line >= 1, f"a run-time error without a position: {exc}"


def check_file(path: str, seed: int = 0) -> list:
    """Validate a (mutated) ruleset and, if valid, play it a little; returns the diagnostics."""
    with time_limit(EXAMPLE_SECONDS):
        diagnostics = validate_file(path)
        check_diagnostics(diagnostics, path)
        if diagnostics:
            return diagnostics
        try:
            game = load_game(path)
        except CardrulesError:
            raise AssertionError("validate_file found nothing, but load_game failed")
        lo, hi = game.rules.min_players, game.rules.max_players
        for n in range(lo, min(hi, lo + 3) + 1):
            play_a_little(game, n, seed, 60)
    return diagnostics


names_s = s.sampled_from(sorted(SOURCES))


def run_mutant(tmp_path, name, data_or_text):
    text = data_or_text if isinstance(data_or_text, str) else dump(data_or_text)
    path = write_case(tmp_path, name, text)
    check_file(path)


@FAST
@given(data=s.data())
def test_mutated_rulesets_give_positioned_errors(tmp_path_factory, data):
    name = data.draw(names_s, label="ruleset")
    mutant = data.draw(mutate_data(name), label="mutant")
    run_mutant(tmp_path_factory.mktemp("mutant"), name, mutant)


@FAST
@given(data=s.data())
def test_garbled_yaml_gives_positioned_errors(tmp_path_factory, data):
    name = data.draw(names_s, label="ruleset")
    text = data.draw(garble_text(original(name)[0]), label="text")
    run_mutant(tmp_path_factory.mktemp("garbled"), name, text)


@FAST
@given(data=s.data())
def test_generated_rules_strings_in_the_small_game(tmp_path_factory, data):
    """Every rules-language string of the small game in turn replaced by grammar-generated text."""
    _, base, names = original("_valid_base.yaml")
    mutant = copy.deepcopy(base)
    mutant["stats"] = {"held": "count(hand)", "clean": "count(discard) == 0"}    # stats are rules strings too
    mutant["display"] = {"show": [{"label": "held", "value": "count(hand)", "per": "seat"},   # so are shown values
                                  {"label": "left", "value": "count(draw)"}]}
    strings = [p for p in paths(mutant) if isinstance(get(mutant, p), str) and p[0] not in ("name",)]
    for _ in range(data.draw(s.integers(1, 3))):
        p = data.draw(s.sampled_from(strings))
        start = data.draw(s.sampled_from(["start_expr", "start_stmt"]))
        get(mutant, p[:-1])[p[-1]] = data.draw(dsl_text(names, start, max_depth=data.draw(s.integers(2, 9))))
    run_mutant(tmp_path_factory.mktemp("generated"), "_valid_base.yaml", mutant)


@FAST
@given(data=s.data())
def test_unclean_bytes_give_positioned_errors(tmp_path_factory, data):
    """Bytes that are not UTF-8, or a no-break space, put anywhere in a file: an error at its line and column."""
    name = data.draw(names_s, label="ruleset")
    raw = original(name)[0].encode("utf-8")
    at = data.draw(s.integers(0, len(raw)), label="at")
    bit = data.draw(s.sampled_from([b"\xe9", b"\xff", b"\x80", b"\xc3", b"\xed\xa0\x80", b"\xc2\xa0", b"\r"]))
    path = write_case(tmp_path_factory.mktemp("bytes"), name, "")
    with open(path, "wb") as fh:
        fh.write(raw[:at] + bit + raw[at:])
    diagnostics = check_file(path)
    if bit in (b"\xe9", b"\xff", b"\x80", b"\xed\xa0\x80"):       # never UTF-8, wherever it stands
        [d] = diagnostics
        before = raw[:at].decode("utf-8", errors="ignore").replace("\r\n", "\n")
        assert d.code == "encoding" and d.pos.line == before.count("\n") + 1, str(d)


set_values = s.one_of(
    s.text(max_size=40),
    s.text(alphabet="[]{},:&*!- \n\"'a1\u00a0\t", max_size=60),
    s.builds(lambda n: "[" * n + "]" * n, s.integers(0, 3000)),
    s.sampled_from(["&a [x, *a]", "!!python/object/apply:os.system [ls]", "2020-01-01", "~", ".inf", "1.5",
                    "[red, [blue]]", "[red, red]", "{by_players: {2: 1}}", "!!binary aGk="]))


@FAST
@given(name=s.sampled_from(["hand_size", "colours", "bonus", "bonus.2", "nope"]), value=set_values)
def test_set_values_give_positioned_errors_or_a_game(name, value):
    """--set NAME=VALUE with any VALUE: a game, or errors at --set:LINE:COL; never another exception."""
    with time_limit(EXAMPLE_SECONDS):
        key, parsed = set_option(f"{name}={value}")
        if isinstance(parsed, RulesetError):
            diagnostics = parsed.diagnostics
        else:
            try:
                game = load_game(BASE, {key: parsed})
                for n in range(game.rules.min_players, game.rules.max_players + 1):
                    game.program(n)
                diagnostics = []
            except RulesetError as exc:
                diagnostics = exc.diagnostics
            except RuleRuntimeError as exc:
                assert exc.pos is not None, str(exc)
                diagnostics = []
        for d in diagnostics:
            assert d.pos.line >= 1 and d.pos.col >= 1 and d.message and d.code != "error", str(d)
            assert d.pos.file in ("--set", BASE), str(d)


@pytest.mark.soak
@SOAK
@given(data=s.data())
def test_mutated_rulesets_give_positioned_errors_soak(tmp_path_factory, data):
    name = data.draw(names_s, label="ruleset")
    if data.draw(s.booleans()):
        mutant = data.draw(mutate_data(name), label="mutant")
    else:
        mutant = data.draw(garble_text(original(name)[0]), label="text")
    run_mutant(tmp_path_factory.mktemp("soak"), name, mutant)


def test_generated_strings_follow_the_grammar():
    """The generator really derives sentences of the grammar, so what the fuzz tests find in them is
    the checker's business, not the parser's."""
    from interpreter.frontend.parser import parse

    @settings(max_examples=60, deadline=None, database=None, derandomize=True)
    @given(data=s.data())
    def parses(data):
        kind = data.draw(s.sampled_from(["expr", "stmt"]))
        text = data.draw(dsl_text(("hand", "draw", "x"), "start_" + kind, free_names=False))
        parse(text, kind)           # raises DSLSyntaxError if the text is not a sentence
    parses()


# ---------------------------------------------------------------- random play on the shipped rulesets

@functools.lru_cache(maxsize=None)
def game_of(name: str):
    return load_game(RULESETS[name])


garbage_texts = s.one_of(s.text(max_size=30), s.sampled_from(["", ":", "*", "nothing", "pass: ", "x: 1*",
                                                              "deliver: 99*glass:1", "a" * 500]))
garbage_moves = s.one_of(s.none(), s.integers(), s.text(max_size=5), s.tuples(s.integers(-2, 300)),
                         s.tuples(s.integers(-2, 5), s.none()),
                         s.lists(s.tuples(s.integers(-2, 300), s.integers(-3, 9)), max_size=3).map(tuple))


def same_state(a, b) -> bool:
    return a == b and a.rng == b.rng


def play_fuzzed(name: str, players: int, seed: int, texts: list, payloads: list, max_moves: int) -> None:
    """A random game with illegal texts and payloads thrown in and undo through clone."""
    program = game_of(name).program(players)
    gen = random.Random(seed)
    st = program.new_state(seed)
    history = []
    for k in range(max_moves):
        if st.over:
            break
        legal = program.legal_moves(st)
        assert legal, f"{name}: no legal move in turn {st.turn}"
        # an illegal text or payload is refused and changes nothing
        before = st.clone()
        text = texts[k % len(texts)] if texts else ""
        try:
            move = program.parse_move(st, text)
            assert move in legal
        except IllegalMove:
            pass
        payload = payloads[k % len(payloads)] if payloads else None
        if payload not in legal:
            with pytest.raises(IllegalMove):
                program.play(st, payload)
        assert same_state(st, before)
        # a legal move through its canonical text, or slightly garbled (spaces, case)
        move = legal[gen.randrange(len(legal))]
        shown = program.move_text(st, move)
        typed = shown.upper().replace(" ", "  ") if gen.random() < 0.3 else shown
        assert program.parse_move(st, typed) == move
        history.append((st.clone(), move))
        program.play(st, move)
        # undo: go back a few moves through a clone, redo the same moves, get the same state
        if gen.random() < 0.05 and len(history) > 3:
            back = gen.randrange(1, 4)
            redo = history[-back][0].clone()
            for _, m in history[-back:]:
                program.play(redo, m)
            assert same_state(redo, st)
    program.result(st)


game_cases = [(name, n) for name in RULESETS for n in range(2, 6)
              if game_of(name).rules.min_players <= n <= game_of(name).rules.max_players]


@settings(max_examples=10, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(seed=s.integers(0, 2**32), texts=s.lists(garbage_texts, max_size=4),
       payloads=s.lists(garbage_moves, max_size=4))
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_random_play_never_crashes(name, seed, texts, payloads):
    lo, hi = game_of(name).rules.min_players, game_of(name).rules.max_players
    players = lo + seed % (hi - lo + 1)
    with time_limit(60):
        play_fuzzed(name, players, seed, texts, payloads, 300)


@pytest.mark.soak
@settings(max_examples=12, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(seed=s.integers(0, 2**32), texts=s.lists(garbage_texts, max_size=6),
       payloads=s.lists(garbage_moves, max_size=6))
@pytest.mark.parametrize("name,players", game_cases)
def test_random_play_never_crashes_soak(name, players, seed, texts, payloads):
    with time_limit(120):
        play_fuzzed(name, players, seed, texts, payloads, 100_000)
