"""The evaluator a genetic-programming library calls: a batch of programs on a level's cases, every run in the
numba batch kernel (``evaluate.Batch``), per program and per case an outcome and an error.

The cases are what lexicase selection picks from: a level's goal piles where it has one start board, its boards
where it has several (a family, ``families.py``). A case's error is 0 exactly when the case is right (a pile: its
stack cleanup error plus 100 per crate too many or few, plus 1 if wrong; a board: its piles' errors summed). Each
run also reports its outcome (``rules.OUTCOMES``), steps, crashes and topples and the Ruby emulator's three board
distances (``metrics.py``: rebuild, teardown, cleanup). ``jobs > 1`` splits a batch over worker processes and
puts the parts back in order, so the answer never depends on ``jobs``.

Search runs are short: without ``step_limit`` a run stops after ``SEARCH_STEP_LIMIT`` steps, not the game's 10^7
ticks (a random program usually loops; the longest best known Tutorial-Hard program needs 650 ticks).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np

from puzzlebots.core.batch import WorkerPool
from puzzlebots.core.errors import InputError
from puzzlebots.core.jsonio import show

from ..engine import GAME_TICK_LIMIT, SEMANTICS
from ..evaluate import Batch
from ..kernels.interpreter import FETCH_BITS, OUT_CRASHES, OUT_OUTCOME, OUT_STEPS, OUT_TOPPLES, SOLVED
from ..levels import Level, World
from .genome import Genome, ProgramInput
from .kernel import fetch_order, pile_errors

#: steps (vaguery: the Ruby emulator's default) or ticks (game) of one run while searching
SEARCH_STEP_LIMIT = {"game": 1000, "vaguery": 200}
#: the most programs one call takes
MAX_PROGRAMS = 1_000_000
_GAME_CODES = {"right": 1, "left": 2, "pickup": 3}


@dataclass(frozen=True)
class Outcomes:
    """Per program (rows) and per board (columns): how its run ended and its figures; ``errors`` per case."""

    outcome: np.ndarray  # codes into rules.OUTCOMES
    steps: np.ndarray
    crashes: np.ndarray
    topples: np.ndarray
    rebuild: np.ndarray
    teardown: np.ndarray
    cleanup: np.ndarray
    errors: np.ndarray  # (programs, cases)
    sizes: np.ndarray  # (programs,): registers holding a command
    #: (programs, genes): each register's place in the order the program's runs first fetched them, board after
    #: board (``kernel.fetch_order``), -1 where no run fetched it. A program equal to this one in its fetched
    #: registers runs exactly as it does, and reads them in this order (the Ruby semantics claims every register)
    fetch_order: np.ndarray

    @property
    def fetched(self) -> np.ndarray:
        return self.fetch_order >= 0

    @property
    def solved(self) -> np.ndarray:
        """Programs that win every board."""
        return (self.outcome == SOLVED).all(axis=1)

    @staticmethod
    def join(parts: Sequence[Outcomes]) -> Outcomes:
        return Outcomes(*(np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(Outcomes)))


def boards_of(level: Level, boards: Sequence[World] | None) -> list[World]:
    return list(level.boards() if boards is None else boards)


class Evaluator:
    """Programs of one level (its toolbox and slots, ``Genome``) on its boards, or on ``boards`` of its family."""

    def __init__(
        self,
        level: Level,
        boards: Sequence[World] | None = None,
        *,
        semantics: str = "game",
        step_limit: int | None = None,
        jobs: int = 1,
    ) -> None:
        if level.subproblem:
            raise InputError(f"level {show(level.name)} is a sub-problem: only `cargobot solve` reads it")
        if semantics not in SEMANTICS:
            raise InputError(f"unknown semantics {show(semantics)} (game, vaguery)")
        limit = SEARCH_STEP_LIMIT[semantics] if step_limit is None else step_limit
        if not 1 <= limit <= GAME_TICK_LIMIT:
            raise InputError(f"step limit {limit} is outside 1-{GAME_TICK_LIMIT}")
        if jobs < 1:
            raise InputError(f"jobs {jobs} must be at least 1")
        self.level, self.semantics, self.step_limit, self.jobs = level, semantics, limit, jobs
        self.genome = Genome.of(level)
        self.boards = boards_of(level, boards)
        if not self.boards:
            raise InputError("an evaluation needs at least one board")
        self.setups = [([list(p) for p in stacks], [list(p) for p in goal], claw) for claw, stacks, goal in self.boards]
        self.batch = Batch([()], self.setups, semantics="game", functions=self.genome.functions, step_limit=limit)
        self.board_index = self.batch.board.copy()  # each board's place among the distinct ones the batch keeps
        codes = [_GAME_CODES.get(str(c)) or 3 + int(str(c)[1:]) for c, _ in self.genome.alphabet]
        self.gene_op = np.array([0, *codes], np.int8)
        self.gene_cond = np.array([0, *(self.batch.colours.cond(k) for _, k in self.genome.alphabet)], np.int32)
        width = max(self.genome.functions)
        self.slot_function = np.repeat(np.arange(len(self.genome.functions)), self.genome.functions)
        self.slot_register = np.concatenate([np.arange(s) for s in self.genome.functions])
        self.width = width
        self.slot_gene = np.zeros(FETCH_BITS + 1, np.int64)  # kernel slot -> gene
        self.slot_gene[self.slot_function * width + self.slot_register] = np.arange(self.genome.length)
        self._pool: WorkerPool | None = None

    @property
    def cases(self) -> int:
        return len(self.boards[0][1]) if len(self.boards) == 1 else len(self.boards)

    def evaluate(self, programs: Sequence[ProgramInput]) -> Outcomes:
        """Programs in any form ``Genome.read`` takes, each checked (``InputError`` naming the first bad one)."""
        if not 1 <= len(programs) <= MAX_PROGRAMS:
            raise InputError(f"give 1-{MAX_PROGRAMS:,} programs, not {len(programs):,}")
        genes = [self.genome.read(p, f"program {i + 1}") for i, p in enumerate(programs)]
        return self.run(np.array(genes, np.int64).reshape(len(genes), self.genome.length))

    def run(self, genes: np.ndarray) -> Outcomes:
        """Genomes as a (programs, genes) integer array, checked for shape and range."""
        if genes.ndim != 2 or genes.shape[1] != self.genome.length or not 1 <= genes.shape[0] <= MAX_PROGRAMS:
            raise InputError(f"genomes: expected (programs, {self.genome.length}) genes, got {genes.shape}")
        if genes.size and not (0 <= genes.min() and genes.max() < self.genome.symbols):
            raise InputError(f"genomes: genes must lie in 0-{self.genome.symbols - 1}")
        if self.jobs == 1 or len(genes) < 2 * self.jobs:
            return self._run(genes)
        if self._pool is None:
            self._pool = WorkerPool(
                self.jobs, _start_worker, (self.level, self.boards, self.semantics, self.step_limit)
            )
        parts = np.array_split(genes, self.jobs)
        return Outcomes.join([f.result() for f in [self._pool.submit(_run_part, part) for part in parts]])

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def __enter__(self) -> Evaluator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self, genes: np.ndarray) -> Outcomes:
        programs, count = len(genes), len(self.boards)
        if self.semantics == "game":
            batch = self.batch
            op = np.zeros((programs, len(self.genome.functions), self.width), np.int8)
            cond = np.zeros((programs, len(self.genome.functions), self.width), np.int32)
            op[:, self.slot_function, self.slot_register] = self.gene_op[genes]
            cond[:, self.slot_function, self.slot_register] = self.gene_cond[genes]
            batch.op, batch.cond = op, cond
            batch.flen = np.tile(np.array(self.genome.functions, np.int32), (programs, 1))
            batch.prog = np.repeat(np.arange(programs, dtype=np.int64), count)
            batch.board = np.tile(self.board_index, programs)
        else:
            texts = [self.genome.text(g) for g in genes.tolist()]
            batch = Batch(
                [t for t in texts for _ in range(count)],
                self.setups * programs,
                semantics="vaguery",
                step_limit=self.step_limit,
            )
        outs = batch.run()
        table = batch.distances()
        piles = np.zeros((len(batch.prog), batch.piles.shape[1]), np.int64)
        pile_errors(
            batch.board, batch.npiles, batch.goal, batch.goal_heights, batch.final_piles, batch.final_heights, piles
        )
        piles = piles.reshape(programs, count, -1)
        errors = piles[:, 0, : len(self.boards[0][1])] if count == 1 else piles.sum(axis=2)

        def grid(column: np.ndarray) -> np.ndarray:
            return column.reshape(programs, count)

        order = np.full((programs, self.genome.length), -1, np.int64)
        fetch_order(outs, count, self.slot_gene, order)
        return Outcomes(
            grid(outs[:, OUT_OUTCOME]),
            grid(outs[:, OUT_STEPS]),
            grid(outs[:, OUT_CRASHES]),
            grid(outs[:, OUT_TOPPLES]),
            grid(batch.rebuild),
            grid(table[:, 0]),
            grid(table[:, 1]),
            errors,
            (genes != 0).sum(axis=1),
            order,
        )


_WORKER: list[Evaluator] = []


def _start_worker(level: Level, boards: list[World], semantics: str, step_limit: int) -> None:
    _WORKER.append(Evaluator(level, boards, semantics=semantics, step_limit=step_limit))


def _run_part(genes: np.ndarray) -> Outcomes:
    return _WORKER[0]._run(genes)
