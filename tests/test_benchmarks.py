"""The benchmark scripts run and say what they measured (what they measure is not asserted: speed
is measured by benchmarks, not by tests)."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def script(*args) -> str:
    done = subprocess.run([sys.executable, *map(str, args)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_speed_table_puts_each_ruleset_beside_its_yardstick_with_the_ratio():
    out = script("benchmarks/speed.py", "--seconds", 0.2, "--rounds", 1, "--only", "r_eco:2", "--only",
                 "lixo_two_colour:3", "--no-bots")
    rows = [line.split("|")[1:-1] for line in out.splitlines() if line.startswith("| r_eco") or
            line.startswith("| lixo_two_colour")]
    assert [(r[0].strip(), r[1].strip()) for r in rows] == [("r_eco", "2"), ("lixo_two_colour", "3")]
    for r in rows:
        ours, theirs, ratio = (float(x.strip().rstrip("×").replace(",", "")) for x in r[2:5])
        assert abs(ours / theirs - ratio) < 0.01


def test_the_jobs_benchmark_checks_that_both_runs_give_the_same_numbers():
    out = script("benchmarks/jobs.py", "--games", 40, "--rounds", 1, "--players", 2, "--bots", "random")
    assert "numbers identical apart from timings: yes" in out and "as fast" in out


def test_the_memory_benchmark_reports_the_peak_of_the_command_and_its_workers():
    out = script("benchmarks/memory.py", "--games", 60, "--players", 2, "--jobs", 2)
    assert "60 games in" in out and "peak memory" in out and "the largest worker" in out


def test_the_bots_table_puts_each_bot_beside_the_same_bot_of_another_checkout():
    # the checkout itself as the other one: the same games, so the same win shares
    out = script("benchmarks/speed.py", "--no-speed", "--bot-games", 0.01, "--rounds", 1, "--against", ROOT)
    rows = [line.split("|")[1:-1] for line in out.splitlines() if line.startswith("| greedy")
            or line.startswith("| automa") or line.startswith("| memory")]
    assert [r[0].strip() for r in rows] == ["greedy", "automa", "memory"]
    for r in rows:
        now, before, cost = float(r[5]), float(r[7]), float(r[9].strip().rstrip("×"))
        assert r[6] == r[8]                               # the same seeds: the same win share
        # the seconds are shown to 3 decimals and the cost to 2: it lies within their rounding
        assert (now - 5e-4) / (before + 5e-4) - 5e-3 <= cost <= (now + 5e-4) / max(before - 5e-4, 1e-9) + 5e-3


def test_the_speed_table_puts_each_ruleset_beside_another_checkout_with_the_speed_up():
    out = script("benchmarks/speed.py", "--seconds", 0.2, "--rounds", 1, "--only", "r_eco:2", "--no-bots",
                 "--against", ROOT)
    row = next(line.split("|")[1:-1] for line in out.splitlines() if line.startswith("| r_eco"))
    ours, before, gain = (float(x.strip().rstrip("×").replace(",", "")) for x in (row[2], row[5], row[6]))
    # games/s are shown whole and the speed-up to 2 decimals: it lies within their rounding
    assert (ours - 0.5) / (before + 0.5) - 5e-3 <= gain <= (ours + 0.5) / max(before - 0.5, 1e-9) + 5e-3


def test_the_rotated_benchmark_plays_the_bot_in_every_seat_and_gives_its_share_with_an_interval():
    out = script("benchmarks/rotated.py", "rulesets/r_eco.yaml", "--players", 2, "--bot", "greedy",
                 "--opponent", "random", "--games", 4, "--seed", 3)
    seats = [line for line in out.splitlines() if line.startswith("seat ")]
    assert [line.split(":")[0] for line in seats] == ["seat 0", "seat 1"]
    shares = [float(line.split(": ")[1].split(" %")[0]) for line in seats]
    total = out.splitlines()[-1]
    assert "of 8 games" in total and "fair share 50 %" in total
    mean = float(total.split("= ")[1].split(" %")[0])
    lo, hi = (float(x) for x in total.split("[")[1].split("]")[0].split(", "))
    assert abs(mean - sum(shares) / 2) < 0.1 and lo <= mean <= hi


def test_a_rotated_run_that_keeps_its_games_continues_where_it_stopped_with_the_same_share(tmp_path):
    args = ("benchmarks/rotated.py", "rulesets/r_eco.yaml", "--players", 2, "--bot", "greedy", "--opponent",
            "random", "--games", 5, "--seed", 4)
    whole = script(*args).splitlines()[-1]
    kept = tmp_path / "kept"
    first = script(*args, "--results", kept).splitlines()[-1]
    seat1 = kept / "seat1.jsonl"
    seat1.write_text("".join(seat1.read_text().splitlines(keepends=True)[:2]))    # stopped after 2 games
    again = script(*args, "--results", kept).splitlines()[-1]
    share = lambda line: line.split(": ", 1)[1].split(" (")[0]  # noqa: E731
    assert share(whole) == share(first) == share(again) and "of 10 games" in whole
    assert "3 played now" in again and len(seat1.read_text().splitlines()) == 5
    assert "every game kept from before" in script(*args, "--results", kept)
