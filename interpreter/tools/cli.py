"""The command-line program: `python cli.py …` and the installed `cardrules` are the same.

Exit codes: 0 success, 1 invalid ruleset or failed check, 2 usage error or unreadable file,
3 internal error (a bug in cardrules; `--debug` shows the traceback).

Seeds: `simulate` game g plays with `rng.derive(S, g)` and seat k's bot with
`rng.derive(S, 1_000_003 * (g + 1) + k)`; `record` and `play` deal with S itself and seed
seat k's bot with `rng.derive(S, k)`; `record --seed S --game G` plays game G of that simulate
run. The same seed always gives the same games.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import traceback
from dataclasses import replace
from typing import NamedTuple

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from ..compiler.game import file_warnings, load_game
from ..errors import CardrulesError, Diagnostic, Pos, RecordError, RuleRuntimeError, RulesetError, UsageError
from ..frontend.loader import MAX_FILE_BYTES, load_value
from ..frontend.reading import read_lines, read_text
from ..frontend.schema import SCHEMA_PATH
from ..runtime import rng
from ..runtime.decisions import show
from ..runtime.engine import DEFAULT_LIMITS
from ..seats.bots import BOTS, make_bot
from . import play, record_check, records, simulate     # as modules: a test replaces simulate.simulate to make a bug
from .play import plural

PROG = "cardrules"


# ---- argument types ----
def set_option(text: str) -> tuple:
    """NAME=VALUE with VALUE read as YAML (6 is an int, [0,1] a list), through the same guards as a
    ruleset file. A bad VALUE gives (NAME, RulesetError at --set:1:COL), raised by overrides_of
    once the command runs, so that it is reported like every error of a ruleset (and in --json)."""
    name, eq, value = text.partition("=")
    if not eq or not name.strip():
        raise argparse.ArgumentTypeError(f"'{text}' is not NAME=VALUE")
    try:
        return name.strip(), load_value(value, "--set", len(name) + 2)
    except RulesetError as exc:
        return name.strip(), exc


def seat_option(text: str) -> tuple:
    """K=BOT: seat K (from 0) is played by the named bot."""
    seat, eq, name = text.partition("=")
    if not eq or not seat.strip().isdigit() or not name.strip():
        raise argparse.ArgumentTypeError(f"'{text}' is not SEAT=BOT (e.g. 1=greedy)")
    return int(seat), name.strip()


def positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def non_negative_int(text: str) -> int:
    if not text.strip().isascii() or not text.strip().isdigit() or len(text.strip()) > 18:
        raise argparse.ArgumentTypeError(f"'{text}' is not a game number (0, 1, 2, …)")
    return int(text)


def positive_float(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not x > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return x


def known_bots() -> str:
    return ", ".join(sorted(BOTS))


def check_bot(name: str) -> str:
    if name not in BOTS:
        raise UsageError(f"unknown bot '{name}'; known bots: {known_bots()}")
    return name


def bot_list(spec: str, players: int) -> list:
    """--bots NAME[,NAME…]: one name for every seat, or exactly one per seat in seat order."""
    names = [n.strip() for n in spec.split(",")]
    for name in names:
        check_bot(name)
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise UsageError(f"--bots names {len(names)} bots for {players} players: give one name for every "
                         f"seat or exactly one per seat (known bots: {known_bots()})")
    return names


# ---- helpers ----
def overrides_of(args) -> dict:
    """The --set options as {NAME: VALUE}; a value that was not valid YAML raises its RulesetError."""
    given = args.set or []
    bad = [d for _, value in given if isinstance(value, RulesetError) for d in value.diagnostics]
    if bad:
        raise RulesetError(bad)
    return dict(given)


def limits_of(args):
    """The run-time guards from --max-steps, --max-loops, --max-turns and --max-moves (defaults where
    not given; see engine.Limits)."""
    given = {name: getattr(args, f"max_{name}", None) for name in ("steps", "loops", "turns", "moves")}
    return replace(DEFAULT_LIMITS, **{k: v for k, v in given.items() if v is not None})


def load(args):
    """The game of a command that runs a ruleset; the linter's warnings go to stderr first."""
    game = load_game(args.ruleset, overrides_of(args), limits_of(args))
    print_warnings(args.ruleset, overrides_of(args), game)
    return game


def print_warnings(path: str, overrides: dict, game) -> None:
    """What `validate` warns about a ruleset that loads, printed once to stderr (stdout stays clean
    for --json)."""
    try:
        warnings = file_warnings(path, overrides, game)
    except RulesetError as exc:         # the linter's own errors are validate's to report
        warnings = [d for d in exc.diagnostics if d.severity == "warning"]
    print_diagnostics(list(dict.fromkeys(warnings)))


def out(text: str = "") -> None:
    print(text, file=sys.stdout)


def err(text: str) -> None:
    print(text, file=sys.stderr)


def print_json(doc) -> None:
    sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


def source_line(file: str, line: int, cache: dict | None = None) -> str | None:
    """Line `line` (1-based) of a file, without its line break; None if it cannot be read."""
    cache = {} if cache is None else cache
    if file not in cache:
        cache[file] = read_lines(file, MAX_FILE_BYTES)     # bounded, like every read of a user's file
    lines = cache[file]
    if not lines or not 1 <= line <= len(lines):
        return None
    return lines[line - 1].rstrip("\r")


def caret_lines(file: str, line: int, col: int, cache: dict | None = None, width: int = 100) -> list:
    """The source line at a position and a caret under its column (long lines cut around it)."""
    text = source_line(file, line, cache)
    if text is None or not text.strip():
        return []
    col = max(1, min(col, len(text) + 1))
    start = 0
    if len(text) > width:
        start = max(0, min(col - 1 - width // 2, len(text) - width))
    shown = text[start:start + width]
    lead = "…" if start > 0 else ""
    tail = "…" if start + width < len(text) else ""
    under = "".join(ch if ch == "\t" else " " for ch in shown[:col - 1 - start])
    return [f"    {lead}{shown}{tail}", f"    {' ' * len(lead)}{under}^"]


def print_diagnostics(diagnostics: list) -> None:
    """Every diagnostic as file:line:col: message, then the line of the file with a caret under the
    column, then the hint on its own indented line."""
    files: dict = {}        # each file read once
    for d in diagnostics:
        label = "" if d.severity == "error" else f"{d.severity}: "
        err(f"{d.pos}: {label}{d.message}")
        if d.pos.line > 0 and d.pos.file != "--set":
            for text in caret_lines(d.pos.file, d.pos.line, d.pos.col, files):
                err(text)
        if d.hint:
            err(f"    hint: {d.hint}")


def console(stderr: bool = False):
    return Console(file=sys.stderr if stderr else sys.stdout, highlight=False)


def players_text(lo: int, hi: int) -> str:
    return f"{lo} player{'s' if lo != 1 else ''}" if lo == hi else f"{lo}–{hi} players"


# ---- commands ----
def check_ruleset(args):
    """Every stage, every player count, then the linter: (game or None, errors, warnings, exit status).

    Errors a ruleset cannot be checked past (an unreadable file) are raised, unless --json asks for
    them as diagnostics."""
    errors, warnings, game, status, n = [], [], None, 0, None
    try:
        game = load_game(args.ruleset, overrides_of(args))
        for n in range(game.rules.min_players, game.rules.max_players + 1):
            game.program(n)
        n = None
        warnings = file_warnings(args.ruleset, overrides_of(args), game)
    except RulesetError as exc:
        for d in exc.diagnostics:
            (warnings if d.severity == "warning" else errors).append(d)
    except CardrulesError as exc:
        if not args.json:
            raise
        pos = getattr(exc, "pos", None) or Pos(args.ruleset, 1, 1)
        if isinstance(exc, UsageError):
            code, hint = "unreadable", "check the path, and that the file is UTF-8 text"
        elif isinstance(exc, RuleRuntimeError):
            code, hint = "compile", f"this happens with {n} players" if n is not None else ""
        else:
            code, hint = "runtime", ""
        errors.append(Diagnostic(pos, str(exc).removeprefix(f"{pos}: "), code, hint))
        status = exc.exit_code
    if errors and not status:
        status = 1
    if not errors and warnings and args.strict:
        status = 1
    return game, errors, warnings, status


def report_json(errors: list, warnings: list) -> None:
    """The one JSON document of validate and lint: status error, warning or ok."""
    print_json({"status": "error" if errors else "warning" if warnings else "ok",
                "errors": [d.to_json() for d in errors],
                "warnings": [d.to_json() for d in warnings]})


def checked_and_reported(args) -> tuple:
    """check_ruleset, then its JSON document (--json) or its diagnostics: (game, errors, warnings, status)."""
    game, errors, warnings, status = check_ruleset(args)
    if args.json:
        report_json(errors, warnings)
    else:
        print_diagnostics(errors + warnings)
    return game, errors, warnings, status


def cmd_validate(args) -> int:
    """Check a ruleset through every stage and every player count; lint it."""
    game, errors, warnings, status = checked_and_reported(args)
    if args.json:
        return status
    if errors:
        err(f"{args.ruleset}: {plural(len(errors), 'error')}")
        return status
    if warnings and args.strict:
        err(f"{args.ruleset}: {plural(len(warnings), 'warning')} (--strict: warnings fail)")
        return status
    rules = game.rules
    more = f", {plural(len(warnings), 'warning')}" if warnings else ""
    out(f"{args.ruleset}: ok ({game.name}, {players_text(rules.min_players, rules.max_players)}){more}")
    return 0


def cmd_lint(args) -> int:
    """Check a ruleset like validate, and report what its rules cannot do (warnings)."""
    _, errors, warnings, status = checked_and_reported(args)
    if args.json:
        return status
    if errors:
        err(f"{args.ruleset}: {plural(len(errors), 'error')}")
    elif warnings:
        strict = " (--strict: warnings fail)" if args.strict else ""
        out(f"{args.ruleset}: {plural(len(warnings), 'warning')}{strict}")
    else:
        out(f"{args.ruleset}: no warnings")
    return status


def cmd_schema(args) -> int:
    """Print the ruleset JSON schema."""
    try:
        with open(SCHEMA_PATH, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise UsageError(f"{SCHEMA_PATH}: cannot read the schema: {exc.strerror or exc}") from None
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def progress_lines(total: int, start: float):
    """A progress callback that prints a line to stderr after every tenth of the games."""
    step = max(1, total // 10)

    def report(done: int) -> None:
        if done % step and done != total:
            return
        spent = time.perf_counter() - start
        left = spent / done * (total - done)
        print(f"simulate: {done}/{total} games, {spent:.0f} s" + (f", about {left:.0f} s left" if left >= 1 else ""),
              file=sys.stderr, flush=True)
    return report


def cmd_simulate(args) -> int:
    """Bot games in bulk, reduced to statistics."""
    game = load(args)
    game.check_players(args.players)
    names = bot_list(args.bots, args.players)
    if args.progress:                   # plain lines, for a log or a pipe
        stats = simulate.simulate(game, args.players, args.games, args.seed, names,
                         progress=progress_lines(args.games, time.perf_counter()))
    elif sys.stderr.isatty():           # a bar on the terminal (stdout stays clean for --json)
        with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=console(stderr=True), transient=True) as bar:
            task = bar.add_task("games", total=args.games)
            stats = simulate.simulate(game, args.players, args.games, args.seed, names,
                             progress=lambda done: bar.update(task, completed=done))
    else:
        stats = simulate.simulate(game, args.players, args.games, args.seed, names)
    if args.json:
        print_json(stats)
        return 0
    # Text, not a markup string: a name such as "[bold]x[/]" is shown as written
    table = Table(title=Text(f"{game.name}: {args.games} games, {args.players} players, seed {args.seed}"))
    table.add_column("seat", justify="right")
    table.add_column("bot")
    table.add_column("mean score", justify="right")
    table.add_column("sd", justify="right")
    table.add_column("win share", justify="right")
    score = stats["score"]
    for k in range(args.players):
        table.add_row(str(k), Text(names[k]), f"{score['mean_by_seat'][k]:.2f}", f"{score['sd_by_seat'][k]:.2f}",
                      f"{stats['wins_by_seat'][k]:.1%}")
    console().print(table)
    for key in ("turns", "moves"):
        s = stats[key]
        out(f"{key}: {s['mean']:.1f} ± {s['sd']:.1f} (min {s['min']} – max {s['max']})")
    out(f"{stats['games']} games in {stats['seconds']:.2f} s: {stats['games_per_second']:.1f} games/s")
    return 0


def cmd_record(args) -> int:
    """One bot game as a JSON record: dealt with S and seat k's bot seeded with rng.derive(S, k), or
    with --game G game G of `simulate --seed S` (its deal and bot seeds as simulate derives them)."""
    game = load(args)
    game.check_players(args.players)
    names = bot_list(args.bots, args.players)
    if args.game is None:
        deal, bots = args.seed, [make_bot(name, rng.derive(args.seed, k)) for k, name in enumerate(names)]
    else:
        deal = simulate.game_seed(args.seed, args.game)
        bots = [make_bot(name, simulate.bot_seed(args.seed, args.game, k)) for k, name in enumerate(names)]
    record = records.make_record(game, args.players, deal, bots, names)
    text = json.dumps(record, indent=1, ensure_ascii=False) + "\n"
    if args.output in (None, "-"):
        sys.stdout.write(text)
        return 0
    try:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise UsageError(f"{args.output}: cannot write the record: {exc.strerror or exc}") from None
    r = record["result"]
    err(f"wrote {args.output}: {len(record['moves'])} moves, scores {r['scores']}, winners {r['winners']}")
    return 0


MAX_RECORD_BYTES = 20_000_000     # a record of a long game is some 100 kB; no game makes 200 times that


def read_record(path: str) -> dict:
    try:
        record = json.loads(read_text(path, MAX_RECORD_BYTES, "record"))
    except RulesetError as exc:         # too large, or not UTF-8 (at the line and column of the first bad byte)
        raise UsageError(str(exc.diagnostics[0])) from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}:{exc.lineno}:{exc.colno}: the record is not JSON: {exc.msg}") from None
    except RecursionError:              # json recurses once per level of [ and {
        raise RecordError(f"{path}: the record nests lists or mappings too deeply to be a record") from None
    except ValueError:                  # a number longer than Python reads (JSON's own errors are caught above)
        raise RecordError(f"{path}: the record holds a number with more digits than any field takes") from None
    if not isinstance(record, dict) or record.get("format") != records.FORMAT:
        raise UsageError(f"{path}: not a cardrules record (expected \"format\": \"{records.FORMAT}\")")
    return record


def checked_record(path: str) -> dict:
    """The record file, its structure checked (record_check) before anything is replayed."""
    record = read_record(path)
    try:
        record_check.check_record(record)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None
    return record


def record_overrides_at(exc: RulesetError, record_path: str) -> RulesetError:
    """The checker's --set:1:1 errors about a record's overrides, placed at the record's field."""
    here = Pos(f"{record_path}: field 'overrides'", 0, 0)
    return RulesetError([replace(d, pos=here) if d.pos.file == "--set" else d
                         for d in exc.diagnostics])


def replay_game(args, record: dict):
    """The game a record is replayed with: its ruleset (or --ruleset), its overrides, the same file."""
    path = args.ruleset or record_check.find_ruleset(record.get("ruleset"), args.record)
    overrides = record.get("overrides") or {}
    try:
        game = load_game(path, overrides, limits_of(args))
    except RulesetError as exc:
        raise record_overrides_at(exc, args.record) from None
    if record.get("sha256") != game.sha256:
        if not args.any_ruleset:
            raise RecordError(f"{args.record}: {path} is not the ruleset the record was made with (sha256 "
                              "differs); replay it with the same file, or pass --any-ruleset to replay anyway")
        err(f"warning: {path} is not the file the record was made with (sha256 differs); replaying anyway")
    print_warnings(path, overrides, game)
    return game


def cmd_replay(args) -> int:
    """Re-play a record and check that every move is legal and the result is the same."""
    record = checked_record(args.record)
    game = replay_game(args, record)
    try:
        result = records.replay(game, record)
    except RecordError as exc:
        raise RecordError(f"{args.record}: {exc}") from None
    want = record["result"]
    got = {"scores": result["scores"], "winners": result["winners"]}
    if [want["scores"], want["winners"]] != [got["scores"], got["winners"]]:
        err(f"replay differs: the record says scores {show(want['scores'])}, winners {show(want['winners'])}; "
            f"the replay gives scores {show(got['scores'])}, winners {show(got['winners'])}")
        return 1
    out(f"replay ok: {len(record['moves'])} moves, {result['turns']} turns, "
        f"scores {show(got['scores'])}, winners {show(got['winners'])}")
    return 0


def cmd_bench(args) -> int:
    """Bot games on one core for about T seconds; the last line is 'N games/s'."""
    game = load(args)
    game.check_players(args.players)
    names = bot_list(args.bots, args.players)
    out(f"{game.name} ({args.ruleset}), {args.players} players, bots {','.join(names)}: "
        f"playing for {args.seconds:g} s")
    sys.stdout.flush()
    game.program(args.players)
    games, start = 0, time.perf_counter()
    while True:
        bots = [make_bot(name, rng.derive(games, k)) for k, name in enumerate(names)]
        records.play_game(game, args.players, rng.derive(0, games), bots)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= args.seconds:
            break
    out(f"{games / elapsed:.1f} games/s")
    return 0


def cmd_play(args) -> int:
    """Play in the terminal; seats without --seat K=BOT are human."""
    game = load(args)
    game.check_players(args.players)
    seat_bots = {}
    for seat, name in args.seat or []:
        if seat >= args.players:
            raise UsageError(f"--seat {seat}={name}: seats are 0 to {args.players - 1}")
        seat_bots[seat] = check_bot(name)
    seed = args.seed
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    if hasattr(sys.stdin, "reconfigure"):    # a line that is not UTF-8 is refused as a move, not a crash
        sys.stdin.reconfigure(errors="replace")
    play.play(game, args.players, seed, seat_bots, console=console(), memory_aid=args.memory_aid)
    return 0


# ---- the parser ----
class Shared(NamedTuple):
    """The option sets several commands share (argparse parents)."""

    common: argparse.ArgumentParser     # every command: --debug
    ruleset: argparse.ArgumentParser    # RULESET and --set
    players: argparse.ArgumentParser    # --players
    bots: argparse.ArgumentParser       # --bots
    limits: argparse.ArgumentParser     # the run-time guards (engine.Limits)


def shared_options() -> Shared:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="show the full traceback of an internal error")
    ruleset = argparse.ArgumentParser(add_help=False)
    ruleset.add_argument("ruleset", metavar="RULESET", help="the ruleset file (YAML)")
    ruleset.add_argument("--set", metavar="NAME=VALUE", type=set_option, action="append",
                         help="replace a parameter for this run (VALUE is YAML; NAME.PLAYERS=VALUE replaces "
                              "one row of a player-count table); repeatable")
    bots = argparse.ArgumentParser(add_help=False)
    bots.add_argument("--bots", default="random", metavar="NAME[,NAME…]",
                      help=f"one bot for every seat, or one per seat in seat order (default random; known: "
                           f"{known_bots()})")
    players = argparse.ArgumentParser(add_help=False)
    players.add_argument("--players", "-n", type=positive_int, required=True, metavar="N",
                         help="number of players")
    return Shared(common, ruleset, players, bots, limit_options())


def limit_options() -> argparse.ArgumentParser:
    """--max-steps, --max-loops, --max-turns and --max-moves, with the defaults of engine.Limits."""
    D = DEFAULT_LIMITS
    limits = argparse.ArgumentParser(add_help=False)
    group = limits.add_argument_group("run-time guards (a ruleset that passes one stops with an error naming the rule)")
    group.add_argument("--max-steps", type=positive_int, metavar="N",
                       help=f"rule steps between two decisions (default {D.steps:,})")
    group.add_argument("--max-loops", type=positive_int, metavar="N",
                       help=f"rounds of one while loop with no decision in it (default {D.loops:,})")
    group.add_argument("--max-turns", type=positive_int, metavar="N", help=f"turns in one game (default {D.turns:,})")
    group.add_argument("--max-moves", type=positive_int, metavar="N",
                       help=f"legal moves of one decision (default {D.moves:,})")
    return limits


def build_parser() -> argparse.ArgumentParser:
    shared = shared_options()
    parser = argparse.ArgumentParser(prog=PROG, parents=[shared.common],
                                     description="A rules interpreter for card games written as YAML rulesets.",
                                     epilog="exit codes: 0 ok, 1 invalid ruleset or failed check, "
                                            "2 usage error or unreadable file, 3 internal error")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    add_check_commands(sub, shared)
    add_game_commands(sub, shared)
    return parser


def add_check_commands(sub, shared: Shared) -> None:
    """validate, lint and schema."""
    common, ruleset = shared.common, shared.ruleset
    p = sub.add_parser("validate", parents=[common, ruleset],
                       help="check a ruleset and report every problem (errors, and the linter's warnings)")
    p.add_argument("--json", action="store_true", help="print one JSON object: status, errors, warnings")
    p.add_argument("--strict", action="store_true", help="fail (exit 1) on warnings too")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("lint", parents=[common, ruleset],
                       help="check a ruleset and warn about rules that cannot do what they seem to")
    p.add_argument("--json", action="store_true", help="print one JSON object: status, errors, warnings")
    p.add_argument("--strict", action="store_true", help="fail (exit 1) on warnings too")
    p.set_defaults(func=cmd_lint)

    p = sub.add_parser("schema", parents=[common], help="print the ruleset JSON schema")
    p.set_defaults(func=cmd_schema)


def add_game_commands(sub, shared: Shared) -> None:
    """simulate, record, replay, bench and play."""
    common, ruleset, players, bots, limits = shared
    p = sub.add_parser("simulate", parents=[common, ruleset, players, bots, limits],
                       help="play many bot games and print statistics")
    p.add_argument("--games", "-g", type=positive_int, default=100, metavar="G", help="games (default 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="seed of the run (default 0); game g uses rng.derive(S, g)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--progress", action="store_true",
                   help="print a progress line to stderr after every tenth of the games (on a terminal "
                        "a progress bar shows anyway)")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("record", parents=[common, ruleset, players, bots, limits],
                       help="play one bot game and write its record (JSON)")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="deal seed (default 0); seat k's bot is seeded with rng.derive(S, k)")
    p.add_argument("--game", type=non_negative_int, metavar="G",
                   help="play game G (from 0) of `simulate --seed S` again, move for move: its deal and bot "
                        "seeds as simulate derives them (the record's seed is that game's deal seed)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the record here (default stdout)")
    p.set_defaults(func=cmd_record)

    p = sub.add_parser("replay", parents=[common, limits], help="replay a record and check its moves and result")
    p.add_argument("record", metavar="RECORD", help="a record written by `cardrules record`")
    p.add_argument("--ruleset", metavar="PATH",
                   help="the ruleset to replay with (default: the .yaml/.yml file the record names, found "
                        "under the current directory or next to the record)")
    p.add_argument("--any-ruleset", action="store_true",
                   help="replay even when the ruleset is not the file the record was made with (sha256 differs)")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("bench", parents=[common, ruleset, players, bots, limits],
                       help="measure games per second on one core")
    p.add_argument("--seconds", "-t", type=positive_float, default=5.0, metavar="T",
                   help="play for about T seconds (default 5)")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("play", parents=[common, ruleset, players, limits], help="play in the terminal against bots")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="deal seed (default: a random one)")
    p.add_argument("--seat", type=seat_option, action="append", metavar="K=BOT",
                   help=f"seat K (from 0) is played by a bot ({known_bots()}); other seats are human; "
                        "repeatable")
    p.add_argument("--memory-aid", action="store_true",
                   help="show your seat's whole perfect-memory knowledge (cards known to be in hidden zones, "
                        "the overview o) even when the ruleset's display.knowledge is faces")
    p.set_defaults(func=cmd_play)


def main(argv: list | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:          # argparse: --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    debug = getattr(args, "debug", False)
    try:
        return args.func(args) or 0
    except RulesetError as exc:
        print_diagnostics(exc.diagnostics)
        return exc.exit_code
    except CardrulesError as exc:
        err(f"error: {exc}")
        pos = getattr(exc, "pos", None)
        if pos is not None and pos.line > 0:
            for text in caret_lines(pos.file, pos.line, pos.col):
                err(text)
        return exc.exit_code
    except KeyboardInterrupt:
        err("interrupted")
        return 130
    except BrokenPipeError:            # e.g. `cardrules schema | head`
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0
    except Exception as exc:           # a bug in cardrules, not the user's mistake
        if debug:
            traceback.print_exc()
        err(f"internal error: {type(exc).__name__}: {exc}")
        err("this is a bug in cardrules; please report it with the command you ran"
            + ("" if debug else " (add --debug for the full traceback)"))
        return 3
