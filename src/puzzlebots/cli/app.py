"""The ``puzzlebots`` command: top-level group, error policy, and the commands that are not per game."""

from __future__ import annotations

import gc
import signal
import sys
from types import FrameType
from typing import Any

import click
from rich.console import Console

from ..command_parts.terminal import print_fitted
from ..core.errors import PuzzlebotsError
from ..core.protocols import Commands
from ..core.registry import game_names, get_game, loadable_games


class Terminated(KeyboardInterrupt):
    """SIGTERM (``kill``, a batch system's or a container's stop) as an interrupt: every path that saves
    progress and stops its workers on Ctrl-C runs for it too, so no result the run had is lost."""


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise Terminated


#: the longest error line printed: a message that quotes a value never floods the terminal
MAX_ERROR = 2000


def error_line(message: str) -> str:
    """``error: <message>`` on one line, cut to ``MAX_ERROR`` characters (values are quoted short where they are
    put into a message; this is the net for any that is not, such as click's echo of an argument)."""
    text = " ".join(message.split("\n"))
    return "error: " + (text if len(text) <= MAX_ERROR else text[: MAX_ERROR - 3] + "...")


class PuzzlebotsGroup(click.Group):
    """A group whose errors are one line and exit code 2, and which mounts each game's own commands.

    Bad input never shows a traceback: usage errors and ``PuzzlebotsError`` print ``error: ...``. Ctrl-C and
    SIGTERM stop a command the same way (exit 130 and 143, as a shell reports them).
    """

    def main(
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        signal.signal(signal.SIGTERM, _terminate)
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:
            # a bare group (``puzzlebots``, ``puzzlebots watch``) asks for its help: print it, no error
            click.echo(exc.format_message())
            sys.exit(0)
        except click.exceptions.UsageError as exc:
            click.echo(error_line(exc.format_message()), err=True)
            sys.exit(2)
        except PuzzlebotsError as exc:
            click.echo(error_line(str(exc)), err=True)
            sys.exit(2)
        except click.exceptions.ClickException as exc:
            click.echo(error_line(exc.format_message()), err=True)
            sys.exit(exc.exit_code)
        except (click.exceptions.Abort, KeyboardInterrupt) as exc:
            gc.freeze()  # a stop is quick: the collection at exit (seconds once numba is loaded) is skipped
            if isinstance(exc, Terminated) or isinstance(exc.__context__, Terminated):  # click's Abort wraps it
                click.echo("terminated", err=True)
                sys.exit(128 + signal.SIGTERM)
            click.echo("interrupted", err=True)
            sys.exit(130)
        sys.exit(rv if isinstance(rv, int) else 0)

    def list_commands(self, ctx: click.Context) -> list[str]:
        own = super().list_commands(ctx)
        return own + [g.name for g in loadable_games() if g.name not in own and isinstance(g, Commands)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        cmd = super().get_command(ctx, cmd_name)
        if cmd is not None or cmd_name not in game_names():
            return cmd
        game = get_game(cmd_name)
        if not isinstance(game, Commands):
            return None
        return GameCommands(game, cmd_name, help=f"{game.title}: commands of its own.")


class GameCommands(click.Group):
    """A game's own commands, loaded when one is asked for: the top-level help lists the group by its title alone,
    so it does not import the modules (and numba kernels) behind the commands."""

    def __init__(self, game: Commands, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.loaded = False

    def load(self) -> None:
        if not self.loaded:
            for c in self.game.extra_commands():
                self.add_command(c)
            self.loaded = True

    def list_commands(self, ctx: click.Context) -> list[str]:
        self.load()
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        self.load()
        return super().get_command(ctx, cmd_name)


@click.group(cls=PuzzlebotsGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="puzzlebots")
def cli() -> None:
    """Faithful simulators of puzzle games and the AIs that play them (`puzzlebots list` shows the games)."""


@cli.command("list")
def list_cmd() -> None:
    """Games and their bots ("from the article": the bot the game's source article describes)."""
    from rich.table import Table  # only here: --help need not import rich's tables

    table = Table(title="puzzlebots games")
    table.add_column("game")
    table.add_column("bot")
    table.add_column("kind")
    table.add_column("what it does")
    for game in loadable_games():
        name = game.name
        for i, bot in enumerate(game.bots()):
            kind = "from the article" if bot.faithful else "ours"
            if bot.weight_names:
                kind += f", {len(bot.weight_names)} weights"
            table.add_row(f"{name}" if i == 0 else "", bot.name, kind, bot.description)
    print_fitted(Console(), table)


def main() -> None:
    """Console-script entry point."""
    cli.main(prog_name="puzzlebots")
