"""Cargo-Bot on the page: list the levels, run a program in the original game's semantics, and send the
frames of the claw's work so the page can animate it, with the stars the program earns.

The game's machine reports only the end of a run, so the frames come from re-running the program with a
tick budget of 1, 2, 3, ... ticks (each run stops after that many ticks and reports the board): the page
shows exactly what the engine computes, and no second interpreter exists to disagree with it.
"""

from __future__ import annotations

from typing import Any

from ..games.cargobot.language import parse_registers, register_count
from ..games.cargobot.levels import Level, find_level, load_levels
from ..games.cargobot.machine import run_level

#: runs longer than this many ticks are shown as their first frames and the end
MAX_TRACE_TICKS = 1500
COLOURS = {"red": "#d33", "green": "#3a3", "blue": "#36d", "yellow": "#eb2", "orange": "#f80", "purple": "#93c"}
STAR_NOTES = {4: "the designer's solution size", 5: "shorter than the designer's solution"}


def level_list() -> dict[str, Any]:
    return {
        "type": "cargo_levels",
        "levels": [{"name": lv.name, "title": f"{lv.label}: {lv.name}", "pack": lv.pack} for lv in load_levels()],
    }


def board_view(level: Level, stacks: list[list[str]], claw: int, holding: str | None) -> dict[str, Any]:
    return {
        "kind": "cargo",
        "stacks": stacks,
        "claw": {"pos": claw - 1, "holding": holding},
        "goal": level.goal_board(),
        "colors": COLOURS,
    }


def level_frame(name: str) -> dict[str, Any]:
    level = find_level(name)
    stars = "/".join(str(s) for s in level.stars)
    info = f"{level.label}: {level.name}. Registers for 1/2/3 stars: {stars}."
    if level.hint:
        info += f" Hint: {level.hint}."
    return {
        "type": "cargo_level",
        "view": board_view(level, level.board(), level.claw, None),
        "info": info,
        "example": "",
    }


def run(name: str, program_text: str) -> dict[str, Any]:
    """Run ``program_text`` on level ``name``: the frames, the outcome, and the stars if it is solved."""
    level = find_level(name)
    program = parse_registers(program_text)
    final = run_level(level, program)
    frames = [board_view(level, level.board(), level.claw, None)]
    for ticks in range(1, min(final.steps, MAX_TRACE_TICKS) + 1):
        report = run_level(level, program, step_limit=ticks)
        view = board_view(level, report.stacks, report.claw, report.holding)
        if view != frames[-1]:
            frames.append(view)
    last = board_view(level, final.stacks, final.claw, final.holding)
    if last != frames[-1]:
        frames.append(last)
    registers = register_count(program)
    stars = level.stars_for(program) if final.solved else 0
    if final.solved:
        message = f"solved in {final.steps} ticks with {registers} registers: {min(stars, 3)} stars"
        if stars in STAR_NOTES:
            message += f" ({STAR_NOTES[stars]})"
    else:
        message = f"not solved: {final.outcome.replace('_', ' ')} after {final.steps} ticks"
    return {
        "type": "cargo_run",
        "frames": frames,
        "solved": final.solved,
        "outcome": final.outcome,
        "stars": stars,
        "registers": registers,
        "ticks": final.steps,
        "message": message,
    }
