"""The ``cargobot`` commands (mounted as ``puzzlebots cargobot``): ``levels`` and ``sketch`` here, ``solve`` from
``solve_cli``, ``run`` and ``climb`` from ``run_cli``, ``evolve`` and ``bench-gp`` from ``gp_cli``.

Bad input raises ``PuzzlebotsError``; the top-level ``puzzlebots`` group turns it into one ``error: ...`` line on
stderr and exit code 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from puzzlebots.command_parts.options import (
    SEED,
    FiniteFloat,
    defaulted_option,
    executor_options,
)
from puzzlebots.command_parts.output import OutputPath, write_json_atomic
from puzzlebots.command_parts.terminal import print_fitted

from . import campaign
from .bots.sketch import ITERATIONS as SKETCH_ITERATIONS
from .bots.sketch import MAX_SECONDS as SKETCH_MAX_SECONDS
from .bots.sketch import MAX_TICK_CAP as SKETCH_MAX_TICK_CAP
from .bots.sketch import TICK_CAP as SKETCH_TICK_CAP
from .bots.sketch import sketch as run_sketch
from .gp_cli import bench_gp, evolve
from .language import format_registers
from .levels import Level, find_level, load_levels
from .run_cli import LEVELS_FILE, climb, run
from .solve_cli import solve


@click.command(help="The table of levels.")
@LEVELS_FILE
@click.option("--json", "as_json", is_flag=True, help="Print the levels as JSON.")
def levels(levels_file: str | None, as_json: bool) -> None:
    rows = load_levels(levels_file)
    if as_json:
        click.echo(json.dumps([_level_row(lv) for lv in rows], indent=1))
        return
    table = Table(title="Cargo-Bot levels")
    for col in (
        "pack",
        "#",
        "level",
        "claw",
        "piles",
        "crates",
        "conditions",
        "functions",
        "2/3-star sizes, designer's",
        "best",
    ):
        table.add_column(col)
    for lv in rows:
        r = _level_row(lv)
        table.add_row(
            lv.pack,
            str(lv.number or ""),
            lv.name,
            str(lv.claw),
            f"{r['piles']}" + (f" (board 1 of {r['boards']})" if r["boards"] > 1 else ""),
            str(r["crates"]),
            ",".join(lv.conditions) or "-",
            "/".join(map(str, lv.functions)),
            "{}/{}/{}".format(*lv.stars),
            str(lv.best_known or "-"),
        )
    print_fitted(Console(), table)


def _level_row(lv: Level) -> dict[str, Any]:
    return {
        "pack": lv.pack,
        "number": lv.number,
        "name": lv.name,
        "claw": lv.claw,
        "piles": len(lv.stacks),
        "crates": sum(map(len, lv.stacks)),
        "conditions": list(lv.conditions),
        "functions": list(lv.functions),
        "stars": list(lv.stars),
        "best_known": lv.best_known,
        "boards": len(lv.boards()),
    }


@click.command(
    help="Find a winning program (game semantics) by a search over program sketches; not proven smallest. "
    "Restarts run on --jobs worker processes or as Ray tasks (--executor ray, --address): the same seed "
    "finds the same programs on any of them, unless the time limit cuts the search short."
)
@click.option("--level", "level_name", required=True, help="Level name.")
@defaulted_option(
    "--time-limit",
    FiniteFloat(min=0, max=SKETCH_MAX_SECONDS, min_open=True),
    300.0,
    "Seconds for the whole search, shrinking included.",
)
@defaulted_option("--seed", SEED, 0, "Seed of the restarts (the same seed draws the same sketches and fillings).")
@defaulted_option(
    "--tick-cap",
    click.IntRange(1, SKETCH_MAX_TICK_CAP),
    SKETCH_TICK_CAP,
    "Most ticks of one run while searching (a program needing more is not found).",
)
@defaulted_option(
    "--iterations", click.IntRange(1, 10**9), SKETCH_ITERATIONS, "Programs run by one restart's local search."
)
@click.option(
    "--stop-at",
    type=click.IntRange(1, 1000),
    default=None,
    help="Stop at a program of at most this many registers (default: the best known size).",
)
@executor_options
@click.option("--json", "json_file", type=OutputPath(), default=None, help="Write the result here.")
@LEVELS_FILE
def sketch(
    level_name: str,
    time_limit: float,
    seed: int,
    tick_cap: int,
    iterations: int,
    stop_at: int | None,
    jobs: int | None,
    executor: str,
    address: str | None,
    json_file: Path | None,
    levels_file: str | None,
) -> None:
    level = find_level(level_name, load_levels(levels_file))
    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(f"sketching {level.name}", total=time_limit)

        def show(elapsed: float, best: int | None, restarts: int) -> None:
            size = f"best size {best}" if best else "no program yet"
            progress.update(task, completed=elapsed, description=f"{level.name}: {size}, restart {restarts + 1}")

        result = run_sketch(
            level,
            seed,
            time_limit,
            tick_cap,
            iterations,
            stop_at,
            progress=show,
            jobs=campaign.Plan(jobs=jobs, executor=executor).sketch_jobs,
            executor=executor,
            address=address,
        )
    if result.interrupted:
        click.echo("interrupted: the best program found so far", err=True)
    if result.solved:
        click.echo(
            f"{level.name}: solved with {level.rating(result.program or ())}; best known "
            f"{level.best_known or '-'}, first found {result.found_size}; {result.ticks} ticks"
        )
        click.echo(f"program: {format_registers(result.program)}")  # type: ignore[arg-type]
    else:
        click.echo(f"{level.name}: no program found")
    click.echo(
        f"method sketch, minimality not proven; {result.restarts} restarts, {result.evaluations} programs "
        f"run, {result.seconds:.1f} s"
    )
    if json_file is not None:
        write_json_atomic(json_file, result.to_json() | {"pack": level.pack, "best_known": level.best_known})


COMMANDS = (levels, run, solve, sketch, climb, evolve, bench_gp)
