"""A run's games tallied as they end: exact running sums and value counts, never the list of games.

`Tally(players, bots)` takes each game's per-game record (`add`), folds in the tally of another part
of the same run (`merge`) and makes the run's summary (`summary`). Every sum is exact (integers,
fractions, exact partials of floats) and every count a count, so the summary is the same, bit for
bit, however the games were split and in whatever order the parts were merged; its size grows with
the distinct values only (each count keeps at most values.CAP of them). A tally pickles.
"""
from __future__ import annotations

from fractions import Fraction

from ..errors import UsageError
from . import pergame
from .coverage import MOVE_KINDS, as_point, coverage_warnings
from .intervals import LEVEL, chi2_sf, fraction_sqrt, t_quantile
from .values import (NO_GAMES, NO_SPREAD, ONE_GAME, Counts, Moments, approximate, histogram_of, mean_of, median_of,
                     number, seat_histograms_of, share_number)

SIGNIFICANCE = 1 - LEVEL
NOT_MEASURED_TRACK = None         # a metric that needs `track` in a run made without it: not measured


def add_to(counts: dict, key, times: int = 1) -> None:
    counts[key] = counts.get(key, 0) + times


def add_all(counts: dict, other: dict) -> None:
    for key, times in other.items():
        add_to(counts, key, times)


def exact_shares(ways: dict) -> Fraction:
    """Σ count / k over {k: count}: wins shared k ways, added exactly."""
    return sum((Fraction(times, k) for k, times in ways.items()), Fraction(0))


def game_number(record: dict, fallback: int) -> int:
    """The record's game number (records without one count from where they were added)."""
    g = record.get("game")
    return g if isinstance(g, int) else fallback


class Ratio:
    """Exact sums over games of x, y and their products: Σy / Σx with its residual Σ(y − r·x)²."""

    def __init__(self):
        self.n = self.sx = self.sy = self.sxx = self.sxy = self.syy = 0

    def add(self, x: int, y: int) -> None:
        self.n += 1
        self.sx += x
        self.sy += y
        self.sxx += x * x
        self.sxy += x * y
        self.syy += y * y

    def merge(self, other: Ratio) -> None:
        for name in ("n", "sx", "sy", "sxx", "sxy", "syy"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def residual(self) -> Fraction:
        """Σ(y − r·x)² with r = Σy / Σx, exact: Σy² − 2rΣxy + r²Σx²."""
        r = Fraction(self.sy, self.sx)
        return self.syy - 2 * r * self.sxy + r * r * self.sxx


class Stat:
    """A designer stat: where it was first seen, whether it is per seat, and per column (one per seat,
    or one) the exact sums of its values as numbers and how many of them were yes/no (and yes)."""

    def __init__(self, first: tuple, value):
        self.first = first
        self.per_seat = isinstance(value, list)
        size = len(value) if self.per_seat else 1
        self.moments = [Moments() for _ in range(size)]
        self.bools = [0] * size
        self.trues = [0] * size

    def fits(self, value) -> bool:
        return isinstance(value, list) == self.per_seat and (not self.per_seat or len(value) == len(self.moments))

    def add(self, value) -> None:
        for k, v in enumerate(value if self.per_seat else [value]):
            self.moments[k].add(float(v))
            if isinstance(v, bool):
                self.bools[k] += 1
                self.trues[k] += v

    def merge(self, other: Stat) -> None:
        self.first = min(self.first, other.first)
        for k, m in enumerate(other.moments):
            self.moments[k].merge(m)
            self.bools[k] += other.bools[k]
            self.trues[k] += other.trues[k]


def stat_mismatch(name: str, g: int, value, stat: Stat) -> UsageError:
    had = f"a list of {len(stat.moments)}" if stat.per_seat else "one value"
    got = f"a list of {len(value)}" if isinstance(value, list) else "one value"
    return UsageError(f"game {g}: stat '{name}' is {got} but {had} in other games of the run: the results "
                      "come from different versions of the rules; analyse them apart")


class Coverage:
    """Per coverage point over the games that counted coverage: games it ran in, runs and cards moved."""

    def __init__(self):
        self.games = 0              # games that counted coverage
        self.first = None           # the first such game's number
        self.ran = self.runs = self.moved = None
        self.bad_moved = None       # (game, what it had) of the first such game whose moved list does not fit

    def check(self, record: dict, g: int) -> None:
        counts = record.get("coverage")
        if counts is None:
            return
        if not isinstance(counts, list):
            raise UsageError(f"game {g} has no list of coverage counts: the results are not a run's")
        if self.runs is not None and len(counts) != len(self.runs):
            raise self.mismatch(g, len(counts))

    def mismatch(self, g: int, size: int) -> UsageError:
        return UsageError(f"game {g} has {size} coverage counts, but other games of the run have "
                          f"{len(self.runs)}: the results come from different versions of the rules")

    def start(self, size: int) -> None:
        """The counters of `size` points, at zero."""
        self.ran, self.runs, self.moved = [0] * size, [0] * size, [0] * size

    def add(self, record: dict, g: int) -> None:
        counts = record.get("coverage")
        if counts is None:
            return
        if self.runs is None:
            self.start(len(counts))
        self.games += 1
        self.first = g if self.first is None else min(self.first, g)
        for i, n in enumerate(counts):
            self.ran[i] += n > 0
            self.runs[i] += n
        moved = record.get("moved")
        if isinstance(moved, list) and len(moved) == len(counts):
            for i, n in enumerate(moved):
                self.moved[i] += n
        else:
            self.note_bad((g, len(moved) if isinstance(moved, list) else "no"))

    def note_bad(self, bad) -> None:
        if bad is not None and (self.bad_moved is None or bad[0] < self.bad_moved[0]):
            self.bad_moved = bad

    def merge(self, other: Coverage) -> None:
        if other.runs is None:
            return
        if self.runs is None:
            self.start(len(other.runs))
        elif len(other.runs) != len(self.runs):
            raise self.mismatch(other.first, len(other.runs))
        for mine, theirs in ((self.ran, other.ran), (self.runs, other.runs), (self.moved, other.moved)):
            for i, n in enumerate(theirs):
                mine[i] += n
        self.games += other.games
        self.first = other.first if self.first is None else min(self.first, other.first)
        self.note_bad(other.bad_moved)


class Tally:
    """The running statistics of one run's games (see the module's docstring)."""

    def __init__(self, players: int, bots: list):
        self.players, self.bots = players, list(bots)
        self.games = 0
        self.wins = [{} for _ in range(players)]        # seat → {k: wins shared k ways}
        self.shared = 0                                 # games won by more than one seat
        self.skill = {}                                 # bot name → {k: wins shared k ways}
        self.turns, self.moves = Moments(), Moments()
        self.turn_counts, self.move_counts = Counts(), Counts()
        self.scores = [Moments() for _ in range(players)]
        self.score_counts = [Counts() for _ in range(players)]
        self.decisions = [Moments() for _ in range(players)]
        self.margin, self.lead_changes, self.decisiveness = Moments(), Moments(), Moments()
        self.tracked = 0                                # games with a track
        self.comeback_games, self.comeback = 0, {}      # games with a unique last at half-time; its wins
        self.choice_mean, self.choice_forced = Ratio(), Ratio()
        self.choices = {}                               # legal moves (text) → decisions
        self.stats = {}                                 # name → Stat
        self.coverage = Coverage()

    def add(self, record: dict) -> None:
        """Tally one game's per-game record (refused, the tally unchanged, if it does not fit the others)."""
        g = game_number(record, self.games)
        self.check(record, g)
        self.games += 1
        self.add_result(record)
        self.add_length(record)
        self.add_track(record)
        self.add_choices(record)
        self.add_stats(record, g)
        self.coverage.add(record, g)

    def check(self, record: dict, g: int) -> None:
        self.coverage.check(record, g)
        for name, value in record.get("stats", {}).items():
            if name in self.stats and not self.stats[name].fits(value):
                raise stat_mismatch(name, g, value, self.stats[name])

    def add_result(self, record: dict) -> None:
        winners, scores = record["winners"], record["scores"]
        ways = len(winners)
        bots = record.get("bots", self.bots)
        for seat in winners:
            add_to(self.wins[seat], ways)
            add_to(self.skill.setdefault(bots[seat], {}), ways)
        self.shared += ways > 1
        for seat in range(self.players):
            self.scores[seat].add(scores[seat])
            self.score_counts[seat].add(scores[seat])
        margin = pergame.margin(record)
        if margin is not None:
            self.margin.add(margin)

    def add_length(self, record: dict) -> None:
        self.turns.add(record["turns"])
        self.turn_counts.add(record["turns"])
        self.moves.add(record["moves"])
        self.move_counts.add(record["moves"])
        if "decisions" in record:
            for seat in range(self.players):
                self.decisions[seat].add(record["decisions"][seat])

    def add_track(self, record: dict) -> None:
        if not record.get("track"):
            return
        self.tracked += 1
        for per_game, sums in ((pergame.lead_changes, self.lead_changes), (pergame.decisiveness, self.decisiveness)):
            value = per_game(record)
            if value is not None:
                sums.add(value)
        last = pergame.half_time_last(record)
        if last is not None:
            self.comeback_games += 1
            winners = record["winners"]
            if last in winners:
                add_to(self.comeback, len(winners), winners.count(last))

    def add_choices(self, record: dict) -> None:
        decisions, moves, forced = pergame.choice_totals(record)
        if decisions > 0:
            self.choice_mean.add(decisions, moves)
            self.choice_forced.add(decisions, forced)
        add_all(self.choices, record.get("choices", {}))

    def add_stats(self, record: dict, g: int) -> None:
        for position, (name, value) in enumerate(record.get("stats", {}).items()):
            stat = self.stats.get(name)
            if stat is None:
                stat = self.stats[name] = Stat((g, position), value)
            else:
                stat.first = min(stat.first, (g, position))
            stat.add(value)

    def merge(self, other: Tally) -> None:
        """Fold in the tally of other games of the same run (any split, any order: the same result)."""
        if (other.players, other.bots) != (self.players, self.bots):
            raise UsageError(f"cannot merge the tally of a run of {other.players} seats with bots {other.bots} "
                             f"into one of {self.players} seats with bots {self.bots}")
        self.check_stats(other)
        self.coverage.merge(other.coverage)
        self.games += other.games
        self.shared += other.shared
        self.tracked += other.tracked
        self.comeback_games += other.comeback_games
        for mine, theirs in zip(self.wins, other.wins):
            add_all(mine, theirs)
        for name, ways in other.skill.items():
            add_all(self.skill.setdefault(name, {}), ways)
        add_all(self.comeback, other.comeback)
        add_all(self.choices, other.choices)
        for name in ("turns", "moves", "turn_counts", "move_counts", "margin", "lead_changes", "decisiveness",
                     "choice_mean", "choice_forced"):
            getattr(self, name).merge(getattr(other, name))
        for name in ("scores", "score_counts", "decisions"):
            for mine, theirs in zip(getattr(self, name), getattr(other, name)):
                mine.merge(theirs)
        self.merge_stats(other)

    def check_stats(self, other: Tally) -> None:
        for name, stat in other.stats.items():
            mine = self.stats.get(name)
            if mine is not None and (mine.per_seat, len(mine.moments)) != (stat.per_seat, len(stat.moments)):
                value = [0] * len(stat.moments) if stat.per_seat else 0
                raise stat_mismatch(name, stat.first[0], value, mine)

    def merge_stats(self, other: Tally) -> None:
        for name, stat in other.stats.items():
            if name in self.stats:
                self.stats[name].merge(stat)
            else:
                self.stats[name] = stat_copy(stat)

    def wins_exact(self) -> list:
        """Each seat's wins (a tie split 1/k), exact."""
        return [exact_shares(w) for w in self.wins]

    def win_counts(self) -> list:
        """Each seat's wins (a tie split 1/k) as floats: the exact sums, correctly rounded."""
        return [float(w) for w in self.wins_exact()]

    def win_shares(self) -> list:
        """Each seat's wins / games (None before the first game)."""
        return [float(w) / self.games if self.games else None for w in self.wins_exact()]

    def summary(self, points=None) -> dict:
        """The run's summary: the older fields (turns, moves, score, wins_by_seat) and the intervals,
        metrics and score histograms; `points` are the program's coverage points (None: not counted)."""
        from_sections = sections(self, points)
        return {"turns": spread(self.turns), "moves": spread(self.moves),
                "score": {"mean_by_seat": [m.mean() if m.n else None for m in self.scores],
                          "sd_by_seat": [m.pstdev() if m.n else None for m in self.scores]},
                "wins_by_seat": self.win_shares(), **from_sections}


def stat_copy(stat: Stat) -> Stat:
    """A stat of this tally's own, with the sums of another's (merging must not share them)."""
    out = Stat(stat.first, [0] * len(stat.moments) if stat.per_seat else 0)
    out.merge(stat)
    return out


def spread(m: Moments) -> dict:
    """Mean, population standard deviation, min and max (None for each before the first game)."""
    if not m.n:
        return {"mean": None, "sd": None, "min": None, "max": None}
    return {"mean": m.mean(), "sd": m.pstdev(), "min": m.low, "max": m.high}



# The summary's "intervals", "metrics" and "score_histogram" from a tally (manual, "Analysing a game").
# Every number is {"value": v, "ci95": [lo, hi]}: shares use the Wilson score interval (ties split),
# means the Student-t interval over games, medians order statistics, ratios over decisions a ratio
# estimator over games (decisions within one game are not independent).

def sections(t: Tally, points) -> dict:
    """The summary's "intervals", "metrics" and "score_histogram" (and a note when scores were binned)."""
    wins = t.win_counts()
    out = {"intervals": intervals(t, wins),
           "metrics": {"seat_advantage": seat_advantage(wins, t.games, t.players),
                       "length": length(t),
                       "closeness": {"margin": mean_of(t.margin), "shared_wins": share_number(t.shared, t.games)},
                       "lead_changes": measured(t.lead_changes),
                       "decisiveness": measured(t.decisiveness),
                       "comeback": comeback(t),
                       "choice": choice(t),
                       **coverage(points, t),
                       "skill_gap": skill_gap(t),
                       "stats": stats(t)},
           "score_histogram": seat_histograms_of([c.items() for c in t.score_counts])}
    widths = [c.width() for c in t.score_counts if c.width() is not None]
    if widths:
        out["score_histogram_note"] = approximate(max(widths))
    return out


def intervals(t: Tally, wins: list) -> dict:
    """Intervals on the older numbers: win share and mean score by seat, mean turns and moves."""
    return {"wins_by_seat": [share_number(w, t.games) for w in wins],
            "score_by_seat": [mean_of(m) for m in t.scores],
            "turns": mean_of(t.turns),
            "moves": mean_of(t.moves)}


def seat_advantage(wins: list, games: int, players: int) -> dict:
    """Win share by seat against the fair share 1/P, with a chi-square goodness-of-fit test over seats."""
    out = {"fair_share": 1 / players, "by_seat": [share_number(w, games) for w in wins],
           "chi2": None, "df": players - 1, "p": None, "distinguishable": False}
    total = sum(wins)                            # games with a winner; each seat expects total / P
    if players < 2 or total <= 0:
        out["verdict"] = "one seat, or no game with a winner: nothing to tell apart"
        return out
    expected = total / players
    out["chi2"] = sum((w - expected) ** 2 / expected for w in wins)
    out["p"] = chi2_sf(out["chi2"], players - 1)
    out["distinguishable"] = out["p"] < SIGNIFICANCE
    out["verdict"] = seat_verdict(out, wins, games, expected)
    return out


def seat_verdict(out: dict, wins: list, games: int, expected: float) -> str:
    """One line on whether the seats' win shares can be told apart at this sample size."""
    test = f"chi-square {out['chi2']:.2f}, df {out['df']}, p = {out['p']:.2g}, {games} games"
    small = " (fewer than 5 expected wins per seat: the test is rough)" if expected < 5 else ""
    if not out["distinguishable"]:
        return f"the seats cannot be told apart at this sample size ({test}){small}"
    best = max(range(len(wins)), key=lambda k: wins[k])
    return (f"the seats differ: seat {best} wins {100 * wins[best] / games:.1f} % against a fair "
            f"{100 / len(wins):.1f} % ({test}){small}")


def length(t: Tally) -> dict:
    """Turns and moves (mean, median, histogram) and decisions per seat (mean)."""
    out = {}
    for key, sums, counts in (("turns", t.turns, t.turn_counts), ("moves", t.moves, t.move_counts)):
        out[key] = {"mean": mean_of(sums), "median": median_of(counts), "histogram": histogram_of(counts.items())}
        if counts.width() is not None:
            out[key]["histogram_note"] = approximate(counts.width())
    out["decisions_by_seat"] = [mean_of(m) for m in t.decisions]
    return out


def measured(sums: Moments) -> dict | None:
    """The mean of a per-game value over the games that give one; None (not measured) if none does."""
    if not sums.n:
        return NOT_MEASURED_TRACK
    return {**mean_of(sums), "games": sums.n}


def comeback(t: Tally) -> dict | None:
    """The share of games with a unique last seat at half-time that this seat went on to win (ties split)."""
    if not t.tracked:
        return NOT_MEASURED_TRACK
    return {**share_number(float(exact_shares(t.comeback)), t.comeback_games), "games": t.comeback_games}


def ratio_number(r: Ratio) -> dict:
    """Σy / Σx over games with its interval from the ratio estimator (delta method, clustered by game)."""
    if r.n == 0:
        return number(None, note=NO_GAMES)
    ratio = r.sy / r.sx
    if r.n == 1:
        return number(ratio, note=ONE_GAME)
    mean_x = float(r.sx) / r.n                   # as statistics.fmean
    half = t_quantile(0.5 + LEVEL / 2, r.n - 1) * fraction_sqrt(r.residual() / ((r.n - 1) * r.n)) / mean_x
    return number(ratio, ratio - half, ratio + half, NO_SPREAD if half == 0 else None)


def choice(t: Tally) -> dict:
    """Legal moves per decision (over all decisions, interval over games), forced share and histogram."""
    forced = ratio_number(t.choice_forced)
    if forced["value"] is not None and forced["ci95"][0] is not None:
        forced["ci95"] = [max(0.0, forced["ci95"][0]), min(1.0, forced["ci95"][1])]
    return {"mean": ratio_number(t.choice_mean), "forced": forced,
            "histogram": {k: t.choices[k] for k in sorted(t.choices, key=int)}}


def coverage(points, t: Tally) -> dict:
    """Rule coverage rows and their warnings; None when the run counted none (or its points are unknown)."""
    rows = coverage_rows(points, t) if points is not None else []
    if not rows:
        return {"coverage": None, "coverage_warnings": None}
    return {"coverage": rows, "coverage_warnings": coverage_warnings(rows, t.games)}


def coverage_rows(points, t: Tally) -> list:
    """One row per point: {kind, where, text, games (it ran in), share (of the games), runs, moved}."""
    points, c = [as_point(p) for p in points], t.coverage
    if not c.games:
        return []
    if c.games < t.games:
        raise UsageError(f"{t.games - c.games} of {t.games} games have no coverage: "
                         "analyse runs made with coverage together, not mixed with runs made without")
    if points and len(c.runs) != len(points):
        raise not_fitting(c.first, len(c.runs), "coverage", len(points))
    if c.bad_moved is not None and any(p["kind"] in MOVE_KINDS for p in points):
        raise not_fitting(*c.bad_moved, "moved", len(points))
    return [dict(p, games=c.ran[i], share=c.ran[i] / c.games, runs=c.runs[i],
                 moved=c.moved[i] if p["kind"] in MOVE_KINDS else None) for i, p in enumerate(points)]


def not_fitting(g: int, had, field: str, size: int) -> UsageError:
    return UsageError(f"game {g} has {had} {field} counts, but the ruleset has {size} coverage points: the results "
                      "come from another version of the rules")


def skill_gap(t: Tally) -> list | None:
    """For each bot (when the bots differ): the share of each game's win its seats took, against seats / P."""
    names = list(dict.fromkeys(t.bots))
    if len(names) < 2:
        return None
    out = []
    for name in names:
        seats = sum(1 for b in t.bots if b == name)
        out.append({"bot": name, "seats": seats, "fair_share": seats / t.players,
                    "share": share_number(float(exact_shares(t.skill.get(name, {}))), t.games)})
    return out


def stats(t: Tally) -> dict:
    """Designer stats: a per-seat stat's mean (or share, for a yes/no stat) by seat, a per-game stat's overall."""
    out = {}
    for name in sorted(t.stats, key=lambda n: t.stats[n].first):
        stat = t.stats[name]
        share = sum(stat.bools) == sum(m.n for m in stat.moments) > 0     # a yes/no stat: a share of games
        columns = [stat_number(m, bools, trues) for m, bools, trues in zip(stat.moments, stat.bools, stat.trues)]
        if stat.per_seat:
            out[name] = {"per_seat": True, "share": share, "by_seat": columns}
        else:
            out[name] = {"per_seat": False, "share": share, "all": columns[0]}
    return out


def stat_number(m: Moments, bools: int, trues: int) -> dict:
    """A yes/no stat as a share with Wilson, a number as a mean with its t interval."""
    if m.n and bools == m.n:
        return share_number(trues, m.n)
    return mean_of(m)
