"""numba interpreters for both semantics (the hot loops); ``oracle.py`` is their slow reference.

Encoding (built by ``engine.py``): crates are colour ids 1..K, 0 = no crate; a board
(``engine.EncodedBoard``) is ``piles`` (int16, piles x capacity, bottom first) plus ``heights``, and the goal
the same way; conditions are 0 = always, -1 = any,
-2 = none, k > 0 = colour k. Ops: 0 nothing/empty, 1 right, 2 left, 3 claw/pickup, 4 call (vaguery, the
target in ``arg``) or 4 + k = call F(k+1) (game). The call stacks are run-length encoded (a frame
plus a repeat count), so tail-recursive loops run in constant memory while keeping the exact
semantics; the goal test is an O(1) count of piles that differ from the goal, updated per claw action.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import FETCH_GUARD, TOPPLE_HEIGHT

SOLVED, CRASHED, TOPPLED, OUT_OF_STEPS, FINISHED = 0, 1, 2, 3, 4
#: the ``out`` array both interpreters fill. Game semantics also says which registers a run read, for the GP's
#: recall: ``OUT_FETCHED`` is the bit mask of the register slots (``function * width + register``) it fetched, and
#: ``OUT_ORDER`` on holds the first ``OUT_FIRSTS`` of them in the order first fetched (6 bits a slot, 10 a word).
#: A program equal to this one in those registers runs exactly as it does. The Ruby semantics sets the mask's
#: every bit and ``OUT_FIRSTS`` to -1 (no claim).
OUT_OUTCOME, OUT_STEPS, OUT_MOVES, OUT_CRASHES, OUT_TOPPLES, OUT_CLAW, OUT_HELD, OUT_FETCHED, OUT_FIRSTS = range(9)
OUT_ORDER = 9
ORDER_WORDS = 4
ORDER_SLOTS = 10 * ORDER_WORDS
OUT_SIZE = OUT_ORDER + ORDER_WORDS
#: slots past this would share the mask's top bit (a levels file allows 5 functions of 10 registers: slots 0-49)
FETCH_BITS = 62


@njit(cache=True)
def _pile_equal(board, p):
    return _equal(board.piles, board.heights, board.goal, board.goal_heights, p)


@njit(cache=True)
def _mismatches(board):
    count = 0
    for p in range(board.heights.shape[0]):
        if not _pile_equal(board, p):
            count += 1
    return count


@njit(cache=True)
def _holds(cond, held):
    return cond == 0 or cond == held or (cond == -1 and held > 0) or (cond == -2 and held == 0)


@njit(cache=True)
def _grow(a):
    b = np.empty(a.shape[0] * 2, a.dtype)
    b[: a.shape[0]] = a
    return b


@njit(cache=True)
def _claw_action(board, pos, held, mism):
    """Pick up or drop at ``pos``; returns (held, mismatch count)."""
    held, change = _claw(board.piles, board.heights, board.goal, board.goal_heights, pos, held)
    return held, mism + change


@njit(cache=True)
def _finish(out, outcome, steps, moves, crashes, topples, pos, held):
    out[OUT_OUTCOME] = outcome
    out[OUT_STEPS] = steps
    out[OUT_MOVES] = moves
    out[OUT_CRASHES] = crashes
    out[OUT_TOPPLES] = topples
    out[OUT_CLAW] = pos
    out[OUT_HELD] = held


@njit(cache=True)
def run_vaguery(script, board, claw, rules, out):
    """Ruby ``activate``: the deque is the current subroutine tail plus the suspended caller tails.

    ``script`` is an ``engine.ScriptCode``, ``rules`` an ``engine.VagueryRules``; fills ``out`` (``OUT_*``).
    """
    op, arg, cond, sub_start, sub_len = script.op, script.arg, script.cond, script.start, script.length
    heights, has_goal = board.heights, board.has_goal
    fragile, unstable, height_limit, step_limit = rules.fragile, rules.unstable, rules.height_limit, rules.step_limit
    n = heights.shape[0]
    mism = _mismatches(board) if has_goal else 1
    st_sub = np.empty(64, np.int32)
    st_pc = np.empty(64, np.int32)
    st_cnt = np.empty(64, np.int64)
    depth = 0
    cur_sub = 0
    cur_pc = 0
    pos = claw
    held = 0
    steps = 0
    moves = 0
    crashes = 0
    topples = 0
    broken = -1
    while True:
        while cur_pc >= sub_len[cur_sub] and depth > 0:
            cur_sub = st_sub[depth - 1]
            cur_pc = st_pc[depth - 1]
            if st_cnt[depth - 1] > 1:
                st_cnt[depth - 1] -= 1
            else:
                depth -= 1
        if has_goal and mism == 0:
            outcome = SOLVED
            break
        if broken >= 0:
            outcome = broken
            break
        if cur_pc >= sub_len[cur_sub]:
            outcome = FINISHED
            break
        if steps >= step_limit:
            outcome = OUT_OF_STEPS
            break
        steps += 1
        t = sub_start[cur_sub] + cur_pc
        cur_pc += 1
        o = op[t]
        if o == 0 or not _holds(cond[t], held):
            continue
        if o == 3:
            moves += 1
            held, mism = _claw_action(board, pos, held, mism)
            if not has_goal:
                mism = 1
        elif o <= 2:
            pos += 1 if o == 1 else -1
            if pos < 0 or pos >= n:
                pos = 0 if pos < 0 else n - 1
                crashes += 1
                if fragile and broken < 0:
                    broken = CRASHED
            else:
                moves += 1
            if heights[pos] > height_limit:
                topples += 1
                if unstable and broken < 0:
                    broken = TOPPLED
        else:
            target = arg[t]
            if target < 0 or sub_len[target] == 0:
                continue
            if cur_pc < sub_len[cur_sub]:
                if depth > 0 and st_sub[depth - 1] == cur_sub and st_pc[depth - 1] == cur_pc:
                    st_cnt[depth - 1] += 1
                else:
                    if depth == st_sub.shape[0]:
                        st_sub = _grow(st_sub)
                        st_pc = _grow(st_pc)
                        st_cnt = _grow(st_cnt)
                    st_sub[depth] = cur_sub
                    st_pc[depth] = cur_pc
                    st_cnt[depth] = 1
                    depth += 1
            cur_sub = target
            cur_pc = 0
    _finish(out, outcome, steps, moves, crashes, topples, pos, held)
    out[OUT_FETCHED] = -1
    out[OUT_FIRSTS] = -1


@njit(cache=True)
def run_game(registers, board, claw, tick_limit, out):
    """``Level:run`` with ``Program:nextMove``: free skips and returns, a call costs one tick.

    ``registers`` is an ``engine.RegisterCode``; fills ``out`` (``OUT_*``).
    """
    stack = np.empty((64, 3), np.int64)
    game_loop(
        registers.op.ravel(),
        registers.cond.ravel(),
        registers.length,
        registers.op.shape[1],
        board.piles,
        board.heights,
        board.goal,
        board.goal_heights,
        board.has_goal,
        claw,
        tick_limit,
        out,
        stack,
    )


@njit(cache=True)
def _claw(piles, heights, goal, goal_heights, pos, held):
    """Pick up or drop at ``pos``; returns (held, change of the mismatch count)."""
    before = _equal(piles, heights, goal, goal_heights, pos)
    if held == 0:
        if heights[pos] > 0:
            heights[pos] -= 1
            held = piles[pos, heights[pos]]
    else:
        piles[pos, heights[pos]] = held
        heights[pos] += 1
        held = 0
    after = _equal(piles, heights, goal, goal_heights, pos)
    return held, (0 if after else 1) - (0 if before else 1)


@njit(cache=True)
def _equal(piles, heights, goal, goal_heights, p):
    if heights[p] != goal_heights[p]:
        return False
    for i in range(heights[p]):
        if piles[p, i] != goal[p, i]:
            return False
    return True


#: ``game_loop``'s resumable state (a run stops to grow its call stack, then goes on where it stopped)
S_DEPTH, S_FUNC, S_INDEX, S_POS, S_HELD, S_TICKS, S_MOVES, S_MISM, S_GUARD = range(9)
STATE_SIZE = 9
#: ``_game_ticks``'s answer when the call stack is full
GROW = -1


@njit(cache=True)
def game_loop(ops, conds, flen, width, piles, heights, goal, goal_heights, has_goal, claw, tick_limit, out, stack):
    """``run_game`` on flat arrays: ``ops``/``conds`` are (functions x ``width``) raveled, ``stack`` a
    preallocated (n, 3) call stack of (function, register, repeat count) rows. The hot loop never reallocates
    (a reassigned array there costs reference counting every tick): it stops when the stack is full, and this
    doubles the stack and resumes it. Returns the stack (grown or the one given) so a batch can reuse it."""
    state = np.zeros(STATE_SIZE, np.int64)
    state[S_INDEX] = -1
    state[S_POS] = claw
    out[OUT_FETCHED:] = 0
    state[S_MISM] = 1
    if has_goal:
        state[S_MISM] = 0
        for p in range(heights.shape[0]):
            if not _equal(piles, heights, goal, goal_heights, p):
                state[S_MISM] += 1
    while (
        _game_ticks(
            ops, conds, flen, width, piles, heights, goal, goal_heights, has_goal, tick_limit, out, stack, state
        )
        == GROW
    ):
        bigger = np.empty((2 * stack.shape[0], 3), np.int64)
        bigger[: stack.shape[0]] = stack
        stack = bigger
    return stack


@njit(cache=True)
def _game_ticks(ops, conds, flen, width, piles, heights, goal, goal_heights, has_goal, tick_limit, out, stack, state):
    """The ticks of ``game_loop`` from ``state``; fills ``out`` and returns its outcome, or stops before a call
    that would overflow ``stack`` (state saved so that the call is fetched again) and returns ``GROW``."""
    n = heights.shape[0]
    depth, func, index = state[S_DEPTH], state[S_FUNC], state[S_INDEX]
    pos, held, ticks, moves, mism = state[S_POS], state[S_HELD], state[S_TICKS], state[S_MOVES], state[S_MISM]
    guard = state[S_GUARD]  # fetches already spent in the current tick (non-zero only on a resume)
    base = func * width
    length = flen[func]
    crashes = 0
    topples = 0
    fetched = out[OUT_FETCHED]
    while True:
        if mism == 0:  # without a goal mism stays 1
            outcome = SOLVED
            break
        if ticks >= tick_limit:
            outcome = OUT_OF_STEPS
            break
        move = -1  # -1: idle tick of the scan guard
        finished = False
        full = False
        while guard < FETCH_GUARD:
            guard += 1
            index += 1
            if index >= length:
                if depth == 0:
                    finished = True
                    break
                func = stack[depth - 1, 0]
                index = stack[depth - 1, 1]
                base = func * width
                length = flen[func]
                if stack[depth - 1, 2] > 1:
                    stack[depth - 1, 2] -= 1
                else:
                    depth -= 1
                continue
            slot = min(base + index, FETCH_BITS)
            if not fetched >> slot & 1:
                fetched |= np.int64(1) << slot
                first = out[OUT_FIRSTS]
                if first < ORDER_SLOTS:
                    out[OUT_ORDER + first // 10] |= np.int64(slot) << (6 * (first % 10))
                out[OUT_FIRSTS] = first + 1
            o = ops[base + index]
            if o == 0 or not _holds(conds[base + index], held):
                continue
            move = o
            if o >= 4:
                if depth > 0 and stack[depth - 1, 0] == func and stack[depth - 1, 1] == index:
                    stack[depth - 1, 2] += 1
                elif depth == stack.shape[0]:
                    full = True
                    break
                else:
                    stack[depth, 0] = func
                    stack[depth, 1] = index
                    stack[depth, 2] = 1
                    depth += 1
                func = o - 4
                index = -1
                base = func * width
                length = flen[func]
            break
        if full:
            state[S_DEPTH], state[S_FUNC], state[S_INDEX], state[S_GUARD] = depth, func, index - 1, guard - 1
            state[S_POS], state[S_HELD], state[S_TICKS], state[S_MOVES], state[S_MISM] = pos, held, ticks, moves, mism
            out[OUT_FETCHED] = fetched
            return GROW
        guard = 0
        if finished:
            outcome = FINISHED
            break
        ticks += 1
        if move < 0 or move >= 4:
            continue
        moves += 1
        if move == 3:
            held, change = _claw(piles, heights, goal, goal_heights, pos, held)
            mism = mism + change if has_goal else 1
            continue
        if heights[pos] >= TOPPLE_HEIGHT:
            topples = 1
            outcome = TOPPLED
            break
        target = pos + (1 if move == 1 else -1)
        if target < 0 or target >= n:
            crashes = 1
            outcome = CRASHED
            break
        pos = target
    _finish(out, outcome, ticks, moves, crashes, topples, pos, held)
    out[OUT_FETCHED] = fetched
    return outcome
