"""The whole-number bot settings a game lets versus tuning search, and the unit cube the searches move in: kept
apart from the tuner so that a game's protocol can name them without importing the tuner."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .errors import InputError
from .jsonio import check_number, name_of, read_json, show


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


def read_values(path: str | os.PathLike[str], parameters: Sequence[Parameter]) -> dict[str, int]:
    """The settings a ``train --opponent`` file holds (``names`` and ``weights``), as config overrides:
    ``InputError`` unless it names exactly ``parameters``, in order, each with a whole number (the config checks
    the ranges)."""
    where = f"settings file {name_of(path)}"
    doc = read_json(path, "settings file")
    names = [p.name for p in parameters]
    if not isinstance(doc, dict) or doc.get("names") != names:
        found = doc.get("names") if isinstance(doc, dict) else doc
        raise InputError(f"{where} must name {names} under 'names', got {show(found, 80)}")
    weights = doc.get("weights")
    if not isinstance(weights, list) or len(weights) != len(names):
        raise InputError(f"{where} must hold {len(names)} numbers under 'weights', got {show(weights, 80)}")
    values = {}
    for name, x in zip(names, weights, strict=True):
        number = check_number(x, f"{where}: {name}")
        if not number.is_integer():
            raise InputError(f"{where}: {name} must be a whole number, got {show(x)}")
        values[name] = int(number)
    return values
