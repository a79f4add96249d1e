"""A record hunt on Cargo-Bot's open levels with ``solve --fix``: give all but one or two functions of the best known
program whole, search the others exhaustively below the best known size, and print what each search reached.

This is how Genetic Code's 11 was found (Elizarov's F2 given, F1 searched: 7 registers where his has 8). The best
known programs are those of his ``CargoBotSolver.txt`` (authors below), in our script syntax; each is checked to win
before its searches start.

    python benchmarks/cargobot_fix_hunt.py [--seconds 60] [--level NAME]
"""

from __future__ import annotations

import itertools
import sys
import time

from rich.console import Console
from rich.table import Table

from puzzlebots.games.cargobot.bots import solve as solver
from puzzlebots.games.cargobot.bots.hints import parse_hints
from puzzlebots.games.cargobot.engine import run_level
from puzzlebots.games.cargobot.language import RegisterProgram, format_registers, parse_registers, register_count
from puzzlebots.games.cargobot.levels import find_level

#: the best known programs of the five open levels, from Elizarov's file, and who found them
BEST_KNOWN = {
    "Genetic Code": "call2 call2_none call1_any R_none claw L_any call2_any call2_any "
    "prog_2 claw L_none claw R",  # his solver, under his hand-set hints
    "Restoring Order": "call2 R call1 prog_2 R claw call3_red L call3_any call2_any "
    "prog_3 claw_blue call2 claw call3_red",  # his solver
    "Palette Swap": "call4 call2_any call1 prog_2 call3 call2_any call3 "
    "prog_3 claw L claw L call4 call4 prog_4 claw R",  # Jan Achrenius
    "Multi Sort 2": "claw_blue call4 claw_red call4 claw_green call4 claw_yellow call2 "
    "prog_2 call3 call3 call1 prog_3 L L L prog_4 R claw_none R",  # Quinn Mahoney
    "Vertical Sort": "claw call2_any R call1 prog_2 call3_blue call4_green claw call2_any call4_none call4_blue "
    "call3_none claw prog_3 R claw L prog_4 L claw R",  # Markus Mühlberger
}


def given_text(program: RegisterProgram, searched: tuple[int, ...]) -> str:
    """``--fix`` text: every function of ``program`` but those in ``searched`` (0-based), which are left empty."""
    return format_registers(tuple(() if k in searched else f for k, f in enumerate(program)))


def hunt(name: str, seconds: float) -> list[tuple[str, str, str, str, str]]:
    """One row per search: the functions searched, the sizes exhausted, the program found below the best known."""
    level, program = find_level(name), parse_registers(BEST_KNOWN[name])
    if not run_level(level, program).solved:
        raise SystemExit(f"error: the best known program of {name} does not win")
    best, rows = register_count(program), []
    for k in (1, 2):
        for searched in itertools.combinations(range(len(program)), k):
            if k == len(program):
                continue
            hints = parse_hints(level, None, None, None, given_text(program, searched))
            start = time.monotonic()
            result = solver.solve(level, jobs=1, time_limit=seconds, max_size=best - 1, hints=hints)
            found = format_registers(result.program) if result.program else "-"
            rows.append(
                (
                    name,
                    ", ".join(f"F{f + 1}" for f in searched),
                    f"{result.searched_to} of {best - 1}",
                    found,
                    f"{time.monotonic() - start:.1f}",
                )
            )
    return rows


def main() -> None:
    seconds = float(sys.argv[sys.argv.index("--seconds") + 1]) if "--seconds" in sys.argv else 60.0
    names = [sys.argv[sys.argv.index("--level") + 1]] if "--level" in sys.argv else list(BEST_KNOWN)
    table = Table(title=f"solve --fix on the open levels: the other functions given, {seconds:.0f} s per search")
    for column in ("level", "searched", "sizes exhausted", "program below the best known", "seconds"):
        table.add_column(column)
    console = Console(width=200)
    for name in names:
        for row in hunt(name, seconds):
            table.add_row(*row)
            console.print(" | ".join(row), highlight=False)
    console.print(table)


if __name__ == "__main__":
    main()
