"""A program's cache of every seat's evaluation, keyed on exactly what the evaluation may read.

Copies in a look-ahead mostly differ in what the evaluation does not read (the cards moved about,
not the ones it scores), so equal keys are frequent. The key holds every zone, variable and State
field the evaluation may read (compiler/reads.py state_reads, kept as program.eval_reads); there is
no cache when that is not known. The key is one generated function (a tuple of those zones' cards,
those variables and fields, read by index): about a seventh of a typical evaluation with its hash, so
the cache drops itself once TRIAL evaluations were asked for only if it answered fewer than HITS of
them (a shipped game's look-ahead gets 38-46 %, another's 17 %): it changes no value, only the cost.
"""
from __future__ import annotations

from ..runtime.engine import State

SIZE = 10_000       # evaluations kept per program (then the table starts again)
TRIAL = 500         # evaluations asked for before the cache is kept or dropped
HITS = 0.3          # the share of them it must have answered to be kept


class EvalCache:
    """key(st) -> every seat's evaluation, with how often it was asked and how often it had to work."""

    def __init__(self, key):
        self.key, self.table, self.asked, self.worked = key, {}, 0, 0

    def values(self, program, st) -> list:
        """Every seat's evaluation of st, from the table when an equal key was seen."""
        try:
            k = self.key(st)
            values = self.table.get(k)
        except TypeError:               # a variable it reads holds a list: not a key
            k = values = None
        if values is None:
            values = program.evaluations(st)
            self.worked += 1
            if k is not None:
                self.keep(k, values)
        self.asked += 1
        if self.asked == TRIAL and self.worked > TRIAL * (1 - HITS):
            program.eval_cache = False  # it answered too few: a key would cost more than it saves
        return values

    def keep(self, k, values) -> None:
        """A value worked out, into the table (a full one starts again: the answers come mostly from
        copies of one decision)."""
        if len(self.table) >= SIZE:
            self.table.clear()
        self.table[k] = values


def cache_of(program):
    """The program's cache, made at its first use (program.eval_cache); False when there is none."""
    cache = program.eval_cache
    if cache is None:
        reads = program.eval_reads
        cache = program.eval_cache = EvalCache(key_of(*reads)) if reads else False
    return cache


def key_of(zones: tuple, slots: tuple, fields: tuple):
    """key(st): the contents of those zones (in order), those variables and those State fields,
    as one generated function (a key is asked for at every evaluation of a look-ahead)."""
    parts = ([f"tuple(Z[{int(z)}])" for z in zones] + [f"V[{int(i)}]" for i in slots]
             + [f"st.{_field(f)}" for f in fields])
    source = f"def key(st):\n    Z = st.zones; V = st.vars\n    return ({''.join(p + ', ' for p in parts)})\n"
    space: dict = {}
    exec(compile(source, "<evaluation cache key>", "exec"), space)
    return space["key"]


def _field(name: str) -> str:
    """A State field's name, checked to be one (it is written into the key's code)."""
    if name not in State.__slots__:
        raise ValueError(f"not a State field: {name!r}")
    return name
