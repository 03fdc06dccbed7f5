"""Records: one game as JSON (every random outcome, every move in canonical text, the result).

A game not over yet (kept by `play -o` as it goes) has the result null; `replay` says so, and
`continue_game` plays its moves again from its seed, its bots choosing again, so that it goes on
exactly as if it had never stopped."""
from __future__ import annotations

from ..errors import IllegalMove, RecordError, UsageError
from ..compiler.game import Game
from ..runtime import rng
from ..runtime.engine import DECIDE
from ..seats.bots import RandomBot
from ..seats.registry import BOTS, is_code, is_known_name, make_bot, parse_bot
from .observe import chooser
from .record_check import FORMAT, check_record
from .safe_text import clipped, quoted

HUMAN = "human"      # a human's seat in a record's `bots`


def play_game(game: Game, players: int, seed: int, bots: list, record: bool = False, log: bool = False):
    """Play one game with one bot per seat; returns (program, final state, [(seat, move text)])."""
    program = game.program(players)
    # bots that play from their seat's view read it from the events, so those are kept
    log = log or any(getattr(b, "uses_view", False) for b in bots)
    st = program.new_state(seed, log=log, record=record)
    moves = []
    ask = [chooser(program, st, b) for b in bots]
    program.play_out(st, ask, moves if record else None, draws=RandomBot.draws(ask))
    return program, st, moves


def make_record(game: Game, players: int, seed: int, bots: list, bot_names: list) -> dict:
    """Play one game and return its record."""
    program, st, moves = play_game(game, players, seed, bots, record=True)
    return record_fields(game, program, st, seed, bot_names, moves)


def record_fields(game: Game, program, st, seed: int, bot_names: list, moves: list) -> dict:
    """The record of a game as it stands (st made with record=True): the result null until it is over."""
    return {
        "format": FORMAT,
        "ruleset": game.path,
        "sha256": game.sha256,
        "overrides": game.overrides,
        "players": program.players,
        "seed": seed,
        "bots": bot_names,
        "chance": [{"zone": program.zone_names[z], "order": [program.type_names[t] for t in order]}
                   for z, order in st.chance],
        "moves": [{"seat": seat, "move": text} for seat, text in moves],
        "result": program.result(st) if st.over else None,
    }


def moves_of(program, log: list) -> list:
    """[(seat, canonical text)] of every move in a game's event log."""
    decisions = program.decisions
    return [(e[1], decisions[e[2]].text(e[3])) for e in log if e[0] == DECIDE]


def kept_record(game: Game, program, st, seed: int, bot_names: list) -> dict:
    """The record of a game being played (st made with log=True and record=True)."""
    return record_fields(game, program, st, seed, bot_names, moves_of(program, st.log))


def replay(game: Game, record: dict) -> dict | None:
    """Re-apply a record's outcomes and moves; returns the result (None for a game not over yet, whose
    record has the result null), raises RecordError where it differs."""
    check_record(record)
    players = checked_players(game, record)
    moves = [(m["seat"], m["move"]) for m in record["moves"]]
    program = game.program(players)
    st = program.new_state(record.get("seed", 0), script=recorded_chance(program, record))
    for i, (seat, text) in enumerate(moves, 1):
        program.play(st, recorded_move(program, st, i, seat, text))
    return ended(program, st, record)


def checked_players(game: Game, record: dict) -> int:
    """The record's number of players, one the game is for."""
    players = record["players"]
    lo, hi = game.rules.min_players, game.rules.max_players
    if not lo <= players <= hi:
        raise RecordError(f"field 'players': {game.name} is for {lo} to {hi} players, not {players}")
    return players


def recorded_chance(program, record: dict) -> list:
    """The record's shuffles as (zone, card types bottom to top), in the program's numbers."""
    zone_of = {name: z for z, name in enumerate(program.zone_names)}
    script = []
    for i, entry in enumerate(record.get("chance", [])):
        zone, order = entry["zone"], entry["order"]
        if zone not in zone_of or any(t not in program.type_index for t in order):
            raise RecordError(f"field 'chance[{i}]': the record shuffles an unknown zone or card type "
                              f"(in {quoted(zone)})")
        script.append((zone_of[zone], [program.type_index[t] for t in order]))
    return script


def recorded_move(program, st, i: int, seat: int, text: str):
    """Move i of a record as the legal move it names; RecordError where the game differs."""
    if st.over:
        raise RecordError(f"move {i} {quoted(text)}: the game was already over")
    if st.decider != seat:
        raise RecordError(f"move {i} {quoted(text)}: it is seat {st.decider}'s decision, not seat {seat}'s")
    try:
        return program.parse_move(st, text)
    except IllegalMove as exc:
        raise RecordError(f"move {i} {quoted(text)} differs: {clipped(str(exc))}") from None


def ended(program, st, record: dict) -> dict | None:
    """The result of a replayed game, None when its record says it is not over (result null)."""
    moves = len(record["moves"])
    if record["result"] is None:
        if st.over:
            raise RecordError(f"the record says the game is not over (its result is null), but it is over after "
                              f"its {moves} moves")
        return None
    if not st.over:
        raise RecordError(f"the record ends after {moves} moves but the game is not over")
    return program.result(st)


def continue_game(game: Game, record: dict, trust: bool = False) -> tuple:
    """A game not over yet, played again up to where its record stops: (program, state, {seat: bot}).

    The deal is the record's seed and seat k's bot is seeded with rng.derive(seed, k), as in `play`;
    every recorded bot move is chosen again by its bot (so the bots carry on exactly as they would
    have), and every shuffle must come out as the record says. A bot from a file or a module is
    loaded only with `trust` (the user's word: a record is untrusted input)."""
    check_record(record)
    players = checked_players(game, record)
    names = seat_names(record, players, trust)
    if "seed" not in record:
        raise RecordError("the record has no field 'seed': a game goes on from the seed it was dealt with")
    program = game.program(players)
    seed, want = record["seed"], recorded_chance(program, record)
    bots = {k: make_bot(name, rng.derive(seed, k)) for k, name in enumerate(names) if name != HUMAN}
    st = program.new_state(seed, log=True, record=True)
    checked = same_shuffles(program, st, want, 0)
    for i, m in enumerate(record["moves"], 1):
        move = recorded_move(program, st, i, m["seat"], m["move"])
        if st.decider in bots:
            chosen = bots[st.decider].choose(program, st, program.legal_moves(st))
            if chosen != move:
                raise RecordError(f"move {i} {quoted(m['move'])}: seat {st.decider}'s bot "
                                  f"({names[st.decider]}) plays {quoted(program.move_text(st, chosen))} there: "
                                  "the record was not played with these bots and this seed")
        program.apply(st, move)
        checked = same_shuffles(program, st, want, checked)
    ended(program, st, record)
    if checked < len(want):
        raise RecordError(f"field 'chance' holds {len(want)} shuffles, but the game's {len(record['moves'])} moves "
                          f"make {checked}")
    return program, st, bots


def seat_names(record: dict, players: int, trust: bool = False) -> list:
    """Who plays each seat of a record: a bot's spec (its name, with its options if any) or "human".
    A bot from a file or a module is refused unless `trust`: loading it would run its code."""
    names = record.get("bots")
    if not isinstance(names, list) or len(names) != players:
        raise RecordError(f"field 'bots' must name who plays each of the {players} seats (a bot, or "
                          f"{quoted(HUMAN)}) to continue the game")
    for k, name in enumerate(names):
        if name == HUMAN:
            continue
        if not isinstance(name, str) or not (is_code(name) or is_known_name(name)):
            raise RecordError(f"field 'bots[{k}]': {quoted(name)} is neither a bot ({', '.join(sorted(BOTS))}) "
                              f"nor {quoted(HUMAN)}")
        if is_code(name) and not trust:
            raise RecordError(f"field 'bots[{k}]': seat {k} is played by {quoted(name)}, a bot from a file or "
                              "a module: going on would run its code. If you trust this record and that "
                              "code, pass --trust-bots")
        try:
            parse_bot(name)             # its options too: a record names each bot by its spec
        except UsageError as exc:
            raise RecordError(f"field 'bots[{k}]': {clipped(str(exc))}") from None
    return names


def same_shuffles(program, st, want: list, checked: int) -> int:
    """The shuffles after the first `checked` came out as the record says (the record's seed deals
    the same game); returns how many are checked now."""
    got = st.chance
    for i in range(checked, len(got)):
        if i >= len(want):
            raise RecordError(f"the game shuffles {program.zone_names[got[i][0]]} where the record has no more "
                              "shuffles (field 'chance'): the record was not played with this seed")
        if got[i] != want[i]:
            raise RecordError(f"field 'chance[{i}]': the shuffle of {program.zone_names[got[i][0]]} comes out "
                              "otherwise with the record's seed: the record was not played with this seed")
    return len(got)
