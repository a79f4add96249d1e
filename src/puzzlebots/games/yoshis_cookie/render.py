"""The rich view used by ``puzzlebots watch yoshis_cookie``: the 8 x 8 area with the matrix anchored at the
bottom left, the cursor, the falling L-shaped unit, and a side panel of round, stage, score and meters."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from puzzlebots.core.panel import game_panel

from .bots.lines import AXES, LineBot
from .engine import YoshiState
from .rules import AREA, CELL_LETTERS, EXPERT_NAMES, NORMAL_NAMES, NORMAL_TYPES, SHELL, UNITS_PER_CELL, YOSHI

STYLES = {
    1: "bold red",
    2: "bold yellow",
    3: "bold cyan",
    4: "bold blue",
    5: "bold magenta",
    6: "bold green",
    7: "bold black on green",
}
SIZE = AREA + 1  # one spare row and column show a unit still outside the area


def _cells(state: YoshiState) -> dict[tuple[int, int], tuple[int, str]]:
    """(screen row from the top, screen column) -> (cell code, extra style) for everything visible."""
    cells: dict[tuple[int, int], tuple[int, str]] = {}
    R, C = state.R, state.C
    for i in range(R):
        for j in range(C):
            cells[(SIZE - R + i, j)] = (int(state.grid[i, j]), "")
    inc = state.incoming
    arm_row = SIZE - 1 - min(inc.y // UNITS_PER_CELL, AREA)
    arm_col = min(inc.x // UNITS_PER_CELL, AREA)
    if inc.row_arm is not None:
        for j, v in enumerate(inc.row_arm):
            cells[(arm_row, j)] = (v, "dim")
    if inc.col_arm is not None:
        for i, v in enumerate(inc.col_arm):
            top = SIZE - len(inc.col_arm)
            cells[(top + i, arm_col)] = (v, "dim")
    if inc.corner:
        row = arm_row if inc.row_arm is not None else SIZE - 1 - R
        col = arm_col if inc.col_arm is not None else C
        cells[(row, col)] = (inc.corner, "dim")
    return cells


def render_state(state: YoshiState, bot: Any = None) -> RenderableType:
    """The board and the side panel; a line-building bot's current line (``LineBot.building``) is shown too.

    A finished run has no matrix left to draw (the last stage ends at 0 x 0): its screen is the run's outcome.
    """
    title = f"Yoshi's Cookie - {state.rules.speed} speed"
    if state.is_terminal():
        return game_panel(_final(state), title, "stuck" if state.stuck else "run complete")
    layout = Table.grid(padding=(0, 3))
    layout.add_row(_board(state), _side(state, bot))
    names = {**(EXPERT_NAMES if state.expert else NORMAL_NAMES), YOSHI: "Yoshi", SHELL: "shell"}
    legend = "  ".join(f"{CELL_LETTERS[t]} {n}" for t, n in names.items())
    legend += "\n[X] the cursor; dim: the incoming cookies"
    return game_panel(layout, title, "playing", legend)


def _board(state: YoshiState) -> Text:
    cells = _cells(state)
    cursor = (SIZE - state.R + state.cr, state.cc) if state.R else None
    board = Text()
    for r in range(SIZE):
        for c in range(SIZE):
            code, extra = cells.get((r, c), (0, ""))
            style = STYLES.get(code, "grey37")
            letter = CELL_LETTERS[code]
            if (r, c) == cursor:
                board.append(f"[{letter}]", style=style + " reverse")
            else:
                board.append(f" {letter} ", style=(style + " " + extra).strip())
        if r < SIZE - 1:
            board.append("\n")
    return board


def _side(state: YoshiState, bot: Any) -> Table:
    target = bot.building() if isinstance(bot, LineBot) else None
    side = Table.grid(padding=(0, 1))
    side.add_column(style="bold")
    side.add_column()
    side.add_row("round", f"{state.round} stage {state.stage}{' (expert)' if state.expert else ''}")
    side.add_row("matrix", f"{state.R} x {state.C}")
    side.add_row("score", str(state.counters.score))
    side.add_row("frame", str(state.frame))
    side.add_row("contact in", f"{state.frames_to_contact()} frames")
    side.add_row("continues", str(state.counters.continues))
    names = EXPERT_NAMES if state.expert else NORMAL_NAMES
    for t in NORMAL_TYPES:
        unlit = max(0, int(state.rules.meter_target) - state.meters[t])
        side.add_row(names[t], Text("●" * state.meters[t], style="red") + Text("○" * unlit))
    if target is not None:
        side.add_row("building", f"{AXES[target.axis]} {target.number} of {names.get(target.type, 'shell')}")
    return side


def _final(state: YoshiState) -> Table:
    """The outcome of a finished run, in place of the empty matrix."""
    r = state.result()
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column(justify="right")
    ended = "no: a stage continued too often (stuck)" if state.stuck else "yes: the last stage is cleared"
    table.add_row("run completed", ended)
    table.add_row("last stage", f"round {r['last_round']} stage {r['last_stage']}")
    table.add_row("stages cleared", f"{r['stages_cleared']} of {r['stages_attempted']} started")
    table.add_row("  without a continue", str(r["stages_cleared_first_try"]))
    table.add_row("continues", str(r["continues"]))
    table.add_row("score", f"{r['score']:,}")
    table.add_row("frames", f"{r['frames']:,}")
    table.add_row("longest chain", str(r["max_chain"]))
    return table
