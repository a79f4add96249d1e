"""Cargo-Bot speed: interpreter steps/s (vaguery), ticks/s (game) on long-running programs, and
partial programs tried per second inside the ``solve`` search and the options cut by each pruning rule
(one core each).

Run: python benchmarks/bench_cargobot.py [--quick]
"""

from __future__ import annotations

import sys
import time

import numpy as np
from rich.console import Console
from rich.table import Table

from puzzlebots.games.cargobot.bots import solve as solver
from puzzlebots.games.cargobot.engine import run_game, run_vaguery
from puzzlebots.games.cargobot.kernels import solve as kernel
from puzzlebots.games.cargobot.levels import find_level

NEVER = [["x"], [], [], []]  # a goal no run reaches, so the programs run to their limit
BOARD = [["red", "green", "blue", "red"], ["blue"], [], ["green", "green"]]
PROGRAMS = {
    # name: (script, what it exercises)
    "shuttle": ("claw R claw L call1", "a crate back and forth, tail recursion"),
    "conditional": (
        "call3 call2_none claw_red L_red call1 prog_2 call1_blue R call3 call1 call1_red "
        "prog_3 claw call2_blue R_any L",
        "conditions, three functions, non-tail recursion (found by random search)",
    ),
}


def _rate(run: object, count: int) -> tuple[float, float]:
    start = time.perf_counter()
    done = run()  # type: ignore[operator]
    seconds = time.perf_counter() - start
    assert done == count, (done, count)
    return count / seconds, seconds


def interpreter_table(quick: bool) -> Table:
    limit = 200_000 if quick else 20_000_000
    table = Table(title=f"Cargo-Bot interpreters ({limit:,} steps per run, one core)")
    for col in ("semantics", "program", "what", "steps or ticks", "seconds", "per second"):
        table.add_column(col)
    for name, (script, what) in PROGRAMS.items():
        run_vaguery(script, BOARD, NEVER, 1, step_limit=1000)  # compile outside the timing
        run_game(script, BOARD, NEVER, 1, tick_limit=1000)
        rate, seconds = _rate(lambda s=script: run_vaguery(s, BOARD, NEVER, 1, step_limit=limit).steps, limit)
        table.add_row("vaguery", name, what, f"{limit:,}", f"{seconds:.2f}", f"{rate / 1e6:.1f} M")
        rate, seconds = _rate(lambda s=script: run_game(s, BOARD, NEVER, 1, tick_limit=limit).steps, limit)
        table.add_row("game", name, what, f"{limit:,}", f"{seconds:.2f}", f"{rate / 1e6:.1f} M")
    return table


def solver_tables(quick: bool) -> tuple[Table, Table]:
    """Options tried per second, and (one row per rule) how many options or runs each pruning rule cut."""
    cases = [("Walking Piles", 6), ("Fill The Blanks", 6)] if quick else [("Walking Piles", 7), ("Fill The Blanks", 7)]
    speed = Table(title="Cargo-Bot solve: partial programs tried (search options applied), one core")
    for col in ("level", "budget", "programs tried", "seconds", "per second"):
        speed.add_column(col)
    cuts = Table(title="Cargo-Bot solve: options (or runs) cut by each pruning rule, same searches")
    cuts.add_column("rule")
    rows = [[name] for name in (*kernel.PRUNE_NAMES, "tick cap")]
    for name, budget in cases:
        cuts.add_column(f"{name} ({budget})", justify="right")
        setup = solver.prepare(find_level(name))
        solver.run_task(setup, 2, (), 10**12)  # compile outside the timing
        start = time.perf_counter()
        _, _, counters = solver.run_task(setup, budget, (), 10**12, all_counters=True)
        seconds = time.perf_counter() - start
        nodes = int(counters[kernel.NODES])
        speed.add_row(name, str(budget), f"{nodes:,}", f"{seconds:.2f}", f"{nodes / seconds / 1e6:.2f} M")
        for row, k in zip(rows, [*range(kernel.PR_ORDER, kernel.NCOUNTERS), kernel.CAP_HITS], strict=True):
            row.append(f"{int(counters[k]):,}")
    for row in rows:
        cuts.add_row(*row)
    return speed, cuts


def main(quick: bool = False) -> None:
    console = Console()
    np.random.seed(0)
    console.print(interpreter_table(quick))
    for table in solver_tables(quick):
        console.print(table)


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
