"""The table in the browser (`cardrules serve`, the `web` extra: Starlette on uvicorn).

  table.py        one game at one table: seats and their tokens, bots, undo and confirmation, the lock
  pages.py        what one viewer is sent, built from its View only (the play screen's own words)
  public.py       the spectator's view: what every seat sees
  app.py          the table's routes: pages, JSON, moves, live pages over a WebSocket; limits
  record_view.py  a record's steps, and any viewer's page at any step (`cardrules serve game.json`)
  viewer_app.py   the record viewer's routes
  serve.py        the command line
  page.html       the one page (plain JavaScript, nothing fetched from elsewhere)
Only serve.py is imported by the command line; it imports the others (and Starlette) when it runs.
"""
