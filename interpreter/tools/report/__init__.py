"""HTML reports with pictures: one self-contained file (inline CSS and SVG plots, no scripts, no
outside references) for a simulate or analyze summary, a comparison of A and B, or a sweep.

    write_report(path, kind, summaries, title=None)

kind "simulate" / "analyze": summaries is one summary (the dict `simulate --json` prints);
"compare": {"a": summary, "b": summary, "diff": {METRIC: {"value", "ci95", "p", "verdict"}}};
"sweep": a list of (label, summary) rows, one per varied value.
"""
from __future__ import annotations

from ...errors import UsageError
from .detail import coverage_section, skill_section, stats_section
from ..safe_text import quoted
from .page import page, section
from .plots import Plots
from .summary import (choice_section, header, is_cooperative, length_section, scores_section, seats_section,
                      table_section, tension_section)
from .sweep import sweep_sections
from .versus import compare_sections

KINDS = ("simulate", "analyze", "compare", "sweep")


def summary_sections(summary: dict, plots: Plots, prefix: str = "") -> list:
    """(anchor, title, html) of every section of one run's summary."""
    summary = summary if isinstance(summary, dict) else {}
    if is_cooperative(summary):         # one shared score, and nobody leads a table that wins together
        return [("run", "run", header(summary)),
                ("table", "the table: win rate and shared score", table_section(summary, plots, prefix)),
                ("length", "game length", length_section(summary, plots, prefix)),
                ("choice", "choice", choice_section(summary, plots, prefix)),
                ("stats", "designer stats", stats_section(summary)),
                ("coverage", "rule coverage", coverage_section(summary))]
    return [("run", "run", header(summary)),
            ("seats", "seat advantage", seats_section(summary, plots, prefix)),
            ("scores", "scores", scores_section(summary, plots, prefix)),
            ("length", "game length", length_section(summary, plots, prefix)),
            ("tension", "closeness, lead changes, decisiveness, comebacks", tension_section(summary, plots, prefix)),
            ("choice", "choice", choice_section(summary, plots, prefix)),
            ("stats", "designer stats", stats_section(summary)),
            ("coverage", "rule coverage", coverage_section(summary)),
            ("skill", "skill gap", skill_section(summary))]


def default_title(kind: str, summaries) -> str:
    """The report's title: the command and the game's name."""
    first = summaries.get("a") if kind == "compare" and isinstance(summaries, dict) else \
        summaries[0][1] if kind == "sweep" and isinstance(summaries, list) and summaries and \
        isinstance(summaries[0], (list, tuple)) and len(summaries[0]) == 2 else summaries
    name = first.get("name") or first.get("ruleset") if isinstance(first, dict) else None
    return f"cardrules {kind}: {name}" if name else f"cardrules {kind}"


def render_report(kind: str, summaries, title: str | None = None) -> str:
    """The report as one HTML text."""
    if kind not in KINDS:
        raise UsageError(f"a report is one of {', '.join(KINDS)}, not {quoted(kind)}")
    plots = Plots()
    if kind == "compare":
        parts = compare_sections(summaries if isinstance(summaries, dict) else {}, plots,
                                 lambda s, p, prefix: summary_sections(s, p, prefix))
    elif kind == "sweep":
        parts = sweep_sections(list(summaries) if isinstance(summaries, (list, tuple)) else [], plots)
    else:
        parts = summary_sections(summaries, plots)
    nav = None
    if kind == "compare":           # each run's own sections are reached through its first one
        nav = [(a, n) for a, n, _ in parts if not a.startswith(("a-", "b-"))] + [("a-run", "A in detail"),
                                                                                 ("b-run", "B in detail")]
    return page(title or default_title(kind, summaries),
                [(anchor, name, section(anchor, name, html_)) for anchor, name, html_ in parts], nav)


def write_report(path, kind: str, summaries, title: str | None = None) -> str:
    """Write the report to path (UTF-8); returns the path. An unwritable path is a UsageError."""
    text = render_report(kind, summaries, title)
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    except OSError as exc:
        raise UsageError(f"cannot write the report {path}: {exc.strerror or exc}") from None
    return str(path)
