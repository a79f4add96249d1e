"""``puzzlebots serve``: the local web viewer and player."""

from __future__ import annotations

import asyncio
import re
import shlex
import shutil
from collections.abc import Sequence
from pathlib import Path

import click

from ..command_parts.options import FiniteFloat, defaulted_option
from ..core.errors import ConfigError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
#: an engine's name on the command line and on the page: a short word
ENGINE_NAME = re.compile(r"[a-z][a-z0-9_-]{0,15}")


def engine_table(specs: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """The operator's external engines, ``NAME=COMMAND`` each: a short word, and a command split like a shell
    line (never run by a shell) whose program exists; ``ConfigError`` (one line) for anything else."""
    engines: dict[str, tuple[str, ...]] = {}
    for spec in specs:
        name, eq, command = spec.partition("=")
        if not eq or not ENGINE_NAME.fullmatch(name):
            raise ConfigError(
                f"--engine takes NAME=COMMAND with NAME a short word (a-z, 0-9, _ or -, "
                f"at most 16, a letter first), got {spec[:60]!r}"
            )
        if name in engines:
            raise ConfigError(f"--engine {name} is named twice")
        try:
            argv = tuple(shlex.split(command))
        except ValueError as exc:
            raise ConfigError(f"--engine {name}: cannot split its command ({exc})") from exc
        if not argv:
            raise ConfigError(f"--engine {name}: the command is empty")
        if shutil.which(argv[0]) is None:
            raise ConfigError(f"--engine {name}: no program {argv[0][:60]!r} to run")
        engines[name] = argv
    return engines


@click.command("serve", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--host", default=DEFAULT_HOST, show_default=True, help="Address to bind (loopback by default)")
@defaulted_option("--port", click.IntRange(0, 65535), DEFAULT_PORT, "Port (0: any free port, printed once listening)")
@click.option(
    "--replays",
    "replays",
    default="replays",
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder of replay files (.jsonl) the page may open.",
)
@defaulted_option(
    "--time-budget",
    FiniteFloat(0.5, 3600),
    20.0,
    "Seconds one answer to a page may take; a longer one stops that page's game.",
)
@defaulted_option(
    "--max-sessions", click.IntRange(1, 256), 8, "Pages that may be open at once (each has a worker process)."
)
@click.option(
    "--engine",
    "engine_specs",
    multiple=True,
    metavar="NAME=COMMAND",
    help="An external engine a page may play against, by NAME only (Puyo: the bot upi:NAME); "
    "repeatable. COMMAND is split like a shell line and run without a shell, once per game.",
)
def serve(
    host: str, port: int, replays: Path, time_budget: float, max_sessions: int, engine_specs: tuple[str, ...]
) -> None:
    """Serve a local page that shows bots playing, opens replays and offers each game's own page controls
    (playing Puyo against an AI or an external engine, running Cargo-Bot programs). SIGINT (Ctrl+C) or SIGTERM
    stops it within a second."""
    engines = engine_table(engine_specs)
    try:
        from .server import Limits, is_loopback, make_app, run
    except ImportError as exc:
        raise ConfigError(f"serve needs the [web] extra: pip install 'puzzlebots[web]' ({exc})") from exc
    app = make_app(replays, Limits(host=host, time_budget=time_budget, max_sessions=max_sessions), engines)

    def announce(url: str) -> None:
        if not is_loopback(host):
            click.echo(f"warning: binding {host}: the page is reachable from other machines", err=True)
        click.echo(f"puzzlebots: {url}  (replays from {replays.resolve()}; Ctrl+C stops)")
        if engines:
            click.echo(f"engines: {', '.join(sorted(engines))}")

    asyncio.run(run(app, port, announce))
