"""The end of the game: the steps end.finish names, the tiebreaks, and a cooperative game's win."""
from __future__ import annotations

from .context import Context, Scope
from .resolve import value
from .types import expect
from .words import and_, relative


def check_finish(cx: Context) -> set:
    """end.finish: steps of the turn (by name) that still run once the end condition holds."""
    names = cx.get(("end", "finish"), []) or []
    for i, name in enumerate(names):
        if name not in cx.step_names:
            hint = cx.suggest(str(name), cx.step_names) or (
                f"the steps are {and_([repr(n) for n in dict.fromkeys(cx.step_names)])}" if cx.step_names
                else "name the steps of turn.steps with step: NAME")
            at, steps_at = cx.pos(("end", "finish", i)), cx.doc.key_pos(("turn", "steps"))
            if at.file != steps_at.file and steps_at.file == cx.doc.file:
                # a variant replaced the steps and dropped one its base's end.finish names
                cx.error(steps_at, f"end.finish names the step '{name}' ({relative(at, cx.doc.file)}), "
                         "but these steps have none of that name", "name", f"{hint}; a variant's steps "
                         "replace the base's whole list: keep that step here, or give end: {finish: [...]} "
                         "in this file too")
                continue
            cx.error(("end", "finish", i), f"no step of the turn is named '{name}'", "name", hint)
    return set(names)


def check_tiebreak(cx: Context) -> list:
    """The tiebreaks in order, as (1 for most, -1 for fewest, the value compared)."""
    out = []
    for i, rule in enumerate(cx.get(("tiebreak",), []) or []):
        key = "most" if "most" in rule else "fewest"
        val = value(cx, ("tiebreak", i, key), Scope())
        expect(cx, val, {"int"}, f"a tiebreak ({key})")
        out.append((1 if key == "most" else -1, val))
    return out


def check_cooperative(cx: Context):
    """cooperative.win: the condition for the whole table's win (None when the game is not cooperative)."""
    if cx.get(("cooperative",)) is None:
        return None
    for key, why in (("tiebreak", "a tiebreak separates seats"), ("wins", "wins: chooses which seat's score wins")):
        if cx.get((key,)) is not None:
            cx.error((key,), f"'{key}' cannot go with cooperative: the seats win or lose together, and {why}",
                     "schema", f"delete '{key}', or delete cooperative for a game each seat plays for itself")
    win = value(cx, ("cooperative", "win"), Scope())
    expect(cx, win, {"bool"}, "the cooperative win condition")
    return win
