"""Replay files: JSON Lines, a header, one action per line, a state hash every N actions, an end record.

    {"type": "header", "format": 1, "game": ..., "rules_version": ..., "config": {...}, "seed": ..., "bot": ...,
     "hash_every": 10}
    {"a": <action>}
    ...
    {"n": 10, "h": "<state hash after 10 actions>"}
    ...
    {"type": "end", "decisions": 123, "result": {...}}

A replay is read as a stream, never whole: ``read_replay`` checks the file from end to end (strict UTF-8, each line
at most ``MAX_LINE_BYTES``, bounded JSON, at most ``MAX_ACTIONS`` actions, a header whose ``format`` is
``FORMAT`` and whose fields have the types ``check_replay`` relies on, an end record that counts the actions)
keeping only the header and the end record; re-running then reads the actions again, one at a time. A folder
listing reads only a file's first and last lines (``replay_summary``). Messages name the file by its name only.

Re-running a replay rebuilds the state from the seed and config and applies the actions; it reports the first
hash that differs, so an edited file or a changed engine is caught at the step where it goes wrong.
"""

from __future__ import annotations

import codecs
import json
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from .errors import ConfigError, InputError, PuzzlebotsError
from .jsonio import MAX_BYTES, check_int, name_of, parse_json_line, show, write_text_atomic
from .protocols import JSON, Episodic, State
from .runner import Episode, resolve
from .seeds import MAX_SEED

FORMAT = 1
HEADER_KEYS = ("game", "rules_version", "config", "seed", "bot", "hash_every")
#: the most actions one replay holds: a whole Puyo game of the most pairs (100,000); ``watch --replay`` stops
#: recording there. Re-running the largest replay this allows takes seconds and a bounded amount of memory.
MAX_ACTIONS = 100_000
#: the longest line of a replay file (a header with its config, one action, one hash, the end record)
MAX_LINE_BYTES = 64 * 1024
#: how far from its end a listing looks for a replay's end record
TAIL_BYTES = 2 * MAX_LINE_BYTES


@dataclass
class Replay:
    """A replay file checked from end to end: its header, end record and number of actions. ``steps`` reads
    the actions again, one at a time, each with the hash recorded after it."""

    path: Path
    header: dict[str, Any]
    end: dict[str, Any]
    length: int
    #: the hash recorded before the first action, if any
    initial_hash: str | None = None

    @property
    def name(self) -> str:
        return f"replay {name_of(self.path.name)}"

    def steps(self) -> Iterator[tuple[JSON, str | None]]:
        """Each action in order with the hash recorded right after it (None if none was); ``InputError`` if
        the file no longer is what ``read_replay`` checked."""
        pending: list[JSON] = []
        count = 0
        for kind, value in _records(self.path, self.name):
            if kind == "a":
                if pending:
                    yield pending.pop(), None
                pending.append(value)
                count += 1
            elif kind == "h" and value[0] > 0:
                yield pending.pop(), value[1]
            elif kind == "end":
                if pending:
                    yield pending.pop(), None
        if count != self.length:
            raise InputError(f"{self.name} changed while it was being read")


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
    if len(episode.actions) > MAX_ACTIONS:
        raise ConfigError(f"a replay holds at most {MAX_ACTIONS:,} actions, this game has {len(episode.actions):,}")
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
    """Check a replay file from end to end, keeping only its header and end record; ``InputError`` names the
    file (by its name), the line and what is wrong."""
    path = Path(path)
    name = f"replay {name_of(path.name)}"
    header: dict[str, Any] | None = None
    end: dict[str, Any] | None = None
    initial: str | None = None
    length = 0
    for kind, value in _records(path, name):
        if kind == "header":
            header = value
        elif kind == "a":
            length += 1
        elif kind == "h" and value[0] == 0:
            initial = value[1]
        elif kind == "end":
            end = value
    assert header is not None and end is not None  # _records refuses a file without them
    return Replay(path, header, end, length, initial)


def replay_summary(path: str | os.PathLike[str]) -> tuple[dict[str, Any], int]:
    """The header and the number of actions of a replay, from its first and last lines only (for a folder
    listing: opening the replay checks the rest)."""
    path = Path(path)
    name = f"replay {name_of(path.name)}"
    with _open_regular(path, name) as fh:
        first = fh.readline(MAX_LINE_BYTES + 1)
        if not first.strip():
            raise InputError(f"{name} is empty")
        header = _check_header(_line_object(first, 1, name, 0), name)
        size = os.fstat(fh.fileno()).st_size
        fh.seek(max(0, size - TAIL_BYTES))
        block = fh.read(TAIL_BYTES).rstrip(b"\n")
    tail = block.rpartition(b"\n")[2]
    end = _line_object(tail, 0, name, max(0, size - TAIL_BYTES) + len(block) - len(tail)) if tail.strip() else {}
    if end.get("type") != "end" or not _is_int(end.get("decisions")) or not 0 <= end["decisions"] <= MAX_ACTIONS:
        raise InputError(f"{name} is truncated or has no valid end record")
    return header, end["decisions"]


def _open_regular(path: Path, name: str) -> IO[bytes]:
    """``path`` opened for reading if it is a regular file of at most ``MAX_BYTES`` (a FIFO is not waited on)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise InputError(f"cannot read {name}: {exc.strerror or exc.__class__.__name__}") from None
    except ValueError as exc:  # a path with a NUL byte
        raise InputError(f"cannot read {name}: {exc}") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise InputError(f"{name} is not a regular file")
    if info.st_size > MAX_BYTES:
        os.close(fd)
        raise InputError(f"{name} is larger than {MAX_BYTES:,} bytes")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def _line_object(raw: bytes, no: int, name: str, offset: int) -> dict[str, Any]:
    """The JSON object on line ``no`` (0: the last line) that starts at byte ``offset`` of the file."""
    where = f"{name} line {no}" if no else f"{name} last line"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{where} is not UTF-8 text: byte 0x{raw[exc.start]:02x} at offset {offset + exc.start} ({exc.reason})"
        ) from None
    obj = parse_json_line(text, where)
    if not isinstance(obj, dict):
        raise InputError(f"{where}: expected a JSON object")
    return obj


def _records(path: Path, name: str) -> Iterator[tuple[str, Any]]:
    """The checked records of a replay file, read one line at a time: ``("header", dict)``, ``("a", action)``,
    ``("h", (n, hash))`` and last ``("end", dict)``; ``InputError`` at the first line that is wrong."""
    actions = 0
    hashed = -1  # the action count of the last hash record
    seen_header = seen_end = False
    with _open_regular(path, name) as fh:
        _check_utf8(fh, name)
        no = offset = 0
        while raw := fh.readline(MAX_LINE_BYTES + 1):
            no += 1
            offset, start = offset + len(raw), offset
            if len(raw) > MAX_LINE_BYTES:
                raise InputError(f"{name} line {no} is longer than {MAX_LINE_BYTES:,} bytes")
            if not raw.strip():
                continue
            obj = _line_object(raw, no, name, start)
            if not seen_header:
                seen_header = True
                yield "header", _check_header(obj, name)
            elif seen_end:
                raise InputError(f"{name} line {no}: data after the end record")
            elif "a" in obj and len(obj) == 1:
                actions += 1
                if actions > MAX_ACTIONS:
                    raise InputError(f"{name} holds more than {MAX_ACTIONS:,} actions")
                yield "a", obj["a"]
            elif set(obj) == {"n", "h"} and _is_int(obj["n"]) and isinstance(obj["h"], str):
                if obj["n"] != actions or obj["n"] == hashed:
                    raise InputError(f"{name} line {no}: hash for action {show(obj['n'])} after {actions}")
                hashed = actions
                yield "h", (obj["n"], obj["h"])
            elif obj.get("type") == "end":
                if obj.get("decisions") != actions or not _is_int(obj["decisions"]):
                    raise InputError(
                        f"{name}: end record says {show(obj.get('decisions'))} actions, file has {actions}"
                    )
                if not isinstance(obj.get("result", {}), dict):
                    raise InputError(f"{name}: the end record's result must be an object")
                seen_end = True
                yield "end", obj
            else:
                raise InputError(f"{name} line {no}: unknown record {show(sorted(obj))}")
    if not seen_header:
        raise InputError(f"{name} is empty")
    if not seen_end:
        raise InputError(f"{name} is truncated: no end record after {actions} actions")


def _check_utf8(fh: IO[bytes], name: str) -> None:
    """Refuse a file that is not UTF-8 text as a whole, naming the first bad byte's offset (before any line is read
    as a record, so the error is the same whichever line holds it); read in chunks, then rewound."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = 0
    while chunk := fh.read(MAX_LINE_BYTES):
        pending = len(decoder.getstate()[0])  # bytes of a character cut at the last chunk's end
        try:
            decoder.decode(chunk)
        except UnicodeDecodeError as exc:  # exc.object is the pending bytes and this chunk
            at = offset - pending + exc.start
            raise InputError(
                f"{name} is not UTF-8 text: byte 0x{exc.object[exc.start]:02x} at offset {at} ({exc.reason})"
            ) from None
        offset += len(chunk)
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError as exc:
        raise InputError(f"{name} is not UTF-8 text: it ends inside a character ({exc.reason})") from None
    fh.seek(0)


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
        raise InputError(f"replay is for {h['game']} rules {h['rules_version']}, this engine has {game.rules_version}")
    return game, game.new_state(h["seed"], game.check_config(h["config"], files=False))


def check_replay(replay: Replay, on_step: Callable[[State, int], None] | None = None) -> ReplayCheck:
    """Re-run ``replay``, reading its actions one at a time, and compare every recorded hash; stop at the
    first mismatch."""
    game, state = replay_start(replay)
    checked = 0
    if replay.initial_hash is not None:
        checked += 1
        got = state.state_hash()
        if got != replay.initial_hash:
            return ReplayCheck(0, checked, (0, replay.initial_hash, got), state)
    n = 0
    for n, (data, expected) in enumerate(replay.steps(), start=1):
        try:
            action = game.decode_action(data)
            state.apply(action)
        except PuzzlebotsError as exc:
            raise InputError(f"replay action {n} cannot be played: {exc}") from exc
        if on_step is not None:
            on_step(state, n)
        if expected is not None:
            checked += 1
            got = state.state_hash()
            if got != expected:
                return ReplayCheck(n, checked, (n, expected, got), state)
    return ReplayCheck(n, checked, None, state, dict(state.result()))
