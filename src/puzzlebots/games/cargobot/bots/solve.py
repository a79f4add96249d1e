"""``solve``: an exhaustive synthesizer for the game semantics, in the spirit of Elizarov's solver.

Iterative deepening over the register budget; at each budget the lazy depth-first search of
``kernels.solve`` runs as tasks over the executor of ``core.batch.make_executor`` (the process pool of
``--jobs`` workers, or Ray). A task is the number of functions and an option prefix (the decisions at the
first branch points); a task that grows past ``TASK_NODES`` options stops and returns the rest of its subtree
as children (the path it was on, then the untried options above it), so the work spreads over every core,
nothing is searched twice and a time limit is honoured.
The sizes exhausted and the prefixes of the size in progress not yet finished are the level's record in a
``progress.ProgressFile``, so that a stopped search goes on where it was (``solve --resume``).
The first program found is verified on the real game interpreter and rated with the level's stars.
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, wait
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from puzzlebots.core.batch import WorkerPool, make_executor
from puzzlebots.core.workers import check_executor, default_jobs

from ..engine import Colours, EncodedBoard, encode_board
from ..kernels import prune as prune_kernel
from ..kernels import solve as kernel
from ..language import RegisterProgram, format_registers, parse_registers, register_count
from ..levels import Level
from ..progress import ProgressFile, digest
from ..records import Found, Frontier, LevelProgress
from ..report import RunReport
from ..rules import LEFT, PICKUP, RIGHT, TOPPLE_HEIGHT
from ..verify import play_out
from .hints import NO_HINTS, Hints

if TYPE_CHECKING:
    from puzzlebots.core.ray_executor import RayExecutor

COMMAND_OPS = {"right": RIGHT, "left": LEFT, "pickup": PICKUP}
TASK_NODES = 300_000
DEFAULT_TICK_CAP = 5_000
_CODES: dict[str | None, int] = {None: 0, "any": -1, "none": -2}
#: the crate of a wall pile between two boards of a sub-problem: "none" names no crate (``levels.check_board``)
WALL = "none"


@dataclass(frozen=True, kw_only=True)
class SolveResult:
    """A level's search: the program found (None: not solved) with its registers, stars and ticks; the seconds
    and nodes of every session of the level; ``searched_to``, the largest size searched exhaustively
    (minimality holds up to it); how the program was found (``records.METHODS``: "exhaustive" is proven
    smallest in the model) and what the search was told (``bots.hints``: with any, nothing is proven minimal)."""

    level: str
    solved: bool
    program: RegisterProgram | None = None
    size: int | None = None
    stars: int | None = None
    ticks: int | None = None
    seconds: float
    nodes: int
    searched_to: int
    method: str = "exhaustive"
    hints: Hints = NO_HINTS

    @property
    def proven_minimal(self) -> bool:
        exhausted = self.size is not None and self.searched_to >= self.size - 1
        return self.solved and exhausted and not self.hints.given()

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
            "method": self.method,
            "proven_minimal": self.proven_minimal,
        } | ({"hints": self.hints.describe()} if self.hints.given() else {})


def _holds(code: int, held: int) -> bool:
    return code == 0 or code == held or (code == -1 and held > 0) or (code == -2 and held == 0)


class Setup(NamedTuple):
    """A level prepared for the search (picklable for workers): the kernel's ``Problem``, and what turns its
    programs back into registers (the toolbox condition names, the number of functions)."""

    name: str
    cond_names: tuple[str | None, ...]
    functions: int
    problem: kernel.Problem

    @property
    def digest(self) -> str:
        """What makes an option prefix mean the same subtree (the ``search`` of its progress record): the
        kernels' code and the arrays the search branches over."""
        toolbox, problem = self.problem.toolbox, self.problem
        code = [Path(m.__file__).read_bytes() for m in (kernel, prune_kernel) if m.__file__]
        arrays = [
            a.tobytes()
            for a in (
                toolbox.slots,
                toolbox.oplist,
                toolbox.firemask,
                toolbox.redundant_pairs,
                problem.needed,
                problem.pile_rules,
                problem.fixed_op,
                problem.fixed_mask,
                problem.fixed_len,
                problem.worlds,
                problem.world_goal,
            )
        ]
        flags = bytes([toolbox.ncond, toolbox.allmask & 255, problem.poison & 255, problem.finish])
        return digest(*code, *arrays, flags)


def setup_search(level: Level, tick_cap: int = DEFAULT_TICK_CAP, hints: Hints = NO_HINTS) -> Setup:
    """Everything the kernel needs about a level, as small numpy arrays; ``hints`` narrow the search (a
    ``shape`` drops the functions past it and caps the others, ``min_ops`` raise the ops needed; pile rules go
    to the kernel as they are)."""
    colours = Colours()
    stacks, goal, pile_rules, worlds = _side_by_side(level, hints.pile_rules)
    board = encode_board(stacks, goal, colours)
    held_values = [0] + sorted(set(int(c) for c in board.piles.flat if c) - {colours.ids.get(WALL, 0)})
    cond_names: list[str | None] = [None, *level.conditions]
    codes = [_CODES[c] if c in _CODES else colours.id(str(c)) for c in cond_names]
    ncolours = len(colours.ids)
    firemask = np.zeros(ncolours + 1, np.int32)
    for held in range(ncolours + 1):
        firemask[held] = sum(1 << k for k, code in enumerate(codes) if _holds(code, held))
    functions = level.callable_functions
    slots = np.array(level.functions[:functions] if hints.shape is None else hints.shape, np.int32)
    functions = len(slots)
    oplist = [COMMAND_OPS[c] for c in ("pickup", "right", "left") if c in level.commands]
    oplist += [4 + k for k in range(functions)]
    redundant = _redundant_pairs(codes, held_values)
    needed = np.max([_needed_ops(start, end, claw - 1) for claw, start, end in level.boards()], axis=0)
    needed = needed.astype(np.int32)
    needed[:3] = np.maximum(needed[:3], hints.min_ops)
    rng = np.random.default_rng(0xCA460)
    height = board.piles.shape[1]

    def random_keys(*shape: int) -> np.ndarray:
        return rng.integers(1, 2**63, size=shape, dtype=np.int64).astype(np.uint64)

    toolbox = kernel.Toolbox(
        slots=slots,
        limits_sorted=np.array(sorted(slots[1:], reverse=True) + [0], np.int32),
        oplist=np.array(oplist, np.int32),
        firemask=firemask,
        allmask=(1 << len(codes)) - 1,
        redundant_pairs=redundant,
        ncond=len(codes),
    )
    keys = kernel.Keys(
        board=random_keys(len(board.heights), height, ncolours + 1),
        claw=random_keys(len(board.heights)),
        held=random_keys(ncolours + 1),
        site=random_keys(functions, int(slots.max())),
    )
    rules = np.array(pile_rules, np.int8)
    fixed_op, fixed_mask, fixed_len = _encode_fixed(hints.fixed, functions, int(slots.max()), cond_names)
    # the functions every program has: up to the last one given whole, or called by one given
    given = [k + 1 for k in range(functions) if fixed_len[k] >= 0] + [int(o) - 3 for o in fixed_op.flat]
    first_functions = max([1, *given])
    world_goal = _world_goals(worlds, board, keys.board)
    poison = colours.ids.get(level.poison, 0) if level.poison else 0  # (none on the boards: nothing to lift)
    problem = kernel.Problem(
        board,
        needed,
        tick_cap,
        toolbox,
        keys,
        rules,
        fixed_op,
        fixed_mask,
        fixed_len,
        first_functions,
        worlds,
        world_goal,
        poison,
        int(level.finish),
    )
    return Setup(level.name, tuple(cond_names), functions, problem)


def _side_by_side(level: Level, given: tuple[int, ...] | None) -> tuple[list, list, list[int], np.ndarray]:
    """A sub-problem's boards side by side for the kernel, a wall pile between two: ``TOPPLE_HEIGHT`` crates
    that may be neither taken nor put on, so a claw that steps onto it dies at its next op or move, as the game's
    claw dies at a wall. With the pile rules (``given``: one per pile of the boards, in turn) and the
    ``Problem.worlds`` rows. A plain level is one board, as it is."""
    if given is not None and len(given) != level.board_piles:  # (the kernel reads one per pile, unchecked)
        raise ValueError(f"{len(given)} pile rules for {level.board_piles} piles")
    rules_left = iter(given or [0] * level.board_piles)
    stacks, goal, rules, rows = [], [], [], []
    for k, (claw, start, end) in enumerate(level.boards()):
        if k:
            stacks.append([WALL] * TOPPLE_HEIGHT)
            goal.append([WALL] * TOPPLE_HEIGHT)
            rules.append(kernel.NO_PUT | kernel.NO_TAKE)
        first, last, at = len(stacks), len(stacks) + len(start) - 1, len(stacks) + claw - 1
        rows.append((first, last, at, *((at, at) if level.home else (first, last))))
        stacks += [list(p) for p in start]
        goal += [list(p) for p in end]
        rules += [next(rules_left) for _ in start]
    return stacks, goal, rules, np.array(rows, np.int32)


def _world_goals(rows: np.ndarray, board: EncodedBoard, board_keys: np.ndarray) -> np.ndarray:
    """``Problem.world_goal``: the board's hash once boards 0..w are at their goals and the others as they start."""
    piles, heights = board.piles.copy(), board.heights.copy()
    goals = []
    for first, last, *_ in rows:
        done = slice(first, last + 1)
        piles[done], heights[done] = board.goal[done], board.goal_heights[done]
        goals.append(kernel.board_hash(piles, heights, board_keys))
    return np.array(goals, np.uint64)


def _encode_fixed(
    fixed: RegisterProgram | None, functions: int, most_slots: int, cond_names: list[str | None]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's arrays for the functions given whole (``Hints.fixed``, checked against the level), for
    ``functions`` functions of at most ``most_slots`` registers."""
    shape = (functions, most_slots)
    op, mask, length = np.zeros(shape, np.int8), np.zeros(shape, np.int32), np.full(functions, -1, np.int32)
    for f, registers in enumerate(fixed or ()):
        if registers:
            length[f] = len(registers)
        for r, (command, cond) in enumerate(registers):
            op[f, r] = COMMAND_OPS[command] if command in COMMAND_OPS else 3 + int(str(command)[1:])
            mask[f, r] = 1 << cond_names.index(cond)
    return op, mask, length


def _redundant_pairs(codes: list[int], held_values: list[int]) -> np.ndarray:
    """redundant[o1, c1, o2, c2]: two adjacent moves (or two pickups) that act like one register or none,
    or two moves that commute and are out of canonical order (the swapped pair is searched instead).

    Moves are compared by the displacement for every held crate (walls and topples only get more
    likely with the pair); pickups by held crate and pile top afterwards, which ignores a win between
    the two (as Elizarov's table does).
    """
    n = len(codes)
    redundant = np.zeros((4, n, 4, n), np.int8)
    sign = {1: 1, 2: -1}
    for o1, c1, o2, c2 in itertools.product((1, 2), range(n), (1, 2), range(n)):
        d = [sign[o1] * _holds(codes[c1], h) + sign[o2] * _holds(codes[c2], h) for h in held_values]
        singles = [[sign[o] * _holds(codes[c], h) for h in held_values] for o in (1, 2) for c in range(n)]
        both = any(_holds(codes[c1], h) and _holds(codes[c2], h) for h in held_values)
        out_of_order = (o1 == o2 or not both) and (o1, c1) > (o2, c2)  # the swapped pair acts the same
        redundant[o1, c1, o2, c2] = all(x == 0 for x in d) or d in singles or out_of_order
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
        redundant[3, c1, 3, c2] = effect(c1, c2) in singles_p
    return redundant


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


def _needed_ops(stacks: Any, goal_piles: Any, claw: int) -> np.ndarray:
    """[right, left, pickup, crates to move]: what every solution needs on a board (sound, from the board alone;
    0-based ``claw``): ``left`` unless a right-only claw could do it (``_one_way``), ``right`` likewise mirrored.
    A sub-problem needs what any of its boards needs."""
    start, goal = [list(p) for p in stacks], [list(p) for p in goal_piles]
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
    counts = [prefix[0]] if prefix else list(range(setup.problem.fixed_nfun, setup.functions + 1))
    forced = np.array(prefix[1:], np.int32)
    total = np.zeros(kernel.NCOUNTERS, np.int64)
    status, payload = kernel.EXHAUSTED, None
    for k, functions in enumerate(counts):
        left = max(1, max_nodes - int(total[kernel.NODES]))
        status, payload = _run_pass(setup, kernel.Task(budget, forced, left, functions), total)
        if status == kernel.TOO_BIG:
            payload = [(functions, *child) for child in payload] + [(m,) for m in counts[k + 1 :]]
        if status != kernel.EXHAUSTED:
            break
    return status, payload, total if all_counters else int(total[kernel.NODES])


def _run_pass(setup: Setup, task: kernel.Task, total: np.ndarray) -> tuple[int, Any]:
    """One kernel search (its counters added to ``total``); past ``task.max_nodes`` it returns what is left
    of its subtree as child prefixes (running them in order continues the search, repeating nothing)."""
    shape = (setup.functions, int(setup.problem.toolbox.slots.max()))
    out = kernel.Output(
        op=np.zeros(shape, np.int8),
        mask=np.zeros(shape, np.int32),
        length=np.zeros(setup.functions, np.int32),
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


def _settle(outcome: tuple, counter: list[int], pending: deque[tuple[int, ...]]) -> tuple | None:
    """Count a finished task's nodes and queue the prefixes it split off; its program when it found one."""
    status, payload, nodes = outcome
    counter[0] += nodes
    if status == kernel.FOUND:
        return payload
    if status == kernel.TOO_BIG:
        pending.extend(payload)
    return None


def _tasks(
    setup: Setup,
    budget: int,
    pool: WorkerPool | RayExecutor | None,
    deadline: float,
    clock: Callable[[], float],
    counter: list[int],
    frontier: Frontier,
    on_task: Callable[[], None],
) -> Iterator[tuple]:
    """Run every task of one budget on ``pool`` (None: here), taking prefixes from ``frontier``, until ``clock``
    reaches ``deadline``; yields FOUND results (stops early when the consumer stops, cancelling what has not
    started). ``on_task`` runs after each finished task. A prefix leaves ``frontier`` only after its children are
    in it, so whenever an interrupt lands the frontier still covers every unfinished subtree (at worst one
    twice)."""
    pending, running = frontier.pending, frontier.running
    if pool is None:
        while pending and clock() < deadline:
            running[0] = pending[0]
            pending.popleft()
            found = _settle(run_task(setup, budget, running[0], TASK_NODES), counter, pending)
            if found is not None:
                yield found
                return
            del running[0]
            on_task()
        if pending:
            raise TimeoutError
        return
    try:
        while pending or running:
            if clock() >= deadline:
                raise TimeoutError
            while pending and len(running) < 2 * pool.workers:
                running[pool.submit(run_task, setup, budget, pending[0], TASK_NODES)] = pending[0]
                pending.popleft()
            timeout = None if deadline == float("inf") else max(0.01, deadline - clock())
            done, _ = wait(list(running), timeout=timeout, return_when=FIRST_COMPLETED)
            for future in done:
                found = _settle(future.result(), counter, pending)
                if found is not None:
                    yield found
                    return
                del running[future]
            on_task()
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
    book: ProgressFile | None = None,
    hints: Hints = NO_HINTS,
    first: int = 1,
    clock: Callable[[], float] = time.monotonic,
) -> SolveResult:
    """A smallest program (within the search model) that wins ``level`` in the game semantics.

    ``jobs``, ``executor`` and ``address`` choose the workers as for ``core.batch.make_executor``. ``book``
    holds the level's record: the search starts where it stopped (sizes exhausted, prefixes left), and it
    is written as the search goes (``ProgressFile.save``: every few seconds, every finished size, at the end,
    and on an interrupt). The result's nodes and seconds add up every session of the level. A provisional
    record (``LevelProgress.provisional``: a sketch program above the best known size) is searched on below
    that program's size: a smaller program found replaces it, and once every smaller size is exhausted it is
    proven minimal; until then the result is the sketch program. Under ``hints`` (``bots.hints``) the program is
    smallest among those they allow (method ``hinted``, or the hints' own: ``ruled``); the record is that
    search's (``Setup.digest``). From ``first`` > 1 the search starts at that size, the sizes below skipped
    (counted in ``searched_to``, so it proves nothing: only for hints, whose results make no such claim).
    ``time_limit`` is in seconds of ``clock``, which also times the record.
    """
    check_executor(executor, jobs, address)
    setup = setup_search(level, tick_cap, hints)
    method = hints.method if hints.given() else "exhaustive"
    book = book or ProgressFile(None, tick_cap)
    rec = _record(level, setup, book, hints, first)
    if rec.result is not None and not rec.provisional(level):
        return recorded(level, rec, hints)
    start, counter, nodes_before, seconds_before = clock(), [0], rec.nodes, rec.seconds
    deadline = start + time_limit if time_limit else float("inf")
    limit = _largest_size(setup, rec, max_size)
    here = executor == "process" and (jobs or default_jobs()) == 1
    pool = None if here or rec.searched_to >= limit else make_executor(executor, jobs, address)

    def sync(force: bool = False) -> None:
        rec.count(nodes_before + counter[0], seconds_before + clock() - start)
        book.save(force)

    found_here = False  # the record holds this session's result: its nodes and seconds are final
    try:
        for budget in range(rec.searched_to + 1, limit + 1):
            if progress:
                progress(budget)
            left = [()] if rec.frontier is None else [tuple(p) for p in rec.frontier.unfinished()]
            frontier = rec.start_size(left)
            try:
                found = next(_tasks(setup, budget, pool, deadline, clock, counter, frontier, sync), None)
            except TimeoutError:
                break
            sync()
            if found is not None:
                program = decode_program(setup, found)
                report = play_out(level, program, tick_cap)
                sync()
                found_here = True
                rec.solve(
                    Found(format_registers(program), register_count(program), report.steps, method)
                    if report.solved
                    else None
                )
                return _found(level, rec, program, report, budget - 1, hints)
            rec.finish_size(budget)
            book.save(force=True)
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        if not found_here:
            sync(force=True)
        else:  # the record keeps the nodes and seconds of the result
            book.save(force=True)
    return _unfound(level, rec, method, hints)


def _unfound(level: Level, rec: LevelProgress, method: str, hints: Hints) -> SolveResult:
    """The result of a search that found no program this session: a provisional record's program (proven
    minimal once every smaller size is exhausted), else an unsolved level."""
    if rec.result is not None:
        return recorded(level, rec, hints)
    return SolveResult(
        level=level.name,
        solved=False,
        seconds=rec.seconds,
        nodes=rec.nodes,
        searched_to=rec.searched_to,
        method=method,
        hints=hints,
    )


def _largest_size(setup: Setup, rec: LevelProgress, max_size: int | None) -> int:
    """The largest register budget to search: ``max_size``, else every slot; below a provisional program's
    size only a smaller program is worth finding."""
    limit = max_size or sum(setup.problem.toolbox.slots)
    if rec.result is not None:
        limit = min(limit, rec.result.size - 1)
    return limit


def _record(level: Level, setup: Setup, book: ProgressFile, hints: Hints, first: int) -> LevelProgress:
    """The level's record in ``book`` for the search of ``setup``; a hinted search from size ``first`` counts
    the sizes below it as searched (a new record lists no line for them)."""
    if first > 1 and not hints.given():
        raise ValueError("only a hinted search skips sizes")
    if book.tick_cap != setup.problem.tick_cap:
        raise ValueError(f"the progress record is for tick cap {book.tick_cap}, not {setup.problem.tick_cap}")
    rec = book.entry(level, setup.digest)
    done = rec.result is not None and not rec.provisional(level)
    if not done and rec.searched_to < first - 1 and rec.frontier is None and not rec.sizes:
        rec.skip_below(first)
    return rec


def _found(
    level: Level, rec: LevelProgress, program: RegisterProgram, report: RunReport, searched_to: int, hints: Hints
) -> SolveResult:
    """The result of the search that found ``program`` (its run ``report``) with sizes up to ``searched_to``
    exhausted."""
    method = hints.method if hints.given() else "exhaustive"
    return SolveResult(
        level=level.name,
        solved=report.solved,
        program=program,
        size=register_count(program),
        stars=level.stars_for(program),
        ticks=report.steps,
        seconds=rec.seconds,
        nodes=rec.nodes,
        searched_to=searched_to,
        method=method,
        hints=hints,
    )


def adopt(
    level: Level, after: SolveResult, program: RegisterProgram, seconds: float, method: str, book: ProgressFile
) -> SolveResult:
    """The level solved by another search (``method``, ``seconds`` long) after the exhaustive one stopped at
    ``after``: the program, checked in game semantics, becomes the level's record. Minimality holds as far as
    the exhaustive search went (``searched_to``). A provisional result (``LevelProgress.provisional``) keeps the
    record's frontier, so the exhaustive search goes on where it stopped; any other drops it."""
    report = play_out(level, program)
    if not report.solved:
        raise ValueError(f"{method} handed back a program that does not win {level.name}")
    rec = book.levels[level.name]
    size = register_count(program)
    found = Found(format_registers(program), size, report.steps, method)
    keep = LevelProgress(rec.name, rec.level, rec.search, rec.searched_to, result=found).provisional(level)
    rec.adopt(found, seconds, keep_frontier=keep)
    book.save(force=True)
    return SolveResult(
        level=level.name,
        solved=True,
        program=program,
        size=size,
        stars=level.stars_for(program),
        ticks=report.steps,
        seconds=rec.seconds,
        nodes=rec.nodes,
        searched_to=after.searched_to,
        method=method,
    )


def recorded(level: Level, rec: LevelProgress, hints: Hints = NO_HINTS) -> SolveResult:
    """The result of a level its record says is solved (``progress.load`` replayed the program)."""
    assert rec.result is not None
    program = parse_registers(rec.result.program)
    return SolveResult(
        level=level.name,
        solved=True,
        program=program,
        size=rec.result.size,
        stars=level.stars_for(program),
        ticks=rec.result.ticks,
        seconds=rec.seconds,
        nodes=rec.nodes,
        searched_to=rec.searched_to,
        method=rec.result.method,
        hints=hints,
    )


def as_recorded(level: Level, book: ProgressFile) -> SolveResult:
    """The level's exhaustive search as its record in ``book`` stands (a new record: nothing searched), searching
    nothing."""
    rec = book.entry(level, setup_search(level, book.tick_cap).digest)
    if rec.result is not None and not rec.provisional(level):
        return recorded(level, rec)
    return SolveResult(
        level=level.name, solved=False, seconds=rec.seconds, nodes=rec.nodes, searched_to=rec.searched_to
    )
