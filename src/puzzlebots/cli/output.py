"""What the generic commands read and write besides results: weights files, summary tables, plots."""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.table import Table

from ..core.errors import InputError
from ..core.files import write_atomic
from ..core.jsonio import check_number, name_of, read_json, show


@functools.cache
def image_formats() -> tuple[str, ...]:
    """File name suffixes matplotlib can write a figure as (png, svg, pdf, ...)."""
    from matplotlib.backend_bases import FigureCanvasBase

    return tuple(sorted(FigureCanvasBase.get_supported_filetypes()))


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


def plot_histogram(path: Path, values: Sequence[float], label: str, title: str) -> None:
    """Write :func:`histogram_figure` to ``path``."""
    save_figure(histogram_figure(values, label, title), path)


def histogram_figure(values: Sequence[float], label: str, title: str) -> Any:
    """How many games reached each value of the game's main figure (``label``, in the game's own units).

    Counts of games are whole numbers, so is the figure's axis when every value is; the legend sits outside
    the bars.
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
    ax.set_xlabel(label)
    ax.set_ylabel("games")
    ax.set_title(title)
    return fig


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
    ax.set_xlabel("generation")
    ax.set_ylabel(f"mean {label} per game")
    ax.set_title(title)
    fig.legend(loc="outside right upper")
    return fig
