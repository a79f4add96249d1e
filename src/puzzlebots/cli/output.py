"""What the generic commands read and write besides results: weights files, summary tables, plots."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.table import Table

from ..command_parts.figures import pyplot, save_figure
from ..core.errors import InputError
from ..core.jsonio import check_number, name_of, read_json, show


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

    plt = pyplot()
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

    plt = pyplot()
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
