"""Batch kernels: many (program, board) runs in one call, so a program search pays Python's call cost once
per generation instead of once per run. Each job is the loop ``interpreter.run_game``/``run_vaguery`` run
(``game_loop``, ``run_vaguery``) on a copy of its board, so a batch result is by construction the single
call's result; the copy is the job's final-board slot and the scratch arrays are shared, so a job allocates
nothing.

Packing (built by ``evaluate.py``): boards are padded to ``(B, max piles, capacity)`` with their pile counts in
``npiles``; game programs to ``(P, functions, slots)``; Ruby scripts share one token array, each program
naming its subroutines' absolute offsets in ``start[p]`` (length 0 = no such subroutine). Job ``j`` runs
program ``prog[j]`` on board ``board[j]`` and writes its ``OUT_*`` row and final board.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..engine import EncodedBoard, ScriptCode, VagueryRules
from .interpreter import OUT_SIZE, game_loop, run_vaguery


@njit(cache=True)
def rebuild_distance(board):
    """``metrics.rebuild_distance`` of the board from its goal: each wanted crate, bottom up, is taken from the
    leftmost pile holding it (cost: piles travelled + crates below it), 100 per crate missing or left over."""
    return _rebuild(
        board.piles, board.heights, board.goal, board.goal_heights, board.piles.copy(), board.heights.copy()
    )


@njit(cache=True)
def _rebuild(piles, heights, goal, goal_heights, work, left):
    """``rebuild_distance`` on plain arrays, taking crates out of ``work``/``left`` (overwritten with the board
    first, at least its size: a batch passes the same scratch arrays for every job, no allocation)."""
    n = heights.shape[0]
    for k in range(n):
        left[k] = heights[k]
        for h in range(heights[k]):
            work[k, h] = piles[k, h]
    score = 0
    for j in range(n):
        for i in range(goal_heights[j]):
            wanted = goal[j, i]
            found = False
            for k in range(n):
                for h in range(left[k]):
                    if work[k, h] == wanted:
                        for m in range(h, left[k] - 1):
                            work[k, m] = work[k, m + 1]
                        left[k] -= 1
                        score += abs(k - j) + h
                        found = True
                        break
                if found:
                    break
            if not found:
                score += 100
    for k in range(n):
        score += 100 * left[k]
    return score


@njit(cache=True)
def _teardown(piles, heights, goal, goal_heights, counts):
    """``metrics.teardown_distance``: crates above the first mismatch of each goal pile, 100 per crate of a
    colour missing or extra (``counts``: zeroed scratch, one slot per colour id, left zeroed)."""
    score = 0
    for j in range(goal_heights.shape[0]):
        height, wanted = heights[j], goal_heights[j]
        for i in range(wanted + 1):
            if (goal[j, i] if i < wanted else 0) != (piles[j, i] if i < height else 0):
                score += wanted - i
                break
        for i in range(wanted):
            counts[goal[j, i]] += 1
        for i in range(height):
            counts[piles[j, i]] -= 1
    for c in range(counts.shape[0]):
        score += 100 * abs(counts[c])
        counts[c] = 0
    return score


@njit(cache=True)
def _depth(piles, heights, k, colour):
    """Depth of the topmost ``colour`` crate in pile ``k`` (top crate = 1), 0 if the pile has none."""
    for i in range(heights[k] - 1, -1, -1):
        if piles[k, i] == colour:
            return heights[k] - i
    return 0


@njit(cache=True)
def _crate_cleanup(piles, heights, goal, s, i):
    """``metrics.crate_cleanup_error`` for pile ``s``, box ``i`` (0-based; ``i`` within the goal pile)."""
    length = heights[s]
    wanted = goal[s, i]
    if wanted == (piles[s, i] if i < length else 0):
        return 0
    grab = 0
    for k in range(heights.shape[0]):
        depth = _depth(piles, heights, k, wanted)
        if depth > 0 and (grab == 0 or depth < grab):
            grab = depth
    if grab == 0:
        return 0
    this = _depth(piles, heights, s, wanted)  # 0: not in this pile (never equal to grab >= 1)
    add = i + 1 - length if length - 1 < i else 0
    shift = length - i if length - 1 > i else 0
    grab = max(grab, add)
    if this == grab:
        return shift + 1 if grab < shift else 2 * grab - (length - i) + 1
    return shift + grab + add


@njit(cache=True)
def _cleanup(piles, heights, goal, goal_heights):
    """``metrics.cleanup_error``: each goal pile's stack cleanup error, 100 per crate more or fewer."""
    score = 0
    for s in range(goal_heights.shape[0]):
        extra = max(0, heights[s] - goal_heights[s])
        score += extra * (extra + 1) // 2
        for i in range(goal_heights[s]):
            score += _crate_cleanup(piles, heights, goal, s, i)
    return score + 100 * abs(goal_heights.sum() - heights.sum())


@njit(cache=True)
def distances(board, npiles, goal, goal_heights, final_piles, final_heights, colours, out):
    """The teardown and cleanup distances of every job's final board from its goal, into ``out`` (jobs x 2);
    ``colours`` is the largest colour id (jobs without a goal are not asked for)."""
    counts = np.zeros(colours + 1, np.int64)
    for j in range(board.shape[0]):
        b = board[j]
        n = npiles[b]
        piles, heights = final_piles[j, :n], final_heights[j, :n]
        out[j, 0] = _teardown(piles, heights, goal[b, :n], goal_heights[b, :n], counts)
        out[j, 1] = _cleanup(piles, heights, goal[b, :n], goal_heights[b, :n])


@njit(cache=True)
def _start(piles, heights, npiles, b, j, final_piles, final_heights):
    """Copy board ``b`` into job ``j``'s final board, where the job then runs (no per-job allocation)."""
    n = npiles[b]
    final_piles[j, :n] = piles[b, :n]
    final_heights[j, :n] = heights[b, :n]
    return final_piles[j, :n], final_heights[j, :n]


@njit(cache=True)
def run_game_batch(
    op,
    cond,
    flen,
    prog,
    board,
    piles,
    heights,
    goal,
    goal_heights,
    npiles,
    has_goal,
    claws,
    tick_limit,
    outs,
    final_piles,
    final_heights,
    rebuild,
):
    """Game semantics for every job; ``op``/``cond`` are (P, functions, slots), ``flen`` (P, functions). One
    call stack and one rebuild scratch board serve every job."""
    width = op.shape[2]
    ops = op.reshape(op.shape[0], -1)
    conds = cond.reshape(cond.shape[0], -1)
    stack = np.empty((64, 3), np.int64)
    work, left = np.empty_like(piles[0]), np.empty_like(heights[0])
    for j in range(prog.shape[0]):
        p, b = prog[j], board[j]
        n = npiles[b]
        state, state_heights = _start(piles, heights, npiles, b, j, final_piles, final_heights)
        stack = game_loop(
            ops[p],
            conds[p],
            flen[p],
            width,
            state,
            state_heights,
            goal[b, :n],
            goal_heights[b, :n],
            has_goal[b],
            claws[b],
            tick_limit,
            outs[j],
            stack,
        )
        rebuild[j] = _rebuild(state, state_heights, goal[b, :n], goal_heights[b, :n], work, left) if has_goal[b] else -1


@njit(cache=True)
def run_vaguery_batch(
    op,
    arg,
    cond,
    start,
    length,
    prog,
    board,
    piles,
    heights,
    goal,
    goal_heights,
    npiles,
    has_goal,
    claws,
    rules,
    outs,
    final_piles,
    final_heights,
    rebuild,
):
    """Ruby semantics for every job; tokens are shared, ``start``/``length`` are (P, subroutines)."""
    rule = VagueryRules(rules[0] != 0, rules[1] != 0, rules[2], rules[3])
    work, left = np.empty_like(piles[0]), np.empty_like(heights[0])
    for j in range(prog.shape[0]):
        p, b = prog[j], board[j]
        n = npiles[b]
        state, state_heights = _start(piles, heights, npiles, b, j, final_piles, final_heights)
        encoded = EncodedBoard(state, state_heights, goal[b, :n], goal_heights[b, :n], has_goal[b])
        run_vaguery(ScriptCode(op, arg, cond, start[p], length[p]), encoded, claws[b], rule, outs[j])
        rebuild[j] = _rebuild(state, state_heights, goal[b, :n], goal_heights[b, :n], work, left) if has_goal[b] else -1


def empty_outputs(jobs: int, piles: int, capacity: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The arrays a batch kernel fills per job: an ``OUT_*`` row, final piles and heights, rebuild distance
    (-1 without a goal)."""
    return (
        np.zeros((jobs, OUT_SIZE), np.int64),
        np.zeros((jobs, piles, capacity), np.int16),
        np.zeros((jobs, piles), np.int32),
        np.zeros(jobs, np.int64),
    )
