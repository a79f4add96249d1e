"""The article's greedy bot: its worked example, ranking, balance, hold B, replanning, Shell pairing."""

from __future__ import annotations

import re

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from yc_helpers import YOSHI, state_with

from puzzlebots.games.yoshis_cookie import oracle
from puzzlebots.games.yoshis_cookie.bots.greedy import GreedyBot
from puzzlebots.games.yoshis_cookie.bots.lines import ROW, Line, LineBuilder, moves_to_plan, shell_pairing_plan
from puzzlebots.games.yoshis_cookie.game import GAME
from puzzlebots.games.yoshis_cookie.kernels import builder
from puzzlebots.games.yoshis_cookie.kernels import matrix as K
from puzzlebots.games.yoshis_cookie.kernels.params import rule_numbers
from puzzlebots.games.yoshis_cookie.rules import NORMAL_NAMES

# The article's example: building row 1 with three Hearts in place (columns 1, 3, 4) and spaces in
# columns 0, 2 and 5. Hearts wait below at (row 3, col 5), (4, 1) and (5, 2); the cursor starts at (2, 4).
ARTICLE_BOARD = [
    "FKFKFK",
    "DHDHHO",
    "KFKFKF",
    "ODODOH",
    "FHFKFK",
    "DOHODO",
]


def build(rows: list[str], cursor: tuple[int, int], kind: str, idx: int, t: int, follows: bool) -> tuple:
    state = state_with(rows, cursor, cursor_follows=follows)
    rules = rule_numbers({**state.config, "min_line": 2, "score_cookie": 10, "score_yoshi": 100}, yoshi_last=True)
    moves = np.zeros(builder.MAX_MOVES, dtype=np.int8)
    work = np.zeros((8, 8), dtype=np.int8)
    line = (1 if kind == "col" else 0, idx, t)
    pts, steps, nm, status, _ = builder.build_line(
        state.raw_grid, (state.R, state.C, *cursor), line, rules, moves, work
    )
    return pts, steps, moves_to_plan(moves, nm), status


def test_article_board_has_three_hearts_in_row_1_and_three_outside() -> None:
    assert [j for j, ch in enumerate(ARTICLE_BOARD[1]) if ch == "H"] == [1, 3, 4]
    outside = [(i, j) for i, row in enumerate(ARTICLE_BOARD) for j, ch in enumerate(row) if ch == "H" and i != 1]
    assert outside == [(3, 5), (4, 1), (5, 2)]


def test_article_worked_example_exact_sequence_with_a_fixed_cursor() -> None:
    # 1 cursor to the nearest space's column (5); 2 the Heart under the cursor: rotate column 5 up into
    # row 1; 3 one step right to column 0 (wraparound); 4 the nearest Heart is on row 4: cursor down to
    # it; 5 rotate row 4 until the Heart is in column 0; 6 rotate column 0 up into row 1; 7 cursor to the
    # last space (column 2); 8 the Heart directly beneath: rotate column 2 down 2 steps through the wrap.
    pts, steps, plan, status = build(ARTICLE_BOARD, (2, 4), "row", 1, 1, follows=False)
    assert status == builder.BUILT
    assert plan == "R" + "uu" + "R" + "DD" + "l" + "uuu" + "RR" + "dd"
    assert pts == 10 * 6  # the row of six Hearts clears
    assert steps == 2 + (2 + 4) + 2 + 4 + (2 + 2) + (2 + 6) + 4 + (2 + 4)


def test_article_worked_example_with_the_cursor_following_its_cookie() -> None:
    # Same lines, same rotations; the default cursor rides along with the rotated cookie, so it steps
    # onto the Heart before dragging it (the reference's Q16/Q17).
    pts, steps, plan, status = build(ARTICLE_BOARD, (2, 4), "row", 1, 1, follows=True)
    assert status == builder.BUILT
    # after "uu" the cursor rode up to row 0; "UU" reaches row 4 through the wrap, "R" steps onto the Heart
    assert plan == "R" + "uu" + "R" + "UU" + "R" + "l" + "uuu" + "RR" + "dd"
    assert "".join(c for c in plan if c in "udlr") == "uu" + "l" + "uuu" + "dd"  # the article's rotations
    assert pts == 60 and steps == 38


def test_article_plan_replays_on_the_engine_and_clears_row_1() -> None:
    for follows in (False, True):
        _, _, plan, _ = build(ARTICLE_BOARD, (2, 4), "row", 1, 1, follows)
        state = state_with(ARTICLE_BOARD, (2, 4), cursor_follows=follows)
        state.apply(plan)
        assert state.R == 5 and state.counters.score == 60 and state.counters.lines == 1


def test_line_builder_plans_the_article_example_and_refuses_lines_it_cannot_build() -> None:
    state = state_with(ARTICLE_BOARD, (2, 4), cursor_follows=False)
    builder = LineBuilder(state.config)
    assert builder.plan(state, Line(ROW, 1, 1)) == build(ARTICLE_BOARD, (2, 4), "row", 1, 1, follows=False)[2]
    assert builder.plan(state, Line(ROW, 6, 1)) is None  # row 6 is outside the 6 x 6 matrix
    assert builder.plan(state_with(["HFD", "KOH", "FDK"]), Line(ROW, 0, 1)) is None  # one Heart short


boards = st.integers(2, 6).flatmap(
    lambda R: st.integers(2, 6).flatmap(
        lambda C: st.tuples(
            st.just(R),
            st.just(C),
            st.lists(st.lists(st.sampled_from("HFDKY"), min_size=C, max_size=C), min_size=R, max_size=R),
            st.integers(0, R - 1),
            st.integers(0, C - 1),
            st.booleans(),
        )
    )
)


def _no_complete(rows: list[str]) -> bool:
    g = np.zeros((8, 8), dtype=np.int8)
    g[: len(rows), : len(rows[0])] = [["..HFDKOYS".index(ch) - 1 for ch in r] for r in rows]
    return K.find_complete(g, len(rows), len(rows[0]), 2, np.empty(8, np.int64), np.empty(8, np.int64)) == 0


@settings(max_examples=60, deadline=None)
@given(boards)
def test_greedy_choice_is_the_best_points_then_steps_under_the_balance_rule(data) -> None:
    R, C, cells, cr, cc, follows = data
    rows = ["".join(r) for r in cells]
    if not _no_complete(rows):
        return
    state = state_with(rows, (cr, cc), cursor_follows=follows)
    counts = {t: sum(r.count("-HFDKO"[t]) for r in rows) for t in range(1, 6)}
    yoshis = sum(r.count("Y") for r in rows)
    candidates = []
    order = 0
    for kind, nlines, length in (("row", R, C), ("col", C, R)):
        if (kind == "col" and R >= C + 2) or (kind == "row" and C >= R + 2):
            continue
        for idx in range(nlines):
            for t in range(1, 6):
                if counts[t] == 0 or counts[t] + yoshis < length:
                    continue
                pts, steps, plan, status = build(rows, (cr, cc), kind, idx, t, follows)
                if status == builder.BUILT:
                    candidates.append((-pts, steps, order, plan, pts))
                order += 1
    bot = GreedyBot(state.config)
    chosen = bot.act(state)
    if not candidates:
        assert chosen == "B"
        return
    best = min(candidates)
    assert chosen == best[3]
    # the simulated points are what the engine pays when nothing falls meanwhile
    state.apply(chosen)
    assert state.counters.score == best[4]


def test_balance_rule_considers_only_rows_when_there_are_two_more_rows() -> None:
    # 4 x 2: column 0 could be built quickly, but R >= C + 2 so only rows count.
    rows = ["HF", "HD", "KH", "FO"]
    state = state_with(rows)
    bot = GreedyBot(state.config)
    bot.act(state)
    target = bot.building()
    assert target is not None and target.axis == ROW


def test_the_terminal_view_shows_the_line_the_bot_builds() -> None:
    state = state_with(["HF", "HD", "KH", "FO"])
    bot = GreedyBot(state.config)
    console = Console(width=100, record=True)
    console.print(GAME.render(state, bot))
    assert "building" not in console.export_text()  # no decision yet
    bot.act(state)
    target = bot.building()
    assert target is not None
    console.print(GAME.render(state, bot))
    assert re.search(rf"building +row {target.number} of {NORMAL_NAMES[target.type]}\b", console.export_text())


def test_holds_b_when_nothing_can_be_cleared() -> None:
    state = state_with(["HFD", "KOH", "FDK"])  # no type has 3 cookies
    assert GreedyBot(state.config).act(state) == "B"


def test_a_contact_mid_build_stops_the_plan_for_a_replan() -> None:
    state = state_with(ARTICLE_BOARD, (2, 4), delay=0)
    state.incoming.y = 6 * 64 + 2  # the row arm touches after one frame
    plan = GreedyBot(state.config).act(state)
    state.apply(plan)
    assert state.R == 7 and state.counters.score == 0  # grown, line not finished: the bot plans again
    twin = state_with(ARTICLE_BOARD, (2, 4))  # nothing falls: the same plan completes its line
    twin.apply(plan)
    assert twin.counters.score > 0


def test_shell_is_turned_under_a_falling_yoshi() -> None:
    state = state_with(["HSKD"], delay=0, mode="expert")
    state.incoming.row_arm = [2, 3, 4, YOSHI]
    assert shell_pairing_plan(state) == "llB"  # 2 either way: ties go left (Q18)
    state.incoming.row_arm = [YOSHI, 3, 4, 2]
    assert shell_pairing_plan(state) == "lB"
    state.incoming.row_arm = [2, 3, 4, 5]
    assert shell_pairing_plan(state) is None
    state = state_with(["H", "S", "K"], delay=0, mode="expert")
    state.incoming.col_arm = [YOSHI, 2, 3]
    assert shell_pairing_plan(state) == "uB"
    bot = GreedyBot(state.config)
    state.apply(bot.act(state))
    while state.counters.shells_cleared == 0 and state.R:
        state.apply(bot.act(state))
    assert state.counters.shells_cleared == 1


def test_greedy_plays_full_runs_with_infinite_continues() -> None:
    cfg = GAME.check_config({"speed": "high", "max_stages": 12, "start_round": 3})
    state = GAME.new_state(5, cfg)
    bot = GAME.make_bot("greedy", cfg, None, 0)
    while not state.is_terminal():
        state.apply(bot.act(state))
    result = state.result()
    assert result["stages_cleared"] == 12 and result["completed"]


@settings(max_examples=80, deadline=None)
@given(boards, st.integers(0, 6), st.integers(1, 5))
def test_numba_builder_matches_the_plain_python_oracle(data, line, t) -> None:
    R, C, cells, cr, cc, follows = data
    rows = ["".join(r) for r in cells]
    if not _no_complete(rows):
        return
    codes = [["-HFDKOYS".index(ch) for ch in r] for r in rows]
    r = line % R
    pts, steps, plan, status = build(rows, (cr, cc), "row", r, t, follows)
    expect = oracle.build_row(codes, (cr, cc), r, t, follows)
    if expect is None:
        assert status == builder.NOT_BUILT
    else:
        assert status == builder.BUILT and (pts, steps, plan) == expect
