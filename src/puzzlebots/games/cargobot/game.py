"""The Cargo-Bot adapter. Cargo-Bot has no seeded episodes: a level is a fixed puzzle, and its "bots" are the
program searches, run through ``puzzlebots cargobot solve|climb`` (see ``cli.py``). It is a plain ``Game`` with
commands of its own, and implements no capability it does not have."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from puzzlebots.core.base import GameBase
from puzzlebots.core.protocols import BotInfo


class CargoBotGame(GameBase):
    name = "cargobot"
    title = "Cargo-Bot"
    rules_version = "1"

    def bots(self) -> Sequence[BotInfo]:
        return (
            BotInfo("climb", "the Ruby emulator's multi-objective hill climber (rebuild distance as error)"),
            BotInfo("solve", "exhaustive lazy program synthesizer after Elizarov's CargoBotSolver", faithful=False),
        )

    def extra_commands(self) -> Sequence[Any]:
        from .cli import COMMANDS

        return COMMANDS


GAME = CargoBotGame()
