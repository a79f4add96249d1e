"""The per-pile error the lexicase cases are made of, in numba beside the batch kernels it reads from."""

from __future__ import annotations

from numba import njit

from ..kernels.batch import _crate_cleanup


@njit(cache=True)
def pile_errors(board, npiles, goal, goal_heights, final_piles, final_heights, out):
    """Into ``out`` (jobs x piles): each goal pile's Ruby stack cleanup error (``metrics.stack_cleanup_error``)
    of the job's final board, plus 100 per crate more or fewer than the goal pile holds, plus 1 when the pile
    is not its goal pile, so that 0 means exactly that the pile is right."""
    for j in range(board.shape[0]):
        b = board[j]
        n = npiles[b]
        piles, heights = final_piles[j, :n], final_heights[j, :n]
        target, target_heights = goal[b, :n], goal_heights[b, :n]
        for s in range(n):
            height, wanted = heights[s], target_heights[s]
            extra = max(0, height - wanted)
            error = extra * (extra + 1) // 2 + 100 * abs(height - wanted)
            right = height == wanted
            for i in range(wanted):
                error += _crate_cleanup(piles, heights, target, s, i)
                if i < height and piles[s, i] != target[s, i]:
                    right = False
            out[j, s] = error + (0 if right else 1)
