"""`tell PLAYERS about CARDS where CONDITION` at run time: the truth, per card, told to some seats.

The event (TELL, zone, ((position from the bottom, holds), ...), mask of the seats told, types for
which the condition holds, the condition in words), one per zone the cards lie in. The seats told
learn for each card whether it holds, so the card is one of those types, or not one of them; every
other seat sees only that they were told something about so many cards of the zone (events.py).
The engine works the answers out itself, so what a seat is told is always true.
"""
from __future__ import annotations

from .decisions import show
from .engine import RULE_FAILURES

TELL = "tell"
MARK = "\x00"       # where a value worked out when telling stands in the condition's words


def tell(st, cards: list, mask: int, holds, reps: tuple, card_type: list, words: str, values: tuple) -> None:
    """Log what the seats of mask learn about the cards (`reps`: (type, a card of it) per type; `words`
    the condition with MARK where each of `values` goes)."""
    if st.log is None or not cards or not mask:
        return
    yes = tuple(t for t, c in reps if _holds(holds, c))
    said = fill(words, values)
    zones, by_zone = st.zones, {}
    for c in dict.fromkeys(cards):
        by_zone.setdefault(st.loc[c], []).append(c)
    yes_set = set(yes)
    for z, cs in by_zone.items():
        where = {c: i for i, c in enumerate(zones[z])}
        told = tuple(sorted((where[c], card_type[c] in yes_set) for c in cs))
        st.log.append((TELL, z, told, mask, yes, said))


def _holds(holds, c) -> bool:
    """Whether the condition holds for card c; a type it cannot be worked out for (an attribute its
    kind lacks) does not meet it."""
    try:
        return bool(holds(c))
    except RULE_FAILURES:
        return False


def fill(words: str, values: tuple) -> str:
    """The condition's words with the values worked out when telling in place of the marks."""
    parts = words.split(MARK)
    out = [parts[0]]
    for value, part in zip(values, parts[1:]):
        out += [show(value), part]
    return "".join(out)


def negated(words: str) -> str:
    """'not colour red' for 'colour red', and 'rank 5' for 'not rank 5'."""
    if " and " in words or " or " in words:
        return f"not ({words})"
    return words[4:] if words.startswith("not ") else "not " + words
