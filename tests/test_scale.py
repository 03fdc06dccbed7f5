"""Scale (manual, "Analysing a game" — every core, a cluster, long runs): `--jobs N` gives the numbers
of `--jobs 1`, Ctrl-C keeps the finished games and exits 130, `--resume` plays only the missing games
and ends with the numbers of an uninterrupted run, and a batch without --results keeps no games."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from interpreter.analysis.tally import Tally
from interpreter.compiler.game import load_game
from interpreter.tools import chunks
from interpreter.tools.chunks import Batch, play_chunk
from interpreter.tools.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
R_ECO = os.path.join(ROOT, "rulesets", "r_eco.yaml")
LIXO = os.path.join(ROOT, "rulesets", "lixo.yaml")
MEMO = os.path.join(ROOT, "rulesets", "sorting_memo.yaml")
TIMING = ("seconds", "games_per_second", "timing")


def call(capsys, *args):
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def untimed(doc: dict) -> dict:
    """A summary without its timings (the only numbers allowed to differ between runs)."""
    return {k: v for k, v in doc.items() if k not in TIMING}


def simulated(capsys, *args) -> dict:
    code, out, err = call(capsys, "simulate", *args, "--json")
    assert code == 0, err
    return json.loads(out)


def lines(path) -> list:
    return [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]


def cli(*args, **kw):
    return subprocess.Popen([sys.executable, os.path.join(ROOT, "cli.py"), *map(str, args)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


@pytest.mark.parametrize("ruleset, players, bots, games", [
    (R_ECO, 4, "greedy,random,random,random", 40), (LIXO, 4, "random", 60), (MEMO, 2, "random", 24)])
def test_jobs_2_gives_every_number_of_jobs_1(capsys, ruleset, players, bots, games):
    runs = [simulated(capsys, ruleset, "-n", players, "--bots", bots, "--games", games, "--seed", 5, "--track",
                      "--jobs", jobs) for jobs in (1, 2)]
    assert untimed(runs[0]) == untimed(runs[1])
    assert len(runs[1]["timing"]["workers"]) == 2        # really played by two workers


@pytest.mark.soak
def test_jobs_2_gives_every_number_of_jobs_1_with_the_memory_bot(capsys):
    runs = [simulated(capsys, MEMO, "-n", 2, "--bots", "memory,random", "--games", 20, "--seed", 3, "--jobs", jobs)
            for jobs in (1, 2)]
    assert untimed(runs[0]) == untimed(runs[1])


def test_jobs_2_writes_the_results_file_of_jobs_1_line_for_line(capsys, tmp_path):
    for jobs in (1, 2):
        simulated(capsys, R_ECO, "-n", 3, "--games", 50, "--results", tmp_path / f"{jobs}.jsonl", "--jobs", jobs)
    assert (tmp_path / "1.jsonl").read_text() == (tmp_path / "2.jsonl").read_text()
    assert [r["game"] for r in lines(tmp_path / "2.jsonl")] == list(range(50))     # merged in game order


def test_games_auto_with_jobs_2_stops_where_jobs_1_stops(capsys):
    runs = [simulated(capsys, R_ECO, "-n", 2, "--games", "auto", "--precision", 6, "--jobs", jobs)
            for jobs in (1, 2)]
    assert runs[0]["games"] % 200 == 0 and untimed(runs[0]) == untimed(runs[1])


def test_compare_with_jobs_2_gives_every_number_of_jobs_1(capsys):
    docs = []
    for jobs in (1, 2):
        code, out, err = call(capsys, "compare", R_ECO, "-n", 2, "--set-b", "hand_size=6", "--games", 30,
                              "--rotate", "--jobs", jobs, "--json")
        assert code == 0, err
        doc = json.loads(out)
        docs.append({**doc, "a": untimed(doc["a"]), "b": untimed(doc["b"])})
    assert docs[0] == docs[1]


def test_sweep_with_jobs_2_gives_every_number_of_jobs_1(capsys):
    docs = []
    for jobs in (1, 2):
        code, out, err = call(capsys, "sweep", R_ECO, "-n", 2, "--vary", "hand_size=4,6", "--games", 25,
                              "--jobs", jobs, "--json")
        assert code == 0, err
        doc = json.loads(out)
        for row in doc["rows"]:
            row["summary"] = untimed(row["summary"])
        docs.append(doc)
    assert docs[0] == docs[1]


def test_the_timing_names_every_worker_and_the_share_outside_games(capsys):
    doc = simulated(capsys, R_ECO, "-n", 2, "--games", 40, "--jobs", 2)
    timing = doc["timing"]
    assert sum(w["games"] for w in timing["workers"]) == timing["games"] == 40
    assert all(w["games_per_second"] > 0 for w in timing["workers"])
    assert 0 <= timing["outside_games"] < 1 and timing["seconds"] == doc["seconds"]
    code, out, err = call(capsys, "simulate", R_ECO, "-n", 2, "--games", 40, "--jobs", 2)
    assert "2 workers:" in out and "of the time outside games" in out


def test_a_rule_failing_in_a_worker_is_reported_as_in_this_process(capsys, tmp_path):
    text = open(R_ECO, encoding="utf-8").read()
    path = tmp_path / "stuck.yaml"
    path.write_text(text)
    errors = []
    for jobs in (1, 2):
        code, out, err = call(capsys, "simulate", path, "-n", 2, "--games", 40, "--jobs", jobs, "--max-turns", 3)
        assert code == 1
        errors.append(err)
    assert errors[0] == errors[1] and "cardrules record" in errors[0] and "Traceback" not in errors[1]


def test_a_worker_plays_from_the_ruleset_text_without_the_file(tmp_path):
    base, variant = tmp_path / "base.yaml", tmp_path / "variant.yaml"
    base.write_text(open(LIXO, encoding="utf-8").read())
    variant.write_text("extends: base.yaml\n")
    game = load_game(str(variant))
    batch = Batch.of(game, 4, 3, ["random"] * 4)
    here = play_chunk(batch, 0, 5)
    base.unlink()
    variant.unlink()
    chunks._GAMES.clear()                                  # a worker that never saw the files
    there = play_chunk(batch, 0, 5)
    assert there.tally.summary() == here.tally.summary() and there.tally.games == 5


def wait_for_lines(path, n: int, proc, limit: float = 120) -> None:
    t = time.monotonic()
    while not (os.path.exists(path) and sum(1 for _ in open(path, encoding="utf-8")) >= n):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() - t < limit, "the run wrote too few games"
        time.sleep(0.05)


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_keeps_the_finished_games_prints_their_summary_and_exits_130(tmp_path, jobs):
    results = tmp_path / "run.jsonl"
    proc = cli("simulate", "rulesets/r_eco.yaml", "-n", 4, "--games", 200_000, "--results", results, "--json",
               "--jobs", jobs)
    wait_for_lines(results, 300, proc)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    doc = json.loads(out)
    kept = lines(results)
    assert doc["games"] == len(kept) == doc["interrupted"]["after"] and doc["interrupted"]["of"] == 200_000
    assert f"interrupted after {len(kept):,} of 200,000 games" in err and "Traceback" not in err
    assert len({r["game"] for r in kept}) == len(kept)


def test_resume_plays_only_the_missing_games_and_matches_an_uninterrupted_run(capsys, tmp_path):
    full = simulated(capsys, R_ECO, "-n", 3, "--games", 60, "--track", "--results", tmp_path / "full.jsonl")
    kept = (tmp_path / "full.jsonl").read_text().splitlines(keepends=True)
    part = tmp_path / "part.jsonl"
    part.write_text("".join(kept[:20] + kept[35:41]))      # games 0–19 and 35–40 finished, in any order
    resumed = simulated(capsys, R_ECO, "-n", 3, "--games", 60, "--track", "--results", part, "--resume",
                        "--jobs", 2)
    assert untimed(resumed) == untimed(full) and resumed["timing"]["games"] == 60 - 26
    assert sorted(r["game"] for r in lines(part)) == list(range(60))


def test_resume_after_ctrl_c_ends_with_the_numbers_of_an_uninterrupted_run(capsys, tmp_path):
    results = tmp_path / "run.jsonl"
    proc = cli("simulate", R_ECO, "-n", 2, "--games", 3000, "--results", results, "--jobs", 2)
    wait_for_lines(results, 200, proc)
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    assert proc.returncode == 130 and 200 <= len(lines(results)) < 3000
    resumed = simulated(capsys, R_ECO, "-n", 2, "--games", 3000, "--results", results, "--resume")
    assert untimed(resumed) == untimed(simulated(capsys, R_ECO, "-n", 2, "--games", 3000, "--jobs", 2))


def test_resume_drops_a_last_line_cut_short(capsys, tmp_path):
    path = tmp_path / "run.jsonl"
    full = simulated(capsys, R_ECO, "-n", 2, "--games", 12, "--results", path)
    text = path.read_text()
    path.write_text(text[: text.rindex("\n", 0, len(text) - 1) + 40])      # the last game half-written
    code, out, err = call(capsys, "simulate", R_ECO, "-n", 2, "--games", 12, "--results", path, "--resume", "--json")
    assert code == 0 and "cut short" in err
    assert untimed(json.loads(out)) == untimed(full)


@pytest.mark.parametrize("change, says", [
    (("--seed", 9), "its seed is 0, this run's is 9"),
    (("--bots", "greedy,random"), "its bots are random,random"),
    (("--set", "hand_size=6"), "--set values"),
    (("--track",), "made without --track"),
])
def test_resume_refuses_a_results_file_of_another_run(capsys, tmp_path, change, says):
    path = tmp_path / "run.jsonl"
    simulated(capsys, R_ECO, "-n", 2, "--games", 5, "--results", path)
    before = path.read_text()
    code, out, err = call(capsys, "simulate", R_ECO, "-n", 2, "--games", 10, "--results", path, "--resume", *change)
    assert code == 2 and says in err and "another run" in err or "with the same options" in err
    assert path.read_text() == before                     # nothing lost


def test_resume_refuses_a_results_file_of_another_ruleset(capsys, tmp_path):
    path = tmp_path / "run.jsonl"
    simulated(capsys, LIXO, "-n", 2, "--games", 3, "--results", path)
    code, out, err = call(capsys, "simulate", R_ECO, "-n", 2, "--games", 5, "--results", path, "--resume")
    assert code == 2 and "another run: its ruleset" in err


@pytest.mark.parametrize("args, says", [
    (("--games", 5, "--resume"), "--resume needs --results FILE"),
    (("--games", "auto", "--precision", 5, "--resume", "--results", "x.jsonl"), "not --games auto"),
    (("--games", 3, "--resume", "--results", "{file}"), "beyond --games 3"),
])
def test_resume_says_what_it_needs(capsys, tmp_path, args, says):
    path = tmp_path / "run.jsonl"
    simulated(capsys, R_ECO, "-n", 2, "--games", 5, "--results", path)
    code, out, err = call(capsys, "simulate", R_ECO, "-n", 2, *[str(a).format(file=path) for a in args])
    assert code == 2 and says in err


MEASURE = """
import json, resource, sys
from interpreter.tools.cli import main
main(sys.argv[1:])
print(json.dumps(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss), file=sys.stderr)
"""


def peak_kb(games: int) -> int:
    proc = subprocess.run([sys.executable, "-c", MEASURE, "simulate", R_ECO, "-n", "2", "--games", str(games),
                           "--jobs", "1", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return int(proc.stderr.strip().splitlines()[-1])


def test_a_batch_without_results_keeps_no_list_of_games():
    small, large = peak_kb(200), peak_kb(4000)
    # a kept record of a two-player R-Eco game is about 3 kB in memory: 3,800 more would be 11 MB more
    assert large - small < 4_000, f"peak memory grew by {large - small} kB for 3,800 more games"


def test_a_tally_stays_the_same_size_as_games_are_added():
    game = load_game(R_ECO)
    batch = Batch.of(game, 2, 0, ["random"] * 2, coverage=True)
    tally = Tally(2, ["random"] * 2)
    sizes = []
    for first in range(0, 400, 100):
        tally.merge(play_chunk(batch, first, first + 100).tally)
        sizes.append(len(__import__("pickle").dumps(tally)))
    assert sizes[-1] < 1.2 * sizes[1], sizes


def killed(*args):
    """A chunk whose worker is killed (as the out-of-memory killer would)."""
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_worker_killed_mid_batch_is_an_error_saying_so_not_a_wait_for_ever(capsys, monkeypatch, tmp_path):
    from interpreter.tools import workers
    monkeypatch.setattr(workers, "play_chunk", killed)     # the forked workers play this instead
    results = tmp_path / "run.jsonl"
    code, out, err = call(capsys, "simulate", R_ECO, "-n", 2, "--games", 100, "--jobs", 2, "--results", results)
    assert code == 1 and "a worker process stopped (killed by signal 9, perhaps for lack of memory)" in err
    assert "--resume" in err and "Traceback" not in err
