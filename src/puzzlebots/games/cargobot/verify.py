"""Does a program win a level? The one check the solver and its progress file believe a program by.

A plain level is played on the game interpreter (``engine.run_level``). A sub-problem (``Level.subproblem``:
Elizarov's "Simplified" levels, several boards, poison crates, the program must finish) is played board after
board on the readable interpreter (``oracle.run_game``), which knows its two extra rules; the fast engine does
not, as no game level has them.
"""

from __future__ import annotations

from .engine import GAME_TICK_LIMIT, Rules, run_level
from .language import RegisterProgram
from .levels import Level
from .oracle import run_game
from .report import RunReport


def play_out(level: Level, program: RegisterProgram, tick_limit: int = GAME_TICK_LIMIT) -> RunReport:
    """The run of ``program`` on ``level``: solved only if it wins every board, within ``tick_limit`` ticks in all
    (a sub-problem's boards share them, as in the solver). The report is the last board's, its ticks summed."""
    if not level.subproblem:
        return run_level(level, program, Rules(step_limit=tick_limit))
    level.check_program(program)
    ticks, report = 0, None
    for claw, stacks, goal in level.boards():
        report = run_game(
            program,
            level.functions,
            [list(p) for p in stacks],
            [list(p) for p in goal],
            claw,
            tick_limit=tick_limit - ticks,
            poison=level.poison,
            finish=level.finish,
            home=level.home,
        )
        ticks += report.steps
        if not report.solved:
            break
    assert report is not None
    return RunReport(
        report.semantics,
        report.outcome,
        ticks,
        report.moves,
        report.crashes,
        report.topples,
        report.stacks,
        report.claw,
        report.holding,
    )
