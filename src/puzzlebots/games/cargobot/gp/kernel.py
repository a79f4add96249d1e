"""The GP's numba kernels: the per-pile error the lexicase cases are made of (beside the batch kernels it reads
from), and random genomes drawn as Python's ``random`` draws them."""

from __future__ import annotations

from numba import njit

from puzzlebots.core.mt19937 import randbelow, random_float

from ..kernels.batch import _crate_cleanup


@njit(cache=True)
def draw_genes(mt, empty, commands, conditions, condition, out):
    """Each gene of ``out`` (genomes x genes) as ``search.random_gene`` draws it from the generator state ``mt``
    (``core.mt19937``): empty when ``random() < empty``, else a command and, when ``random() < condition``, one
    of the ``conditions`` (``Genome.gene``'s layout)."""
    for i in range(out.shape[0]):
        for g in range(out.shape[1]):
            if random_float(mt) < empty:
                out[i, g] = 0
                continue
            gene = 1 + randbelow(mt, commands) * (conditions + 1)
            if conditions > 0 and random_float(mt) < condition:
                gene += 1 + randbelow(mt, conditions)
            out[i, g] = gene


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
