"""The web table in a real headless browser (the distribution's Chromium, driven by Playwright): a
whole two-player game of each shipped ruleset played by clicks against a bot, and a record stepped
through in the record viewer; screenshots kept as test artefacts.

Behind the `browser` marker (run by .ci/run): `pytest -m browser`. Needs the `web` and `browser`
extras and `apt-get install -y chromium`. The server runs in a thread on 127.0.0.1 (a free port the
system picks) and is stopped at the end of each test; the page may fetch nothing but from it.
"""
from __future__ import annotations

import asyncio
import importlib
import json
import os
import threading
import time
from collections import Counter
from urllib.parse import urlparse

import pytest

from interpreter.runtime import rng
from interpreter.seats.registry import make_bot
from interpreter.tools import records
from interpreter.tools.play.keeping import Keeper
from interpreter.tools.web.table import PUBLIC
from test_report_browser import ARGS, CHROMIUM, artefacts
from web_helpers import SHIPPED, game, new_table, tokens

pytestmark = pytest.mark.browser
STAND_IN = {"sorting_memo": "memory"}      # chooses which button the test clicks (a short game)
WAYS = {"lixo": "cards", "lixo_two_colour": "cards", "r_eco": "cards", "sorting_memo": "grid"}   # each is tried
WAIT = 30_000                               # ms: the longest wait for the page


class Server:
    """A uvicorn server of an app in a thread, on 127.0.0.1 and a free port; stopped on exit."""

    def __init__(self, app):
        uvicorn = importlib.import_module("uvicorn")
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve()), daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "the server did not start"
            time.sleep(0.05)
        host, port = self.server.servers[0].sockets[0].getsockname()[:2]
        assert host == "127.0.0.1"
        return f"http://127.0.0.1:{port}"

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)
        assert not self.thread.is_alive(), "the server did not stop"


@pytest.fixture
def browser(tmp_path):
    """A fresh headless Chromium whose every request is recorded, and refused unless for 127.0.0.1."""
    try:
        sync_api = importlib.import_module("playwright.sync_api")     # the `browser` extra
    except ModuleNotFoundError:
        pytest.fail("the browser test needs Playwright: pip install -e '.[test,web,browser]'")
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install -y chromium (or set CARDRULES_CHROMIUM)")
    with sync_api.sync_playwright() as driver:
        context = driver.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=ARGS,
            viewport={"width": 1280, "height": 900})
        requests = []
        context.on("request", lambda request: requests.append(request.url))
        context.route("**/*", lambda route: route.continue_() if urlparse(route.request.url).hostname == "127.0.0.1"
                      else route.abort())
        yield context, requests
        context.close()


def wait_for_turn(page, table) -> None:
    """Until the page shows the table as it stands and the game is over or the seat may act."""
    page.wait_for_function(
        "v => document.body.dataset.version === v && (document.body.dataset.over === 'true' ||"
        " document.querySelector('#decision.yours button.move:not([disabled]),"
        " #decision.yours button.confirm:not([disabled])') !== null)",
        arg=str(table.version), timeout=WAIT)


def clicks(page, table, stand_in) -> Counter:
    """Play seat 0 by clicks to the end of the game: the move the stand-in bot would choose, and
    confirm when asked; how many moves were made each way (grid, cards, button, confirm)."""
    ways: Counter = Counter()
    while True:
        wait_for_turn(page, table)
        if page.get_attribute("body", "data-over") == "true":
            return ways
        seen = page.get_attribute("body", "data-version")
        if page.locator("#decision button.confirm").count():
            page.click("#decision button.confirm")
            ways["confirm"] += 1
        else:
            st, prog = table.st, table.program
            move = stand_in.choose(prog, st, prog.legal_moves(st))
            ways[choose(page, json.loads(table.page_of(0))["decision"], prog.move_text(st, move))] += 1
        page.wait_for_function("v => document.body.dataset.version !== v", arg=seen, timeout=WAIT)


def choose(page, decision: dict, text: str) -> str:
    """Click the move whose text is `text` as a player would: a grid position by its cell, a choice
    of cards by selecting the cards (then the move that takes exactly those), else its button."""
    i = [m["text"] for m in decision["moves"]].index(text)
    move = decision["moves"][i]
    if decision.get("grid"):
        page.click(f"#grid .cell.choosable[title='choose {move['key']}']")
        return "grid"
    if move["cards"]:
        for name, n in move["cards"].items():
            for _ in range(n):
                page.click(f"#picker button.chip[data-card='{name}']")
        page.click(f"#decision button.move.exact[data-index='{i}']")
        return "cards"
    page.click(f"#decision button.move[data-index='{i}']")
    return "button"


@pytest.mark.parametrize("name", SHIPPED)
def test_a_whole_two_player_game_is_played_by_clicks_against_a_bot(tmp_path, browser, name):
    from interpreter.tools.web.app import table_app
    context, requests = browser
    record = tmp_path / "game.json"
    table = new_table(name, 2, seed=7, bots={1: "greedy"}, keeper=Keeper(str(record)))
    tok = tokens(table)
    stand_in = make_bot(STAND_IN.get(name, "greedy"), rng.derive(7, 0))
    shots = artefacts(tmp_path)
    with Server(table_app(table)) as base:
        page = context.new_page()
        page.goto(f"{base}/t/{tok[0]}", wait_until="load")
        page.wait_for_selector("#status:text('live')", timeout=WAIT)
        assert page.inner_text(".seat.you h2").startswith("seat 0 · you")
        page.screenshot(path=str(shots / f"web-{name}-start.png"), full_page=True)
        ways = clicks(page, table, stand_in)
        assert table.st.over and ways[WAYS[name]] > 0, ways
        page.screenshot(path=str(shots / f"web-{name}-end.png"), full_page=True)
        assert "final scores" in page.inner_text("#result")
        assert page.inner_text("#result .winners").startswith(("winner", "shared victory"))
        page.reload(wait_until="load")               # a reload comes back where the seat was
        page.wait_for_selector("#result:not(.hidden)", timeout=WAIT)
        spectator = context.new_page()
        spectator.goto(f"{base}/t/{tok[PUBLIC]}", wait_until="load")
        spectator.wait_for_selector("#result:not(.hidden)", timeout=WAIT)
        assert "public view" in spectator.inner_text("#where")
    kept = json.loads(record.read_text(encoding="utf-8"))
    assert records.replay(game(name), kept) == kept["result"]
    assert all(urlparse(url).hostname == "127.0.0.1" for url in requests)
    print(f"\nscreenshots of the {name} table: {shots}/web-{name}-*.png")


def test_a_typed_move_is_played_a_bad_one_refused_with_its_reason_and_a_move_taken_back(tmp_path, browser):
    from interpreter.tools.web.app import table_app
    context, _ = browser
    table = new_table("lixo", 2, seed=3, bots={1: "greedy"})
    tok = tokens(table)
    with Server(table_app(table)) as base:
        page = context.new_page()
        page.goto(f"{base}/t/{tok[0]}", wait_until="load")
        wait_for_turn(page, table)
        page.fill("#typed input", "fly to the moon")
        page.click("#typed button")
        page.wait_for_selector("#reason:text('not a legal move')", timeout=WAIT)
        seen = page.get_attribute("body", "data-version")
        text = page.eval_on_selector_all("#decision button.move", "bs => bs.map(b => b.title)")[-1]
        page.fill("#typed input", text)
        page.click("#typed button")
        page.wait_for_function("v => document.body.dataset.version !== v", arg=seen, timeout=WAIT)
        page.wait_for_selector("#decision button.confirm", timeout=WAIT)      # every move of lixo's first
        assert text in page.inner_text("#decision")                           # decision ends the seat's
        page.reload(wait_until="load")               # a reload comes back to the move waiting for confirmation
        page.wait_for_selector("#decision button.cancel", timeout=WAIT)
        moves = table.st.moves
        page.click("#decision button.cancel")
        page.wait_for_selector("#decision button.move", timeout=WAIT)
        assert table.st.moves == moves and not table.confirming


def test_the_record_viewer_steps_through_a_record_from_any_view(tmp_path, browser):
    from interpreter.tools.web.record_view import RecordView
    from interpreter.tools.web.viewer_app import viewer_app
    context, requests = browser
    record = records.make_record(game("lixo"), 2, 5, [make_bot("greedy", 1), make_bot("greedy", 2)],
                                 ["greedy", "greedy"])
    steps = len(record["moves"])
    with Server(viewer_app(RecordView(game("lixo"), record))) as base:
        page = context.new_page()
        page.goto(f"{base}/", wait_until="load")
        page.wait_for_selector("#step:text('move 0 of')", timeout=WAIT)
        assert page.is_disabled("#back")
        for _ in range(3):
            page.click("#forward")
        page.wait_for_selector("#step:text('move 3 of')", timeout=WAIT)
        page.click("#back")
        page.wait_for_selector("#step:text('move 2 of')", timeout=WAIT)
        public = page.inner_text("#seats")
        page.select_option("#view", "0")
        page.wait_for_function("() => document.querySelector('#where').textContent.includes('you are seat 0')",
                               timeout=WAIT)
        assert page.inner_text("#step").startswith("move 2 of")
        assert page.inner_text("#seats") != public          # seat 0 sees its own hand
        page.fill("#turn", "5")
        page.click("#jump")
        page.wait_for_function("() => document.querySelector('#where').textContent.startsWith('turn 5')",
                               timeout=WAIT)
        page.screenshot(path=str(artefacts(tmp_path) / "web-record-viewer.png"), full_page=True)
        page.click("#last")
        page.wait_for_selector(f"#step:text('move {steps} of {steps}')", timeout=WAIT)
        page.wait_for_selector("#result:not(.hidden)", timeout=WAIT)
        assert page.is_disabled("#forward")
    assert all(urlparse(url).hostname == "127.0.0.1" for url in requests)


def test_undo_takes_back_a_move_by_a_click(tmp_path, browser):
    from interpreter.tools.web.app import table_app
    context, _ = browser
    table = new_table("r_eco", 2, seed=4, bots={1: "greedy"})
    tok = tokens(table)
    with Server(table_app(table)) as base:
        page = context.new_page()
        page.goto(f"{base}/t/{tok[0]}", wait_until="load")
        while True:
            wait_for_turn(page, table)
            assert page.get_attribute("body", "data-over") != "true", "no move of the game could be undone"
            seen = page.get_attribute("body", "data-version")
            if page.locator("#decision button.undo:not([disabled])").count():
                break
            page.click("#decision button.confirm" if page.locator("#decision button.confirm").count()
                       else "#decision button.move >> nth=0")
            page.wait_for_function("v => document.body.dataset.version !== v", arg=seen, timeout=WAIT)
        moves, log = table.st.moves, page.inner_text("#log")
        page.click("#decision button.undo")
        page.wait_for_function("v => document.body.dataset.version !== v", arg=seen, timeout=WAIT)
        wait_for_turn(page, table)
        assert table.st.moves == moves - 1
        assert len(page.inner_text("#log")) < len(log) and page.is_disabled("#decision button.undo")
        page.screenshot(path=str(artefacts(tmp_path) / "web-undo.png"), full_page=True)
