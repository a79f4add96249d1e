"""The state of one game: the lights, the presses so far, and the rules that change them.

An action is the number of the light pressed, ``row * size + column``: a plain int, so it is JSON already.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from puzzlebots.core.config import is_int
from puzzlebots.core.errors import IllegalActionError

from .config import LightsOutConfig


def neighbourhood(light: int, size: int) -> list[int]:
    """The light and its orthogonal neighbours on the board: what one press toggles."""
    row, col = divmod(light, size)
    cells = [(row, col), (row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)]
    return [r * size + c for r, c in cells if 0 <= r < size and 0 <= c < size]


class LightsOutState:
    """A seeded game: ``lights`` (0 off, 1 on, row by row), ``presses`` made so far."""

    def __init__(self, seed: int, config: LightsOutConfig) -> None:
        self.config = config
        self.size = config.size
        self.lights = [0] * (self.size * self.size)
        self.presses = 0
        self.last: int | None = None
        rng = random.Random(f"lightsout:{seed}")
        for _ in range(config.scramble):  # presses from the dark board: the start is always solvable
            self._toggle(rng.randrange(len(self.lights)))
        if not any(self.lights):
            self._toggle(rng.randrange(len(self.lights)))

    def clone(self) -> LightsOutState:
        other = object.__new__(LightsOutState)
        other.__dict__.update(self.__dict__)
        other.lights = list(self.lights)
        return other

    def is_terminal(self) -> bool:
        return not any(self.lights) or self.presses >= self.config.max_presses

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else list(range(len(self.lights)))

    def apply(self, action: int) -> None:
        if self.is_terminal() or not (is_int(action) and 0 <= action < len(self.lights)):
            raise IllegalActionError(f"lightsout: cannot press {action!r} now")
        self._toggle(action)
        self.presses += 1
        self.last = action

    def state_hash(self) -> str:
        text = "".join(map(str, self.lights)) + f"|{self.presses}"
        return hashlib.sha1(text.encode()).hexdigest()[:16]

    def result(self) -> dict[str, Any]:
        return {"solved": not any(self.lights), "presses": self.presses, "lights_on": sum(self.lights)}

    def _toggle(self, light: int) -> None:
        for cell in neighbourhood(light, self.size):
            self.lights[cell] ^= 1
