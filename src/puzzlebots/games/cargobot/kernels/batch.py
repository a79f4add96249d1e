"""Batch kernels: many (program, board) runs in one call, so a program search pays Python's call cost once
per generation instead of once per run. Each job is ``interpreter.run_game``/``run_vaguery`` itself on a
copy of its board, so a batch result is by construction the single call's result.

Packing (built by ``evaluate.py``): boards are padded to ``(B, max piles, capacity)`` with their pile counts in
``npiles``; game programs to ``(P, functions, slots)``; Ruby scripts share one token array, each program
naming its subroutines' absolute offsets in ``start[p]`` (length 0 = no such subroutine). Job ``j`` runs
program ``prog[j]`` on board ``board[j]`` and writes its ``OUT_*`` row and final board.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..engine import EncodedBoard, RegisterCode, ScriptCode, VagueryRules
from .interpreter import OUT_SIZE, run_game, run_vaguery


@njit(cache=True)
def _board(piles, heights, goal, goal_heights, npiles, has_goal, b):
    n = npiles[b]
    return EncodedBoard(
        piles[b, :n].copy(), heights[b, :n].copy(), goal[b, :n].copy(), goal_heights[b, :n].copy(), has_goal[b]
    )


@njit(cache=True)
def rebuild_distance(board):
    """``metrics.rebuild_distance`` of the board from its goal: each wanted crate, bottom up, is taken from the
    leftmost pile holding it (cost: piles travelled + crates below it), 100 per crate missing or left over."""
    piles, heights = board.piles.copy(), board.heights.copy()
    score = 0
    for j in range(heights.shape[0]):
        for i in range(board.goal_heights[j]):
            wanted = board.goal[j, i]
            found = False
            for k in range(heights.shape[0]):
                for h in range(heights[k]):
                    if piles[k, h] == wanted:
                        piles[k, h : heights[k] - 1] = piles[k, h + 1 : heights[k]].copy()
                        heights[k] -= 1
                        score += abs(k - j) + h
                        found = True
                        break
                if found:
                    break
            if not found:
                score += 100
    return score + 100 * heights.sum()


@njit(cache=True)
def _store(board, j, final_piles, final_heights, rebuild):
    n = board.heights.shape[0]
    final_piles[j, :n] = board.piles
    final_heights[j, :n] = board.heights
    rebuild[j] = rebuild_distance(board) if board.has_goal else -1


@njit(cache=True)
def run_game_batch(op, cond, flen, prog, board, piles, heights, goal, goal_heights, npiles, has_goal, claws,
                   tick_limit, outs, final_piles, final_heights, rebuild):  # fmt: skip
    """Game semantics for every job; ``op``/``cond`` are (P, functions, slots), ``flen`` (P, functions)."""
    for j in range(prog.shape[0]):
        p, b = prog[j], board[j]
        state = _board(piles, heights, goal, goal_heights, npiles, has_goal, b)
        run_game(RegisterCode(op[p], cond[p], flen[p]), state, claws[b], tick_limit, outs[j])
        _store(state, j, final_piles, final_heights, rebuild)


@njit(cache=True)
def run_vaguery_batch(op, arg, cond, start, length, prog, board, piles, heights, goal, goal_heights, npiles,
                      has_goal, claws, rules, outs, final_piles, final_heights, rebuild):  # fmt: skip
    """Ruby semantics for every job; tokens are shared, ``start``/``length`` are (P, subroutines)."""
    rule = VagueryRules(rules[0] != 0, rules[1] != 0, rules[2], rules[3])
    for j in range(prog.shape[0]):
        p, b = prog[j], board[j]
        state = _board(piles, heights, goal, goal_heights, npiles, has_goal, b)
        run_vaguery(ScriptCode(op, arg, cond, start[p], length[p]), state, claws[b], rule, outs[j])
        _store(state, j, final_piles, final_heights, rebuild)


def empty_outputs(jobs: int, piles: int, capacity: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The arrays a batch kernel fills per job: an ``OUT_*`` row, final piles and heights, rebuild distance
    (-1 without a goal)."""
    return (
        np.zeros((jobs, OUT_SIZE), np.int64),
        np.zeros((jobs, piles, capacity), np.int16),
        np.zeros((jobs, piles), np.int32),
        np.zeros(jobs, np.int64),
    )
