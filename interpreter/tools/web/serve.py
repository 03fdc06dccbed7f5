"""`cardrules serve`: a table in the browser for one game (RULESET --players N), or a record shown
move by move (a record file). The server is Starlette on uvicorn, bound to 127.0.0.1 unless --host
says otherwise."""
from __future__ import annotations

import importlib
import random
import socket

from ...errors import RecordError, UsageError
from ..options import load, positive_int, seat_bots as seats_of, seat_option, set_option
from ..records import HUMAN, continue_game
from ..output import err

LOCAL = ("127.0.0.1", "localhost", "::1")


def add_serve_command(sub, shared, kept) -> None:
    """serve: a web table, or the record viewer when the one argument is a record (.json); kept holds
    the command line's own readers and keepers of records (checked_record, replay_game, new_keeper)."""
    p = sub.add_parser("serve", parents=[shared.common, shared.limits],
                       help="a table in the browser (humans and bots), or a record shown move by move")
    p.add_argument("source", metavar="RULESET|RECORD", nargs="?",
                   help="the ruleset to play (YAML), or a game's record (JSON) to step through")
    p.add_argument("--players", "-n", type=positive_int, metavar="N", help="number of players (for a ruleset)")
    p.add_argument("--seat", type=seat_option, action="append", metavar="K=BOT",
                   help="seat K (from 0) is played by a bot on the server; other seats are human; repeatable")
    p.add_argument("--set", metavar="NAME=VALUE", type=set_option, action="append",
                   help="replace a parameter for this game (VALUE is YAML); repeatable")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="deal seed (default: a random one)")
    p.add_argument("--memory-aid", action="store_true",
                   help="show each seat its whole perfect-memory knowledge even when the ruleset shows faces only")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="keep the game's record in FILE as it goes (default: game-SEED.json here); an existing "
                        "FILE is not overwritten")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this "
                   "machine only)")
    p.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    p.add_argument("--resume", metavar="RECORD",
                   help="go on with the game kept in RECORD (by serve or play -o) at a new table, with its ruleset, "
                        "players, seed and seats; it is kept in RECORD (or in -o FILE)")
    p.add_argument("--ruleset", metavar="PATH", help="with a RECORD or --resume: the ruleset to use (default: the "
                   ".yaml/.yml file the record names, under the current directory or next to the record)")
    p.add_argument("--any-ruleset", action="store_true",
                   help="with a RECORD or --resume: go on even when the ruleset is not the file the record was made "
                        "with")
    p.set_defaults(func=lambda args: cmd_serve(args, kept))


def cmd_serve(args, kept) -> int:
    """Start the server; it runs until interrupted."""
    try:                # an optional extra: imported only when serve runs
        uvicorn = importlib.import_module("uvicorn")
        app_module = importlib.import_module(".app", __package__)
        viewer_module = importlib.import_module(".viewer_app", __package__)
    except ModuleNotFoundError as exc:
        raise UsageError(f"serve needs the web extra ({exc.name} is missing): pip install -e '.[web]'") from None
    if not 1 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: a port is 1 to 65535")
    if (args.source is None) == (args.resume is None):
        raise UsageError("serve needs a RULESET (with --players N), a RECORD to show, or --resume RECORD")
    check_free(args.host, args.port)            # before a record is written or a link printed
    if args.resume is not None:
        app, links = resumed_server(args, kept, app_module.table_app)
    elif args.source.lower().endswith(".json"):
        app, links = record_server(args, kept, viewer_module.viewer_app)
    else:
        app, links = table_server(args, kept, app_module.table_app)
    host = f"[{args.host}]" if ":" in args.host else args.host
    for who, path in links:
        print(f"{who}: http://{host}:{args.port}{path}", flush=True)
    if args.host not in LOCAL:
        err(f"warning: listening on {args.host}: anyone who can reach port {args.port} there can open the "
            "links (the spectator link shows the public view; each seat's link plays that seat)")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_max_size=app_module.MAX_MESSAGE * 4,
                h11_max_incomplete_event_size=16 * 1024, timeout_graceful_shutdown=2)
    return 0


def table_server(args, kept, table_app) -> tuple:
    """A new game's table: (app, [(who, path)])."""
    if args.players is None:
        raise UsageError("serve RULESET needs --players N")
    if args.ruleset is not None or args.any_ruleset:
        raise UsageError("--ruleset and --any-ruleset are for serve RECORD; serve RULESET names its ruleset")
    args.ruleset = args.source
    game = load(args)
    game.check_players(args.players)
    seat_bots = seats_of(args.seat, args.players, game)
    if len(seat_bots) == args.players:
        raise UsageError("every seat is a bot: serve is for humans (cardrules record plays bots alone)")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    keeper = kept.new_keeper(args.output or f"game-{seed}.json")
    table = importlib.import_module(".table", __package__).WebTable(game, args.players, seed, seat_bots, keeper=keeper, memory_aid=args.memory_aid)
    print(f"{game.name}, {args.players} players, seed {seed}; the record is kept in {keeper.path}", flush=True)
    return table_app(table), [(who, f"/t/{token}") for who, token in table.links()]


def resumed_server(args, kept, table_app) -> tuple:
    """A table going on with a kept game (as `play --resume`): (app, [(who, path)])."""
    for option, given in (("--players", args.players), ("--seat", args.seat), ("--set", args.set),
                          ("--seed", args.seed)):
        if given is not None:
            raise UsageError(f"{option}: --resume goes on with the game of {args.resume}, whose players, seed, "
                             "seats and parameters are in the record; drop it")
    record = kept.checked_record(args.resume)
    if record["result"] is not None:
        raise UsageError(f"{args.resume}: the game is over; nothing to go on with (cardrules serve {args.resume} "
                         "shows it)")
    game = kept.replay_game(args, record, args.resume, ("resume", "resuming"))
    keeper = kept.new_keeper(args.output or args.resume, args.resume)
    try:
        _, st, bots = continue_game(game, record)
    except RecordError as exc:
        raise RecordError(f"{args.resume}: {exc}") from None
    seat_bots = {k: name for k, name in enumerate(record["bots"]) if name != HUMAN}
    table = importlib.import_module(".table", __package__).WebTable(
        game, record["players"], record["seed"], seat_bots, keeper=keeper, start=(st, bots),
        memory_aid=args.memory_aid)
    print(f"{game.name}, {record['players']} players, going on after {len(record['moves'])} moves; the record is "
          f"kept in {keeper.path}", flush=True)
    return table_app(table), [(who, f"/t/{token}") for who, token in table.links()]


def record_server(args, kept, viewer_app) -> tuple:
    """A record's viewer: (app, [("record", "/")])."""
    for option, given in (("--players", args.players), ("--seat", args.seat), ("--set", args.set),
                          ("--seed", args.seed), ("-o", args.output)):
        if given is not None:
            raise UsageError(f"{option}: serve RECORD shows the game in the record; drop it")
    record = kept.checked_record(args.source)
    game = kept.replay_game(args, record, args.source, ("show", "showing"))
    try:
        view = importlib.import_module(".record_view", __package__).RecordView(game, record)
    except RecordError as exc:
        raise RecordError(f"{args.source}: {exc}") from None
    print(f"{args.source}: {game.name}, {record['players']} players, {len(record['moves'])} moves", flush=True)
    return viewer_app(view), [("record", "/")]


def check_free(host: str, port: int) -> None:
    """A usage error, before any link is printed, when the address cannot be listened on."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)     # as uvicorn binds
            probe.bind(address)
    except OSError as exc:
        raise UsageError(f"--host {host} --port {port}: cannot listen there: {exc.strerror or exc}") from None
