"""The small contracts between the core and each game.

A game package exposes one object satisfying :class:`Game` through the ``puzzlebots.games`` entry point
group (see ``pyproject.toml``). The core drives it only through these methods, so the episode runner,
batch evaluation, replays, tuning and the command line work the same for every game.

Actions are whatever the game likes internally; they cross process and file boundaries only through
``Game.encode_action`` / ``Game.decode_action`` (plain JSON values).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from rich.console import RenderableType

if TYPE_CHECKING:
    from .config import Schema

Action = Any
JSON = Any


@runtime_checkable
class State(Protocol):
    """A mutable game state, deterministic given its seed and the actions applied."""

    def clone(self) -> State:
        """An independent copy (bots search on copies)."""
        ...

    def is_terminal(self) -> bool:
        """True once the game is over (game over, goal reached, or the configured length played)."""
        ...

    def legal_actions(self) -> Sequence[Action]:
        """The actions a bot may choose now, at the game's decision level (placement, line, ...)."""
        ...

    def apply(self, action: Action) -> None:
        """Play one decision. Raises ``IllegalActionError`` for an action not in ``legal_actions()``."""
        ...

    def state_hash(self) -> str:
        """A short stable hex digest of everything that influences the future (for replays)."""
        ...

    def result(self) -> dict[str, Any]:
        """JSON-able per-game figures so far (score, spawns, chains, ...)."""
        ...


@runtime_checkable
class Bot(Protocol):
    """Chooses an action for a state. May keep memory between calls within one episode."""

    name: str

    def act(self, state: State) -> Action: ...


@dataclass(frozen=True)
class ConfigOption:
    """A game-specific command-line option that sets one configuration key (derived from the game's schema).

    ``type`` is anything click accepts as an option type (``int``, ``click.Choice([...])``, ...).
    """

    flag: str  # e.g. "--pairs"
    key: str  # configuration key it sets, e.g. "pair_source"
    type: Any
    help: str
    is_flag: bool = False


@dataclass(frozen=True)
class BotInfo:
    """What ``puzzlebots list`` shows of a bot, and whether it has weights to tune."""

    name: str
    description: str
    weight_names: tuple[str, ...] = ()
    #: the seed article's algorithm (True) or one of ours (False)
    faithful: bool = True
    #: config keys only this bot reads: setting one while another bot plays is an error, not a silent no-op
    config_keys: tuple[str, ...] = ()


@dataclass
class Summary:
    """Per-game results plus the game's aggregate figures, as written by ``stats --json``."""

    games: list[dict[str, Any]]
    summary: dict[str, Any] = field(default_factory=dict)


class Game(Protocol):
    """A game's adapter: builds states and bots, validates config, summarizes and renders."""

    name: str
    title: str
    rules_version: str
    #: the config dataclass: each key's default, help, domain, flag and web bound (``core.config``)
    config_schema: type[Schema]

    def bots(self) -> Sequence[BotInfo]: ...

    def default_config(self) -> dict[str, Any]:
        """Every configuration key with its default (the documented assumptions of docs/rules/)."""
        ...

    def config_options(self) -> Sequence[ConfigOption]:
        """Extra command-line options for ``stats``/``watch``/``train`` of this game."""
        ...

    def web_config_keys(self) -> frozenset[str]:
        """The config keys a web page may set."""
        ...

    def check_config(self, config: Mapping[str, Any], *, web: bool = False) -> dict[str, Any]:
        """Merge ``config`` over the defaults and validate it; raise ``ConfigError`` with one line.

        ``web=True``: the config comes from a web page, which may set only the keys the game allows
        (never one that names a file) and only within the game's web bounds.
        """
        ...

    def new_state(self, seed: int, config: Mapping[str, Any]) -> State:
        """A fresh game for ``seed`` under a config already passed through ``check_config``."""
        ...

    def make_bot(
        self, name: str, config: Mapping[str, Any], weights: Sequence[float] | None, seed: int
    ) -> Bot:
        """A bot by name; ``weights`` None means the shipped defaults. Unknown name: ``ConfigError``."""
        ...

    def default_weights(self, bot: str) -> list[float] | None:
        """The shipped weights of a tunable bot, or None."""
        ...

    def encode_action(self, action: Action) -> JSON: ...

    def decode_action(self, data: JSON) -> Action:
        """Inverse of ``encode_action``; raise ``InputError`` for anything malformed."""
        ...

    def summarize(self, results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """Aggregate figures over many ``State.result()`` dicts (each also has ``seed``)."""
        ...

    def fitness(self, result: Mapping[str, Any]) -> float:
        """The number training maximizes for one game (e.g. spawns survived)."""
        ...

    def render(self, state: State, bot: Bot | None = None) -> RenderableType:
        """A rich renderable of the state (``bot`` may add an overlay, e.g. a target chain)."""
        ...

    def extra_commands(self) -> Sequence[Any]:
        """click commands mounted under ``puzzlebots <game-name> ...`` (may be empty)."""
        ...
