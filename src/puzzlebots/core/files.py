"""The one writer of files: every output and every file kept beside one (``OUT.partial``, temporary files).

An output's folder may be shared (the system's temporary folder, say), so a name beside an output may already
hold a link, a FIFO, a folder or another user's file. Nothing here follows or opens such a name:

* a whole file is written to a new temporary file, created exclusively (``O_EXCL | O_NOFOLLOW``, a random
  name) in the output's folder, then renamed over the output: a link at the output is replaced, never
  written through, and an interrupted write never leaves half a file in place of a good one;
* a progress file that grows line by line (``stats``' ``OUT.partial``) is read and appended to only through
  ``O_NOFOLLOW | O_NONBLOCK`` and only when ``fstat`` says it is a regular file of this user, so a link, FIFO,
  folder or device there is refused (one ``InputError``) before any work, and never hangs a run;
* an output name is checked against the file system's limits with room for the suffixes of the files kept
  beside it (:func:`check_output_name`).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import IO

from .errors import InputError

#: the longest name one folder entry may have (Linux, macOS and Windows file systems alike)
NAME_MAX = 255
#: the longest path the system takes
PATH_MAX = 4096
#: suffixes of the files kept beside an output (``stats`` partial, ``train`` checkpoint, ``cargobot`` progress)
SIDE_SUFFIXES = (".partial", ".ckpt", ".progress")
#: how much of an output's name a temporary file beside it repeats (so that its name always fits)
_TMP_PREFIX = 40
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def short_name(path: str | os.PathLike[str], limit: int = 60) -> str:
    """A path as a one-line message quotes it: control characters escaped, at most ``limit`` characters."""
    text = str(path)
    text = text if text.isprintable() else repr(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def beside(path: Path, suffix: str) -> Path:
    """The name of the file kept beside output ``path`` (``out.json`` -> ``out.json.partial``)."""
    return path.with_name(path.name + suffix)


def check_output_name(path: Path) -> None:
    """``InputError`` unless every part of ``path`` and the files kept beside it fit the system's limits."""
    longest = max(map(len, SIDE_SUFFIXES))
    for part in path.parts:
        size = len(os.fsencode(part))
        if size > NAME_MAX:
            raise InputError(f"{short_name(part)} is a name of {size} bytes; a folder entry holds at most {NAME_MAX}")
    size = len(os.fsencode(path.name))
    if size + longest > NAME_MAX:
        raise InputError(
            f"{short_name(path.name)} is a name of {size} bytes; an output's name may have at most "
            f"{NAME_MAX - longest}, so that {', '.join(SIDE_SUFFIXES)} files fit beside it"
        )
    size = len(os.fsencode(os.path.abspath(path)))
    if size + longest >= PATH_MAX:
        raise InputError(f"{short_name(path)} is a path of {size} bytes; the system takes {PATH_MAX - 1}")


def check_folder_takes_files(path: Path) -> None:
    """``InputError`` unless a new file can be created beside ``path`` (tried for real, then removed)."""
    fd, tmp = _create_beside(path)
    os.close(fd)
    os.unlink(tmp)


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path``: into a new temporary file beside it, then renamed over it.

    A failure at the end (a folder planted at ``path``, a full disk) is one ``InputError``; if the data was
    written, the message names the temporary file that keeps it.
    """
    path = Path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = _create_beside(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
    except OSError as exc:
        _unlink(tmp)
        raise InputError(f"cannot write {short_name(path)}: {_why(exc)}") from None
    except BaseException:
        _unlink(tmp)
        raise
    try:
        os.replace(tmp, path)
    except OSError as exc:
        raise InputError(
            f"cannot replace {short_name(path)} ({_why(exc)}): what was to be written is in {short_name(tmp, 200)}"
        ) from None


def read_regular(path: Path, what: str, max_bytes: int) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of this user of at most ``max_bytes``; None if nothing
    is there. Anything else there (a link, even a dangling one, a FIFO, a folder, a device) is an
    ``InputError``: a file kept beside an output is read only if this program could have written it."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC)
    except FileNotFoundError:
        if os.path.islink(path):
            raise InputError(_not_regular(path, what, "a dangling symbolic link")) from None
        return None
    except OSError as exc:
        raise InputError(_not_regular(path, what, _kind_of(path) or _why(exc))) from None
    _check_regular(fd, path, what)
    with os.fdopen(fd, "rb") as fh:
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise InputError(f"{what} {short_name(path)} is larger than {max_bytes:,} bytes")
    return data


def open_append(path: Path, what: str) -> IO[str]:
    """``path``, a regular file of this user that exists, opened to append text lines (never created here,
    never through a link, never a FIFO)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | _NOFOLLOW | _NONBLOCK | _CLOEXEC)
    except OSError as exc:
        raise InputError(_not_regular(path, what, _kind_of(path) or _why(exc))) from None
    _check_regular(fd, path, what)
    return os.fdopen(fd, "a", encoding="utf-8")


def _check_regular(fd: int, path: Path, what: str) -> None:
    """Close ``fd`` and raise ``InputError`` unless it is a regular file of this user."""
    info = os.fstat(fd)
    kind = None if stat.S_ISREG(info.st_mode) else _kind(info.st_mode)
    if kind is None and hasattr(os, "geteuid") and info.st_uid != os.geteuid():
        kind = "a file of another user"
    if kind is not None:
        os.close(fd)
        raise InputError(_not_regular(path, what, kind))


def _not_regular(path: Path, what: str, kind: str) -> str:
    return f"{what} {short_name(path)} is {kind}, not a file this program wrote: move it away or delete it"


def _kind_of(path: Path) -> str | None:
    try:
        return _kind(os.lstat(path).st_mode)
    except OSError:
        return None


def _kind(mode: int) -> str:
    kinds = [
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
    ]
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def _create_beside(path: Path) -> tuple[int, str]:
    """A new, empty temporary file in ``path``'s folder: exclusive, no link followed, a random name."""
    folder = path.parent
    for _ in range(100):
        tmp = os.path.join(folder, f"{path.name[:_TMP_PREFIX]}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o666), tmp
        except FileExistsError:
            continue
        except OSError as exc:
            raise InputError(f"cannot create {short_name(path)} ({_why(exc)})") from None
    raise InputError(f"cannot create {short_name(path)}: every temporary name beside it was taken")


def _unlink(name: str) -> None:
    try:
        os.unlink(name)
    except OSError:
        pass


def _why(exc: OSError) -> str:
    return exc.strerror or exc.__class__.__name__
