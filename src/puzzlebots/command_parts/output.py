"""The files a command writes: output names checked when the command line is read, JSON written atomically, and
the partial file a long run keeps its results in (resumed from it after a stop)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from ..core.errors import InputError
from ..core.files import (
    check_folder_takes_files,
    check_output_name,
    open_append,
    read_regular,
    short_name,
    write_atomic,
)
from ..core.jsonio import parse_json, show


class OutputPath(click.ParamType):
    """A file a command writes, checked when the command line is read, so that no work is lost at the end.

    The name must not be empty, a folder or a device (``/dev/null`` would be replaced), and must fit the file
    system with room for the ``.partial``/``.ckpt``/``.progress`` files kept beside it; its folder must exist
    and take a new file (tried for real, as every write goes through ``core.files``); and with ``formats`` its
    suffix must be one of them.
    """

    name = "file"

    def __init__(self, formats: Callable[[], Sequence[str]] | None = None) -> None:
        self.formats = formats

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        text = str(value)
        if not text.strip():
            self.fail("an empty name is no file", param, ctx)
        if "\0" in text:
            self.fail(f"{short_name(text)} is not a usable file name (a NUL byte)", param, ctx)
        path = Path(text)
        try:
            check_output_name(path)
            self._check(path)
        except InputError as exc:
            self.fail(str(exc), param, ctx)
        except OSError as exc:
            self.fail(f"cannot use {short_name(path)} ({exc.strerror or exc})", param, ctx)
        return path

    def _check(self, path: Path) -> None:
        name = short_name(path)
        if path.is_dir():
            raise InputError(f"{name} is a folder")
        if self.formats is not None:
            known = self.formats()
            if path.suffix.lower().lstrip(".") not in known:
                raise InputError(f"{name} does not end in a known format ({', '.join(known)})")
        if not path.parent.is_dir():
            raise InputError(f"folder {short_name(path.parent)} does not exist")
        check_folder_takes_files(path)
        if path.exists() and not path.is_file():
            raise InputError(f"{name} is not a regular file (a device, pipe or socket)")
        if path.exists() and not os.access(path, os.W_OK):
            raise InputError(f"{name} is not writable")


def write_json_atomic(path: Path, doc: Any) -> None:
    """Write JSON (sorted keys) so that an interrupted run never leaves a half-written file behind."""
    write_atomic(path, json.dumps(doc, indent=1, sort_keys=True) + "\n")


#: the longest line a partial file may hold (a result or a game pair is well under 4 KB; the header holds the config)
MAX_PROGRESS_LINE = 16 * 1024


@contextmanager
def progress_log(path: Path | None, head: dict[str, Any], resumed: bool) -> Iterator[Callable[[Any], None]]:
    """How a run keeps each result as it arrives: appended to ``path`` (its partial file, begun with ``head``
    unless the run resumes it), opened once through ``core.files`` and flushed line by line; no path, no file."""
    if path is None:
        yield lambda _record: None
        return
    if not resumed:
        write_atomic(path, json.dumps(head, sort_keys=True) + "\n")
    with open_append(path, "partial file") as log:

        def keep(record: Any) -> None:
            log.write(json.dumps(record, sort_keys=True) + "\n")
            log.flush()

        yield keep


def read_progress(
    path: Path, head: dict[str, Any], seeds: range, check: Callable[[Any, str], dict[str, Any]]
) -> dict[int, dict[str, Any]]:
    """Results of an interrupted run (``stats --json``, ``match --json``) with the same arguments, by seed.

    The file is read only if it is a regular file of this user (``core.files``): a link, FIFO, folder or device
    there is an error. A file without a header (a run killed before it wrote one) holds no progress: a notice
    says so and the run starts over. Otherwise every line is checked before any game is played: the header
    against these arguments, each result by ``check(value, where)`` (which returns it with its ``seed``, or
    raises ``InputError``; for ``stats`` the game's result shape, ``core.results``) and this run's seeds. The
    first bad line is an error and the file is kept as it is, never half used. A last line without its newline
    is the result being written when the run was killed: it is left out.
    """
    data = read_regular(path, "partial file", (len(seeds) + 1) * MAX_PROGRESS_LINE)
    if data is None:
        return {}
    where = f"partial file {short_name(path)}"
    lines = [(no, line) for no, line in enumerate(data.split(b"\n")[:-1], 1) if line.strip()]
    if not lines:
        click.echo(f"notice: {short_name(path)} holds no run (empty or no header): starting over", err=True)
        return {}
    values = [
        parse_json(_text(line, f"{where} line {no}"), f"{where} line {no}", max_chars=MAX_PROGRESS_LINE)
        for no, line in lines
    ]
    if values[0] != json.loads(json.dumps(head, sort_keys=True)):
        raise InputError(f"{short_name(path)} holds a run with other arguments: delete it or repeat those arguments")
    done: dict[int, dict[str, Any]] = {}
    for (no, _), value in zip(lines[1:], values[1:], strict=True):
        result = check(value, f"{where} line {no}")
        if result["seed"] not in seeds:
            raise InputError(
                f"{where} line {no}: seed {show(result['seed'])} is not one of this run's "
                f"({seeds.start} to {seeds.stop - 1})"
            )
        done[result["seed"]] = result
    return done


def _text(line: bytes, where: str) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{where} is not UTF-8 text: byte 0x{line[exc.start]:02x} at offset {exc.start}") from None
