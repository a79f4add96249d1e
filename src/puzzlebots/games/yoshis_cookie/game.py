"""The adapter the core and the CLI use: configuration, bots, summaries and the live view."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import click
from rich.console import RenderableType

from puzzlebots.core.base import GameBase
from puzzlebots.core.errors import ConfigError, IllegalActionError, InputError
from puzzlebots.core.protocols import Bot, BotInfo, ConfigOption, State

from .bots import PLANNER_WEIGHTS, GreedyBot, PlannerBot, default_planner_weights
from .engine import YoshiState, check_plan
from .render import render_state
from .rules import LAST_NORMAL_ROUND, LAST_ROUND, MODES, SPEEDS, UNITS_PER_PX, default_config

_CHOICES = {
    "mode": MODES,
    "speed": SPEEDS,
    "gen": ("balanced", "uniform"),
    "incoming": ("L_unit",),
    "incoming_dist": ("uniform",),
    "yoshi_delivery": ("next_incoming", "none"),
    "yoshi_fill": ("last_resort", "any"),
    "shell_pos": ("random", "first"),
}
#: integer keys and their inclusive ranges
_INTS = {
    "start_round": (0, LAST_ROUND),
    "max_stages": (0, 10**6),
    "max_continues": (1, 10**6),
    "expert_types": (2, 5),
    "start_delay": (0, 10**5),
    "meter_target": (1, 100),
    "score_cookie": (0, 10**6),
    "score_yoshi": (0, 10**6),
    "min_line": (2, 7),
    "frames_cursor": (1, 1000),
    "frames_button": (0, 1000),
    "frames_rotate": (0, 1000),
    "frames_clear": (0, 1000),
    "frames_contact": (0, 1000),
}
_BOOLS = ("clear_incoming_aligned", "cursor_follows")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_speed(key: str, v: Any) -> None:
    if not isinstance(v, int | float) or isinstance(v, bool) or v <= 0 or (v * UNITS_PER_PX) % 1:
        raise ConfigError(f"yoshis_cookie: {key} must be a positive multiple of 0.25 px/frame, got {v!r}")


class YoshisCookieGame(GameBase):
    name = "yoshis_cookie"
    title = "Yoshi's Cookie (NES, 1P)"
    rules_version = "1"
    fitness_label = "stages cleared without a continue"

    def bots(self) -> Sequence[BotInfo]:
        return (
            BotInfo("greedy", "the article's greedy line builder: most points, then fewest steps, balance rule"),
            BotInfo("planner", "two lines ahead by cookies removed per step, no hard balance rule, spares Yoshis",
                    PLANNER_WEIGHTS, faithful=False),
        )

    def default_config(self) -> dict[str, Any]:
        return default_config()

    def config_options(self) -> Sequence[ConfigOption]:
        return (
            ConfigOption("--speed", "speed", click.Choice(SPEEDS), "menu speed setting (default medium)"),
            ConfigOption("--mode", "mode", click.Choice(MODES),
                         "normal: rounds 1-10; expert: rounds 11+; full: 1 to 99 (default normal)"),
            ConfigOption("--max-stages", "max_stages", int, "stop after this many stages (0: whole mode)"),
            ConfigOption("--start-round", "start_round", int, "first round (0: the mode's first)"),
            ConfigOption("--size", "size", int, "starting matrix size for every stage, 2-7 (0: per stage)"),
        )

    def validate_config(self, config: dict[str, Any]) -> None:
        for key, choices in _CHOICES.items():
            if config[key] not in choices:
                raise ConfigError(f"yoshis_cookie: unknown {key} {config[key]!r} (choices: {', '.join(choices)})")
        for key, (lo, hi) in _INTS.items():
            v = config[key]
            if not _is_int(v) or not lo <= v <= hi:
                raise ConfigError(f"yoshis_cookie: {key} must be an integer in {lo}-{hi}, got {v!r}")
        for key in _BOOLS:
            if not isinstance(config[key], bool):
                raise ConfigError(f"yoshis_cookie: {key} must be true or false, got {config[key]!r}")
        size = config["size"]
        if not _is_int(size) or not (size == 0 or 2 <= size <= 7):
            raise ConfigError(f"yoshis_cookie: size must be 2-7 (or 0 for the per-stage table), got {size!r}")
        table = config["start_size"]
        if (not isinstance(table, list) or len(table) != 10
                or not all(_is_int(v) and 2 <= v <= 7 for v in table)):
            raise ConfigError(f"yoshis_cookie: start_size must be 10 sizes in 2-7 (stages 1-10), got {table!r}")
        types = config["types_per_round"]
        if not isinstance(types, list) or len(types) != 10 or not all(_is_int(v) and 2 <= v <= 5 for v in types):
            raise ConfigError(f"yoshis_cookie: types_per_round must be 10 counts in 2-5 (rounds 1-10), got {types!r}")
        speeds = config["speed_px_per_frame"]
        if not isinstance(speeds, dict) or sorted(speeds) != sorted(SPEEDS):
            raise ConfigError(f"yoshis_cookie: speed_px_per_frame must map {', '.join(SPEEDS)} to px/frame")
        for key, v in speeds.items():
            _check_speed(f"speed_px_per_frame[{key}]", v)
        _check_speed("b_speed", config["b_speed"])
        if not isinstance(config["board_file"], str):
            raise ConfigError("yoshis_cookie: board_file must be a path (or empty)")
        start = config["start_round"]
        if config["mode"] == "normal" and start > LAST_NORMAL_ROUND:
            raise ConfigError(f"yoshis_cookie: normal mode has rounds 1-{LAST_NORMAL_ROUND}, start_round {start}")
        if config["mode"] == "expert" and 0 < start <= LAST_NORMAL_ROUND:
            raise ConfigError(f"yoshis_cookie: expert mode has rounds 11-{LAST_ROUND}, start_round {start}")

    def decode_action(self, data: Any) -> str:
        """A plan read from a replay file; ``InputError`` unless it is a well-formed plan string."""
        try:
            check_plan(data)
        except IllegalActionError as exc:
            raise InputError(str(exc)) from None
        return str(data)

    def new_state(self, seed: int, config: Mapping[str, Any]) -> State:
        return YoshiState(config, seed)

    def make_bot(self, name: str, config: Mapping[str, Any], weights: Sequence[float] | None, seed: int) -> Bot:
        self.bot_info(name)
        self.check_weights(name, weights)
        if name == "greedy":
            return GreedyBot(config)
        return PlannerBot(config, list(weights) if weights is not None else default_planner_weights())

    def default_weights(self, bot: str) -> list[float] | None:
        """The shipped weights of a bot that has weights (used by ``train --init default``)."""
        self.bot_info(bot)
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

    def render(self, state: State, bot: Bot | None = None) -> RenderableType:
        assert isinstance(state, YoshiState)
        return render_state(state, bot)


GAME = YoshisCookieGame()
