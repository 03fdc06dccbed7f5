"""Records are untrusted input: `replay` checks a record's every field before replaying it, opens only
a .yaml/.yml ruleset under the current directory or the record's folder, refuses a record made with
another ruleset unless --any-ruleset is given, and answers every malformed field with exit 1 and a
message naming the field — never a traceback, exit 3 or a Python exception's text."""
import copy
import json
import os
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.tools.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
R_ECO = os.path.join(ROOT, "rulesets", "r_eco.yaml")
PYTHON_WORDS = re.compile(r"Traceback|KeyError|IndexError|TypeError|ValueError|AttributeError|RecursionError|"
                          r"string indices|NoneType|object is not|invalid literal|\bNone\b|\bTrue\b|\bFalse\b|\bnan\b")


@pytest.fixture(scope="module")
def made():
    """A record of a 3-player R-Eco game (ruleset named relative to the repository's root)."""
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        from io import StringIO
        from contextlib import redirect_stdout
        buf = StringIO()
        with redirect_stdout(buf):
            assert main(["record", "rulesets/r_eco.yaml", "--players", "3", "--seed", "11"]) == 0
    finally:
        os.chdir(here)
    return json.loads(buf.getvalue())


@pytest.fixture(autouse=True)
def at_the_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def replay(capsys, tmp_path, record, *options, text=None):
    """Write the record (or raw text) to a file and replay it in-process: (exit code, stdout, stderr)."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record) if text is None else text, encoding="utf-8")
    code = main(["replay", str(path), *options])
    captured = capsys.readouterr()
    assert not PYTHON_WORDS.search(captured.err), captured.err
    return code, captured.out, captured.err


def changed(record, change):
    bad = copy.deepcopy(record)
    change(bad)
    return bad


def test_the_untouched_record_replays(made, capsys, tmp_path):
    code, out, err = replay(capsys, tmp_path, made)
    assert (code, err) == (0, "") and out.startswith("replay ok")


# ---- the ruleset a record names ----
def test_a_record_naming_a_file_that_is_not_yaml_is_refused_before_it_is_read(made, capsys, tmp_path):
    code, out, err = replay(capsys, tmp_path, changed(made, lambda r: r.update(ruleset="/etc/passwd")))
    assert code == 1 and out == ""
    assert "field 'ruleset' names '/etc/passwd', not a .yaml or .yml file" in err and "--ruleset" in err
    with open("/etc/passwd", encoding="utf-8") as fh:
        assert fh.readline().strip() not in err


def test_a_record_naming_a_yaml_file_outside_the_current_directory_and_its_folder_is_refused(made, capsys,
                                                                                            tmp_path):
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text(open(R_ECO, encoding="utf-8").read(), encoding="utf-8")
    folder = tmp_path / "records"
    folder.mkdir()
    for name in (str(outside), "../elsewhere.yaml"):
        code, out, err = replay(capsys, folder, changed(made, lambda r: r.update(ruleset=name)))
        assert code == 1 and "outside the current directory and the record's folder" in err, err


def test_a_link_beside_the_record_to_a_file_outside_is_refused(made, capsys, tmp_path):
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text(open(R_ECO, encoding="utf-8").read(), encoding="utf-8")
    folder = tmp_path / "records"
    folder.mkdir()
    os.symlink(outside, folder / "eco.yaml")
    code, out, err = replay(capsys, folder, changed(made, lambda r: r.update(ruleset="eco.yaml")))
    assert code == 1 and "outside" in err


def test_a_record_whose_ruleset_is_nowhere_is_an_unreadable_file_exit_2(made, capsys, tmp_path):
    code, out, err = replay(capsys, tmp_path, changed(made, lambda r: r.update(ruleset="gone.yaml")))
    assert code == 2 and "cannot find the record's ruleset 'gone.yaml'" in err


def test_a_record_made_with_another_ruleset_is_refused_unless_any_ruleset(made, capsys, tmp_path):
    other = changed(made, lambda r: r.update(sha256="0" * 64))
    code, out, err = replay(capsys, tmp_path, other)
    assert code == 1 and out == "" and "sha256 differs" in err and "--any-ruleset" in err
    code, out, err = replay(capsys, tmp_path, other, "--ruleset", R_ECO)       # named by hand: the same rule
    assert code == 1 and "--any-ruleset" in err
    code, out, err = replay(capsys, tmp_path, other, "--any-ruleset")
    assert code == 0 and out.startswith("replay ok") and "replaying anyway" in err


def test_a_record_without_a_digest_counts_as_made_with_another_ruleset(made, capsys, tmp_path):
    code, out, err = replay(capsys, tmp_path, changed(made, lambda r: r.pop("sha256")))
    assert code == 1 and "sha256 differs" in err


# ---- malformed fields: exit 1, the field named ----
def nested(depth: int):
    value = 1
    for _ in range(depth):
        value = [value]
    return value


MALFORMED = {
    "players as text": (lambda r: r.update(players="3"), "field 'players' must be a number of players, not a text"),
    "players with a fraction": (lambda r: r.update(players=2.5), "field 'players'"),
    "players NaN": (lambda r: r.update(players=float("nan")), "field 'players'"),
    "players huge": (lambda r: r.update(players=10 ** 40), "field 'players'"),
    "players true": (lambda r: r.update(players=True), "field 'players'"),
    "players zero": (lambda r: r.update(players=0), "field 'players'"),
    "players beyond the game": (lambda r: r.update(players=9, result={"scores": [0] * 9, "winners": [0]}),
                                "field 'players': R-Eco is for 2 to 5 players"),
    "seed as text": (lambda r: r.update(seed="eleven"), "field 'seed' must be a whole number"),
    "seed huge": (lambda r: r.update(seed=10 ** 200), "field 'seed'"),
    "moves not a list": (lambda r: r.update(moves={"seat": 0}), "field 'moves' must be a list of moves, not a mapping"),
    "moves a text": (lambda r: r.update(moves="1,2,3"), "field 'moves' must be a list"),
    "a move a number": (lambda r: r["moves"].__setitem__(0, 5), "field 'moves[0]' must be a mapping"),
    "a move without its seat": (lambda r: r["moves"][1].pop("seat"), "field 'moves[1]' has no 'seat'"),
    "a seat as text": (lambda r: r["moves"][2].update(seat="x"), "field 'moves[2].seat' must be a seat number"),
    "a seat out of range": (lambda r: r["moves"][2].update(seat=7), "field 'moves[2].seat' must be a seat number from 0 to 2"),
    "a negative seat": (lambda r: r["moves"][2].update(seat=-1), "field 'moves[2].seat'"),
    "a huge seat": (lambda r: r["moves"][2].update(seat=10 ** 30), "field 'moves[2].seat'"),
    "a move's text a list": (lambda r: r["moves"][0].update(move=["a"]), "field 'moves[0].move' must be a text"),
    "a move deeply nested": (lambda r: r["moves"][0].update(move=nested(500)), "field 'moves[0].move' must be a text"),
    "chance not a list": (lambda r: r.update(chance=7), "field 'chance' must be a list"),
    "a shuffle's order a text": (lambda r: r["chance"][0].update(order="abc"), "field 'chance[0].order' must be a list"),
    "a shuffle's zone a number": (lambda r: r["chance"][0].update(zone=3), "field 'chance[0].zone' must be a text"),
    "a shuffle of an unknown zone": (lambda r: r["chance"][0].update(zone="attic"), "field 'chance[0]'"),
    "no result": (lambda r: r.pop("result"), "no field 'result'"),
    "scores a text": (lambda r: r["result"].update(scores="high"), "field 'result.scores' must be a list"),
    "a winner out of range": (lambda r: r["result"].update(winners=[9]), "field 'result.winners[0]'"),
    "overrides a list": (lambda r: r.update(overrides=[1]), "field 'overrides' must be a mapping"),
    "an override a mapping": (lambda r: r.update(overrides={"hand_limit": {"a": 1}}), "field 'overrides.hand_limit'"),
    "an override NaN": (lambda r: r.update(overrides={"hand_limit": float("nan")}), "field 'overrides.hand_limit'"),
    "an override nested": (lambda r: r.update(overrides={"hand_limit": nested(300)}), "field 'overrides.hand_limit'"),
    "bots a text": (lambda r: r.update(bots="random"), "field 'bots' must be a list"),
    "the digest a number": (lambda r: r.update(sha256=5), "field 'sha256'"),
}


@pytest.mark.parametrize("what", MALFORMED)
def test_every_malformed_field_is_exit_1_with_a_message_naming_the_field(made, capsys, tmp_path, what):
    change, fragment = MALFORMED[what]
    code, out, err = replay(capsys, tmp_path, changed(made, change))
    assert code == 1 and out == ""
    assert fragment in err, err
    assert err.startswith(f"error: {tmp_path / 'game.json'}: "), err


def test_an_override_the_ruleset_refuses_is_reported_at_the_records_field(made, capsys, tmp_path):
    code, out, err = replay(capsys, tmp_path, changed(made, lambda r: r.update(overrides={"hand_limit": "many"})))
    assert code == 1
    assert f"{tmp_path / 'game.json'}: field 'overrides': hand_limit: 'hand_limit' must be a number" in err
    assert "--set:1:1" not in err


def test_nesting_deeper_than_the_json_reader_follows_is_exit_1(made, capsys, tmp_path):
    text = json.dumps(made)[:-1] + ', "deep": ' + "[" * 100_000 + "]" * 100_000 + "}"
    code, out, err = replay(capsys, tmp_path, None, text=text)
    assert code == 1 and "nests lists or mappings too deeply" in err


def test_a_number_with_thousands_of_digits_is_exit_1(made, capsys, tmp_path):
    text = json.dumps(made).replace('"seed": 11', '"seed": ' + "7" * 5000)
    code, out, err = replay(capsys, tmp_path, None, text=text)
    assert code == 1 and "digits" in err


def test_a_record_text_is_quoted_short_and_without_control_characters(made, capsys, tmp_path):
    hostile = "\x1b[2J\x1b]0;owned\x07" + "x" * 5000
    code, out, err = replay(capsys, tmp_path, changed(made, lambda r: r["moves"][0].update(move=hostile)))
    assert code == 1
    assert "\x1b" not in err and "\x07" not in err and "\\x1b[2J" in err
    assert len(err) < 1500


def test_malformed_records_exit_1_by_subprocess_without_a_traceback(made, tmp_path):
    bad = changed(made, lambda r: r.update(moves="oops", ruleset="rulesets/r_eco.yaml"))
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "cli.py"), "replay", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "field 'moves'" in proc.stderr and "Traceback" not in proc.stderr


# ---- fuzzing: any JSON value in any field ----
JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner,
                                                                                       max_size=4),
                           max_leaves=12)
FIELDS = ["players", "seed", "overrides", "bots", "chance", "moves", "result", "sha256", "ruleset"]


def places(record) -> list:
    """Every field of a record and of its first move, shuffle and result, as (container, key)."""
    return ([(record, k) for k in FIELDS] + [(record["moves"][0], k) for k in ("seat", "move")]
            + [(record["chance"][0], k) for k in ("zone", "order")]
            + [(record["result"], k) for k in ("scores", "winners")])


@settings(max_examples=150, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.integers(0, 14), value=JSON_VALUES)
def test_any_value_in_any_field_is_refused_or_replayed_never_an_internal_error(made, capsys, tmp_path, where,
                                                                             value):
    bad = copy.deepcopy(made)
    container, key = places(bad)[where]
    container[key] = value
    code, out, err = replay(capsys, tmp_path, bad)
    assert code in (0, 1, 2), err
    assert "internal error" not in err
