"""Cargo-Bot on the page: list the levels, run a program in the original game's semantics, and send the
frames of the claw's work so the page (``web/view.js``, the ``cargo`` drawing) can animate it, with the stars
the program earns.

Cargo-Bot has no seeded episodes, so what the page draws is a :class:`Snapshot`: a level's board at one tick.
The game's machine reports only the end of a run, so the frames come from re-running the program with a
tick budget of 1, 2, 3, ... ticks (each run stops after that many ticks and reports the board): the page
shows exactly what the engine computes, and no second interpreter exists to disagree with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from puzzlebots.core.messages import field_of
from puzzlebots.core.protocols import JSON

from .engine import run_level
from .language import parse_registers, register_count
from .levels import Level, find_level, load_levels

#: runs longer than this many ticks are shown as their first frames and the end
MAX_TRACE_TICKS = 1500
COLOURS = {"red": "#d33", "green": "#3a3", "blue": "#36d", "yellow": "#eb2", "orange": "#f80", "purple": "#93c"}
STAR_NOTES = {4: "the designer's solution size", 5: "shorter than the designer's solution"}


@dataclass(frozen=True)
class Snapshot:
    """A level's board at one tick: the stacks (bottom first), the claw's slot (1-based) and what it holds."""

    level: Level
    stacks: list[list[str]]
    claw: int
    holding: str | None = None

    @classmethod
    def start(cls, level: Level) -> Snapshot:
        return cls(level, level.board(), level.claw)


def board(snap: Snapshot) -> dict[str, Any]:
    """The ``cargo`` drawing: the stacks, the claw, and the level's goal beneath."""
    return {
        "kind": "cargo",
        "stacks": snap.stacks,
        "claw": {"pos": snap.claw - 1, "holding": snap.holding},
        "goal": snap.level.goal_board(),
        "colors": COLOURS,
    }


def level_list() -> dict[str, Any]:
    return {"levels": [{"name": lv.name, "title": f"{lv.label}: {lv.name}", "pack": lv.pack} for lv in load_levels()]}


def level_frame(name: str) -> dict[str, Any]:
    level = find_level(name)
    stars = "/".join(str(s) for s in level.stars)
    info = f"{level.label}: {level.name}. Registers for 1/2/3 stars: {stars}."
    if level.hint:
        info += f" Hint: {level.hint}."
    return {"view": board(Snapshot.start(level)), "info": info, "example": ""}


def run(name: str, program_text: str) -> dict[str, Any]:
    """Run ``program_text`` on level ``name``: the frames, the outcome, and the stars if it is solved."""
    level = find_level(name)
    program = parse_registers(program_text)
    final = run_level(level, program)
    frames = [board(Snapshot.start(level))]
    for ticks in range(1, min(final.steps, MAX_TRACE_TICKS) + 1):
        report = run_level(level, program, step_limit=ticks)
        view = board(Snapshot(level, report.stacks, report.claw, report.holding))
        if view != frames[-1]:
            frames.append(view)
    last = board(Snapshot(level, final.stacks, final.claw, final.holding))
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
        "frames": frames,
        "solved": final.solved,
        "outcome": final.outcome,
        "stars": stars,
        "registers": registers,
        "ticks": final.steps,
        "message": message,
    }


class CargoPage:
    """One page's Cargo-Bot editor: ``levels``, ``level`` (its board) and ``run`` (a program on a level)."""

    def handle(self, op: str, msg: Mapping[str, JSON]) -> dict[str, JSON]:
        if op == "levels":
            return level_list()
        if op == "level":
            return level_frame(field_of(msg, "level", str))
        return run(field_of(msg, "level", str), field_of(msg, "program", str))
