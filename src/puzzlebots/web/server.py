"""The aiohttp app behind ``puzzlebots serve``: one static page, a JSON list of games, a websocket per page.

Files are served only from the package's ``static`` folder and from the replay folder given on the command
line (see ``files.safe_file``); everything the page does goes through ``session.Session`` over the websocket.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

from aiohttp import WSMsgType, web

from .files import safe_file
from .session import Session, list_games

STATIC_DIR = Path(__file__).parent / "static"
MAX_MESSAGE_BYTES = 256 * 1024
REPLAYS_KEY = web.AppKey("replays_dir", Path)

log = logging.getLogger(__name__)


async def index(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(STATIC_DIR / "index.html")


async def static_file(request: web.Request) -> web.StreamResponse:
    path = safe_file(STATIC_DIR, request.match_info["path"])
    if path is None:
        raise web.HTTPNotFound(text="not found")
    return web.FileResponse(path)


async def replay_file(request: web.Request) -> web.StreamResponse:
    root = request.app.get(REPLAYS_KEY)
    path = safe_file(root, request.match_info["path"]) if root is not None else None
    if path is None:
        raise web.HTTPNotFound(text="not found")
    return web.FileResponse(path, headers={"Content-Type": "text/plain; charset=utf-8"})


async def games(request: web.Request) -> web.Response:
    return web.json_response(await asyncio.to_thread(list_games))


async def websocket(request: web.Request) -> web.WebSocketResponse:
    """One session per connection; messages are answered in order, the work done off the event loop."""
    ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE_BYTES, heartbeat=30)
    await ws.prepare(request)
    session = Session(request.app.get(REPLAYS_KEY))
    async for msg in ws:
        if msg.type == WSMsgType.TEXT:
            try:
                data = json.loads(msg.data)
            except json.JSONDecodeError as exc:
                await ws.send_json({"type": "error", "message": f"a message must be JSON ({exc.msg})"})
                continue
            answer = await asyncio.to_thread(session.handle, data)
            await ws.send_json(answer)
        elif msg.type == WSMsgType.BINARY:
            await ws.send_json({"type": "error", "message": "a message must be JSON text"})
        elif msg.type == WSMsgType.ERROR:
            log.info("websocket closed with %s", ws.exception())
    return ws


def make_app(replays_dir: Path | None = None) -> web.Application:
    app = web.Application(client_max_size=MAX_MESSAGE_BYTES)
    if replays_dir is not None:
        app[REPLAYS_KEY] = replays_dir
    app.router.add_get("/", index)
    app.router.add_get("/static/{path:.*}", static_file)
    app.router.add_get("/replays/{path:.*}", replay_file)
    app.router.add_get("/api/games", games)
    app.router.add_get("/ws", websocket)
    return app
