"""What a command that draws needs: the image formats an output option takes, and writing a figure safely."""

from __future__ import annotations

import functools
import io
from pathlib import Path
from typing import Any

from ..core.files import write_atomic


@functools.cache
def image_formats() -> tuple[str, ...]:
    """File name suffixes matplotlib can write a figure as (png, svg, pdf, ...)."""
    from matplotlib.backend_bases import FigureCanvasBase

    return tuple(sorted(FigureCanvasBase.get_supported_filetypes()))


def pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend (no display), imported on first use."""
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
        pyplot().close(fig)
    write_atomic(path, buffer.getvalue())
