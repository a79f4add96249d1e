"""``solve``: an exhaustive synthesizer for the game semantics, in the spirit of Elizarov's solver.

Iterative deepening over the register budget; at each budget the lazy depth-first search of
``kernels.solve`` runs as tasks over the executor of ``core.batch.make_executor`` (the process pool of
``--jobs`` workers, or Ray). A task is the number of functions and an option prefix (the decisions at the
first branch points); a task that grows past ``TASK_NODES`` options stops and returns the rest of its subtree
as children (the path it was on, then the untried options above it), so the work spreads over every core,
nothing is searched twice and a time limit is honoured.
The first program found is verified on the real game interpreter and rated with the level's stars.
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from puzzlebots.core.batch import WorkerPool, check_executor, default_jobs, make_executor

from ..engine import Colours, encode_board, run_level
from ..kernels import solve as kernel
from ..language import RegisterProgram, format_registers, register_count
from ..levels import Level
from ..rules import LEFT, PICKUP, RIGHT

if TYPE_CHECKING:
    from puzzlebots.core.ray_executor import RayExecutor

COMMAND_OPS = {"right": RIGHT, "left": LEFT, "pickup": PICKUP}
TASK_NODES = 300_000
DEFAULT_TICK_CAP = 5_000
_CODES: dict[str | None, int] = {None: 0, "any": -1, "none": -2}


@dataclass(frozen=True)
class SolveResult:
    level: str
    solved: bool
    program: RegisterProgram | None
    size: int | None
    stars: int | None
    ticks: int | None
    seconds: float
    nodes: int
    searched_to: int  # largest budget searched exhaustively (minimality holds up to it)

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "solved": self.solved,
            "program": format_registers(self.program) if self.program else None,
            "size": self.size,
            "stars": self.stars,
            "ticks": self.ticks,
            "seconds": round(self.seconds, 2),
            "nodes": self.nodes,
            "searched_to": self.searched_to,
        }


def _holds(code: int, held: int) -> bool:
    return code == 0 or code == held or (code == -1 and held > 0) or (code == -2 and held == 0)


class Setup(NamedTuple):
    """A level prepared for the search (picklable for workers): the kernel's ``Problem``, and what turns its
    programs back into registers (the toolbox condition names, the number of functions)."""

    name: str
    cond_names: tuple[str | None, ...]
    nf: int
    problem: kernel.Problem


def prepare(level: Level, tick_cap: int = DEFAULT_TICK_CAP) -> Setup:
    """Everything the kernel needs about a level, as small numpy arrays."""
    colours = Colours()
    board = encode_board(level.board(), level.goal_board(), colours)
    held_values = [0] + sorted(set(int(c) for c in board.piles.flat if c))
    cond_names: list[str | None] = [None, *level.conditions]
    codes = [_CODES[c] if c in _CODES else colours.id(str(c)) for c in cond_names]
    ncolours = len(colours.ids)
    firemask = np.zeros(ncolours + 1, np.int32)
    for held in range(ncolours + 1):
        firemask[held] = sum(1 << k for k, code in enumerate(codes) if _holds(code, held))
    nf = sum(1 for c in level.commands if c.startswith("f"))
    slots = np.array(level.functions[:nf], np.int32)
    oplist = [COMMAND_OPS[c] for c in ("pickup", "right", "left") if c in level.commands]
    oplist += [4 + k for k in range(nf)]
    red = _redundant_pairs(codes, held_values)
    need = _needed_ops(level)
    rng = np.random.default_rng(0xCA460)
    cap = board.piles.shape[1]

    def z(*shape: int) -> np.ndarray:
        return rng.integers(1, 2**63, size=shape, dtype=np.int64).astype(np.uint64)

    toolbox = kernel.Toolbox(
        slots=slots,
        limits_sorted=np.array(sorted(slots[1:], reverse=True) + [0], np.int32),
        oplist=np.array(oplist, np.int32),
        firemask=firemask,
        allmask=(1 << len(codes)) - 1,
        red=red,
        ncond=len(codes),
    )
    keys = kernel.Keys(
        board=z(len(board.heights), cap, ncolours + 1),
        claw=z(len(board.heights)),
        held=z(ncolours + 1),
        site=z(nf, int(slots.max())),
    )
    problem = kernel.Problem(board, level.claw - 1, need, tick_cap, toolbox, keys)
    return Setup(level.name, tuple(cond_names), nf, problem)


def _redundant_pairs(codes: list[int], held_values: list[int]) -> np.ndarray:
    """red[o1, c1, o2, c2]: two adjacent moves (or two pickups) that act like one register or none,
    or two moves that commute and are out of canonical order (the swapped pair is searched instead).

    Moves are compared by the displacement for every held crate (walls and topples only get more
    likely with the pair); pickups by held crate and pile top afterwards, which ignores a win between
    the two (as Elizarov's table does).
    """
    n = len(codes)
    red = np.zeros((4, n, 4, n), np.int8)
    sign = {1: 1, 2: -1}
    for o1, c1, o2, c2 in itertools.product((1, 2), range(n), (1, 2), range(n)):
        d = [sign[o1] * _holds(codes[c1], h) + sign[o2] * _holds(codes[c2], h) for h in held_values]
        singles = [[sign[o] * _holds(codes[c], h) for h in held_values] for o in (1, 2) for c in range(n)]
        both = any(_holds(codes[c1], h) and _holds(codes[c2], h) for h in held_values)
        out_of_order = (o1 == o2 or not both) and (o1, c1) > (o2, c2)  # the swapped pair acts the same
        red[o1, c1, o2, c2] = all(x == 0 for x in d) or d in singles or out_of_order
    cases = [(h, t) for h in held_values for t in held_values]  # t = 0: empty pile

    def pick(c: int, state: tuple[int, tuple[int, ...]]) -> tuple[int, tuple[int, ...]]:
        held, pile = state
        if not _holds(codes[c], held):
            return state
        if held:
            return 0, (*pile, held)
        return (pile[-1], pile[:-1]) if pile else state

    def effect(*conds: int) -> list[tuple[int, tuple[int, ...]]]:
        out = []
        for held, top in cases:
            state: tuple[int, tuple[int, ...]] = (held, (top,) if top else ())
            for c in conds:
                state = pick(c, state)
            out.append(state)
        return out

    singles_p = [effect()] + [effect(c) for c in range(n)]
    for c1, c2 in itertools.product(range(n), range(n)):
        red[3, c1, 3, c2] = effect(c1, c2) in singles_p
    return red


def _one_way(start: list[list[str]], goal: list[list[str]], claw: int) -> bool:
    """Can a program whose claw only moves right (never ``left``) turn ``start`` into ``goal``?

    Such a claw never comes back: piles left of it stay, and it leaves every pile once, holding at most
    one crate. So a pile it arrives at empty-handed either stays or loses its top crate (carried on), and
    one it arrives at holding a crate either stays (the crate carried on) or gets that crate on top.
    """
    if start[:claw] != goal[:claw]:
        return False
    carry: str | None = None
    for p in range(claw, len(start)):
        s_pile, g_pile = start[p], goal[p]
        if g_pile == s_pile:
            continue  # passed through (an empty-handed take-and-put-back changes nothing either)
        if carry is None and s_pile and g_pile == s_pile[:-1]:
            carry = s_pile[-1]
        elif carry is not None and g_pile == [*s_pile, carry]:
            carry = None
        else:
            return False
    return carry is None


def _needed_ops(level: Level) -> np.ndarray:
    """[right, left, pickup, crates to move]: what every solution needs (sound, from the board alone):
    ``left`` unless a right-only claw could do it (``_one_way``), ``right`` likewise mirrored."""
    start, goal, claw = [list(p) for p in level.stacks], [list(p) for p in level.goal], level.claw - 1
    differing = [p for p in range(len(start)) if start[p] != goal[p]]
    left = not _one_way(start, goal, claw)
    right = not _one_way(start[::-1], goal[::-1], len(start) - 1 - claw)
    staying = 0
    for s_pile, g_pile in zip(start, goal, strict=True):
        for a, b in zip(s_pile, g_pile, strict=False):
            if a != b:
                break
            staying += 1
    moved = sum(map(len, start)) - staying
    return np.array([right, left, bool(differing), moved], np.int32)


def run_task(setup: Setup, budget: int, prefix: tuple[int, ...], max_nodes: int, all_counters: bool = False) -> tuple:
    """One subtree: (status, program arrays or child prefixes, options tried); with ``all_counters`` the
    last item is the kernel's whole counter vector of the first attempts (``kernel.NODES``, the ``PR_*`` cuts).

    A prefix starts with the number of functions of its programs, then the kernel's options. The root task
    () searches 1, 2, ... functions in turn: the counts partition the programs (the kernel's lower bound
    counts the functions still to introduce, so a pass repeats little of the one before), and programs with
    few functions, where most solutions are, come first.
    """
    counts = [prefix[0]] if prefix else list(range(1, setup.nf + 1))
    forced = np.array(prefix[1:], np.int32)
    total = np.zeros(kernel.NCOUNTERS, np.int64)
    status, payload = kernel.EXHAUSTED, None
    for k, nfun in enumerate(counts):
        left = max(1, max_nodes - int(total[kernel.NODES]))
        status, payload = _run_pass(setup, kernel.Task(budget, forced, left, nfun), total)
        if status == kernel.TOO_BIG:
            payload = [(nfun, *child) for child in payload] + [(m,) for m in counts[k + 1 :]]
        if status != kernel.EXHAUSTED:
            break
    return status, payload, total if all_counters else int(total[kernel.NODES])


def _run_pass(setup: Setup, task: kernel.Task, total: np.ndarray) -> tuple[int, Any]:
    """One kernel search (its counters added to ``total``); past ``task.max_nodes`` it returns what is left
    of its subtree as child prefixes (running them in order continues the search, repeating nothing)."""
    nf, smax = setup.nf, int(setup.problem.toolbox.slots.max())
    out = kernel.Output(
        op=np.zeros((nf, smax), np.int8),
        mask=np.zeros((nf, smax), np.int32),
        length=np.zeros(nf, np.int32),
        prefixes=np.zeros(kernel.frontier_shape(setup.problem, task.budget), np.int32),
        counters=np.zeros(kernel.NCOUNTERS, np.int64),
    )
    status = int(kernel.search(setup.problem, task, out))
    total += out.counters
    if status == kernel.TOO_BIG:
        rows = out.prefixes[: out.counters[kernel.PREFIXES]]
        return status, [tuple(int(x) for x in row if x >= 0) for row in rows]
    if status == kernel.FOUND:
        return status, (out.op, out.mask, out.length)
    return status, None


def decode_program(setup: Setup, arrays: tuple[np.ndarray, np.ndarray, np.ndarray]) -> RegisterProgram:
    """Kernel arrays -> registers: never-fired registers dropped, functions relabelled to fit the slots."""
    out_op, out_mask, out_len = arrays
    slots = list(setup.problem.toolbox.slots)
    functions: list[list[tuple[int, int]]] = []
    for k in range(len(out_len)):
        functions.append([(int(out_op[k, r]), int(out_mask[k, r])) for r in range(out_len[k]) if out_op[k, r]])
    while len(functions) > 1 and not functions[-1]:
        functions.pop()
    rest = list(range(1, len(functions)))
    order = next(
        (p for p in itertools.permutations(rest) if all(len(functions[f]) <= slots[i + 1] for i, f in enumerate(p))),
        tuple(rest),
    )
    label = {0: 0} | {f: i + 1 for i, f in enumerate(order)}
    cond_names = setup.cond_names
    program: list[tuple[tuple[str | None, str | None], ...]] = [()] * len(functions)
    for f, registers in enumerate(functions):
        regs = []
        for op, mask in registers:
            command = {1: "right", 2: "left", 3: "pickup"}.get(op) or f"f{label[op - 4] + 1}"
            cond = cond_names[(mask & -mask).bit_length() - 1]
            regs.append((command, cond))
        program[label[f]] = tuple(regs)
    return tuple(program)


def _tasks(
    setup: Setup, budget: int, pool: WorkerPool | RayExecutor | None, deadline: float, counter: list[int]
) -> Iterator[tuple]:
    """Run every task of one budget on ``pool`` (None: here); yields FOUND results (stops early when the
    consumer stops, cancelling what has not started)."""
    pending: deque[tuple[int, ...]] = deque([()])
    if pool is None:
        while pending and time.monotonic() < deadline:
            status, payload, nodes = run_task(setup, budget, pending.popleft(), TASK_NODES)
            counter[0] += nodes
            if status == kernel.FOUND:
                yield payload
                return
            if status == kernel.TOO_BIG:
                pending.extend(payload)
        if pending:
            raise TimeoutError
        return
    running: set[Future] = set()
    try:
        while pending or running:
            if time.monotonic() >= deadline:
                raise TimeoutError
            while pending and len(running) < 2 * pool.workers:
                running.add(pool.submit(run_task, setup, budget, pending.popleft(), TASK_NODES))
            timeout = None if deadline == float("inf") else max(0.01, deadline - time.monotonic())
            done, running = wait(running, timeout=timeout, return_when=FIRST_COMPLETED)
            for future in done:
                status, payload, nodes = future.result()
                counter[0] += nodes
                if status == kernel.FOUND:
                    yield payload
                    return
                if status == kernel.TOO_BIG:
                    pending.extend(payload)
    finally:
        for future in running:
            future.cancel()


def solve(
    level: Level,
    jobs: int | None = None,
    time_limit: float | None = None,
    max_size: int | None = None,
    tick_cap: int = DEFAULT_TICK_CAP,
    progress: Callable[[int], None] | None = None,
    executor: str = "process",
    address: str | None = None,
) -> SolveResult:
    """A smallest program (within the search model) that wins ``level`` in the game semantics.

    ``jobs``, ``executor`` and ``address`` choose the workers as for ``core.batch.make_executor``.
    """
    check_executor(executor, jobs, address)
    setup = prepare(level, tick_cap)
    start = time.monotonic()
    deadline = start + time_limit if time_limit else float("inf")
    counter = [0]
    limit = max_size or sum(setup.problem.toolbox.slots)
    searched = 0
    here = executor == "process" and (jobs or default_jobs()) == 1
    pool = None if here else make_executor(executor, jobs, address)
    try:
        for budget in range(1, limit + 1):
            if progress:
                progress(budget)
            try:
                found = next(_tasks(setup, budget, pool, deadline, counter), None)
            except TimeoutError:
                break
            if found is not None:
                program = decode_program(setup, found)
                report = run_level(level, program)
                return SolveResult(
                    level.name, report.solved, program, register_count(program), level.stars_for(program),
                    report.steps, time.monotonic() - start, counter[0], budget - 1,
                )  # fmt: skip
            searched = budget
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
    return SolveResult(level.name, False, None, None, None, None, time.monotonic() - start, counter[0], searched)
