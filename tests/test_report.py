"""HTML reports: one self-contained file (inline CSS and SVG, nothing fetched), the run's header,
every table with its plot, "not measured" for a missing part, untrusted texts escaped, and the same
summary giving the same file."""
from __future__ import annotations

import functools
import re
import subprocess
import sys
from html.parser import HTMLParser

import pytest

from interpreter.errors import UsageError
from interpreter.tools.report import render_report, write_report

SIMULATE_PLOTS = ["win-share", "scores", "length", "tension", "choice"]
SIMULATE_TABLES = ["run", "seats", "scores", "length", "tension", "choice", "stats", "coverage", "skill"]


def ci(value, half):
    return {"value": value, "ci95": [value - half, value + half]}


def fixture_summary(**changes) -> dict:
    """A 2-seat summary in the format of the issue's shared contract, made by hand."""
    summary = {
        "ruleset": "rulesets/r_eco.yaml", "name": "R-Eco", "overrides": {"hand_limit": 5}, "players": 2,
        "games": 200, "seed": 7, "bots": ["greedy", "random"],
        "turns": {"mean": 41.5, "sd": 6.1, "min": 28, "max": 60}, "moves": {"mean": 120.2, "sd": 14.0, "min": 80,
                                                                            "max": 160},
        "score": {"mean_by_seat": [38.1, 30.4], "sd_by_seat": [7.2, 8.0]}, "wins_by_seat": [0.71, 0.29],
        "seconds": 2.5, "games_per_second": 80.0,
        "intervals": {"wins_by_seat": [ci(0.71, 0.06), ci(0.29, 0.06)],
                      "score_by_seat": [ci(38.1, 1.0), ci(30.4, 1.1)], "turns": ci(41.5, 0.85),
                      "moves": ci(120.2, 1.9)},
        "metrics": {
            "seat_advantage": {"fair_share": 0.5, "by_seat": [ci(0.71, 0.06), ci(0.29, 0.06)], "chi2": 35.3,
                               "df": 1, "p": 2.8e-9, "distinguishable": True},
            "length": {"turns": {"mean": ci(41.5, 0.85), "median": ci(41, 1),
                                 "histogram": [[28, 32, 10], [32, 36, 25], [36, 40, 50], [40, 44, 60],
                                               [44, 48, 35], [48, 60, 20]]},
                       "moves": {"mean": ci(120.2, 1.9), "median": ci(119, 2),
                                 "histogram": [[80, 100, 30], [100, 120, 70], [120, 140, 70], [140, 160, 30]]},
                       "decisions_by_seat": [ci(60.1, 1.0), ci(60.0, 1.0)]},
            "closeness": {"margin": ci(9.3, 1.1), "shared_wins": ci(0.02, 0.015)},
            "lead_changes": ci(2.4, 0.3), "decisiveness": ci(0.62, 0.04), "comeback": {**ci(0.12, 0.05), "games": 190},
            "choice": {"mean": ci(4.2, 0.1), "forced": ci(0.18, 0.01), "histogram": {"1": 2200, "2": 3000,
                                                                                      "3": 2500, "5": 900, "8": 100}},
            "coverage": [{"kind": "step", "where": "rulesets/r_eco.yaml:40:5", "text": "step produce", "games": 200,
                          "share": 1.0, "moved": 0},
                         {"kind": "then", "where": "rulesets/r_eco.yaml:52:9", "text": "if count(hand) > 5: then",
                          "games": 0, "share": 0.0, "moved": 0},
                         {"kind": "move", "where": "rulesets/r_eco.yaml:60:9", "text": "move … to discard",
                          "games": 40, "share": 0.2, "moved": 0}],
            "coverage_warnings": ["rulesets/r_eco.yaml:52:9: if count(hand) > 5: then never ran in 200 games"],
            "skill_gap": [{"bot": "greedy", "seats": [0], "fair_share": 0.5, "share": ci(0.71, 0.06)}],
            "stats": {"disposed": {"per_seat": True, "by_seat": [ci(3.1, 0.3), ci(4.0, 0.4)]},
                      "rewards_left": {"per_seat": False, "all": ci(2.2, 0.2)}}},
        "score_histogram": [[[20, 30, 30], [30, 40, 100], [40, 50, 60], [50, 60, 10]],
                            [[10, 20, 20], [20, 30, 70], [30, 40, 80], [40, 50, 30]]],
    }
    summary.update(changes)
    return summary


def today_summary() -> dict:
    """Only the fields simulate prints today: no intervals, no metrics."""
    keep = ("ruleset", "name", "overrides", "players", "games", "seed", "bots", "turns", "moves", "score",
            "wins_by_seat", "seconds", "games_per_second")
    return {k: v for k, v in fixture_summary().items() if k in keep}


def compare_fixture() -> dict:
    b = fixture_summary(overrides={"hand_limit": 4})
    b["metrics"]["length"]["turns"]["mean"] = ci(38.4, 0.8)
    return {"a": fixture_summary(), "b": b,
            "diff": {"turns": {**ci(-3.1, 0.7), "p": 1e-5, "verdict": "B shortens games by 3.1 turns"},
                     "wins_by_seat.0": {**ci(0.01, 0.03), "p": 0.41, "verdict": "no detectable difference"},
                     "lead_changes": {**ci(0.2, 0.25), "p": 0.2, "verdict": "no detectable difference"}}}


def sweep_fixture() -> list:
    rows = []
    for limit, turns in ((3, 35.0), (4, 38.4), (5, 41.5), (6, 44.0)):
        s = fixture_summary(overrides={"hand_limit": limit})
        s["metrics"]["length"]["turns"]["mean"] = ci(turns, 0.8)
        rows.append((f"hand_limit={limit}", s))
    return rows


class Outline(HTMLParser):
    """What a page is made of: its title, sections, tables, plots and every attribute."""

    def __init__(self):
        super().__init__()
        self.title, self.sections, self.tables, self.plots, self.svgs = "", [], 0, [], 0
        self.attributes, self._in_title, self.tags = [], False, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        self.attributes += [(tag, k, v or "") for k, v in attrs.items()]
        self._in_title = tag == "title"
        self.sections += [attrs.get("id")] if tag == "section" else []
        self.tables += tag == "table"
        self.svgs += tag == "svg"
        self.plots += [attrs["id"].removeprefix("plot-")] if tag == "figure" else []

    def handle_data(self, data):
        if self._in_title:
            self.title += data

    def handle_endtag(self, tag):
        self._in_title = False


def outline(text: str) -> Outline:
    parser = Outline()
    parser.feed(text)
    return parser


STANDARD = {"simulate": fixture_summary, "analyze": fixture_summary, "compare": compare_fixture, "sweep": sweep_fixture}


def report(tmp_path, kind="simulate", data=None, name="report.html") -> str:
    """The report written for data (the kind's fixture when None) and read back."""
    path = tmp_path / name
    write_report(path, kind, STANDARD[kind]() if data is None else data)
    return path.read_text(encoding="utf-8")


@functools.lru_cache(maxsize=None)
def standard(kind: str) -> str:
    """The report of the kind's fixture, drawn once for the tests that only read it (drawing takes seconds)."""
    return render_report(kind, STANDARD[kind]())


EXTERNAL = [(r"https?://", "a web address"), (r"<link\b", "a <link>"), (r"<script\b", "a script"),
            (r"@import", "an @import"), (r"<iframe\b|<object\b|<embed\b", "an embedded document")]


def outside_references(text: str) -> list:
    """Everything in a page that would fetch something: web addresses, links, scripts, imports,
    url(…) other than a #fragment or a data: URI, src/href other than #fragment or data:."""
    found = [what for pattern, what in EXTERNAL if re.search(pattern, text, re.IGNORECASE)]
    found += [f"url({m})" for m in re.findall(r"url\(\s*['\"]?([^)'\"]*)", text, re.IGNORECASE)
              if not m.startswith(("#", "data:"))]
    found += [f"{tag} {k}={v}" for tag, k, v in outline(text).attributes
              if k in ("src", "href", "xlink:href", "srcset", "poster", "data", "action")
              and not v.startswith(("#", "data:"))]
    return found


def test_a_simulate_report_has_its_title_the_runs_header_every_table_and_every_plot(tmp_path):
    page = outline(standard("simulate"))
    assert page.title == "cardrules simulate: R-Eco"
    assert page.sections == SIMULATE_TABLES
    assert page.plots == SIMULATE_PLOTS
    assert page.svgs == len(SIMULATE_PLOTS)
    assert page.tables >= len(SIMULATE_TABLES)


def test_the_header_names_ruleset_players_bots_games_seed_and_overrides():
    text = standard("simulate")
    run = text[text.index('<section id="run">'):text.index("</section>")]
    for shown in ("rulesets/r_eco.yaml", "R-Eco", "<td>2</td>", "greedy, random", "<td>200</td>", "<td>7</td>",
                  "hand_limit = 5"):
        assert shown in run


@pytest.mark.parametrize("kind", ["simulate", "analyze", "compare", "sweep"])
def test_a_report_is_self_contained_nothing_in_it_points_outside(kind):
    text = standard(kind)
    assert "<svg" in text
    assert outside_references(text) == []


def test_the_self_containment_check_finds_what_would_fetch_something():
    page = ('<img src="https://example.com/a.png"><link rel="stylesheet" href="x.css"><script src="a.js"></script>'
            '<style>@import "b.css"; p { background: url(c.png) }</style><a href="#ok"></a>'
            '<svg><rect clip-path="url(#p1)"/><image href="data:image/png;base64,AA"/></svg>')
    found = outside_references(page)
    assert {"a web address", "a <link>", "a script", "an @import", "url(c.png)", "link href=x.css",
            "script src=a.js"} <= set(found)
    assert not [f for f in found if "#" in f or "data:" in f]


@pytest.mark.parametrize("kind", ["simulate", "compare", "sweep"])
def test_the_same_summary_gives_the_same_file(tmp_path, kind):
    assert report(tmp_path, kind) == standard(kind)


def test_a_plot_carries_no_date_and_no_xml_prolog():
    text = standard("simulate")
    assert "<?xml" not in text and "<!DOCTYPE svg" not in text and "<metadata" not in text
    assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", text)


def test_element_ids_are_unique_across_the_plots_of_a_page():
    ids = [v for _, k, v in outline(standard("compare")).attributes if k == "id"]
    assert len(ids) == len(set(ids))


def test_a_summary_with_only_todays_fields_reports_the_rest_as_not_measured(tmp_path):
    text = report(tmp_path, data=today_summary())
    page = outline(text)
    text = text[text.index("</nav>"):]
    assert page.sections == SIMULATE_TABLES
    assert page.plots == ["win-share"]           # the win shares are today's fields; nothing else is plotted
    for part in ("score distribution", "game-length histogram", "lead changes and decisiveness", "choice histogram",
                 "designer stats", "rule coverage", "skill gap", "chi-square test over seats"):
        assert "not measured" in text[text.index(part):text.index(part) + 120]


def test_without_a_track_lead_changes_and_decisiveness_read_not_measured_never_zero(tmp_path):
    summary = fixture_summary()
    for key in ("lead_changes", "decisiveness", "comeback"):
        del summary["metrics"][key]
    text = report(tmp_path, data=summary)
    tension = text[text.index('<section id="tension">'):]
    tension = tension[:tension.index("</section>")]
    assert "lead changes and decisiveness (no per-turn track): not measured" in tension
    assert 'id="plot-tension"' not in tension
    assert tension.count("not measured") == 4         # three metrics in the table, and the plot


@pytest.mark.parametrize("kind,data", [("simulate", {}), ("simulate", []), ("compare", {}), ("compare", {"a": 1}),
                                       ("sweep", []), ("sweep", [("x", None), 3])],
                         ids=["empty", "not-a-dict", "empty-compare", "bad-compare", "empty-sweep", "bad-sweep"])
def test_an_empty_or_malformed_summary_still_gives_a_page(tmp_path, kind, data):
    page = outline(report(tmp_path, kind, data))
    assert page.title.startswith(f"cardrules {kind}")
    assert page.sections


def test_values_of_the_wrong_kind_read_not_measured_instead_of_breaking_the_report(tmp_path):
    summary = fixture_summary(wins_by_seat=["a", None], games="many")
    summary["intervals"] = {"wins_by_seat": "x", "score_by_seat": [{"value": "1"}, None]}
    summary["metrics"] = {"seat_advantage": {"by_seat": [{"value": float("nan"), "ci95": [0, 1]}, 7]},
                          "length": {"turns": {"histogram": [["a", 1, 2], [1, 2]]}}, "lead_changes": {"ci95": [1]},
                          "choice": {"histogram": {"x": 1, "2": "y"}}, "coverage": [1, {"games": "no"}],
                          "stats": {"s": 3}, "skill_gap": ["x", {"share": "y"}]}
    summary["score_histogram"] = {"by_seat": "oops"}
    text = report(tmp_path, data=summary)
    assert outline(text).sections == SIMULATE_TABLES
    assert "not measured" in text


HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def hostile_summary() -> dict:
    summary = fixture_summary(name=HOSTILE, ruleset=HOSTILE, bots=[HOSTILE, "random"], overrides={HOSTILE: HOSTILE})
    summary["metrics"]["stats"] = {HOSTILE: {"per_seat": False, "all": ci(1.0, 0.1)}}
    summary["metrics"]["coverage"][0].update(text=HOSTILE, where=HOSTILE, kind=HOSTILE)
    summary["metrics"]["coverage_warnings"] = [HOSTILE]
    summary["metrics"]["skill_gap"][0].update(bot=HOSTILE, seats=[HOSTILE])
    return summary


@pytest.mark.parametrize("kind", ["simulate", "compare", "sweep"])
def test_every_text_from_a_ruleset_or_record_is_escaped(tmp_path, kind):
    data = {"simulate": hostile_summary(), "sweep": [(HOSTILE, hostile_summary()), ("b", fixture_summary())],
            "compare": {"a": hostile_summary(), "b": {**today_summary(), "name": HOSTILE},
                        "diff": {HOSTILE: {**ci(1, 1), "p": 0.5, "verdict": HOSTILE}}}}[kind]
    text = report(tmp_path, kind, data)
    assert "<script" not in text and "<img" not in text and "onerror" not in outline(text).attributes.__repr__()
    assert "&lt;script&gt;" in text


def test_a_control_character_in_a_name_is_shown_as_an_escape(tmp_path):
    text = report(tmp_path, data={**today_summary(), "name": "R\x1b[31m-Eco\x00"})
    assert "R\\x1b[31m-Eco\\x00" in text and "\x1b" not in text and "\x00" not in text


def test_a_dollar_in_a_name_is_drawn_as_text_not_as_mathematics(tmp_path):
    text = report(tmp_path, data={**today_summary(), "bots": [r"$\frac{$", "$x$"]})
    assert r"seat 0 ($\frac{$)" in text and "seat 1 ($x$)" in text


def test_never_run_coverage_rows_are_highlighted_and_warned():
    text = standard("simulate")
    rows = re.findall(r'<tr class="(\w+)">(.*?)</tr>', text)
    assert [(cls, "if count(hand) &gt; 5: then" in row) for cls, row in rows] == [("never", True), ("unmoved", False)]
    assert "never ran in 200 games" in text


def test_a_compare_report_shows_a_b_and_each_difference_with_its_interval():
    text = standard("compare")
    page = outline(text)
    assert page.title == "cardrules compare: R-Eco"
    assert page.sections[:3] == ["runs", "differences", "shares"]
    assert {"differences", "compare-win-share", "a-win-share", "b-win-share"} <= set(page.plots)
    row = re.search(r"<td>turns</td>(.*?)</tr>", text).group(1)
    assert "41.5" in row and "38.4" in row and "-3.10" in row and "-3.80 – -2.40" in row and "&lt; 0.001" in row
    assert "B shortens games by 3.1 turns" in row
    share = re.search(r"<td>wins_by_seat.0</td>(.*?)</tr>", text).group(1)
    assert "71.0 %" in share and "1.0 pts" in share


def test_a_sweep_report_has_a_row_per_value_and_plots_each_metric_against_it():
    text = standard("sweep")
    page = outline(text)
    assert page.plots == ["sweep"]
    table = text[text.index('<section id="metrics">'):]
    for limit, turns in ((3, "35.0"), (4, "38.4"), (5, "41.5"), (6, "44.0")):
        assert re.search(rf"<td>hand_limit={limit}</td>.*?{re.escape(turns)}", table)
    run = text[text.index('<section id="run">'):text.index("</section>")]
    assert "hand_limit" not in run.split("varied:")[0]      # the varied value is no shared override


def test_an_unknown_kind_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="simulate, analyze, compare, sweep"):
        write_report(tmp_path / "r.html", "histogram", fixture_summary())


def test_an_unwritable_report_path_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="cannot write the report"):
        write_report(tmp_path / "no" / "such" / "r.html", "simulate", fixture_summary())


def test_cardrules_does_not_import_matplotlib_until_a_report_is_written():
    code = ("import sys, interpreter.tools.cli, interpreter.tools.report, interpreter.tools.report_text; "
            "print('matplotlib' in sys.modules); "
            "interpreter.tools.report.render_report('simulate', {}); print('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]


def hand_records(games: int = 12) -> list:
    """Per-game records in the shared contract's format, made by hand: seat 0 gains a point a turn more."""
    out = []
    for g in range(games):
        turns = 10 + g % 5
        track = [[2 * t + (g % 3), t + (g % 4) * 3] for t in range(1, turns + 1)]
        scores = track[-1]
        winners = [k for k, s in enumerate(scores) if s == max(scores)]
        out.append({"game": g, "seed": 100 + g, "bots": ["greedy", "random"], "scores": scores, "winners": winners,
                    "turns": turns, "moves": 3 * turns, "decisions": [turns, turns],
                    "choices": {"1": g % 3, "2": 5, "4": turns - 5 - g % 3}, "track": track,
                    "stats": {"disposed": [g % 4, 2], "left": g % 2}, "coverage": [1, 0, g % 2], "moved": [0, 0, 0],
                    "run": {"ruleset": "rulesets/r_eco.yaml", "name": "R-Eco", "players": 2, "seed": 1,
                            "overrides": {}}})
    return out


def test_a_report_of_the_analysis_librarys_own_summary_shows_every_part():
    metrics = pytest.importorskip("interpreter.analysis.metrics", reason="the analysis library (issue 14) is "
                                  "written in parallel; this test runs once it is merged")
    records = hand_records()
    points = [{"kind": "step", "where": "r.yaml:3:5", "text": "step produce"},
              {"kind": "then", "where": "r.yaml:9:7", "text": "if count(hand) > 5: then"},
              {"kind": "move", "where": "r.yaml:12:9", "text": "move … to discard"}]
    summary = {**today_summary(), "games": len(records), **metrics.summarise(records, 2, ["greedy", "random"], points)}
    text = render_report("analyze", summary)
    # the score distribution comes from the summary's "score_histogram", which summarise does not make
    assert outline(text).plots == [p for p in SIMULATE_PLOTS if p != "scores" or "score_histogram" in summary]
    body = text[text.index("</nav>"):]
    for part in ("seats", "length", "tension", "choice", "stats", "skill"):
        section = body[body.index(f'<section id="{part}">'):]
        assert "not measured" not in section[:section.index("</section>")], part
