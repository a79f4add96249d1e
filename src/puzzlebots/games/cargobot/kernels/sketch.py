"""numba hot loop of ``bots/sketch.py``: simulated annealing over the registers of one program sketch.

A program is the game interpreter's ``(functions, slots)`` op/condition arrays (``kernels.interpreter``
encoding); ``free[f, i]`` marks the registers the search may change (the others are pinned by the sketch or
outside its function lengths). A program's score is 0 when it wins within the tick cap, else the rebuild
distance (``kernels.batch.rebuild_distance``) of the board where its run stopped. Each call runs a fixed
number of iterations from its own seed, so a restart cut into calls is deterministic.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..engine import EncodedBoard, RegisterCode
from .batch import rebuild_distance
from .interpreter import OUT_OUTCOME, OUT_SIZE, SOLVED, run_game


@njit(cache=True)
def score(op, cond, flen, board, claw, tick_limit, out):
    """0 if the program wins from ``board`` (left untouched) within ``tick_limit`` ticks, else >= 1."""
    state = EncodedBoard(board.piles.copy(), board.heights.copy(), board.goal, board.goal_heights, True)
    run_game(RegisterCode(op, cond, flen), state, claw, tick_limit, out)
    if out[OUT_OUTCOME] == SOLVED:
        return 0
    return max(1, rebuild_distance(state))


@njit(cache=True)
def _random_register(op, cond, f, i, oplist, condlist, p_empty):
    if np.random.random() < p_empty:
        op[f, i] = 0
        cond[f, i] = 0
        return
    op[f, i] = oplist[np.random.randint(oplist.shape[0])]
    cond[f, i] = condlist[np.random.randint(condlist.shape[0])]


@njit(cache=True)
def mutate(op, cond, pf, pi, oplist, condlist, p_empty):
    """One random change to a free register: a new register, a new op, a new condition, or a swap."""
    k = np.random.randint(pf.shape[0])
    f, i = pf[k], pi[k]
    r = np.random.random()
    if r < 0.4 or op[f, i] == 0:
        _random_register(op, cond, f, i, oplist, condlist, p_empty)
    elif r < 0.65:
        cond[f, i] = condlist[np.random.randint(condlist.shape[0])]
    elif r < 0.85:
        op[f, i] = oplist[np.random.randint(oplist.shape[0])]
    else:
        j = np.random.randint(pf.shape[0])
        g, h = pf[j], pi[j]
        op[f, i], op[g, h] = op[g, h], op[f, i]
        cond[f, i], cond[g, h] = cond[g, h], cond[f, i]


@njit(cache=True)
def anneal(op, cond, free, flen, oplist, condlist, p_empty, board, claw, tick_limit, seed, first, count, total,
           t0, t1, best_op, best_cond):  # fmt: skip
    """Iterations ``first`` .. ``first + count`` of a ``total``-iteration anneal (temperature ``t0`` down to
    ``t1``, geometric) from the program in ``op``/``cond``, changed in place. The best program seen goes to
    ``best_op``/``best_cond``; returns (its score, evaluations run). Stops at the first win."""
    np.random.seed(seed)
    out = np.zeros(OUT_SIZE, np.int64)
    where = np.nonzero(free)
    pf, pi = where[0], where[1]
    current = score(op, cond, flen, board, claw, tick_limit, out)
    best = current
    best_op[:, :] = op
    best_cond[:, :] = cond
    if current == 0 or pf.shape[0] == 0:
        return best, 1
    save_op = op.copy()
    save_cond = cond.copy()
    ratio = t1 / t0
    for it in range(count):
        temperature = t0 * ratio ** ((first + it) / total)
        save_op[:, :] = op
        save_cond[:, :] = cond
        mutate(op, cond, pf, pi, oplist, condlist, p_empty)
        s = score(op, cond, flen, board, claw, tick_limit, out)
        if s <= current or np.random.random() < np.exp((current - s) / temperature):
            current = s
            if s < best:
                best = s
                best_op[:, :] = op
                best_cond[:, :] = cond
                if s == 0:
                    return 0, it + 2
        else:
            op[:, :] = save_op
            cond[:, :] = save_cond
    return best, count + 1
