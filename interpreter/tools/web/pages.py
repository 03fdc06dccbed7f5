"""What one viewer of a table is sent: its page as JSON, built from its View only.

A viewer is a seat (0, 1, …) or None, the spectator (the public view, public.py). Every part of a
page comes from the play screen's own words (play/screen.py, grid.py, result.py, story.py) worked
out on the viewer's View, the log as told to that viewer, and, for the deciding seat, its legal
moves; the running scores and shown values only as far as the viewer may know them (the spectator:
as far as every seat may). The end screen (scores in parts, hidden cards revealed) is everyone's.
"""
from __future__ import annotations

from ...runtime.engine import DECIDE
from .public import public_events, public_observer

MARK = "\0"          # the log's actor prefix, dropped: every decision's line says whose it was


class Pages:
    """The page part of a web table (mixed into a play Session)."""

    def viewers(self) -> list:
        """Whoever has a page: the human seats, then the spectator."""
        return list(self.humans) + [None]

    def who(self, seat: int) -> str:
        return self.bot_names.get(seat, "human")

    def set_state(self, st) -> None:
        """Go back to an earlier state (undo, a record's step): every viewer's memory and log again."""
        super().set_state(st)
        self.__dict__.pop("_public", None)
        self.__dict__.pop("_logs", None)

    # ---- what a viewer knows ----
    def viewer_view(self, viewer):
        """The viewer's View now (the spectator's from the public events)."""
        if viewer is not None:
            return self.view(viewer)
        log = self.st.log
        obs, n = self.__dict__.get("_public", (None, 0))
        if obs is None or n > len(log):
            obs, n = public_observer(self.program), 0
        obs.observe_all(public_events(self.program, log[n:]))
        self._public = (obs, len(log))
        return obs.view()

    def viewer_scores(self, viewer) -> list:
        """The running scores as the viewer may know them (the spectator: as every seat may)."""
        if viewer is not None:
            return self.running_scores(viewer)
        each = [self.running_scores(k) for k in range(self.players)]
        return [None if any(s[p] is None for s in each) else each[0][p] for p in range(self.players)]

    def viewer_values(self, viewer) -> list:
        """The ruleset's shown values as the viewer may know them (? where it may not)."""
        if viewer is not None:
            return self.shown_values(viewer)
        each = [self.shown_values(k) for k in range(self.players)]
        return [(p, label, "?" if any(s[i][2] == "?" for s in each) else text)
                for i, (p, label, text) in enumerate(each[0])]

    # ---- the log ----
    def log_lines(self, viewer) -> list:
        """The whole log as told to the viewer, told once per event (undo tells it again)."""
        logs = self.__dict__.setdefault("_logs", {})
        lines, told = logs.get(viewer, ([], 0))
        log = self.st.log
        if told > len(log):
            lines, told = [], 0
        if told < len(log):
            lines = lines + self.told_since(viewer, told)
        logs[viewer] = (lines, len(log))
        return lines

    def told_since(self, viewer, start: int) -> list:
        """The log's lines from event `start` on, as the viewer may know them (story.py)."""
        log = self.st.log
        if viewer is None and self.players == 1:     # all seats would be that seat: public events only
            return self.event_lines(public_events(self.program, log[start:]), [0])
        done = sum(1 for e in log[:start] if e[0] == DECIDE)
        made = [self.befores().get(done + k) for k in range(sum(1 for e in log[start:] if e[0] == DECIDE))]
        viewers = list(range(self.players)) if viewer is None else [viewer]
        out: list = []
        self._story_to = out
        try:
            self.tell_lines(MARK, log[start:], viewers, made, -1 if viewer is None else viewer)
        finally:
            self._story_to = None
        # a decision's first line flush left, what followed it indented (the same told at once or in parts)
        return [text.strip().removeprefix(MARK + ": ").removeprefix(MARK + " ") if head else "    " + text.strip()
                for head, text in out if text != f"{MARK}: (nothing visible)"]

    def story_line(self, text: str, head: bool) -> None:
        if getattr(self, "_story_to", None) is not None:
            self._story_to.append((head, text))
        else:
            super().story_line(text, head)

    # ---- the page ----
    def page(self, viewer) -> dict:
        """Everything the viewer's page shows, as JSON-ready data."""
        st, prog = self.st, self.program
        v = self.viewer_view(viewer)
        scores, values = self.viewer_scores(viewer), self.viewer_values(viewer)
        order = [viewer] + [p for p in range(self.players) if p != viewer] if viewer is not None \
            else list(range(self.players))
        groups, lines = self.table_parts(v, values)
        return {
            "game": self.game.name, "players": self.players, "viewer": viewer, "version": self.version,
            "moves": st.moves, "turn": v.turn, "current": v.current, "over": st.over,
            "knowledge": "full" if self.full else "faces",
            "seats": [self.seat_part(v, p, viewer, scores, values) for p in order],
            "grid": self.grid_part(v) if self.grid else None,
            "families": [self.family_part(v, index, decls) for index, decls in groups.items()],
            "lines": lines,
            "log": self.log_lines(viewer),
            "decision": None if st.over else self.decision_part(viewer),
            "result": self.result_part() if st.over else None,
        }

    def seat_part(self, v, p: int, viewer, scores: list, values: list) -> dict:
        """One seat's panel as the viewer knows it (play's `d` panel)."""
        items = [f"{self.zone_label(z)}: {self.zone_text(v, z)}" for z in self.shown_zones(p)]
        return {"seat": p, "who": self.who(p), "you": p == viewer, "starter": p == self.starter(),
                "to_play": p == v.current, "score": self.score_text(scores, p),
                "items": items + self.var_items(v, p) + self.value_items(values, p)}

    def grid_part(self, v) -> dict:
        """The grid of positions: a cell per position (its index, card count, card or None, how known)."""
        prog, (families, columns) = self.program, self.grid
        cells = []
        for value in prog.family[families[0]]:
            t, how, size = self.grid_cell(v, value)
            cells.append({"index": str(value), "count": size, "how": how,
                          "card": None if t is None else prog.type_names[t]})
        return {"title": " / ".join(self.display.label(f) for f in families), "columns": columns, "cells": cells}

    def family_part(self, v, index, decls) -> dict:
        """Zone families of one index list: a row per index value, a column per family."""
        prog = self.program
        rows = [[str(value)] + [self.zone_text(v, prog.zone_base[d.name] + prog.family[d.name][value]) for d in decls]
                for value in index]
        return {"heads": [""] + [self.display.label(d.name) for d in decls], "rows": rows}

    def decision_part(self, viewer) -> dict:
        """Who decides; for the deciding seat itself, its legal moves in play's order and keys."""
        st = self.st
        out = {"seat": st.decider, "who": self.who(st.decider), "yours": viewer == st.decider}
        if viewer != st.decider:
            return out
        shown = self.shown_moves(self.program.legal_moves(st))
        out.update(name=st.pending.name, hint=shown.hint, grid=shown.by_value and self.grid_choice_now(),
                   moves=[{"key": key, "text": text, "cards": self.move_cards(move)} for key, move, text in shown.entries],
                   undo=bool(self.undo_stack), no_undo=self.no_undo, confirm=None)
        waiting = self.confirming.get(viewer)
        if waiting is not None:
            out["confirm"] = {"text": waiting[1], "why": waiting[2]}
        return out

    def grid_choice_now(self) -> bool:
        """Whether the deciding seat chooses a position of the grid (its cells are then clickable)."""
        return self.grid_choice(self.program.legal_moves(self.st))

    def move_cards(self, move):
        """The cards a move chooses, {card name: how many} (None for a move that chooses no cards),
        so that the page can offer them to be selected."""
        kind, names = self.st.pending.kind, self.program.type_names
        payload = move if kind == "cards" else move[1] if kind == "options" else None
        if payload is None:
            return None
        return {names[t]: n for t, n in payload}

    def result_part(self) -> dict:
        """The end screen: final scores, tie-breaks, winners, the score in parts, the cards revealed."""
        title, heads, rows, ties, won = self.final_table()
        parts = self.parts_table()
        return {"title": title, "heads": heads, "rows": rows, "ties": ties, "winners": won,
                "parts": None if parts is None else {
                    "title": parts[0], "heads": [""] + [f"seat {p}" for p in range(self.players)],
                    "rows": [[words, *values] for words, values in parts[1]]},
                "revealed": self.revealed_lines()}
