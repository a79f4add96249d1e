"""The GP's numba kernels: the per-pile error the lexicase cases are made of (beside the batch kernels it reads
from), the order in which runs read their registers (for recall), and random genomes drawn as Python's
``random`` draws them."""

from __future__ import annotations

from numba import njit

from puzzlebots.core.mt19937 import randbelow, random_float

from ..kernels.batch import _crate_cleanup
from ..kernels.interpreter import ORDER_SLOTS, OUT_FIRSTS, OUT_ORDER


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


@njit(cache=True)
def fetch_order(outs, boards, slot_gene, rank):
    """Into ``rank`` (programs x genes, filled with -1): each gene's place in the order its program's runs first
    fetched its register, board after board (``OUT_ORDER``; a register a later board reaches first comes after the
    earlier boards' ones); -1 for a register no run fetched. Where a run makes no claim (the Ruby semantics) or
    fetched more registers than ``OUT_ORDER`` holds, every gene in genome order."""
    for p in range(rank.shape[0]):
        n = 0
        for b in range(boards):
            row = outs[p * boards + b]
            firsts = row[OUT_FIRSTS]
            if firsts < 0 or firsts > ORDER_SLOTS:
                for g in range(rank.shape[1]):
                    rank[p, g] = g
                break
            for k in range(firsts):
                gene = slot_gene[(row[OUT_ORDER + k // 10] >> (6 * (k % 10))) & 63]
                if rank[p, gene] < 0:
                    rank[p, gene] = n
                    n += 1
