"""The error corpus: broken rulesets in tests/errors/, each with its expected diagnostics as comments.

As in Crafting Interpreters' test suite, a file states what validating it must report:

    # expect: 37:24: missing ')'

one line per diagnostic, LINE:COL exact (1-based, in that file), the text after it a fragment of
"message (hint)". Every expectation must be met by its own diagnostic, and no other diagnostic may
appear; a file without expectations must be valid. Each diagnostic must also point inside the file
that holds the mistake (a variant's mistake is reported in the variant, not in its base) and say
what to do about it (a hint).
"""
import glob
import os
import re

import pytest

from interpreter.game import validate_file

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = sorted(glob.glob(os.path.join(HERE, "errors", "*.yaml")))
EXPECT = re.compile(r"^#\s*expect:\s*(\d+):(\d+):\s*(.*?)\s*$")


def expectations(path: str) -> list:
    """(line, col, fragment) for every `# expect:` line of a corpus file."""
    with open(path, encoding="utf-8") as fh:
        found = [EXPECT.match(line.strip()) for line in fh]
    return [(int(m.group(1)), int(m.group(2)), m.group(3)) for m in found if m]


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
