"""The Cargo-Bot adapter. Cargo-Bot has no seeded episodes: a level is a fixed puzzle, and its "bots" are the
program searches, run through ``puzzlebots cargobot solve|climb`` (see ``cli.py``). It is a plain ``Game`` with
commands of its own and a page of its own (a program editor that animates the claw, ``view.py`` and ``web/``),
and implements no capability it does not have."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from puzzlebots.core.base import GameBase
from puzzlebots.core.protocols import JSON, BotInfo

from .config import CargoBotConfig

if TYPE_CHECKING:
    from .view import CargoPage, Snapshot


class CargoBotGame(GameBase):
    name = "cargobot"
    title = "Cargo-Bot"
    rules_version = "1"
    config_schema = CargoBotConfig

    def bots(self) -> Sequence[BotInfo]:
        return (
            BotInfo("climb", "the Ruby emulator's multi-objective hill climber (rebuild distance as error)"),
            BotInfo("solve", "exhaustive lazy program synthesizer after Elizarov's CargoBotSolver", faithful=False),
            BotInfo(
                "evolve",
                "the baseline genetic algorithm over scripts (cargobot evolve --method ga), "
                "scored by the batch evaluator",
                faithful=False,
            ),
            BotInfo("sketch", "tabu search over program sketches, then shrink; not proven smallest", faithful=False),
        )

    def extra_commands(self) -> Sequence[Any]:
        from .cli import COMMANDS

        return COMMANDS

    def web_view(self, state: Snapshot, bot: object = None) -> dict[str, JSON]:
        """The page's board for a level at one tick (the ``cargo`` drawing of ``web/view.js``); imported here
        because the machine loads numba, which ``puzzlebots list`` need not wait for."""
        from .view import board

        return board(state)

    def web_folder(self) -> Path:
        return Path(__file__).with_name("web")

    def web_ops(self) -> Sequence[str]:
        """The program editor: ``levels`` lists them, ``level`` draws one, ``run`` animates a program on it,
        ``solve`` runs the solve campaign (``campaign``) with a time limit."""
        return ("levels", "level", "run", "solve")

    def web_session(self) -> CargoPage:
        from .view import CargoPage

        return CargoPage()


GAME = CargoBotGame()
