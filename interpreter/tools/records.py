"""Records: one game as JSON (every random outcome, every move in canonical text, the result)."""
from __future__ import annotations

from ..errors import IllegalMove, RecordError
from ..compiler.game import Game
from .record_check import FORMAT, check_record
from .safe_text import clipped, quoted


def play_game(game: Game, players: int, seed: int, bots: list, record: bool = False, log: bool = False):
    """Play one game with one bot per seat; returns (program, final state, [(seat, move text)])."""
    program = game.program(players)
    # bots that play from their seat's view read it from the events, so those are kept
    log = log or any(getattr(b, "uses_view", False) for b in bots)
    st = program.new_state(seed, log=log, record=record)
    moves = []
    while not st.over:
        legal = program.legal_moves(st)
        if not legal:
            raise program.stuck(st)
        move = bots[st.decider].choose(program, st, legal)
        if record:
            moves.append((st.decider, program.move_text(st, move)))
        program.apply(st, move)
    return program, st, moves


def make_record(game: Game, players: int, seed: int, bots: list, bot_names: list) -> dict:
    """Play one game and return its record."""
    program, st, moves = play_game(game, players, seed, bots, record=True)
    return {
        "format": FORMAT,
        "ruleset": game.path,
        "sha256": game.sha256,
        "overrides": game.overrides,
        "players": players,
        "seed": seed,
        "bots": bot_names,
        "chance": [{"zone": program.zone_names[z], "order": [program.type_names[t] for t in order]}
                   for z, order in st.chance],
        "moves": [{"seat": seat, "move": text} for seat, text in moves],
        "result": program.result(st),
    }


def replay(game: Game, record: dict) -> dict:
    """Re-apply a record's outcomes and moves; returns the result, raises RecordError where it differs."""
    check_record(record)
    players = record["players"]
    lo, hi = game.rules.min_players, game.rules.max_players
    if not lo <= players <= hi:
        raise RecordError(f"field 'players': {game.name} is for {lo} to {hi} players, not {players}")
    chance = [(entry["zone"], entry["order"]) for entry in record.get("chance", [])]
    moves = [(m["seat"], m["move"]) for m in record["moves"]]
    program = game.program(players)
    zone_of = {name: z for z, name in enumerate(program.zone_names)}
    script = []
    for i, (zone, order) in enumerate(chance):
        if zone not in zone_of or any(t not in program.type_index for t in order):
            raise RecordError(f"field 'chance[{i}]': the record shuffles an unknown zone or card type "
                              f"(in {quoted(zone)})")
        script.append((zone_of[zone], [program.type_index[t] for t in order]))
    st = program.new_state(record.get("seed", 0), script=script)
    for i, (seat, text) in enumerate(moves, 1):
        if st.over:
            raise RecordError(f"move {i} {quoted(text)}: the game was already over")
        if st.decider != seat:
            raise RecordError(f"move {i} {quoted(text)}: it is seat {st.decider}'s decision, not seat {seat}'s")
        try:
            program.play(st, program.parse_move(st, text))
        except IllegalMove as exc:
            raise RecordError(f"move {i} {quoted(text)} differs: {clipped(str(exc))}") from None
    if not st.over:
        raise RecordError(f"the record ends after {len(moves)} moves but the game is not over")
    return program.result(st)
