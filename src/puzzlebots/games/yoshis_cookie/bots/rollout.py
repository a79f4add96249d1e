"""The planner's look-ahead against the falling lines: play a candidate plan on a copy of the run, in real
time, then keep playing the planner's own choices until the stage ends or a frame horizon passes.

The copy sees what the player sees (the matrix, the cursor, the falling unit, the meters) and nothing
more: its random generator is a fresh one, so the units that spawn later are samples, not the run's own.
A plan is scored by what happens on the clock: a game over is the worst, a cleared stage the best (sooner
is better), and otherwise a smaller matrix with more frames before the next contact on each side.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..engine import Counters, StageRecord, YoshiState
from ..rules import AREA, UNITS_PER_CELL

#: score of a sample that ended the attempt (a game over) and of one that cleared the stage
LOST, CLEARED = -1_000_000.0, 1_000_000.0


def sample_copy(state: YoshiState, seed: int) -> YoshiState:
    """A copy of ``state`` for one sample: its own generator (seeded ``seed``) and only this stage's record."""
    other = YoshiState.__new__(YoshiState)
    other.__dict__.update(state.__dict__)
    other.rng = random.Random(seed)
    other._grid = state.raw_grid.copy()
    other.meters = list(state.meters)
    other.incoming = state.incoming.copy()
    c = state.counters
    other.counters = Counters(
        c.score,
        c.lines,
        c.max_chain,
        c.yoshis_earned,
        c.shells_cleared,
        c.continues,
        [StageRecord(**vars(c.stages[-1]))],
    )
    other._row_code = state._row_code.copy()
    other._col_code = state._col_code.copy()
    return other


def side_frames(state: YoshiState) -> tuple[int, int]:
    """Frames until the row arm and the column arm touch at the normal fall speed (``AREA * 16`` frames
    for an arm that has already joined: it comes back with the next unit)."""
    inc = state.incoming
    far = AREA * UNITS_PER_CELL
    rows = far if inc.row_arm is None else max(0, inc.y - state.R * UNITS_PER_CELL)
    cols = far if inc.col_arm is None else max(0, inc.x - state.C * UNITS_PER_CELL)
    return inc.delay + rows // state.fall_units, inc.delay + cols // state.fall_units


def position_score(state: YoshiState) -> float:
    """A position still in play: fewer cookies, and on each side fewer rows (columns) and more time."""
    rows_t, cols_t = side_frames(state)
    cell = UNITS_PER_CELL // state.fall_units
    room_r = (AREA - 1 - state.R) * cell + rows_t  # frames of falling the row side can absorb
    room_c = (AREA - 1 - state.C) * cell + cols_t
    return float(min(room_r, room_c)) - state.R * state.C


def sample_score(
    state: YoshiState, plan: str, policy: Callable[[YoshiState], str], horizon: int, max_decisions: int
) -> float:
    """Play ``plan`` then ``policy`` on ``state`` (a copy, changed in place) for up to ``horizon`` frames."""
    start_stage, start_cont, start_frame = state.stage_pos, state.counters.continues, state.frame
    action = plan
    for _ in range(max_decisions):
        state.apply(action)
        if state.counters.continues != start_cont:
            return LOST + (state.frame - start_frame)
        if state.stage_pos != start_stage or state.done:
            return CLEARED - (state.frame - start_frame)
        if state.frame - start_frame >= horizon:
            break
        action = policy(state)
    return position_score(state)
