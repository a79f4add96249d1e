"""``puzzlebots serve``: the local web viewer and player."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import click

from ..core.errors import ConfigError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@click.command("serve")
@click.option("--host", default=DEFAULT_HOST, show_default=True, help="Address to bind (loopback by default)")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(0, 65535), help="Port")
@click.option(
    "--replays",
    "replays",
    default="replays",
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder of replay files (.jsonl) the page may open.",
)
def serve(host: str, port: int, replays: Path) -> None:
    """Serve a local page that shows bots playing, lets you play Puyo against an AI, runs Cargo-Bot
    programs and opens replays."""
    try:
        from aiohttp import web

        from .server import make_app
    except ImportError as exc:
        raise ConfigError(f"serve needs the [web] extra: pip install 'puzzlebots[web]' ({exc})") from exc
    if not is_loopback(host):
        click.echo(f"warning: binding {host}: the page is reachable from other machines", err=True)
    click.echo(f"puzzlebots: http://{host}:{port}/  (replays from {replays.resolve()}; Ctrl+C stops)")
    web.run_app(make_app(replays), host=host, port=port, print=None)
