"""External UPI engines on the page: the operator names them (``serve --engine NAME=COMMAND``), a page picks one
only as ``upi:NAME``, each game starts the engine's process and ends it, and an engine that fails loses with a
one-line reason. The browser test plays our own engine (``puzzlebots puyo upi``) through a real server."""

from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from serving import ServerProcess, is_alive, open_page

from puzzlebots.cli import cli
from puzzlebots.core.errors import ConfigError
from puzzlebots.core.protocols import WebEngines
from puzzlebots.core.registry import get_game
from puzzlebots.web.cli import engine_table
from puzzlebots.web.games import list_games
from puzzlebots.web.session import Session

TIMEOUT = 120_000
#: our own engine; its seed marks its processes so that a test finds them (and only them) in /proc
ENGINE_SEED = 731_909


def engine_argv(seed: int = ENGINE_SEED) -> tuple[str, ...]:
    return (sys.executable, "-m", "puzzlebots", "puyo", "upi", "--bot", "krieg", "--seed", str(seed))


def engine_processes(seed: int = ENGINE_SEED) -> list[int]:
    """The live processes running our engine with ``seed`` (read from /proc)."""
    marker = f"upi\0--bot\0krieg\0--seed\0{seed}".encode()
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if marker in cmdline.read_bytes() and is_alive(int(cmdline.parent.name)):
                found.append(int(cmdline.parent.name))
        except (OSError, ValueError):
            continue
    return found


def wait_until_gone(seed: int, seconds: float = 30) -> list[int]:
    """The engine's processes once none is left (the last seen ones if some outlive ``seconds``)."""
    deadline = time.monotonic() + seconds
    while (left := engine_processes(seed)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


# -- the operator's table -------------------------------------------------------------------------------------
def test_engine_table_reads_names_and_splits_commands() -> None:
    table = engine_table([f"self={shlex.join(engine_argv())}", "two=true --x 'a b'"])
    assert table == {"self": engine_argv(), "two": ("true", "--x", "a b")}


@pytest.mark.parametrize(
    "spec",
    [
        "self",
        "=true",
        "Self=true",
        "a b=true",
        "x" * 17 + "=true",
        "1a=true",
        "e=",
        "e=   ",
        "e=true 'open",
        "e=no-such-program-here",
    ],
)
def test_a_bad_engine_is_one_error_line_and_exit_2(spec: str) -> None:
    with pytest.raises(ConfigError):
        engine_table([spec])
    res = CliRunner().invoke(cli, ["serve", "--port", "0", "--engine", spec])
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --engine"), res.output


def test_an_engine_named_twice_is_refused() -> None:
    with pytest.raises(ConfigError, match="named twice"):
        engine_table(["e=true", "e=false"])


def test_the_games_list_offers_engines_by_name_only() -> None:
    games = {g["name"]: g for g in list_games({"self": engine_argv()})}
    assert games["puyo"]["engines"] == ["upi:self"]
    assert "puzzlebots" not in json.dumps(games["puyo"]["engines"])
    for name, game in games.items():  # a game that cannot play engines offers none
        if not isinstance(get_game(name), WebEngines):
            assert game["engines"] == []
    assert all(g["engines"] == [] for g in list_games())


# -- the page's messages --------------------------------------------------------------------------------------
def versus(session: Session, bot: str, **fields: Any) -> dict[str, Any]:
    msg = {"op": "game", "game": "puyo", "call": "versus", "bot": bot, "seed": 3, **fields}
    answer: dict[str, Any] = json.loads(session.reply(json.dumps(msg)))
    return answer


@pytest.mark.parametrize(
    "bot", ["upi:nope", f"upi:{shlex.join(engine_argv())}", "upi:/bin/sh -c 'touch x'", "upi:", "upi:SELF", "/bin/true"]
)
def test_a_page_naming_anything_but_an_operators_engine_is_refused(bot: str) -> None:
    session = Session(engines={"self": engine_argv()})
    answer = versus(session, bot)
    assert answer["type"] == "error" and "\n" not in answer["message"]
    assert not engine_processes()


def test_without_engines_no_upi_bot_is_played() -> None:
    answer = versus(Session(), "upi:self")
    assert answer["type"] == "error" and "no external engine" in answer["message"]


def test_engines_play_on_the_frame_clock_only() -> None:
    answer = versus(Session(engines={"self": engine_argv()}), "upi:self", mode="turn")
    assert answer["type"] == "error" and "frame clock" in answer["message"]


def test_an_engine_that_fails_loses_with_a_one_line_reason() -> None:
    session = Session(engines={"broken": ("false",)})
    answer = versus(session, "upi:broken")
    assert answer["type"] == "game" and answer["done"]
    assert answer["reason"].startswith("engine exited")
    assert answer["status"].startswith("you win!") and "\n" not in answer["status"]


def test_each_game_starts_the_engine_and_the_next_game_ends_it() -> None:
    seed = ENGINE_SEED + 1
    session = Session(engines={"self": engine_argv(seed)})
    answer = versus(session, "upi:self")
    assert answer["type"] == "game" and not answer["done"], answer
    first = engine_processes(seed)
    assert len(first) == 1
    versus(session, "krieg")  # the next game, against our own bot: the engine's process ends
    assert wait_until_gone(seed) == []


# -- the browser ----------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def engine_server() -> Any:
    server = ServerProcess("--engine", f"self={shlex.join(engine_argv())}", "--time-budget", "600")
    yield server
    server.stop()


def test_a_person_plays_an_external_engine_on_the_page(browser_context: Any, engine_server: ServerProcess) -> None:
    with open_page(browser_context, engine_server.url, "puyo-upi-engine") as page:
        page.click("nav button[data-tab='puyo']")
        options = page.locator("#versus-bot option").all_inner_texts()
        assert "upi:self" in options and not any("puzzlebots" in o for o in options)  # no command on the page
        page.select_option("#versus-bot", "upi:self")
        page.fill("#versus-seed", "5")
        page.click("#versus-start")
        # the engine moves: its pairs counter passes 2 and its field holds puyos
        page.wait_for_function("Number(document.getElementById('versus-board').dataset.ai || 0) >= 2", timeout=TIMEOUT)
        assert page.locator("#versus-board svg").nth(1).locator("[data-role='cell']").count() > 0
        assert len(engine_processes()) == 1
    # the page is closed: its worker ends, and the engine with it
    assert wait_until_gone(ENGINE_SEED) == []
