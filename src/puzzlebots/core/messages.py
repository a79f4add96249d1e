"""The fields of a message a web page sends, checked the one way: the web shell and every game's page session
(``WebSession.handle``) read them through these, so a wrong field is the same one-line ``InputError`` everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import InputError

#: the largest seed a page may ask for
MAX_SEED = 2**32 - 1


def field_of(msg: Mapping[str, Any], key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
    """``msg[key]`` checked to be of ``kind`` (bool is never an int here); ``default`` if absent."""
    if key not in msg:
        if default is ...:
            raise InputError(f"missing field {key!r}")
        return default
    value = msg[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        names = "/".join(k.__name__ for k in kinds)
        raise InputError(f"field {key!r} must be {names}")
    return value


def int_field(msg: Mapping[str, Any], key: str, low: int, high: int, default: int) -> int:
    """``msg[key]``, a whole number in ``low..high`` (``default`` if absent)."""
    value: int = field_of(msg, key, int, default)
    if not low <= value <= high:
        raise InputError(f"field {key!r} must be between {low} and {high}")
    return value


def seed_field(msg: Mapping[str, Any]) -> int:
    """The ``seed`` a page asks for (0 if absent)."""
    return int_field(msg, "seed", 0, MAX_SEED, 0)


def only_fields(msg: Mapping[str, Any], known: set[str] | frozenset[str]) -> None:
    """Refuse a message with a field not in ``known`` (a misspelt field is an error, not a silent default)."""
    unknown = sorted(set(msg) - known)
    if unknown:
        raise InputError(f"unknown field {unknown[0]!r} (fields: {', '.join(sorted(known))})")
