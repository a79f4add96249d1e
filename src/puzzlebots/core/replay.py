"""Replay files: JSON Lines, a header, one action per line, a state hash every N actions, an end record.

    {"type": "header", "format": 1, "game": ..., "rules_version": ..., "config": {...}, "seed": ..., "bot": ...,
     "hash_every": 10}
    {"a": <action>}
    ...
    {"n": 10, "h": "<state hash after 10 actions>"}
    ...
    {"type": "end", "decisions": 123, "result": {...}}

Re-running a replay rebuilds the state from the seed and config and applies the actions; it reports the first
hash that differs, so an edited file or a changed engine is caught at the step where it goes wrong.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import InputError, PuzzlebotsError
from .protocols import JSON, State
from .registry import get_game
from .runner import Episode

FORMAT = 1
HEADER_KEYS = ("game", "rules_version", "config", "seed", "bot", "hash_every")


@dataclass
class Replay:
    header: dict[str, Any]
    actions: list[JSON]
    hashes: list[tuple[int, str]]
    end: dict[str, Any]


@dataclass
class ReplayCheck:
    """The outcome of re-running a replay."""

    actions: int
    checked_hashes: int
    #: (action count, expected hash, actual hash) of the first mismatch, or None
    divergence: tuple[int, str, str] | None
    final_state: State
    result: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.divergence is None


def write_replay(path: str | os.PathLike[str], episode: Episode, rules_version: str, hash_every: int) -> None:
    """Write ``episode`` (played with ``record=True``) atomically: a partial file never replaces a good one."""
    header = {
        "type": "header",
        "format": FORMAT,
        "game": episode.game,
        "rules_version": rules_version,
        "config": episode.config,
        "seed": episode.seed,
        "bot": episode.bot,
        "hash_every": hash_every,
    }
    hashes = dict(episode.hashes)
    lines = [json.dumps(header, sort_keys=True)]
    for i, action in enumerate(episode.actions, start=1):
        lines.append(json.dumps({"a": action}))
        if i in hashes:
            lines.append(json.dumps({"n": i, "h": hashes[i]}))
    if 0 in hashes:  # an episode with no actions still records its initial state
        lines.insert(1, json.dumps({"n": 0, "h": hashes[0]}))
    lines.append(json.dumps({"type": "end", "decisions": len(episode.actions), "result": episode.result}))
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("\n".join(lines) + "\n")
    os.replace(tmp, path)


def read_replay(path: str | os.PathLike[str]) -> Replay:
    """Parse and validate a replay file; ``InputError`` names the file, the line and what is wrong."""
    name = str(path)
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise InputError(f"cannot read replay {name}: {exc.strerror}") from exc
    rows = [line for line in text.splitlines() if line.strip()]
    if not rows:
        raise InputError(f"replay {name} is empty")
    parsed: list[dict[str, Any]] = []
    for no, line in enumerate(rows, start=1):
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"replay {name} line {no}: not JSON ({exc.msg})") from exc
        if not isinstance(obj, dict):
            raise InputError(f"replay {name} line {no}: expected a JSON object")
        parsed.append(obj)
    header = parsed[0]
    if header.get("type") != "header":
        raise InputError(f"replay {name} line 1: missing header")
    missing = [k for k in HEADER_KEYS if k not in header]
    if missing:
        raise InputError(f"replay {name} header lacks {', '.join(missing)}")
    if not isinstance(header["seed"], int) or not isinstance(header["config"], dict):
        raise InputError(f"replay {name} header: seed must be an integer and config an object")
    if not isinstance(header["hash_every"], int) or header["hash_every"] < 1:
        raise InputError(f"replay {name} header: hash_every must be a positive integer")
    actions: list[JSON] = []
    hashes: list[tuple[int, str]] = []
    end: dict[str, Any] | None = None
    for no, obj in enumerate(parsed[1:], start=2):
        if end is not None:
            raise InputError(f"replay {name} line {no}: data after the end record")
        if "a" in obj and len(obj) == 1:
            actions.append(obj["a"])
        elif set(obj) == {"n", "h"} and isinstance(obj["n"], int) and isinstance(obj["h"], str):
            if obj["n"] != len(actions):
                raise InputError(f"replay {name} line {no}: hash for action {obj['n']} after {len(actions)}")
            hashes.append((obj["n"], obj["h"]))
        elif obj.get("type") == "end":
            end = obj
        else:
            raise InputError(f"replay {name} line {no}: unknown record {sorted(obj)}")
    if end is None:
        raise InputError(f"replay {name} is truncated: no end record after {len(actions)} actions")
    if end.get("decisions") != len(actions):
        raise InputError(f"replay {name}: end record says {end.get('decisions')} actions, file has {len(actions)}")
    return Replay(header, actions, hashes, end)


def check_replay(replay: Replay, on_step: Callable[[State, int], None] | None = None) -> ReplayCheck:
    """Re-run ``replay`` and compare every recorded hash; stop at the first mismatch."""
    h = replay.header
    game = get_game(h["game"])
    if h["rules_version"] != game.rules_version:
        raise InputError(
            f"replay is for {h['game']} rules {h['rules_version']}, this engine has {game.rules_version}"
        )
    cfg = game.check_config(h["config"])
    state = game.new_state(h["seed"], cfg)
    expected = dict(replay.hashes)
    checked = 0
    if 0 in expected:
        checked += 1
        got = state.state_hash()
        if got != expected[0]:
            return ReplayCheck(0, checked, (0, expected[0], got), state)
    for n, data in enumerate(replay.actions, start=1):
        try:
            action = game.decode_action(data)
            state.apply(action)
        except PuzzlebotsError as exc:
            raise InputError(f"replay action {n} cannot be played: {exc}") from exc
        if on_step is not None:
            on_step(state, n)
        if n in expected:
            checked += 1
            got = state.state_hash()
            if got != expected[n]:
                return ReplayCheck(n, checked, (n, expected[n], got), state)
    return ReplayCheck(len(replay.actions), checked, None, state, dict(state.result()))
