"""The contract between the core and each game: one protocol every game meets, and small optional capabilities.

A game package exposes one object through the ``puzzlebots.games`` entry point group (see ``pyproject.toml``).
Every game is a :class:`Game`: a name, a config schema and its bots. What else it can do is a capability it
implements only where it has it, and the edges ask for the capability, never for a game's name:

=====================  ==================================================================================
:class:`Episodic`      seeded bot games: ``stats``, ``watch``, ``train``, ``replay``, playthroughs
:class:`TerminalView`  a rich renderable of a state (``watch``, ``replay``, playthroughs)
:class:`WebView`       the board as plain JSON for the page, and the game's own page files
:class:`WebControls`   page controls of the game's own (an editor, a person playing), one session each
:class:`WebEngines`    page controls that can play external engines the operator named (``serve --engine``)
:class:`WebReporting`  page controls whose long calls report as they go and end early when the page says stop
:class:`GymGame`       a Gymnasium adapter: action numbering, mask, observation, picture
:class:`Commands`      click commands of its own, mounted under ``puzzlebots <game>``
:class:`Versus`        bots that play each other: the settings ``train --opponent`` tunes and one versus game
=====================  ==================================================================================

:func:`capability` gets one with a one-line ``ConfigError`` where a game lacks it. Actions are whatever the game
likes internally; they cross process and file boundaries only through ``encode_action`` / ``decode_action``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from rich.console import RenderableType

from .config import ConfigOption, Schema
from .errors import ConfigError

if TYPE_CHECKING:
    from .parameters import Parameter

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
class BotInfo:
    """What ``puzzlebots list`` shows of a bot, and whether it has weights to tune."""

    name: str
    description: str
    weight_names: tuple[str, ...] = ()
    #: the seed article's algorithm (True) or one of ours (False)
    faithful: bool = True
    #: config keys only this bot reads: setting one while another bot plays is an error, not a silent no-op
    config_keys: tuple[str, ...] = ()
    #: its decisions call numba kernels: the page makes one spare decision when a watch starts, so that compiling
    #: them (or loading them from numba's cache) is not charged to the first step's time budget
    compiled: bool = False


@runtime_checkable
class Game(Protocol):
    """What every game has: a name, a config schema (``core.config``) and its bots."""

    name: str
    title: str
    rules_version: str
    #: the config dataclass: each key's default, help, domain, flag and web bound (``core.config``)
    config_schema: type[Schema]

    def bots(self) -> Sequence[BotInfo]: ...

    def bot_info(self, name: str) -> BotInfo:
        """The bot called ``name``; ``ConfigError`` naming the known bots otherwise."""
        ...

    def check_weights(self, bot: str, weights: Sequence[float] | None) -> None:
        """``ConfigError`` unless ``weights`` (None: the shipped ones) fit ``bot``'s weight names."""
        ...

    def default_config(self) -> dict[str, Any]:
        """Every configuration key with its default (the documented assumptions of docs/rules/)."""
        ...

    def config_options(self) -> Sequence[ConfigOption]:
        """The game's own command-line options (``puzzlebots stats GAME --help``)."""
        ...

    def web_config_keys(self) -> frozenset[str]:
        """The config keys a web page may set."""
        ...

    def check_config(self, config: Mapping[str, Any], *, web: bool = False, files: bool = True) -> dict[str, Any]:
        """Merge ``config`` over the defaults and validate it; raise ``ConfigError`` with one line.

        ``web=True``: the config comes from a web page, which may set only the keys the game allows
        (never one that names a file) and only within the game's web bounds. ``files=False``: it comes from a
        file (a replay), which may not name another file for the game to read.
        """
        ...


@runtime_checkable
class Episodic(Game, Protocol):
    """A game a bot plays from a seed to the end: what stats, watch, train, replays and playthroughs need."""

    #: what ``fitness`` measures, in the game's own units, for plots and tables ("spawns")
    fitness_label: str
    #: what ``stats --plot`` draws, (result key, axis label); None: the fitness under ``fitness_label``
    plot_figure: tuple[str | None, str] | None
    #: plain words the ``stats`` table puts beside each summary figure (the table's meaning column)
    summary_notes: Mapping[str, str]
    #: the config key whose value caps the fitness (Hatris: ``max_spawns``), so that ``train`` and ``stats --plot``
    #: say a mean or a column is capped; None where nothing caps it
    fitness_cap: str | None

    def new_state(self, seed: int, config: Mapping[str, Any]) -> State:
        """A fresh game for ``seed`` under a config already passed through ``check_config``."""
        ...

    def make_bot(self, name: str, config: Mapping[str, Any], weights: Sequence[float] | None, seed: int) -> Bot:
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


@runtime_checkable
class TerminalView(Protocol):
    """A game the terminal can draw."""

    def render(self, state: State, bot: Bot | None = None) -> RenderableType:
        """A rich renderable of the state (``bot`` may add an overlay, e.g. a target chain)."""
        ...


@runtime_checkable
class WebView(Protocol):
    """A game the page draws from plain JSON, with page files of its own (sprites, a script)."""

    def web_view(self, state: State, bot: Bot | None = None) -> dict[str, JSON]:
        """The board as plain JSON; ``kind`` names the drawing (a generic one, or one of the game's script)."""
        ...

    def web_folder(self) -> Path | None:
        """A folder of the game's own page files, served read-only under ``/games/<name>/`` (None: no files)."""
        ...


@runtime_checkable
class WebSession(Protocol):
    """One page connection's use of a game's own controls; messages in, JSON answers out, never a file name."""

    def handle(self, op: str, msg: Mapping[str, JSON]) -> dict[str, JSON]:
        """Answer ``op``; ``InputError``/``ConfigError`` (one line) for a malformed or impossible message."""
        ...


@runtime_checkable
class WebControls(Protocol):
    """A game with page controls of its own (Cargo-Bot's program editor, Puyo against a person)."""

    def web_ops(self) -> Sequence[str]:
        """The ops its sessions answer (the page sends ``{"op": "game", "game": name, "call": op, ...}``)."""
        ...

    def web_session(self) -> WebSession:
        """A fresh session for one page connection."""
        ...


@runtime_checkable
class WebReporting(Protocol):
    """A page session whose long calls (a search of many seconds) tell the page how they go and end early when the
    page says stop: the page sees the work, and need not wait it out."""

    def web_reporting(self, report: Callable[[dict[str, JSON]], None], stopped: Callable[[], bool]) -> None:
        """From now on a long call sends ``report(update)`` as it goes (plain JSON, a few a second at most) and, once
        ``stopped()`` is true, ends within a second or two with what it has (its answer says it was stopped)."""
        ...


#: the operator's external engines, by name: each name's program and arguments (``serve --engine NAME=COMMAND``)
EngineTable = Mapping[str, tuple[str, ...]]


@runtime_checkable
class WebEngines(WebControls, Protocol):
    """Page controls that can play external engines the operator named when starting the server.

    The table comes from the command line only; a page knows each engine by the bot name this game gives it
    (``web_engine_bots``) and never sees or sends a command. A session made with the table starts an engine's
    process for its game and ends it when the game or the session ends.
    """

    def web_engine_bots(self, names: Sequence[str]) -> list[str]:
        """The bot names under which the page offers the engines ``names`` (Puyo: ``upi:NAME``)."""
        ...

    def web_engine_session(self, engines: EngineTable) -> WebSession:
        """A fresh session for one page connection that may play the engines of ``engines``."""
        ...


@runtime_checkable
class EnvAdapter(Protocol):
    """What the generic Gymnasium env needs of a game: a fixed action numbering, a mask, arrays, a picture.

    Spaces are ``gymnasium.spaces`` objects; the game's ``env.py`` imports gymnasium, the core does not.
    """

    #: how many decisions the numbering covers (the size of the ``Discrete`` action space)
    n_actions: int

    def action_index(self, action: Action) -> int:
        """The number of a legal action."""
        ...

    def index_action(self, index: int, state: State) -> Action:
        """The action a number stands for in ``state`` (legal when the mask allows it)."""
        ...

    def legal_mask(self, state: State) -> Any:
        """0/1 per action number (an ``int8`` array of length ``n_actions``)."""
        ...

    def observation_space(self) -> Any:
        """The ``gymnasium.spaces.Dict`` of :meth:`observe`."""
        ...

    def observe(self, state: State) -> dict[str, Any]:
        """The observation arrays of ``state``."""
        ...

    def draw(self, state: State) -> Any:
        """An RGB picture (H x W x 3, ``uint8``) of ``state``."""
        ...


@runtime_checkable
class GymGame(Episodic, Protocol):
    """An episodic game with a Gymnasium adapter, registered as ``puzzlebots/<env_name>-v0``."""

    env_name: str

    def env_adapter(self, config: Mapping[str, Any]) -> EnvAdapter:
        """The adapter for a config already passed through ``check_config``."""
        ...


@runtime_checkable
class Commands(Protocol):
    """A game with click commands of its own, mounted under ``puzzlebots <game>``."""

    def extra_commands(self) -> Sequence[Any]: ...


@runtime_checkable
class Versus(Episodic, Protocol):
    """A game whose bots also play each other: ``train --opponent`` rates a bot's settings in game pairs."""

    def tuned_parameters(self, bot: str) -> Sequence[Parameter]:
        """The whole-number settings versus tuning searches for ``bot`` (none for a bot with nothing to tune)."""
        ...

    def versus_play(
        self, config: Mapping[str, Any], max_actions: int | None
    ) -> tuple[Callable[..., dict[str, Any]], dict[str, Any], tuple[Any, ...]]:
        """The function that plays one versus game (a ``core.match.PlayGame``), the versus config, and that
        function's other arguments."""
        ...


C = TypeVar("C")

#: how each capability is named in the one-line error for a game that lacks it
_WHAT: dict[type, str] = {
    Episodic: "seeded bot games (stats, watch, train, replay)",
    TerminalView: "terminal view",
    WebView: "web view",
    WebControls: "page controls of its own",
    WebEngines: "external engines on the page",
    GymGame: "Gymnasium environment",
    Commands: "commands of its own",
    Versus: "versus play",
}


def capability(game: Game, kind: type[C]) -> C:
    """``game`` as the capability ``kind``, or a one-line ``ConfigError`` saying the game does not have it."""
    if isinstance(game, kind):
        return game
    hint = f": see `puzzlebots {game.name} --help`" if isinstance(game, Commands) else ""
    raise ConfigError(f"{game.name} has no {_WHAT.get(kind, kind.__name__)}{hint}")
