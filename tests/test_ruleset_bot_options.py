"""A ruleset's options for its bots (`bots.options`, interpreter/frontend/check/bot_options.py).

- The bots play the game with the options its ruleset gives them.
- An option the command names overrides the ruleset's; the others stay the ruleset's.
- Records and results store the options every bot played with, so a record replays alike.
- An unknown bot, an option the bot does not take, or a value it does not accept is an error at
  its place in the file, with what was meant; among the file's other errors, in the same run,
  whether a command or the package's validate_file checks it.
- A bot of one's own is given none of them.
- compare plays both variants with the same bots: it refuses two rulesets that give them
  different options.
- `cardrules bots RULESET` shows the ruleset's values in place of the defaults, marked; simulate's
  table shows every option each bot played with.
- Sorting Memo's ismcts looks 4 decisions ahead.
"""
import json
import os

from interpreter import load_game, validate_file
from interpreter.tools.options import bot_list, seat_bots
from test_cli import R_ECO, ROOT, call

OPTIONS = "\nbots:\n  options:\n    automa: {samples: 1, width: 3}\n    ismcts: {depth: 5}\n"
SORTING_MEMO = os.path.join(ROOT, "rulesets", "sorting_memo.yaml")
BOT_FILE = os.path.join(ROOT, "docs", "examples", "cautious_bot.py")


def with_options(tmp_path, extra: str = OPTIONS, name: str = "r_eco_bots.yaml") -> str:
    """R-Eco with `extra` appended (a bots: section), written beside the test's other files."""
    path = tmp_path / name
    with open(R_ECO, encoding="utf-8") as fh:
        path.write_text(fh.read() + extra, encoding="utf-8")
    return str(path)


def test_the_bots_play_the_game_with_the_options_its_ruleset_gives_them(tmp_path):
    game = load_game(with_options(tmp_path))
    assert bot_list("automa,ismcts", 2, game) == ["automa:samples=1,width=3", "ismcts:depth=5"]
    assert bot_list("greedy", 2, game) == ["greedy", "greedy"]      # a bot the ruleset names not
    assert seat_bots([(1, "ismcts")], 2, game) == {1: "ismcts:depth=5"}
    assert bot_list("automa", 2, load_game(R_ECO)) == ["automa", "automa"]      # no bots.options


def test_an_option_the_command_names_overrides_the_rulesets(tmp_path):
    game = load_game(with_options(tmp_path))
    assert bot_list("automa:width=6,depth=2,ismcts:depth=9", 2, game) == \
        ["automa:samples=1,width=6,depth=2", "ismcts:depth=9"]


def test_records_and_results_store_the_options_every_bot_played_with(tmp_path, capsys):
    ruleset = with_options(tmp_path)
    record = tmp_path / "game.json"
    code, _, err = call(capsys, "record", ruleset, "--players", "2", "--bots", "automa,greedy", "--seed", "3",
                        "--output", str(record))
    assert code == 0, err
    assert json.loads(record.read_text())["bots"] == ["automa:samples=1,width=3", "greedy"]
    code, out, err = call(capsys, "replay", str(record), "--ruleset", ruleset)
    assert code == 0 and "replay ok" in out, err
    results = tmp_path / "games.jsonl"
    code, _, err = call(capsys, "simulate", ruleset, "--players", "2", "--bots", "automa,random", "--games", "2",
                        "--jobs", "1", "--results", str(results))
    assert code == 0, err
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    assert all(r["bots"] == ["automa:samples=1,width=3", "random"] for r in rows if "bots" in r)
    assert any("bots" in r for r in rows)


def test_an_unknown_bot_option_or_value_is_an_error_at_its_place_in_the_file(tmp_path, capsys):
    bad = "\nbots:\n  options:\n    automaa: {samples: 1}\n    ismcts: {dept: 4, rollout: greedyy}\n"
    ruleset = with_options(tmp_path, bad)
    code, _, err = call(capsys, "validate", ruleset)
    assert code == 1
    lines = len(open(R_ECO, encoding="utf-8").read().splitlines())
    assert f"{ruleset}:{lines + 4}:5: bots.options: unknown bot 'automaa'" in err
    assert "did you mean 'automa'?" in err
    assert f"{ruleset}:{lines + 5}:14: bots.options: bot ismcts has no option 'dept'" in err
    assert "did you mean 'depth'?" in err
    assert f"{ruleset}:{lines + 5}:32: bots.options: bot ismcts: option rollout=greedyy is not one of " \
           "random, greedy, informed; did you mean 'greedy'?" in err


def test_a_wrong_bot_option_is_reported_with_the_files_other_errors_in_one_run(tmp_path, capsys):
    with open(R_ECO, encoding="utf-8") as fh:
        text = fh.read()
    assert "\n  - count(disposal)" in text
    ruleset = tmp_path / "two_errors.yaml"
    ruleset.write_text(text.replace("\n  - count(disposal)", "\n  - count(disposal) - no_such_name", 1)
                       + "\nbots:\n  options:\n    ismcts: {dept: 4}\n", encoding="utf-8")
    code, _, err = call(capsys, "validate", str(ruleset))
    assert code == 1
    assert "unknown name 'no_such_name'" in err and "bot ismcts has no option 'dept'" in err
    found = [d.message for d in validate_file(str(ruleset))]
    assert any("no_such_name" in m for m in found) and any("'dept'" in m for m in found)


def test_a_value_of_the_wrong_kind_is_refused(tmp_path, capsys):
    for value, says in (("2.5", "is not a whole number from 1 to 1000"), ("0", "is not a whole number from 1 to 1000"),
                        ("[1]", "")):
        ruleset = with_options(tmp_path, f"\nbots:\n  options:\n    automa: {{samples: {value}}}\n")
        code, _, err = call(capsys, "validate", ruleset)
        assert code == 1 and "samples" in err and says in err, err


def test_a_bot_of_ones_own_is_given_none_of_them(tmp_path):
    game = load_game(with_options(tmp_path, "\nbots:\n  options:\n    greedy: {}\n    automa: {samples: 1}\n"))
    spec = f"{BOT_FILE}:Cautious"
    assert bot_list(spec, 2, game) == [spec, spec]


def test_compare_refuses_two_rulesets_that_give_the_bots_different_options(tmp_path, capsys):
    a = with_options(tmp_path)
    b = with_options(tmp_path, OPTIONS.replace("samples: 1", "samples: 2"), "other.yaml")
    code, _, err = call(capsys, "compare", a, b, "--players", "2", "--bots", "automa", "--games", "2", "--jobs", "1")
    assert code == 2
    assert "give the bots different options" in err and "automa:samples=1,width=3" in err
    code, _, err = call(capsys, "compare", a, b, "--players", "2", "--bots", "automa:samples=1", "--games", "2",
                        "--jobs", "1", "--json")
    assert code == 0, err


def test_cardrules_bots_ruleset_shows_its_values_in_place_of_the_defaults(tmp_path, capsys):
    ruleset = with_options(tmp_path)
    code, out, _ = call(capsys, "bots", ruleset)
    assert code == 0
    assert f"    samples=1  (int 1..1000): determinised copies every candidate move is played on  " \
           f"[{ruleset}; default 2]" in out
    code, out, _ = call(capsys, "bots")
    assert "    samples=2  (int 1..1000): determinised copies every candidate move is played on\n" in out


def test_sorting_memos_ismcts_looks_four_decisions_ahead():
    assert bot_list("ismcts", 2, load_game(SORTING_MEMO)) == ["ismcts:depth=4", "ismcts:depth=4"]


def test_simulates_table_shows_every_option_a_bot_played_with(tmp_path, capsys):
    code, out, err = call(capsys, "simulate", with_options(tmp_path), "--players", "2", "--bots", "automa,random",
                          "--games", "2", "--jobs", "1")
    assert code == 0, err
    assert "automa:samples=1," in out and "width=3" in out and "…" not in out.split("seat advantage")[0]
