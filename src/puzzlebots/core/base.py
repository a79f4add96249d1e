"""Convenience base classes for game adapters: the parts of the contract that are the same in every game.

:class:`GameBase` gives a :class:`~puzzlebots.core.protocols.Game` its config methods (from ``config_schema``)
and its bot and weight checks; :class:`EpisodicBase` adds the defaults of an
:class:`~puzzlebots.core.protocols.Episodic` game. Capabilities (terminal view, web view, Gym adapter, commands)
are methods a game adds only where it has them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import config as config_mod
from .config import ConfigOption
from .errors import ConfigError
from .jsonio import show
from .protocols import JSON, Action, BotInfo


class GameBase:
    """Subclasses set ``name``, ``title``, ``rules_version``, ``config_schema`` and implement ``bots``."""

    name = ""
    title = ""
    rules_version = "0"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Refuse, when the game's module is imported, a config schema that is not a frozen dataclass."""
        super().__init_subclass__(**kwargs)
        config_mod.require_dataclass(cls.config_schema)

    def bots(self) -> Sequence[BotInfo]:
        raise NotImplementedError

    #: the game's config dataclass (``core.config``); the config methods below all derive from it
    config_schema: type[config_mod.Schema] = config_mod.Schema

    def default_config(self) -> dict[str, Any]:
        return config_mod.defaults(self.config_schema)

    def config_options(self) -> Sequence[ConfigOption]:
        return config_mod.cli_options(self.config_schema)

    def web_config_keys(self) -> frozenset[str]:
        """The config keys a web page may set (those the schema marks ``web``; never one naming a file)."""
        return config_mod.web_keys(self.config_schema)

    def check_config(self, config: Mapping[str, Any], *, web: bool = False, files: bool = True) -> dict[str, Any]:
        """Merge ``config`` over the defaults and validate it; ``web`` refuses keys and values a page may not set,
        ``files=False`` keys that name a file (for a config read from a file)."""
        return config_mod.check(self.config_schema, self.name, config, web=web, files=files)

    def bot_info(self, name: str) -> BotInfo:
        for info in self.bots():
            if info.name == name:
                return info
        known = ", ".join(b.name for b in self.bots())
        raise ConfigError(f"{self.name}: unknown bot {show(name)} (bots: {known})")

    def check_weights(self, bot: str, weights: Sequence[float] | None) -> None:
        if weights is None:
            return
        names = self.bot_info(bot).weight_names
        if not names:
            raise ConfigError(f"{self.name}/{bot} takes no weights")
        if len(weights) != len(names):
            raise ConfigError(f"{self.name}/{bot} needs {len(names)} weights ({', '.join(names)}), got {len(weights)}")


class EpisodicBase(GameBase):
    """An episodic game's defaults: actions that are plain JSON already, and no shipped weights."""

    #: what ``fitness`` measures, in the game's own units, for plots and tables
    fitness_label = "fitness"
    #: what ``stats --plot`` draws: (result key, axis label); key None means the fitness under ``fitness_label``
    plot_figure: tuple[str | None, str] | None = None
    #: plain words the ``stats`` table puts beside a summary figure whose name alone is not plain
    summary_notes: Mapping[str, str] = {}
    #: the config key whose value caps the fitness (a game stopped there counts the cap), or None
    fitness_cap: str | None = None

    def default_weights(self, bot: str) -> list[float] | None:
        """The shipped weights of a tunable bot (``train --init default`` starts from them)."""
        return None

    def encode_action(self, action: Action) -> JSON:
        return action

    def decode_action(self, data: JSON) -> Action:
        return data
