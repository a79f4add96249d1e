"""The event-driven engine against a frame-by-frame oracle of the falling unit (rules A5, A6, A14, A16).

Lines of 7 are needed to clear (``min_line`` 7) and matrices stay under 7, so only time, contact and growth
are at play: the engine computes contact frames, the oracle steps every frame.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from yc_helpers import state_with

CELL = 64
START = 8 * CELL
SPEED = {"low": 1, "medium": 2, "high": 4}
B_SPEED = 16


class Oracle:
    def __init__(self, R: int, C: int, delay: int, speed: int) -> None:
        self.R, self.C, self.delay, self.speed = R, C, delay, speed
        self.frame = 0
        self.y = self.x = START
        self.row = self.col = True

    def tick(self, b: bool) -> bool:
        """One frame; True if an arm touched (the contact animation is added here)."""
        self.frame += 1
        if self.delay:
            self.delay -= 1
            return False
        v = B_SPEED if b else self.speed
        if self.row:
            self.y -= v
        if self.col:
            self.x -= v
        rows = self.row and self.y <= self.R * CELL
        cols = self.col and self.x <= self.C * CELL
        if not (rows or cols):
            return False
        if rows:
            self.R, self.row = self.R + 1, False
        if cols:
            self.C, self.col = self.C + 1, False
        self.frame += 8
        if not self.row and not self.col:
            self.row = self.col = True
            self.y = self.x = START
        return True

    def play(self, plan: str) -> None:
        changed = False
        for _letter in plan.rstrip("B"):
            for _ in range(2):  # press and release
                changed |= self.tick(False)
            if changed:
                return
        if plan.endswith("B"):
            while not self.tick(True):
                pass


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 5),
    st.integers(1, 5),
    st.integers(0, 300),
    st.sampled_from(sorted(SPEED)),
    st.lists(st.text(alphabet="UDLR", min_size=0, max_size=30).map(lambda p: p or "B"), min_size=1, max_size=12),
)
def test_engine_contacts_match_a_frame_by_frame_oracle(R, C, delay, speed, plans) -> None:
    letters = "HFDKO"
    rows = ["".join(letters[(i + 2 * j) % 5] for j in range(C)) for i in range(R)]
    state = state_with(rows, delay=delay, min_line=7, speed=speed)
    oracle = Oracle(R, C, delay, SPEED[speed])
    start = state.frame
    for plan in plans:
        if max(state.R, state.C) >= 6:
            break
        state.apply(plan)
        oracle.play(plan)
        inc = state.incoming
        assert (state.frame - start, state.R, state.C) == (oracle.frame, oracle.R, oracle.C)
        assert (inc.row_arm is not None, inc.col_arm is not None) == (oracle.row, oracle.col)
        assert (inc.y if oracle.row else None, inc.x if oracle.col else None) == (
            oracle.y if oracle.row else None,
            oracle.x if oracle.col else None,
        )
