"""The command line: in-process through main([...]) for output, by subprocess for real exit codes."""
import io
import json
import os
import re
import subprocess
import sys

import pytest

from interpreter.tools.cli import main
from interpreter.frontend.schema import SCHEMA_PATH

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
R_ECO = os.path.join(ROOT, "rulesets", "r_eco.yaml")
TIMING = ("seconds", "games_per_second", "timing")


def run(*args, stdin: str = "", cwd: str = ROOT):
    """`python cli.py ARGS` in a subprocess: (exit code, stdout, stderr)."""
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "cli.py"), *args], input=stdin,
                          capture_output=True, text=True, cwd=cwd, timeout=300)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout, proc.stderr


def call(capsys, *args):
    """main(ARGS) in-process: (exit code, stdout, stderr)."""
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def simulate_json(capsys, *args):
    code, out, err = call(capsys, "simulate", R_ECO, "--json", *args)
    assert code == 0, err
    return json.loads(out)


def without_timing(stats: dict) -> dict:
    return {k: v for k, v in stats.items() if k not in TIMING}


@pytest.fixture
def broken(tmp_path):
    """R-Eco with a misspelt parameter name in an expression."""
    text = open(R_ECO, encoding="utf-8").read().replace(">= threshold", ">= threshhold")
    path = tmp_path / "broken.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.fixture
def record_file(tmp_path):
    path = tmp_path / "game.json"
    code, _, err = run("record", R_ECO, "--players", "3", "--seed", "11", "--bots", "random,greedy,random",
                       "-o", str(path))
    assert code == 0, err
    return path


# ---- validate, schema ----
def test_validate_ok(capsys):
    code, out, err = call(capsys, "validate", R_ECO)
    assert code == 0
    assert out.strip() == f"{R_ECO}: ok (R-Eco, 2–5 players)"
    assert err == ""


def test_validate_broken_exit_1_with_position(broken):
    code, out, err = run("validate", broken)
    assert code == 1
    assert out == ""
    assert re.search(r"broken\.yaml:\d+:\d+: unknown name 'threshhold'", err), err
    assert re.search(r"^\s+hint: .*'threshold'", err, re.M), err


def test_validate_prints_a_rule_that_fails_at_one_player_count_like_any_error_with_that_count_as_hint(
        tmp_path, capsys):
    text = open(R_ECO, encoding="utf-8").read().replace('do: ["move dump[f] to hand"]',
                                                       'do: ["move dump[f] to hand(4)"]')
    path = tmp_path / "seat4.yaml"
    path.write_text(text, encoding="utf-8")
    code, out, err = call(capsys, "validate", str(path))
    assert code == 1 and out == ""
    assert re.search(r"^\S*seat4\.yaml:93:\d+: there is no player 4 with 2 players", err, re.M), err
    assert re.search(r"^\s+hint: this happens with 2 players$", err, re.M), err
    assert err.rstrip().endswith("seat4.yaml: 1 error") and "error: " not in err.split("\n")[0], err


@pytest.mark.parametrize("which", ["ok", "broken"])
def test_validate_json_shape(capsys, broken, which):
    path = R_ECO if which == "ok" else broken
    code, out, err = call(capsys, "validate", path, "--json")
    doc = json.loads(out)                     # exactly one JSON document on stdout
    assert set(doc) == {"status", "errors", "warnings"}
    assert doc["warnings"] == []
    if which == "ok":
        assert (code, doc["status"], doc["errors"]) == (0, "ok", [])
    else:
        assert (code, doc["status"]) == (1, "error")
        assert doc["errors"] and all(set(e) == {"file", "line", "column", "code", "message", "hint"}
                                     for e in doc["errors"])
        assert any("threshhold" in e["message"] and e["line"] > 1 for e in doc["errors"])
    assert err == ""


def test_missing_file_exit_2(tmp_path):
    code, out, err = run("validate", str(tmp_path / "nope.yaml"))
    assert code == 2
    assert "nope.yaml" in err and "cannot read" in err
    code, out, err = run("simulate", str(tmp_path / "nope.yaml"), "--players", "2")
    assert code == 2


def test_usage_errors_exit_2():
    assert run()[0] == 2
    assert run("frobnicate")[0] == 2
    assert run("simulate", R_ECO)[0] == 2                       # --players is required
    code, _, err = run("simulate", R_ECO, "--players", "3", "--set", "hand_limit")
    assert code == 2 and "NAME=VALUE" in err
    code, _, err = run("simulate", R_ECO, "--players", "9")
    assert code == 2 and "2 to 5 players" in err


def test_schema_prints_the_schema_file(capsys):
    code, out, _ = call(capsys, "schema")
    assert code == 0
    with open(SCHEMA_PATH, encoding="utf-8") as fh:
        assert json.loads(out) == json.load(fh)


# ---- simulate ----
@pytest.mark.parametrize("players", [2, 4])
def test_simulate_json_fields_and_determinism(capsys, players):
    args = ("--players", str(players), "--games", "4", "--seed", "5")
    first, second = simulate_json(capsys, *args), simulate_json(capsys, *args)
    assert without_timing(first) == without_timing(second)
    for key in ("ruleset", "players", "games", "seed", "bots", "turns", "moves", "score", "wins_by_seat",
                "seconds", "games_per_second"):
        assert key in first
    assert first["players"] == players and first["games"] == 4 and first["seed"] == 5
    assert first["bots"] == ["random"] * players
    for key in ("turns", "moves"):
        s = first[key]
        assert set(s) == {"mean", "sd", "min", "max"}
        assert s["min"] <= s["mean"] <= s["max"] and s["sd"] >= 0
    assert len(first["score"]["mean_by_seat"]) == len(first["score"]["sd_by_seat"]) == players
    assert len(first["wins_by_seat"]) == players
    assert sum(first["wins_by_seat"]) == pytest.approx(1.0)
    other = simulate_json(capsys, "--players", str(players), "--games", "4", "--seed", "6")
    assert without_timing(other) != without_timing(first)


def test_simulate_human_output(capsys):
    code, out, err = call(capsys, "simulate", R_ECO, "--players", "2", "--games", "3", "--bots", "random,greedy")
    assert code == 0
    assert "greedy" in out and "win share" in out
    assert re.search(r"^turns: mean [\d.]+ ± [\d.]+, median [\d.]+ ± [\d.]+ \(sd [\d.]+, min \d+ – max \d+\)$",
                     out, re.M)
    assert re.search(r"^moves: ", out, re.M)
    assert "games/s" in out
    assert err == ""                           # no progress bar: stderr is not a terminal


def test_simulate_progress_prints_a_line_per_tenth_of_the_games_to_stderr(capsys):
    code, out, err = call(capsys, "simulate", R_ECO, "--players", "2", "--games", "20", "--json", "--progress")
    assert code == 0 and json.loads(out)["games"] == 20       # stdout is still one JSON object
    lines = err.splitlines()
    assert [re.match(r"simulate: (\d+)/20 games, \d+ s", line).group(1) for line in lines] == \
        [str(k) for k in range(2, 21, 2)]


def test_simulate_bots_per_seat(capsys):
    stats = simulate_json(capsys, "--players", "3", "--games", "2", "--bots", "greedy,random,random")
    assert stats["bots"] == ["greedy", "random", "random"]


def test_simulate_bots_count_mismatch_exit_2():
    code, out, err = run("simulate", R_ECO, "--players", "3", "--games", "2", "--bots", "random,greedy")
    assert code == 2
    assert "automa, greedy, ismcts, memory, random" in err     # lists the known bots
    code, out, err = run("simulate", R_ECO, "--players", "3", "--games", "2", "--bots", "clever")
    assert code == 2
    assert "clever" in err and "automa, greedy, ismcts, memory, random" in err


def test_set_changes_simulation(capsys):
    args = ("--players", "3", "--games", "6", "--seed", "2")
    default = simulate_json(capsys, *args)
    six = simulate_json(capsys, *args, "--set", "hand_limit=6")
    assert six["overrides"] == {"hand_limit": 6}
    assert without_timing(six) != without_timing(default)
    table = simulate_json(capsys, "--players", "2", "--games", "2", "--set", "reward_order.2=[0,1,2,-2,4,5]")
    assert table["overrides"] == {"reward_order.2": [0, 1, 2, -2, 4, 5]}


def test_set_unknown_parameter_exit_1():
    code, out, err = run("simulate", R_ECO, "--players", "2", "--games", "2", "--set", "bogus=1")
    assert code == 1
    assert "bogus" in err



def test_set_errors_are_at_set_1_1(capsys):
    """As the manual says, a --set mistake is reported at --set:1:1 (also in --json, 1-based)."""
    code, out, err = call(capsys, "validate", R_ECO, "--json", "--set", "hand_limt=6", "--set", "reward_order.6=[1]")
    errors = json.loads(out)["errors"]
    assert code == 1 and [(e["file"], e["line"], e["column"], e["code"]) for e in errors] == [("--set", 1, 1, "bad-set")] * 2
    assert "did you mean 'hand_limit'?" in errors[0]["hint"] and "2 to 5 players" in errors[1]["hint"]
    code, out, err = call(capsys, "validate", R_ECO, "--set", "hand_limit=many")
    assert code == 1 and err.startswith("--set:1:1: hand_limit: 'hand_limit' must be a number, not 'many'")


# ---- record, replay ----
def test_record_then_replay(record_file):
    record = json.loads(record_file.read_text(encoding="utf-8"))
    assert record["players"] == 3 and record["seed"] == 11
    assert record["bots"] == ["random", "greedy", "random"]
    code, out, err = run("replay", str(record_file))
    assert code == 0, err
    assert out.startswith("replay ok")
    assert err == ""


def test_record_to_stdout_is_deterministic(capsys):
    args = ("record", R_ECO, "--players", "2", "--seed", "4")
    code, first, _ = call(capsys, *args)
    assert code == 0
    assert call(capsys, *args)[1] == first
    assert json.loads(first)["format"] == "cardrules-record/1"


def test_replay_tampered_move_exit_1(record_file, tmp_path):
    record = json.loads(record_file.read_text(encoding="utf-8"))
    record["moves"][3]["move"] = "deliver: 7*cans:2"     # looks like a move; only 3 such cards exist
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    code, out, err = run("replay", str(bad))
    assert code == 1
    assert "move 4 'deliver: 7*cans:2'" in err


def test_replay_tampered_result_exit_1(record_file, tmp_path):
    record = json.loads(record_file.read_text(encoding="utf-8"))
    record["result"]["scores"][0] += 1
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    code, out, err = run("replay", str(bad))
    assert code == 1
    assert "differs" in err


def test_replay_finds_ruleset_next_to_record_and_refuses_a_changed_one_without_any_ruleset(tmp_path, capsys):
    ruleset = tmp_path / "eco.yaml"
    ruleset.write_text(open(R_ECO, encoding="utf-8").read(), encoding="utf-8")
    out_file = tmp_path / "g.json"
    code, _, err = run("record", "eco.yaml", "--players", "2", "--seed", "3", "-o", "g.json", cwd=str(tmp_path))
    assert code == 0, err
    code, out, err = run("replay", str(out_file))          # from ROOT: found next to the record
    assert code == 0, err
    ruleset.write_text(ruleset.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    code, out, err = call(capsys, "replay", str(out_file))
    assert code == 1 and out == ""
    assert "sha256 differs" in err and "--any-ruleset" in err
    code, out, err = call(capsys, "replay", str(out_file), "--any-ruleset")
    assert code == 0 and out.startswith("replay ok")
    assert "sha256 differs" in err and "replaying anyway" in err
    code, out, err = call(capsys, "replay", str(out_file), "--ruleset", R_ECO)
    assert code == 0 and err == ""


def test_replay_unreadable_record_exit_2(tmp_path):
    assert run("replay", str(tmp_path / "missing.json"))[0] == 2
    garbled = tmp_path / "garbled.json"
    garbled.write_text("{not json", encoding="utf-8")
    code, _, err = run("replay", str(garbled))
    assert code == 2 and "not JSON" in err


# ---- bench ----
def test_bench_prints_games_per_second():
    code, out, err = run("bench", R_ECO, "--players", "3", "--seconds", "0.3")
    assert code == 0, err
    lines = out.strip().splitlines()
    assert "3 players" in lines[0]
    assert re.fullmatch(r"\d+\.\d games/s", lines[-1])


# ---- play ----
def play(capsys, monkeypatch, stdin: str, *args):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return call(capsys, "play", R_ECO, *args)


def test_play_one_human_against_bots(capsys, monkeypatch):
    code, out, err = play(capsys, monkeypatch, "1\nc\n" * 500, "--players", "3", "--seed", "8",
                          "--seat", "1=greedy", "--seat", "2=random")
    assert code == 0, err
    assert "turn 1 — seat 0 decides: deliver" in out
    assert re.search(r"(^|\s)1\. deliver: ", out, re.M)          # the moves beside the own panel
    assert re.search(r"^seat 1 \(greedy\): deliver \d+×\S+ hand\(1\) → side\[", out, re.M)
    assert "seat 0 · you" in out and re.search(r"seat 1 · greedy · .*hand: 3", out)     # one line a seat
    assert "final scores" in out and "winner" in out


def test_play_deterministic_with_seed(capsys, monkeypatch):
    args = ("--players", "2", "--seed", "8", "--seat", "1=random")
    first = play(capsys, monkeypatch, "1\nc\n" * 500, *args)[1]
    second = play(capsys, monkeypatch, "1\nc\n" * 500, *args)[1]
    assert first == second


def test_play_illegal_input_then_quit(capsys, monkeypatch):
    code, out, err = play(capsys, monkeypatch, "deliver: 9*cans:1\n99\n?\nq\n", "--players", "2", "--seed", "1",
                          "--seat", "1=random")
    assert code == 0
    assert "'deliver: 9*cans:1' is not a legal move" in out
    assert "there is no move 99" in out
    assert out.count("legal moves:") == 1 and "how to choose a move:" in out    # '?' prints help
    assert "abandoned" in out


def test_play_move_by_text_and_eof(capsys, monkeypatch):
    from interpreter.compiler.game import load_game
    program = load_game(R_ECO).program(2)
    st = program.new_state(1)
    text = program.move_text(st, program.legal_moves(st)[-1])
    code, out, err = play(capsys, monkeypatch, text.upper() + "\nc\n", "--players", "2", "--seed", "1",
                          "--seat", "1=random")
    assert code == 0                                     # end of input quits cleanly
    assert "seat 1 (random):" in out
    assert "abandoned" in out


def test_play_hot_seat(capsys, monkeypatch):
    code, out, err = play(capsys, monkeypatch, "1\nc\n" * 2000, "--players", "2", "--seed", "2")
    assert code == 0, err
    assert "— pass to seat 0 —" in out and "— pass to seat 1 —" in out
    assert "final scores" in out


def test_play_via_subprocess():
    code, out, err = run("play", R_ECO, "--players", "2", "--seed", "5", "--seat", "0=random", stdin="q\n")
    assert code == 0
    assert "seat 0 (random):" in out and "abandoned" in out


def test_play_bad_seat_exit_2():
    assert run("play", R_ECO, "--players", "2", "--seat", "2=random")[0] == 2
    assert run("play", R_ECO, "--players", "2", "--seat", "1=clever")[0] == 2


# ---- internal errors ----
def test_internal_error_exit_3(capsys, monkeypatch):
    import interpreter.tools.simulate

    def boom(*args, **kwargs):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(interpreter.tools.simulate, "simulate", boom)
    code, out, err = call(capsys, "simulate", R_ECO, "--players", "2")
    assert code == 3
    assert "internal error: ZeroDivisionError: boom" in err and "report" in err
    assert "Traceback" not in err
    code, out, err = call(capsys, "--debug", "simulate", R_ECO, "--players", "2")
    assert code == 3 and "Traceback" in err


# ---- warnings of validate, printed by the commands that run a ruleset ----
LINTED = os.path.join(ROOT, "tests", "errors", "lint_param_never_read.yaml")


@pytest.mark.parametrize("command", [("simulate", "--games", "2", "--json"), ("record",), ("bench", "--seconds", "0.05")])
def test_commands_that_run_a_ruleset_print_validates_warnings_once_to_stderr(capsys, command):
    code, out, err = call(capsys, command[0], LINTED, "--players", "2", *command[1:])
    assert code == 0, err
    assert err.count("warning: parameter 'hand_limit' is never read") == 1, err
    assert "never read" not in out
    if "--json" in command or command[0] == "record":
        json.loads(out)                                  # stdout stays one JSON document


def test_replay_and_play_print_validates_warnings_once_to_stderr(capsys, monkeypatch, tmp_path):
    path = tmp_path / "g.json"
    assert call(capsys, "record", LINTED, "--players", "2", "-o", str(path))[0] == 0
    code, out, err = call(capsys, "replay", str(path))
    assert code == 0 and err.count("is never read") == 1, err
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    code, out, err = call(capsys, "play", LINTED, "--players", "2", "--seed", "1")
    assert code == 0 and err.count("is never read") == 1 and "never read" not in out


def test_a_ruleset_without_warnings_prints_nothing_to_stderr(capsys):
    code, out, err = call(capsys, "simulate", R_ECO, "--players", "2", "--games", "2", "--json")
    assert code == 0 and err == ""


# ---- a rule failing in one game of simulate: the game and the record command ----
FAILING = """
        - move played to pile[first(played).colour]
        - set rounds = rounds + 0 * (1 / (first(played).value + rounds * 10 - 3))
"""


@pytest.fixture
def fails_sometimes(tmp_path):
    """The mini game, with a division by zero when the first card played is a 3 (only some games)."""
    base = open(os.path.join(ROOT, "tests", "errors", "_valid_base.yaml"), encoding="utf-8").read()
    path = tmp_path / "fails.yaml"
    path.write_text(base.replace("\n        - move played to pile[first(played).colour]\n", FAILING), encoding="utf-8")
    return str(path)


def test_a_rule_failing_in_simulate_names_the_game_and_the_record_command_that_plays_it_again(capsys, fails_sometimes):
    code, out, err = call(capsys, "simulate", fails_sometimes, "--players", "2", "--games", "20", "--seed", "1",
                          "--bots", "random,greedy", "--set", "hand_size=2", "--max-turns", "500")
    assert code == 1 and "Traceback" not in err
    found = re.search(r"in game (\d+) of this run .*: (cardrules record .*)$", err, re.M)
    assert found, err
    game, command = int(found.group(1)), found.group(2)
    assert game > 0                                     # game 0 plays without the failure: not a trivial case
    assert command == (f"cardrules record {fails_sometimes} --players 2 --seed 1 --game {game} "
                       "--bots random,greedy --set hand_size=2 --max-turns 500")
    failure = err.splitlines()[0]
    code, out, err = call(capsys, *command.split()[1:])
    assert code == 1 and err.splitlines()[0] == failure    # the same rule fails at the same place


@pytest.mark.parametrize("g", [0, 3])
def test_record_game_g_plays_game_g_of_simulate_move_for_move(capsys, monkeypatch, g):
    played = []
    real = interpreter_playing().observe_game

    def keep(*args, **kwargs):
        moves = []
        found = real(*args, **kwargs, moves=moves)
        played.append(moves)
        return found
    monkeypatch.setattr(interpreter_playing(), "observe_game", keep)
    simulate_json(capsys, "--players", "3", "--games", str(g + 1), "--seed", "9", "--bots", "greedy,random,automa",
                  "--jobs", "1")
    code, out, err = call(capsys, "record", R_ECO, "--players", "3", "--seed", "9", "--game", str(g),
                          "--bots", "greedy,random,automa")
    assert code == 0, err
    moves = [(m["seat"], m["move"]) for m in json.loads(out)["moves"]]
    assert moves == played[g]
    assert json.loads(out)["seed"] == interpreter_playing().game_seed(9, g)     # the deal seed a replay needs


def interpreter_playing():
    import interpreter.tools.playing
    return interpreter.tools.playing


# ---- no Python in messages, markup shown as written ----
PYTHON_TEXT = re.compile(r"KeyError|IndexError|TypeError|ValueError|ZeroDivisionError|\bTrue\b|\bFalse\b|\bNone\b|"
                         r"NoneType|\['")


def test_a_value_in_a_message_is_written_as_the_language_writes_it(capsys):
    code, out, err = call(capsys, "validate", R_ECO, "--set", "hand_limit=true")
    assert code == 1 and "'hand_limit' must be a number, not true" in err
    assert not PYTHON_TEXT.search(err), err


def test_show_writes_values_in_the_language():
    from interpreter.runtime.decisions import show
    assert [show(True), show(False), show(None), show(7), show("glass")] == ["true", "false", "empty", "7", "glass"]
    assert show("glass", quoted=True) == "'glass'"
    assert show([1, "a", True, [2]]) == "[1, 'a', true, [2]]"
    assert show(list(range(1000)), width=20).endswith(", …]") and len(show(list(range(1000)), width=20)) < 30


@pytest.mark.parametrize("exc, words", [(ZeroDivisionError("integer division or modulo by zero"), "a division by zero"),
                                        (IndexError("list index out of range"), "a position past the end"),
                                        (KeyError("x"), "an index or name that is not there"),
                                        (TypeError("'NoneType' object is not subscriptable"), "an empty value"),
                                        (TypeError("unsupported operand type(s) for +: 'int' and 'list'"),
                                         "a value of the wrong kind")])
def test_a_python_error_in_a_rule_is_told_by_what_it_means(exc, words):
    from interpreter.runtime.decisions import failure_words
    text = failure_words(exc)
    assert words in text and not PYTHON_TEXT.search(text) and str(exc) not in text


def test_a_ruleset_name_with_markup_is_shown_as_written_in_simulates_title(capsys, tmp_path):
    base = open(os.path.join(ROOT, "tests", "errors", "_valid_base.yaml"), encoding="utf-8").read()
    path = tmp_path / "markup.yaml"
    path.write_text(base.replace("name: Mini", 'name: "[bold red]x[/] [x]"'), encoding="utf-8")
    code, out, err = call(capsys, "simulate", str(path), "--players", "2", "--games", "2")
    assert code == 0 and "[bold red]x[/] [x]: 2 games, 2 players" in out


@pytest.mark.parametrize("command", ["", "validate", "lint", "schema", "simulate", "analyze", "compare", "sweep",
                                     "record", "replay", "bench", "play"])
def test_every_command_prints_its_help(capsys, command):
    code, out, err = call(capsys, *([command] if command else []), "--help")
    assert code == 0 and out.startswith("usage: cardrules") and err == ""
