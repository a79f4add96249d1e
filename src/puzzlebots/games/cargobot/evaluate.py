"""Batch evaluation for program search: many programs, or one program on many boards, in one kernel call.

Each job's report is what ``engine.run`` returns for it, plus the CrateStacks distances (``metrics.py``) of
its final board from the goal: the fitness a genetic-programming user minimises. ``Batch`` encodes once and
can be run again (a benchmark, or the same population on new boards), ``evaluate`` is the one-line form:

>>> from puzzlebots.games.cargobot.evaluate import evaluate
>>> board = ([["yellow"], [], [], []], [[], [], [], ["yellow"]], 1)
>>> runs = evaluate(["claw R R R claw", "R claw"], [board])
>>> [(r.report.outcome, r.report.steps, r.distances["rebuild"]) for r in runs]
[('solved', 5, 0), ('finished', 2, 3)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from puzzlebots.core.errors import InputError
from puzzlebots.core.jsonio import show

from .engine import (
    GAME_TICK_LIMIT,
    HEIGHT_LIMIT,
    SEMANTICS,
    VAGUERY_STEP_LIMIT,
    Colours,
    _board_key,
    _check_setup,
    _checked_registers,
    _functions_key,
    _game_code,
    _script_code,
    check_register_shape,
    decode_report,
    encode_board,
    encode_registers,
    encode_script,
)
from .kernels import batch as kernels
from .language import RegisterProgram, Script, parse_registers
from .levels import Board, Level
from .metrics import METRICS
from .report import RunReport
from .rules import DEFAULT_FUNCTIONS

#: a board to run on: a ``Level`` or (stacks, goal or None, 1-based claw)
Setup = Level | tuple[Board, Board | None, int]


@dataclass(frozen=True)
class Evaluation:
    """One job: the run's report and each requested distance of its final board from the goal."""

    report: RunReport
    distances: dict[str, int]


def _setup(board: Setup) -> tuple[Board, Board | None, int]:
    if isinstance(board, Level):
        return board.board(), board.goal_board(), board.claw
    if not isinstance(board, tuple | list) or len(board) != 3:
        raise InputError("a board is a Level or a (stacks, goal, claw) triple")
    stacks, goal, claw = board
    if not isinstance(claw, int) or isinstance(claw, bool):
        raise InputError(f"claw position {show(claw)} is not an integer")
    _check_setup(stacks, goal, claw)
    return [list(p) for p in stacks], None if goal is None else [list(p) for p in goal], claw


def _distinct(boards: Sequence[Setup]) -> tuple[list[tuple[Board, Board | None, int]], np.ndarray]:
    """Each distinct board checked and copied once (a level, or plain lists equal in value and type), and
    the index of each given board among them: a batch of one board repeated encodes one board."""
    seen: dict[object, int] = {}
    setups: list[tuple[Board, Board | None, int]] = []
    order = np.empty(len(boards), np.int64)
    for i, board in enumerate(boards):
        key: object = board if isinstance(board, Level) else None
        if isinstance(board, tuple | list) and len(board) == 3:
            key = _board_key(*board)
        if key is None or key not in seen:
            setups.append(_setup(board))
            if key is not None:
                seen[key] = len(setups) - 1
        order[i] = len(setups) - 1 if key is None else seen[key]
    return setups, order


def _pairs(programs: int, boards: int) -> tuple[np.ndarray, np.ndarray]:
    """Broadcast like numpy: equal counts pair up, a single program or board goes with every other."""
    if programs == 0 or boards == 0:
        raise InputError("a batch needs at least one program and one board")
    if programs != boards and 1 not in (programs, boards):
        raise InputError(f"{programs} programs and {boards} boards: give equal counts, or one of either")
    jobs = max(programs, boards)
    index = np.arange(jobs, dtype=np.int64)
    zero = np.zeros(jobs, np.int64)
    return (index if programs > 1 else zero), (index if boards > 1 else zero)


def _functions(boards: Sequence[Setup], functions: Sequence[int] | None) -> tuple[int, ...]:
    if functions is not None:
        return tuple(functions)
    shapes = {b.functions for b in boards if isinstance(b, Level)}
    if len(shapes) > 1:
        raise InputError("the levels of a batch have different function slots: pass functions= explicitly")
    return shapes.pop() if shapes else DEFAULT_FUNCTIONS


class Batch:
    """Programs and boards encoded once into the arrays of ``kernels.batch``; ``run`` executes every job. Equal
    boards are stored once: ``board[j]`` is job ``j``'s index into them (and into ``goals``)."""

    def __init__(
        self,
        programs: Sequence[str | RegisterProgram | Script],
        boards: Sequence[Setup],
        *,
        semantics: str = "game",
        functions: Sequence[int] | None = None,
        step_limit: int | None = None,
        fragile: bool = False,
        unstable: bool = False,
        height_limit: int = HEIGHT_LIMIT,
    ) -> None:
        if semantics not in SEMANTICS:
            raise InputError(f"unknown semantics {show(semantics)} (game, vaguery)")
        if step_limit is not None and step_limit < 0:
            raise InputError(f"step limit {step_limit} is negative")
        self.semantics = semantics
        self.prog, self.board = _pairs(len(programs), len(boards))
        self.colours = Colours()
        setups, distinct = _distinct(boards)
        self.board = distinct[self.board]
        if semantics == "game" and any(goal is None for _, goal, _ in setups):
            raise InputError("game semantics needs a goal board")
        self.goals = [goal for _, goal, _ in setups]
        self._encode_boards(setups)
        if semantics == "game":
            self.functions = _functions(boards, functions)
            self.limit = GAME_TICK_LIMIT if step_limit is None else step_limit
            self._encode_registers(programs, boards)
        else:
            self.limit = VAGUERY_STEP_LIMIT if step_limit is None else step_limit
            self.rules = np.array([fragile, unstable, height_limit, self.limit], np.int64)
            self._encode_scripts(programs)

    def _encode_boards(self, setups: list[tuple[Board, Board | None, int]]) -> None:
        encoded = [encode_board(s, g, self.colours) for s, g, _ in setups]
        count = len(encoded)
        width = max(len(e.heights) for e in encoded)
        capacity = max(e.piles.shape[1] for e in encoded)
        self.piles = np.zeros((count, width, capacity), np.int16)
        self.goal = np.zeros_like(self.piles)
        self.heights = np.zeros((count, width), np.int32)
        self.goal_heights = np.zeros_like(self.heights)
        self.npiles = np.array([len(e.heights) for e in encoded], np.int64)
        self.has_goal = np.array([e.has_goal for e in encoded], np.bool_)
        self.claws = np.array([c - 1 for _, _, c in setups], np.int64)
        for b, e in enumerate(encoded):
            n, c = e.piles.shape
            self.piles[b, :n, :c], self.goal[b, :n, :c] = e.piles, e.goal
            self.heights[b, :n], self.goal_heights[b, :n] = e.heights, e.goal_heights

    def _encode_registers(self, programs: Sequence[str | RegisterProgram | Script], boards: Sequence[Setup]) -> None:
        codes = []
        levels = {b for b in boards if isinstance(b, Level)}  # once, not once per program
        functions = _functions_key(self.functions)
        colours = tuple(self.colours.ids)
        for program in programs:
            if type(program) is str and functions is not None:  # parsed, checked and encoded once (engine caches)
                registers = _checked_registers(program, functions)
            else:
                registers = parse_registers(program) if isinstance(program, str) else program  # type: ignore[assignment]
                check_register_shape(registers, self.functions)  # type: ignore[arg-type]
            for level in levels:
                level.check_program(registers)
            if type(program) is str and functions is not None:
                codes.append(_game_code(program, functions, colours))
            else:
                codes.append(encode_registers(registers, self.functions, self.colours))
        self.op = np.stack([c.op for c in codes])
        self.cond = np.stack([c.cond for c in codes])
        self.flen = np.stack([c.length for c in codes])

    def _encode_scripts(self, programs: Sequence[str | RegisterProgram | Script]) -> None:
        codes = []
        colours = tuple(self.colours.ids)
        for program in programs:
            if isinstance(program, str):  # parsed and encoded once (engine caches)
                codes.append(_script_code(str(program), colours))
                continue
            script = [list(s) for s in program]  # type: ignore[union-attr]
            codes.append(encode_script(script or [[]], self.colours))  # type: ignore[arg-type]
        subs = max(len(c.start) for c in codes)
        self.start = np.zeros((len(codes), subs), np.int32)
        self.length = np.zeros((len(codes), subs), np.int32)
        offset = 0
        for p, c in enumerate(codes):
            self.start[p, : len(c.start)] = c.start + offset
            self.length[p, : len(c.length)] = c.length
            offset += len(c.op)
        self.op = np.concatenate([c.op for c in codes])
        self.arg = np.concatenate([c.arg for c in codes])
        self.cond = np.concatenate([c.cond for c in codes])

    @property
    def jobs(self) -> int:
        return len(self.prog)

    def run(self) -> np.ndarray:
        """Run every job; returns the (jobs, ``OUT_*``) array and keeps the final boards for ``reports`` and each
        job's rebuild distance in ``rebuild`` (computed in the kernel: the fitness a search can read directly)."""
        finals = kernels.empty_outputs(self.jobs, *self.piles.shape[1:])
        self.outs, self.final_piles, self.final_heights, self.rebuild = finals
        boards = (
            self.prog,
            self.board,
            self.piles,
            self.heights,
            self.goal,
            self.goal_heights,
            self.npiles,
            self.has_goal,
            self.claws,
        )
        if self.semantics == "game":
            kernels.run_game_batch(self.op, self.cond, self.flen, *boards, self.limit, *finals)
        else:
            kernels.run_vaguery_batch(
                self.op, self.arg, self.cond, self.start, self.length, *boards, self.rules, *finals
            )
        return self.outs

    def distances(self) -> np.ndarray:
        """The last ``run``'s teardown and cleanup distances (``metrics.py``) of each job's final board from its
        goal, (jobs, 2), computed in a kernel; a job without a goal has a meaningless row."""
        table = np.zeros((self.jobs, 2), np.int64)
        kernels.distances(
            self.board,
            self.npiles,
            self.goal,
            self.goal_heights,
            self.final_piles,
            self.final_heights,
            len(self.colours.ids),
            table,
        )
        return table

    def reports(self) -> list[RunReport]:
        """The last ``run``'s reports, as ``engine.run`` would give them one by one."""
        names: list[str | None] = [None, *self.colours.ids]
        outs, piles, heights = self.outs.tolist(), self.final_piles.tolist(), self.final_heights.tolist()
        counts = self.npiles[self.board].tolist()
        return [
            decode_report(self.semantics, outs[j], piles[j][:n], heights[j][:n], names) for j, n in enumerate(counts)
        ]


def evaluate(
    programs: Sequence[str | RegisterProgram | Script],
    boards: Sequence[Setup],
    *,
    semantics: str = "game",
    distances: Sequence[str] = tuple(METRICS),
    **options: object,
) -> list[Evaluation]:
    """Run programs on boards in one kernel call (``Batch`` options: functions, step_limit, fragile, unstable,
    height_limit); jobs pair up as ``Batch`` broadcasts them. Distances need a goal and are left out without one."""
    unknown = [d for d in distances if d not in METRICS]
    if unknown:
        raise InputError(f"unknown distance {show(unknown[0])} ({', '.join(METRICS)})")
    batch = Batch(programs, boards, semantics=semantics, **options)  # type: ignore[arg-type]
    batch.run()
    columns = {"rebuild": batch.rebuild.tolist()}
    if set(distances) - {"rebuild"}:
        table = batch.distances()
        columns |= {"teardown": table[:, 0].tolist(), "cleanup": table[:, 1].tolist()}
    results = []
    for j, report in enumerate(batch.reports()):
        goal = batch.goals[batch.board[j]]
        results.append(Evaluation(report, {} if goal is None else {d: columns[d][j] for d in distances}))
    return results
