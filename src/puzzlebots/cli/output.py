"""Files the CLI reads and writes: weights, result JSON, partial progress, plots."""

from __future__ import annotations

import functools
import io
import json
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from ..core.errors import InputError
from ..core.files import (
    check_folder_takes_files,
    check_output_name,
    open_append,
    read_regular,
    short_name,
    write_atomic,
)
from ..core.jsonio import check_number, name_of, parse_json, read_json, show


@functools.cache
def image_formats() -> tuple[str, ...]:
    """File name suffixes matplotlib can write a figure as (png, svg, pdf, ...)."""
    from matplotlib.backend_bases import FigureCanvasBase

    return tuple(sorted(FigureCanvasBase.get_supported_filetypes()))


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


def load_weights(path: Path, game: Any, bot: str) -> list[float]:
    """Read a weights file (as written by ``train``, or a bare list) and check it fits ``game``/``bot``."""
    where = f"weights file {name_of(path)}"
    doc = read_json(path, "weights file")
    weights = doc.get("weights") if isinstance(doc, dict) else doc
    if not isinstance(weights, list):
        raise InputError(f"{where} has no list of numbers under 'weights'")
    values = [check_number(x, f"{where}: weight {i + 1}") for i, x in enumerate(weights)]
    names = game.bot_info(bot).weight_names
    if len(values) != len(names):
        raise InputError(f"{where} has {len(values)} weights, {game.name}/{bot} needs {len(names)}")
    if isinstance(doc, dict) and doc.get("names") not in (None, list(names)):
        raise InputError(f"{where} names {show(doc.get('names'), 80)}, {game.name}/{bot} needs {list(names)}")
    return values


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


def read_progress(path: Path, head: dict[str, Any], seeds: range,
                  check: Callable[[Any, str], dict[str, Any]]) -> dict[int, dict[str, Any]]:  # fmt: skip
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
    values = [parse_json(_text(line, f"{where} line {no}"), f"{where} line {no}", max_chars=MAX_PROGRESS_LINE)
              for no, line in lines]
    if values[0] != json.loads(json.dumps(head, sort_keys=True)):
        raise InputError(f"{short_name(path)} holds a run with other arguments: delete it or repeat those arguments")
    done: dict[int, dict[str, Any]] = {}
    for (no, _), value in zip(lines[1:], values[1:], strict=True):
        result = check(value, f"{where} line {no}")
        if result["seed"] not in seeds:
            raise InputError(f"{where} line {no}: seed {show(result['seed'])} is not one of this run's "
                             f"({seeds.start} to {seeds.stop - 1})")
        done[result["seed"]] = result
    return done


def _text(line: bytes, where: str) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{where} is not UTF-8 text: byte 0x{line[exc.start]:02x} at offset {exc.start}") from None


def figure(key: str, value: Any) -> str:
    """One summary figure for a person: rates as percentages, other fractions to 3 digits, counts with commas;
    a distribution leaves out its empty buckets."""
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {figure(key, v)}" for k, v in value.items() if v != 0) or "-"
    if isinstance(value, (list, tuple)):
        return ", ".join(figure(key, v) for v in value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if key.endswith("_rate") or key.startswith("rate_"):
            return f"{100 * value:.1f}%"
        if value.is_integer():
            return f"{int(value):,}"
        return f"{value:,.1f}" if abs(value) >= 100 else f"{value:.3g}"
    return str(value)


def summary_table(title: str, summary: dict[str, Any], notes: dict[str, str]) -> Table:
    """The ``stats`` summary as a two-column table; ``notes`` explain a figure whose name is not plain enough."""
    table = Table(title=title, title_justify="left", min_width=len(title))
    table.add_column("figure")
    table.add_column("value", justify="right")
    if notes:
        table.add_column("meaning", style="dim")
    for key, value in summary.items():
        row = [key.replace("_", " "), figure(key, value)]
        table.add_row(*row, *([notes.get(key, "")] if notes else []))
    return table


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig: Any, path: Path) -> None:
    """Write a figure in the format its name's suffix says, through ``core.files`` (never through a link)."""
    buffer = io.BytesIO()
    try:
        fig.savefig(buffer, format=path.suffix.lower().lstrip("."), dpi=100)
    finally:
        _pyplot().close(fig)
    write_atomic(path, buffer.getvalue())


def plot_histogram(path: Path, values: Sequence[float], label: str, title: str, note: str = "") -> None:
    """Write :func:`histogram_figure` to ``path``."""
    save_figure(histogram_figure(values, label, title, note), path)


#: the share of a constant column's value left free on each side of its bar (at least one unit)
CONSTANT_MARGIN = 0.05


def histogram_figure(values: Sequence[float], label: str, title: str, note: str = "") -> Any:
    """How many games reached each value of the game's main figure (``label``, in the game's own units).

    Counts of games are whole numbers, so is the figure's axis when every value is; the legend sits outside
    the bars. A column where every game has the same value gets an axis around it with round ticks and says
    so, rather than an axis of hundredths about one bar; ``note`` (a cap and how many games reached it) is
    written under the title.
    """
    from matplotlib.ticker import MaxNLocator

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 4), layout="constrained")
    whole = all(float(v).is_integer() for v in values)
    if whole and values and max(values) - min(values) <= 40:
        bins: Any = [v - 0.5 for v in range(int(min(values)), int(max(values)) + 2)]
    else:
        bins = min(40, max(5, len(values) // 4))
    ax.hist(values, bins=bins, color="#3b7dd8", edgecolor="white", label="games")
    if values:
        mean = sum(values) / len(values)
        ax.axvline(mean, color="black", linestyle="--", label=f"mean {mean:,.1f}")
        fig.legend(loc="outside right upper")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if whole:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    notes = [note] if note else []
    if values and min(values) == max(values):
        about_constant(ax.xaxis, ax.set_xlim, float(values[0]), whole)
        notes.append(f"every game: {float(values[0]):,g} {label}")
    ax.set_xlabel(label)
    ax.set_ylabel("games")
    ax.set_title(title + "".join("\n" + n for n in notes), fontsize="medium")
    return fig


def about_constant(axis: Any, set_limits: Callable[[float, float], Any], value: float, whole: bool) -> None:
    """An axis for data that is one value throughout: that value in the middle, round ticks, and at least one
    unit either side (matplotlib alone gives a span of a tenth, ticks in hundredths)."""
    from matplotlib.ticker import MaxNLocator

    margin = max(1.0, abs(value) * CONSTANT_MARGIN)
    set_limits(value - margin, value + margin)
    axis.set_major_locator(MaxNLocator(nbins=4, integer=whole))


def plot_learning_curve(path: Path, history: Sequence[dict[str, Any]], title: str, label: str) -> None:
    """Write :func:`learning_curve_figure` to ``path``."""
    save_figure(learning_curve_figure(history, title, label), path)


def learning_curve_figure(history: Sequence[dict[str, Any]], title: str, label: str) -> Any:
    """The rating of the weights being tuned, generation by generation, in the game's units (``label``)."""
    from matplotlib.ticker import MaxNLocator

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 4), layout="constrained")
    gens = [h["generation"] for h in history]
    ax.plot(gens, [h["rating"] for h in history], marker="o", label="tuned weights")
    if history and "best_rating" in history[0]:
        ax.plot(gens, [h["best_rating"] for h in history], marker=".", linestyle=":", label="best candidate")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ratings = [h["rating"] for h in history] + [h["best_rating"] for h in history if "best_rating" in h]
    if ratings and min(ratings) == max(ratings):
        about_constant(ax.yaxis, ax.set_ylim, float(ratings[0]), float(ratings[0]).is_integer())
        title += f"\nevery generation: {float(ratings[0]):,g}"
    ax.set_xlabel("generation")
    ax.set_ylabel(f"mean {label} per game")
    ax.set_title(title, fontsize="medium")
    fig.legend(loc="outside right upper")
    return fig
