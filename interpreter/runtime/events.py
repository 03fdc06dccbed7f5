"""Events: every state change says who saw what. Views, records and the terminal read them.

Every seat sees that an event happened (how many cards went where); the faces of moved
cards only the seats in the event's mask see: the seats that can see the zone the cards
left or the zone they entered. A shuffle's new order is seen by the seats that see the zone.
A reveal shows cards where they lie to the seats of its mask; the others see who looked at
how many cards of which zone.
An announcement (announce.NONE: a zone holds no card of some types) is seen by every seat.
A tell (tell.TELL) gives the seats of its mask, per card, whether its condition holds; the others see
who was told something about how many cards of which zone, not what.
A move's source positions (the eighth field, in a game whose rules tell facts: engine.log_move) go
to the seats that see the source zone's faces, and to every seat when the source is not a private
zone (visible: owner): the order of a private hand is its holder's secret.
"""
from __future__ import annotations

from collections import Counter

from .announce import NONE
from .decisions import show
from .engine import DECIDE, END, MOVE, ORDER, REVEAL, SET, SHUFFLE, TURN
from .tell import TELL, negated


def sees_faces(event: tuple, seat: int) -> bool:
    """Whether `seat` saw the faces of the cards in a move event."""
    return event[0] == MOVE and bool(event[4] >> seat & 1)


def for_seat(program, log: list, seat: int) -> list:
    """The events as `seat` saw them: hidden faces replaced by a count, others' decisions dropped
    (but a public decision's)."""
    out = []
    for event in log:
        kind = event[0]
        if kind == MOVE and len(event) > 7 and not program.zone_positions[event[1]] >> seat & 1:
            event = event[:7] + (None,)         # where in a private zone the cards were: its holder's secret
        if kind == MOVE and not sees_faces(event, seat):
            out.append((MOVE, event[1], event[2], len(event[3]), 0) + tuple(event[5:]))
        elif kind == SHUFFLE and not event[3] >> seat & 1:
            out.append((SHUFFLE, event[1], None, 0))     # the new order only for who sees the zone
        elif kind == DECIDE and event[1] != seat and not program.decisions[event[2]].public:
            continue
        elif kind == REVEAL and not event[3] >> seat & 1:
            out.append((REVEAL, event[1], len(event[2]), event[3]))     # who looked is public, not what
        elif kind == TELL and not event[3] >> seat & 1:
            out.append((TELL, event[1], len(event[2]), event[3], None, None))   # who was told is public, not what
        else:
            out.append(event)
    return out


def describe(program, event: tuple, seat: int | None = None, zone_names: list | None = None) -> str:
    """One line of text for an event, as `seat` saw it (None: the whole truth); zones are named by
    `zone_names` when given (e.g. the labels play shows), else by the program's names."""
    kind = event[0]
    names = zone_names or program.zone_names
    if kind == MOVE:
        _, src, dst, cards, mask = event[:5]
        to = ("bottom of " if event[5:] and event[5] else "") + names[dst]
        if isinstance(cards, int) or (seat is not None and not mask >> seat & 1):
            n = cards if isinstance(cards, int) else len(cards)
            return f"{n} hidden card{'s' if n != 1 else ''} {names[src]} → {to}"
        return f"{group(program, cards)} {names[src]} → {to}"
    if kind == SHUFFLE:
        return f"{names[event[1]]} shuffled"
    if kind == REVEAL:
        _, z, cards, mask = event
        who = seats_words(mask, program.players)
        if isinstance(cards, int) or (seat is not None and not mask >> seat & 1):
            n = cards if isinstance(cards, int) else len(cards)
            return f"{who} looked at {n} card{'s' if n != 1 else ''} of {names[z]}"
        return f"{who} saw {group(program, [c for _, c in cards])} in {names[z]}"
    if kind == TELL:
        return told_words(program, event, seat, names)
    if kind == TURN:
        return f"turn {event[2]}: seat {event[1]}"
    if kind == DECIDE:
        return f"seat {event[1]} chose {program.decisions[event[2]].text(event[3])}"
    if kind == SET:
        owner = "" if event[2] is None else f"({event[2]})"
        return f"{event[1]}{owner} = {show(event[3])}"
    if kind == ORDER:
        return order_words(event[1], event[2], program.players)
    if kind == END:
        return "the game is over"
    if kind == NONE:
        kinds = ", ".join(program.type_names[t] for t in event[2]) or "nothing new"
        return f"{names[event[1]]} holds none of: {kinds}"
    return str(event)


def told_words(program, event: tuple, seat: int | None, names: list) -> str:
    """'seat 1 was told: 2 cards of hand(1) are colour red, 1 is not', or to a seat not told,
    'seat 1 was told about 3 cards of hand(1)'."""
    _, z, told, mask, _, words = event
    who = seats_words(mask, program.players)
    if isinstance(told, int) or (seat is not None and not mask >> seat & 1):
        n = told if isinstance(told, int) else len(told)
        return f"{who} {'was' if mask & (mask - 1) == 0 else 'were'} told about {n} card{'s' if n != 1 else ''} of {names[z]}"
    yes = sum(1 for _, holds in told if holds)
    no = len(told) - yes
    parts = []
    if yes:
        parts.append(f"{yes} card{'s' if yes != 1 else ''} of {names[z]} {'is' if yes == 1 else 'are'} {words}")
    if no:
        parts.append((f"{no} {'is' if no == 1 else 'are'} not" if yes else
                      f"{no} card{'s' if no != 1 else ''} of {names[z]} {'is' if no == 1 else 'are'} {negated(words)}"))
    return f"{who} {'was' if mask & (mask - 1) == 0 else 'were'} told: " + ", ".join(parts)


def order_words(out: int, way: int, players: int) -> str:
    """'seat 2 out of play · play goes the other way': who is out and the direction, in words."""
    words = [f"{seats_words(out, players)} out of play" if out else "every seat in play"]
    return " · ".join(words + (["play goes the other way"] if way == -1 else []))


def seats_words(mask: int, players: int) -> str:
    """'everyone', 'seat 1' or 'seats 0, 2': the seats of a mask."""
    seats = [k for k in range(players) if mask >> k & 1]
    if len(seats) == players and players > 1:
        return "everyone"
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(map(str, seats))


def group(program, cards) -> str:
    """Cards grouped by type in type order: '2×red:1, 1×blue:2'."""
    counts = Counter(program.card_type[c] for c in cards)
    return ", ".join(f"{n}×{program.type_names[t]}" for t, n in sorted(counts.items())) or "nothing"
