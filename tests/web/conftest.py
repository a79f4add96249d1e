"""A live ``puzzlebots serve`` app on 127.0.0.1 (a free port, in a background thread) for the web tests."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiohttp import web

from puzzlebots.web.server import make_app


class LiveServer:
    def __init__(self, replays_dir: Path) -> None:
        self.replays_dir = replays_dir
        self.loop = asyncio.new_event_loop()
        self.started = threading.Event()
        self.port = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        runner = web.AppRunner(make_app(self.replays_dir))
        self.loop.run_until_complete(runner.setup())
        site = web.TCPSite(runner, "127.0.0.1", 0)
        self.loop.run_until_complete(site.start())
        self.port = runner.addresses[0][1]
        self.runner = runner
        self.started.set()
        self.loop.run_forever()
        self.loop.run_until_complete(runner.cleanup())

    def start(self) -> None:
        self.thread.start()
        if not self.started.wait(30):
            raise RuntimeError("web server did not start")

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture(scope="module")
def replays_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``<tmp>/replays`` (served) next to ``<tmp>/secret.jsonl`` (must never be served)."""
    base = tmp_path_factory.mktemp("web")
    (base / "secret.jsonl").write_text("top secret\n")
    replays = base / "replays"
    replays.mkdir()
    return replays


@pytest.fixture(scope="module")
def live_server(replays_dir: Path) -> Iterator[LiveServer]:
    server = LiveServer(replays_dir)
    server.start()
    yield server
    server.stop()
