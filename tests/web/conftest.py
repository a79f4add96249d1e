"""Live servers for the web tests: the ``puzzlebots serve`` app on 127.0.0.1 (a free port, in a background thread),
a real server process that knows the toy game, and Chromium pages on them."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from serving import HANG_GUARD, PAGE_GUARD, TOY_GAME, ServerProcess, open_page

from puzzlebots.web.server import Limits, make_app

#: the live server's seconds per answer: a guard against a hang, not the 20 s budget a slow machine could reach
#: (a bot's first decision compiles its kernels); the budget itself is tested on a server of its own
LIVE_BUDGET = 3600.0


class LiveServer:
    def __init__(self, replays_dir: Path) -> None:
        self.replays_dir = replays_dir
        self.loop = asyncio.new_event_loop()
        self.started = threading.Event()
        self.port = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        runner = web.AppRunner(make_app(self.replays_dir, Limits(time_budget=LIVE_BUDGET)))
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
        if not self.started.wait(HANG_GUARD):
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


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, for one test module: a browser kept for the whole session would
    keep Playwright's event loop running in the test process, and the other modules' ``asyncio.run`` would fail.
    Missing Chromium is a failure, not a skip."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"browser tests need Debian's chromium at {CHROMIUM}: `make chromium` installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def browser_context(browser: Any) -> Iterator[Any]:
    """A context (its own cookies, storage and cache) of the module's browser, in which each test opens its own
    page; a context per test would cost each page test about a tenth of a second more."""
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    context.set_default_timeout(PAGE_GUARD)  # a click on a page that redraws waits for it, not for 30 s
    try:
        yield context
    finally:
        context.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Each phase's report kept on its test (``call_failed``)."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


def call_failed(request: pytest.FixtureRequest) -> bool:
    """Whether the test that holds the fixture failed (read at the fixture's teardown, after the call)."""
    report = getattr(request.node, "report_call", None)
    return report is None or report.failed


@pytest.fixture
def page(browser_context: Any, live_server: LiveServer, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page on the live server."""
    with open_page(browser_context, live_server.url, request.node.name, failed=lambda: call_failed(request)) as page:
        yield page


@pytest.fixture(scope="module")
def toy_server() -> Iterator[ServerProcess]:
    """``puzzlebots serve`` with the toy game (tests/core/toygame.py) registered through the environment."""
    proc = ServerProcess(game=TOY_GAME)
    yield proc
    proc.stop()


@pytest.fixture
def toy_page(browser_context: Any, toy_server: ServerProcess, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page on the server that knows the toy game."""
    with open_page(browser_context, toy_server.url, request.node.name, failed=lambda: call_failed(request)) as page:
        yield page
