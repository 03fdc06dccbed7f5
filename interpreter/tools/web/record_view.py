"""A record shown move by move (`cardrules serve game.json`): the public view or any seat's view at
any step, built like a live table's pages (pages.py) from the state after that many moves.

The record is untrusted input: it is checked (record_check) and replayed with its own shuffles
(records.recorded_chance), every move parsed as a legal move, before anything is shown."""
from __future__ import annotations

import io

from rich.console import Console

from ..play.session import Session
from ..records import HUMAN, checked_players, recorded_chance, recorded_move, seat_names
from ..record_check import check_record
from .pages import Pages


class RecordView(Pages, Session):
    """Every step of a recorded game, and the pages of any viewer at any step."""

    def __init__(self, game, record: dict):
        check_record(record)
        players = checked_players(game, record)
        names = seat_names(record, players)
        console = Console(file=io.StringIO(), width=100, highlight=False)
        super().__init__(game, players, record.get("seed", 0), {}, console=console)
        self.bot_names = {k: name for k, name in enumerate(names) if name != HUMAN}
        self.names = names
        self.version, self.confirming = 0, {}
        program = self.program
        st = program.new_state(record.get("seed", 0), log=True, script=recorded_chance(program, record))
        self.steps = [(st.clone(log=False), len(st.log))]      # the state after each move, its log's length
        for i, m in enumerate(record["moves"], 1):
            move = recorded_move(program, st, i, m["seat"], m["move"])
            self.befores()[st.moves] = st.clone(log=False)
            program.apply(st, move)
            self.steps.append((st.clone(log=False), len(st.log)))
        self.log = st.log
        self.recorded = [(m["seat"], m["move"]) for m in record["moves"]]
        self.turns = [s.turn for s, _ in self.steps]

    def step_page(self, step: int, viewer) -> dict:
        """The viewer's page after `step` moves (viewer None: the public view)."""
        state, n = self.steps[step]
        st = state.clone(log=False)
        st.log = self.log[:n]
        self.set_state(st)
        page = self.page(viewer)
        page.update(step=step, steps=len(self.steps) - 1, turns=self.turns)
        if step < len(self.recorded) and self.recorded[step][0] == viewer:     # its own next move only
            page["next"] = self.recorded[step][1]
        return page
