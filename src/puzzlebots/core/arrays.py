"""Array helpers the games' Gym adapters share: the mask of a fixed action numbering, and grids as pictures."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .protocols import Action, State


def numbered_mask(state: State, n_actions: int, index_of: Callable[[Action], int]) -> np.ndarray:
    """0/1 per action number: 1 at ``index_of(a)`` for every legal action ``a`` of ``state``."""
    mask = np.zeros(n_actions, dtype=np.int8)
    if not state.is_terminal():
        for action in state.legal_actions():
            mask[index_of(action)] = 1
    return mask


def draw_cells(cells: np.ndarray, palette: np.ndarray, px: int = 16) -> np.ndarray:
    """An RGB picture of a grid of small-integer cells (row 0 at the top), with a 1-pixel dark gap."""
    rows, cols = cells.shape
    picture = np.repeat(np.repeat(palette[cells], px, axis=0), px, axis=1)
    picture[::px, :, :] = 20
    picture[:, ::px, :] = 20
    return np.ascontiguousarray(picture.reshape(rows * px, cols * px, 3).astype(np.uint8))
