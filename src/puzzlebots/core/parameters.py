"""The whole-number bot settings a game lets versus tuning search, and the unit cube the searches move in: kept
apart from the tuner so that a game's protocol can name them without importing the tuner."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Parameter:
    """A whole-number bot setting that versus tuning searches: its config key, range and shipped value."""

    name: str
    low: int
    high: int
    default: int


class ParameterSpace:
    """The unit cube onto which versus tuning maps its parameters (each range onto 0..1), and back."""

    def __init__(self, parameters: Sequence[Parameter]) -> None:
        self.parameters = tuple(parameters)
        self.low = np.array([p.low for p in parameters], dtype=float)
        self.span = np.array([p.high - p.low for p in parameters], dtype=float)

    def values(self, x: np.ndarray) -> np.ndarray:
        """The whole numbers of unit-cube point ``x``: rounded and clipped into every range."""
        return np.round(self.low + np.clip(np.asarray(x, dtype=float), 0.0, 1.0) * self.span)

    def unit(self, values: Sequence[float] | np.ndarray) -> np.ndarray:
        return (np.asarray(values, dtype=float) - self.low) / np.where(self.span > 0, self.span, 1.0)

    def overrides(self, values: Sequence[float] | np.ndarray) -> dict[str, int]:
        return {p.name: int(round(v)) for p, v in zip(self.parameters, values, strict=True)}
