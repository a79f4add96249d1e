"""A long page call reports as it goes and the page can stop it (``WebReporting``), through the real server and its
worker processes: Cargo-Bot's Solve sends its progress in order and then its answer, a stop ends it and leaves no
process, a call deaf to the stop has its worker killed, and a stop with nothing to stop is one refusal; on the page
(Chromium), the progress line updates while Solve runs, and Stop ends it.

Searches are counted by sizes and nodes, never timed.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from itertools import groupby
from typing import Any

import pytest
from aiohttp import ClientSession, ClientWebSocketResponse, WSMsgType
from serving import HANG_GUARD, PAGE_GUARD, ServerProcess, is_alive, live_children

#: the server's seconds per answer: a guard against a hang, far beyond any answer here
PATIENT = 3600
#: a level whose search goes through ten sizes before it finds its program (Inverter: size 10)
STEPPED = "Inverter"
#: a level no page solve finishes: it runs until it is stopped
ENDLESS = "Vertical Sort"


def solve(level: str, seconds: int = 60) -> dict[str, Any]:
    return {"op": "game", "game": "cargobot", "call": "solve", "level": level, "seconds": seconds}


async def receive(ws: ClientWebSocketResponse) -> dict[str, Any]:
    reply = await ws.receive(timeout=HANG_GUARD)
    assert reply.type == WSMsgType.TEXT, reply
    message: dict[str, Any] = json.loads(reply.data)
    return message


async def until_answer(ws: ClientWebSocketResponse) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The progress messages of the call running, in order, and then its answer."""
    reports = []
    while (message := await receive(ws))["type"] == "progress":
        reports.append(message)
    return reports, message


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    proc = ServerProcess("--time-budget", str(PATIENT))
    yield proc
    proc.stop()


def sizes(reports: list[dict[str, Any]]) -> list[int]:
    """The sizes the reports name, in order, each once (a size's search also reports every quarter second)."""
    named = [int(r["searching"].removeprefix("size ")) for r in reports if r["searching"].startswith("size ")]
    return [size for size, _ in groupby(named)]


def test_a_solve_reports_in_order_then_answers_and_a_stop_ends_it_leaving_no_process(server: ServerProcess) -> None:
    async def talk() -> dict[str, Any]:
        async with ClientSession() as http, http.ws_connect(f"{server.url}/ws") as ws:
            seen: dict[str, Any] = {}
            await ws.send_json({"op": "stop"})
            seen["idle stop"] = await receive(ws)
            await ws.send_json(solve(STEPPED))
            seen["stepped"] = await until_answer(ws)
            await ws.send_json(solve(ENDLESS))
            reports = []
            while len(sizes(reports)) < 3 or not reports[-1]["nodes"]:  # well into its search: counted, not timed
                reports.append(message := await receive(ws))
                assert message["type"] == "progress", message
            (worker,) = server.wait_for_workers(1)
            await ws.send_json({"op": "stop", "now": True})
            await ws.send_json({"op": "stop"})
            rest, seen["stopped"] = await until_answer(ws)
            seen["endless"] = reports + rest
            seen["bad stop"], seen["stop"] = await receive(ws), await receive(ws)
            seen["alive"], seen["children"] = is_alive(worker), live_children(worker)
            await ws.send_json(solve("Cargo 101"))
            seen["again"] = await until_answer(ws)
            return seen

    seen = asyncio.run(talk())
    nothing = "nothing to stop: no call that reports its progress is running"
    assert seen["idle stop"] == {"type": "error", "message": nothing}
    reports, answer = seen["stepped"]
    assert answer["type"] == "game" and answer["solved"] and answer["size"] == 10 and not answer["stopped"]
    assert all(r["type"] == "progress" and r["game"] == "cargobot" for r in reports)
    assert sizes(reports) == list(range(1, 11))  # every size, in order, before the answer
    for key in ("nodes", "seconds"):
        assert [r[key] for r in reports] == sorted(r[key] for r in reports)
    assert answer["thinking"]["figures"][0] == ["programs tried", answer["thinking"]["figures"][0][1]]
    assert seen["bad stop"]["type"] == "error" and "unknown field 'now'" in seen["bad stop"]["message"]
    assert seen["stop"]["type"] == "stop"
    stopped = seen["stopped"]
    assert stopped["type"] == "game" and stopped["stopped"] and not stopped["solved"], stopped
    assert stopped["message"].startswith("stopped after"), stopped
    assert seen["endless"][-1]["nodes"] <= stopped["thinking"]["figures"][0][1]
    assert seen["alive"] and seen["children"] == []  # the worker ended its search itself
    reports, again = seen["again"]
    assert again["solved"] and again["program"] == "claw R claw" and sizes(reports) == [1, 2, 3]


def test_a_call_deaf_to_the_stop_has_its_worker_killed_and_the_page_goes_on(server: ServerProcess) -> None:
    async def talk() -> dict[str, Any]:
        async with ClientSession() as http, http.ws_connect(f"{server.url}/ws") as ws:
            seen: dict[str, Any] = {}
            await ws.send_json({"op": "game", "game": "slow", "call": "ponder"})
            seen["report"] = await receive(ws)
            (worker,) = server.wait_for_workers(1)
            await ws.send_json({"op": "stop"})
            seen["answer"], seen["stop"] = await receive(ws), await receive(ws)
            seen["alive"] = is_alive(worker)
            await ws.send_json({"op": "games"})
            seen["games"] = await receive(ws)
            return seen

    seen = asyncio.run(talk())
    assert seen["report"] == {"thinking": "forever", "type": "progress", "game": "slow"}
    assert seen["answer"]["type"] == "error" and seen["answer"]["message"].startswith("stopped: the call did not end")
    assert seen["stop"]["type"] == "stop" and not seen["alive"]
    assert seen["games"]["type"] == "games"  # a fresh worker answers


# --------------------------------------------------------------------------- on the page (Chromium, the live server)

#: records each distinct text the progress line shows while the solve is running (before its answer)
WATCH_PROGRESS = """() => {
  const line = document.getElementById("cargo-progress");
  const status = document.getElementById("cargo-status");
  window.progressLines = [];
  new MutationObserver(() => {
    const text = line.textContent;
    const fresh = text && !window.progressLines.includes(text);
    if (fresh && status.dataset.outcome === "solving") window.progressLines.push(text);
  }).observe(line, { childList: true, characterData: true, subtree: true });
}"""


def open_level(page: Any, level: str) -> None:
    page.click("nav button[data-tab='cargobot']")
    page.wait_for_function("document.querySelectorAll('#cargo-level option').length >= 40", timeout=PAGE_GUARD)
    page.select_option("#cargo-level", level)
    page.wait_for_function(
        f"document.getElementById('cargo-info').textContent.includes({json.dumps(level)})", timeout=PAGE_GUARD
    )


def test_the_page_shows_the_solvers_progress_live_then_its_answer(page: Any) -> None:
    open_level(page, STEPPED)
    page.evaluate(WATCH_PROGRESS)
    page.click("#cargo-solve")
    page.wait_for_function("window.progressLines.length >= 2", timeout=PAGE_GUARD)
    page.wait_for_selector("#cargo-status[data-outcome='found']", timeout=PAGE_GUARD)
    lines = page.evaluate("window.progressLines")
    assert len(lines) >= 2 and all(line.startswith("searching ") for line in lines), lines
    assert any(" nodes" in line and "size " in line for line in lines), lines
    assert page.locator("#cargo-progress").get_attribute("data-searching") == "size 10"
    assert page.locator("#cargo-editor .register[data-cmd]").count() == 10  # the program found, in the editor
    assert page.locator("#cargo-stop").is_disabled() and page.locator("#cargo-solve").is_enabled()


def test_stop_ends_a_solve_on_the_page_and_a_new_solve_answers(page: Any) -> None:
    open_level(page, ENDLESS)
    page.select_option("#cargo-solve-seconds", "60")
    page.click("#cargo-solve")
    page.wait_for_function(  # well into its search: a size with nodes counted
        "Number(document.getElementById('cargo-progress').dataset.nodes) > 0", timeout=PAGE_GUARD
    )
    page.click("#cargo-stop")
    page.wait_for_selector("#cargo-status[data-outcome='stopped']", timeout=PAGE_GUARD)
    assert page.locator("#cargo-status").inner_text().startswith("stopped after")
    assert page.locator("#cargo-thinking table.figures").count() == 1  # what the search did before the stop
    open_level(page, "Cargo 101")
    page.click("#cargo-solve")
    page.wait_for_selector("#cargo-status[data-outcome='found']", timeout=PAGE_GUARD)
    assert page.locator("#cargo-program").input_value() == "claw R claw"
