"""The synthesizer's depth-first search in numba (game semantics), after Elizarov's CargoBotSolver.

The program is built lazily while it runs: a register is decided only when execution first reaches
it (``EXTEND``: the function ends here, or gets a register that fires with some op or is skipped),
a register's condition is kept as the *set* of toolbox conditions consistent with every fire/skip seen
so far and split only when the held crate makes that set ambiguous (``SPLIT``), and a register that
was only ever skipped gets its op when it first fires (``OPCHOOSE``). Every branch point saves the
machine (claw, held crate, call stack as a persistent linked list, the undo marks of the loop table and of
the board's moves), so backtracking resumes there instead of re-running from the start: the board is put
back by undoing the few crates lifted and set down since, not copied.

Pruning: register budget with a lower bound (ops the board needs, two registers per extra
function), functions introduced in order, adjacent move pairs equivalent to one register or none,
wall/topple failures, and loop detection at every call: the same board, claw, crate and call site
seen before with the old call stack still a prefix of the current one (never popped in between)
repeats forever.

Arguments come as a few NamedTuples: ``Problem`` (the level, built once by ``bots.solve.setup_search``),
``Task`` (one subtree) and ``Output``; the working arrays are grouped the same way (``Program``,
``Machine``, ``LoopTable``, ``Levels``), with named rows where arrays of one type are stacked. The
search's scalar state (claw, held crate, counts, ...) is one int64 vector with ``ST_*`` slots, so a branch
point saves and restores it in one copy. The loop itself (``_dfs``) is one function with the arrays in
locals: in numba every call with array arguments costs an atomic reference count per array, too much per
node, so its helpers are the pruning rules and the rarer steps.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..rules import PICKUP, RIGHT, TOPPLE_HEIGHT
from .prune import fits, inlinable, redundant

EXTEND, SPLIT, OPCHOOSE = 0, 1, 2  # branch kinds; a run of the machine also ends with:
DEAD, FIRES, FINISHED, WON = 3, 4, 5, 6  # FINISHED: F1 returned (a sub-problem's ``finish``); WON: a board won
FOUND, EXHAUSTED, TOO_BIG = 0, 1, 2
#: ``Output.counters``: options tried, child prefixes written (TOO_BIG), ticks run, runs cut by the tick cap, then the
#: options or runs cut by each pruning rule: function order, slot limits, the lower bound, a redundant
#: register pair, an inlinable function, a loop at a call, a wall or topple, a complete program below the
#: budget, a broken pile rule
NODES, PREFIXES, TICKS_RUN, CAP_HITS = range(4)
PR_ORDER, PR_SLOTS, PR_BOUND, PR_PAIR, PR_INLINE, PR_LOOP, PR_WALL, PR_SHORT, PR_PILE = range(4, 13)
NCOUNTERS = 13
PRUNE_NAMES = (
    "function order",
    "slot limits",
    "lower bound",
    "redundant pair",
    "inlinable",
    "loop",
    "wall/topple",
    "complete below budget",
    "pile rule",
)
#: ``Problem.pile_rules`` bits, per pile (a user's hint, Elizarov's ``:stack`` constraint; 0: no rule): the pile
#: stays a bottom part of its start pile (``KEEP_START``) or of its goal pile (``KEEP_GOAL``; both bits: of
#: either), is never put on (``NO_PUT``) or never taken from (``NO_TAKE``). A run that breaks one ends there.
KEEP_START, KEEP_GOAL, NO_PUT, NO_TAKE = 1, 2, 4, 8
#: the scalar state vector: the machine (claw .. alloc, the loop log length, the current register) and the
#: program's counts (registers used, functions introduced, ops right/left/pickup/call, registers without an op)
ST_CLAW, ST_HELD, ST_TICKS, ST_TOP, ST_ALLOC, ST_NLOG, ST_USED, ST_NFUN = range(8)
ST_COUNTS, ST_UNKNOWN, ST_FUNC, ST_REG, ST_TARGET = 8, 12, 13, 14, 15  # ST_TARGET: ``Task.nfun``
ST_MOVES, ST_WORLD, ST_SIZE = 16, 17, 18  # ST_MOVES: the length of ``Machine.moves``; ST_WORLD: the board run
BOARD_HASH = 0
#: rows of ``Machine.frames``, ``LoopTable.val`` and ``.log_val``, ``Levels.info``
FR_FUNC, FR_REG, FR_PARENT, FR_DEPTH = range(4)
T_TOP, T_DEPTH = 0, 1
L_SLOT, L_TOP, L_DEPTH = 0, 1, 2
LV_KIND, LV_OPT, LV_OLDMASK = 0, 1, 2
#: columns of ``Problem.worlds``: a board's piles (first, last), the claw's start, and where the claw may be for the
#: board to count as at its goal (first, last: its piles, or with ``Level.home`` its start pile)
W_LO, W_HI, W_CLAW, W_AT_LO, W_AT_HI = 0, 1, 2, 3, 4


class Toolbox(NamedTuple):
    """What registers may hold: ``slots`` per function, the toolbox ops (pickup/right/left, 4 + k = call
    F(k+1)), ``firemask[held]`` (bit c: condition c fires), ``redundant_pairs`` (adjacent move pairs that one
    register or none does as well)."""

    slots: np.ndarray
    limits_sorted: np.ndarray  # slots of F2.. sorted descending, then 0
    oplist: np.ndarray
    firemask: np.ndarray
    allmask: int
    redundant_pairs: np.ndarray
    ncond: int


class Keys(NamedTuple):
    """Zobrist keys of the loop table: per (pile, height, crate), claw pile, held crate, call site."""

    board: np.ndarray
    claw: np.ndarray
    held: np.ndarray
    site: np.ndarray


class Problem(NamedTuple):
    """A level for the search: its board (an ``engine.EncodedBoard``), what every solution needs ``[right, left,
    pickup registers, crates to move]``, the tick cap of one run, toolbox, keys, the ``pile_rules``
    (``KEEP_START`` ..., one per pile; all 0: none), and the functions given whole (a user's hint):
    ``fixed_len[f]`` registers of ``fixed_op``/``fixed_mask`` (one condition bit each), -1: F(f+1) is searched;
    ``fixed_nfun`` functions (up to the last one given or called by one given; 1 without) are
    introduced from the start. Given functions count toward the budget and are never inlined.

    A sub-problem's boards (``Level.worlds``) lie side by side in ``board``, a wall pile between two (pile rules
    that forbid taking and putting, and a height that topples: a claw that steps on it dies at its next op, as at
    a wall, and no board is won with the claw there); ``worlds`` rows ``W_*`` give each board's piles (first,
    last), start claw (0-based; the first board's is where the search starts) and where the claw may be at the
    goal (its piles, or its start pile for ``Level.home``); ``world_goal[w]`` is the hash once boards 0..w are at
    their goals. The program runs them in turn (the next starts from F1 when one is won; ticks
    are counted over all). ``poison`` (a crate code, 0: none) may never be lifted; with ``finish`` a board is won
    only when F1 returns with it at its goal. A plain level is one board."""

    board: tuple
    needed: np.ndarray
    tick_cap: int
    toolbox: Toolbox
    keys: Keys
    pile_rules: np.ndarray
    fixed_op: np.ndarray
    fixed_mask: np.ndarray
    fixed_len: np.ndarray
    fixed_nfun: int
    worlds: np.ndarray
    world_goal: np.ndarray
    poison: int
    finish: int


class Task(NamedTuple):
    """One subtree: programs of ``budget`` registers (fewer: complete ones are cut, the deepening searched
    them before) and ``nfun`` functions (0: any) below the ``forced`` option prefix; stop after ``max_nodes``
    options and hand back what is left as child prefixes."""

    budget: int
    forced: np.ndarray
    max_nodes: int
    nfun: int = 0


class Output(NamedTuple):
    """The program found (op, condition mask per register, length per function), the child prefixes of a
    task stopped at ``max_nodes`` (rows of options padded with -1, shaped by ``frontier_shape``), and the
    ``counters`` (``NODES`` ..)."""

    op: np.ndarray
    mask: np.ndarray
    length: np.ndarray
    prefixes: np.ndarray
    counters: np.ndarray


class Program(NamedTuple):
    """The program being built; ``ended[f]``: F(f+1) ends after its registers. ``seen``/``todo``: scratch."""

    op: np.ndarray
    mask: np.ndarray
    length: np.ndarray
    ended: np.ndarray
    seen: np.ndarray
    todo: np.ndarray


class Machine(NamedTuple):
    """The running machine: board, scalar state ``st``, board/goal hashes, the call stack as a persistent
    linked list of frames (rows ``FR_*``: function, register, parent frame, depth), and ``moves``, the
    crates lifted and set down since the start (a lift of crate c >= 1 from pile p is ``c * npiles + p``, a
    set-down on pile p is ``-1 - p``) so that going back to a branch point undoes a few moves instead of copying
    the board."""

    piles: np.ndarray
    heights: np.ndarray
    st: np.ndarray
    hashes: np.ndarray
    frames: np.ndarray
    moves: np.ndarray


class LoopTable(NamedTuple):
    """Open-addressing table of call configurations: ``key`` -> ``val`` rows ``T_*`` (call stack top and
    depth), with an undo log (``log_key`` and ``log_val`` rows ``L_*``)."""

    key: np.ndarray
    val: np.ndarray
    log_key: np.ndarray
    log_val: np.ndarray


class Levels(NamedTuple):
    """The open branch points: ``info`` rows ``LV_*`` (kind, option applied, the register's old mask), and
    the saved machine (scalar state, with the length of ``Machine.moves`` then, and board hash)."""

    info: np.ndarray
    st: np.ndarray
    board_hash: np.ndarray


@njit(cache=True)
def search(problem, task, out):
    """Search the ``task``'s subtree of ``problem``.

    Returns FOUND (program in ``out``), EXHAUSTED, or TOO_BIG when ``task.max_nodes`` options were tried
    without finishing: then ``out.prefixes`` holds the rest of the subtree as option prefixes (their count in
    ``counters[PREFIXES]``), the one just entered first, then the untried siblings, deepest first, so running
    them in order continues the depth-first search without repeating a node.
    """
    prog, machine, table, levels = _workspace(problem, task)
    return _dfs(problem, task, out, prog, machine, table, levels)


@njit(cache=True)
def max_levels(budget, ncond):
    """Branch points open at once, at most: per register its creation and a split per condition, and spare."""
    return budget * (ncond + 2) + 8


def frontier_shape(problem: Problem, budget: int) -> tuple[int, int]:
    """The shape ``Output.prefixes`` needs for a task of ``budget``: a row per untried option, a column per level."""
    levels = int(max_levels(budget, problem.toolbox.ncond))
    return levels * (problem.toolbox.oplist.shape[0] + 2) + 1, levels


@njit(cache=True)
def _workspace(problem, task):
    """Every working array, sized for the task's budget and the problem's tick cap, at the start state."""
    board, slots, tick_cap = problem.board, problem.toolbox.slots, problem.tick_cap
    functions = slots.shape[0]
    most_slots = slots.max()
    prog = Program(
        np.zeros((functions, most_slots), np.int8),
        np.zeros((functions, most_slots), np.int32),
        np.zeros(functions, np.int32),
        np.zeros(functions, np.int8),
        np.zeros(functions, np.int8),
        np.zeros(functions * (most_slots + 1), np.int32),
    )
    st = np.zeros(ST_SIZE, np.int64)
    st[ST_CLAW] = problem.worlds[0, W_CLAW]
    st[ST_TOP] = -1
    st[ST_REG] = -1
    st[ST_TARGET] = task.nfun
    hashes = np.zeros(1, np.uint64)
    hashes[BOARD_HASH] = board_hash(board.piles, board.heights, problem.keys.board)
    frames = np.zeros((4, tick_cap + 2), np.int32)
    moves = np.zeros(tick_cap + 2, np.int32)  # at most one lift or set-down per tick
    machine = Machine(board.piles.copy(), board.heights.copy(), st, hashes, frames, moves)
    tsize = 1
    while tsize < 4 * tick_cap:
        tsize *= 2
    table = LoopTable(
        np.zeros(tsize, np.uint64),
        np.zeros((2, tsize), np.int32),
        np.zeros(tick_cap + 2, np.uint64),
        np.zeros((3, tick_cap + 2), np.int32),
    )
    maxl = max_levels(task.budget, problem.toolbox.ncond)
    levels = Levels(np.zeros((3, maxl), np.int32), np.zeros((maxl, ST_SIZE), np.int64), np.zeros(maxl, np.uint64))
    _place_fixed(problem, prog, st)
    return prog, machine, table, levels


@njit(cache=True)
def _place_fixed(problem, prog, st):
    """Put the functions given whole into the program (registers used, ops counted, functions introduced)."""
    st[ST_NFUN] = problem.fixed_nfun
    for f in range(problem.fixed_len.shape[0]):
        if problem.fixed_len[f] < 0:
            continue
        prog.length[f], prog.ended[f] = problem.fixed_len[f], 1
        for r in range(problem.fixed_len[f]):
            o = problem.fixed_op[f, r]
            prog.op[f, r], prog.mask[f, r] = o, problem.fixed_mask[f, r]
            st[ST_USED] += 1
            st[ST_COUNTS + min(o, 4) - 1] += 1


@njit(cache=True)
def board_hash(piles, heights, board_keys):
    h = np.uint64(0)
    for p in range(heights.shape[0]):
        for k in range(heights[p]):
            h ^= board_keys[p, k, piles[p, k]]
    return h


@njit(cache=True, inline="always")
def _at_goal(piles, heights, board, world, claw):
    """The board run (``world``, a row of ``Problem.worlds``) is at its goal, the claw where it may be then (over
    one of its piles, not over a wall between two boards; with ``Level.home``, on its start pile)."""
    if not world[W_AT_LO] <= claw <= world[W_AT_HI]:
        return False
    for p in range(world[W_LO], world[W_HI] + 1):
        if heights[p] != board.goal_heights[p]:
            return False
        for h in range(heights[p]):
            if piles[p, h] != board.goal[p, h]:
                return False
    return True


@njit(cache=True)
def _write_program(prog, out):
    """The program found into ``out``; ``FOUND``."""
    for k in range(prog.length.shape[0]):
        out.length[k] = prog.length[k]
        for r in range(prog.length[k]):
            out.op[k, r] = prog.op[k, r]
            out.mask[k, r] = prog.mask[k, r]
    return FOUND


@njit(cache=True)
def _dfs(problem, task, out, prog, machine, table, levels):
    """Run to the next decision, branch there, on a dead end go back (one function: array calls cost refcounts)."""
    board, rules, ruled = problem.board, problem.pile_rules, problem.pile_rules.max() > 0 or problem.poison > 0
    (board_keys, claw_keys, held_keys, site_keys), needed = problem.keys, problem.needed
    toolbox, tick_cap, budget, forced = problem.toolbox, problem.tick_cap, task.budget, task.forced
    slots, limits, oplist, firemask, allmask, pair_table, ncond = toolbox  # pair_table: Toolbox.redundant_pairs
    pop, pmask, plen, pend, _, _ = prog
    piles, heights, st, hashes, frames, moves = machine
    (tkey, tval, log_key, log_val), (info, lv_st, lv_bh) = table, levels  # the loop table: written by ``_loops``
    npiles, nops, inlining, poison = heights.shape[0], oplist.shape[0], problem.fixed_len.max() < 0, problem.poison
    counters, level, maxf = out.counters, 0, task.nfun if task.nfun > 0 else slots.shape[0]
    while True:  # ---------------- run the machine until it wins, dies or needs a decision ----------------
        claw, held, ticks, f, i = st[ST_CLAW], st[ST_HELD], st[ST_TICKS], st[ST_FUNC], st[ST_REG]
        top, alloc, nlog, bh, nmoves = st[ST_TOP], st[ST_ALLOC], st[ST_NLOG], hashes[BOARD_HASH], st[ST_MOVES]
        w, gh, event = st[ST_WORLD], problem.world_goal[st[ST_WORLD]], FIRES
        while event == FIRES:
            if bh == gh and problem.finish == 0 and _at_goal(piles, heights, board, problem.worlds[w], claw):
                event = WON
                break
            if ticks >= tick_cap:
                event, counters[CAP_HITS] = DEAD, counters[CAP_HITS] + 1
                break
            fire, o = firemask[held], 0
            while True:  # the next register that fires, returning from finished functions
                i += 1
                if i < plen[f]:
                    fm = pmask[f, i] & fire
                    if fm != 0:
                        o = pop[f, i]
                        event = SPLIT if fm != pmask[f, i] else (OPCHOOSE if o == 0 else FIRES)
                        break
                elif pend[f] == 0 or top < 0:
                    event = EXTEND if pend[f] == 0 else (FINISHED if problem.finish else DEAD)
                    break
                else:
                    f, i, top = frames[FR_FUNC, top], frames[FR_REG, top], frames[FR_PARENT, top]
            if event != FIRES:
                break
            ticks, counters[TICKS_RUN] = ticks + 1, counters[TICKS_RUN] + 1
            if o == PICKUP and held == 0:  # pick up the top crate, if any
                if heights[claw] > 0:
                    heights[claw] -= 1
                    held = piles[claw, heights[claw]]
                    bh ^= board_keys[claw, heights[claw], held]
                    moves[nmoves], nmoves = held * npiles + claw, nmoves + 1
                    event = _pile_rule(rules, held, claw, piles, heights, board, counters, poison) if ruled else FIRES
            elif o == PICKUP:  # put the crate down
                bh ^= board_keys[claw, heights[claw], held]
                piles[claw, heights[claw]] = held
                heights[claw], held = heights[claw] + 1, 0
                moves[nmoves], nmoves = -1 - claw, nmoves + 1
                event = _pile_rule(rules, 0, claw, piles, heights, board, counters, poison) if ruled else FIRES
            elif o <= 2:  # a move; moving away from a pile of 7 or more topples it
                to = claw + (1 if o == RIGHT else -1)
                event = DEAD if heights[claw] >= TOPPLE_HEIGHT or to < 0 or to >= npiles else FIRES
                claw = to
                counters[PR_WALL] += 1 if event == DEAD else 0
            else:
                key = bh ^ claw_keys[claw] ^ held_keys[held] ^ site_keys[f, i] | np.uint64(1)
                if _loops(table, frames, key, f, i, top, alloc, nlog, counters):
                    event = DEAD
                    break
                top, alloc, nlog, f, i = alloc, alloc + 1, nlog + 1, o - 4, -1
        st[ST_CLAW], st[ST_HELD], st[ST_TICKS], st[ST_FUNC], st[ST_REG] = claw, held, ticks, f, i
        st[ST_TOP], st[ST_ALLOC], st[ST_NLOG], hashes[BOARD_HASH], st[ST_MOVES] = top, alloc, nlog, bh, nmoves
        if event == FINISHED:  # (``finish``) F1 returned: the board is won if it is at its goal
            event = WON if bh == gh and _at_goal(piles, heights, board, problem.worlds[w], claw) else DEAD
        if event == WON and w + 1 == problem.worlds.shape[0]:  # the last board won
            return _write_program(prog, out)
        if event == WON:  # the next board starts from F1, the claw empty
            st[ST_WORLD], st[ST_CLAW], st[ST_HELD], st[ST_TOP] = w + 1, problem.worlds[w + 1, W_CLAW], 0, -1
            st[ST_FUNC], st[ST_REG] = 0, -1
            continue
        if event != DEAD and level < info.shape[1]:  # ---------- a decision is needed: open a branch level ----------
            info[LV_KIND, level], info[LV_OPT, level] = event, -1
            info[LV_OLDMASK, level] = pmask[f, i] if i < plen[f] else 0
            lv_st[level], lv_bh[level] = st, bh
            level += 1
        while True:  # ---------------- go back to the deepest level with an option left, and apply it ----------------
            if level == 0:
                return EXHAUSTED
            L = level - 1
            kind, f, i = info[LV_KIND, L], lv_st[L, ST_FUNC], lv_st[L, ST_REG]
            if info[LV_OPT, L] >= 0 and kind == EXTEND:  # undo the option applied here (the old mask: 0)
                pend[f], plen[f] = 0, i
            if info[LV_OPT, L] >= 0 and i < pop.shape[1]:
                pop[f, i] = pop[f, i] if kind == SPLIT else 0
                pmask[f, i] = pmask[f, i] if kind == OPCHOOSE else info[LV_OLDMASK, L]
            while nlog > lv_st[L, ST_NLOG]:  # the loop table entries since
                nlog, s = nlog - 1, log_val[L_SLOT, nlog - 1]
                tkey[s], tval[T_TOP, s], tval[T_DEPTH, s] = log_key[nlog], log_val[L_TOP, nlog], log_val[L_DEPTH, nlog]
            _undo_moves(moves, st[ST_MOVES], lv_st[L, ST_MOVES], piles, heights)
            st[:], hashes[BOARD_HASH] = lv_st[L], lv_bh[L]
            fire, nopt = firemask[st[ST_HELD]], nops + 2 if kind == EXTEND else (2 if kind == SPLIT else nops)
            opt, applied = info[LV_OPT, L], False
            if kind == EXTEND and opt < 0 and L >= forced.shape[0]:
                opt = _no_room(st, plen, needed, budget, f, i, slots, nops, counters)
            while not applied:  # below the task's prefix only its option (once); past it every option in turn
                opt = (forced[L] if opt < 0 else nopt) if L < forced.shape[0] else opt + 1
                if opt >= nopt:
                    break
                if kind == SPLIT:  # option 0: the conditions that fire now; 1: those that do not
                    old = info[LV_OLDMASK, L]
                    pmask[f, i] = (old & fire) if opt == 0 else (old & ~fire)
                    spent = inlining and st[ST_USED] == budget and st[ST_UNKNOWN] == 0
                    rule = PR_PAIR if redundant(pop, pmask, plen, f, i, pair_table, ncond) else 0
                    rule = rule or (PR_INLINE if spent and _inlinable(st, prog, slots) else 0)
                    counters[rule] += 1 if rule else 0
                    applied, pmask[f, i] = rule == 0, pmask[f, i] if rule == 0 else old
                elif kind == EXTEND and opt == nops + 1:  # the function ends here (F1 only with a caller, or to finish)
                    applied = i >= (1 if f == 0 else 2) and not (f == 0 and st[ST_TOP] < 0 and problem.finish == 0)
                    pend[f] = 1 if applied else 0
                    if applied and _short(st, pend, budget):
                        applied, pend[f], counters[PR_SHORT] = False, 0, counters[PR_SHORT] + 1
                else:  # a new register that fires with an op or is skipped, or the op of a skipped one
                    skip = kind == EXTEND and opt == nops
                    op, nfun = 0 if skip else oplist[opt], st[ST_NFUN]
                    if op >= 4 and (op - 4 > nfun or (op - 4 == nfun and nfun >= maxf)):
                        counters[PR_ORDER] += 1 if op - 4 > nfun else 0
                        continue
                    if kind == EXTEND:
                        mask = allmask & (~fire if skip else fire)
                        if mask == 0 or i >= slots[f]:
                            counters[PR_SLOTS] += 1 if mask != 0 else 0
                            continue
                        plen[f], pmask[f, i] = i + 1, mask
                        st[ST_USED] += 1
                    st[ST_UNKNOWN] += 1 if skip else (-1 if kind == OPCHOOSE else 0)
                    pop[f, i] = op
                    st[ST_NFUN] += 1 if op - 4 == nfun else 0
                    st[ST_COUNTS + min(op, 4) - 1] += 1 if op > 0 else 0  # (op 0 adds 0 to ST_NFUN)
                    rule = PR_SLOTS if kind == EXTEND and f > 0 and not fits(plen, st[ST_NFUN], limits) else 0
                    rule = rule or (PR_BOUND if _lower_bound(st, plen, needed, budget) > budget else 0)
                    rule = rule or (PR_PAIR if not skip and redundant(pop, pmask, plen, f, i, pair_table, ncond) else 0)
                    spent = inlining and not skip and st[ST_USED] == budget and st[ST_UNKNOWN] == 0
                    rule = rule or (PR_INLINE if spent and _inlinable(st, prog, slots) else 0)
                    rule = rule or (PR_SHORT if kind == OPCHOOSE and _short(st, pend, budget) else 0)
                    counters[rule] += 1 if rule else 0
                    applied = rule == 0
                    if not applied:
                        pop[f, i], st[ST_USED : ST_UNKNOWN + 1] = 0, lv_st[L, ST_USED : ST_UNKNOWN + 1]
                        plen[f], pmask[f, i] = (i, 0) if kind == EXTEND else (plen[f], pmask[f, i])
            if applied:
                info[LV_OPT, L], counters[NODES] = opt, counters[NODES] + 1
                if counters[NODES] > task.max_nodes:
                    return _frontier(L + 1, info, nops, forced.shape[0], out)
                st[ST_REG] = i - 1
                break
            level -= 1


@njit(cache=True)
def _frontier(level, info, nops, nforced, out):
    """Stopped at ``max_nodes``: write what is left of the task as option prefixes (the path to the node just
    entered, then each untried option of every open level, deepest first) and return TOO_BIG."""
    prefixes, n = out.prefixes, 0
    prefixes[0, :] = -1  # rows are padded with -1 as they are written (the array can be large)
    prefixes[0, :level] = info[LV_OPT, :level]
    for k in range(level - 1, nforced - 1, -1):
        kind = info[LV_KIND, k]
        nopt = nops + 2 if kind == EXTEND else (2 if kind == SPLIT else nops)
        for o in range(info[LV_OPT, k] + 1, nopt):
            n += 1
            prefixes[n, :] = -1
            prefixes[n, :k] = info[LV_OPT, :k]
            prefixes[n, k] = o
    out.counters[PREFIXES] = n + 1
    return TOO_BIG


@njit(cache=True, inline="always")
def _loops(table, frames, key, f, i, top, alloc, nlog, counters):
    """True if the call at (f, i) repeats a configuration seen with the call stack of then still a prefix of
    now (a loop, counted in ``counters[PR_LOOP]``); otherwise records it in the loop table (and its undo log)
    and pushes the frame ``alloc``."""
    tkey, tval, log_key, log_val = table
    depth = frames[FR_DEPTH, top] if top >= 0 else 0
    tsize = tkey.shape[0]
    slot = np.int64(key & np.uint64(tsize - 1))
    while tkey[slot] != 0 and tkey[slot] != key:
        slot = (slot + 1) & (tsize - 1)
    if tkey[slot] == key and depth >= tval[T_DEPTH, slot]:
        node = top
        for _ in range(depth - tval[T_DEPTH, slot]):
            node = frames[FR_PARENT, node]
        if node == tval[T_TOP, slot]:
            counters[PR_LOOP] += 1
            return True
    log_key[nlog] = tkey[slot]
    log_val[L_SLOT, nlog], log_val[L_TOP, nlog], log_val[L_DEPTH, nlog] = slot, tval[T_TOP, slot], tval[T_DEPTH, slot]
    tkey[slot], tval[T_TOP, slot], tval[T_DEPTH, slot] = key, top, depth
    frames[FR_FUNC, alloc], frames[FR_REG, alloc], frames[FR_PARENT, alloc], frames[FR_DEPTH, alloc] = (
        f,
        i,
        top,
        depth + 1,
    )
    return False


@njit(cache=True)
def _inlinable(st, prog, slots):
    """Some function could be inlined (asked once the budget is spent): a smaller program does the same."""
    return inlinable(prog.op, prog.mask, prog.length, st[ST_NFUN], slots, prog.seen, prog.todo)


@njit(cache=True, inline="always")
def _short(st, pend, budget):
    """The program is complete (every function ended, every register has its op: nothing can be added)
    with fewer registers than the budget (the deepening searched it at a smaller budget already) or fewer
    functions than the task's count."""
    if (st[ST_USED] >= budget and st[ST_NFUN] >= st[ST_TARGET]) or st[ST_UNKNOWN] > 0:
        return False
    for k in range(st[ST_NFUN]):
        if pend[k] == 0:
            return False
    return True


@njit(cache=True)
def _pile_rule(rules, lifted, p, piles, heights, board, counters, poison):
    """``DEAD`` (counted) if the take of crate ``lifted`` from pile ``p`` (0: a put on it) just done breaks the
    pile's rule or lifts a ``poison`` crate, else ``FIRES``. A take leaves a bottom part of a bottom part: only
    ``NO_TAKE`` can forbid it."""
    rule, put = rules[p], lifted == 0
    if lifted == poison and not put:
        counters[PR_PILE] += 1
        return DEAD
    if rule == 0:
        return FIRES
    ok = (rule & NO_PUT) == 0 if put else (rule & NO_TAKE) == 0
    if put and ok and rule & (KEEP_START | KEEP_GOAL) != 0:
        h = heights[p]
        is_start = rule & KEEP_START != 0 and h <= board.heights[p]
        is_goal = rule & KEEP_GOAL != 0 and h <= board.goal_heights[p]
        for k in range(h):
            is_start = is_start and piles[p, k] == board.piles[p, k]
            is_goal = is_goal and piles[p, k] == board.goal[p, k]
        ok = is_start or is_goal
    counters[PR_PILE] += 0 if ok else 1
    return FIRES if ok else DEAD


@njit(cache=True, inline="always")
def _undo_moves(moves, frm, to, piles, heights):
    """Put the board back as it was when ``Machine.moves`` had ``to`` entries: undo the moves since, last first."""
    npiles = heights.shape[0]
    for m in range(frm - 1, to - 1, -1):
        mv = moves[m]
        if mv < 0:
            heights[-1 - mv] -= 1
        else:
            p = mv % npiles
            piles[p, heights[p]] = mv // npiles
            heights[p] += 1


@njit(cache=True, inline="always")
def _no_room(st, plen, needed, budget, f, i, slots, nops, counters):
    """Where a new register of F(f+1) at ``i`` would be cut whatever it holds (past the function's slots, or
    ``_extend_floor`` over the budget), the option to resume from so that only "the function ends here" is
    tried (counted as the options it skips); otherwise -1, every option in turn."""
    full = i >= slots[f]
    if full or _extend_floor(st, plen, needed, budget, f) > budget:
        counters[PR_SLOTS if full else PR_BOUND] += nops + 1
        return nops
    return -1


@njit(cache=True, inline="always")
def _needs(st, plen, needed, budget):
    """What any completion still needs: the registers of each op still short of ``needed`` and a call per
    function still to introduce (``ST_TARGET``), and two registers per function introduced and per function
    still to introduce, less those they have."""
    missing = 0
    for k in range(3):
        missing += max(0, needed[k] - st[ST_COUNTS + k])
    new = max(0, st[ST_TARGET] - st[ST_NFUN])
    # a program without calls runs each register at most once: too few ticks to move needed[3] crates
    missing += max(new, 1 if 2 * needed[3] > budget and st[ST_COUNTS + 3] == 0 else 0)
    mand = max(0, 1 - plen[0]) + 2 * new
    for k in range(1, st[ST_NFUN]):
        mand += max(0, 2 - plen[k])
    return missing, mand


@njit(cache=True, inline="always")
def _extend_floor(st, plen, needed, budget, f):
    """The least ``_lower_bound`` a new register of F(f+1) can give, whatever it holds: one op, a call or a
    skip covers at most one missing op, and the register itself may fill one mandatory slot. Above the
    budget, every option but "the function ends here" would be cut one by one."""
    missing, mand = _needs(st, plen, needed, budget)
    mand -= 1 if plen[f] < (1 if f == 0 else 2) else 0
    return st[ST_USED] + 1 + max(max(0, missing - 1 - st[ST_UNKNOWN]), mand)


@njit(cache=True, inline="always")
def _lower_bound(st, plen, needed, budget):
    """Registers any completion needs (``_needs``): those used, plus the missing ops (registers still without
    an op may become them) or the mandatory registers, whichever is more."""
    missing, mand = _needs(st, plen, needed, budget)
    return st[ST_USED] + max(max(0, missing - st[ST_UNKNOWN]), mand)
