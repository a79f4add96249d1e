"""The adapter the core and the CLI use: configuration, bots, summaries and the live view."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import RenderableType

from puzzlebots.core.base import EpisodicBase
from puzzlebots.core.errors import IllegalActionError, InputError
from puzzlebots.core.protocols import JSON, Bot, BotInfo, State

from . import view
from .bots import PLANNER_WEIGHTS
from .config import YoshiConfig

if TYPE_CHECKING:
    from .env import YoshisCookieAdapter


class YoshisCookieGame(EpisodicBase):
    name = "yoshis_cookie"
    title = "Yoshi's Cookie (NES, 1P)"
    rules_version = "1"
    env_name = "YoshisCookie"
    fitness_label = "stages cleared without a continue"
    config_schema = YoshiConfig
    #: what the ``stats`` table says beside a figure whose name alone is not plain
    summary_notes = {
        "games": "runs played",
        "stage_clear_rate": "stages cleared without a continue, out of stages attempted",
        "continues": "continues per run (a game over restarts the stage)",
        "continues_total": "continues, all runs",
        "mean_score": "score at the end, mean per run",
        "mean_max_chain": "largest chain of a run (a cascade of lines from one move), mean",
        "stages_attempted": "stages started, all runs (a stage retried after a continue counts once)",
        "stages_cleared": "stages finished, all runs (with or without continues)",
        "completion_rate": "runs that cleared their last stage",
        "mean_frames_per_stage": "frames per cleared stage, failed attempts included",
    }

    def bots(self) -> Sequence[BotInfo]:
        return (
            BotInfo(
                "greedy",
                "the article's greedy line builder: most points, then fewest steps, balance rule",
                compiled=True,
            ),
            BotInfo(
                "planner",
                "two lines ahead by cookies removed per step, no hard balance rule, spares Yoshis",
                PLANNER_WEIGHTS,
                faithful=False,
                compiled=True,
            ),
        )

    def decode_action(self, data: Any) -> str:
        """A plan read from a replay file; ``InputError`` unless it is a well-formed plan string."""
        from .engine import check_plan  # the engine loads numba: imported on use, like the bots

        try:
            check_plan(data)
        except IllegalActionError as exc:
            raise InputError(str(exc)) from None
        return str(data)

    def new_state(self, seed: int, config: Mapping[str, Any]) -> State:
        from .engine import YoshiState

        return YoshiState(config, seed)

    def make_bot(self, name: str, config: Mapping[str, Any], weights: Sequence[float] | None, seed: int) -> Bot:
        self.bot_info(name)
        self.check_weights(name, weights)
        from .bots.greedy import GreedyBot  # the bots load numba: imported on use, so `--help` and `list` stay fast
        from .bots.planner import PlannerBot, default_planner_weights

        if name == "greedy":
            return GreedyBot(config)
        return PlannerBot(config, list(weights) if weights is not None else default_planner_weights())

    def default_weights(self, bot: str) -> list[float] | None:
        """The shipped weights of a bot that has weights (used by ``train --init default``)."""
        self.bot_info(bot)
        from .bots.planner import default_planner_weights

        return default_planner_weights() if bot == "planner" else None

    def summarize(self, results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        n = len(results)
        if n == 0:
            return {"games": 0}
        attempted = sum(r["stages_attempted"] for r in results)
        cleared = sum(r["stages_cleared"] for r in results)
        first = sum(r["stages_cleared_first_try"] for r in results)
        frames = sum(r["frames_in_cleared_stages"] for r in results)
        return {
            "games": n,
            "stage_clear_rate": first / attempted if attempted else 0.0,
            "continues": sum(r["continues"] for r in results) / n,
            "continues_total": sum(r["continues"] for r in results),
            "mean_frames_per_stage": frames / cleared if cleared else 0.0,
            "mean_score": sum(r["score"] for r in results) / n,
            "stages_attempted": attempted,
            "stages_cleared": cleared,
            "completion_rate": sum(1 for r in results if r["completed"]) / n,
            "mean_max_chain": sum(r["max_chain"] for r in results) / n,
        }

    def fitness(self, result: Mapping[str, Any]) -> float:
        """Stages cleared without a continue; fewer frames per cleared stage break ties."""
        cleared = max(1, result["stages_cleared"])
        return result["stages_cleared_first_try"] - result["frames_in_cleared_stages"] / cleared / 1e6

    def env_adapter(self, config: Mapping[str, Any]) -> YoshisCookieAdapter:
        """The Gym adapter (``puzzlebots/YoshisCookie-v0``); imported here because it needs the [gym] extra."""
        from .env import YoshisCookieAdapter

        return YoshisCookieAdapter(config)

    def render(self, state: State, bot: Bot | None = None) -> RenderableType:
        from .engine import YoshiState
        from .render import render_state

        assert isinstance(state, YoshiState)
        return render_state(state, bot)

    def web_view(self, state: State, bot: Bot | None = None) -> dict[str, JSON]:
        """The page's board: the ``cookies`` drawing of ``web/view.js``."""
        return view.board(state)

    def web_animation(self, state: State, action: Any) -> list[dict[str, JSON]]:
        """The page's views within a plan: each clear of complete lines before the matrix closes."""
        return view.animation(state, action)

    def web_folder(self) -> Path:
        """The cookie sprites and the ``cookies`` drawing."""
        return Path(__file__).with_name("web")


GAME = YoshisCookieGame()
