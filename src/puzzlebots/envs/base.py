"""One Gymnasium env class for every game; the game's own adapter (``GymGame.env_adapter``) says what the
arrays hold, so this module knows no game.

The env plays at the games' decision level (a placement, a line to build): ``Discrete(n)`` over a fixed
numbering of every decision the game can ever offer, and ``info["action_mask"]`` (also ``action_masks()``)
marks the ones legal now. The reward is the change of the game's own ``fitness`` (what ``train``
maximizes), so the env and the tuners agree on what "better" means.

Everything a caller hands over (constructor arguments, reset options, actions) is checked here, in the class
every env shares, before the game sees it: a wrong one raises ``ConfigError`` or ``InputError`` (both
``ValueError``) naming the argument or the space, never whatever the engine would stumble on.
"""

from __future__ import annotations

import io
import math
import reprlib
from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from rich.console import Console

from ..core.errors import ConfigError, InputError
from ..core.protocols import GymGame, State, TerminalView, capability
from ..core.registry import get_game
from ..core.seeds import MAX_SEED as MAX_GAME_SEED

MAX_SEED = 2**31 - 1
#: the keys ``reset(options=...)`` understands
RESET_OPTIONS = ("game_seed",)


class PuzzleEnv(gym.Env[dict[str, Any], Any]):
    """A puzzlebots game as a Gymnasium env (see the module docstring for actions and rewards).

    An action the mask forbids leaves the game unchanged, gives ``illegal_penalty`` (a finite number <= 0) and
    sets ``info["illegal_action"]``; ``config`` takes the game's configuration keys (``puzzlebots <game> --help``).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        game: str,
        config: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        illegal_penalty: float = -1.0,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(
                f"render_mode must be None, 'ansi' or 'rgb_array' (puzzlebots envs open no window), "
                f"got {_shown(render_mode)}"
            )
        if config is not None and not isinstance(config, Mapping):
            raise ConfigError(f"config must be a dict of the game's configuration keys, got {_shown(config)}")
        if (
            not isinstance(illegal_penalty, int | float | np.integer | np.floating)
            or isinstance(illegal_penalty, bool)
            or not math.isfinite(illegal_penalty)
            or illegal_penalty > 0
        ):
            raise ConfigError(f"illegal_penalty must be a finite number <= 0, got {_shown(illegal_penalty)}")
        self.game: GymGame = capability(get_game(game), GymGame)
        self.config = self.game.check_config(dict(config or {}))
        self.adapter = self.game.env_adapter(self.config)
        self.render_mode = render_mode
        self.illegal_penalty = float(illegal_penalty)
        self.action_space = spaces.Discrete(self.adapter.n_actions)
        self.observation_space = self.adapter.observation_space()
        self.state: State | None = None
        self._fitness = 0.0
        self._mask = np.zeros(self.adapter.n_actions, dtype=np.int8)

    # -- Gymnasium API ----------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game; its engine seed is drawn from the env's seeded generator (or ``options["game_seed"]``)."""
        game_seed = _game_seed(options)
        super().reset(seed=seed)
        if game_seed is None:
            game_seed = int(self.np_random.integers(0, MAX_SEED))
        self.state = self.game.new_state(game_seed, self.config)
        self._fitness = float(self.game.fitness(self.state.result()))
        self._update_mask()
        return self.adapter.observe(self.state), self._info(game_seed=game_seed)

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Play one decision. An ended game raises ``ResetNeeded`` until ``reset`` (as before the first one),
        so that no step past the end can slip into a trajectory as a real transition."""
        state = self._require_state()
        if state.is_terminal():
            raise gym.error.ResetNeeded("the episode has ended (terminated=True): call reset() before step()")
        index = self._action_index(action)
        if not self._mask[index]:
            return self.adapter.observe(state), self.illegal_penalty, False, False, self._info(illegal_action=True)
        state.apply(self.adapter.index_action(index, state))
        fitness = float(self.game.fitness(state.result()))
        reward, self._fitness = fitness - self._fitness, fitness
        self._update_mask()
        return self.adapter.observe(state), reward, state.is_terminal(), False, self._info()

    def render(self) -> Any:
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'rgb_array'")
            return None
        state = self._require_state()
        if self.render_mode == "rgb_array":
            return self.adapter.draw(state)
        buffer = io.StringIO()
        view = capability(self.game, TerminalView)
        Console(file=buffer, width=100, color_system=None).print(view.render(state))
        return buffer.getvalue()

    def _action_index(self, action: Any) -> int:
        """``action`` as a number of the action space: a Python or numpy integer (or a 0-d integer array)
        inside it. A bool, float, string, None or an array of any other shape is refused, not rounded."""
        if not _is_integer(action) or not 0 <= int(action) < self.adapter.n_actions:
            raise InputError(
                f"action must be an integer in the action space {self.action_space} (0 to "
                f"{self.adapter.n_actions - 1}), got {_shown(action)}"
            )
        return int(action)

    # -- masks ------------------------------------------------------------------------------------
    def action_masks(self) -> np.ndarray:
        """The legal actions now, as a 0/1 vector (the name maskable-PPO implementations look for)."""
        return self._mask.copy()

    def _update_mask(self) -> None:
        self._mask = self.adapter.legal_mask(self._require_state())

    def _info(self, **extra: Any) -> dict[str, Any]:
        state = self._require_state()
        return {"action_mask": self._mask.copy(), "result": state.result(), **extra}

    def _require_state(self) -> State:
        if self.state is None:
            raise gym.error.ResetNeeded("call reset() before step() or render()")
        return self.state


def make_env(**kwargs: Any) -> PuzzleEnv:
    """The env ``gym.make`` builds (the registered entry point). A plain function, not the class: Gymnasium
    reads the render modes of a class entry point and turns ``render_mode="human"`` into ``"rgb_array"`` under
    a pygame window wrapper; given a function it hands every render mode to ``PuzzleEnv``, which refuses the
    ones it does not draw in one ``ConfigError``."""
    return PuzzleEnv(**kwargs)


def _game_seed(options: Any) -> int | None:
    """The engine seed ``reset`` options ask for (None: draw one), after checking the options are a dict of
    known keys whose ``game_seed`` is a non-negative integer (the same seeds ``--seed`` takes)."""
    if options is None:
        return None
    if not isinstance(options, Mapping):
        raise ConfigError(f"reset options must be a dict with the keys {list(RESET_OPTIONS)}, got {_shown(options)}")
    unknown = [key for key in options if key not in RESET_OPTIONS]
    if unknown:
        raise ConfigError(f"unknown reset options {_shown(unknown)}: the keys are {list(RESET_OPTIONS)}")
    seed = options.get("game_seed")
    if seed is None:
        return None
    if not _is_integer(seed) or not 0 <= int(seed) <= MAX_GAME_SEED:
        raise ConfigError(
            f"reset option game_seed must be a whole number from 0 to {MAX_GAME_SEED}, got {_shown(seed)}"
        )
    return int(seed)


def _is_integer(value: Any) -> bool:
    """A Python int, numpy integer scalar or 0-d integer array; not a bool (nor numpy's bool or timedelta)."""
    if isinstance(value, np.generic | np.ndarray):
        return value.shape == () and value.dtype.kind in "iu"
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: Any) -> str:
    """A rejected value, short and on one line, for an error message."""
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    return f"{reprlib.repr(value)} ({type(value).__name__})"
