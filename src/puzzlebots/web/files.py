"""Which files the web server may send: only regular files inside one given folder, reached by a plain name.

Kept apart from the server so the rule is small enough to read at a glance and to test without a socket.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath


def safe_file(root: Path, relative: str) -> Path | None:
    """The file ``relative`` names under ``root``, or None if the name tries to leave ``root`` or is odd.

    Refused: empty names, absolute paths, ``..`` or ``.`` segments, backslashes, NUL bytes, hidden files,
    and anything whose resolved path (after symlinks) is not inside ``root``.
    """
    if not relative or "\\" in relative or "\x00" in relative or relative.startswith("/"):
        return None
    parts = PurePosixPath(relative).parts
    if any(part in ("", ".", "..") or part.startswith(".") for part in parts):
        return None
    if any(segment == ".." for segment in relative.split("/")):
        return None
    base = root.resolve()
    try:
        target = (base / relative).resolve()
        if not target.is_relative_to(base) or not target.is_file():
            return None
    except OSError:  # a name the file system refuses (too long, ...) names no file we serve
        return None
    return target
