"""The Hatris adapter for the puzzlebots core: config, bots, actions as JSON, summaries, rendering."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import RenderableType

from puzzlebots.core.base import EpisodicBase
from puzzlebots.core.config import bot_keys
from puzzlebots.core.errors import ConfigError, InputError
from puzzlebots.core.jsonio import show
from puzzlebots.core.protocols import JSON, Action, Bot, BotInfo, State

from . import view
from .config import HatrisConfig, Rules
from .engine import HatrisState
from .names import METRIC_NAMES
from .render import render
from .rules import COLUMNS, HELPER_NAMES

if TYPE_CHECKING:
    from .env import HatrisAdapter


class HatrisGame(EpisodicBase):
    name = "hatris"
    title = "Hatris (NES)"
    rules_version = "1"
    env_name = "Hatris"
    #: spawns to game over, or to the ``max_spawns`` cap (``fitness_cap``) where a game reaches it
    fitness_label = "spawns"
    fitness_cap = "max_spawns"
    config_schema = HatrisConfig
    #: what each figure of the ``stats`` table means (a summary key never reads as a config key)
    summary_notes = {
        "games": "games played",
        "mean_spawns": "pairs spawned per game, mean (a game stopped by the max_spawns cap counts the cap)",
        "std_spawns": "standard deviation of spawns per game",
        "median_spawns": "median of spawns per game",
        "shortest_game_spawns": "spawns of the shortest game",
        "longest_game_spawns": "spawns of the longest game",
        "clear_all_rate": "games that cleared all 60 levels from level 0 (play then goes on, endless)",
        "game_over_rate": "games ended by a game over (after clearing all 60 levels, too)",
        "capped_rate": "games stopped by the max_spawns cap before any game over",
        "mean_cash": "cash at the end, mean per game",
        "mean_level": "level reached, mean per game",
    }

    def bots(self) -> Sequence[BotInfo]:
        return (
            BotInfo(
                "searcher",
                "the Hatris AI article's searcher: current x next pair and helpers, 8 weighted metrics",
                METRIC_NAMES,
                faithful=True,
                config_keys=bot_keys(HatrisConfig, "searcher"),
                compiled=True,
            ),
            BotInfo(
                "expectimax",
                "the searcher's chain one pair deeper: its best first steps, averaged over the unseen third pair",
                METRIC_NAMES,
                faithful=False,
                config_keys=bot_keys(HatrisConfig, "expectimax"),
                compiled=True,
            ),
            BotInfo("random", "a uniformly random legal action (tests, engine speed)", faithful=False),
        )

    def new_state(self, seed: int, config: Mapping[str, Any]) -> State:
        return HatrisState(seed, Rules(config))

    def make_bot(self, name: str, config: Mapping[str, Any], weights: Sequence[float] | None, seed: int) -> Bot:
        self.bot_info(name)
        self.check_weights(name, weights)
        rules = Rules(config)
        from .bots import expectimax  # the bots load numba: imported on use, so `--help` and `list` stay fast
        from .bots.random import RandomBot
        from .bots.searcher import Searcher, default_weights

        if name == "searcher":
            return Searcher(rules, list(weights) if weights is not None else default_weights())
        if name == "expectimax":
            return expectimax.Expectimax(rules, list(weights) if weights is not None else expectimax.default_weights())
        return RandomBot(seed)

    def default_weights(self, bot: str) -> list[float] | None:
        self.bot_info(bot)
        from .bots import expectimax
        from .bots.searcher import default_weights

        if bot == "expectimax":
            return expectimax.default_weights()
        return default_weights() if bot == "searcher" else None

    def encode_action(self, action: Action) -> JSON:
        return list(action)

    def decode_action(self, data: JSON) -> Action:
        if not isinstance(data, list) or not data or data[0] not in ("place", *HELPER_NAMES):
            raise InputError(f"hatris: an action is ['place'|'alexey'|'vladimir', ...], got {show(data)}")
        args = data[1:]
        sizes = {"place": 2, "alexey": COLUMNS, "vladimir": 2}
        if len(args) != sizes[data[0]] or not all(type(v) is int and 0 <= v < COLUMNS for v in args):
            raise InputError(f"hatris: malformed {data[0]} action {show(data)}")
        return (data[0], *args)

    def summarize(self, results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        if not results:
            raise ConfigError("hatris: no games to summarize")
        spawns = [r["spawns"] for r in results]
        n = len(results)
        return {
            "games": n,
            "mean_spawns": round(statistics.fmean(spawns), 3),
            "std_spawns": round(statistics.pstdev(spawns), 3),
            "median_spawns": statistics.median(spawns),
            "shortest_game_spawns": min(spawns),
            "longest_game_spawns": max(spawns),
            "clear_all_rate": round(sum(1 for r in results if r["cleared_all"]) / n, 4),
            "game_over_rate": round(sum(1 for r in results if r["game_over"]) / n, 4),
            "capped_rate": round(sum(1 for r in results if r["max_spawns_reached"]) / n, 4),
            "mean_cash": round(statistics.fmean(r["cash"] for r in results), 3),
            "mean_level": round(statistics.fmean(r["level"] for r in results), 3),
        }

    def fitness(self, result: Mapping[str, Any]) -> float:
        return float(result["spawns"])

    def env_adapter(self, config: Mapping[str, Any]) -> HatrisAdapter:
        """The Gym adapter (``puzzlebots/Hatris-v0``); imported here because it needs the [gym] extra."""
        from .env import HatrisAdapter

        return HatrisAdapter(config)

    def render(self, state: State, bot: Bot | None = None) -> RenderableType:
        assert isinstance(state, HatrisState)
        return render(state)

    def web_view(self, state: State, bot: Bot | None = None) -> dict[str, JSON]:
        """The page's board: the ``piles`` drawing of ``web/view.js``."""
        return view.board(state)

    def web_animation(self, state: State, action: Any) -> list[dict[str, JSON]]:
        """The page's views within a placement: the pair falling onto its piles, a 5-run vanishing."""
        return view.animation(state, action)

    def web_folder(self) -> Path:
        return Path(__file__).with_name("web")


GAME = HatrisGame()
