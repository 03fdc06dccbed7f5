"""The record viewer's routes (Starlette): the page, the record's seats, a viewer's page at a step.

  GET /                                  the page (page.html, in its record mode)
  GET /api/record/info                   {game, players, seats, steps}
  GET /api/record?step=N&view=public|K   the page of the public view or seat K after N moves
"""
from __future__ import annotations

from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from .app import HEADERS, PAGE, error


def viewer_app(view) -> Starlette:
    """The Starlette app showing one record (record_view.RecordView)."""
    last = len(view.steps) - 1

    async def page(request):
        return HTMLResponse(PAGE.read_text(encoding="utf-8"), headers=HEADERS)

    async def info(request):
        return JSONResponse({"game": view.game.name, "players": view.players, "seats": view.names,
                             "steps": last}, headers=HEADERS)

    async def at(request):
        step, who = request.query_params.get("step", "0"), request.query_params.get("view", "public")
        if not (step.isascii() and step.isdigit() and len(step) < 10 and int(step) <= last):
            return error(f"step must be a move number from 0 to {last}", 400)
        if who == "public":
            viewer = None
        elif who.isascii() and who.isdigit() and len(who) < 4 and int(who) < view.players:
            viewer = int(who)
        else:
            return error(f"view must be public or a seat from 0 to {view.players - 1}", 400)
        return JSONResponse(view.step_page(int(step), viewer), headers=HEADERS)

    app = Starlette(routes=[Route("/", page), Route("/api/record/info", info), Route("/api/record", at)])
    app.state.view = view
    return app
