"""The Cargo-Bot adapter. Cargo-Bot has no seeded episodes: a level is a fixed puzzle, and its "bots"
are the two program searches, run through ``puzzlebots cargobot solve|climb`` (see ``cli.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from puzzlebots.core.base import GameBase
from puzzlebots.core.errors import ConfigError
from puzzlebots.core.protocols import Bot, BotInfo, State

_USE_CLI = "cargobot has no seeded episodes; use `puzzlebots cargobot run|solve|climb ...`"


class CargoBotGame(GameBase):
    name = "cargobot"
    title = "Cargo-Bot"
    rules_version = "1"
    episodic = False  # no seeded bot games: programs are run, solved and climbed by its own commands

    def bots(self) -> Sequence[BotInfo]:
        return (
            BotInfo("climb", "the Ruby emulator's multi-objective hill climber (rebuild distance as error)"),
            BotInfo("solve", "exhaustive lazy program synthesizer after Elizarov's CargoBotSolver", faithful=False),
        )

    def new_state(self, seed: int, config: Mapping[str, Any]) -> State:
        raise ConfigError(_USE_CLI)

    def make_bot(self, name: str, config: Mapping[str, Any], weights: Sequence[float] | None, seed: int) -> Bot:
        self.bot_info(name)
        raise ConfigError(_USE_CLI)

    def summarize(self, results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        raise ConfigError(_USE_CLI)

    def fitness(self, result: Mapping[str, Any]) -> float:
        raise ConfigError(_USE_CLI)

    def render(self, state: State, bot: Bot | None = None) -> Any:
        raise ConfigError(_USE_CLI)

    def extra_commands(self) -> Sequence[Any]:
        from .cli import COMMANDS

        return COMMANDS


GAME = CargoBotGame()
