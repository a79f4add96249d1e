"""Cargo-Bot on the page: list the levels, run a program in the original game's semantics, and send the
frames of the claw's work so the page (``web/view.js``, the ``cargo`` drawing) can animate it, with the stars
the program earns.

Cargo-Bot has no seeded episodes, so what the page draws is a :class:`Snapshot`: a level's board at one tick.
The engine (numba) reports only the end of a run, so the frames, each with the register that tick executes,
come from the readable oracle (``oracle.run_game``, tested tick for tick against the engine); the outcome,
ticks and stars the page shows are the engine's. ``solve`` runs the solve campaign with a time limit
(``page_solve``: it reports its progress, and the page can stop it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from puzzlebots.core.jsonio import read_json
from puzzlebots.core.messages import field_of, int_field, only_fields
from puzzlebots.core.protocols import JSON

from . import oracle
from .engine import run_level
from .language import parse_registers, register_count
from .levels import Level, find_level, load_levels, thresholds_text

#: runs longer than this many ticks are shown as their first frames and the end
MAX_TRACE_TICKS = 1500
#: the Solve button's time limit in seconds: its default and the most a page may ask (the page's time budget of
#: 20 s starts anew at each progress report, and the page can stop a solve)
SOLVE_SECONDS, SOLVE_MAX_SECONDS = 10, 60
#: a program per level that wins it, found by ``puzzlebots cargobot solve --all`` (docs/web.md)
EXAMPLES = Path(__file__).with_name("web") / "examples.json"
#: the fields of each page call besides the shell's routing ones
ROUTING = frozenset({"op", "game", "call"})
CALL_FIELDS = {
    "levels": frozenset(),
    "level": frozenset({"level"}),
    "run": frozenset({"level", "program"}),
    "solve": frozenset({"level", "seconds"}),
}
COLOURS = {"red": "#d33", "green": "#3a3", "blue": "#36d", "yellow": "#eb2", "orange": "#f80", "purple": "#93c"}


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


def examples() -> dict[str, str]:
    """The example program of each level that has one."""
    data = read_json(EXAMPLES, "Cargo-Bot examples") if EXAMPLES.is_file() else {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def level_frame(name: str) -> dict[str, Any]:
    level = find_level(name)
    info = f"{level.label}: {level.name}. {thresholds_text(level.stars)}."
    if level.hint:
        info += f" Hint: {level.hint.strip().rstrip('.')}."
    return {
        "view": board(Snapshot.start(level)),
        "info": info,
        "example": examples().get(level.name, ""),
        "functions": list(level.functions),
        "commands": list(level.commands),
        "conditions": list(level.conditions),
        "stars": list(level.stars),
    }


def trace(level: Level, program: Any, ticks: int) -> list[dict[str, Any]]:
    """The board before each tick (at most ``MAX_TRACE_TICKS``) with the register that tick executes
    (``[function, index]``, 0-based) and the tick count, then the board at the end."""
    frames: list[dict[str, Any]] = []
    registers: list[list[int]] = []

    def on_step(piles: list[list[str]], pos: int, holding: str | None) -> None:
        if len(frames) <= MAX_TRACE_TICKS:
            frames.append(board(Snapshot(level, [list(p) for p in piles], pos, holding)))

    def on_register(function: int, index: int) -> None:
        registers.append([function, index])

    oracle.run_game(
        program, level.functions, level.board(), level.goal_board(), level.claw, ticks, on_step, on_register
    )
    for tick, frame in enumerate(frames):
        frame["tick"] = tick
        frame["register"] = registers[tick] if tick < len(registers) else None
    return frames


def run(name: str, program_text: str) -> dict[str, Any]:
    """Run ``program_text`` on level ``name``: the frames, the outcome, and the stars if it is solved."""
    level = find_level(name)
    program = parse_registers(program_text)
    final = run_level(level, program)
    frames = trace(level, program, final.steps)
    last = board(Snapshot(level, final.stacks, final.claw, final.holding))
    if {**frames[-1], "tick": 0, "register": None} != {**last, "tick": 0, "register": None}:
        last.update(tick=final.steps, register=None)
        frames.append(last)
    registers = register_count(program)
    stars = level.stars_for(program) if final.solved else 0
    if final.solved:
        message = f"solved in {final.steps} ticks: {level.rating(program)}"
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
    """One page's Cargo-Bot editor: ``levels``, ``level`` (its board and toolbox), ``run`` (a program on a
    level) and ``solve`` (the synthesizer, with a time limit, reporting its progress and stopped by the page:
    ``WebReporting``)."""

    def __init__(self) -> None:
        #: where a solve reports and how it learns the page said stop (``web_reporting``; none: it only answers)
        self.reporting: dict[str, Any] = {}

    def web_reporting(self, report: Callable[[dict[str, JSON]], None], stopped: Callable[[], bool]) -> None:
        self.reporting = {"report": report, "stopped": stopped}

    def handle(self, op: str, msg: Mapping[str, JSON]) -> dict[str, JSON]:
        only_fields(msg, ROUTING | CALL_FIELDS[op])
        if op == "levels":
            return level_list()
        if op == "level":
            return level_frame(field_of(msg, "level", str))
        if op == "solve":
            seconds = int_field(msg, "seconds", 1, SOLVE_MAX_SECONDS, SOLVE_SECONDS)
            from .page_solve import solve_level  # the campaign, imported when first asked for

            return solve_level(field_of(msg, "level", str), seconds, **self.reporting)
        return run(field_of(msg, "level", str), field_of(msg, "program", str))
