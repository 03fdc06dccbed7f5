"""A report opened in a real headless browser (Chromium from the distribution's packages, driven by
Playwright): it renders its title, every table and every plot as an SVG with a size, asks for
nothing besides its own file, and leaves a screenshot as a test artefact.

Behind the `browser` marker (run by .ci/run after soak): `pytest -m browser`. Needs the `browser`
extra (`pip install -e '.[test,browser]'`) and `apt-get install -y chromium`. The screenshot goes
to $CARDRULES_ARTEFACTS (outside the repository) or else the test's tmp folder; its path is printed.
"""
from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest

from interpreter.compiler.game import load_game
from interpreter.tools.report import write_report
from interpreter.tools.simulate import simulate
from test_report import SIMULATE_PLOTS, SIMULATE_TABLES, fixture_summary, outline

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("CARDRULES_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def real_summary() -> dict:
    """A real small simulate run (today's fields) with the fixture's intervals and metrics added."""
    summary = simulate(load_game(str(ROOT / "rulesets" / "r_eco.yaml")), 2, 12, 5, ["greedy", "random"])
    extra = fixture_summary()
    return {**summary, **{k: extra[k] for k in ("intervals", "metrics", "score_histogram")}}


def artefacts(tmp_path) -> Path:
    """Where the screenshot goes: $CARDRULES_ARTEFACTS or the test's tmp folder, never the repository."""
    folder = Path(os.environ.get("CARDRULES_ARTEFACTS") or tmp_path).resolve()
    assert ROOT not in (folder, *folder.parents), f"artefacts must not go inside the repository: {folder}"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def browser(tmp_path):
    """A fresh headless Chromium (own user-data dir) whose every request is recorded and, unless it is
    for a local file, refused."""
    try:
        sync_api = importlib.import_module("playwright.sync_api")     # the `browser` extra
    except ModuleNotFoundError:
        pytest.fail("the browser test needs Playwright: pip install -e '.[test,browser]'")
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install -y chromium (or set CARDRULES_CHROMIUM)")
    with sync_api.sync_playwright() as driver:
        context = driver.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=ARGS,
            viewport={"width": 1280, "height": 900}, offline=True)
        requests = []
        context.on("request", lambda request: requests.append(request.url))
        context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:")
                      else route.abort())
        yield context, requests
        context.close()


def test_a_report_renders_in_a_real_browser_and_fetches_nothing(tmp_path, browser):
    context, requests = browser
    path = tmp_path / "report.html"
    write_report(path, "simulate", real_summary())
    source = outline(path.read_text(encoding="utf-8"))
    page = context.new_page()
    page.goto(path.as_uri(), wait_until="load")
    assert page.title() == "cardrules simulate: R-Eco"
    assert page.eval_on_selector_all("section", "s => s.map(e => e.id)") == SIMULATE_TABLES
    tables = page.eval_on_selector_all("table", "ts => ts.map(t => [t.getBoundingClientRect().width, "
                                                "t.getBoundingClientRect().height, t.rows.length])")
    assert len(tables) == source.tables
    assert all(w > 0 and h > 0 and rows >= 2 for w, h, rows in tables)
    plots = page.eval_on_selector_all(
        "figure.plot", "fs => fs.map(f => { const s = f.querySelector('svg'); const r = s && s.getBoundingClientRect();"
                       " return [f.id, r ? r.width : 0, r ? r.height : 0, s ? s.querySelectorAll('path').length : 0]; })")
    assert [name for name, *_ in plots] == [f"plot-{p}" for p in SIMULATE_PLOTS]
    assert all(w > 50 and h > 50 and paths > 0 for _, w, h, paths in plots), plots
    assert requests == [path.as_uri()]
    shot = artefacts(tmp_path) / "report-simulate.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    print(f"\nscreenshot of the report: {shot}")


def test_the_browser_check_sees_a_request_that_would_leave_the_page(tmp_path, browser):
    context, requests = browser
    path = tmp_path / "leaky.html"
    path.write_text('<!DOCTYPE html><title>leaky</title><img src="https://example.invalid/a.png">'
                    '<link rel="stylesheet" href="https://example.invalid/b.css">', encoding="utf-8")
    context.new_page().goto(path.as_uri(), wait_until="load")
    assert path.as_uri() in requests
    assert {"https://example.invalid/a.png", "https://example.invalid/b.css"} <= set(requests)
