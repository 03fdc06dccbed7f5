"""The log of play: what happened, as the seats watching saw it, a decision told in its own words.

A decision is told by its name (or its option's) and what was chosen, as far as the watching
seats may know it (telling.py); the moves and shuffles that follow are told as they saw them; a
variable change only when the ruleset gives the variable a label (`display.labels`).
"""
from __future__ import annotations

from ...runtime.decisions import show
from ...runtime.announce import NONE
from ...runtime.engine import DECIDE, MOVE, ORDER, REVEAL, SET, SHUFFLE, TURN
from ...runtime.tell import TELL
from ...runtime.events import describe, group
from .overview import runs
from .telling import Telling
from .words import plural


class Story(Telling):
    """The log part of a Session: events told as lines of text."""

    def report_opening(self) -> None:
        """The setup and what the rules did before the first decision, told like any turn."""
        if self.st.log and self.humans:
            self.report("setup", self.st.log, self.humans)

    def report_since(self, seat: int, start: int) -> None:
        """A recap for `seat` of the log from event `start` on: every decision told as it may know it."""
        log = self.st.log
        done = sum(1 for e in log[:start] if e[0] == DECIDE)      # each move adds one DECIDE: its number
        made = [self.befores().get(done + k) for k in range(sum(1 for e in log[start:] if e[0] == DECIDE))]
        self.tell_lines(f"seat {seat}, since you last looked", log[start:], [seat], made, seat)

    def report(self, actor: str, events: list, viewers: list, before=None) -> None:
        """What happened, as every one of `viewers` saw it (faces only where they all saw them);
        `before`, the state the events started from, lets a decision of another seat be told (and
        is kept for the recaps of report_since)."""
        if before is not None:
            if before.log is not None:
                before = before.clone(log=False)        # kept for a whole game: without its log
            self.befores()[before.moves] = before
        self.tell_lines(actor, events, viewers, [before])

    def befores(self) -> dict:
        """The state before each move reported with one, by its number (st.moves): an undone move's
        is replaced when the next move is made."""
        if "_befores" not in self.__dict__:
            self._befores = {}
        return self._befores

    def tell_lines(self, actor: str, events: list, viewers: list, befores: list, reader=None) -> None:
        """The lines of report: befores[k] is the state before the k-th decision in events, or None;
        with a `reader` (a recap of several seats' moves) each decision says whose it was."""
        lines, heads, k = [], set(), 0          # heads: the indices of lines that begin a decision
        for decide, part in _by_decision(events):
            if decide is None:
                lines += self.event_lines(part, viewers)
                continue
            before = befores[k] if k < len(befores) else None
            k += 1
            told = self.tell(decide, part, viewers, before)
            body = self.event_lines(part, viewers)
            if told.moved and body and body[0].startswith(told.moved + " ") and told.moves_chosen(part):
                told.text += body.pop(0)[len(told.moved):]      # "play 2×red" + " hand(1) → pile(1)"
            who = "" if reader is None else ("you" if decide[1] == reader else f"seat {decide[1]}")
            heads.add(len(lines))
            if told.text is None and not body:
                lines.append(f"{who} did something hidden ({told.name})".lstrip())
                continue
            lines.append((f"{who}: " if who else "") + (told.text or f"{told.name} (hidden)"))
            lines += body
        if not lines:
            self.story_line(f"{actor}: (nothing visible)", True)      # no decision in the events (a recap)
            return
        first = lines[0]
        self.story_line(f"{actor} {first}" if first.startswith("did something hidden") else f"{actor}: {first}",
                        True)
        for i, line in enumerate(lines[1:], 1):
            self.story_line(f"    {line}", i in heads)

    def event_lines(self, events: list, viewers: list) -> list:
        """The moves, shuffles, labelled variable changes and turns of events, one line each."""
        everyone = sum(1 << k for k in viewers)
        lines = []
        deal: list = []         # consecutive moves from one zone to one player zone each: a deal
        for e in _merged(_last_of_runs(events), everyone):
            if e[0] == MOVE:
                seen = not isinstance(e[3], int) and e[4] & everyone == everyone
                shown = e if seen else (MOVE, e[1], e[2], e[3] if isinstance(e[3], int) else len(e[3]), 0) + tuple(e[5:])
                if deal and not self.same_deal(deal[-1], shown):
                    lines.append(self.describe_deal(deal))
                    deal = []
                deal.append(shown)
                continue
            if deal:
                lines.append(self.describe_deal(deal))
                deal = []
            if e[0] in (SHUFFLE, ORDER, NONE):
                lines.append(describe(self.program, e, zone_names=self.zone_words()))
            elif e[0] == REVEAL:        # the faces only where every viewer was shown them
                shown = e if not isinstance(e[2], int) and e[3] & everyone == everyone else \
                    (REVEAL, e[1], e[2] if isinstance(e[2], int) else len(e[2]), e[3])
                lines.append(describe(self.program, shown, zone_names=self.zone_words()))
            elif e[0] == TELL:          # what was told only where every viewer was told it
                shown = e if not isinstance(e[2], int) and e[3] & everyone == everyone else \
                    (TELL, e[1], e[2] if isinstance(e[2], int) else len(e[2]), e[3], None, None)
                lines.append(describe(self.program, shown, zone_names=self.zone_words()))
            elif e[0] == SET and e[1] in self.display.labels:
                owner = "" if e[2] is None else f" of seat {e[2]}"
                lines.append(f"{self.display.label(e[1])}{owner} = {show(e[3])}")
            elif e[0] == TURN:
                lines.append(f"— turn {e[2]}: seat {e[1]} ({self.who(e[1])}) —")
        if deal:
            lines.append(self.describe_deal(deal))
        return lines

    def same_deal(self, a: tuple, b: tuple) -> bool:
        """Whether two moves belong to one deal: same source, destinations of one per-player zone or
        of one family."""
        decl = self.program.zone_decl
        d = decl[a[2]]
        return a[1] == b[1] and d is decl[b[2]] and (d.per_player or d.per is not None)

    def describe_deal(self, moves: list) -> str:
        """One line for a run of moves: 'deck → hand: seat 0 2×red · seat 1 2 hidden cards', or
        'stock → down[1–50]: 1 hidden card each'."""
        words = self.zone_words()
        if len(moves) == 1:
            return describe(self.program, moves[0], zone_names=words)
        prog = self.program
        got: dict = {}
        for _, _, dst, cards, *_ in moves:
            got.setdefault(dst, []).append(cards)
        parts = []
        for dst, items in got.items():
            hidden = sum(c for c in items if isinstance(c, int))
            faces = [c for cs in items if not isinstance(cs, int) for c in cs]
            parts.append((dst, ", ".join(x for x in (group(prog, faces) if faces else "", plural(hidden, "hidden card")
                                                       if hidden else "") if x)))
        src, decl = words[moves[0][1]], prog.zone_decl[moves[0][2]]
        name = self.display.label(decl.name)
        if decl.per_player:
            return f"{src} → {name}: " + " · ".join(f"seat {prog.zone_owner[d]} {t}" for d, t in parts)
        keys = list(prog.family[decl.name])
        index = [keys[(d - prog.zone_base[decl.name]) % prog.zone_width[decl.name]] for d, _ in parts]
        if len({t for _, t in parts}) == 1:
            return f"{src} → {name}[{runs(index)}]: {parts[0][1]} each"
        return f"{src} → {name}: " + " · ".join(f"[{k}] {t}" for k, (_, t) in zip(index, parts))

    def zone_words(self) -> list:
        """Per zone instance, its name in the log: the zone's label (display.labels), then its seat
        and index as in the program's name ('hand(1)', 'row[red]')."""
        prog, labels = self.program, self.display.labels
        if getattr(self, "_zone_words", None) is None or self._zone_words[0] is not labels:
            words = [self.display.label(d.name) + name[len(d.name):] if d.name in labels else name
                     for name, d in zip(prog.zone_names, prog.zone_decl)]
            self._zone_words = (labels, words)
        return self._zone_words[1]


def _by_decision(events: list) -> list:
    """[(DECIDE event or None, the events up to the next decision)]."""
    out = [(None, [])]
    for e in events:
        if e[0] == DECIDE:
            out.append((e, []))
        else:
            out[-1][1].append(e)
    return [(d, part) for d, part in out if d is not None or part]


def _merged(events: list, everyone: int) -> list:
    """Consecutive moves between the same two zones, seen alike, as one move ('7×… deck → row[red]')."""
    out = []
    for e in events:
        if e[0] == MOVE and len(e) > 7:
            e = e[:7]           # where the cards lay (a game that tells facts) is no part of the story
        if e[0] == MOVE and out and out[-1][0] == MOVE and out[-1][1:3] == e[1:3] and out[-1][5:] == e[5:] \
                and (out[-1][4] & everyone == everyone) == (e[4] & everyone == everyone):
            last = out[-1]
            out[-1] = (MOVE, e[1], e[2], tuple(last[3]) + tuple(e[3]), last[4] & e[4]) + tuple(e[5:])
        else:
            out.append(e)
    return out


def _last_of_runs(events: list) -> list:
    """The events with a run of changes of one variable told by its last value ('passes = 3')."""
    out = []
    for e in events:
        if e[0] == SET and out and out[-1][0] == SET and out[-1][1:3] == e[1:3]:
            out[-1] = e
        else:
            out.append(e)
    return out
