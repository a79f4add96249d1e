"""The Puyo Puyo adapter for the core: solo mode as the seeded episode, bots by name, summaries, rendering."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import RenderableType

from puzzlebots.core.base import EpisodicBase
from puzzlebots.core.config import Schema, bot_keys
from puzzlebots.core.errors import InputError
from puzzlebots.core.jsonio import show
from puzzlebots.core.protocols import JSON, Action, Bot, BotInfo, State

from .config import PuyoConfig
from .names import CHAIN_WEIGHT_NAMES as WEIGHT_NAMES
from .names import KRIEG_WEIGHT_NAMES as KRIEG_WEIGHTS

if TYPE_CHECKING:
    from puzzlebots.core.match import PlayGame
    from puzzlebots.core.parameters import Parameter

    from .env import PuyoAdapter
    from .versus_page import VersusPage

#: the config keys only some bots read (declared with each key in ``PuyoConfig``)
KRIEG3_KEYS = bot_keys(PuyoConfig, "krieg3")
BEAM_KEYS = bot_keys(PuyoConfig, "beam")
BUILDER_KEYS = bot_keys(PuyoConfig, "builder")
DUELIST_KEYS = bot_keys(PuyoConfig, "duelist")
#: what ``train --opponent`` tunes of ``duelist``: its thresholds, each searched over a range (inside the
#: config's) around its shipped value: (config key, lowest, highest)
DUELIST_TUNED = (
    ("duelist_fire_links", 4, 14),
    ("duelist_defend", 1, 30),
    ("duelist_bury_rows", 1, 8),
    ("duelist_crush", 6, 90),
    ("duelist_harass", 0, 30),
    ("duelist_harass_links", 1, 6),
    ("duelist_read_ahead", 0, 16),
    ("duelist_threat_growth", 1, 30),
)


class PuyoGame(EpisodicBase):
    name = "puyo"
    title = "Puyo Puyo Tsu"
    rules_version = "tsu-1"
    env_name = "Puyo"
    fitness_label = "score"
    #: what ``stats --plot`` draws: the largest chain of each game (the figure Puyo AIs are compared by)
    plot_figure: tuple[str | None, str] | None = ("max_chain", "largest chain")
    summary_notes: Mapping[str, str] = {
        "games": "games played",
        "mean_max_chain": "largest chain of a game (links), mean",
        "mean_score": "score at the end, mean per game",
        "rate_60k": "share of games whose best chain scored >= 60,000",
        "rate_80k": "share of games whose best chain scored >= 80,000",
        "rate_100k": "share of games whose best chain scored >= 100,000",
        "median_max_chain": "median of the largest chain (links)",
        "p90_max_chain": "90th percentile of the largest chain (nearest rank)",
        "deaths": "games lost by a game over (the others played all their pairs)",
        "max_chain_distribution": "games per largest chain (links: games)",
        "score_distribution": "games per final score range",
        "best_max_chain": "the largest chain of all games (links)",
        "best_score": "the best final score of all games",
    }
    config_schema: type[Schema] = PuyoConfig

    def bots(self) -> Sequence[BotInfo]:
        return (
            BotInfo(
                "krieg",
                "the modified KRIEG prediction AI (KRIEG3 article)",
                KRIEG_WEIGHTS,
                faithful=True,
                compiled=True,
            ),
            BotInfo(
                "krieg3",
                "KRIEG3: chain templates, KRIEG fallback (KRIEG3 article)",
                KRIEG_WEIGHTS,
                faithful=True,
                config_keys=KRIEG3_KEYS,
                compiled=True,
            ),
            BotInfo(
                "beam",
                "beam search over visible and sampled pairs, chain-potential evaluation",
                faithful=False,
                config_keys=BEAM_KEYS,
                compiled=True,
            ),
            BotInfo(
                "builder",
                "chain builder: wide beam over many sampled futures in parallel (ama's design)",
                WEIGHT_NAMES,
                faithful=False,
                config_keys=BUILDER_KEYS,
                compiled=True,
            ),
            BotInfo(
                "duelist",
                "versus AI: reads the opponent's chains on the frame clock; kills, counters, "
                "defends, harasses or builds (the builder's search)",
                (),
                faithful=False,
                config_keys=DUELIST_KEYS,
                compiled=True,
            ),
        )

    def default_weights(self, bot: str) -> list[float] | None:
        """The shipped weights of a bot that has tunable ones (``builder``; KRIEG's are the article's units)."""
        self.bot_info(bot)
        from .bots.builder import default_weights as builder_weights  # the bots load numba: imported on use

        return builder_weights() if bot == "builder" else None

    def tuned_parameters(self, bot: str) -> tuple[Parameter, ...]:
        """The whole-number settings ``train --opponent`` searches for ``bot`` (``duelist``'s thresholds; the
        others have none), with their shipped values as defaults."""
        from puzzlebots.core.parameters import Parameter

        self.bot_info(bot)
        if bot != "duelist":
            return ()
        shipped = PuyoConfig()
        return tuple(Parameter(key, low, high, getattr(shipped, key)) for key, low, high in DUELIST_TUNED)

    def versus_play(
        self, config: Mapping[str, Any], max_actions: int | None
    ) -> tuple[PlayGame, dict[str, Any], tuple[Any, ...]]:
        """What ``train --opponent`` plays a game pair with: the function ``puyo match`` plays one game with, the
        versus config (``beam`` fires at the versus threshold unless ``beam_fire_links`` is set above the solo
        rule's 0), and its remaining arguments (a draw after ``max_actions`` turns each, 500 unless given)."""
        import functools

        from .cli import versus_game
        from .versus import VERSUS_FIRE_LINKS

        fire = config.get("beam_fire_links") or VERSUS_FIRE_LINKS
        versus = self.check_config({**config, "beam_fire_links": fire})
        return functools.partial(versus_game, self), versus, (max_actions or 500,)

    def new_state(self, seed: int, config: Mapping[str, Any]) -> State:
        from .engine import SoloState

        return SoloState(seed, config)

    def make_bot(self, name: str, config: Mapping[str, Any], weights: Sequence[float] | None, seed: int) -> Bot:
        self.bot_info(name)
        self.check_weights(name, weights)
        from .bots.beam import BeamBot  # the bots load numba: imported on use, so `--help` and `list` stay fast
        from .bots.builder import BuilderBot
        from .bots.duelist import DuelistBot
        from .bots.krieg import KriegBot
        from .bots.krieg3 import Krieg3Bot

        if name == "krieg":
            return KriegBot(weights, seed)
        if name == "krieg3":
            return Krieg3Bot(config, weights, seed)
        if name == "builder":
            return BuilderBot(config, weights, seed)
        if name == "duelist":
            return DuelistBot(config, seed)
        return BeamBot(config, seed)

    def encode_action(self, action: Action) -> JSON:
        x, r = action
        return [int(x), int(r)]

    def decode_action(self, data: JSON) -> Action:
        if (
            not isinstance(data, list)
            or len(data) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in data)
        ):
            raise InputError(f"puyo: an action is [x, r] (two whole numbers), got {show(data)}")
        return (data[0], data[1])

    def summarize(self, results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        n = len(results)
        if n == 0:
            return {"games": 0}
        chains = [int(r["max_chain"]) for r in results]
        scores = [int(r["score"]) for r in results]
        return {
            "games": n,
            "mean_max_chain": sum(chains) / n,
            "mean_score": sum(scores) / n,
            **{f"rate_{k // 1000}k": sum(1 for r in results if r["best_chain_score"] >= k) / n for k in RATE_SCORES},
            "median_max_chain": _percentile(chains, 0.5),
            "p90_max_chain": _percentile(chains, 0.9),
            "deaths": sum(1 for r in results if r["dead"]),
            "max_chain_distribution": {str(k): chains.count(k) for k in sorted(set(chains))},
            "score_distribution": _score_buckets(scores),
            "best_max_chain": max(chains),
            "best_score": max(scores),
        }

    def fitness(self, result: Mapping[str, Any]) -> float:
        return float(result["score"])

    def env_adapter(self, config: Mapping[str, Any]) -> PuyoAdapter:
        """The Gym adapter (``puzzlebots/Puyo-v0``); imported here because it needs the [gym] extra."""
        from .env import PuyoAdapter

        return PuyoAdapter(config)

    def render(self, state: State, bot: Bot | None = None) -> RenderableType:
        from .engine import SoloState
        from .render import render_solo

        assert isinstance(state, SoloState)
        return render_solo(state, bot)

    def extra_commands(self) -> Sequence[Any]:
        """``puyo versus``, ``match``, ``play`` and ``upi`` (the module is imported here, as only they need it)."""
        from .cli import commands

        return commands(self)

    def web_view(self, state: State, bot: Bot | None = None) -> dict[str, JSON]:
        """The page's board: the generic ``grid``, with KRIEG3's target chain as dim cells (the page module is
        imported on first use, as only the page needs it)."""
        from .view import board

        return board(state, bot)

    def web_animation(self, state: State, action: Any) -> list[dict[str, JSON]]:
        """The page's views between ``state`` and the state after ``action``: the pair landing, then each chain
        link popping and falling (``view.animation``)."""
        from .view import animation

        return animation(state, action)

    def web_preview(self) -> dict[str, JSON]:
        """The start page's small board: KRIEG3, whose target chain shows as dim puyos (``builder`` plays better
        but takes seconds a decision)."""
        return {"bot": "krieg3", "config": {}}

    def web_folder(self) -> Path:
        return Path(__file__).with_name("web")

    def web_ops(self) -> Sequence[str]:
        """A person against an AI on the page: ``versus`` starts a game, ``key`` presses a key, ``ai`` lets the
        AI move on its own clock (real time)."""
        return ("versus", "key", "ai")

    def web_session(self) -> VersusPage:
        from .versus_page import VersusPage

        return VersusPage(self)

    def web_engine_bots(self, names: Sequence[str]) -> list[str]:
        """The operator's UPI engines as the page's AIs: ``upi:NAME`` (never their commands)."""
        from .upi import PREFIX

        return [PREFIX + name for name in names]

    def web_engine_session(self, engines: Mapping[str, tuple[str, ...]]) -> VersusPage:
        """A Play Puyo session that may play the operator's engines; each game starts its engine's process."""
        from .versus_page import VersusPage

        return VersusPage(self, engines=engines)


#: the best-chain scores whose shares of games the summary gives (ama's and nova's figure is 80,000)
RATE_SCORES = (60_000, 80_000, 100_000)


def _percentile(values: Sequence[int], q: float) -> int:
    """The nearest-rank ``q`` percentile (0 < q <= 1): the smallest value at least a share ``q`` of games reach
    or stay under; a value some game really had, never an interpolation."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


_BUCKETS = (0, 1_000, 5_000, 10_000, 20_000, 40_000, 60_000, 80_000, 100_000)


def _score_buckets(scores: Sequence[int]) -> dict[str, int]:
    """Counts of scores per bucket, keyed "lo-hi" (the last bucket open-ended)."""
    out: dict[str, int] = {}
    for i, lo in enumerate(_BUCKETS):
        hi = _BUCKETS[i + 1] if i + 1 < len(_BUCKETS) else None
        key = f"{lo}-{hi - 1}" if hi is not None else f"{lo}+"
        out[key] = sum(1 for s in scores if s >= lo and (hi is None or s < hi))
    return out


GAME = PuyoGame()
