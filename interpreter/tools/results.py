"""Results files: one JSON object per line per game (`simulate --results`), written as games end
and read back by `analyze` and `compare` with every line checked before it is used."""
from __future__ import annotations

import json
import math
import sys

from ..errors import RecordError, RulesetError, UsageError
from ..frontend.reading import read_text

MAX_RESULTS_BYTES = 1_000_000_000       # a game's line is a few kB: a million games fit
RUN_FIELDS = {"ruleset": str, "name": str, "sha256": str, "players": int, "seed": int, "overrides": dict}


class ResultsWriter:
    """Writes each game's record as one line, flushed, so an interrupted run keeps what it played."""

    def __init__(self, path: str, append: bool = False):
        self.path = path
        try:
            self.fh = open(path, "a" if append else "w", encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"{path}: cannot write the results: {exc.strerror or exc}") from None

    def __call__(self, record: dict) -> None:
        self.fh.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
        self.fh.flush()

    def close(self) -> None:
        self.fh.close()


def read_results(paths: list) -> list:
    """Every run in the files, as [(run meta, bots, records in game order)]: lines of one run (the
    same ruleset, digest, players, seed, overrides and bots) are pooled, in any file."""
    runs: dict = {}
    for path in paths:
        try:
            text = read_text(path, MAX_RESULTS_BYTES, "results")
        except RulesetError as exc:          # too large, or not UTF-8
            raise UsageError(str(exc.diagnostics[0])) from None
        for n, line in enumerate(text.split("\n"), 1):
            if line.strip():
                record = parse_line(path, n, line)
                key = json.dumps([record["run"], record["bots"]], sort_keys=True)
                runs.setdefault(key, {}).setdefault(record["game"], (f"{path}:{n}", record))
                if runs[key][record["game"]][1] is not record:
                    raise RecordError(f"{path}:{n}: game {record['game']} of this run is already at "
                                      f"{runs[key][record['game']][0]}; give each game once")
    if not runs:
        raise UsageError(f"{', '.join(paths)}: no games in the results (one JSON object per line, as "
                         "`cardrules simulate --results FILE` writes)")
    return [(found[min(found)][1]["run"], found[min(found)][1]["bots"], [found[g][1] for g in sorted(found)])
            for found in runs.values()]


def resume_from(path: str, run: dict, bots: list, flags: dict, tally) -> set:
    """The games a results file already holds for this very run, added to `tally`; their indexes.
    A file of another ruleset, seed, bot list or set of options is refused, naming what differs; a
    last line cut short (the run was killed mid-write) is dropped from the file."""
    try:
        text = read_text(path, MAX_RESULTS_BYTES, "results")
    except RulesetError as exc:
        raise UsageError(str(exc.diagnostics[0])) from None
    lines = text.split("\n")
    if lines[-1].strip():               # no newline after it: cut short
        drop_torn_line(path, text, lines[-1])
    done: set = set()
    for n, line in enumerate(lines[:-1], 1):
        if line.strip():
            record = parse_line(path, n, line)
            refuse_other_run(path, n, record, run, bots, flags)
            if record["game"] in done:
                raise RecordError(f"{path}:{n}: game {record['game']} is in the file twice; give each game once")
            done.add(record["game"])
            tally.add(record)
    return done


def drop_torn_line(path: str, text: str, torn: str) -> None:
    """Cut the file after its last whole line (the game of the torn line is played again)."""
    with open(path, "r+b") as fh:
        fh.truncate(len(text[: len(text) - len(torn)].encode("utf-8")))
    print(f"{path}: the last line was cut short (the run was stopped mid-write); it is dropped and that game "
          "played again", file=sys.stderr)


def refuse_other_run(path: str, n: int, record: dict, run: dict, bots: list, flags: dict) -> None:
    """UsageError unless the line belongs to the run being resumed."""
    theirs = record["run"]
    for key, what in (("sha256", "ruleset (or an edited version of it)"), ("ruleset", "ruleset file"),
                      ("players", "number of players"), ("seed", "seed"), ("overrides", "--set values")):
        if theirs.get(key) != run[key]:
            raise UsageError(f"{path}:{n}: these results are from another run: its {what} is "
                             f"{theirs.get(key)!r}, this run's is {run[key]!r}; --resume continues the same "
                             "command with the same results file (or give another file)")
    if record["bots"] != list(bots):
        raise UsageError(f"{path}:{n}: these results are from another run: its bots are "
                         f"{','.join(record['bots'])}, this run's are {','.join(bots)}; --resume continues the "
                         "same command with the same results file")
    for field, option in (("track", "--track"), ("coverage", "--no-coverage")):
        if (field in record) != flags[field]:
            raise UsageError(f"{path}:{n}: these results were made {'with' if field in record else 'without'} "
                             f"{option if field == 'track' else 'coverage'}: resume with the same options")


def parse_line(path: str, n: int, line: str) -> dict:
    """One line of a results file, checked: RecordError at path:line naming the field that is wrong."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path}:{n}:{exc.colno}: not JSON: {exc.msg}") from None
    except (RecursionError, ValueError):
        raise RecordError(f"{path}:{n}: not a line of a results file (nested too deeply, or a number "
                          "too long)") from None
    try:
        check_line(record)
    except ValueError as exc:
        raise RecordError(f"{path}:{n}: {exc}") from None
    return record


def need(ok: bool, field: str, what: str) -> None:
    if not ok:
        raise ValueError(f"field '{field}' must be {what}")


def is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def is_number(x) -> bool:
    return (is_int(x) or isinstance(x, float)) and math.isfinite(x)


def check_line(r) -> None:
    """The fields every analysis reads, with the types and sizes they must have."""
    need(isinstance(r, dict), "(line)", "a JSON object, one game")
    run = r.get("run")
    need(isinstance(run, dict) and all(isinstance(run.get(k), t) for k, t in RUN_FIELDS.items())
         and is_int(run["players"]) and run["players"] >= 1, "run",
         "an object with ruleset, name, sha256, players, seed and overrides")
    p = run["players"]
    need(is_int(r.get("game")) and r["game"] >= 0, "game", "a game number (0, 1, …)")
    need(is_int(r.get("seed")), "seed", "the game's deal seed (a whole number)")
    need(isinstance(r.get("bots"), list) and len(r["bots"]) == p and all(isinstance(b, str) for b in r["bots"]),
         "bots", f"a list of {p} bot names")
    for field in ("scores", "decisions"):
        need(isinstance(r.get(field), list) and len(r[field]) == p and all(is_number(x) for x in r[field]),
             field, f"a list of {p} numbers")
    together = run.get("cooperative") is True       # a cooperative table may all lose: no winner
    need(isinstance(r.get("winners"), list) and (r["winners"] or together) and len(set(r["winners"])) == len(r["winners"])
         and all(is_int(k) and 0 <= k < p for k in r["winners"]), "winners",
         f"a {'' if together else 'non-empty '}list of seats 0 to {p - 1}")
    for field in ("turns", "moves"):
        need(is_int(r.get(field)) and r[field] >= 0, field, "a whole number")
    need(isinstance(r.get("choices"), dict) and all(k.isdigit() and is_int(v) and v >= 0
                                                   for k, v in r["choices"].items()),
         "choices", "an object {legal moves: decisions}")
    check_optional(r, p)


def check_optional(r: dict, p: int) -> None:
    """track, stats, coverage and moved: absent, or of the right shape."""
    if "track" in r:
        need(isinstance(r["track"], list) and r["track"] and all(
            isinstance(t, list) and len(t) == p and all(is_number(x) for x in t) for t in r["track"]),
            "track", f"a non-empty list of turns, each a list of {p} numbers")
    need(isinstance(r.get("stats", {}), dict), "stats", "an object {name: value}")
    for name, value in r.get("stats", {}).items():
        ok = is_number(value) or isinstance(value, bool) or (
            isinstance(value, list) and len(value) == p and all(is_number(x) or isinstance(x, bool) for x in value))
        need(ok, f"stats.{name}", f"a number, a true/false, or a list of {p} of them")
    for field in ("coverage", "moved"):
        if field in r:
            need(isinstance(r[field], list) and all(is_int(x) and x >= 0 for x in r[field]), field,
                 "a list of counts")
