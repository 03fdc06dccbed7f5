"""Make the golden corpus: records and simulate outputs of every shipped ruleset (run once, on the old main)."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent
RULESETS = {"r_eco": (2, 5), "lixo": (2, 6), "lixo_two_colour": (2, 6), "sorting_memo": (2, 4)}
BOTS = ["random", "greedy", "automa", "memory"]
SEEDS = range(1, 6)
TIMING = ("seconds", "games_per_second", "timing")


def cardrules(*args):
    """Run the command line of this checkout and return its stdout."""
    done = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return done.stdout


def simulate_outputs(name, players):
    """Write the simulate --json outputs (timings dropped) for random bots and one greedy seat."""
    for label, bots in (("random", "random"), ("greedy", ",".join(["greedy"] + ["random"] * (players - 1)))):
        path = OUT / "simulate" / f"{name}-{players}p-{label}.json"
        if path.exists():
            continue
        doc = json.loads(cardrules("simulate", f"rulesets/{name}.yaml", "--players", str(players),
                                   "--games", "200", "--seed", "1", "--bots", bots, "--json"))
        for key in TIMING:
            doc.pop(key, None)
        path.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")


def records(name, players, bot):
    """Write five records of one bot in every seat."""
    for seed in SEEDS:
        path = OUT / "records" / f"{name}-{players}p-{bot}-s{seed}.json"
        if not path.exists():
            cardrules("record", f"rulesets/{name}.yaml", "--players", str(players), "--bots", bot,
                      "--seed", str(seed), "-o", str(path))


def main():
    """Make every file that is not there yet, cheap bots first."""
    (OUT / "simulate").mkdir(exist_ok=True)
    (OUT / "records").mkdir(exist_ok=True)
    for name, (low, high) in RULESETS.items():
        for players in range(low, high + 1):
            simulate_outputs(name, players)
    for bot in BOTS:
        for name, (low, high) in RULESETS.items():
            for players in range(low, high + 1):
                records(name, players, bot)
                print(name, players, bot, flush=True)


if __name__ == "__main__":
    main()
