"""The example game (examples/lightsout) installed from outside the package, as a user installs a game of their own:
``pip install`` into a folder of its own, found only through its ``puzzlebots.games`` entry point, then every
edge of the tool uses it: ``list``, ``stats``, ``watch``, ``replay``, the Gym env's ``check_env`` and the page.

It lives beside the browser tests for their Chromium fixture.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from serving import PAGE_GUARD, SRC, ServerProcess

EXAMPLE = SRC.parent / "examples" / "lightsout"
TIMEOUT = PAGE_GUARD  # a hang guard: every wait ends at its event


def builds_wheels() -> bool:
    """Whether setuptools can build a wheel offline: built in from setuptools 70.1, else the ``wheel`` package."""
    major, minor = (int(part) for part in version("setuptools").split(".")[:2])
    if (major, minor) >= (70, 1):
        return True
    try:
        import wheel  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example installed with pip into a folder of its own (from a copy: the build writes beside its sources)."""
    if not builds_wheels():
        pytest.fail("installing the example needs setuptools>=70.1 (the dev extra): run `make install`")
    base = tmp_path_factory.mktemp("example")
    source = base / "lightsout"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    target = base / "site"
    pip = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index"]
    done = subprocess.run([*pip, "--target", str(target), str(source)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert not (target / "puzzlebots").exists()  # --no-deps: this checkout's puzzlebots is the one used
    return target


def environment(site: Path) -> dict[str, str]:
    """This checkout's sources, then the example's install folder; no game named through the environment."""
    env = {k: v for k, v in os.environ.items() if k != "PUZZLEBOTS_GAMES"}
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), str(site)])
    return env


def puzzlebots(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "puzzlebots", *args], capture_output=True, text=True, env=environment(site), timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done


def test_list_shows_the_game_and_its_bots(site: Path) -> None:
    out = puzzlebots(site, "list").stdout
    assert "lightsout" in out and "solver" in out and "random" in out


def test_stats_help_shows_its_options_with_default_and_range(site: Path) -> None:
    out = " ".join(puzzlebots(site, "stats", "lightsout", "--help").stdout.split())
    assert "--size INTEGER board side in lights [default: 5; an integer in 3..9]" in out


def test_stats_solves_every_board(site: Path, tmp_path: Path) -> None:
    out = tmp_path / "stats.json"
    puzzlebots(
        site, "stats", "lightsout", "--bot", "solver", "--games", "6", "--jobs", "1", "--quiet", "--json", str(out)
    )
    data = json.loads(out.read_text())
    assert data["game"] == "lightsout" and data["summary"]["solved_rate"] == 1.0
    assert [game["seed"] for game in data["games"]] == list(range(6))


def test_watch_records_a_replay_that_replays(site: Path, tmp_path: Path) -> None:
    replay = tmp_path / "solver.jsonl"
    shown = puzzlebots(
        site, "watch", "lightsout", "--bot", "solver", "--seed", "3", "--delay", "0", "--replay", str(replay)
    ).stdout
    assert "Lights Out - solved" in shown
    header = json.loads(replay.read_text().splitlines()[0])
    assert header["game"] == "lightsout" and header["bot"] == "solver"
    puzzlebots(site, "replay", str(replay), "--no-show")


GYM_CHECK = """
import gymnasium as gym
from gymnasium.utils.env_checker import check_env
import puzzlebots.envs

env = gym.make("puzzlebots/LightsOut-v0", render_mode="rgb_array", config={"size": 4})
check_env(env.unwrapped, skip_render_check=False)
obs, info = env.reset(options={"game_seed": 3})
assert obs["lights"].shape == (4, 4) and info["action_mask"].sum() == 16
print("ok")
"""


def test_gym_env_passes_check_env(site: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", GYM_CHECK], capture_output=True, text=True, env=environment(site), timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("ok")


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[ServerProcess]:
    """``puzzlebots serve`` that knows the example only through its installed entry point."""
    proc = ServerProcess(game=("", site))  # no $PUZZLEBOTS_GAMES; the install folder on the path
    yield proc
    proc.stop()


def test_the_page_watches_it(browser_context: Any, server: ServerProcess) -> None:
    page = browser_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(server.url + "/#watch")
    page.wait_for_selector("body[data-ready='1']", timeout=TIMEOUT)
    page.select_option("#watch-game", "lightsout")
    page.select_option("#watch-bot", "solver")
    page.fill("#watch-config-size", "4")
    page.click("#watch-start")
    page.wait_for_function("document.getElementById('play-state').textContent === 'finished'", timeout=TIMEOUT)
    board = page.locator("#play-board")
    assert board.get_attribute("data-kind") == "grid"
    lit = board.locator("svg [data-role='cell'][data-value='1']")
    dark = board.locator("svg [data-role='cell'][data-value='2']")
    assert lit.count() == 0 and dark.count() == 16  # solved: every light of the 4 x 4 board off
    page.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
