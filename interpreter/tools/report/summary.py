"""The sections of one run's summary (what `simulate --json` or `analyze --json` prints): the run's
header, seat advantage, scores, length, closeness and tension, choice, designer stats, coverage
and skill gap, each a table with its plot beside it. A missing part reads "not measured"."""
from __future__ import annotations

from .page import (cell, esc, fmt, fmt_count, fmt_number, fmt_p, interval, json_value, not_measured, number, pair,
                   table)
from . import plots as draw


def dig(data, *path):
    """data[path[0]][path[1]]…, or None where a part is missing or of the wrong kind."""
    for key in path:
        if isinstance(key, int) and isinstance(data, list) and -len(data) <= key < len(data):
            data = data[key]
        elif isinstance(key, str) and isinstance(data, dict):
            data = data.get(key)
        else:
            return None
    return data


def items(data) -> list:
    """data if it is a list, else no items."""
    return data if isinstance(data, list) else []


def seat_names(summary: dict) -> list:
    """"seat k (bot)" for every seat the summary knows of."""
    bots = items(summary.get("bots"))
    players = number(summary.get("players"))
    count = max(len(bots), int(players) if players and players < 1000 else 0,
                len(items(summary.get("wins_by_seat"))))
    return [f"seat {k} ({bots[k]})" if k < len(bots) else f"seat {k}" for k in range(count)]


def bins(data):
    """A histogram as (lo, hi, count) rows from [[lo, hi, count]…], [[value, count]…] or {value: count}."""
    if isinstance(data, dict):
        rows = []
        for key, count in data.items():
            v, c = number(_as_number(key)), number(count)
            if v is not None and c is not None:
                rows.append((v - 0.5, v + 0.5, c))
        return sorted(rows) or None
    rows = []
    for row in items(data):
        got = [number(x) for x in row] if isinstance(row, (list, tuple)) else []
        if len(got) == 3 and None not in got:
            rows.append(tuple(got))
        elif len(got) == 2 and None not in got:
            rows.append((got[0] - 0.5, got[0] + 0.5, got[1]))
    return rows or None


def _as_number(text):
    """A histogram key ("3") as a number, or None."""
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def figure(anchor: str, svg: str, caption: str, wide: bool = False) -> str:
    """A plot with its caption, named so a reader (or a test) can find it."""
    return f'<figure class="plot{" wide" if wide else ""}" id="plot-{anchor}">{svg}<figcaption>{esc(caption)}</figcaption></figure>'


def header(summary: dict) -> str:
    """The run: ruleset, players, bots, games, seed, overrides, time."""
    overrides = summary.get("overrides")
    rows = [("ruleset", esc(summary.get("ruleset", "?"))), ("name", esc(summary.get("name", "?"))),
            ("players", esc(summary.get("players", "?"))),
            ("bots", ", ".join(esc(b) for b in items(summary.get("bots"))) or '<span class="na">?</span>'),
            ("games", esc(summary.get("games", "?"))), ("seed", esc(summary.get("seed", "?"))),
            ("overrides", "<br>".join(f"{esc(k)} = {json_value(v)}" for k, v in overrides.items())
             if isinstance(overrides, dict) and overrides else "none")]
    if summary.get("wins") == "lowest":
        rows.insert(2, ("wins", "the lowest score"))
    if isinstance(summary.get("cooperative"), dict):
        rows.insert(2, ("cooperative", "seats win or lose together"))
    seconds, speed = number(summary.get("seconds")), number(summary.get("games_per_second"))
    if seconds is not None:
        rows.append(("time", f"{seconds:.1f} s" + (f" ({speed:.0f} games/s)" if speed is not None else "")))
    return table(["run", ""], [[cell(esc(k)), cell(v)] for k, v in rows])


def win_rows(summary: dict) -> list:
    """Every seat's win share as (v, lo, hi), or None where not measured (none in a cooperative run:
    the seats win or lose together)."""
    if is_cooperative(summary):
        return []
    for source in (dig(summary, "metrics", "seat_advantage", "by_seat"), dig(summary, "intervals", "wins_by_seat"),
                   summary.get("wins_by_seat")):
        if isinstance(source, list) and source:
            return [interval(entry) for entry in source]
    return []


def is_cooperative(summary: dict) -> bool:
    return isinstance(summary.get("cooperative"), dict)


def table_section(summary: dict, plots, prefix: str) -> str:
    """A cooperative run: the table's win rate, the shared score and its distribution."""
    coop = summary["cooperative"]
    text = table(["the table", "value (95 % CI)"],
                 [[cell("table wins"), cell(fmt(coop.get("table_wins"), percent=True), True)],
                  [cell("shared score (mean)"), cell(fmt(coop.get("score")), True)],
                  [cell("shared score (sd)"), cell(fmt(coop.get("score_sd")), True)]]) + cooperative_note(coop)
    got = bins(coop.get("score_histogram"))
    if not got:
        return pair(text, not_measured("shared score distribution"))
    svg = plots.draw(draw.histograms, [("shared score", got)], "shared score")
    return pair(text, figure(f"{prefix}shared-score", svg, "the shared score's distribution over the games"))


def cooperative_note(coop: dict) -> str:
    """A cooperative run's line: the table's win rate and the shared score, each with its 95 % interval."""
    parts = []
    for key, words, scale, unit in (("table_wins", "table wins", 100, " %"), ("score", "shared score", 1, "")):
        got = interval(coop.get(key))
        if got is None:
            parts.append(f"{words}: not measured")
            continue
        v, lo, hi = got
        span = f" (95 %: {lo * scale:.1f} – {hi * scale:.1f}{unit})" if lo is not None and hi is not None else ""
        parts.append(f"{words} {v * scale:.1f}{unit}{span}")
    return f'<p class="note">cooperative: seats win or lose together; {esc("; ".join(parts))}.</p>'


def fair_share(summary: dict):
    """The fair share of wins (1/P)."""
    fair = number(dig(summary, "metrics", "seat_advantage", "fair_share"))
    players = number(summary.get("players"))
    return fair if fair is not None else (1 / players if players else None)


def advantage_note(summary: dict) -> str:
    """The chi-square line: can the seats be told apart at this sample size?"""
    adv = dig(summary, "metrics", "seat_advantage")
    if not isinstance(adv, dict) or number(adv.get("chi2")) is None:
        return '<p class="na">chi-square test over seats: not measured.</p>'
    told = adv.get("distinguishable")
    if isinstance(adv.get("verdict"), str):
        return f'<p class="note">{esc(adv["verdict"])}.</p>'
    verdict = ("the seats' win shares differ more than chance explains" if told is True else
               "the seats cannot be told apart at this sample size" if told is False else "")
    return (f'<p class="note">chi-square {fmt_number(number(adv["chi2"]))} (df {esc(adv.get("df", "?"))}), '
            f"p = {fmt_p(adv.get('p'))}: {verdict}.</p>")


def seats_section(summary: dict, plots, prefix: str) -> str:
    """Win share per seat against the fair share."""
    names, wins = seat_names(summary), win_rows(summary)
    if not wins:
        return not_measured("win share per seat")
    entries = dig(summary, "metrics", "seat_advantage", "by_seat") or dig(summary, "intervals", "wins_by_seat") \
        or summary.get("wins_by_seat")
    fair = fair_share(summary)
    rows = [[cell(esc(names[k] if k < len(names) else f"seat {k}")), cell(fmt(entries[k], percent=True), True)]
            for k in range(len(wins))]
    text = table(["seat", "win share (95 % CI)"], rows) + advantage_note(summary)
    if fair is not None:
        text += f'<p class="note">fair share {fmt_number(fair, percent=True)}; a tie counts 1/k to each of its k winners.</p>'
    svg = plots.draw(draw.seat_shares, names[:len(wins)], [("", wins)], fair)
    return pair(text, figure(f"{prefix}win-share", svg, "win share per seat with 95 % intervals; dashed: fair share"))


def scores_section(summary: dict, plots, prefix: str) -> str:
    """Score per seat: mean with interval, spread, and the distribution."""
    names = seat_names(summary)
    means = dig(summary, "intervals", "score_by_seat") or dig(summary, "score", "mean_by_seat")
    sds = items(dig(summary, "score", "sd_by_seat"))
    if not isinstance(means, list) or not means:
        return not_measured("scores")
    rows = [[cell(esc(names[k] if k < len(names) else f"seat {k}")), cell(fmt(m), True),
             cell(fmt(sds[k]) if k < len(sds) else fmt(None), True)] for k, m in enumerate(means)]
    text = table(["seat", "mean score (95 % CI)", "sd"], rows)
    hist = summary.get("score_histogram")
    hist = hist.get("by_seat") if isinstance(hist, dict) else hist
    series = [(names[k] if k < len(names) else f"seat {k}", bins(h)) for k, h in enumerate(items(hist))]
    series = [(n, b) for n, b in series if b]
    if not series:
        return pair(text, not_measured("score distribution"))
    svg = plots.draw(draw.histograms, series, "score")
    return pair(text, figure(f"{prefix}scores", svg, "score distribution per seat"))


def count_or_na(value) -> str:
    """A count as a whole number, or "not measured"."""
    v = number(value)
    return fmt(None) if v is None else fmt_count(v)


def length_entry(summary: dict, what: str, stat: str):
    """turns/moves mean or median from the metrics, falling back to today's fields for the mean."""
    got = dig(summary, "metrics", "length", what, stat)
    if got is None and stat == "mean":
        got = dig(summary, "intervals", what) or dig(summary, what, "mean")
    return got


def length_section(summary: dict, plots, prefix: str) -> str:
    """Game length: turns, moves and decisions per seat, and the histogram of turns."""
    rows = [[cell(what), cell(fmt(length_entry(summary, what, "mean")), True),
             cell(fmt(length_entry(summary, what, "median")), True),
             cell(count_or_na(dig(summary, what, "min")), True), cell(count_or_na(dig(summary, what, "max")), True)]
            for what in ("turns", "moves")]
    text = table(["per game", "mean (95 % CI)", "median (95 % CI)", "min", "max"], rows)
    decisions = dig(summary, "metrics", "length", "decisions_by_seat")
    names = seat_names(summary)
    if isinstance(decisions, list) and decisions:
        text += table(["seat", "decisions per game (95 % CI)"],
                      [[cell(esc(names[k] if k < len(names) else f"seat {k}")), cell(fmt(d), True)]
                       for k, d in enumerate(decisions)])
    else:
        text += not_measured("decisions per seat")
    series = [(what, bins(dig(summary, "metrics", "length", what, "histogram"))) for what in ("turns", "moves")]
    series = [(n, b) for n, b in series if b]
    if not series:
        return pair(text, not_measured("game-length histogram"))
    svg = plots.draw(draw.histogram_panels, [(n, b, f"{n} per game") for n, b in series],
                     width=4.6 if len(series) == 1 else 6.4)
    return pair(text, figure(f"{prefix}length", svg, "game length: games by number of " + " and ".join(
        n for n, _ in series)))


TENSION = [("winner's margin over the runner-up", ("closeness", "margin"), False),
           ("shared wins (ties)", ("closeness", "shared_wins"), True),
           ("lead changes per game", ("lead_changes",), False),
           ("decisiveness (share of the game the final winner leads for good)", ("decisiveness",), True),
           ("comeback rate (won by a seat last at half-time)", ("comeback",), True)]


def tension_section(summary: dict, plots, prefix: str) -> str:
    """Closeness, lead changes, decisiveness and comebacks; the tracked ones are plotted."""
    rows = []
    for name, path, percent in TENSION:
        entry = dig(summary, "metrics", *path)
        games = number(dig(entry, "games"))
        rows.append([cell(esc(name)), cell(fmt(entry, percent), True),
                     cell(fmt_count(games) if games is not None else "", True)])
    text = table(["metric", "value (95 % CI)", "games it applies to"], rows)
    shown = []
    for title, key, limits in (("lead changes per game", "lead_changes", None),
                               ("decisiveness", "decisiveness", (0, 1))):
        got = interval(dig(summary, "metrics", key))
        if got is not None:
            shown.append((title, *got, limits))
    if not shown:
        return pair(text, not_measured("lead changes and decisiveness (no per-turn track)"))
    svg = plots.draw(draw.forest, shown, False, height=0.9 + 0.7 * len(shown))
    return pair(text, figure(f"{prefix}tension", svg, "lead changes per game and decisiveness with 95 % intervals"))


def choice_section(summary: dict, plots, prefix: str) -> str:
    """Legal moves per decision: mean, forced share, histogram."""
    choice = dig(summary, "metrics", "choice")
    text = table(["per decision", "value (95 % CI)"],
                 [[cell("legal moves (mean)"), cell(fmt(dig(choice, "mean")), True)],
                  [cell("forced (one legal move)"), cell(fmt(dig(choice, "forced"), percent=True), True)]])
    hist = dig(choice, "histogram")
    got = sorted((k, c) for k, c in (((number(_as_number(k)), number(c)) for k, c in hist.items())
                                     if isinstance(hist, dict) else ()) if k is not None and c is not None)
    if not got:
        return pair(text, not_measured("choice histogram"))
    svg = plots.draw(draw.bar_counts, [k for k, _ in got], [c for _, c in got],
                     "legal moves at a decision", "decisions")
    return pair(text, figure(f"{prefix}choice", svg, "decisions by number of legal moves"))
