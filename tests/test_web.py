"""The web table (`cardrules serve`): each seat's page shows what that seat may see and no more,
only the deciding seat moves, a move is applied at most once, bad requests change nothing; and the
real server starts on 127.0.0.1 and stops. Driven through Starlette's TestClient (no sockets) but
for the last test; the real-browser tests are in test_web_browser.py (marker `browser`)."""
from __future__ import annotations

import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
import types
import urllib.error
import urllib.request

import pytest
import starlette  # noqa: F401  (the web extra: pip install -e '.[test,web]')

from interpreter.runtime import rng
from interpreter.seats.registry import make_bot
from interpreter.seats.worlds import determinise
from interpreter.tools import records
from interpreter.tools.play.keeping import Keeper
from interpreter.tools.web.app import MAX_BODY, MAX_MESSAGE
from interpreter.tools.web.public import PublicProgram
from interpreter.tools.web.table import PUBLIC
from web_helpers import ROOT, SHIPPED, Knowledge, client, game, named, new_table, play, tokens

BOT_FOR = {"sorting_memo": "memory"}        # the moves of the human seats, chosen well (short games)


def bot_choice(table, bots: dict, page: dict) -> int:
    """The index in the page's listed moves of the move the seat's stand-in bot chooses."""
    st, prog = table.st, table.program
    move = bots[st.decider].choose(prog, st, prog.legal_moves(st))
    return [m["text"] for m in page["decision"]["moves"]].index(prog.move_text(st, move))


def same_page_after_a_redeal(table, viewer, gen: random.Random, page: str) -> bool:
    """Whether the viewer's page is byte for byte the same when every card hidden from it is dealt
    again (the spectator: every card some seat cannot see)."""
    real = table.st
    if viewer is None:
        copy = determinise(PublicProgram(table.program), real, 0, gen, view=table.viewer_view(None))
    else:
        copy = determinise(table.program, real, viewer, gen, view=table.view(viewer))
    copy.log = real.log
    table.st = copy
    try:
        return json.dumps(table.page(viewer), ensure_ascii=False) == page
    finally:
        table.st = real


def checked_as_made(table, gen: random.Random) -> dict:
    """Check every page the table makes as it makes it: its log names no card whose face the viewer
    never saw, and the rest is the same after a redeal of what the viewer cannot see; {viewer: the
    texts of its pages}, for the messages sent to be found among them."""
    made: dict = {v: set() for v in table.viewers()}
    know = {v: Knowledge(table, PUBLIC if v is None else v) for v in table.viewers()}
    refresh = table.refresh

    def checking(viewers) -> None:
        refresh(viewers)
        for v in viewers:
            text = table.pages[v]
            page = json.loads(text)
            if not page["over"]:        # the end screen reveals every card, to everyone
                assert named("\n".join(page["log"]), know[v].unseen_faces()) == [], f"viewer {v}'s log leaks"
                assert same_page_after_a_redeal(table, v, gen, text), f"viewer {v}'s page depends on hidden cards"
            made[v].add(text)

    table.refresh = checking
    checking(table.viewers())
    return made


@pytest.mark.parametrize("name", SHIPPED)
def test_no_message_of_a_whole_game_shows_a_viewer_what_it_may_not_see(name):
    table = new_table(name, 2, seed=11)
    tok = tokens(table)
    made = checked_as_made(table, random.Random(3))
    viewer = {v: None if v == PUBLIC else v for v in tok}
    bots = {k: make_bot(BOT_FOR.get(name, "greedy"), rng.derive(5, k)) for k in (0, 1)}
    sent = 0
    with client(table) as c, contextlib.ExitStack() as stack:
        sockets = {v: stack.enter_context(c.websocket_connect(f"/ws/{tok[v]}")) for v in tok}
        pages = {v: c.get(f"/api/{tok[v]}/state").json() for v in tok}
        while not table.st.over:
            seat = table.st.decider
            answer = c.post(f"/api/{tok[seat]}/move", json={"version": pages[seat]["version"],
                                                          "move": bot_choice(table, bots, pages[seat])})
            assert answer.text in made[seat]
            if answer.json()["decision"] and answer.json()["decision"]["confirm"]:
                answer = c.post(f"/api/{tok[seat]}/confirm", json={"version": answer.json()["version"]})
                assert answer.text in made[seat]
            for v in tok:
                text = c.get(f"/api/{tok[v]}/state").text
                assert text in made[viewer[v]]
                pages[v] = json.loads(text)
                sent += 1
        for v, ws in sockets.items():          # every page pushed over the socket, up to the end's
            while True:
                text = ws.receive_text()
                assert text in made[viewer[v]]
                sent += 1
                if json.loads(text)["over"]:
                    break
    assert sent > 60 and all(len(texts) > 10 for texts in made.values())


def test_a_missing_or_wrong_token_gets_403():
    table = new_table("lixo")
    tok = tokens(table)
    wrong = tok[0][:-2] + ("aa" if not tok[0].endswith("aa") else "bb")
    with client(table) as c:
        for path in (f"/t/{wrong}", f"/api/{wrong}/state", "/api//state", "/", "/t/", "/api/state", f"/t/{'x' * 5000}"):
            assert c.get(path).status_code == 403, path
        assert c.post(f"/api/{wrong}/move", json={"version": 0, "move": 0}).status_code == 403
        with pytest.raises(Exception):
            with c.websocket_connect(f"/ws/{wrong}") as ws:
                ws.receive_text()
        assert c.get(f"/t/{tok[0]}").status_code == 200
        assert c.get(f"/t/{tok[PUBLIC]}").status_code == 200


def test_the_spectator_cannot_move():
    table = new_table("lixo")
    tok = tokens(table)
    with client(table) as c:
        r = c.post(f"/api/{tok[PUBLIC]}/move", json={"version": table.version, "move": 0})
        assert r.status_code == 403 and "spectator" in r.json()["error"]


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b"{\"move\": 0}", b"{\"version\": \"0\", \"move\": 0}",
                                  b"{\"version\": 0, \"move\": \"1\"}", b"{\"version\": 0, \"move\": 0, \"text\": \"x\"}",
                                  b"{\"version\": 0}", b"{\"version\": 0, \"move\": 0, \"extra\": 1}",
                                  b"{\"version\": 0, \"text\": \"\"}", b"\xff\xfe", b"[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]"])
def test_a_malformed_request_gets_400_and_changes_nothing(body):
    table = new_table("lixo")
    tok = tokens(table)
    page = table.page_of(0)
    with client(table) as c:
        r = c.post(f"/api/{tok[0]}/move", content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and r.json()["error"]
    assert table.page_of(0) == page


def test_a_request_over_the_size_limit_gets_413():
    table = new_table("lixo")
    tok = tokens(table)
    with client(table) as c:
        r = c.post(f"/api/{tok[0]}/move", json={"version": 0, "text": "x" * (MAX_BODY + 10)})
        assert r.status_code == 413


def test_a_socket_message_over_the_size_limit_closes_the_socket():
    table = new_table("lixo")
    tok = tokens(table)
    with client(table) as c, c.websocket_connect(f"/ws/{tok[0]}") as ws:
        assert json.loads(ws.receive_text())["viewer"] == 0
        ws.send_text("hello")
        assert "POST" in json.loads(ws.receive_text())["error"]
        ws.send_text("x" * (MAX_MESSAGE + 1))
        assert ws.receive()["code"] == 1009


def test_a_move_from_a_seat_that_is_not_deciding_is_refused_with_a_reason_and_changes_nothing(tmp_path):
    path = str(tmp_path / "g.json")
    table = new_table("lixo", keeper=Keeper(path))
    tok = tokens(table)
    other = 1 - table.st.decider
    pages, kept = dict(table.pages), open(path).read()
    with client(table) as c:
        r = c.post(f"/api/{tok[other]}/move", json={"version": table.version, "move": 0})
        assert r.status_code == 409 and f"seat {table.st.decider}'s decision" in r.json()["error"]
        r = c.post(f"/api/{tok[other]}/move", json={"version": table.version, "text": "pass"})
        assert r.status_code == 409
    assert table.pages == pages and open(path).read() == kept


def test_an_illegal_move_is_refused_with_a_reason_and_changes_nothing():
    table = new_table("lixo")
    tok = tokens(table)
    seat = table.st.decider
    pages, moves = dict(table.pages), table.st.moves
    with client(table) as c:
        r = c.post(f"/api/{tok[seat]}/move", json={"version": table.version, "move": 999})
        assert r.status_code == 422 and "no move 999" in r.json()["error"]
        r = c.post(f"/api/{tok[seat]}/move", json={"version": table.version, "text": "fly to the moon"})
        assert r.status_code == 422 and "not a legal move" in r.json()["error"]
    assert table.pages == pages and table.st.moves == moves


def test_a_move_typed_as_text_is_the_move_it_names():
    table = new_table("lixo", bots={1: "greedy"})
    tok = tokens(table)
    with client(table) as c:
        page = c.get(f"/api/{tok[0]}/state").json()
        text = page["decision"]["moves"][-1]["text"]
        r = c.post(f"/api/{tok[0]}/move", json={"version": page["version"], "text": text})
        assert r.status_code == 200
        page = r.json()
    said = page["decision"]["confirm"]["text"] if page["decision"] and page["decision"]["confirm"] else None
    assert said == text or any(text in line for line in page["log"])


def test_two_moves_sent_at_once_by_one_seat_are_applied_once():
    table = new_table("r_eco")
    tok = tokens(table)
    seat = table.st.decider
    version, moves = table.version, table.st.moves
    with client(table) as c:
        answers = []
        go = threading.Barrier(2, timeout=30)

        def send():
            go.wait()
            answers.append(c.post(f"/api/{tok[seat]}/move", json={"version": version, "move": 0}).status_code)

        threads = [threading.Thread(target=send) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not any(t.is_alive() for t in threads), "a move sent was never answered"
    assert sorted(answers) == [200, 409]
    assert table.st.moves + len(table.confirming) == moves + 1


def test_a_revealing_move_waits_for_confirmation_and_nobody_else_sees_it_before():
    table = new_table("lixo")
    tok = tokens(table)
    seat = table.st.decider
    others = {v: table.pages[v] for v in table.pages if v != seat}
    with client(table) as c:
        page = c.get(f"/api/{tok[seat]}/state").json()
        page = c.post(f"/api/{tok[seat]}/move", json={"version": page["version"], "move": 0}).json()
        assert page["decision"]["confirm"]["why"]
        assert {v: table.pages[v] for v in others} == others and table.st.moves == 0
        back = c.post(f"/api/{tok[seat]}/cancel", json={"version": page["version"]}).json()
        assert back["decision"]["confirm"] is None and table.st.moves == 0
        page = c.post(f"/api/{tok[seat]}/move", json={"version": back["version"], "move": 0}).json()
        c.post(f"/api/{tok[seat]}/confirm", json={"version": page["version"]})
    assert table.st.moves == 1 and all(table.pages[v] != others[v] for v in others)


def undoable_table():
    """A table (of a shipped ruleset) where the deciding seat has just made a move it may undo, with
    the pages before that move."""
    for name in SHIPPED:
        table = new_table(name, seed=4)
        tok = tokens(table)
        with client(table) as c:
            while not table.st.over:
                seat = table.st.decider
                page = json.loads(table.page_of(seat))
                before = dict(table.pages)
                for i in range(len(page["decision"]["moves"])):
                    got = c.post(f"/api/{tok[seat]}/move", json={"version": page["version"], "move": i}).json()
                    if got["decision"] and got["decision"]["undo"]:
                        return table, tok, seat, got, before
                    if got["decision"] and got["decision"]["confirm"]:
                        got = c.post(f"/api/{tok[seat]}/cancel", json={"version": got["version"]}).json()
                        page = got
                play(c, tok[seat], page, 0)
    raise AssertionError("no shipped ruleset has a move that can be undone in its first turns")


def test_undo_takes_back_a_move_that_revealed_nothing_and_nobody_else_saw_it():
    table, tok, seat, page, before = undoable_table()
    assert all(table.pages[v] == before[v] for v in before if v != seat)
    with client(table) as c:
        r = c.post(f"/api/{tok[seat]}/undo", json={"version": page["version"]})
        assert r.status_code == 200
        back = r.json()
    mine = json.loads(before[seat])
    assert back["log"] == mine["log"] and back["seats"] == mine["seats"]
    with client(table) as c:
        r = c.post(f"/api/{tok[seat]}/undo", json={"version": back["version"]})
        assert r.status_code == 409 and r.json()["error"].startswith("nothing to undo")


def test_the_record_is_kept_as_the_game_goes_and_the_end_screen_shows_the_score_in_parts(tmp_path):
    path = str(tmp_path / "g.json")
    table = new_table("lixo", seed=2, bots={1: "greedy"}, keeper=Keeper(path))
    tok = tokens(table)
    with client(table) as c:
        page = c.get(f"/api/{tok[0]}/state").json()
        page = play(c, tok[0], page, 0)
        record = json.load(open(path))
        assert record["result"] is None and record["moves"][0]["seat"] == 0
        while not page["over"]:
            page = play(c, tok[0], page, 0)
    record = json.load(open(path))
    assert records.replay(game("lixo"), record) == record["result"]
    result = page["result"]
    assert result["parts"]["title"] == "the score in parts"
    assert result["parts"]["rows"][-1][1:] == [str(s) for s in record["result"]["scores"]]
    assert result["winners"].startswith(("winner", "shared victory"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def first_lines(proc, n: int, seconds: float) -> list:
    """The first n lines the process prints, waited for at most `seconds` (a reader thread: a server
    that prints fewer fails the test, never hangs it)."""
    lines: list = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout.readline() for _ in range(n)), daemon=True)
    reader.start()
    reader.join(seconds)
    assert not reader.is_alive(), f"the server printed {len(lines)} of {n} lines in {seconds} s"
    return lines


def test_the_real_server_listens_on_127_0_0_1_with_one_link_per_human_seat_and_stops(tmp_path):
    port = free_port()
    cmd = [sys.executable, os.path.join(ROOT, "cli.py"), "serve", os.path.join(ROOT, "rulesets", "lixo.yaml"),
           "--players", "3", "--seat", "2=greedy", "--seed", "1", "--port", str(port), "-o", str(tmp_path / "g.json")]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        lines = first_lines(proc, 4, 60)
        links = {line.split(": ")[0]: line.split(": ")[1].strip() for line in lines[1:]}
        assert sorted(links) == ["seat 0", "seat 1", "spectator"]
        assert all(link.startswith(f"http://127.0.0.1:{port}/t/") for link in links.values())
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(links["seat 0"].replace("/t/", "/api/") + "/state", timeout=5) as r:
                    page = json.load(r)
                break
            except urllib.error.URLError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.2)
        assert page["viewer"] == 0 and page["players"] == 3
        with pytest.raises(urllib.error.HTTPError) as exc:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/nope/state", timeout=5)
        assert exc.value.code == 403
        from websockets.sync.client import connect
        with connect(links["seat 1"].replace("http://", "ws://").replace("/t/", "/ws/"), open_timeout=5) as ws:
            assert json.loads(ws.recv(timeout=5))["viewer"] == 1
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert proc.returncode is not None


def test_serve_refuses_a_table_of_bots_only_and_a_bad_port(monkeypatch, capsys):
    from interpreter.tools.cli import main
    from interpreter.tools.web import serve
    monkeypatch.setattr(serve, "check_free", lambda host, port: None)
    lixo = os.path.join(ROOT, "rulesets", "lixo.yaml")
    assert main(["serve", lixo, "--players", "2", "--seat", "0=random", "--seat", "1=random"]) == 2
    assert "every seat is a bot" in capsys.readouterr().err
    assert main(["serve", lixo, "--players", "2", "--port", "70000"]) == 2
    assert main(["serve", lixo, "--players", "2", "--port", "0"]) == 2
    assert "a port is 1 to 65535" in capsys.readouterr().err


def viewer_client(name: str = "lixo", seed: int = 3):
    from starlette.testclient import TestClient
    from interpreter.tools.web.record_view import RecordView
    from interpreter.tools.web.viewer_app import viewer_app
    record = records.make_record(game(name), 2, seed, [make_bot("greedy", 1), make_bot("random", 2)],
                                 ["greedy", "random"])
    return TestClient(viewer_app(RecordView(game(name), record))), record


def test_the_record_viewer_steps_through_a_record_from_the_public_view_or_any_seat():
    c, record = viewer_client()
    info = c.get("/api/record/info").json()
    assert info == {"game": "Lixo", "players": 2, "seats": ["greedy", "random"], "steps": len(record["moves"])}
    first = c.get("/api/record?step=0&view=public").json()
    last = c.get(f"/api/record?step={info['steps']}&view=1").json()
    assert first["moves"] == 0 and first["viewer"] is None and not first["over"]
    assert last["over"] and last["viewer"] == 1 and last["result"]["rows"]
    middle = c.get("/api/record?step=5&view=0").json()
    assert middle["moves"] == 5 and middle["turns"][5] == middle["turn"]
    assert c.get("/api/record?step=4&view=0").json()["log"] == middle["log"][:len(c.get(
        "/api/record?step=4&view=0").json()["log"])]


@pytest.mark.parametrize("query", ["step=-1", "step=99999", "step=x", "view=2", "view=-1", "view=everyone",
                                   "step=" + "9" * 50])
def test_the_record_viewer_answers_a_bad_step_or_view_with_400(query):
    c, _ = viewer_client()
    assert c.get(f"/api/record?{query}").status_code == 400


def test_the_record_viewers_public_view_shows_nothing_only_a_seat_saw():
    c, record = viewer_client("r_eco", 4)
    prog = game("r_eco").program(2)
    st = prog.new_state(record["seed"], log=True, script=records.recorded_chance(prog, record))
    know = Knowledge(types.SimpleNamespace(st=st, program=prog), PUBLIC)       # what it reads of a table
    view = c.app.state.view
    gen = random.Random(1)
    for i, m in enumerate(record["moves"][:40], 1):
        prog.apply(st, records.recorded_move(prog, st, i, m["seat"], m["move"]))
        page = c.get(f"/api/record?step={i}&view=public").json()
        assert named("\n".join(page["log"]), know.unseen_faces()) == []
        shown = json.dumps(view.page(None), ensure_ascii=False)
        assert same_page_after_a_redeal(view, None, gen, shown)


def serve_main(monkeypatch, tmp_path, *extra, args=None) -> list:
    """cardrules serve lixo (or serve ARGS) with uvicorn.run and the check that the port is free
    replaced by stand-ins (nothing binds): uvicorn.run's calls, each with the app it was given."""
    import uvicorn
    from interpreter.tools.cli import main
    from interpreter.tools.web import serve
    calls = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append({"app": app, **kw}))
    monkeypatch.setattr(serve, "check_free", lambda host, port: None)       # nothing binds, not even to try
    lixo = os.path.join(ROOT, "rulesets", "lixo.yaml")
    args = args or ["serve", lixo, "--players", "2", "--seat", "1=greedy", "-o", str(tmp_path / "g.json"), *extra]
    assert main(args) == 0
    return calls


def test_serve_binds_127_0_0_1_unless_host_says_otherwise_and_then_warns(monkeypatch, tmp_path, capsys):
    calls = serve_main(monkeypatch, tmp_path)
    assert calls[0]["host"] == "127.0.0.1" and calls[0]["port"] == 8000
    printed = capsys.readouterr()
    assert "warning" not in printed.err
    assert [line.split(": ")[0] for line in printed.out.splitlines()[1:]] == ["seat 0", "spectator"]
    os.unlink(tmp_path / "g.json")
    calls = serve_main(monkeypatch, tmp_path, "--host", "0.0.0.0", "--port", "8123")
    assert calls[0]["host"] == "0.0.0.0" and calls[0]["port"] == 8123
    assert "anyone who can reach port 8123" in capsys.readouterr().err


def test_each_seat_link_has_its_own_unguessable_token():
    table = new_table("lixo", players=4, bots={3: "greedy"})
    tok = tokens(table)
    assert sorted(tok, key=str) == [0, 1, 2, PUBLIC]
    assert len(set(tok.values())) == 4 and all(len(t) >= 32 for t in tok.values())
    assert new_table("lixo").tokens.keys().isdisjoint(table.tokens.keys())


def test_a_socket_gets_the_page_after_every_change_and_is_forgotten_once_closed():
    table = new_table("lixo", bots={1: "greedy"})
    tok = tokens(table)
    with client(table) as c:
        with c.websocket_connect(f"/ws/{tok[0]}") as ws:
            page = json.loads(ws.receive_text())
            assert len(table.listeners) == 1
            after = c.post(f"/api/{tok[0]}/move", json={"version": page["version"], "move": 0}).json()
            assert json.loads(ws.receive_text()) == after
        deadline = time.monotonic() + 5
        while table.listeners:
            assert time.monotonic() < deadline, "a closed socket is still listened to"
            time.sleep(0.01)


def test_serve_resume_goes_on_with_a_kept_game_at_a_new_table(monkeypatch, tmp_path, capsys):
    from starlette.testclient import TestClient
    kept = str(tmp_path / "g.json")
    app = serve_main(monkeypatch, tmp_path, "--seed", "5")[0]["app"]
    token = capsys.readouterr().out.splitlines()[1].rsplit("/t/", 1)[1]
    with TestClient(app) as c:
        page = play(c, token, c.get(f"/api/{token}/state").json(), 0)
        page = play(c, token, page, 0)
    moves = len(json.load(open(kept))["moves"])
    app = serve_main(monkeypatch, tmp_path, args=["serve", "--resume", kept, "--ruleset",
                                                  os.path.join(ROOT, "rulesets", "lixo.yaml")])[0]["app"]
    out = capsys.readouterr().out
    assert f"going on after {moves} moves" in out
    token = out.splitlines()[1].rsplit("/t/", 1)[1]
    with TestClient(app) as c:
        again = c.get(f"/api/{token}/state").json()
    assert again["moves"] == page["moves"] and again["seats"] == page["seats"]
    assert again["decision"]["moves"] == page["decision"]["moves"]


def test_serve_needs_a_ruleset_a_record_or_resume(capsys):
    from interpreter.tools.cli import main
    assert main(["serve"]) == 2
    assert "serve needs a RULESET" in capsys.readouterr().err


def test_serve_on_a_port_in_use_is_a_usage_error_before_any_link(tmp_path, capsys):
    from interpreter.tools.cli import main
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["serve", os.path.join(ROOT, "rulesets", "lixo.yaml"), "--players", "2", "--port", str(port),
                     "-o", str(tmp_path / "g.json")])
    printed = capsys.readouterr()
    assert code == 2 and "cannot listen there" in printed.err and "/t/" not in printed.out
    assert not (tmp_path / "g.json").exists()
