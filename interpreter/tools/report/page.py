"""The HTML of a report: escaping, numbers with their intervals, tables, and the page around them.

Every text from a summary (names, labels, bot names, coverage texts) comes from a ruleset or a
results file, which are untrusted: it passes through `esc` before it reaches the page.
"""
from __future__ import annotations

import html
import json
import math

from ..safe_text import clipped

NOT_MEASURED = "not measured"

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       color: #222; background: #fff; margin: 1.5em auto; max-width: 78em; padding: 0 1em; line-height: 1.4; }
h1 { font-size: 1.5em; margin-bottom: .2em; }
h2 { font-size: 1.2em; border-bottom: 1px solid #ccc; padding-bottom: .15em; margin-top: 1.6em; }
h3 { font-size: 1.05em; margin: .8em 0 .3em; }
table { border-collapse: collapse; margin: .4em 0 .8em; font-size: .92em; }
th, td { border: 1px solid #ccc; padding: .2em .55em; text-align: left; vertical-align: top; }
th { background: #f2f2f2; font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.never td { background: #fde2e2; }
tr.unmoved td { background: #fff4d6; }
.pair { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
.pair > div { flex: 0 1 auto; max-width: 100%; overflow-x: auto; }
.scroll { max-width: 100%; overflow-x: auto; }
figure { margin: 0; flex: 1 1 28em; max-width: 44em; }
figure.wide { max-width: none; }
figure svg { max-width: 100%; height: auto; display: block; }
figcaption { font-size: .85em; color: #555; }
.na { color: #777; font-style: italic; }
.note { font-size: .9em; color: #444; }
nav { font-size: .9em; }
nav a { margin-right: .8em; }
ul.warnings { color: #8a1f11; }
"""


def esc(text) -> str:
    """An outside text made safe for the page: clipped, control characters shown, HTML escaped."""
    return html.escape(clipped(str(text), 300), quote=True)


def number(x):
    """x as a finite float, or None when it is no number (a missing or malformed part of a summary)."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    return float(x) if math.isfinite(x) else None


def interval(entry):
    """(value, lo, hi) of a {"value", "ci95"} entry; lo and hi are None when the entry has no interval."""
    if not isinstance(entry, dict):
        v = number(entry)
        return None if v is None else (v, None, None)
    v = number(entry.get("value"))
    if v is None:
        return None
    ci = entry.get("ci95")
    if isinstance(ci, (list, tuple)) and len(ci) == 2 and None not in (number(ci[0]), number(ci[1])):
        return v, number(ci[0]), number(ci[1])
    return v, None, None


def decimals(v: float) -> int:
    """Digits after the point for a value of this size: three significant digits, at most."""
    a = abs(v)
    return 0 if a >= 100 else 1 if a >= 10 else 2 if a >= 0.01 or a == 0 else 4


def fmt_number(v, percent: bool = False, places: int | None = None) -> str:
    """A number at a precision a reader can take in (shares as percent, counts as whole numbers)."""
    if percent:
        return f"{100 * v:.{1 if places is None else places}f} %"
    if isinstance(v, int) and places is None:
        return str(v)
    return f"{v:.{decimals(v) if places is None else places}f}"


def fmt_count(v) -> str:
    """A count (games, cards, legal moves) as a whole number where it is one."""
    return str(int(v)) if float(v).is_integer() and abs(v) < 1e15 else fmt_number(v)


def fmt(entry, percent: bool = False) -> str:
    """A value with its 95 % interval as HTML ("52.2 % (49.4 – 55.0)"), or "not measured"."""
    got = interval(entry)
    note = entry.get("note") if isinstance(entry, dict) else None
    if got is None:
        why = f" ({esc(note)})" if note else ""
        return f'<span class="na">{NOT_MEASURED}{why}</span>'
    v, lo, hi = got
    places = 1 if percent else decimals(v)
    text = fmt_number(v, percent, places)
    if lo is not None:
        lo_text, hi_text = fmt_number(lo, percent, places), fmt_number(hi, percent, places)
        if percent:
            lo_text, hi_text = lo_text.removesuffix(" %"), hi_text.removesuffix(" %")
        text += f' <span class="note">({lo_text} – {hi_text})</span>'
    if note:                        # why an interval is missing or has width 0: never read it as certainty
        text += f'<br><span class="note">{esc(note)}</span>'
    return text


def fmt_p(p) -> str:
    """A p-value as text."""
    v = number(p)
    if v is None:
        return f'<span class="na">{NOT_MEASURED}</span>'
    return "&lt; 0.001" if v < 0.001 else f"{v:.3f}"


def cell(content: str, numeric: bool = False) -> str:
    """One table cell of ready HTML."""
    return f'<td class="num">{content}</td>' if numeric else f"<td>{content}</td>"


def table(headers: list, rows: list, caption: str = "", row_classes: list | None = None) -> str:
    """A table: headers are plain texts (escaped here); each row a list of ready <td> cells."""
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = []
    for i, row in enumerate(rows):
        cls = row_classes[i] if row_classes and row_classes[i] else ""
        body.append(f'<tr class="{cls}">' + "".join(row) + "</tr>" if cls else "<tr>" + "".join(row) + "</tr>")
    cap = f"<caption>{esc(caption)}</caption>" if caption else ""
    return f'<div class="scroll"><table>{cap}<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'


def not_measured(what: str) -> str:
    """The paragraph standing where a part of the summary is missing."""
    return f'<p class="na">{esc(what)}: {NOT_MEASURED}.</p>'


def section(anchor: str, title: str, body: str) -> str:
    """A titled section of the report."""
    return f'<section id="{anchor}"><h2>{esc(title)}</h2>\n{body}\n</section>'


def pair(tables: str, figure: str) -> str:
    """Tables with their plot beside them."""
    return f'<div class="pair"><div>{tables}</div>{figure}</div>'


def json_value(value) -> str:
    """A value of an override as the --set syntax writes it (escaped)."""
    try:
        return esc(json.dumps(value, ensure_ascii=False, sort_keys=True))
    except (TypeError, ValueError):
        return esc(value)


def page(title: str, sections: list, nav: list | None = None) -> str:
    """The whole self-contained document: inline CSS, no scripts, no outside references.

    sections are (anchor, name, html); nav the (anchor, name) links at the top (every section's by default)."""
    nav = "".join(f'<a href="#{anchor}">{esc(name)}</a>' for anchor, name, *_ in (nav or sections))
    body = "\n".join(html_ for _, _, html_ in sections)
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
            f"<h1>{esc(title)}</h1>\n<nav>{nav}</nav>\n{body}\n</body>\n</html>\n")
