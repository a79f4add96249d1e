"""The one reader of files and JSON text a user hands over: replays, levels, templates, weights, boards, checkpoints.

Every input is hostile, so reading is strict and bounded before anything else looks at the data:

* only regular files (a FIFO or a device never stalls or floods a run), at most ``MAX_BYTES``;
* strict UTF-8: a bad byte is an error naming the file and the byte offset, never a ``UnicodeDecodeError``;
* JSON nesting is measured before ``json.loads`` runs, so a file of 100,000 ``[`` never recurses;
* numbers are finite: ``NaN``, ``Infinity``, ``1e400`` and integers of more than ``MAX_DIGITS`` digits are refused;
* strings are real Unicode (no lone surrogates, which could not be printed or written back).

Every failure is one ``InputError`` whose text is one line; ``check_int``/``check_number`` give the same wording
for the range checks each reader makes on the values it takes.
"""

from __future__ import annotations

import json
import math
import os
import re
import reprlib
import stat
from typing import Any

from .errors import InputError
from .files import write_atomic

MAX_BYTES = 32 * 2**20
MAX_DEPTH = 64
MAX_DIGITS = 100

_ESCAPE = re.compile(r"\\.", re.DOTALL)
_STRING = re.compile(r'"[^"]*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_CHUNK = 1 << 20
#: ``repr`` that stops early in long strings, numbers and containers (``show`` then cuts it to its limit)
_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = _SHORT.maxlong = 200
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 20


def name_of(path: str | os.PathLike[str]) -> str:
    """A path as it goes into a one-line message (quoted when it holds control characters)."""
    text = str(path)
    return text if text.isprintable() else repr(text)


def show(value: Any, limit: int = 40) -> str:
    """``repr(value)``, cut short: a message quotes what it refuses without echoing (or even building the whole
    text of) a huge value; every message that quotes a value from a file or a page goes through here."""
    text = _SHORT.repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def read_text(path: str | os.PathLike[str], what: str, *, max_bytes: int = MAX_BYTES) -> str:
    """The text of a regular file of at most ``max_bytes`` bytes, strictly UTF-8."""
    name = name_of(path)
    try:
        regular = stat.S_ISREG(os.stat(path).st_mode)
        if regular:
            with open(path, "rb") as fh:
                data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise InputError(f"cannot read {what} {name}: {exc.strerror or exc.__class__.__name__}") from None
    except ValueError as exc:  # a path with a NUL byte
        raise InputError(f"cannot read {what} {name}: {exc}") from None
    if not regular:
        raise InputError(f"{what} {name} is not a regular file")
    if len(data) > max_bytes:
        raise InputError(f"{what} {name} is larger than {max_bytes:,} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{what} {name} is not UTF-8 text: byte 0x{data[exc.start]:02x} at offset {exc.start} ({exc.reason})"
        ) from None


def read_json(
    path: str | os.PathLike[str], what: str, *, max_depth: int = MAX_DEPTH, max_bytes: int = MAX_BYTES
) -> Any:
    """``parse_json`` of a file read by ``read_text``; messages start with ``what`` and the path."""
    text = read_text(path, what, max_bytes=max_bytes)
    return parse_json(text, f"{what} {name_of(path)}", max_depth=max_depth, max_chars=max_bytes)


def parse_json(text: str, where: str, *, max_depth: int = MAX_DEPTH, max_chars: int = MAX_BYTES) -> Any:
    """One JSON value, checked as the module says; ``where`` starts every message (e.g. ``--stacks``)."""
    _check_text(text, where, max_depth, max_chars)
    return _loads(text, where)


def parse_json_lines(text: str, where: str, *, max_depth: int = MAX_DEPTH) -> list[tuple[int, Any]]:
    """JSON Lines: ``(line number, value)`` for every non-blank line."""
    _check_text(text, where, max_depth)
    return [(no, _loads(line, f"{where} line {no}")) for no, line in enumerate(text.split("\n"), 1) if line.strip()]


def parse_json_line(text: str, where: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """``parse_json`` for one line of a file read as a stream (its length bounded by the reader), fast enough
    for a line per action: nesting is measured only on a line with more brackets than ``max_depth``."""
    if text.count("[") + text.count("{") > max_depth or (not text.isascii() and _SURROGATE.search(text)):
        _check_text(text, where, max_depth, len(text))
    return _loads(text, where)


def check_int(value: Any, where: str, lo: int, hi: int) -> int:
    """``value`` if it is a whole number (not a bool) in ``lo..hi``."""
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise InputError(f"{where} must be a whole number from {lo} to {hi}, got {show(value)}")
    return value


def check_number(value: Any, where: str) -> float:
    """``value`` as a float if it is a finite number (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InputError(f"{where} must be a finite number, got {show(value)}")
    return float(value)


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` through ``files.write_atomic``: never through a planted link, never half a file."""
    write_atomic(path, text)


def _check_text(text: str, where: str, max_depth: int, max_chars: int = MAX_BYTES) -> None:
    if len(text) > max_chars:
        raise InputError(f"{where}: longer than {max_chars:,} characters")
    bad = _SURROGATE.search(text)
    if bad is not None:  # e.g. an undecodable byte of a command-line argument
        raise InputError(f"{where}: character {bad.start()} is not valid Unicode text")
    if _depth(text) > max_depth:
        raise InputError(f"{where}: JSON nested deeper than {max_depth} levels")


def _depth(text: str) -> int:
    """The deepest bracket nesting outside JSON strings, without parsing (vectorised, linear time)."""
    import numpy as np  # imported on use: the command line's help and listings need no numpy

    brackets = _NOT_BRACKET.sub("", _STRING.sub("", _ESCAPE.sub("", text))).encode("ascii")
    deepest = depth = 0
    for start in range(0, len(brackets), _CHUNK):
        chunk = np.frombuffer(brackets[start : start + _CHUNK], np.uint8)
        levels = depth + np.cumsum(np.where((chunk == ord("[")) | (chunk == ord("{")), 1, -1))
        deepest = max(deepest, int(levels.max()))
        depth = int(levels[-1])
    return deepest


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {show(text, 24)} is out of range")
    return value


def _bounded_int(text: str) -> int:
    if len(text) > MAX_DIGITS and len(text.lstrip("-")) > MAX_DIGITS:  # the strip only for a long one: called per int
        raise ValueError(f"a number of {len(text.lstrip('-'))} digits is out of range (at most {MAX_DIGITS})")
    return int(text)


_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite_float, parse_int=_bounded_int)


def _loads(text: str, where: str) -> Any:
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{where}: malformed JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    except ValueError as exc:  # from the number hooks above
        raise InputError(f"{where}: {exc}") from None
    if "\\u" in text and _SURROGATE_ESCAPE.search(text):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise InputError(f"{where}: a \\u escape names half a surrogate pair, not a character") from None
    return value
