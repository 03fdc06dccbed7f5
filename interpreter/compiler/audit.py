"""The setup audit: play the setup of every player count once and warn about moves that fell short.

A program compiled with an `Audit` reports, after every move and deal that names how many cards
it takes, how many it named and how many it moved (see StatementGen.report). Only validate and
lint compile such programs; the programs games run are compiled without one, so their code and
their speed stay as they are.
"""
from __future__ import annotations

from ..errors import CardrulesError, Diagnostic, Pos, RuleRuntimeError, RulesetError
from ..frontend.check.words import and_
from ..runtime.engine import RULE_FAILURES
from .build import compile_program

CODE = "setup-move-short"     # listed with the linter's codes (frontend/lint.py CODES)
SEED = 0                    # the audit's one game per player count
MAX_DECISIONS = 10_000      # decisions of the setup answered (each with its first legal move)


class Audit:
    """What the moves of the setup named and moved: rule position -> [(kind, named, moved, players)]."""

    def __init__(self):
        self.players = 0
        self.short: dict = {}
        self.runs: dict = {}

    def __call__(self, st, pos, kind: str, named, moved: int) -> None:
        if st.turn != 0:
            return          # the setup is over: the turns are not audited
        key = (pos, self.players)
        self.runs[key] = self.runs.get(key, 0) + 1
        if isinstance(named, int) and moved < named:
            self.short.setdefault(pos, []).append((kind, named, moved, self.players))


def setup_warnings(game) -> list:
    """A warning for every move or deal of the setup that moved fewer cards than it names.

    The setup's deterministic start is the same in every game, so its failure is an error
    (RulesetError); a failure after a shuffle or a decision is left for the game to report."""
    audit = Audit()
    for n in range(game.rules.min_players, game.rules.max_players + 1):
        audit.players = n
        program = compile_program(game.rules, n, game.limits, audit)
        try:
            program.initial()
        except RuleRuntimeError as exc:
            raise RulesetError([start_error(exc, n, game.path)]) from None
        play_setup(program)
    return [warning(pos, found, audit.runs) for pos, found in audit.short.items()]


def play_setup(program) -> None:
    """Run the setup once, each of its decisions answered with the first legal move."""
    try:
        st = program.new_state(SEED)
        for _ in range(MAX_DECISIONS):
            if st.over or st.turn != 0 or st.pending is None:
                return
            moves = program.legal_moves(st)
            if not moves:
                return
            program.apply(st, moves[0])
    except (CardrulesError, *RULE_FAILURES):
        return      # the game itself reports it, at the rule, when it is played


def start_error(exc: RuleRuntimeError, players: int, path: str) -> Diagnostic:
    """A failure of what runs before any shuffle or decision: the same in every game, so an error."""
    pos = exc.pos or Pos(path, 1, 1)
    return Diagnostic(pos, str(exc).removeprefix(f"{pos}: "), "compile",
                      f"this happens in every game with {players} players")


def warning(pos, found: list, runs: dict) -> Diagnostic:
    """One warning for a rule, with the numbers of its first shortfall and every player count it has."""
    kind, named, moved, players = found[0]
    counts = sorted({p for _, _, _, p in found})
    times = sum(1 for *_, p in found if p == players)
    total = runs[(pos, players)]
    often = "" if total == 1 else f", each of its {total} times" if times == total else f", {times} of its {total} times"
    also = f"; also with {and_([str(n) for n in counts[1:]])}" if counts[1:] else ""
    where = f"with {players} player{'s' if players != 1 else ''}{often}{also}"
    if kind == "deal":
        message = f"in the setup, this deal gave {moved} of the {named} cards it names ({where})"
        hint = "the pile holds fewer cards than the deal gives: deal fewer, or start more cards in it"
    elif kind == "filter":
        message = f"in the setup, this move found no card, though its where names cards by their values ({where})"
        hint = "no card has the values this rule looks for: check the values it compares with (a --set or " \
               "a variant may give one that no card has) and the card kinds' for lists"
    else:
        message = f"in the setup, this move moved {moved} of the {named} card{'s' if named != 1 else ''} " \
                  f"it names ({where})"
        hint = "the zone holds fewer cards than the rule takes: check the card counts" if kind == "top" else \
            "fewer cards than it takes meet its condition: check the values it looks for (a --set or a variant " \
            "may give one that no card has) and the card kinds' for lists"
    return Diagnostic(pos, message, CODE, hint, severity="warning")

