"""numba hot loop of ``bots/sketch.py``: tabu search over the registers of one program sketch.

A program is the game interpreter's ``(functions, slots)`` op/condition arrays (``kernels.interpreter``
encoding); ``free[f, i]`` marks the registers the search may change (the others are pinned by the sketch or
outside its function lengths). A program's score is 0 when it wins within the tick cap, else a rebuild
distance (``kernels.batch.rebuild_distance``, see ``score``). Each call runs from its own seed, so a restart
cut into calls is deterministic.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..engine import EncodedBoard, RegisterCode
from .batch import rebuild_distance
from .interpreter import OUT_OF_STEPS, OUT_OUTCOME, OUT_SIZE, SOLVED, run_game

#: ticks of the first run a score looks at (then twice as many, up to the cap)
FIRST_CHECK = 16


@njit(cache=True)
def score(op, cond, flen, board, claw, tick_limit, out):
    """0 if the program wins from ``board`` (left untouched) within ``tick_limit`` ticks, else the smallest
    rebuild distance (>= 1) of the boards it leaves after 16, 32, 64, ... ticks and where it stops: a program
    that builds part of the goal and then spoils it still scores its progress."""
    best = 1 << 60
    limit = FIRST_CHECK
    while True:
        limit = min(limit, tick_limit)
        state = EncodedBoard(board.piles.copy(), board.heights.copy(), board.goal, board.goal_heights, True)
        run_game(RegisterCode(op, cond, flen), state, claw, limit, out)
        if out[OUT_OUTCOME] == SOLVED:
            return 0
        best = min(best, rebuild_distance(state))
        if out[OUT_OUTCOME] != OUT_OF_STEPS or limit >= tick_limit:
            return max(1, best)
        limit *= 2


@njit(cache=True)
def tabu(
    op,
    cond,
    free,
    flen,
    oplist,
    condlist,
    board,
    claw,
    tick_limit,
    seed,
    budget,
    tenure,
    tabu_until,
    step,
    best_op,
    best_cond,
):
    """Tabu search from the program in ``op``/``cond`` (changed in place): each step tries every value of every
    free register (an op of ``oplist`` or empty, with a condition of ``condlist``) and moves to the best
    change of a register not changed in the last ``tenure`` steps (ties broken at random), worse or not.
    ``tabu_until`` (per register) and ``step`` carry over between calls. Runs until ``budget`` programs
    have run; the best program seen goes to ``best_op``/``best_cond``. Returns (its score, programs run,
    next step); stops at the first win."""
    np.random.seed(seed)
    out = np.zeros(OUT_SIZE, np.int64)
    where = np.nonzero(free)
    pf, pi = where[0], where[1]
    best = score(op, cond, flen, board, claw, tick_limit, out)
    best_op[:, :] = op
    best_cond[:, :] = cond
    runs = 1
    if best == 0 or pf.shape[0] == 0:
        return best, runs, step
    while runs < budget:
        chosen_s, chosen_k, chosen_op, chosen_cond, ties = 1 << 60, -1, 0, 0, 0
        for k in range(pf.shape[0]):
            f, i = pf[k], pi[k]
            if tabu_until[f, i] > step:
                continue
            old_op, old_cond = op[f, i], cond[f, i]
            for a in range(-1, oplist.shape[0]):
                o = 0 if a < 0 else oplist[a]
                for c in range(1 if o == 0 else condlist.shape[0]):
                    cd = 0 if o == 0 else condlist[c]
                    if o == old_op and cd == old_cond:
                        continue
                    op[f, i], cond[f, i] = o, cd
                    s = score(op, cond, flen, board, claw, tick_limit, out)
                    runs += 1
                    if s == 0:
                        best_op[:, :] = op
                        best_cond[:, :] = cond
                        return 0, runs, step
                    if s < chosen_s:
                        chosen_s, chosen_k, chosen_op, chosen_cond, ties = s, k, o, cd, 1
                    elif s == chosen_s:
                        ties += 1
                        if np.random.randint(ties) == 0:
                            chosen_k, chosen_op, chosen_cond = k, o, cd
            op[f, i], cond[f, i] = old_op, old_cond
        step += 1
        if chosen_k < 0:
            continue
        f, i = pf[chosen_k], pi[chosen_k]
        op[f, i], cond[f, i] = chosen_op, chosen_cond
        tabu_until[f, i] = step + tenure
        if chosen_s < best:
            best = chosen_s
            best_op[:, :] = op
            best_cond[:, :] = cond
    return best, runs, step
