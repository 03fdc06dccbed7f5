"""Bounded input everywhere: every file cardrules reads (ruleset, base, record) must be a regular
file and is read at most to its size limit; `--set` values pass the same YAML guards as files;
a file that is not clean text is refused at the line and column of the mistake.

Cases that could exhaust the memory run in a child process with a cap on it (as in test_safety.py).
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys

import pytest

from interpreter.compiler.game import load_game, validate_file
from interpreter.errors import RulesetError, UsageError
from interpreter.frontend.loader import MAX_FILE_BYTES, load, load_value
from interpreter.frontend.reading import read_text
from interpreter.tools.cli import main, read_record, set_option

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE = os.path.join(ROOT, "tests", "errors", "_valid_base.yaml")
LAUGHS = "[" + ", ".join("&a%d [%s]" % (k, ", ".join(["*a%d" % (k - 1) if k else "x"] * 10)) for k in range(10)) + "]"


def base_bytes() -> bytes:
    with open(BASE, "rb") as fh:
        return fh.read()


def run(capsys, *argv) -> tuple:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- only regular files

def capped(*argv, seconds: int = 60):
    """Run cli.py in a child process allowed 400 MB of memory (a regression must not eat this one's)."""
    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (400_000_000, 400_000_000))
    return subprocess.run([sys.executable, "cli.py", *argv], capture_output=True, text=True, timeout=seconds,
                          cwd=ROOT, preexec_fn=cap)


@pytest.mark.parametrize("path,kind", [("/dev/null", "a device"), ("/", "a folder")])
def test_a_ruleset_that_is_not_a_regular_file_is_refused_before_reading(path, kind):
    with pytest.raises(UsageError) as exc:
        load(path)
    assert f"this is {kind}, not a ruleset file" in str(exc.value)


def test_validate_of_dev_zero_exits_2_at_once():
    done = capped("validate", "/dev/zero")
    assert done.returncode == 2 and "/dev/zero: this is a device, not a ruleset file" in done.stderr


def test_a_ruleset_that_is_a_pipe_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "rules.yaml"
    os.mkfifo(fifo)
    done = capped("validate", str(fifo))
    assert done.returncode == 2 and "this is a pipe, not a ruleset file" in done.stderr


def test_a_base_that_is_not_a_regular_file_is_an_error_at_extends(tmp_path):
    os.mkfifo(tmp_path / "base.yaml")
    variant = tmp_path / "variant.yaml"
    variant.write_text("extends: base.yaml\nname: V\n", encoding="utf-8")
    [d] = validate_file(str(variant))
    assert d.code == "bad-extends" and (d.pos.line, d.pos.col) == (1, 10) and "is not a file" in d.message


def test_a_record_that_is_not_a_regular_file_is_refused():
    done = capped("replay", "/dev/zero")
    assert done.returncode == 2 and "this is a device, not a record file" in done.stderr


# ---------------------------------------------------------------- read at most to the size limit

def test_the_reader_reads_no_more_than_its_limit_plus_one_byte(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"#" * 10_000)
    with pytest.raises(RulesetError) as exc:
        read_text(str(path), 100)
    [d] = exc.value.diagnostics
    assert d.code == "too-large" and (d.pos.line, d.pos.col) == (1, 1) and "10,000 bytes, at most 100" in d.message


CHILD = r"""
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (400_000_000, 400_000_000))
from interpreter.compiler.game import validate_file
from interpreter.tools.cli import read_record
from interpreter.errors import CardrulesError
out = {}
for kind, path in zip(sys.argv[1::2], sys.argv[2::2]):
    try:
        out[path] = [str(d) for d in validate_file(path)] if kind == "ruleset" else read_record(path)
    except CardrulesError as exc:
        out[path] = f"{type(exc).__name__}: {exc}"
print(json.dumps(out))
"""


def test_a_huge_ruleset_and_record_are_refused_without_reading_them_whole(tmp_path):
    """A 600 MB file, in a child process allowed 400 MB: refused by its size, not read."""
    ruleset, record = tmp_path / "huge.yaml", tmp_path / "huge.json"
    for path in (ruleset, record):
        with open(path, "wb") as fh:
            fh.truncate(600_000_000)        # sparse: costs no disk
    done = subprocess.run([sys.executable, "-c", CHILD, "ruleset", str(ruleset), "record", str(record)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert "1:1: the file is too large for a ruleset (600,000,000 bytes" in result[str(ruleset)][0]
    assert result[str(record)].startswith("UsageError: ") and "too large for a record" in result[str(record)]


# ---------------------------------------------------------------- clean text

def test_a_file_that_is_not_utf8_is_an_error_at_its_first_bad_byte(tmp_path):
    path = tmp_path / "rules.yaml"
    path.write_bytes(base_bytes().replace(b"name: Mini\n", b"name: Mini\ndescription: caf\xe9 \xff\n"))
    [d] = validate_file(str(path))
    assert (d.pos.line, d.pos.col) == (3, 17) and d.code == "encoding"
    assert "byte 0xE9" in d.message and "'é'" in d.message and "UTF-8" in d.hint


def test_a_bad_byte_after_multibyte_text_is_counted_in_characters(tmp_path):
    path = tmp_path / "rules.yaml"
    path.write_bytes(b"# \xc3\xa9\xc3\xa9 \x80\n" + base_bytes())
    [d] = validate_file(str(path))
    assert (d.pos.line, d.pos.col) == (1, 6)


def test_windows_line_breaks_do_not_shift_the_position_of_a_bad_byte(tmp_path):
    path = tmp_path / "rules.yaml"
    path.write_bytes(b"name: Mini\r\n# ok\r\n#\xe9\r\n")
    [d] = validate_file(str(path))
    assert (d.pos.line, d.pos.col) == (3, 2)


def test_a_record_that_is_not_utf8_is_refused_at_its_first_bad_byte(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(b'{"format": "x",\n "ruleset": "\xe9"}\n')
    with pytest.raises(UsageError) as exc:
        read_record(str(path))
    assert f"{path}:2:14: the record is not UTF-8 text" in str(exc.value)


def test_a_no_break_space_in_indentation_is_reported_on_its_own_line(tmp_path):
    path = tmp_path / "rules.yaml"
    text = base_bytes().decode("utf-8").replace("  hand_size: 2\n", "\u00a0 hand_size: 2\n")
    path.write_text(text, encoding="utf-8")
    [d] = validate_file(str(path))
    line = text.split("\n").index("\u00a0 hand_size: 2") + 1
    assert (d.pos.line, d.pos.col) == (line, 1) and "no-break space (U+00A0)" in d.message
    assert "replace it with a plain space" in d.hint


def test_a_no_break_space_inside_a_value_is_no_error(tmp_path):
    path = tmp_path / "rules.yaml"
    path.write_text(base_bytes().decode("utf-8").replace("name: Mini", "name: Mini\u00a0game"), encoding="utf-8")
    assert validate_file(str(path)) == []


# ---------------------------------------------------------------- --set values pass the file's guards

def set_error(text: str):
    """The diagnostics of a bad --set option."""
    name, value = set_option(text)
    assert isinstance(value, RulesetError), value
    return value.diagnostics


def test_an_alias_bomb_in_set_is_refused_at_its_position():
    [d] = set_error("colours=" + LAUGHS)
    assert d.pos.file == "--set" and d.pos.line == 1 and d.code == "too-large" and d.pos.col > len("colours=")


def test_deep_nesting_in_set_is_refused_at_the_bracket_past_the_limit():
    [d] = set_error("colours=" + "[" * 10_000 + "]" * 10_000)
    assert (d.pos.file, d.pos.line, d.pos.col) == ("--set", 1, len("colours=") + 61)
    assert "nested too deeply" in d.message


def test_a_yaml_syntax_error_in_set_is_at_set_1_col():
    [d] = set_error("colours=[red, blue")
    assert (d.pos.file, d.pos.line, d.pos.col) == ("--set", 1, 9) and d.code == "yaml-syntax"


def test_a_yaml_tag_in_set_is_refused():
    [d] = set_error("hand_size=!!python/name:os.system")
    assert (d.pos.line, d.pos.col) == (1, 11) and d.code == "yaml-tag"


def test_a_too_large_set_value_is_refused():
    [d] = set_error("colours=" + "x" * (MAX_FILE_BYTES + 1))
    assert d.code == "too-large" and d.pos.file == "--set"


def test_set_values_are_plain_data_like_a_files():
    assert load_value("2020-01-01") == "2020-01-01"     # a date is read as its text, as in a file
    assert load_value("") is None
    assert load_value("[1, {a: b}]") == [1, {"a": "b"}]


def test_a_bad_set_value_exits_1_with_its_position_and_no_traceback(capsys):
    code, _, err = run(capsys, "validate", BASE, "--set", "colours=" + "[" * 10_000 + "]" * 10_000)
    assert code == 1 and err.startswith("--set:1:69: lists and mappings are nested too deeply")
    assert "Traceback" not in err


def test_a_bad_set_value_is_in_validate_json(capsys):
    code, out, _ = run(capsys, "validate", BASE, "--json", "--set", "colours=[red, blue")
    [e] = json.loads(out)["errors"]
    assert code == 1 and (e["file"], e["line"], e["column"], e["code"]) == ("--set", 1, 9, "yaml-syntax")


def test_a_set_list_holding_a_list_is_an_error_at_set_not_a_crash():
    with pytest.raises(RulesetError) as exc:
        load_game(BASE, {"colours": ["red", ["blue"]]})
    [d] = exc.value.diagnostics
    assert (d.pos.file, d.pos.line, d.pos.col) == ("--set", 1, 1) and d.code == "bad-set"
    assert d.message.startswith("colours: ") and "must be numbers or words" in d.message


def test_a_set_list_with_a_value_twice_for_a_zone_family_is_an_error_at_set():
    with pytest.raises(RulesetError) as exc:
        load_game(BASE, {"colours": ["red", "red"]})
    assert [(d.pos.file, d.code) for d in exc.value.diagnostics] == [("--set", "bad-set")]


def test_a_set_value_of_the_wrong_kind_is_named_in_words_not_python():
    with pytest.raises(RulesetError) as exc:
        load_game(BASE, {"hand_size": None})
    assert "must be a number, not empty (null)" in str(exc.value)
