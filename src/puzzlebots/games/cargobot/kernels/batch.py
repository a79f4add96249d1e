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
def _store(board, j, final_piles, final_heights):
    n = board.heights.shape[0]
    final_piles[j, :n] = board.piles
    final_heights[j, :n] = board.heights


@njit(cache=True)
def run_game_batch(op, cond, flen, prog, board, piles, heights, goal, goal_heights, npiles, has_goal, claws,
                   tick_limit, outs, final_piles, final_heights):  # fmt: skip
    """Game semantics for every job; ``op``/``cond`` are (P, functions, slots), ``flen`` (P, functions)."""
    for j in range(prog.shape[0]):
        p, b = prog[j], board[j]
        state = _board(piles, heights, goal, goal_heights, npiles, has_goal, b)
        run_game(RegisterCode(op[p], cond[p], flen[p]), state, claws[b], tick_limit, outs[j])
        _store(state, j, final_piles, final_heights)


@njit(cache=True)
def run_vaguery_batch(op, arg, cond, start, length, prog, board, piles, heights, goal, goal_heights, npiles,
                      has_goal, claws, rules, outs, final_piles, final_heights):  # fmt: skip
    """Ruby semantics for every job; tokens are shared, ``start``/``length`` are (P, subroutines)."""
    rule = VagueryRules(rules[0] != 0, rules[1] != 0, rules[2], rules[3])
    for j in range(prog.shape[0]):
        p, b = prog[j], board[j]
        state = _board(piles, heights, goal, goal_heights, npiles, has_goal, b)
        run_vaguery(ScriptCode(op, arg, cond, start[p], length[p]), state, claws[b], rule, outs[j])
        _store(state, j, final_piles, final_heights)


def empty_outputs(jobs: int, piles: int, capacity: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The arrays a batch kernel fills: one ``OUT_*`` row, final piles and heights per job."""
    return (
        np.zeros((jobs, OUT_SIZE), np.int64),
        np.zeros((jobs, piles, capacity), np.int16),
        np.zeros((jobs, piles), np.int32),
    )
