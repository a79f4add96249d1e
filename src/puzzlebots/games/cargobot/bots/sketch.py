"""``sketch``: a search that finds a winning program (game semantics) without proving it smallest, for levels
whose programs are beyond the exhaustive ``solve`` (after the "Simplified" sub-problems of Elizarov's notes).

A *sketch* fixes the shape: how many functions and how many registers each holds (F1 the main loop, often
pinned to end with an unconditional ``call1``; helpers of 2 or more registers). Each restart draws a sketch and
a random filling from its own seed and improves the registers by tabu search (``kernels.sketch``) on the
rebuild distance of the boards a run leaves, within a tick cap. A win is then shrunk: registers removed one or
two at a time, helpers merged, a helper called once inlined, and a register removed with the rest searched
again briefly (repair), each step kept only when the program still wins; the result is verified on the game
interpreter (``engine.run_level``). Later restarts draw smaller sketches. Restarts are deterministic for a
seed; the time limit only decides how many run.

With ``jobs`` > 1 the restarts run on a pool of worker processes, handed out in number order, each drawing
from (seed, restart number) exactly as one process would. When restart k wins, the restarts numbered above k
stop at once (drawn again later, with the smaller sketches a win brings) and those below k run to their end
(one of them may win first, in number order); the lowest winner is shrunk by the parent, whose rounds of
repairs run on the pool the same way (the lowest winning repair taken). So the programs found are those of
``jobs=1``, whatever the timing, until the time limit cuts the search short.

With ``executor="ray"`` the same restarts and repairs are Ray tasks (a local Ray instance of ``jobs`` CPUs, or
the cluster at ``address``), as many in flight as the cluster has CPUs. No memory is shared with a Ray worker,
so there is no stop mark for it to read: the parent cancels the tasks numbered above a win (``ray.cancel``
interrupts a running one at its next Python line, after the current kernel call) and drops them at once, so
their results, had they arrived, are never read. The programs found are the same as one process's.
"""

from __future__ import annotations

import itertools
import multiprocessing
import random
import signal
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from puzzlebots.core.batch import WorkerPool, make_executor
from puzzlebots.core.errors import InputError
from puzzlebots.core.ray_executor import RayExecutor
from puzzlebots.core.seeds import MAX_SEED
from puzzlebots.core.workers import check_executor, default_jobs

from ..engine import Colours, EncodedBoard, encode_board, run_level
from ..kernels import sketch as kernel
from ..kernels.interpreter import OUT_SIZE
from ..language import RegisterProgram, format_registers, register_count
from ..levels import Level
from ..rules import LEFT, PICKUP, RIGHT

#: sketch size drawn around the level's best known size (or this, when none is known)
DEFAULT_TARGET = 12
TICK_CAP = 400
#: programs run per restart, per call of the kernel, per repair of a removed register
ITERATIONS = 300_000
CHUNK = 20_000
REPAIR_RUNS = 20_000
#: a changed register stays fixed for (free registers // this) steps
TENURE_SHARE = 3
MAX_SECONDS = 86_400.0
#: seconds between two looks at the pool's workers (the progress callback, the deadline, Ctrl-C)
POLL_SECONDS = 0.5
#: the pool's stop mark while no restart is to stop: a worker stops a restart numbered above the mark
NO_STOP = 2**62
MAX_TICK_CAP = 1_000_000
_MOVES = {"right": RIGHT, "left": LEFT, "pickup": PICKUP}
_COMMAND = {RIGHT: "right", LEFT: "left", PICKUP: "pickup"}


class Prepared(NamedTuple):
    """A level as the kernel reads it: the board, the toolbox as op and condition codes, the slots."""

    level: Level
    board: EncodedBoard
    claw: int
    moves: tuple[int, ...]
    calls: tuple[int, ...]  # 0-based functions the toolbox can call
    conds: np.ndarray
    cond_names: dict[int, str | None]
    slots: np.ndarray


@dataclass(frozen=True)
class SketchResult:
    level: str
    seed: int
    solved: bool
    program: RegisterProgram | None
    size: int | None
    found_size: int | None  # size of the first win, before shrinking
    stars: int | None
    ticks: int | None
    seconds: float
    restarts: int
    evaluations: int
    shape: tuple[int, ...] | None  # the sketch of the restart that found the program
    interrupted: bool = False
    method: str = field(default="sketch")
    proven_minimal: bool = field(default=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "seed": self.seed,
            "solved": self.solved,
            "program": format_registers(self.program) if self.program else None,
            "size": self.size,
            "found_size": self.found_size,
            "stars": self.stars,
            "ticks": self.ticks,
            "seconds": round(self.seconds, 2),
            "restarts": self.restarts,
            "evaluations": self.evaluations,
            "shape": list(self.shape) if self.shape else None,
            "interrupted": self.interrupted,
            "method": self.method,
            "proven_minimal": self.proven_minimal,
        }


def check_options(time_limit: float, seed: int, tick_cap: int, iterations: int, jobs: int | None = 1) -> None:
    if not 0 < time_limit <= MAX_SECONDS:
        raise InputError(f"time limit {time_limit} is not in (0, {MAX_SECONDS:.0f}] seconds")
    if not 0 <= seed <= MAX_SEED:
        raise InputError(f"seed {seed} is not in [0, {MAX_SEED}]")
    if not 1 <= tick_cap <= MAX_TICK_CAP:
        raise InputError(f"tick cap {tick_cap} is not in [1, {MAX_TICK_CAP}]")
    if iterations < 1:
        raise InputError(f"iterations per restart {iterations} must be at least 1")
    if jobs is not None and jobs < 1:
        raise InputError(f"jobs {jobs} must be at least 1")


def prepare(level: Level) -> Prepared:
    colours = Colours()
    board = encode_board(level.board(), level.goal_board(), colours)
    names: list[str | None] = [None, *level.conditions]
    codes = [colours.cond(name) for name in names]
    calls = tuple(k for k in range(len(level.functions)) if f"f{k + 1}" in level.commands)
    moves = tuple(code for name, code in _MOVES.items() if name in level.commands)
    slots = np.array(level.functions, np.int32)
    return Prepared(
        level,
        board,
        level.claw - 1,
        moves,
        calls,
        np.array(codes, np.int32),
        dict(zip(codes, names, strict=True)),
        slots,
    )


def shapes(prep: Prepared, total: int) -> list[tuple[int, ...]]:
    """Every sketch of ``total`` registers: F1 of 2+ registers, then helpers of 2+ that the toolbox can call."""
    helpers = [k for k in prep.calls if k > 0]
    usable = [int(prep.slots[0])] + [int(prep.slots[k]) for k in sorted(helpers)]
    found = []
    for count in range(1, len(usable) + 1):
        ranges = [range(2, usable[f] + 1) for f in range(count)]
        found += [s for s in itertools.product(*ranges) if sum(s) == total]
    return found


def _draw_shape(prep: Prepared, totals: list[int], rng: random.Random) -> tuple[int, ...] | None:
    """A sketch: a total, then a function count, then a shape, each drawn uniformly among those that exist."""
    by_count: dict[tuple[int, int], list[tuple[int, ...]]] = {}
    for total in totals:
        for shape in shapes(prep, total):
            by_count.setdefault((total, len(shape)), []).append(shape)
    if not by_count:
        return None
    sizes = sorted({t for t, _ in by_count})
    total = rng.choice(sizes)
    counts = sorted(c for t, c in by_count if t == total)
    return rng.choice(by_count[(total, rng.choice(counts))])


def _empty(prep: Prepared) -> tuple[np.ndarray, np.ndarray]:
    functions, width = len(prep.slots), int(prep.slots.max())
    return np.zeros((functions, width), np.int8), np.zeros((functions, width), np.int32)


def _oplist(prep: Prepared, functions: int) -> np.ndarray:
    return np.array(list(prep.moves) + [4 + k for k in prep.calls if k < functions], np.int8)


class Candidate(NamedTuple):
    """A program of the search as the kernels hold it: per function and register slot, an op and a condition."""

    op: np.ndarray
    cond: np.ndarray

    def copy(self) -> Candidate:
        return Candidate(self.op.copy(), self.cond.copy())

    def size(self) -> int:
        return int(np.count_nonzero(self.op))


def wins(prep: Prepared, program: Candidate, tick_cap: int) -> bool:
    out = np.zeros(OUT_SIZE, np.int64)
    return int(kernel.score(program.op, program.cond, prep.slots, prep.board, prep.claw, tick_cap, out)) == 0


def decode(prep: Prepared, program: Candidate) -> RegisterProgram:
    """Registers in the language's form, empty registers dropped (they are free skips) and trailing empty
    functions left out."""
    functions = []
    for f in range(program.op.shape[0]):
        regs = []
        for op, cond in zip(program.op[f], program.cond[f], strict=True):
            if op:
                regs.append((_COMMAND.get(int(op)) or f"f{int(op) - 3}", prep.cond_names[int(cond)]))
        functions.append(tuple(regs))
    while len(functions) > 1 and not functions[-1]:
        functions.pop()
    return tuple(functions)


def encode(prep: Prepared, registers: RegisterProgram) -> Candidate:
    """A program of the level's toolbox as the kernel's arrays (``InputError`` if it breaks the toolbox)."""
    prep.level.check_program(registers)
    program = Candidate(*_empty(prep))
    codes = {name: code for code, name in prep.cond_names.items()}
    for f, function in enumerate(registers):
        for i, (command, cond) in enumerate(function):
            if command is not None:
                program.op[f, i] = _MOVES.get(command) or 3 + int(command[1:])
                program.cond[f, i] = codes[cond]
    return program


class _Search:
    """One run of the search: the level, its options, the counters, and the best verified win so far."""

    def __init__(
        self,
        prep: Prepared,
        seed: int,
        tick_cap: int,
        iterations: int,
        deadline: float,
        repair_runs: int = REPAIR_RUNS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.prep, self.seed, self.tick_cap, self.iterations, self.deadline = prep, seed, tick_cap, iterations, deadline
        self.repair_runs = repair_runs
        self.clock = clock  # the seconds ``deadline`` is on (a test's clock that never moves: counts alone end it)
        self.evaluations = 0
        self.restarts = 0
        self.stopped: Callable[[], bool] = lambda: False  # a pool worker's restart stopped by the parent
        #: a round of the shrink's repairs (``_repairs_here``, or on the pool: ``_repairs_on_pool``)
        self.repairs: Callable[[Candidate, int], tuple[Candidate | None, int]] = lambda p, a: _repairs_here(self, p, a)
        self.best: Candidate | None = None
        self.found_size: int | None = None
        self.shape: tuple[int, ...] | None = None

    def improve(self, program: Candidate, free: np.ndarray, functions: int, seed: int, total: int) -> Candidate | None:
        """Tabu search on ``program`` (changed in place) for about ``total`` runs, in chunks so the deadline
        and Ctrl-C are honoured between them; the winning program, or None."""
        best_op, best_cond = _empty(self.prep)
        oplist = _oplist(self.prep, functions)
        tabu_until = np.zeros(program.op.shape, np.int64)
        tenure = max(1, int(free.sum()) // TENURE_SHARE)
        step, done = 0, 0
        while done < total:
            if self.clock() >= self.deadline or self.stopped():
                return None
            score, runs, step = kernel.tabu(
                program.op,
                program.cond,
                free,
                self.prep.slots,
                oplist,
                self.prep.conds,
                self.prep.board,
                self.prep.claw,
                self.tick_cap,
                (seed * 7919 + step) % 2**31,
                min(CHUNK, total - done),
                tenure,
                tabu_until,
                step,
                best_op,
                best_cond,
            )
            self.evaluations += int(runs)
            done += int(runs)
            if score == 0:
                return Candidate(best_op.copy(), best_cond.copy())
        return None

    def restart(self, index: int, totals: list[int]) -> tuple[Candidate | None, tuple[int, ...] | None]:
        """Restart ``index``: its sketch and random filling come from (seed, index) alone."""
        rng = random.Random(self.seed * 1_000_003 + index)
        shape = _draw_shape(self.prep, totals, rng)
        if shape is None:
            return None, None
        program = Candidate(*_empty(self.prep))
        free = np.zeros(program.op.shape, np.bool_)
        oplist = _oplist(self.prep, len(shape))
        for f, length in enumerate(shape):
            for i in range(length):
                program.op[f, i] = rng.choice(list(oplist))
                program.cond[f, i] = 0 if rng.random() < 0.5 else rng.choice(list(self.prep.conds))
                free[f, i] = True
        if rng.random() < 0.5 and 0 in self.prep.calls:  # the main loop: F1 ends by calling itself
            program.op[0, shape[0] - 1], program.cond[0, shape[0] - 1] = 4, 0
            free[0, shape[0] - 1] = False
        return self.improve(program, free, len(shape), rng.randrange(2**31), self.iterations), shape


def _registers(program: Candidate) -> list[tuple[int, int]]:
    return [(int(f), int(i)) for f, i in zip(*np.nonzero(program.op), strict=True)]


def _without(program: Candidate, *where: tuple[int, int]) -> Candidate:
    trial = program.copy()
    for f, i in where:
        trial.op[f, i], trial.cond[f, i] = 0, 0
    return trial


def _remove(search: _Search, program: Candidate) -> Candidate:
    """Drop single registers, then pairs, while the program still wins (each trial on a copy)."""
    prep, cap = search.prep, search.tick_cap
    changed = True
    while changed:
        changed = False
        for where in _registers(program):
            trial = _without(program, where)
            if wins(prep, trial, cap):
                program, changed = trial, True
        if not changed:
            for pair in itertools.combinations(_registers(program), 2):
                trial = _without(program, *pair)
                if wins(prep, trial, cap):
                    program, changed = trial, True
                    break
    return program


def _merge(search: _Search, program: Candidate) -> Candidate:
    """Redirect every call of a helper to another function and clear the helper, while the program wins."""
    for g, f in itertools.permutations(range(1, program.op.shape[0]), 2):
        if not program.op[g].any():
            continue
        trial = program.copy()
        trial.op[trial.op == 4 + g] = 4 + f
        trial.op[g], trial.cond[g] = 0, 0
        if wins(search.prep, trial, search.tick_cap):
            program = trial
    return program


def _inline(search: _Search, program: Candidate) -> Candidate:
    """Replace the one unconditional call of a helper called from one register by the helper's registers (one
    register fewer), while the program wins and the caller's slots hold them."""
    for g in range(1, program.op.shape[0]):
        sites = list(zip(*np.nonzero(program.op == 4 + g), strict=True))
        if len(sites) != 1 or program.cond[sites[0]] != 0 or sites[0][0] == g:
            continue
        f, i = int(sites[0][0]), int(sites[0][1])
        body = [(program.op[g, k], program.cond[g, k]) for k in np.nonzero(program.op[g])[0]]
        before = [(program.op[f, k], program.cond[f, k]) for k in np.nonzero(program.op[f, :i])[0]]
        after = [(program.op[f, k], program.cond[f, k]) for k in np.nonzero(program.op[f, i + 1 :])[0] + i + 1]
        spliced = before + body + after
        if len(spliced) > search.prep.slots[f]:
            continue
        trial = program.copy()
        trial.op[g], trial.cond[g], trial.op[f], trial.cond[f] = 0, 0, 0, 0
        for k, (op, cond) in enumerate(spliced):
            trial.op[f, k], trial.cond[f, k] = op, cond
        if wins(search.prep, trial, search.tick_cap):
            program = trial
    return program


def _tidy(search: _Search, program: Candidate) -> Candidate:
    return _inline(search, _merge(search, _remove(search, program)))


def shrink(search: _Search, program: Candidate, on_smaller: Callable[[Candidate], None]) -> Candidate:
    """A smaller program that still wins: removal, merging and inlining, then removal with repair (a short tabu search
    over the registers left) until no register can go or the deadline passes. ``on_smaller`` sees each step."""
    if not wins(search.prep, program, search.tick_cap):
        raise ValueError("shrink needs a winning program")
    program = _tidy(search, program)
    on_smaller(program)
    attempt = 0
    improved = True
    while improved and search.clock() < search.deadline:
        repaired, attempt = search.repairs(program, attempt)
        improved = repaired is not None
        if repaired is not None:
            program = _tidy(search, repaired)
            on_smaller(program)
    return program


RepairTask = tuple[Candidate, np.ndarray, int, int, int]  # ``_Search.improve``'s arguments


def _repair_tasks(search: _Search, program: Candidate, attempt: int) -> list[RepairTask]:
    """One round of repairs: each register of ``program`` removed in turn, the others free, numbered on from
    ``attempt`` (the number seeds the search)."""
    tasks = []
    for k, where in enumerate(_registers(program)):
        trial = _without(program, where)
        seed = (search.seed * 104_729 + attempt + k + 1) % 2**31
        tasks.append((trial, trial.op != 0, program.op.shape[0], seed, search.repair_runs))
    return tasks


def _repairs_here(search: _Search, program: Candidate, attempt: int) -> tuple[Candidate | None, int]:
    """The repairs of one round in order, up to the first that leaves a smaller winning program: that program
    (None if no repair does) and the attempts counted."""
    tasks = _repair_tasks(search, program, attempt)
    for k, task in enumerate(tasks):
        repaired = search.improve(*task)
        if repaired is not None and repaired.size() < program.size():
            return repaired, attempt + k + 1
    return None, attempt + len(tasks)


def shrink_program(
    level: Level,
    registers: RegisterProgram,
    seed: int = 0,
    tick_cap: int = TICK_CAP,
    time_limit: float = 60.0,
    repair_runs: int = REPAIR_RUNS,
) -> RegisterProgram:
    """``shrink`` for a program of ``level`` that wins within ``tick_cap`` ticks (``ValueError`` if not)."""
    check_options(time_limit, seed, tick_cap, 1)
    prep = prepare(level)
    search = _Search(prep, seed, tick_cap, 1, time.monotonic() + time_limit, repair_runs)
    return decode(prep, shrink(search, encode(prep, registers), lambda _: None))


def _totals(prep: Prepared, best: int | None) -> list[int]:
    capacity = int(sum(prep.slots[k] for k in prep.calls)) if prep.calls else int(prep.slots[0])
    if best is None:
        target = prep.level.best_known or DEFAULT_TARGET
        return [t for t in range(max(2, target - 2), target + 3) if t <= capacity]
    return list(range(max(2, best - 4), best))


def sketch(
    level: Level,
    seed: int = 0,
    time_limit: float = 300.0,
    tick_cap: int = TICK_CAP,
    iterations: int = ITERATIONS,
    stop_at: int | None = None,
    progress: Callable[[float, int | None, int], None] | None = None,
    keep_on_interrupt: bool = True,
    jobs: int | None = 1,
    executor: str = "process",
    address: str | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> SketchResult:
    """Search ``level`` for a winning program until ``time_limit`` seconds pass or one of at most ``stop_at``
    registers (default: the best known size) is found, running restarts on ``jobs`` processes (1: here; None:
    one per usable core), or with ``executor="ray"`` as Ray tasks (``jobs``: the CPUs of the local Ray instance
    started; with ``address``, the cluster there, and ``jobs`` None). Ctrl-C ends it with the best program found
    so far (``keep_on_interrupt``), or passes on (a caller with more work to stop, as ``solve --all``); either
    way no worker or task is left running, and a Ray instance this call started is shut down. ``time_limit`` is in
    seconds of ``clock`` (a worker's restart or repair gets the seconds left, on its own clock)."""
    check_options(time_limit, seed, tick_cap, iterations, jobs)
    check_executor(executor, None if executor == "process" else jobs, address)
    if executor == "process":
        jobs = jobs or default_jobs()
    start = clock()
    search = _Search(prepare(level), seed, tick_cap, iterations, start + time_limit, clock=clock)
    goal = stop_at if stop_at is not None else (level.best_known or 0)
    interrupted = False

    def keep(program: Candidate) -> None:
        smaller = search.best is None or program.size() < search.best.size()
        if smaller and run_level(level, decode(search.prep, program)).solved:  # verified on the game interpreter
            search.best = program

    def take(found: Candidate, shape: tuple[int, ...]) -> None:
        """A restart's win: shrunk and kept if it is smaller than the best so far."""
        if search.best is None or found.size() < search.best.size():
            search.found_size = search.found_size or found.size()
            search.shape = shape
            keep(found)
            shrink(search, found, keep)

    def show(best: int | None) -> None:
        if progress:
            progress(clock() - start, best, search.restarts)

    try:
        if executor == "process" and jobs == 1:
            _in_turn(search, goal, show, take)
        else:
            _on_pool(search, goal, _open_pool(executor, jobs, address), show, take)
    except KeyboardInterrupt:
        if not keep_on_interrupt:
            raise
        interrupted = True
    return _result(search, level, clock() - start, search.restarts, interrupted)


def _best_size(search: _Search) -> int | None:
    return search.best.size() if search.best else None


def _in_turn(
    search: _Search, goal: int, show: Callable[[int | None], None], take: Callable[[Candidate, tuple[int, ...]], None]
) -> None:
    """The restarts one after another in this process, until the goal size, the deadline, or no sketch left."""
    while search.clock() < search.deadline:
        best = _best_size(search)
        if best is not None and best <= goal:
            break
        show(best)
        found, shape = search.restart(search.restarts, _totals(search.prep, best))
        search.restarts += 1
        if found is None or shape is None:  # a restart that wins has a sketch
            if shape is None:  # no sketch is left below the best size
                break
            continue
        take(found, shape)


class _Mark:
    """A stop mark the parent alone reads (Ray: no memory is shared with the tasks, so the parent cancels them);
    in a Ray worker, the mark that never falls."""

    def __init__(self) -> None:
        self.value = NO_STOP


def _open_pool(executor: str, jobs: int | None, address: str | None) -> tuple[WorkerPool | RayExecutor, Any]:
    """The workers of the restarts and their stop mark: a process pool of ``jobs`` sharing the mark by memory,
    or Ray with a mark of the parent's own."""
    if executor == "process":
        assert jobs is not None  # ``sketch`` gave the process pool its count
        mark = multiprocessing.get_context().RawValue("q", NO_STOP)
        return WorkerPool(jobs, _worker_start, (mark,)), mark
    return make_executor(executor, jobs, address), _Mark()


def _drop_stopped(pool: WorkerPool | RayExecutor, running: dict[Future[Any], int], mark: Any) -> None:
    """On Ray, cancel the tasks numbered above the mark and forget them (their results are not wanted). A
    process pool's workers read the mark and stop by themselves; the parent collects what they ran."""
    if isinstance(pool, RayExecutor):
        for future in [f for f, k in running.items() if k > mark.value]:
            pool.cancel(future)
            del running[future]


def _worker_start(stop_above: Any) -> None:
    """A pool worker: it reads the parent's stop mark; Ctrl-C is the parent's to handle (it stops the workers)."""
    global _STOP_ABOVE
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _STOP_ABOVE = stop_above


_STOP_ABOVE: Any = _Mark()  # in a pool worker: the parent's stop mark (a shared integer); on Ray: never falls


def _pooled_restart(
    prep: Prepared, seed: int, tick_cap: int, iterations: int, seconds: float, index: int, totals: list[int]
) -> tuple[Candidate | None, tuple[int, ...] | None, int]:
    """Restart ``index`` in a worker for at most ``seconds`` (a Ray node's clock is not the parent's), stopped
    between two kernel calls once the mark falls below it."""
    search = _Search(_writable(prep), seed, tick_cap, iterations, time.monotonic() + seconds)
    search.stopped = lambda: index > _STOP_ABOVE.value
    found, shape = search.restart(index, totals)
    return found, shape, search.evaluations


def _pooled_repair(
    prep: Prepared, seed: int, tick_cap: int, seconds: float, ticket: int, task: RepairTask
) -> tuple[Candidate | None, int]:
    """Repair ``ticket`` of a round in a worker for at most ``seconds``, stopped between two kernel calls once
    the mark falls below it."""
    search = _Search(_writable(prep), seed, tick_cap, 1, time.monotonic() + seconds)
    search.stopped = lambda: ticket > _STOP_ABOVE.value
    program, free, functions, start, runs = task  # Ray hands arrays over read-only (see ``_writable``)
    return search.improve(program.copy(), np.array(free), functions, start, runs), search.evaluations


def _writable(prep: Prepared) -> Prepared:
    """``prep`` on writable copies of its arrays. Ray hands arrays over read-only, and numba compiles a kernel
    apart for read-only arrays (on a fresh install, for most of a minute in every Ray worker): on the copies a
    worker runs the kernels ``make install`` compiled and cached."""
    b = prep.board
    board = EncodedBoard(np.array(b.piles), np.array(b.heights), np.array(b.goal), np.array(b.goal_heights), b.has_goal)
    return prep._replace(board=board, conds=np.array(prep.conds), slots=np.array(prep.slots))


def _repairs_on_pool(
    search: _Search, pool: WorkerPool | RayExecutor, stop_above: Any, program: Candidate, attempt: int
) -> tuple[Candidate | None, int]:
    """``_repairs_here`` on the pool (no restart runs meanwhile): the round's repairs handed out in order; a
    success at k stops those above k, those below run on, and the lowest success counts, as in one process."""
    tasks = _repair_tasks(search, program, attempt)
    running: dict[Future[Any], int] = {}
    found: dict[int, Candidate] = {}
    handed = 0
    while True:
        while handed < min(len(tasks), stop_above.value) and len(running) < pool.workers:
            args = (search.prep, search.seed, search.tick_cap, _left(search), handed, tasks[handed])
            running[pool.submit(_pooled_repair, *args)] = handed
            handed += 1
        if not running:
            break
        done, _ = wait(running, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
        for future in done:
            k = running.pop(future)
            repaired, runs = future.result()
            search.evaluations += runs
            if k <= stop_above.value and repaired is not None and repaired.size() < program.size():
                found[k] = repaired.copy()  # writable, as ``_writable`` says why
                stop_above.value = min(stop_above.value, k)
        _drop_stopped(pool, running, stop_above)
    stop_above.value = NO_STOP
    if not found:
        return None, attempt + len(tasks)
    k = min(found)
    return found[k], attempt + k + 1


def _left(search: _Search) -> float:
    return max(0.0, search.deadline - search.clock())


def _has_sketch(prep: Prepared, totals: list[int]) -> bool:
    return any(shapes(prep, total) for total in totals)


def _on_pool(
    search: _Search,
    goal: int,
    workers: tuple[WorkerPool | RayExecutor, Any],
    show: Callable[[int | None], None],
    take: Callable[[Candidate, tuple[int, ...]], None],
) -> None:
    """The restarts on the pool's workers, numbered and handed out in order (one per worker, so none waits
    with a stale sketch size). A win at k lowers the stop mark to k: restarts above it stop (on Ray: are
    cancelled) and are dropped (their numbers are handed out again, as one process would run them after the
    win), those below run on; once none runs, the lowest win is taken and shrunk, its repairs on the pool
    too. Every worker is stopped and joined on the way out (a Ray instance we started is shut down)."""
    pool, stop_above = workers
    search.repairs = lambda program, attempt: _repairs_on_pool(search, pool, stop_above, program, attempt)
    running: dict[Future[Any], int] = {}
    wins: list[tuple[int, Candidate, tuple[int, ...]]] = []
    counted: list[int] = []  # restarts counted since the last win taken
    index = 0
    try:
        while True:
            best = _best_size(search)
            if wins and not running:
                k, found, shape = min(wins, key=lambda w: w[0])
                search.restarts -= sum(1 for i in counted if i > k)
                wins, counted, index, stop_above.value = [], [], k + 1, NO_STOP
                take(found, shape)
                continue
            if not wins:
                if (best is not None and best <= goal) or search.clock() >= search.deadline:
                    break
                totals = _totals(search.prep, best)
                if not _has_sketch(search.prep, totals):
                    break
                while len(running) < pool.workers:
                    args = (search.prep, search.seed, search.tick_cap, search.iterations, _left(search))
                    running[pool.submit(_pooled_restart, *args, index, totals)] = index
                    index += 1
            show(best)
            done, _ = wait(running, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
            for future in done:
                k = running.pop(future)
                found, shape, runs = future.result()
                search.evaluations += runs
                if k > stop_above.value:  # stopped for a win numbered below it
                    continue
                search.restarts += 1
                counted.append(k)
                if found is not None and shape is not None:
                    wins.append((k, found.copy(), shape))  # writable, as ``_writable`` says why
                    stop_above.value = min(stop_above.value, k)
            _drop_stopped(pool, running, stop_above)
    finally:
        mark, stop_above.value = stop_above.value, -1
        pool.shutdown(wait=True, cancel_futures=True)
        for future, k in running.items():  # cut short by the deadline or Ctrl-C, as one process counts them
            if future.done() and not future.cancelled() and future.exception() is None:
                search.evaluations += future.result()[2]
                search.restarts += k <= mark


def _result(search: _Search, level: Level, seconds: float, restarts: int, interrupted: bool) -> SketchResult:
    if search.best is None:
        return SketchResult(
            level.name,
            search.seed,
            False,
            None,
            None,
            None,
            None,
            None,
            seconds,
            restarts,
            search.evaluations,
            None,
            interrupted,
        )
    program = decode(search.prep, search.best)
    report = run_level(level, program)
    return SketchResult(
        level.name,
        search.seed,
        report.solved,
        program,
        register_count(program),
        search.found_size,
        level.stars_for(program),
        report.steps,
        seconds,
        restarts,
        search.evaluations,
        search.shape,
        interrupted,
    )
