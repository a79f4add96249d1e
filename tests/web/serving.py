"""A real ``puzzlebots serve`` in a process of its own, for the tests that need the whole server: its worker
processes, its signals, and games registered through the environment (``PUZZLEBOTS_GAMES``)."""

from __future__ import annotations

import os
import re
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SRC = HERE.parents[1] / "src"
#: the never-ending game of the server tests (slowgame.py, in this folder)
SLOW_GAME = ("slowgame:GAME", HERE)
#: the toy game of docs/architecture.md (tests/core/toygame.py), which has a web view and nothing else for the page
TOY_GAME = ("toygame:GAME", HERE.parent / "core")
#: seconds a wait for what must happen (the server's address, its workers) may last before the test gives up: a
#: guard against a hang, far above what a loaded machine takes; every wait ends as soon as its event comes
HANG_GUARD = 120.0
#: the same guard in milliseconds, for Playwright's actions and waits on a page
PAGE_GUARD = int(HANG_GUARD * 1000)


def serve_command(*args: str) -> list[str]:
    return [sys.executable, "-u", "-m", "puzzlebots", "serve", *args]


def serve_env(game: tuple[str, Path] = SLOW_GAME) -> dict[str, str]:
    """This checkout's sources first, as for the tests themselves, and one test game (module:attribute, folder)."""
    spec, folder = game
    path = os.pathsep.join(filter(None, [str(SRC), str(folder), os.environ.get("PYTHONPATH", "")]))
    return {**os.environ, "PYTHONPATH": path, "PUZZLEBOTS_GAMES": spec}


def live_children(pid: int) -> list[int]:
    """The processes (zombies aside) whose parent is ``pid``, read from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def is_alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def waiting_for_input(pid: int, guard: float = HANG_GUARD) -> bool:
    """Wait until process ``pid`` blocks reading a pipe (a page's worker waiting for its first message, its imports
    done); False if it has not after ``guard`` seconds (a hang guard) or has gone."""
    deadline = time.monotonic() + guard
    while time.monotonic() < deadline:
        try:
            if "pipe_read" in Path(f"/proc/{pid}/wchan").read_text():
                return True
        except OSError:
            return False
        time.sleep(0.05)
    return False


class ServerProcess:
    """``puzzlebots serve --port 0 ...`` started for real; ``url`` is read from the address it prints."""

    def __init__(self, *args: str, game: tuple[str, Path] = SLOW_GAME) -> None:
        self.process = subprocess.Popen(
            serve_command("--port", "0", *args),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=serve_env(game),
        )
        self.first_line = self.read_line(HANG_GUARD)
        found = re.search(r"http://[^ /]+", self.first_line)
        if found is None:
            self.stop()
            raise RuntimeError(f"serve did not start: {self.first_line!r} {self.stderr!r}")
        self.url = found.group(0)
        self.pid = self.process.pid

    def read_line(self, timeout: float) -> str:
        assert self.process.stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            if not selector.select(timeout):
                return ""
        return self.process.stdout.readline()

    def workers(self) -> list[int]:
        return live_children(self.pid)

    def wait_for_workers(self, count: int, timeout: float = HANG_GUARD) -> list[int]:
        """The worker processes once there are exactly ``count`` (the last seen ones after ``timeout``, a hang
        guard)."""
        deadline = time.monotonic() + timeout
        while len(found := self.workers()) != count and time.monotonic() < deadline:
            time.sleep(0.05)
        return found

    def stop(self) -> None:
        """SIGTERM (if still running); ``stderr`` is then what the server wrote there."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        assert self.process.stdout is not None and self.process.stderr is not None
        self.stderr = self.process.stderr.read()
        self.process.stdout.close()
        self.process.stderr.close()


#: where each page's screenshot goes after its test (untracked)
ARTIFACTS = HERE / "artifacts"
#: the folder `make screenshots` writes the docs' screenshots to (docs/img); unset (a test run), none is taken
SHOTS = "PUZZLEBOTS_SCREENSHOTS"


def screenshot(target: Any, name: str) -> None:
    """Save a screenshot of ``target`` (a page, all of it, or a locator) as ``name`` in the folder ``SHOTS``
    names. A test run takes none: each costs a fraction of a second to a second, and only the docs use them."""
    folder = os.environ.get(SHOTS)
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    path = str(Path(folder) / name)
    if hasattr(target, "goto"):
        target.screenshot(path=path, full_page=True)
    else:
        target.screenshot(path=path)


def _keep_screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


@contextmanager
def open_page(
    browser_context: Any, url: str, name: str, tab: str = "watch", failed: Callable[[], bool] = lambda: False
) -> Iterator[Any]:
    """The page at ``url`` on the tab ``tab`` (the watch form unless told; "" is the start page with its live
    boards), once ready; any JavaScript error or console error on it fails the test. A test that failed (an
    exception out of the ``with``, or ``failed()`` after it: a fixture's test) leaves its screenshot in
    tests/web/artifacts/<name>.png; a full-page screenshot of every passing test cost about a second each."""
    page = browser_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(url + "/" + (f"#{tab}" if tab else ""))
    page.wait_for_selector("body[data-ready='1']", timeout=PAGE_GUARD)
    try:
        yield page
    except BaseException:
        _keep_screenshot(page, name)
        page.close()
        raise
    if failed() or errors:
        _keep_screenshot(page, name)
    page.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
