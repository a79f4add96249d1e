"""``puzzlebots serve``: the local web viewer and player."""

from __future__ import annotations

import asyncio
from pathlib import Path

import click

from ..command_parts.options import FiniteFloat
from ..core.errors import ConfigError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


@click.command("serve", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--host", default=DEFAULT_HOST, show_default=True, help="Address to bind (loopback by default)")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(0, 65535),
              help="Port (0: any free port, printed once listening)")
@click.option(
    "--replays",
    "replays",
    default="replays",
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder of replay files (.jsonl) the page may open.",
)
@click.option("--time-budget", default=20.0, show_default=True, type=FiniteFloat(0.5, 3600),
              help="Seconds one answer to a page may take; a longer one stops that page's game.")
@click.option("--max-sessions", default=8, show_default=True, type=click.IntRange(1, 256),
              help="Pages that may be open at once (each has a worker process).")
def serve(host: str, port: int, replays: Path, time_budget: float, max_sessions: int) -> None:
    """Serve a local page that shows bots playing, opens replays and offers each game's own page controls
    (playing Puyo against an AI, running Cargo-Bot programs). SIGINT (Ctrl+C) or SIGTERM stops it within a
    second."""
    try:
        from .server import Limits, is_loopback, make_app, run
    except ImportError as exc:
        raise ConfigError(f"serve needs the [web] extra: pip install 'puzzlebots[web]' ({exc})") from exc
    app = make_app(replays, Limits(host=host, time_budget=time_budget, max_sessions=max_sessions))

    def announce(url: str) -> None:
        if not is_loopback(host):
            click.echo(f"warning: binding {host}: the page is reachable from other machines", err=True)
        click.echo(f"puzzlebots: {url}  (replays from {replays.resolve()}; Ctrl+C stops)")

    asyncio.run(run(app, port, announce))
