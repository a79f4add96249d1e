"""Options several commands share, and the checks that refuse a meaningless combination before any work."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import click
from click.core import ParameterSource

from ..core.errors import ConfigError
from ..core.seeds import MAX_SEED
from ..core.workers import EXECUTORS, check_executor, default_jobs
from .figures import image_formats
from .output import OutputPath

F = TypeVar("F", bound=Callable[..., Any])


class FiniteFloat(click.FloatRange):
    """The one float option type: finite and within bounds on both sides (``nan`` compares false with any bound,
    so a plain ``FloatRange`` lets it through; ``1e308`` overflows whatever it is multiplied by)."""

    def __init__(self, min: float, max: float, min_open: bool = False, max_open: bool = False) -> None:
        super().__init__(min, max, min_open, max_open)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        rv = super().convert(value, param, ctx)
        if not math.isfinite(rv):
            self.fail(f"{rv} is not a finite number", param, ctx)
        return rv


#: the longest time an option may give, in seconds: a year
MAX_SECONDS = 365 * 24 * 3600.0


class GameOption(click.Option):
    """A game's own config option: its default is None (the key keeps the game's default unless given), so its
    help shows ``shown`` instead (the game's default and, where the type does not show it, the domain)."""

    def __init__(self, *args: Any, shown: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shown = shown

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        record = super().get_help_record(ctx)
        if record is None:
            return None
        spec, text = record
        if text.endswith("]") and "  [" in text:  # click's own extras (a range): ours go first in the same brackets
            head, _, extra = text.rpartition("  [")
            return spec, f"{head}  [{self.shown}; {extra}"
        return spec, f"{text}  [{self.shown}]"


#: seconds between two drawn steps: 0 (as fast as possible) up to a minute
DELAY = FiniteFloat(min=0, max=60)
#: the one seed option type: every seed a command takes is one a replay file may name (``core.seeds``)
SEED = click.IntRange(0, MAX_SEED)


def given(ctx: click.Context, name: str) -> bool:
    """Whether the user set parameter ``name`` (on the command line or through the environment)."""
    return ctx.get_parameter_source(name) in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)


def refuse_given(ctx: click.Context, names: Iterable[str], why: str) -> None:
    """``ConfigError`` for the first of ``names`` the user set: that option would be silently ignored."""
    flags = {p.name: p.opts[0] for p in ctx.command.params}
    for name in names:
        if given(ctx, name):
            raise ConfigError(f"{flags[name]} {why}")


def executor_options(command: F) -> F:
    """Add ``--jobs``, ``--executor`` and ``--address`` and check them together before the command runs.

    They mean the same in every command that plays many games (``stats``, ``train``, ``versus``,
    ``cargobot solve``): ``core.batch.make_executor`` builds the executor from them.
    """

    @functools.wraps(command)
    def checked(*args: Any, jobs: int | None, executor: str, address: str | None, **kwargs: Any) -> Any:
        check_executor(executor, jobs, address)
        return command(*args, jobs=jobs, executor=executor, address=address, **kwargs)

    options = [
        click.option(
            "--jobs",
            type=click.IntRange(min=1),
            default=None,
            help=f"Worker processes (default: one per usable core; at most that, {default_jobs()} here). "
            "With --executor ray --address the cluster decides.",
        ),
        choice_option("--executor", EXECUTORS, "process", "Where the work runs: a local process pool or Ray."),
        click.option(
            "--address", default=None, help="With --executor ray: the cluster to join (default: start a local Ray)."
        ),
    ]
    for option in reversed(options):
        checked = option(checked)
    return checked  # type: ignore[return-value]


def defaulted_option(flag: str, kind: click.ParamType, default: Any, help: str) -> Callable[[F], F]:
    """An option of type ``kind`` whose default ``--help`` shows."""
    return click.option(flag, type=kind, default=default, show_default=True, help=help)


def choice_option(flag: str, choices: Sequence[str], default: str, help: str) -> Callable[[F], F]:
    """An option that takes one of ``choices``, its default shown in ``--help``."""
    return defaulted_option(flag, click.Choice(choices), default, help)


def seed_option(help: str) -> Callable[[F], F]:
    """``--seed``: the first seed a command plays (0 unless given; any seed a replay file may name)."""
    return click.option("--seed", type=SEED, default=0, show_default=True, help=help)


def json_option(help: str) -> Callable[[F], F]:
    """``--json FILE`` (parameter ``json_path``): where a command writes its results."""
    return click.option("--json", "json_path", type=OutputPath(), default=None, help=help)


def plot_option(what: str) -> Callable[[F], F]:
    """``--plot FILE``: ``what`` drawn as an image in the format its suffix names."""
    help = f"{what}, as an image (png, svg, pdf, ... by its suffix)."
    return click.option("--plot", type=OutputPath(image_formats), default=None, help=help)


def max_actions_option(help: str) -> Callable[[F], F]:
    """``--max-actions N``: a cap on the decisions of each game (none unless given)."""
    return click.option("--max-actions", type=click.IntRange(min=1), default=None, help=help)


#: ``--quiet``: no progress bar
quiet_option = click.option("--quiet", is_flag=True, help="No progress bar.")
