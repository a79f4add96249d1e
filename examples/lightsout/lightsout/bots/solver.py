"""Solves the board exactly: which lights to press is a linear system over GF(2), one equation per light.

Pressing a light twice undoes it and the order of presses does not matter, so a solution is a set of lights;
Gaussian elimination finds one (the free variables at 0). The bot then presses them in order, one per ``act``.
"""

from __future__ import annotations

from puzzlebots.core.protocols import State

from ..engine import LightsOutState, neighbourhood


def solution(lights: list[int], size: int) -> list[int]:
    """Lights to press, each once, to turn every light off (the board must be solvable, as a scrambled one is)."""
    n = len(lights)
    # row i: the presses that toggle light i, as a bit mask, and the light's value as the right-hand side
    rows = [sum(1 << p for p in neighbourhood(i, size)) | (lights[i] << n) for i in range(n)]
    pivots: list[int] = []
    rank = 0
    for column in range(n):
        found = next((r for r in range(rank, n) if rows[r] >> column & 1), None)
        if found is None:
            continue
        rows[rank], rows[found] = rows[found], rows[rank]
        for r in range(n):
            if r != rank and rows[r] >> column & 1:
                rows[r] ^= rows[rank]
        pivots.append(column)
        rank += 1
    return sorted(col for row, col in zip(rows, pivots, strict=False) if row >> n & 1)


class SolverBot:
    name = "solver"

    def act(self, state: State) -> int:  # the Bot protocol's signature: any State, this game's in practice
        assert isinstance(state, LightsOutState)
        return solution(state.lights, state.size)[0]
