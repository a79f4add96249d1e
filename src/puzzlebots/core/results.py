"""The shape of one game's result, and the check of a result read back from a file against it.

A game's result (``State.result()`` plus what the runner adds: ``seed``, ``decisions``, ``truncated``) has the
same keys and kinds of value in every game of one config, so a fresh state shows them without playing.
``stats`` checks every result of a partial file against that shape before any game is played: a result it
keeps is one the game's ``summarize`` and ``fitness`` can read (the same keys, whole numbers in 64 bits, finite
numbers, true/false where the game has them).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from .config import is_int
from .errors import InputError
from .jsonio import show
from .protocols import Episodic

#: what the runner adds to ``State.result()``, with a value of the kind it holds
EPISODE_KEYS = {"seed": 0, "decisions": 0, "truncated": False}
#: bounds of a whole number in a result (what a 64-bit counter holds)
INT_BOUNDS = (-(2**63), 2**63 - 1)
#: the longest string or list a result may hold where its game's fresh result has one of any length
MAX_ITEMS = 10_000


def result_template(game: Episodic, config: Mapping[str, Any]) -> dict[str, Any]:
    """A result of ``game`` under ``config`` with its values' kinds (from a fresh state: no game is played)."""
    return {**game.new_state(0, config).result(), **EPISODE_KEYS}


def check_result(value: Any, template: Mapping[str, Any], where: str) -> dict[str, Any]:
    """``value`` if it is a result of the template's shape; ``InputError`` naming the first key that is not."""
    if not isinstance(value, dict):
        raise InputError(f"{where}: a result must be a JSON object, got {show(value)}")
    missing = sorted(set(template) - set(value))
    extra = sorted(set(value) - set(template))
    if missing or extra:
        what = f"no {show(missing[0])}" if missing else f"an unknown key {show(extra[0])}"
        raise InputError(f"{where}: the result has {what}")
    for key, like in template.items():
        if not _alike(value[key], like):
            raise InputError(f"{where}: {key} must be {_describe(like)}, got {show(value[key])}")
    return value


def _alike(value: Any, like: Any) -> bool:
    if isinstance(like, bool) or isinstance(value, bool):
        return isinstance(value, bool) and (like is None or isinstance(like, bool))
    if is_int(like):
        return is_int(value) and INT_BOUNDS[0] <= value <= INT_BOUNDS[1]
    if isinstance(like, float):
        return (is_int(value) and INT_BOUNDS[0] <= value <= INT_BOUNDS[1]) or (
            isinstance(value, float) and math.isfinite(value)
        )
    if isinstance(like, str):
        return isinstance(value, str) and len(value) <= MAX_ITEMS
    if isinstance(like, list):
        if not isinstance(value, list):
            return False
        if like:  # a list of fixed length (one count per kind of thing)
            return len(value) == len(like) and all(_alike(v, w) for v, w in zip(value, like, strict=True))
        return len(value) <= MAX_ITEMS and all(_alike(v, 0) or _alike(v, 0.0) for v in value)
    if isinstance(like, dict):
        return isinstance(value, dict) and set(value) == set(like) and all(_alike(value[k], w) for k, w in like.items())
    if like is None:
        return value is None or any(_alike(value, w) for w in (0, 0.0, ""))
    return False


def _describe(like: Any) -> str:
    if isinstance(like, bool):
        return "true or false"
    if is_int(like):
        return f"a whole number from {INT_BOUNDS[0]} to {INT_BOUNDS[1]}"
    if isinstance(like, float):
        return "a finite number"
    if isinstance(like, str):
        return f"a string of at most {MAX_ITEMS:,} characters"
    if isinstance(like, list):
        return f"a list of {len(like)} values like {show(like)}" if like else "a list of numbers"
    if isinstance(like, dict):
        return f"an object with the keys {show(sorted(like))}"
    return "null or a number or a string"
