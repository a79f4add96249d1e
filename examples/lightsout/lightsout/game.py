"""The adapter object the entry point names: the game's facts, its bots, and the capabilities it has."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from puzzlebots.core.base import EpisodicBase
from puzzlebots.core.config import is_int
from puzzlebots.core.errors import InputError
from puzzlebots.core.protocols import Bot, BotInfo, State

from . import render, view
from .bots.random_bot import RandomBot
from .bots.solver import SolverBot
from .config import LightsOutConfig
from .engine import LightsOutState

#: the most lights a board has (size at most 9); ``apply`` refuses a light off the board actually played
MOST_LIGHTS = 9 * 9


class LightsOutGame(EpisodicBase):
    """Episodic, with a terminal view, a web view and a Gym adapter."""

    name = "lightsout"  # the entry point's name in pyproject.toml must be this
    title = "Lights Out"
    rules_version = "1"
    config_schema = LightsOutConfig
    fitness_label = "lights off at the end, minus presses / 1000"
    plot_figure = ("presses", "presses per game")
    summary_notes = {"solved_rate": "games with every light off"}
    env_name = "LightsOut"

    def bots(self) -> Sequence[BotInfo]:
        return (
            BotInfo("solver", "solves the board exactly (Gaussian elimination over GF(2))", faithful=False),
            BotInfo("random", "a uniformly random press", faithful=False),
        )

    def new_state(self, seed: int, config: Mapping[str, Any]) -> State:
        return LightsOutState(seed, LightsOutConfig.of(config))

    def make_bot(self, name: str, config: Mapping[str, Any], weights: Sequence[float] | None, seed: int) -> Bot:
        self.bot_info(name)  # ConfigError naming the bots for an unknown one
        self.check_weights(name, weights)
        return SolverBot() if name == "solver" else RandomBot(seed)

    def decode_action(self, data: Any) -> int:
        if not (is_int(data) and 0 <= data < MOST_LIGHTS):
            raise InputError(f"lightsout: an action is a light's number, got {data!r}")
        return int(data)

    def summarize(self, results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        n = len(results)
        return {
            "games": n,
            "solved_rate": sum(r["solved"] for r in results) / n,
            "mean_presses": sum(r["presses"] for r in results) / n,
        }

    def fitness(self, result: Mapping[str, Any]) -> float:
        return float(result["solved"]) - result["presses"] / 1000

    # capabilities: each is a method the game has or has not; the edges ask isinstance(game, TerminalView) ...
    def render(self, state: State, bot: Bot | None = None) -> Any:
        assert isinstance(state, LightsOutState)
        return render.render(state)

    def web_view(self, state: State, bot: Bot | None = None) -> dict[str, Any]:
        assert isinstance(state, LightsOutState)
        return view.web_view(state)

    def web_folder(self) -> Path | None:
        return None  # the generic grid draws the board: no page files

    def env_adapter(self, config: Mapping[str, Any]) -> Any:
        from .env import LightsOutAdapter  # gymnasium only when an env is made

        return LightsOutAdapter(LightsOutConfig.of(config))


GAME = LightsOutGame()
