"""The registration rules a game must meet, refused in one line: a config schema is a frozen dataclass, and an
entry point's name is its game's name."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from puzzlebots.core.base import EpisodicBase, GameBase
from puzzlebots.core.config import Schema, defaults, setting, settings

SRC = Path(__file__).resolve().parents[2] / "src"
TOY = Path(__file__).resolve().parent  # toygame.py
FORGOT = r"^config schema .*Forgot needs @dataclass\(frozen=True\) on its class$"


class Forgot(Schema):  # the decorator left out: its settings are not fields
    size: int = setting(5, "side", range=(3, 9), flag="--size")


def test_a_game_class_naming_an_undecorated_schema_fails_when_it_is_made() -> None:
    with pytest.raises(TypeError, match=FORGOT):

        class Game(GameBase):
            config_schema = Forgot


def test_every_use_of_an_undecorated_schema_fails_in_one_line() -> None:
    for use in (settings, defaults):
        with pytest.raises(TypeError, match=FORGOT):
            use(Forgot)
    with pytest.raises(TypeError, match=FORGOT):
        Forgot.of({})


def test_a_decorated_schema_and_its_typed_view() -> None:
    @dataclass(frozen=True)
    class Sized(Schema):
        size: int = setting(5, "side", range=(3, 9))

    class Game(EpisodicBase):
        config_schema = Sized

    assert Sized.of({"size": 7}).size == 7 and Sized.of({}).size == 5


BAD_GAME = """
from puzzlebots.core.base import EpisodicBase
from puzzlebots.core.config import Schema, setting

class Forgot(Schema):
    size: int = setting(5, "side", range=(3, 9), flag="--size")

class Bad(EpisodicBase):
    name = "bad"
    config_schema = Forgot

GAME = Bad()
"""


def run(args: list[str], path: list[Path], games: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, [SRC, *path])), "PUZZLEBOTS_GAMES": games}
    return subprocess.run(
        [sys.executable, "-m", "puzzlebots", *args], capture_output=True, text=True, env=env, timeout=120
    )


def test_a_game_module_with_an_undecorated_schema_is_one_error_line(tmp_path: Path) -> None:
    (tmp_path / "badgame.py").write_text(BAD_GAME)
    done = run(["stats", "bad"], [tmp_path], games="badgame:GAME")
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "error: PUZZLEBOTS_GAMES: cannot load 'badgame:GAME' (config schema Forgot needs @dataclass(frozen=True) on"
        " its class)"
    )


def test_an_entry_point_named_other_than_its_game_is_refused(tmp_path: Path) -> None:
    info = tmp_path / "misnamed-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: misnamed\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[puzzlebots.games]\nplaying_cards = toygame:GAME\n")
    done = run(["stats", "playing_cards", "--games", "1"], [tmp_path, TOY])
    assert done.returncode == 2
    assert done.stderr.strip() == ("error: entry point 'playing_cards' loads game 'cards': the names must be the same")
