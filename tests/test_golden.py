"""Records and statistics made by the code as it was before the one-backend refactor come out
the same after it: every record replays to its result, the same seed and bots record the same
game, and `simulate --json` prints the same numbers (timings aside).

The corpus in tests/golden/ was made by tests/golden/make_corpus.py on the main of that day:
every shipped ruleset at every player count, five seeds of each bot in every seat, and 200
games of random bots and of one greedy seat against random ones."""
import json
from pathlib import Path

import pytest

from interpreter.compiler.game import load_game
from interpreter.tools.cli import main
from interpreter.tools.records import replay

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
RECORDS = sorted((GOLDEN / "records").glob("*.json"))
OUTPUTS = sorted((GOLDEN / "simulate").glob("*.json"))
TIMING = ("seconds", "games_per_second", "timing")
# The default run re-plays random bots; bots that think (and Sorting Memo's 200 random games, a
# quarter of a minute) are re-played by the soak run.
CHEAP = "random"
SLOW_RULESETS = ("sorting_memo",)


def bots_of(path: Path) -> str:
    return json.loads(path.read_text())["bots"][0]


def without_digest(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "sha256"}


def soak_unless(cheap: bool):
    return [] if cheap else [pytest.mark.soak]


def cases(paths, cheap):
    return [pytest.param(p, id=p.stem, marks=soak_unless(cheap(p))) for p in paths]


@pytest.fixture(autouse=True)
def at_the_root(monkeypatch):
    """Rulesets are named as the corpus named them, from the repository's root."""
    monkeypatch.chdir(ROOT)


def test_the_corpus_covers_every_ruleset_player_count_and_bot():
    made = {p.stem.rsplit("-s", 1)[0] for p in RECORDS}
    for name, (low, high) in {"r_eco": (2, 5), "lixo": (2, 6), "lixo_two_colour": (2, 6),
                              "sorting_memo": (2, 4)}.items():
        for players in range(low, high + 1):
            for bot in ("random", "greedy", "automa", "memory"):
                assert f"{name}-{players}p-{bot}" in made
            for bots in ("random", "greedy"):
                assert (GOLDEN / "simulate" / f"{name}-{players}p-{bots}.json").exists()


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem) for p in RECORDS])
def test_a_record_made_before_replays_to_the_same_result(path):
    record = json.loads(path.read_text())
    game = load_game(record["ruleset"], record["overrides"])
    assert replay(game, record) == record["result"]


@pytest.mark.parametrize("path", cases(RECORDS, lambda p: bots_of(p) == CHEAP))
def test_the_same_seed_and_bots_record_the_same_game(path, tmp_path, capsys):
    record = json.loads(path.read_text())
    out = tmp_path / "game.json"
    assert main(["record", record["ruleset"], "--players", str(record["players"]), "--seed", str(record["seed"]),
                 "--bots", ",".join(record["bots"]), "-o", str(out)]) == 0
    # the file's digest changes with a comment in the ruleset; everything the game is made of may not
    assert without_digest(json.loads(out.read_text())) == without_digest(record)


@pytest.mark.parametrize("path", cases(OUTPUTS, lambda p: p.stem.endswith(CHEAP) and not p.stem.startswith(SLOW_RULESETS)))
def test_simulate_prints_the_same_numbers(path, capsys):
    want = json.loads(path.read_text())
    assert main(["simulate", want["ruleset"], "--players", str(want["players"]), "--games", str(want["games"]),
                 "--seed", str(want["seed"]), "--bots", ",".join(want["bots"]), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    for key in TIMING:
        got.pop(key)
    # every number printed before is printed again, unchanged; new numbers stand next to them
    assert {key: got[key] for key in want if key in got} == want and set(want) <= set(got)
