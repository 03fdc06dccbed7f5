"""The web table's routes (Starlette): a seat's page, its JSON, its moves, its live updates.

  GET  /t/TOKEN               the page (one HTML file, no script from elsewhere)
  GET  /api/TOKEN/state       the viewer's page as JSON
  POST /api/TOKEN/ACTION      move {"version", "move": index} or {"version", "text"}; undo, confirm,
                              cancel {"version"}; answers the viewer's page, or {"error": reason}
  WS   /ws/TOKEN              the viewer's page now and after every change
A missing or wrong token gets 403; a malformed request 400; a body over MAX_BODY bytes 413.
"""
from __future__ import annotations

import asyncio
import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from .table import Refused

MAX_BODY = 2048             # bytes of a POST body
MAX_MESSAGE = 1024          # characters of a message a socket receives
MAX_TOKEN = 100             # characters of a token
MAX_TEXT = 500              # characters of a typed move
PAGE = Path(__file__).with_name("page.html")
HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
           "Content-Security-Policy": "default-src 'self'; script-src 'self' 'unsafe-inline'; "
                                      "style-src 'self' 'unsafe-inline'; connect-src 'self'"}
ACTIONS = {"move": ("version", "move", "text"), "undo": ("version",), "confirm": ("version",),
           "cancel": ("version",)}


def error(reason: str, status: int) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status, headers=HEADERS)


def page_json(text: str) -> Response:
    return Response(text, media_type="application/json", headers=HEADERS)


def viewer(table, token: str):
    """The viewer a token stands for, or None."""
    if not isinstance(token, str) or len(token) > MAX_TOKEN:
        return None
    return table.viewer_of(token)


async def read_body(request) -> dict:
    """The request's JSON object, at most MAX_BODY bytes (Refused with 413 or 400 otherwise)."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise Refused(f"the request is larger than {MAX_BODY} bytes", 413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise Refused(f"the request is larger than {MAX_BODY} bytes", 413)
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused("the request is not JSON", 400) from None
    if not isinstance(data, dict):
        raise Refused("the request must be a JSON object", 400)
    return data


def whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def checked_args(action: str, data: dict) -> tuple:
    """(version, index, text) from a request body, or Refused with 400."""
    allowed = ACTIONS[action]
    extra = sorted(set(data) - set(allowed))
    if extra:
        raise Refused(f"unknown field {extra[0][:40]!r} for {action}", 400)
    if not whole(data.get("version")):
        raise Refused("the request needs 'version', a whole number (the page's version)", 400)
    index, text = data.get("move"), data.get("text")
    if action != "move":
        return data["version"], None, None
    if (index is None) == (text is None):
        raise Refused("a move needs one of 'move' (its place in the list, from 0) or 'text'", 400)
    if index is not None and not whole(index):
        raise Refused("'move' must be a whole number", 400)
    if text is not None and (not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT):
        raise Refused(f"'text' must be a move's text of 1 to {MAX_TEXT} characters", 400)
    return data["version"], index, text


class TableRoutes:
    """The handlers of one table's routes."""

    def __init__(self, table):
        self.table = table

    async def page(self, request):
        if viewer(self.table, request.path_params["token"]) is None:
            return error("no such table link", 403)
        return HTMLResponse(PAGE.read_text(encoding="utf-8"), headers=HEADERS)

    async def state(self, request):
        who = viewer(self.table, request.path_params["token"])
        if who is None:
            return error("no such table link", 403)
        return page_json(self.table.page_of(who))

    async def action(self, request):
        table = self.table
        who = viewer(table, request.path_params["token"])
        if who is None:
            return error("no such table link", 403)
        name = request.path_params["action"]
        try:
            if name not in ACTIONS:
                raise Refused(f"no such action: the actions are {', '.join(ACTIONS)}", 404)
            version, index, text = checked_args(name, await read_body(request))
            if name == "move":
                await table.act(table.move, who, version, index, text)
            else:
                await table.act(getattr(table, name), who, version)
        except Refused as exc:
            return error(exc.reason, exc.status)
        return page_json(table.page_of(who))

    async def socket(self, ws: WebSocket):
        who = viewer(self.table, ws.path_params["token"])
        if who is None:
            await ws.close(code=1008)           # before accept: the handshake is answered 403
            return
        await ws.accept()
        queue: asyncio.Queue = asyncio.Queue()
        self.table.listeners.add(queue)
        tasks = [asyncio.create_task(self.send_pages(ws, queue, who)), asyncio.create_task(receive(ws))]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)   # one ends: the socket is gone
        finally:
            self.table.listeners.discard(queue)
            for task in tasks:
                task.cancel()
            for task in tasks:
                try:
                    await task
                except (asyncio.CancelledError, WebSocketDisconnect, RuntimeError, Closed):
                    pass

    async def send_pages(self, ws, queue, who) -> None:
        """The viewer's page now, then again whenever it changed."""
        last = None
        while True:
            text = self.table.page_of(who)
            if text != last:
                await ws.send_text(text)
                last = text
            await queue.get()

    async def elsewhere(self, request):
        return error("no such table link", 403)


def table_app(table) -> Starlette:
    """The Starlette app of one table."""
    r = TableRoutes(table)
    return Starlette(routes=[Route("/t/{token}", r.page), Route("/api/{token}/state", r.state),
                             Route("/api/{token}/{action}", r.action, methods=["POST"]),
                             WebSocketRoute("/ws/{token}", r.socket),
                             Route("/{rest:path}", r.elsewhere, methods=["GET", "POST", "PUT", "DELETE", "HEAD"])])


class Closed(Exception):
    """The socket was closed (by the client, or for a message over the size limit)."""


async def receive(ws: WebSocket) -> None:
    """A socket only sends pages: what a client sends is answered with how to move (or, when too
    long, the socket is closed with 1009)."""
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            raise Closed
        data = message.get("text") or message.get("bytes") or ""
        if len(data) > MAX_MESSAGE:
            await ws.close(code=1009, reason="message too big")
            raise Closed
        await ws.send_text(json.dumps({"error": "this socket only sends the page: moves are POSTed to "
                                                "/api/TOKEN/move"}))
