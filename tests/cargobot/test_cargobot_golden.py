"""Golden dumps: step-by-step boards of fixed programs in both semantics, a seeded climb and solver
programs, compared with checked-in text (regenerate with PUZZLEBOTS_REGEN_GOLDEN=1)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from puzzlebots.games.cargobot.bots.climb import climb
from puzzlebots.games.cargobot.bots.solve import solve
from puzzlebots.games.cargobot.engine import Rules, Start
from puzzlebots.games.cargobot.language import format_registers
from puzzlebots.games.cargobot.levels import find_level
from puzzlebots.games.cargobot.render import trace_run

GOLDEN = Path(__file__).parent.parent / "golden" / "cargobot"


def _check(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("PUZZLEBOTS_REGEN_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert text == path.read_text()


def _piles(piles: list[list[str]]) -> str:
    return " | ".join("".join(c[0].upper() for c in p) or "-" for p in piles)


TRACES = [
    ("Inverter", "call2 call2 call2 call2 R call1 prog_2 claw R claw L", "game"),
    ("Come Together", "call2 claw call1 prog_2 R claw_none call2_none L", "game"),
    ("Double Flip", "claw R_any R_blue claw L_none call1", "vaguery"),
]


@pytest.mark.parametrize(("level", "program", "semantics"), TRACES, ids=[t[0] for t in TRACES])
def test_trace(level: str, program: str, semantics: str) -> None:
    lv = find_level(level)
    lines = [f"{level} [{semantics}] {program}"]
    rules = Rules(semantics, fragile=True, unstable=True)
    for frame in trace_run(program, rules, Start(lv.board(), lv.goal_board(), lv.claw)):
        lines.append(f"{frame.step:4d} claw {frame.claw} holding {frame.holding or '-':6} {_piles(frame.piles)}")
    _check(f"trace_{level.lower().replace(' ', '_')}_{semantics}.txt", "\n".join(lines) + "\n")


def test_seeded_climb_and_solver_programs() -> None:
    lines = []
    for seed in range(3):
        result = climb(find_level("Transporter"), seed=seed, stop_after=3)
        lines.append(f"climb Transporter seed {seed}: {result.iterations} iterations, {result.script}")
    for name in ("Go Left", "Shuffle Sort", "Come Together", "Clarity"):
        result = solve(find_level(name), jobs=1)
        assert result.program is not None
        lines.append(f"solve {name}: {result.size} registers, {result.ticks} ticks: {format_registers(result.program)}")
    _check("search.txt", "\n".join(lines) + "\n")
