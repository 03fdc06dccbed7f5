"""The command line's argument types and the option sets several commands share, and loading the
ruleset a command runs (its validate warnings printed once to stderr)."""
from __future__ import annotations

import argparse
import os
from dataclasses import replace
from typing import NamedTuple

from .. import load_game
from ..compiler.game import file_warnings
from ..errors import RulesetError, UsageError
from ..frontend.loader import load_value
from ..runtime.engine import DEFAULT_LIMITS
from ..seats.registry import BOTS, for_game, parse_bot, ruleset_options
from ..seats.specs import split_seats
from .output import print_diagnostics


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
    """K=BOT: seat K (from 0) is played by the named bot (BOT may carry options: 1=automa:samples=8)."""
    seat, eq, name = text.partition("=")
    if not eq or not seat.strip().isdigit() or not name.strip():
        raise argparse.ArgumentTypeError(f"'{text}' is not SEAT=BOT (e.g. 1=greedy or 1=automa:samples=8)")
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


def check_bot(spec: str, given: dict | None = None) -> str:
    """A bot spec's canonical text (NAME or NAME:KEY=VALUE,…) with the options a ruleset gives that
    bot (`given`: bot_options of the game) where the spec gives none, or a UsageError with "did you mean"."""
    text = parse_bot(spec).text
    return for_game(text, given) if given else text


def bot_options(game) -> dict:
    """The options the game's ruleset gives its bots ({bot: {option: value}}; none without a game),
    checked against the bots; a RulesetError with every one that is wrong, at its place in the file."""
    if game is None:
        return {}
    values, problems = ruleset_options(game.rules.bot_options)
    if problems:
        raise RulesetError(problems)
    return values


def seat_bots(seats: list | None, players: int, game) -> dict:
    """--seat K=BOT, repeated: {seat: the bot's canonical spec}; a seat out of range is a UsageError."""
    bots, given = {}, bot_options(game)
    for seat, name in seats or []:
        if seat >= players:
            raise UsageError(f"--seat {seat}={name}: seats are 0 to {players - 1}")
        bots[seat] = check_bot(name, given)
    return bots


def bot_list(spec: str, players: int, game) -> list:
    """--bots NAME[:KEY=VALUE,…][,NAME…]: one bot for every seat, or exactly one per seat in seat
    order; each as its canonical spec with the game's bot options (what records and results store)."""
    given = bot_options(game)
    names = [check_bot(s, given) for s in split_seats(spec)]
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise UsageError(f"--bots names {len(names)} bots for {players} players: give one name for every "
                         f"seat or exactly one per seat (known bots: {known_bots()})")
    return names


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
    bots.add_argument("--bots", default="random", metavar="NAME[:KEY=VALUE,…][,NAME…]",
                      help=f"one bot for every seat, or one per seat in seat order, each with its options "
                           f"(automa:samples=8,greedy); default random; known: {known_bots()} (`cardrules bots` "
                           "lists their options); a bot of your own: path/to/mybot.py:ClassName or "
                           "package.module:ClassName (docs/bots.md)")
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


def add_scale_options(p) -> None:
    """--jobs and --dask: where a batch's games are played."""
    cores = usable_cores()
    p.add_argument("--jobs", "-j", type=positive_int, default=None, metavar="N",
                   help=f"play on N cores (default: every core this process may use, here {cores}); --jobs 1 "
                        "plays in this process; the numbers are the same for every N")
    p.add_argument("--dask", metavar="ADDRESS",
                   help="play on a Dask cluster: a scheduler's address (tcp://HOST:8786), or `local` for a "
                        "LocalCluster of --jobs workers on this machine (pip install -e '.[dask]')")


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
