"""Files the CLI reads and writes: weights, result JSON, partial progress, plots."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..core.errors import InputError
from ..core.jsonio import check_number, name_of, read_json, show


def write_json_atomic(path: Path, doc: Any) -> None:
    """Write JSON so that an interrupted run never leaves a half-written file behind."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    os.replace(tmp, path)


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


def read_progress(path: Path, head: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Results of an interrupted ``stats --json`` run with the same arguments, by seed."""
    if not path.exists():
        return {}
    lines = path.read_text().splitlines()
    try:
        old = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        old = None
    if old != json.loads(json.dumps(head, sort_keys=True)):
        raise InputError(f"{path} holds a run with other arguments: delete it or repeat those arguments")
    done: dict[int, dict[str, Any]] = {}
    for line in lines[1:]:
        try:
            r = json.loads(line)
        except json.JSONDecodeError:
            continue  # the line being written when the run was killed
        done[int(r["seed"])] = r
    return done


def plot_histogram(path: Path, values: Sequence[float], label: str, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.hist(values, bins=min(40, max(5, len(values) // 4)), color="#3b7dd8", edgecolor="white")
    if values:
        mean = sum(values) / len(values)
        ax.axvline(mean, color="black", linestyle="--", label=f"mean {mean:.1f}")
        ax.legend()
    ax.set_xlabel(label)
    ax.set_ylabel("games")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_learning_curve(path: Path, history: Sequence[dict[str, Any]], title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    gens = [h["generation"] for h in history]
    ax.plot(gens, [h["rating"] for h in history], marker="o", label="rating of W")
    if history and "best_rating" in history[0]:
        ax.plot(gens, [h["best_rating"] for h in history], marker=".", linestyle=":", label="best candidate")
    ax.set_xlabel("generation")
    ax.set_ylabel("mean fitness on the generation's games")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
