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

from .. import load_game
from ..compiler.game import file_warnings
from ..errors import CardrulesError, Diagnostic, Pos, RecordError, RuleRuntimeError, RulesetError, UsageError
from ..frontend.reading import read_text
from ..frontend.schema import SCHEMA_PATH
from ..runtime import rng
from ..runtime.decisions import show
from ..seats.registry import BOTS, listing, make_bot
from ..seats.specs import show_value
from . import play, playing, record_check, records
from .batch import add_batch_commands
from .variants import add_variant_commands
from .web.serve import add_serve_command
from .options import (Shared, bot_list, bot_options, check_bot, known_bots, limits_of, load, non_negative_int,  # noqa: F401
                      positive_float, positive_int, seat_bots as seats_of,
                      overrides_of, print_warnings, seat_option, set_option, shared_options)
from .output import caret_lines, console, err, out, players_text, print_diagnostics, print_json  # noqa: F401
from .play import plural
from .play.keeping import Keeper

PROG = "cardrules"


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
        if not args.json and not isinstance(exc, RuleRuntimeError):    # a rule that fails is a diagnostic
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
    lowest = ", the lowest score wins" if rules.lowest_wins else ""
    lowest += ", cooperative: the table wins or loses together" if rules.cooperative is not None else ""
    out(f"{args.ruleset}: ok ({game.name}, {players_text(rules.min_players, rules.max_players)}{lowest}){more}")
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






def cmd_bots(args) -> int:
    """Every bot with a one-line description and its options (kind, range, default, meaning); with a
    ruleset, the values it gives the bots (bots.options) in place of the defaults, marked."""
    given = bot_options(load(args)) if args.ruleset else {}
    for name, cls in listing():
        if isinstance(cls, CardrulesError):     # an installed package's bot that does not load
            out(f"{name}: cannot be loaded: {cls}")
            continue
        out(f"{name}: {((cls.__doc__ or '').strip().splitlines() or ['(no description)'])[0]}")
        mine = given.get(name, {}) if BOTS.get(name) is cls else {}
        for o in cls.options:
            value, mark = (mine[o.name], f"  [{args.ruleset}; default {show_value(o.default(cls))}]") \
                if o.name in mine else (o.default(cls), "")
            out(f"    {o.name}={show_value(value)}  ({o.kind_text()}): {o.doc}{mark}")
    out("Give options as NAME:KEY=VALUE,KEY=VALUE, e.g. --bots ismcts:iterations=400,automa:samples=8; "
        "a bot of your own as path/to/mybot.py:ClassName (docs/bots.md)")
    return 0


def cmd_record(args) -> int:
    """One bot game as a JSON record: dealt with S and seat k's bot seeded with rng.derive(S, k), or
    with --game G game G of `simulate --seed S` (its deal and bot seeds as simulate derives them)."""
    game = load(args)
    game.check_players(args.players)
    names = bot_list(args.bots, args.players, game)
    if args.game is None:
        deal, bots = args.seed, [make_bot(name, rng.derive(args.seed, k)) for k, name in enumerate(names)]
    else:
        deal = playing.game_seed(args.seed, args.game)
        bots = [make_bot(name, playing.bot_seed(args.seed, args.game, k)) for k, name in enumerate(names)]
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
    err(f"wrote {args.output}: {len(record['moves'])} moves, {outcome(game, r)}")
    return 0


def outcome(game, result: dict) -> str:
    """A finished game's result in words: the scores and winners, or the table's shared score and
    whether it won together."""
    if game.rules.cooperative is not None:
        return (f"shared score {show(result['scores'][0])}, the table "
                f"{'wins' if result['winners'] else 'loses'} together")
    return f"scores {show(result['scores'])}, winners {show(result['winners'])}"


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


def replay_game(args, record: dict, record_path: str, doing: tuple = ("replay", "replaying")):
    """The game a record is replayed (or resumed) with: its ruleset (or --ruleset), its overrides, the
    same file."""
    path = args.ruleset or record_check.find_ruleset(record.get("ruleset"), record_path)
    overrides = record.get("overrides") or {}
    try:
        game = load_game(path, overrides, limits_of(args))
    except RulesetError as exc:
        raise record_overrides_at(exc, record_path) from None
    if record.get("sha256") != game.sha256:
        if not args.any_ruleset:
            raise RecordError(f"{record_path}: {path} is not the ruleset the record was made with (sha256 "
                              f"differs); {doing[0]} it with the same file, or pass --any-ruleset to {doing[0]} anyway")
        err(f"warning: {path} is not the file the record was made with (sha256 differs); {doing[1]} anyway")
    print_warnings(path, overrides, game)
    return game


def cmd_replay(args) -> int:
    """Re-play a record and check that every move is legal and the result is the same."""
    record = checked_record(args.record)
    game = replay_game(args, record, args.record)
    try:
        result = records.replay(game, record)
    except RecordError as exc:
        raise RecordError(f"{args.record}: {exc}") from None
    if result is None:
        out(f"the game is not over: {plural(len(record['moves']), 'move')} replayed; continue it with "
            f"cardrules play --resume {args.record}")
        return 0
    want = record["result"]
    got = {"scores": result["scores"], "winners": result["winners"]}
    if [want["scores"], want["winners"]] != [got["scores"], got["winners"]]:
        err(f"replay differs: the record says scores {show(want['scores'])}, winners {show(want['winners'])}; "
            f"the replay gives scores {show(got['scores'])}, winners {show(got['winners'])}")
        return 1
    out(f"replay ok: {len(record['moves'])} moves, {result['turns']} turns, {outcome(game, got)}")
    return 0


def cmd_bench(args) -> int:
    """Bot games on one core for about T seconds; the last line is 'N games/s'."""
    game = load(args)
    game.check_players(args.players)
    names = bot_list(args.bots, args.players, game)
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
    """Play in the terminal; seats without --seat K=BOT are human. -o keeps the game as it goes,
    --resume continues a kept one."""
    if args.resume is not None:
        return resume_play(args)
    if args.trust_bots:
        raise UsageError("--trust-bots goes with --resume RECORD: it lets the record's bots from files or "
                         "modules run (bots given with --seat are loaded anyway)")
    if args.ruleset is None or args.players is None:
        raise UsageError("play needs a RULESET and --players N (or --resume RECORD to continue a kept game)")
    game = load(args)
    game.check_players(args.players)
    seat_bots = seats_of(args.seat, args.players, game)
    seed = args.seed
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    keeper = new_keeper(args.output)
    start_play(args, game, args.players, seed, seat_bots, keeper)
    return 0


def new_keeper(path, resumed: str | None = None):
    """The Keeper of `-o FILE` (None without -o): a file that exists is not overwritten, unless it is
    the record being resumed."""
    if path is None:
        return None
    if path == "-" or os.path.isdir(path):
        raise UsageError(f"-o {path}: play keeps the game in a file; name one (e.g. -o game.json)")
    same = resumed is not None and os.path.exists(path) and os.path.samefile(path, resumed)
    if os.path.exists(path) and not same:
        raise UsageError(f"{path} exists: continue the game in it with --resume {path}, or keep this one in "
                         "another file")
    return Keeper(path)


def start_play(args, game, players: int, seed: int, seat_bots: dict, keeper, start=None) -> None:
    """The terminal table: input that is not UTF-8 is refused as a move, not a crash."""
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")
    play.play(game, players, seed, seat_bots, console=console(), memory_aid=args.memory_aid, keeper=keeper,
              start=start)


def resume_play(args) -> int:
    """Continue the game kept in a record: its ruleset, players, seed and seats; kept in the same file
    (or in -o)."""
    for option, given in (("--players", args.players), ("--seed", args.seed), ("--seat", args.seat),
                          ("--set", args.set)):
        if given is not None:
            raise UsageError(f"{option}: --resume goes on with the game of {args.resume}, whose players, seed, "
                             "seats and parameters are in the record; drop it")
    record = checked_record(args.resume)
    if record["result"] is not None:
        raise UsageError(f"{args.resume}: the game is over ({plural(len(record['moves']), 'move')}, scores "
                         f"{show(record['result']['scores'])}); nothing to continue (cardrules replay "
                         f"{args.resume} checks it)")
    game = replay_game(args, record, args.resume, ("resume", "resuming"))
    keeper = new_keeper(args.output or args.resume, args.resume)
    out(f"{args.resume}: playing its {plural(len(record['moves']), 'move')} again …")
    try:
        _, st, bots = records.continue_game(game, record, args.trust_bots)
    except RecordError as exc:
        raise RecordError(f"{args.resume}: {exc}") from None
    seat_bots = {k: name for k, name in enumerate(record["bots"]) if name != records.HUMAN}
    start_play(args, game, record["players"], record["seed"], seat_bots, keeper, (st, bots))
    return 0


# ---- the parser ----


def build_parser() -> argparse.ArgumentParser:
    shared = shared_options()
    parser = argparse.ArgumentParser(prog=PROG, parents=[shared.common],
                                     description="A rules interpreter for card games written as YAML rulesets.",
                                     epilog="exit codes: 0 ok, 1 invalid ruleset or failed check, "
                                            "2 usage error or unreadable file, 3 internal error")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    add_check_commands(sub, shared)
    add_batch_commands(sub, shared)
    add_variant_commands(sub, shared)
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
    """record, replay, bench and play."""
    common, ruleset, players, bots, limits = shared
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

    add_play_command(sub, shared)
    add_serve_command(sub, shared, argparse.Namespace(checked_record=checked_record, replay_game=replay_game,
                                                      new_keeper=new_keeper))

    p = sub.add_parser("bots", parents=[common], help="list the bots and their options with their defaults")
    p.add_argument("ruleset", nargs="?", metavar="RULESET",
                   help="show the options this ruleset gives the bots (bots.options) in place of the defaults")
    p.set_defaults(func=cmd_bots, set=None)


def add_play_command(sub, shared: Shared) -> None:
    """play: RULESET and --players are optional here, as --resume takes them from the record."""
    p = sub.add_parser("play", parents=[shared.common, shared.limits], help="play in the terminal against bots")
    p.add_argument("ruleset", nargs="?", metavar="RULESET",
                   help="the ruleset file (YAML); with --resume, the ruleset to go on with (default: the one the "
                        "record names)")
    p.add_argument("--set", metavar="NAME=VALUE", type=set_option, action="append",
                   help="replace a parameter for this game (VALUE is YAML); repeatable")
    p.add_argument("--players", "-n", type=positive_int, metavar="N", help="number of players (required "
                   "unless --resume)")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="deal seed (default: a random one)")
    p.add_argument("--seat", type=seat_option, action="append", metavar="K=BOT",
                   help=f"seat K (from 0) is played by a bot ({known_bots()}); other seats are human; "
                        "repeatable")
    p.add_argument("--memory-aid", action="store_true",
                   help="show your seat's whole perfect-memory knowledge (cards known to be in hidden zones, "
                        "the overview o) even when the ruleset's display.knowledge is faces")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="keep the game in FILE as it goes: its record (as `replay` reads it) is rewritten after "
                        "every move, so a crash or q loses nothing; an existing FILE is not overwritten")
    p.add_argument("--resume", metavar="RECORD",
                   help="continue the game kept in RECORD (by play -o) with its ruleset, players, seed and "
                        "seats, exactly as if it had never stopped; it is kept in RECORD (or in -o FILE)")
    p.add_argument("--any-ruleset", action="store_true",
                   help="with --resume: go on even when the ruleset is not the file the record was made with "
                        "(sha256 differs)")
    p.add_argument("--trust-bots", action="store_true",
                   help="with --resume: load the record's bots that come from a file or a module (that runs "
                        "their code; a record alone never does)")
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
