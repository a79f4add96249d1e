"""Lexicase selection as DEAP's ``selLexicase``, ``selEpsilonLexicase`` and ``selAutomaticEpsilonLexicase`` do it
for errors to minimise, drawing the same numbers from Python's ``random`` in the same order (so the same state
selects the same candidates), with each selection's filtering over the cases in numba: DEAP's filters through
Python lists of fitness objects, a fifth of a GP run's time at population 1,000.

Per selection, as DEAP: the case order is ``random.shuffle(list(range(cases)))``; the cases then keep, one at a
time while more than one candidate is left, the candidates within the case's tolerance of its best (0 for plain
lexicase, ``epsilon``, or the median absolute deviation of the candidates' errors on the case); the pick is
``random.choice`` among the survivors in the candidates' order.
"""

from __future__ import annotations

import random

import numpy as np
from numba import njit

#: how a case's tolerance is set: 0, a fixed epsilon, or the candidates' median absolute deviation
PLAIN, EPSILON, AUTOMATIC = 0, 1, 2


def select(errors: np.ndarray, k: int, mode: int = PLAIN, epsilon: float = 0.0) -> list[int]:
    """``k`` rows of ``errors`` (candidates x cases) chosen by lexicase, as DEAP chooses them."""
    values = np.ascontiguousarray(errors, np.float64)
    chosen = []
    for _ in range(k):
        order = list(range(values.shape[1]))
        random.shuffle(order)
        chosen.append(int(random.choice(survivors(values, np.array(order, np.int64), mode, epsilon))))
    return chosen


@njit(cache=True)
def survivors(values, order, mode, epsilon):  # type: ignore[no-untyped-def]
    """The candidates (row numbers, ascending) left after the cases in ``order``."""
    alive = np.arange(values.shape[0])
    for case in order:
        if len(alive) <= 1:
            break
        column = values[alive, case]
        best = column.min()
        if mode == PLAIN:
            alive = alive[column == best]
        elif mode == EPSILON:
            alive = alive[column <= best + epsilon]
        else:
            deviation = np.median(np.abs(column - np.median(column)))
            alive = alive[column <= best + deviation]
    return alive
