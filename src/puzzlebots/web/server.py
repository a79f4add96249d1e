"""The aiohttp app behind ``puzzlebots serve``: one static page, a JSON list of games, a websocket per page.

Files are served only from the package's ``static`` folder, from each game's own page folder (its
``web_folder()``, under ``/games/<name>/``) and from the replay folder given on the command line (see
``files.safe_file``). Each websocket gets a ``session.Session`` in a worker process of its own
(``worker``), so that no page's request can stall the server: a request over its time budget, a page that
leaves and a server that stops each kill that process. Only the server's own pages may open a websocket.
"""

from __future__ import annotations

import asyncio
import gc
import ipaddress
import json
import logging
import os
import re
import signal
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, hdrs, http_exceptions, web

from ..core.errors import ConfigError
from ..core.protocols import EngineTable
from .files import safe_file
from .games import list_games, page_folders
from .session import error_reply
from .worker import ANSWER, LENGTH_BYTES, PROGRESS, STOP_SIGNAL, frame

STATIC_DIR = Path(__file__).parent / "static"
MAX_MESSAGE_BYTES = 256 * 1024
#: seconds a browser gets to answer a close (server stopping, too many pages); a stop must take under a second
CLOSE_TIMEOUT = 0.3
#: the host names that mean "any address of this machine"
ANY_HOST = ("", "0.0.0.0", "::")
#: a ``Host`` header: a host name (or IPv4 address), or an IPv6 address in brackets, then an optional port
HOST_HEADER = re.compile(r"(?:\[(?P<address>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9._~-]*))(?::(?P<port>[0-9]{1,5}))?")
#: seconds a connection has to send a whole request head (and an idle one to send its next): a client that
#: opens connections and sends nothing, or half a request, holds none of them longer
HEADER_TIMEOUT = 5.0
#: seconds the page workers get to end on SIGTERM when the server stops, before they are killed
STOP_GRACE = 0.2
#: seconds a call the page stopped gets to answer before its worker is killed (the page is promised two)
STOP_WAIT = 1.5


@dataclass(frozen=True)
class Limits:
    """What the pages may use: where the server listens, the seconds one answer may take, how many pages
    may be open at once, and how many messages of one page may wait for their answers."""

    host: str = "127.0.0.1"
    time_budget: float = 20.0
    max_sessions: int = 8
    max_waiting: int = 32


REPLAYS_KEY = web.AppKey("replays_dir", Path)
LIMITS_KEY = web.AppKey("limits", Limits)
GAMES_KEY = web.AppKey("games", list)
FOLDERS_KEY = web.AppKey("page_folders", dict)
#: the operator's external engines (``serve --engine``), handed to each page's worker
ENGINES_KEY = web.AppKey("engines", dict)

log = logging.getLogger(__name__)


@dataclass
class Call:
    """A message the worker is answering: whether it has reported progress (then the page may stop it), and
    whether the page did."""

    reported: bool = False
    stopped: bool = False


class Worker:
    """One page's session in a ``python -m puzzlebots.web.worker`` process, started when the page connects
    and again after it was stopped (a stopped game is gone: the page starts it anew)."""

    def __init__(self, replays_dir: Path | None, engines: EngineTable | None = None) -> None:
        self.replays_dir = replays_dir
        self.engines = dict(engines or {})
        self.process: asyncio.subprocess.Process | None = None
        #: the message being answered, if any
        self.call: Call | None = None

    async def start(self) -> asyncio.subprocess.Process:
        """The running process (it imports the games while the page is still loading)."""
        if self.process is None:
            command = [sys.executable, "-P", "-m", "puzzlebots.web.worker", "--parent", str(os.getpid())]
            if self.replays_dir is not None:
                command += ["--replays", str(self.replays_dir.resolve())]
            if self.engines:
                command += ["--engines", json.dumps({name: list(argv) for name, argv in self.engines.items()})]
            self.process = await asyncio.create_subprocess_exec(
                *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
            )
        return self.process

    async def send(self, text: str) -> None:
        """Hand the message ``text`` to the session."""
        process = await self.start()
        assert process.stdin is not None
        process.stdin.write(frame(text.encode("utf-8")))
        await process.stdin.drain()

    async def receive(self) -> tuple[bytes, str]:
        """The next frame of the session: its kind (``PROGRESS`` or ``ANSWER``) and its JSON text."""
        assert self.process is not None and self.process.stdout is not None
        size = int.from_bytes(await self.process.stdout.readexactly(LENGTH_BYTES), "big")
        data = await self.process.stdout.readexactly(size)
        return data[:1], data[1:].decode("utf-8")

    def stop_call(self) -> None:
        """The page said stop: pass it on to the call running, and kill the worker if the call has not answered
        within ``STOP_WAIT`` (its answer then says so)."""
        call = self.call
        if call is None or call.stopped:
            return
        call.stopped = True
        self.signal(STOP_SIGNAL)
        asyncio.get_running_loop().call_later(STOP_WAIT, self.kill_late, call)

    def kill_late(self, call: Call) -> None:
        if self.call is call:
            self.signal(signal.SIGKILL)

    def signal(self, sig: signal.Signals) -> None:
        """Send ``sig`` to the process, if it runs (without waiting for it)."""
        if self.process is not None and self.process.returncode is None:
            try:
                self.process.send_signal(sig)
            except ProcessLookupError:
                pass

    async def stop(self) -> None:
        """Kill the process (whatever it is doing) and reap it."""
        process, self.process = self.process, None
        if process is None:
            return
        if process.returncode is None:
            try:
                process.kill()
            except ProcessLookupError:
                pass
        await process.wait()


#: the open pages, each with its worker
PAGES_KEY: web.AppKey[dict[web.WebSocketResponse, Worker]] = web.AppKey("pages")


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) is this machine's own loopback: ``localhost``, 127.0.0.0/8, ::1."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_name(host: str) -> str | None:
    """The name in a ``Host`` header (lower case, an IPv6 address without its brackets), or None if the header
    is not a name or bracketed address with an optional port (``[``, ``[::1``, ``[::1]x``, port 99999)."""
    found = HOST_HEADER.fullmatch(host)
    if found is None or (found["port"] is not None and int(found["port"]) > 65535):
        return None
    return (found["address"] or found["name"] or "").lower()


def host_is_ours(request: web.Request) -> bool:
    """Whether the request names this server: a loopback server answers only to loopback names, so a page
    whose own name is made to resolve to 127.0.0.1 (DNS rebinding) is not taken for one of ours. A
    malformed ``Host`` is the client's error: ``HTTPBadRequest``."""
    host = request.headers.get(hdrs.HOST)
    if host is None:  # HTTP/1.0 tools; browsers always send Host
        return True
    name = host_name(host)
    if name is None:
        raise web.HTTPBadRequest(text="malformed Host header")
    bind = request.app[LIMITS_KEY].host.lower()
    if bind in ANY_HOST:
        return True
    if is_loopback(bind):
        return is_loopback(name)
    return name == bind


def origin_is_ours(request: web.Request) -> bool:
    """A browser says which page opens a websocket (``Origin``): only this server's pages may. A client that
    is not a browser sends no Origin and is let in (it could send any Origin anyway)."""
    origin = request.headers.get(hdrs.ORIGIN)
    return origin is None or origin.lower() == f"http://{request.headers.get(hdrs.HOST, '')}".lower()


@web.middleware
async def own_host_only(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    if not host_is_ours(request):
        raise web.HTTPForbidden(text="this server answers only to the address it listens on")
    return await handler(request)


async def index(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(STATIC_DIR / "index.html")


async def static_file(request: web.Request) -> web.StreamResponse:
    path = safe_file(STATIC_DIR, request.match_info["path"])
    if path is None:
        raise web.HTTPNotFound(text="not found")
    return web.FileResponse(path)


async def game_file(request: web.Request) -> web.StreamResponse:
    """A file of a game's own page folder (its script, sprites); the game's name only picks the folder."""
    root = request.app[FOLDERS_KEY].get(request.match_info["game"])
    path = safe_file(root, request.match_info["path"]) if root is not None else None
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
    return web.json_response(request.app[GAMES_KEY])


#: seconds a ``watch`` (or the start page's ``preview``) may take: it makes one spare decision of a bot that uses
#: numba kernels (``Session.warm_up``), which compiles them when numba's cache does not hold them yet (`make
#: install` fills it)
WATCH_ALLOWANCE = 300.0
#: the ops that may warm a bot up
WARMING_OPS = ("watch", "preview")


def allowance(text: str, budget: float) -> float:
    """The seconds the answer to ``text`` may take: the time budget, or ``WATCH_ALLOWANCE`` for a watch or a
    preview (the worker checks the message; this only reads its op)."""
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):  # the worker answers a malformed message with its error
        return budget
    return max(budget, WATCH_ALLOWANCE) if isinstance(msg, dict) and msg.get("op") in WARMING_OPS else budget


async def answer_of(ws: web.WebSocketResponse, worker: Worker, text: str, limit: float, call: Call) -> str:
    """The worker's answer to ``text``, each of its progress reports passed on to the page as it comes; ``limit``
    seconds for the answer, or for each report and after it (a call that reports its progress goes on as long as
    it does, and the page can stop it). ``call`` is the worker's ``call`` meanwhile."""
    worker.call = call
    try:
        await worker.send(text)
        while True:
            kind, reply = await asyncio.wait_for(worker.receive(), limit)
            if kind == ANSWER:
                return reply
            if kind != PROGRESS:
                raise OSError(f"a frame of unknown kind {kind!r}")
            call.reported = True
            await ws.send_str(reply)
    finally:
        worker.call = None


async def answer_in_order(
    ws: web.WebSocketResponse, worker: Worker, waiting: asyncio.Queue[str | dict[str, Any] | None], budget: float
) -> None:
    """Send each waiting message to the worker and its answer to the page, one at a time, in order (an answer
    the server made already, a stop's, is sent in its turn)."""
    while True:
        text = await waiting.get()
        if text is None:
            answer = error_reply("a message must be JSON text")
        elif isinstance(text, dict):
            answer = text
        else:
            limit = allowance(text, budget)
            call = Call()
            try:
                reply = await answer_of(ws, worker, text, limit, call)
            except TimeoutError:
                await worker.stop()
                answer = error_reply(f"that took longer than {limit:g} s; the game was stopped")
            except (OSError, asyncio.IncompleteReadError) as exc:
                if not call.stopped:
                    log.warning("a session worker failed: %r", exc)
                await worker.stop()
                answer = error_reply(
                    f"stopped: the call did not end within {STOP_WAIT:g} s, so its game was ended; start it again"
                    if call.stopped
                    else "the game stopped unexpectedly; start it again"
                )
            else:
                await ws.send_str(reply)
                continue
        await ws.send_json(answer)


def stop_answer(text: str, worker: Worker) -> dict[str, Any] | None:
    """The answer to a page's ``{"op": "stop"}`` (read here, not in the worker, which is busy with the call to
    stop), after passing the stop on; None if ``text`` is not a stop. Refused: a stop with other fields, and a
    stop when no call that reports its progress (``WebReporting``) is running."""
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):  # the worker answers a malformed message with its error
        return None
    if not isinstance(msg, dict) or msg.get("op") != "stop":
        return None
    if set(msg) != {"op"}:
        unknown = sorted(set(msg) - {"op"})[0]
        return error_reply(f"unknown field {unknown!r}: a stop has no field but op")
    call = worker.call
    if call is None or not call.reported:
        return error_reply("nothing to stop: no call that reports its progress is running")
    worker.stop_call()
    return {"type": "stop", "message": "the call running was asked to stop"}


async def websocket(request: web.Request) -> web.WebSocketResponse:
    """One worker process per page; messages are answered in order, each within the time budget."""
    if not origin_is_ours(request):
        raise web.HTTPForbidden(text="a websocket may be opened only by this server's own page")
    limits = request.app[LIMITS_KEY]
    pages = request.app[PAGES_KEY]
    ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE_BYTES, heartbeat=30, timeout=CLOSE_TIMEOUT)
    await ws.prepare(request)
    if len(pages) >= limits.max_sessions:
        message = f"the server has its {limits.max_sessions} pages open already: close one and reload this page"
        await ws.send_json(error_reply(message))
        await ws.close(code=WSCloseCode.TRY_AGAIN_LATER, message=b"too many pages open")
        return ws
    worker = Worker(request.app.get(REPLAYS_KEY), request.app[ENGINES_KEY])
    pages[ws] = worker
    waiting: asyncio.Queue[str | dict[str, Any] | None] = asyncio.Queue()
    answering = asyncio.create_task(answer_in_order(ws, worker, waiting, limits.time_budget))
    try:
        await worker.start()
        async for msg in ws:
            if waiting.qsize() >= limits.max_waiting:
                await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"too many messages waiting")
                break
            if msg.type == WSMsgType.TEXT:
                waiting.put_nowait(stop_answer(msg.data, worker) or msg.data)
            elif msg.type == WSMsgType.BINARY:
                waiting.put_nowait(None)
            elif msg.type == WSMsgType.ERROR:
                log.info("websocket closed with %s", ws.exception())
    finally:
        pages.pop(ws, None)
        answering.cancel()
        await asyncio.gather(answering, return_exceptions=True)
        await worker.stop()
    return ws


async def load_games(app: web.Application) -> None:
    """The games list and their page folders, read once: they do not change while serving, and no request
    waits for an import."""
    app[GAMES_KEY] = await asyncio.to_thread(list_games, app[ENGINES_KEY])
    app[FOLDERS_KEY] = await asyncio.to_thread(page_folders)


async def stop_workers(app: web.Application) -> None:
    """Server stopping, first of all: SIGTERM every page's worker, busy or not, and SIGKILL the ones still
    there after ``STOP_GRACE``, so that the stop never waits on a page's work, however loaded the machine."""
    workers = [worker for worker in app[PAGES_KEY].values() if worker.process is not None]
    for worker in workers:
        worker.signal(signal.SIGTERM)
    running = [asyncio.ensure_future(w.process.wait()) for w in workers if w.process is not None]
    if running:
        await asyncio.wait(running, timeout=STOP_GRACE)
    for worker in workers:
        worker.signal(signal.SIGKILL)


async def close_pages(app: web.Application) -> None:
    """Server stopping: tell each page (close code 1001, going away) and reap every worker."""
    pages = app[PAGES_KEY].copy()
    going = [ws.close(code=WSCloseCode.GOING_AWAY, message=b"server stopping") for ws in pages]
    await asyncio.gather(*going, return_exceptions=True)
    await asyncio.gather(*(worker.stop() for worker in pages.values()))


def make_app(
    replays_dir: Path | None = None, limits: Limits | None = None, engines: EngineTable | None = None
) -> web.Application:
    app = web.Application(client_max_size=MAX_MESSAGE_BYTES, middlewares=[own_host_only])
    if replays_dir is not None:
        app[REPLAYS_KEY] = replays_dir
    app[LIMITS_KEY] = limits or Limits()
    app[PAGES_KEY] = {}
    app[ENGINES_KEY] = dict(engines or {})
    app.on_startup.append(load_games)
    app.on_shutdown.append(close_pages)
    app.router.add_get("/", index)
    app.router.add_get("/static/{path:.*}", static_file)
    app.router.add_get("/games/{game}/{path:.*}", game_file)
    app.router.add_get("/replays/{path:.*}", replay_file)
    app.router.add_get("/api/games", games)
    app.router.add_get("/ws", websocket)
    return app


async def run(app: web.Application, port: int, announce: Callable[[str], Any]) -> None:
    """Serve ``app`` until SIGINT or SIGTERM, then stop within a second (workers killed, pages closed).

    ``announce`` gets the address once the server listens; a port in use or a host that does not resolve is
    a ``ConfigError``.
    """
    host = app[LIMITS_KEY].host
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    runner = web.AppRunner(app, shutdown_timeout=CLOSE_TIMEOUT, keepalive_timeout=HEADER_TIMEOUT)
    await runner.setup()
    logging.getLogger("aiohttp.server").addFilter(one_line_refusals)
    try:
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except OSError as exc:
            raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
        bound = runner.addresses[0]
        shown = f"[{bound[0]}]" if ":" in bound[0] else bound[0]
        announce(f"http://{shown}:{bound[1]}/")
        await stop.wait()
        await stop_workers(app)
    finally:
        await runner.cleanup()
        gc.freeze()  # the stop is quick: the collection at exit (seconds once the games are loaded) is skipped


def one_line_refusals(record: logging.LogRecord) -> bool:
    """A request aiohttp's parser refuses (a duplicate ``Host``, a line too long) is the client's error: one
    warning line in the log, not a traceback."""
    error = record.exc_info[1] if record.exc_info else None
    if isinstance(error, http_exceptions.HttpProcessingError):
        message = " ".join(str(error.message).split())
        record.msg, record.args, record.exc_info = "refused a malformed request: %s", (message,), None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
    return True
