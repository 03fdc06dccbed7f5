"""A move typed by a human: by the key shown with it (its number in the list; for a choice of a
number or of a grid position, the value itself) or by any part of its text that names one move
only; any line refused with a reason."""
from __future__ import annotations

import dataclasses
import re

from ...frontend import ir
from ...runtime.decisions import normalise, show
from ..safe_text import clipped

NUMBER = re.compile(r"[+-]?[0-9]+")          # ASCII digits only: int() of other digits may fail
CANDIDATES = 6            # moves named in a "did you mean" before "…"
RANGES = 12               # runs of values named in a hint before "…"
COMMANDS = frozenset(("q", "quit", "exit", "?", "h", "help", "r", "n", "p", "d", "s", "o", "c", "u", "l"))
MOVE_MARK = "="           # before a typed move: a move even when it reads as a command


class MoveList:
    """The legal moves as shown: (key typed to choose it, move, its text) in the order shown, and
    a hint printed instead of the list when the moves are better chosen another way (or None);
    by_value: the keys are the values chosen (a number choice, grid positions), not numbers
    in the list."""

    def __init__(self, entries: list, hint: str | None = None, by_value: bool = False):
        self.entries, self.hint, self.by_value = entries, hint, by_value


def shown_order(kind: str, legal: list) -> list:
    """The legal moves in the order a player reads them: options in their order in the ruleset,
    cards by type in declaration order (the same types together, fewer cards first); the values
    of a list in its order. The engine's own order (bots and records use it) is left alone."""
    if kind == "cards":
        return sorted(legal, key=_cards_key)
    if kind == "options":
        return sorted(legal, key=lambda m: (m[0], *_cards_key(m[1] or ())))
    return list(legal)


def _cards_key(payload) -> tuple:
    """A card move's place in the list: the types it takes, then how many of each."""
    return tuple(t for t, _ in payload), tuple(n for _, n in payload)


def is_number(value) -> bool:
    """Whether a value is a whole number (true and false are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def ranges(values: list) -> str:
    """'1 to 4, 6, 8 to 50': the values in order, runs of whole numbers joined."""
    nums = sorted(v for v in values if is_number(v))
    runs: list = []
    for n in nums:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    parts = [str(a) if a == b else f"{a}, {b}" if b == a + 1 else f"{a} to {b}" for a, b in runs]
    parts += [show(v) for v in values if not is_number(v)]
    return ", ".join(parts[:RANGES]) + (", …" if len(parts) > RANGES else "")


def grid_choices(rules, families: list) -> set:
    """The positions (file, line, col) of the value choices whose values are positions of the
    grid: chosen from a grid family's index list, or used in the `where` as an index of one."""
    decls = [rules.zone_by_name[name] for name in families]
    lists = {d.per.fn.name for d in decls if isinstance(d.per, ir.UserCall) and not d.per.args}
    out, seen, todo = set(), set(), [rules.setup, rules.steps, rules.procedures]
    while todo:
        x = todo.pop()
        if isinstance(x, (list, tuple)):
            todo.extend(x)
        elif isinstance(x, dict):
            todo.extend(x.values())
        elif isinstance(x, (ir.Stmt, ir.Option)) and id(x) not in seen:
            seen.add(id(x))
            if isinstance(x, ir.ChooseS) and x.values is not None:
                v = x.values
                if (isinstance(v, ir.UserCall) and not v.args and v.fn.name in lists) or \
                        _indexes(x.where, x.slot, families):
                    out.add((x.pos.file, x.pos.line, x.pos.col))
            todo.extend(getattr(x, f.name) for f in dataclasses.fields(x))
    return out


def _indexes(e, slot: int, families: list) -> bool:
    """Whether expression e (not the bodies of the functions it calls) indexes one of the
    families with local `slot`."""
    if isinstance(e, ir.ZoneRef) and e.decl.name in families and isinstance(e.index, ir.Local) \
            and e.index.slot == slot:
        return True
    if not isinstance(e, ir.Expr):
        return False
    for f in dataclasses.fields(e):
        v = getattr(e, f.name)
        if any(_indexes(x, slot, families) for x in (v if isinstance(v, tuple) else (v,))):
            return True
    return False


def _words(text: str) -> list:
    """The words of a typed line, lower case, × read as *."""
    return text.replace("×", "*").lower().split()


def _terms(text: str) -> str:
    """A move's text after its name, compared loosely: spaces and case ignored, × for *, card
    terms in any order."""
    t = "".join(text.split()).replace("×", "*").lower()
    return "+".join(sorted(t.split("+"))) if "*" in t and "+" in t else t


def _joins(a: str, b: str, whole: bool) -> bool:
    """Whether characters a and b, side by side, are one name or number: word characters when
    whole, digits always (a number is never a part of a longer one: '1' is not in '12')."""
    if whole:
        return (a.isalnum() or a == "_") and (b.isalnum() or b == "_")
    return a.isdigit() and b.isdigit()


def _find(text: str, word: str, start: int, whole: bool) -> int:
    """Where word occurs in text from start (-1 if nowhere), not glued to the characters beside
    it (see _joins: 'red:1' is never found in 'red:12')."""
    i = text.find(word, start)
    while i >= 0:
        end = i + len(word)
        if not (i > 0 and _joins(text[i - 1], word[0], whole)) and \
                not (end < len(text) and _joins(word[-1], text[end], whole)):
            break
        i = text.find(word, i + 1)
    return i


def _contains(text: str, words: list, whole: bool) -> bool:
    """Whether the words occur in text in this order, one after another."""
    at = 0
    for w in words:
        i = _find(text, w, at, whole)
        if i < 0:
            return False
        at = i + len(w)
    return True


def text_matches(line: str, texts: list) -> list:
    """The indices of the texts a typed line names, by the best kind of match any text gives:
    the whole text (spaces, case and the order of card terms ignored); the text after the
    move's name; the line's words in order as whole words; as parts of words (never of numbers)."""
    want, words = normalise(line), _words(line)
    if not words:
        return []
    terms = _terms(line)
    tiers = (lambda t: normalise(t) == want,
             lambda t: ":" in t and _terms(t.partition(":")[2]) == terms,
             lambda t: _contains(t.lower(), words, True),
             lambda t: _contains(t.lower(), words, False))
    for fits in tiers:
        found = [i for i, t in enumerate(texts) if fits(t)]
        if found:
            return found
    return []


class TypedMoves:
    """The input part of a Session: the moves as listed, and a typed line to a legal move."""

    def value_keyed(self, legal: list) -> bool:
        """Whether the moves are typed as their values: a choice of a value among numbers (a
        number typed is then always a value, never a place in a list)."""
        return self.st.pending.kind == "value" and any(is_number(m[0]) for m in legal)

    def grid_choice(self, legal: list) -> bool:
        """Whether the moves are positions of the grid (display.grid), typed as shown in its cells."""
        if not self.grid or self.st.pending.kind != "value":
            return False
        at = getattr(self, "_grid_choices", None)
        if at is None:
            at = self._grid_choices = grid_choices(self.program.rules, self.grid[0])
        pos, family = self.st.pending.pos, self.program.family[self.grid[0][0]]
        return (pos.file, pos.line, pos.col) in at and all(m[0] in family for m in legal)

    def shown_moves(self, legal: list) -> MoveList:
        """The legal moves in the order the screen lists them, each with the key that chooses it."""
        st, text = self.st, self.program.move_text
        dec = st.pending
        moves = shown_order(dec.kind, legal)
        grid = self.grid_choice(legal)
        if not (grid or self.value_keyed(legal)):
            return MoveList([(str(i), m, text(st, m)) for i, m in enumerate(moves, 1)])
        entries = [(show(m[0]), m, text(st, m)) for m in moves]
        values = ranges([m[0] for m in moves])
        shadowed = [k for k, _, _ in entries if k.lower() in COMMANDS]
        also = (f"; type {', '.join(MOVE_MARK + k for k in shadowed)} for the "
                f"{'positions' if grid else 'values'} {', '.join(shadowed)} (commands otherwise)") if shadowed else ""
        if grid:
            return MoveList(entries, f"{dec.name}: type a position shown in the grid ({values}){also}", True)
        return MoveList(entries, f"{dec.name}: type the value itself ({values}){also}", True)

    def parse(self, line: str, legal: list):
        """The move a line names (by its key or any part of its text), or None after saying why
        not; any line (a number of any length, any characters) gets a reason, never an error."""
        shown = self.shown_moves(legal)
        entries, line = shown.entries, line.strip()
        if line.startswith(MOVE_MARK):
            line = line[len(MOVE_MARK):].strip()
        keyed = shown.by_value
        if NUMBER.fullmatch(line):
            n = int(line) if len(line) <= 100 else None    # far below Python's digit limit: no such move
            if keyed:
                found = [m for _, m, _ in entries if is_number(m[0]) and m[0] == n]
                if found:
                    return found[0]
                self.say(f"there is no {self.st.pending.name} {clipped(line, 20)} now: {shown.hint.partition(': ')[2]}"
                         ", or ? for help")
                return None
            if n is not None and 1 <= n <= len(entries):
                return entries[n - 1][1]
            self.say(f"there is no move {clipped(line, 20)}: type 1 to {len(entries)}, any part of a move's "
                     "text, or ? for help")
            return None
        if keyed:
            key = " ".join(line.split()).lower()
            found = [m for k, m, _ in entries if k.lower() == key]
            if found:
                return found[0]
        longest = max(len(t) for _, _, t in entries)
        if len(line) > 2 * longest + 20:
            self.say(f"that is not a move: {len(line):,} characters, longer than any legal move; type "
                     f"{self.how_to_type(shown)}, or ? for help")
            return None
        return self.match_text(line, shown)

    def how_to_type(self, shown: MoveList) -> str:
        if shown.by_value:
            return shown.hint.partition(": type ")[2] + " or any part of a move's text"
        return f"1 to {len(shown.entries)} or any part of a move's text"

    def match_text(self, line: str, shown: MoveList):
        """The one move whose text the line names, or None after saying why not."""
        texts = [t for _, _, t in shown.entries]
        found = text_matches(line, texts)
        if len(found) == 1:
            return shown.entries[found[0]][1]
        quoted = f"'{clipped(line, 60)}'"
        if not found:
            why = self.not_offered(line, texts) or "no legal move's text contains it"
            self.say(f"{quoted} is not a legal move for seat {self.st.decider} now: {why}; type "
                     f"{self.how_to_type(shown)}, or ? for help")
            return None
        named = ", ".join(texts[i] for i in found[:CANDIDATES]) + (" …" if len(found) > CANDIDATES else "")
        self.say(f"{quoted} fits {len(found)} moves — did you mean: {named}? type more of its text, "
                 f"or {'its value' if shown.by_value else 'its number'}")
        return None

    def not_offered(self, line: str, texts: list) -> str:
        """Why an option the line names is not listed (its when does not hold, or it has no cards to
        pick now), else ''."""
        dec = self.st.pending
        if dec is None or dec.kind != "options":
            return ""
        typed = line.partition(":")[0].strip().lower()
        for name, _, spec in dec.options:
            if name.lower() == typed and not any(t.partition(":")[0] == name for t in texts):
                return (f"option '{name}' is not offered now (its when condition does not hold)" if spec is None
                        else f"option '{name}' is not offered now (its when condition does not hold, or it has "
                             "no cards to choose)")
        return ""

    def show_help(self, legal: list) -> None:
        """How to type a move in this decision, and the commands."""
        shown = self.shown_moves(legal)
        first = shown.entries[0][2]
        part = re.split(r"[\s*+]+", first.partition(":")[2].strip())[-1]
        example = f"'{first}'" + (f" or '{part}'" if part and not shown.by_value else "")
        self.say("how to choose a move:")
        self.say(f"  · {shown.hint}" if shown.by_value
                 else f"  · type its number in the list (1 to {len(shown.entries)})")
        self.say("  · or its text, or any part of it that fits one move only:")
        self.say(f"    e.g. {example}")
        self.say("    (case and spaces do not matter, × stands for *; a part that fits")
        self.say("    several moves lists them)")
        self.say("  · a decision with only one legal move is taken for you, with a note")
        self.say("commands:")
        for key, what in HELP_COMMANDS:
            self.say(f"  {key:<11}{what}")


HELP_COMMANDS = [
    ("n, p", "the next or previous page of moves, when they do not fit"),
    ("d", "the full detail: every seat's panel, every zone, every move"),
    ("u", "take back your last move of this turn"),
    ("c", "confirm a move that asks for it"),
    ("s", "the piles you see in draw order, next card first"),
    ("o", "what may still be in each hidden zone (when knowledge is shown)"),
    ("l", "the whole log told before this screen (the screen shows what fits)"),
    ("r", "show the screen again"),
    ("?, h, help", "this help"),
    ("q", "quit"),
]
