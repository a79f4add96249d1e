"""Replay files: JSON Lines, a header, one action per line, a state hash every N actions, an end record.

    {"type": "header", "format": 1, "game": ..., "rules_version": ..., "config": {...}, "seed": ..., "bot": ...,
     "hash_every": 10}
    {"a": <action>}
    ...
    {"n": 10, "h": "<state hash after 10 actions>"}
    ...
    {"type": "end", "decisions": 123, "result": {...}}

``read_replay`` reads through ``jsonio`` (strict UTF-8, bounded size and nesting) and refuses a header whose
``format`` is missing or not ``FORMAT``, and header fields of the wrong type, before anything is re-run.
Re-running a replay rebuilds the state from the seed and config and applies the actions; it reports the first
hash that differs, so an edited file or a changed engine is caught at the step where it goes wrong.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import InputError, PuzzlebotsError
from .jsonio import check_int, name_of, parse_json_lines, read_text, show, write_text_atomic
from .protocols import JSON, Episodic, State
from .runner import Episode, resolve
from .seeds import MAX_SEED

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
    write_text_atomic(path, "\n".join(lines) + "\n")


def read_replay(path: str | os.PathLike[str]) -> Replay:
    """Parse and validate a replay file; ``InputError`` names the file, the line and what is wrong."""
    name = f"replay {name_of(path)}"
    rows = parse_json_lines(read_text(path, "replay"), name)
    if not rows:
        raise InputError(f"{name} is empty")
    for no, obj in rows:
        if not isinstance(obj, dict):
            raise InputError(f"{name} line {no}: expected a JSON object")
    header = _check_header(rows[0][1], name)
    actions: list[JSON] = []
    hashes: list[tuple[int, str]] = []
    end: dict[str, Any] | None = None
    for no, obj in rows[1:]:
        if end is not None:
            raise InputError(f"{name} line {no}: data after the end record")
        if "a" in obj and len(obj) == 1:
            actions.append(obj["a"])
        elif set(obj) == {"n", "h"} and _is_int(obj["n"]) and isinstance(obj["h"], str):
            if obj["n"] != len(actions):
                raise InputError(f"{name} line {no}: hash for action {show(obj['n'])} after {len(actions)}")
            hashes.append((obj["n"], obj["h"]))
        elif obj.get("type") == "end":
            end = obj
        else:
            raise InputError(f"{name} line {no}: unknown record {show(sorted(obj))}")
    if end is None:
        raise InputError(f"{name} is truncated: no end record after {len(actions)} actions")
    if end.get("decisions") != len(actions) or not _is_int(end["decisions"]):
        raise InputError(f"{name}: end record says {show(end.get('decisions'))} actions, file has {len(actions)}")
    if not isinstance(end.get("result", {}), dict):
        raise InputError(f"{name}: the end record's result must be an object")
    return Replay(header, actions, hashes, end)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_header(header: dict[str, Any], name: str) -> dict[str, Any]:
    """The header line: this puzzlebots' format, and every field of the type ``check_replay`` relies on."""
    if header.get("type") != "header":
        raise InputError(f"{name} line 1: missing header")
    if "format" not in header:
        raise InputError(f"{name} header has no format (not a puzzlebots replay?)")
    if header["format"] != FORMAT or not _is_int(header["format"]):
        raise InputError(f"{name}: format {show(header['format'])} is not supported (this puzzlebots reads {FORMAT})")
    missing = [k for k in HEADER_KEYS if k not in header]
    if missing:
        raise InputError(f"{name} header lacks {', '.join(missing)}")
    for key in ("game", "rules_version", "bot"):
        if not isinstance(header[key], str) or not header[key]:
            raise InputError(f"{name} header: {key} must be a non-empty string, got {show(header[key])}")
    if not isinstance(header["config"], dict):
        raise InputError(f"{name} header: config must be an object, got {show(header['config'])}")
    check_int(header["seed"], f"{name} header: seed", 0, MAX_SEED)
    check_int(header["hash_every"], f"{name} header: hash_every", 1, MAX_SEED)
    return header


def replay_start(replay: Replay) -> tuple[Episodic, State]:
    """The game a replay is of and the state it starts from. Its rules version must be the engine's, and its
    config is read as any file's: it may not name another file for the game to read."""
    h = replay.header
    game = resolve(h["game"])
    if h["rules_version"] != game.rules_version:
        raise InputError(
            f"replay is for {h['game']} rules {h['rules_version']}, this engine has {game.rules_version}"
        )
    return game, game.new_state(h["seed"], game.check_config(h["config"], files=False))


def check_replay(replay: Replay, on_step: Callable[[State, int], None] | None = None) -> ReplayCheck:
    """Re-run ``replay`` and compare every recorded hash; stop at the first mismatch."""
    game, state = replay_start(replay)
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
