"""A run's summary as the terminal shows it: the seat table with intervals, the metrics one line
each, the designer's stats, what never ran, and compact histograms of scores and game length."""
from __future__ import annotations

import math

from rich.table import Table
from rich.text import Text

from .play import plural
from .report_text import text_histogram


def pm(x: dict | None, percent: bool = False, digits: int | None = None) -> str:
    """52.2 % ± 2.8 for a share, 41.3 ± 0.5 for a mean (the decimals follow the interval's width);
    '–' when not measured, the value alone when it has no interval."""
    if not x or x.get("value") is None:
        return "–"
    scale = 100 if percent else 1
    v, ci = x["value"] * scale, x.get("ci95") or [None, None]
    if None in ci:
        return f"{v:.{2 if digits is None else digits}f}" + (" %" if percent else "")
    half = max(v - ci[0] * scale, ci[1] * scale - v, 0)
    if digits is None:      # two significant figures of the half-width, at most 3 decimals
        digits = 2 if half == 0 else min(2 if percent else 3, max(0, 1 - math.floor(math.log10(half))))
    return f"{v:.{digits}f}" + (" %" if percent else "") + f" ± {half:.{digits}f}"


def print_summary(console, doc: dict) -> None:
    """Everything a run measured, for a reader at a terminal (Text, not markup: names are shown as written)."""
    console.print(seat_table(doc))
    m = doc["metrics"]
    for line in (cooperative_lines(doc["cooperative"]) if "cooperative" in doc else seat_lines(m)) + metric_lines(doc, m):
        console.print(Text(line), soft_wrap=True)
    stats = m["stats"]
    for line in stats_lines(doc, stats) if stats else []:
        console.print(Text(line), soft_wrap=True)
    for line in coverage_lines(m):
        console.print(Text(line), soft_wrap=True)
    for line in histogram_lines(doc):
        console.print(Text(line), soft_wrap=True)
    for line in timing_lines(doc):
        console.print(Text(line), soft_wrap=True)


def timing_lines(doc: dict) -> list:
    """Games per second in all and per worker, and the share of the time spent outside games."""
    timing = doc.get("timing")
    if not timing:
        return []
    played = timing["games"]
    resumed = f" (and {doc['games'] - played:,} from the results file)" if played != doc["games"] else ""
    lines = [f"{plural(played, 'game')} played in {timing['seconds']:.2f} s{resumed}: "
             f"{timing['games_per_second']:.1f} games/s"]
    workers = timing.get("workers") or []
    if len(workers) > 1:
        each = ", ".join(f"{w['games_per_second']:.1f}" for w in workers)
        lines.append(f"{len(workers)} workers: {each} games/s each while playing")
    if "outside_games" in timing:
        lines.append(f"{timing['outside_games']:.0%} of the time outside games (start-up, compiling, merging, "
                     "waiting)")
    return lines


def seat_table(doc: dict) -> Table:
    """A row per seat: its bot, mean score and win share (a cooperative run: its bot and decisions per
    game; the score and the win are the table's, below)."""
    iv = doc["intervals"]
    table = Table(title=Text(f"{doc['name']}: {doc['games']} games, {doc['players']} players, seed {doc['seed']}"
                             + "".join(f", {k}={v}" for k, v in doc["overrides"].items())))
    together = "cooperative" in doc
    score = "mean score ± 95 % (lowest wins)" if doc.get("wins") == "lowest" else "mean score ± 95 %"
    columns = (("decisions per game ± 95 %", "right"),) if together else \
        ((score, "right"), ("sd", "right"), ("win share ± 95 %", "right"))
    for name, justify in (("seat", "right"), ("bot", "left")) + columns:
        # a long bot spec wraps rather than losing its options (a ruleset's bots.options among them)
        table.add_column(name, justify=justify, overflow="fold" if name == "bot" else "ellipsis")
    decisions = doc["metrics"]["length"]["decisions_by_seat"]
    for k in range(doc["players"]):
        cells = [pm(decisions[k])] if together else \
            [pm(iv["score_by_seat"][k]), f"{doc['score']['sd_by_seat'][k]:.2f}", pm(iv["wins_by_seat"][k], percent=True)]
        table.add_row(str(k), Text(doc["bots"][k].replace(",", ", ")), *cells)
    return table


def cooperative_lines(coop: dict) -> list:
    """A cooperative run: the table's win rate and shared score, instead of a seat advantage."""
    sd = coop.get("score_sd")
    return ["cooperative: seats win or lose together",
            f"table wins {pm(coop['table_wins'], percent=True)}; shared score {pm(coop['score'])}"
            + (f" (sd {sd:.2f})" if sd is not None else "")]


def seat_lines(m: dict) -> list:
    return [f"seat advantage: {m['seat_advantage']['verdict']}"]


def metric_lines(doc: dict, m: dict) -> list:
    """One line per metric, each number with its 95 % interval."""
    lines = []
    length = m["length"]
    for key in ("turns", "moves"):
        s = doc[key]
        lines.append(f"{key}: mean {pm(length[key]['mean'])}, median {pm(length[key]['median'])} "
                     f"(sd {s['sd']:.1f}, min {s['min']} – max {s['max']})")
    if "cooperative" in doc:        # nobody leads a table that wins together: choice is what is left
        return lines + choice_lines(m)
    lines.append("decisions per seat: " + ", ".join(pm(x) for x in length["decisions_by_seat"]))
    close = m["closeness"]
    lines.append(f"closeness: winner's margin {pm(close['margin'])}; shared wins "
                 f"{pm(close['shared_wins'], percent=True)}")
    if m.get("lead_changes") is None:
        lines.append("lead changes, decisiveness, comebacks: not measured (simulate --track follows the scores "
                     "turn by turn)")
    else:
        lines.append(f"lead changes per game {pm(m.get('lead_changes'))}; decisiveness "
                     f"{pm(m.get('decisiveness'), percent=True)}; comebacks {pm(m.get('comeback'), percent=True)}")
    lines += choice_lines(m)
    for gap in m.get("skill_gap") or []:
        lines.append(f"skill gap: {gap['bot']} ({gap['seats']} of {doc['players']} seats) wins "
                     f"{pm(gap['share'], percent=True)} against a fair {gap['fair_share']:.1%}")
    return lines


def choice_lines(m: dict) -> list:
    choice = m["choice"]
    return [f"choice: {pm(choice['mean'])} legal moves per decision; forced {pm(choice['forced'], percent=True)}"]


def stats_lines(doc: dict, stats: dict) -> list:
    """One line per designer stat: its mean (a share for a yes/no stat) per seat or per game."""
    width = max(len(name) for name in stats)
    lines = ["stats (mean, or share of games for a yes/no stat, ± 95 %):"]
    for name, s in stats.items():
        share = s.get("share", False)
        if s.get("per_seat"):
            text = " | ".join(f"seat {k} {pm(x, percent=share)}" for k, x in enumerate(s["by_seat"]))
        else:
            text = f"per game {pm(s.get('all'), percent=share)}"
        lines.append(f"  {name:<{width}}  {text}")
    return lines


def coverage_lines(m: dict) -> list:
    rows = m.get("coverage") or []
    warnings = m.get("coverage_warnings") or []
    if not rows:
        return []
    ran = sum(1 for r in rows if r.get("games"))
    return [f"rule coverage: {ran} of {len(rows)} points ran in at least one game"] + \
        [f"warning: {w}" for w in warnings]


def histogram_lines(doc: dict) -> list:
    m = doc["metrics"]
    lines = []
    hist = m["length"]["turns"]["histogram"]
    if hist and len(hist) == 1 and hist[0][1] - hist[0][0] == 1:
        lines.append(f"turns per game: {hist[0][0]} in every game")
    elif hist:
        lines.append("turns per game:")
        lines += ["  " + line for line in text_histogram(hist, 60)]
    seats = doc["score_histogram"]
    if "cooperative" in doc:
        shared = doc["cooperative"].get("score_histogram")
        return lines + (["shared score:"] + ["  " + line for line in text_histogram(shared, 60)] if shared else [])
    if seats and seats[0]:          # every seat's scores together: the bins are shared
        pooled = [[lo, hi, sum(h[i][2] for h in seats)] for i, (lo, hi, _) in enumerate(seats[0])]
        lines.append("scores (every seat):")
        lines += ["  " + line for line in text_histogram(pooled, 60)]
    return lines
