"""HTML reports: one self-contained file (inline CSS and SVG, nothing fetched), the run's header,
every table with its plot, "not measured" for a missing part, untrusted texts escaped, and the same
summary giving the same file."""
from __future__ import annotations

import copy
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
