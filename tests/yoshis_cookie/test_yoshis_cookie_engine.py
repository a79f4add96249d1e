"""Engine rules: rotations, clears and chains, the Shell, contact geometry, game over at 8, meters, plans."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from yc_helpers import SHELL, YOSHI, state_with

from puzzlebots.core.errors import IllegalActionError
from puzzlebots.core.runner import play_episode
from puzzlebots.games.yoshis_cookie import oracle
from puzzlebots.games.yoshis_cookie.game import GAME
from puzzlebots.games.yoshis_cookie.kernels import matrix as K
from puzzlebots.games.yoshis_cookie.kernels.params import rule_numbers

grids = st.integers(1, 7).flatmap(
    lambda R: st.integers(1, 7).flatmap(
        lambda C: st.tuples(
            st.just(R),
            st.just(C),
            st.lists(st.lists(st.integers(1, 7), min_size=C, max_size=C), min_size=R, max_size=R),
        )
    )
)


def as_grid(rows: list[list[int]]) -> np.ndarray:
    g = np.zeros((8, 8), dtype=np.int8)
    g[: len(rows), : len(rows[0])] = rows
    return g


@settings(max_examples=150, deadline=None)
@given(grids, st.integers(0, 6), st.integers(-7, 7))
def test_every_rotation_is_a_permutation_and_its_inverse_restores(data, line, k) -> None:
    R, C, rows = data
    g = as_grid(rows)
    before = g.copy()
    i, j = line % R, line % C
    K.rotate_row(g, i, C, k)
    assert sorted(g[i, :C]) == sorted(before[i, :C])
    assert [g[i, (x + k) % C] for x in range(C)] == list(before[i, :C])
    assert np.array_equal(np.delete(g, i, 0), np.delete(before, i, 0))
    K.rotate_row(g, i, C, -k)
    assert np.array_equal(g, before)
    K.rotate_col(g, j, R, k)
    assert sorted(g[:R, j]) == sorted(before[:R, j])
    assert np.array_equal(np.delete(g, j, 1), np.delete(before, j, 1))
    K.rotate_col(g, j, R, -k)
    assert np.array_equal(g, before)


def test_engine_rotation_and_inverse_restore_the_matrix() -> None:
    rows = ["HFDK", "FDKO", "DKOH", "KOHF"]
    state = state_with(rows, cursor=(1, 2))
    for plan, inverse in (("ddd", "uuu"), ("l", "r"), ("rr", "ll"), ("u", "d")):
        state.apply(plan)
        state.apply(inverse)
        assert state.rows_text() == rows
    assert state.counters.score == 0


@settings(max_examples=150, deadline=None)
@given(grids)
def test_resolve_chain_matches_the_python_oracle(data) -> None:
    R, C, rows = data
    rows = [[v if v != SHELL else 1 for v in r] for r in rows]  # at most one Shell: place it once
    rows[0][0] = SHELL if (R * C) % 3 == 0 else rows[0][0]
    g = as_grid(rows)
    rules = rule_numbers(GAME.check_config({"min_line": 2, "score_cookie": 10, "score_yoshi": 100}))
    R2, C2, points, lines, chain = K.resolve_chain(g, R, C, rules)
    expect_rows, expect_points, expect_lines, expect_chain = oracle.resolve(rows)
    assert (points, lines, chain) == (expect_points, expect_lines, expect_chain)
    assert [list(r) for r in g[:R2, :C2]] == expect_rows


def test_chain_reaction_on_contraction() -> None:
    # Rotating column 1 up completes row 1 (D D); removing it brings H over H in column 0: a second step.
    state = state_with(["HK", "DO", "HD"], cursor=(0, 1))
    state.apply("u")
    assert state.rows_text() == ["O", "K"]
    assert state.counters.max_chain == 2
    assert state.counters.lines == 2
    assert state.counters.score == 10 * 2 * 1 * 1 + 10 * 2 * 1 * 2


def test_simultaneous_lines_multiply_the_score() -> None:
    # Rotating column 2 up completes rows 0 and 1 at once: 6 cookies, 2 lines in one step.
    state = state_with(["HHK", "DDH", "FOD"], cursor=(0, 2))
    state.apply("u")
    assert state.rows_text() == ["FOK"]
    assert state.counters.lines == 2 and state.counters.max_chain == 1
    assert state.counters.score == 10 * 6 * 2 * 1


def test_yoshi_is_a_wild_card_and_pays_a_bonus() -> None:
    state = state_with(["HYK", "FDO", "HKF"], cursor=(0, 2))
    state.apply("ud")  # column 2 up: row 0 = H Y F; then down again
    assert state.counters.score == 0
    state = state_with(["HYF", "FDH", "KOD"], cursor=(0, 2))
    state.apply("dd")  # column 2 down by 2: H arrives in row 0 -> H Y H
    assert state.counters.lines == 1
    assert state.counters.score == 10 * 3 + 100


def test_shell_only_clears_with_a_yoshi_in_a_line_of_two() -> None:
    grid = as_grid([[SHELL, YOSHI], [YOSHI, YOSHI]])
    assert K.line_code(grid, 0, 0, 0, 1, 2, 2) == SHELL
    assert K.line_code(as_grid([[SHELL, YOSHI, YOSHI]]), 0, 0, 0, 1, 3, 2) == -1
    assert K.line_code(as_grid([[SHELL, 1]]), 0, 0, 0, 1, 2, 2) == -1
    assert K.line_code(as_grid([[SHELL], [1]]), 0, 0, 1, 0, 2, 2) == -1
    # A falling Yoshi lands on the Shell: the 2-cell column {Yoshi, Shell} clears; the bonus is paid.
    state = state_with(["HSK"], delay=0, mode="expert")
    state.incoming.row_arm = [2, YOSHI, 3]
    state.incoming.col_arm = [4]
    state.apply("B")
    while state.counters.shells_cleared == 0 and state.R:
        state.apply("B")
    assert state.counters.shells_cleared == 1
    assert "S" not in "".join(state.rows_text())
    # Any other cookie above the Shell: no clear.
    state = state_with(["HSK"], delay=0, mode="expert")
    state.incoming.row_arm = [2, 3, 4]
    state.incoming.col_arm = [5]
    state.apply("B")
    state.apply("B")
    assert state.counters.shells_cleared == 0 and "S" in "".join(state.rows_text())


def test_row_and_column_arms_join_from_the_top_and_the_right() -> None:
    # 2 x 3: the column arm is 5 cells away, the row arm 6: the column joins first (160 frames at 2 units/f).
    state = state_with(["HFD", "DKH"], delay=0)
    state.incoming.row_arm, state.incoming.col_arm, state.incoming.corner = [1, 2, 3], [4, 5], 6
    state.apply("B")  # the B plan stops at the first size change
    assert (state.R, state.C) == (2, 4)
    assert state.rows_text() == ["HFDK", "DKHO"]
    assert state.incoming.row_arm == [1, 2, 3, YOSHI]  # the corner moved to the row arm
    state.apply("B")
    assert (state.R, state.C) == (3, 4)
    assert state.rows_text()[0] == "HFDY"
    assert state.cursor == (1, 0)  # the cursor stays on its cookie when a row joins on top


def test_contact_interrupts_a_plan_mid_move_and_frames_are_counted() -> None:
    state = state_with(["HFD", "DKH", "FHK"], delay=0)
    start = state.frame
    to_contact = state.frames_to_contact()
    assert to_contact == (8 - 3) * 64 // 2
    state.apply("R" * 200)
    assert (state.R, state.C) == (4, 4)  # both arms touched together
    assert state.frame - start == to_contact + 8  # stopped at contact (press/release pairs + contact anim)


def test_cleared_lines_remove_the_aligned_incoming_cells() -> None:
    state = state_with(["HK", "DO", "HD"], cursor=(0, 1), delay=50)
    state.incoming.col_arm = [1, 2, 3]
    state.incoming.row_arm = [4, 5]
    state.apply("u")  # clears row 1, then column 0
    assert state.incoming.col_arm == [1, 3]
    assert state.incoming.row_arm == [5]


@pytest.mark.parametrize(
    ("rows", "grown"),
    [
        (["HFD", "FDK", "DKO", "KOH", "OHF", "HFD", "FDK"], "rows"),  # 7 x 3: the row arm makes 8 rows
        (["HFDKOHF", "FDKOHFD", "DKOHFDK"], "columns"),  # 3 x 7: the column arm makes 8 columns
    ],
)
def test_game_over_at_eight_rows_or_columns_uses_a_continue(rows: list[str], grown: str) -> None:
    state = state_with(rows, delay=0)
    state.meters[2] = 3
    state.apply("B")
    assert state.counters.continues == 1 and state.counters.stages[-1].continues == 1
    assert (state.R, state.C) == (3, 3)  # round 1 stage 1 again, on a fresh board
    assert state.meters == [0] * 8 and state.counters.stages[-1].cleared is False


def test_six_by_six_grows_to_seven_by_seven_then_overflows() -> None:
    rows = ["HFDKOH", "FDKOHF", "DKOHFD", "KOHFDK", "OHFDKO", "HFDKOH"]
    state = state_with(rows, delay=0)
    state.apply("B")
    assert (state.R, state.C) == (7, 7) and state.counters.continues == 0
    state.apply("B")
    assert state.counters.continues == 1


def test_five_lines_of_a_type_earn_a_yoshi_in_the_next_unit() -> None:
    state = state_with(["HK", "DO", "HD"], cursor=(0, 1), delay=10)
    state.meters[3] = 4
    state.meters[1] = 4
    state.apply("u")  # a D row and an H column
    assert state.counters.yoshis_earned == 2 and state.pending_yoshis == 2
    state.apply("B")  # the row arm joins, then the column arm; the next unit carries the Yoshi cookies
    assert state.pending_yoshis == 2
    state.apply("B")
    arms = (state.incoming.row_arm or []) + (state.incoming.col_arm or []) + [state.incoming.corner]
    assert arms.count(YOSHI) == 2 and state.pending_yoshis == 0


@pytest.mark.parametrize("plan", ["", "X", "BU", "uB!", 5, None])
def test_malformed_plans_are_illegal(plan) -> None:
    state = state_with(["HF", "DK"])
    with pytest.raises(IllegalActionError):
        state.apply(plan)


def test_cursor_follows_the_rotated_cookie_unless_configured_fixed() -> None:
    state = state_with(["HFD", "DKH", "FHK"], cursor=(1, 1))
    state.apply("rr")
    assert state.cursor == (1, 0)
    state = state_with(["HFD", "DKH", "FHK"], cursor=(1, 1), cursor_follows=False)
    state.apply("rr")
    assert state.cursor == (1, 1)


def test_runs_are_deterministic_and_clones_independent() -> None:
    a = play_episode(GAME, "greedy", 7, {"max_stages": 3}, record=True)
    b = play_episode(GAME, "greedy", 7, {"max_stages": 3}, record=True)
    assert a.result == b.result and a.hashes == b.hashes
    state = GAME.new_state(3, GAME.check_config({}))
    copy = state.clone()
    h = copy.state_hash()
    state.apply("B")
    assert copy.state_hash() == h and state.state_hash() != h
    assert a.result["stages_attempted"] == 3 and a.result["completed"]


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10_000),
    st.sampled_from(["normal", "expert"]),
    st.sampled_from(["low", "medium", "high"]),
    st.booleans(),
    st.lists(
        st.text(alphabet="UDLRudlr", min_size=1, max_size=12).map(lambda p: p + "B" if len(p) % 3 == 0 else p),
        min_size=1,
        max_size=40,
    ),
)
def test_random_plans_keep_the_engine_invariants(seed, mode, speed, aligned, plans) -> None:
    cfg = GAME.check_config({"mode": mode, "speed": speed, "max_stages": 3, "clear_incoming_aligned": aligned})
    state = GAME.new_state(seed, cfg)
    row_code, col_code = np.empty(8, np.int64), np.empty(8, np.int64)
    frame = state.frame
    for plan in plans:
        if state.is_terminal():
            break
        state.apply(plan)
        assert state.frame > frame
        frame = state.frame
        if state.is_terminal() and state.R == 0:  # the last stage was cleared: the game ends on an empty matrix
            assert state.result()["stages_cleared"] >= 1
            break
        assert 1 <= state.R <= 7 and 1 <= state.C <= 7
        assert 0 <= state.cr < state.R and 0 <= state.cc < state.C
        assert K.find_complete(state.raw_grid, state.R, state.C, 2, row_code, col_code) == 0
        assert np.count_nonzero(state.grid == SHELL) <= (1 if mode == "expert" else 0)
        assert not state.raw_grid[state.R :, :].any() and not state.raw_grid[:, state.C :].any()
        inc = state.incoming
        # the arms stay aligned with the matrix (a joined arm's corner passed to the other one)
        if aligned:
            assert inc.row_arm is None or len(inc.row_arm) == state.C
            assert inc.col_arm is None or len(inc.col_arm) == state.R
        else:
            assert inc.row_arm is None or len(inc.row_arm) >= state.C
            assert inc.col_arm is None or len(inc.col_arm) >= state.R
        assert (inc.corner != 0) == (inc.row_arm is not None and inc.col_arm is not None)
