"""One Gymnasium env class for every game; a small per-game ``EnvAdapter`` says what the arrays hold.

The env plays at the games' decision level (a placement, a line to build): ``Discrete(n)`` over a fixed
numbering of every decision the game can ever offer, and ``info["action_mask"]`` (also ``action_masks()``)
marks the ones legal now. The reward is the change of the game's own ``fitness`` (what ``train``
maximizes), so the env and the tuners agree on what "better" means.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from rich.console import Console

from ..core.errors import ConfigError
from ..core.protocols import Action, Game, State
from ..core.registry import get_game

MAX_SEED = 2**31 - 1


class EnvAdapter:
    """What a game's env needs beyond the ``Game`` protocol: a fixed action numbering and arrays."""

    game_name = ""
    #: how many decisions the numbering covers (the size of the Discrete action space)
    n_actions = 0

    def action_index(self, action: Action) -> int:
        """The number of a legal action."""
        raise NotImplementedError

    def index_action(self, index: int, state: State) -> Action:
        """The action a number stands for in ``state`` (it is legal when the mask allows it)."""
        raise NotImplementedError

    def legal_mask(self, state: State) -> np.ndarray:
        """0/1 per action number: by default the numbers of ``state.legal_actions()``."""
        mask = np.zeros(self.n_actions, dtype=np.int8)
        if not state.is_terminal():
            for action in state.legal_actions():
                mask[self.action_index(action)] = 1
        return mask

    def observation_space(self, config: Mapping[str, Any]) -> spaces.Dict:
        raise NotImplementedError

    def observe(self, state: State) -> dict[str, np.ndarray]:
        raise NotImplementedError

    def draw(self, state: State) -> np.ndarray:
        """An RGB picture (H x W x 3, uint8) of ``state``."""
        raise NotImplementedError


class PuzzleEnv(gym.Env[dict[str, Any], Any]):
    """A puzzlebots game as a Gymnasium env (see the module docstring for actions and rewards).

    An action the mask forbids leaves the game unchanged, gives ``illegal_penalty`` and sets
    ``info["illegal_action"]``; ``config`` takes the game's configuration keys (``puzzlebots <game> --help``).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        adapter: EnvAdapter,
        config: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        illegal_penalty: float = -1.0,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.adapter = adapter
        self.game: Game = get_game(adapter.game_name)
        self.config = self.game.check_config(dict(config or {}))
        self.render_mode = render_mode
        self.illegal_penalty = float(illegal_penalty)
        self.action_space = spaces.Discrete(adapter.n_actions)
        self.observation_space = adapter.observation_space(self.config)
        self.state: State | None = None
        self._fitness = 0.0
        self._mask = np.zeros(adapter.n_actions, dtype=np.int8)

    # -- Gymnasium API ----------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game; its engine seed is drawn from the env's seeded generator (or ``options["game_seed"]``)."""
        super().reset(seed=seed)
        game_seed = (options or {}).get("game_seed")
        if game_seed is None:
            game_seed = int(self.np_random.integers(0, MAX_SEED))
        self.state = self.game.new_state(int(game_seed), self.config)
        self._fitness = float(self.game.fitness(self.state.result()))
        self._update_mask()
        return self.adapter.observe(self.state), self._info(game_seed=int(game_seed))

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        state = self._require_state()
        index = int(action)
        if not 0 <= index < self.adapter.n_actions or not self._mask[index]:
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
        Console(file=buffer, width=100, color_system=None).print(self.game.render(state))
        return buffer.getvalue()

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


def draw_cells(cells: np.ndarray, palette: np.ndarray, px: int = 16) -> np.ndarray:
    """An RGB picture of a grid of small-integer cells (row 0 at the top), with a 1-pixel dark gap."""
    rows, cols = cells.shape
    picture = np.repeat(np.repeat(palette[cells], px, axis=0), px, axis=1)
    picture[::px, :, :] = 20
    picture[:, ::px, :] = 20
    return np.ascontiguousarray(picture.reshape(rows * px, cols * px, 3).astype(np.uint8))
