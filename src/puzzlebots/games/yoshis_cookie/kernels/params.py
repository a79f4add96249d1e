"""The config numbers the kernels take: one small int64 array with named indices, built once per config.

Kernels read ``rules[MIN_LINE]`` and so on instead of five positional numbers; numba folds the indices in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..config import YoshiConfig

#: indices into the array of :func:`rule_numbers`: the shortest line that clears, the two scoring numbers,
#: whether the cursor follows the rotated cookie, whether the builder fetches Yoshi cookies only as a last resort
MIN_LINE, SCORE_COOKIE, SCORE_YOSHI, FOLLOWS, YOSHI_LAST = range(5)


def rule_numbers(config: Mapping[str, Any], *, yoshi_last: bool | None = None) -> np.ndarray:
    """The kernels' numbers of ``config``; ``yoshi_last`` overrides ``yoshi_fill`` (the planner's own choice)."""
    rules = YoshiConfig.of(config)
    last = rules.yoshi_fill == "last_resort" if yoshi_last is None else yoshi_last
    numbers = (rules.min_line, rules.score_cookie, rules.score_yoshi, rules.cursor_follows, last)
    return np.array([int(v) for v in numbers], dtype=np.int64)
