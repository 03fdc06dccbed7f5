"""The per-game values of one record (manual, "Analysing a game"): win fractions, margin, leader,
lead changes, decisiveness, comeback and choice, each derived from `scores`, `winners`, `track`
and `choices` and never stored twice. A value a game cannot give is None, never zero.
"""
from __future__ import annotations

import math


def win_fractions(record: dict, players: int) -> list:
    """Each seat's share of this game's win: 1/k to each of k winners (a tie split k ways), 0 to the rest."""
    winners = record["winners"]
    fractions = [0.0] * players
    for seat in winners:
        fractions[seat] += 1.0 / len(winners)
    return fractions


def shared_win(record: dict) -> bool:
    """Whether more than one seat won this game."""
    return len(record["winners"]) > 1


def margin(record: dict) -> float:
    """How far the winners' score is from the nearest score of a seat that did not win (0 when every
    seat won): the winners' score minus the best other one, whether the highest or the lowest wins."""
    scores, winners = record["scores"], set(record["winners"])
    losers = [s for k, s in enumerate(scores) if k not in winners]
    if not winners:
        return None
    if not losers:
        return 0
    best = max(scores[k] for k in winners)      # the winners share one score (a tie-break may part them)
    return min(abs(best - s) for s in losers)


def leader(scores: list):
    """The seat with the unique top score, or None when the top score is shared."""
    top = max(scores)
    at_top = [k for k, s in enumerate(scores) if s == top]
    return at_top[0] if len(at_top) == 1 else None


def lead_changes(record: dict):
    """How often the unique leader differs from the previous unique leader (turns with a tie at the top skipped)."""
    track = record.get("track")
    if not track:
        return None
    changes, previous = 0, None
    for scores in track:
        now = leader(scores)
        if now is None:
            continue
        if previous is not None and now != previous:
            changes += 1
        previous = now
    return changes


def winners_lead(scores: list, winners: set) -> bool:
    """Whether the seats on the top score are exactly the final winners (one winner: the unique leader)."""
    top = max(scores)
    return {k for k, s in enumerate(scores) if s == top} == winners


def decisiveness(record: dict):
    """(t − 1) / T: t is the first turn from which the final winners lead at every turn's end (T + 1 if never)."""
    track, winners = record.get("track"), set(record["winners"])
    if not track or not winners:
        return None
    settled = len(track) + 1                     # the turn from which the winners lead for good
    for turn in range(len(track), 0, -1):
        if not winners_lead(track[turn - 1], winners):
            break
        settled = turn
    return (settled - 1) / len(track)


def half_time_last(record: dict):
    """The seat uniquely last at turn ⌈T/2⌉ of the track, or None (no track, or a tie for last)."""
    track = record.get("track")
    if not track:
        return None
    scores = track[math.ceil(len(track) / 2) - 1]
    bottom = min(scores)
    at_bottom = [k for k, s in enumerate(scores) if s == bottom]
    return at_bottom[0] if len(at_bottom) == 1 and len(scores) > 1 else None


def comeback(record: dict, players: int):
    """The share of this game's win that went to the seat uniquely last at half-time (None when no such seat)."""
    last = half_time_last(record)
    return None if last is None else win_fractions(record, players)[last]


def choice_totals(record: dict) -> tuple:
    """(decisions, legal moves summed over them, forced decisions) from the record's `choices` histogram."""
    decisions = moves = forced = 0
    for legal, count in record.get("choices", {}).items():
        decisions += count
        moves += int(legal) * count
        forced += count if int(legal) == 1 else 0
    return decisions, moves, forced


def choice_mean(record: dict):
    """Legal moves per decision in this game (None when the game had no decision)."""
    decisions, moves, _ = choice_totals(record)
    return moves / decisions if decisions else None


def forced_share(record: dict):
    """The share of this game's decisions that had one legal move (None when the game had no decision)."""
    decisions, _, forced = choice_totals(record)
    return forced / decisions if decisions else None
