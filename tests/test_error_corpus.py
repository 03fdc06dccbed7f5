"""The error corpus: broken rulesets in tests/errors/, each with its expected diagnostics as comments.

As in Crafting Interpreters' test suite, a file states what validating it must report:

    # expect: 37:24: missing ')'

one line per diagnostic, LINE:COL exact (1-based, in that file), the text after it a fragment of
"message (hint)". Every expectation must be met by its own diagnostic, and no other diagnostic may
appear; a file without expectations must be valid. Each diagnostic must also point inside the file
that holds the mistake (a variant's mistake is reported in the variant, not in its base) and say
what to do about it (a hint).

The linter's files, `lint_*.yaml`, are valid rulesets with a seeded defect. They state the
warnings `cardrules lint` must give (the linter's and the setup audit's), with the warning's code:

    # expect-warning: 21:3: zone-never-entered: no card ever enters zone 'spare'

and, like errors, every expected warning must be given and no other one.
"""
import glob
import os
import re

import pytest

from interpreter.compiler.game import file_warnings, validate_file
from interpreter.frontend.lint import CODES

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = sorted(glob.glob(os.path.join(HERE, "errors", "*.yaml")))
EXPECT = re.compile(r"^#\s*expect:\s*(\d+):(\d+):\s*(.*?)\s*$")
EXPECT_WARNING = re.compile(r"^#\s*expect-warning:\s*(\d+):(\d+):\s*([a-z-]+):\s*(.*?)\s*$")
LINT_CORPUS = [p for p in CORPUS if os.path.basename(p).startswith("lint_")]


def expectations(path: str) -> list:
    """(line, col, fragment) for every `# expect:` line of a corpus file."""
    with open(path, encoding="utf-8") as fh:
        found = [EXPECT.match(line.strip()) for line in fh]
    return [(int(m.group(1)), int(m.group(2)), m.group(3)) for m in found if m]


def warning_expectations(path: str) -> list:
    """(line, col, code, fragment) for every `# expect-warning:` line of a corpus file."""
    with open(path, encoding="utf-8") as fh:
        found = [EXPECT_WARNING.match(line.strip()) for line in fh]
    return [(int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)) for m in found if m]


def shown(diag) -> str:
    """A diagnostic as an expectation fragment is matched against: 'message (hint)'."""
    return f"{diag.message} ({diag.hint})" if diag.hint else diag.message


def test_the_corpus_covers_enough_mistakes():
    broken = [p for p in CORPUS if expectations(p)]
    assert len(broken) >= 30
    assert any(not expectations(p) for p in CORPUS), "the valid base game belongs in the corpus too"


@pytest.mark.parametrize("path", CORPUS, ids=os.path.basename)
def test_corpus_file(path):
    diagnostics = validate_file(path)
    unmatched = list(diagnostics)
    missing = []
    for line, col, fragment in expectations(path):
        hit = next((d for d in unmatched if (d.pos.line, d.pos.col) == (line, col) and fragment in shown(d)), None)
        if hit is None:
            missing.append(f"{line}:{col}: {fragment}")
        else:
            unmatched.remove(hit)
    report = "\n".join([f"expected, not reported:   {m}" for m in missing]
                       + [f"reported, not expected:   {d.pos.line}:{d.pos.col}: {shown(d)}" for d in unmatched])
    assert not missing and not unmatched, "\n" + report


@pytest.mark.parametrize("path", [p for p in CORPUS if expectations(p)], ids=os.path.basename)
def test_diagnostics_point_into_the_broken_file(path):
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    for d in validate_file(path):
        where = f"{d.pos}: {d.message}"
        assert os.path.abspath(d.pos.file) == os.path.abspath(path), where
        assert 1 <= d.pos.line <= len(lines), where
        assert 1 <= d.pos.col <= len(lines[d.pos.line - 1]) + 1, where
        assert d.hint, f"{where}: no hint on what to do"


def test_every_error_has_a_code():
    """validate --json gives each error a code naming its class (yaml-syntax, schema, name ...)."""
    for path in CORPUS:
        for d in validate_file(path):
            assert d.code and d.code not in ("error", "warning"), f"{d.pos}: {d.message}: no code"


# ---- the linter's files ----
def test_every_warning_has_a_lint_file():
    covered = {code for path in LINT_CORPUS for _, _, code, _ in warning_expectations(path)}
    assert covered == set(CODES), f"lint codes without a tests/errors/lint_*.yaml file: {set(CODES) - covered}"
    assert any(not warning_expectations(p) for p in LINT_CORPUS), "a clean lint_ file shows the base is clean"


def test_warning_expectations_are_read():
    for path in LINT_CORPUS:
        with open(path, encoding="utf-8") as fh:
            marked = sum("expect-warning" in line for line in fh)
        assert marked == len(warning_expectations(path)), f"{path}: an expect-warning line is malformed"


@pytest.mark.parametrize("path", LINT_CORPUS, ids=os.path.basename)
def test_lint_file(path):
    warnings = file_warnings(path)
    unmatched = list(warnings)
    missing = []
    for line, col, code, fragment in warning_expectations(path):
        hit = next((d for d in unmatched if (d.pos.line, d.pos.col, d.code) == (line, col, code)
                    and fragment in shown(d)), None)
        if hit is None:
            missing.append(f"{line}:{col}: {code}: {fragment}")
        else:
            unmatched.remove(hit)
    report = "\n".join([f"expected, not warned:   {m}" for m in missing]
                       + [f"warned, not expected:   {d.pos.line}:{d.pos.col}: {d.code}: {shown(d)}"
                          for d in unmatched])
    assert not missing and not unmatched, "\n" + report
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    for d in warnings:
        where = f"{d.pos}: {d.message}"
        assert d.severity == "warning" and d.code in CODES, where
        assert os.path.abspath(d.pos.file) == os.path.abspath(path), where
        assert 1 <= d.pos.line <= len(lines) and 1 <= d.pos.col <= len(lines[d.pos.line - 1]) + 1, where
        assert d.hint, f"{where}: no hint on what to do"
