"""What every ``match`` command shares: its options, the resumable progress file, the printed tables.

A game's ``match`` command checks its own bots and config, then hands :func:`play_match` the function that plays
one game (``core.match.PlayGame``); the pairs, the statistics and the SPRT are ``core.match``'s.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.table import Table

from ..core.errors import ConfigError, InputError
from ..core.files import beside
from ..core.jsonio import show
from ..core.match import PlayGame, Sides, Sprt, run_match, summarize, valid_pair
from ..core.workers import MAX_GAMES
from .options import (
    FiniteFloat,
    defaulted_option,
    executor_options,
    json_option,
    quiet_option,
    refuse_given,
    seed_option,
)
from .output import progress_log, read_progress, write_json_atomic

F = TypeVar("F", bound=Callable[..., Any])


class EloBounds(click.ParamType):
    """``ELO0,ELO1``: the SPRT's two hypotheses, finite numbers with ELO0 < ELO1."""

    name = "ELO0,ELO1"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> tuple[float, float]:
        if isinstance(value, tuple):
            return value
        parts = str(value).split(",")
        try:
            bounds = tuple(float(p) for p in parts)
        except ValueError:
            bounds = ()
        if len(bounds) != 2 or not all(math.isfinite(b) for b in bounds):
            self.fail(f"takes two Elo numbers like 0,10, got {str(value)[:40]!r}", param, ctx)
        if bounds[0] >= bounds[1]:
            self.fail(f"ELO0 must be below ELO1, got {bounds[0]:g},{bounds[1]:g}", param, ctx)
        return bounds[0], bounds[1]


#: an error rate of the SPRT: above 0, below 0.5
RATE = FiniteFloat(min=0, max=0.5, min_open=True, max_open=True)


def match_options(command: F) -> F:
    """``--games``, ``--seed``, ``--ms``, ``--sprt``, ``--alpha``, ``--beta``, the executor options, ``--json``
    and ``--quiet``, as every ``match`` command reads them."""
    options = [
        defaulted_option(
            "--games",
            click.IntRange(2, MAX_GAMES),
            100,
            "Games to play, an even number: one pair per seed, the sides swapped in the second game.",
        ),
        seed_option("First seed: pair k plays seed+k (the same seeds give the same games)."),
        click.option(
            "--ms",
            type=click.IntRange(1, 3_600_000),
            default=None,
            help="Think time per move in milliseconds, the same for both bots (config key think_ms: "
            "a bot that plays by the clock reads it; the others play as always, and it is recorded).",
        ),
        click.option(
            "--sprt",
            type=EloBounds(),
            default=None,
            help="Sequential test of H0: Elo = ELO0 against H1: Elo = ELO1 (A minus B, logistic Elo): "
            "the match stops once it decides.",
        ),
        defaulted_option("--alpha", RATE, 0.05, "With --sprt: the chance of accepting H1 when H0 is true."),
        defaulted_option("--beta", RATE, 0.05, "With --sprt: the chance of accepting H0 when H1 is true."),
        executor_options,
        json_option("Write every pair and the summary here. An interrupted run resumes from FILE.partial."),
        quiet_option,
    ]
    for option in reversed(options):
        command = option(command)
    return command


def match_sprt(games: int, sprt: tuple[float, float] | None, alpha: float, beta: float) -> Sprt | None:
    """Refuse an odd ``--games`` and error rates without a test; the test asked for, if any."""
    if games % 2:
        raise ConfigError(f"--games must be even (pairs of games on one seed, sides swapped), got {games}")
    if sprt is None:
        refuse_given(click.get_current_context(), ["alpha", "beta"], "is an error rate of the test: give --sprt")
        return None
    return Sprt(sprt[0], sprt[1], alpha, beta)


def play_match(
    play: PlayGame,
    bots: tuple[str, str],
    args: tuple[Any, ...],
    head: dict[str, Any],
    *,
    games: int,
    seed: int,
    sprt: Sprt | None,
    jobs: int | None,
    executor: str,
    address: str | None,
    json_path: Path | None,
    quiet: bool,
    sides: Sides | None = None,
    labels: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """Play the match of ``games // 2`` pairs from ``seed``, print its tables, write ``json_path``; the document.

    ``head`` (JSON) names everything the games depend on besides ``bots``, seeds and test; a progress file
    ``json_path.partial`` of the same head resumes, one of another head is refused. ``sides`` are config
    overrides each bot plays with on top of the shared config (A's, B's), recorded in the head. ``labels`` name
    the two in the tables and the summary (a bot against itself with other settings), ``bots`` otherwise.
    """
    seeds = range(seed, seed + games // 2)
    head = {**head, "bots": list(bots), "seeds": [seed, games], "sprt": sprt.as_dict() if sprt else None}
    if sides is not None:
        head["sides"] = [dict(side) for side in sides]
    progress_file = beside(json_path, ".partial") if json_path else None
    done = read_progress(progress_file, head, seeds, checked_pair) if progress_file else {}
    with progress_log(progress_file, head, resumed=bool(done)) as keep:
        outcome = run_match(
            play,
            *bots,
            seeds,
            args,
            sprt=sprt,
            done=done,
            on_pair=keep,
            jobs=jobs,
            executor=executor,
            address=address,
            progress=not quiet,
            sides=sides,
        )
    shown = labels or bots
    summary = summarize(shown, outcome, sprt)
    doc = {**head, "pairs": outcome.pairs, "summary": summary}
    console = Console()
    console.print(match_table(summary, f"{shown[0]} vs {shown[1]}, {summary['pairs']} pairs from seed {seed}"))
    for line in summary_lines(summary):
        console.print(line, highlight=False, soft_wrap=True)  # a line of figures stays whole in a pipe
    if json_path is not None:
        write_json_atomic(json_path, doc)
        if progress_file is not None:
            with suppress(OSError):  # a name someone else took meanwhile is theirs to clear
                progress_file.unlink()
    return doc


def checked_pair(value: Any, where: str) -> dict[str, Any]:
    """A game pair read back from a partial file, or ``InputError``: two games of its seed, each with a winner."""
    seed = value.get("seed") if isinstance(value, dict) else None
    if not valid_pair(value, seed):  # type: ignore[arg-type]
        raise InputError(f"{where}: not a pair of two games of one seed with a winner each: {show(value)}")
    return value


def match_table(summary: dict[str, Any], title: str) -> Table:
    """Wins, draws, losses and score per bot."""
    table = Table(title=title, title_justify="left")
    for col in ("bot", "wins", "draws", "losses", "score"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for i, bot in enumerate(summary["bots"]):
        score = summary["score"] if i == 0 else None if summary["score"] is None else 1 - summary["score"]
        table.add_row(
            bot,
            str(summary["wins"][i]),
            str(summary["draws"]),
            str(summary["losses"][i]),
            "-" if score is None else f"{score:.1%}",
        )
    return table


def summary_lines(summary: dict[str, Any]) -> Sequence[str]:
    """The pentanomial, the Elo difference with its interval, and the test's state, one line each."""
    a, b = summary["bots"]
    lines = [
        f"{summary['games']} games in {summary['pairs']} pairs; pairs by A's points 0,1/2,1,3/2,2: "
        f"{' '.join(map(str, summary['pentanomial']))}"
    ]
    if "elo" in summary:
        elo, low, high = (signed(summary[k]) for k in ("elo", "elo_low", "elo_high"))
        lines.append(f"Elo {a} - {b}: {elo}, 95% interval [{low}, {high}], chance {a} is stronger {summary['los']:.1%}")
    test = summary.get("sprt")
    if test is not None:
        verdict = {"H1": f"H1 accepted (Elo {test['elo1']:g})", "H0": f"H0 accepted (Elo {test['elo0']:g})"}.get(
            test["decision"], "no decision"
        )
        llr = "-" if test["llr"] is None else f"{test['llr']:.3f}"
        lines.append(
            f"SPRT Elo {test['elo0']:g} vs {test['elo1']:g}, alpha {test['alpha']:g}, beta {test['beta']:g}:"
            f" {verdict}; LLR {llr} in [{test['lower']:.3f}, {test['upper']:.3f}]"
        )
    return lines


def signed(elo: float) -> str:
    """An Elo figure to one decimal with its sign, +0.0 for a difference that rounds to nothing."""
    return f"{round(elo, 1) + 0.0:+.1f}"
