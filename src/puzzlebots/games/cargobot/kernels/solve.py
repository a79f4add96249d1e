"""The synthesizer's depth-first search in numba (game semantics), after Elizarov's CargoBotSolver.

The program is built lazily while it runs: a register is decided only when execution first reaches
it (``EXTEND``: the function ends here, or gets a register that fires with some op or is skipped),
a register's condition is kept as the *set* of toolbox conditions consistent with every fire/skip seen
so far and split only when the held crate makes that set ambiguous (``SPLIT``), and a register that
was only ever skipped gets its op when it first fires (``OPCHOOSE``). Every branch point saves the
machine (board, claw, held crate, call stack as a persistent linked list, loop table undo mark), so
backtracking resumes there instead of re-running from the start.

Pruning: register budget with a lower bound (ops the board needs, two registers per extra
function), functions introduced in order, adjacent move pairs equivalent to one register or none,
wall/topple failures, and loop detection at every call: the same board, claw, crate and call site
seen before with the old call stack still a prefix of the current one (never popped in between)
repeats forever.
"""

from __future__ import annotations

import numpy as np
from numba import njit

EXTEND, SPLIT, OPCHOOSE = 0, 1, 2
FOUND, EXHAUSTED, TOO_BIG = 0, 1, 2
PICKUP, RIGHT, LEFT = 3, 1, 2
TOPPLE_HEIGHT = 7


@njit(cache=True)
def _lower_bound(used, plen, pend, nfun, need, cnt, cnt_unknown, budget):
    missing = 0
    for k in range(3):
        if need[k] and cnt[k] == 0:
            missing += 1
    # a program without calls runs each register at most once: too few ticks to move need[3] crates
    if 2 * need[3] > budget and cnt[3] == 0:
        missing += 1
    missing = max(0, missing - cnt_unknown)
    mand = max(0, 1 - plen[0])
    for k in range(1, nfun):
        mand += max(0, 2 - plen[k])
    return used + max(missing, mand)


@njit(cache=True)
def _fits(plen, nfun, limits_sorted):
    """Can the lengths of F2.. be assigned to the non-main slot limits (sorted descending)?"""
    m = nfun - 1
    if m <= 0:
        return True
    lens = np.sort(plen[1:nfun])[::-1]
    for k in range(m):
        if lens[k] > limits_sorted[k]:
            return False
    return True


@njit(cache=True)
def _pair_redundant(pop_, pmask, plen, f, a, red, ncond):
    if a < 0 or a + 1 >= plen[f]:
        return False
    o1 = pop_[f, a]
    o2 = pop_[f, a + 1]
    if o1 < 1 or o1 > 3 or o2 < 1 or o2 > 3 or (o1 == 3) != (o2 == 3):
        return False
    m1 = pmask[f, a]
    m2 = pmask[f, a + 1]
    for c1 in range(ncond):
        if m1 & (1 << c1):
            for c2 in range(ncond):
                if m2 & (1 << c2) and not red[o1, c1, o2, c2]:
                    return False
    return True


@njit(cache=True)
def _inlinable(pop_, pmask, plen, nfun, slots, seen, todo):
    """True if some F2.. is called from one unconditional site and not recursively: inlining it into
    its caller gives an equivalent program one register smaller (checked once the budget is spent)."""
    for k in range(1, nfun):
        sites = 0
        caller = -1
        site_mask = 0
        for j in range(nfun):
            for r in range(plen[j]):
                if pop_[j, r] == 4 + k:
                    sites += 1
                    caller = j
                    site_mask = pmask[j, r]
        if sites != 1 or site_mask != 1 or caller == k:
            continue
        if plen[caller] - 1 + plen[k] > slots[caller]:
            continue
        # is k reachable from its own body?
        seen[:] = 0
        ntodo = 0
        for r in range(plen[k]):
            if pop_[k, r] >= 4:
                todo[ntodo] = pop_[k, r] - 4
                ntodo += 1
        recursive = False
        while ntodo > 0 and not recursive:
            ntodo -= 1
            g = todo[ntodo]
            if g == k:
                recursive = True
            elif seen[g] == 0:
                seen[g] = 1
                for r in range(plen[g]):
                    if pop_[g, r] >= 4 and ntodo < todo.shape[0]:
                        todo[ntodo] = pop_[g, r] - 4
                        ntodo += 1
        if not recursive:
            return True
    return False


@njit(cache=True)
def _board_equal(piles, heights, goal, goal_heights):
    for p in range(heights.shape[0]):
        if heights[p] != goal_heights[p]:
            return False
        for h in range(heights[p]):
            if piles[p, h] != goal[p, h]:
                return False
    return True


@njit(cache=True)
def search(
    piles0, heights0, goal, goal_heights, claw0, slots, limits_sorted, oplist, firemask, allmask, red,
    ncond, need, budget, tick_cap, zob, zclaw, zheld, zsite, forced, split_depth, max_nodes,
    out_op, out_mask, out_len, out_prefixes, counters,
):  # fmt: skip
    """Search programs of at most ``budget`` registers below the ``forced`` option prefix.

    ``split_depth`` >= 0: instead of searching deeper, write every option prefix of that depth to
    ``out_prefixes`` (count in ``counters[1]``; ``counters[2]`` = ticks run, ``counters[3]`` = tick-cap
    hits). Returns FOUND (program in ``out_*``), EXHAUSTED, or
    TOO_BIG when ``max_nodes`` options were tried without finishing (``counters[0]`` = options tried).
    """
    npiles = heights0.shape[0]
    cap = piles0.shape[1]
    nf = slots.shape[0]
    smax = slots.max()
    nops = oplist.shape[0]
    maxl = budget * (ncond + 2) + 8
    # program being built
    pop_ = np.zeros((nf, smax), np.int8)
    pmask = np.zeros((nf, smax), np.int32)
    plen = np.zeros(nf, np.int32)
    pend = np.zeros(nf, np.int8)
    cnt = np.zeros(4, np.int32)  # rights, lefts, pickups, calls decided
    used = 0
    nfun = 1
    cnt_unknown = 0
    seen = np.zeros(nf, np.int8)
    todo = np.zeros(nf * (smax + 1), np.int32)
    # machine
    piles = piles0.copy()
    heights = heights0.copy()
    claw = claw0
    held = 0
    ticks = 0
    bh = np.uint64(0)
    for p in range(npiles):
        for h in range(heights[p]):
            bh ^= zob[p, h, piles[p, h]]
    gh = np.uint64(0)
    for p in range(npiles):
        for h in range(goal_heights[p]):
            gh ^= zob[p, h, goal[p, h]]
    f = 0
    i = -1
    # call stack: persistent linked list of frames
    pool = tick_cap + 2
    nd_f = np.zeros(pool, np.int32)
    nd_i = np.zeros(pool, np.int32)
    nd_parent = np.zeros(pool, np.int32)
    nd_depth = np.zeros(pool, np.int32)
    top = -1
    alloc = 0
    # loop table with undo log
    tsize = 1
    while tsize < 4 * tick_cap:
        tsize *= 2
    tkey = np.zeros(tsize, np.uint64)
    ttop = np.zeros(tsize, np.int32)
    tdepth = np.zeros(tsize, np.int32)
    log_slot = np.zeros(tick_cap + 2, np.int32)
    log_key = np.zeros(tick_cap + 2, np.uint64)
    log_top = np.zeros(tick_cap + 2, np.int32)
    log_depth = np.zeros(tick_cap + 2, np.int32)
    nlog = 0
    # branch levels and their snapshots
    lv_kind = np.zeros(maxl, np.int32)
    lv_f = np.zeros(maxl, np.int32)
    lv_i = np.zeros(maxl, np.int32)
    lv_opt = np.zeros(maxl, np.int32)
    lv_oldmask = np.zeros(maxl, np.int32)
    lv_piles = np.zeros((maxl, npiles, cap), piles0.dtype)
    lv_heights = np.zeros((maxl, npiles), heights0.dtype)
    lv_sc = np.zeros((maxl, 16), np.int64)
    lv_bh = np.zeros(maxl, np.uint64)
    level = 0
    nodes = 0
    nprefix = 0
    event = 0  # 0 run, 1 dead, 2 branch
    kind = 0
    while True:
        # ---------------- run the machine until it wins, dies or needs a decision ----------------
        if event == 0:
            while True:
                if bh == gh and _board_equal(piles, heights, goal, goal_heights):
                    for k in range(nf):
                        out_len[k] = plen[k]
                        for r in range(plen[k]):
                            out_op[k, r] = pop_[k, r]
                            out_mask[k, r] = pmask[k, r]
                    counters[0] = nodes
                    counters[1] = nprefix
                    return FOUND
                if ticks >= tick_cap:
                    counters[3] += 1
                    event = 1
                    break
                o = 0
                while True:
                    i += 1
                    if i >= plen[f]:
                        if pend[f] == 0:
                            kind = EXTEND
                            event = 2
                            break
                        if top < 0:
                            event = 1
                            break
                        f = nd_f[top]
                        i = nd_i[top]
                        top = nd_parent[top]
                        continue
                    m = pmask[f, i]
                    fm = m & firemask[held]
                    if fm == 0:
                        continue
                    if fm != m:
                        kind = SPLIT
                        event = 2
                        break
                    o = pop_[f, i]
                    if o == 0:
                        kind = OPCHOOSE
                        event = 2
                        break
                    break
                if event != 0:
                    break
                ticks += 1
                counters[2] += 1
                if o == PICKUP:
                    if held == 0:
                        if heights[claw] > 0:
                            heights[claw] -= 1
                            held = piles[claw, heights[claw]]
                            bh ^= zob[claw, heights[claw], held]
                    else:
                        bh ^= zob[claw, heights[claw], held]
                        piles[claw, heights[claw]] = held
                        heights[claw] += 1
                        held = 0
                elif o <= 2:
                    if heights[claw] >= TOPPLE_HEIGHT:
                        event = 1
                        break
                    claw += 1 if o == RIGHT else -1
                    if claw < 0 or claw >= npiles:
                        event = 1
                        break
                else:
                    key = bh ^ zclaw[claw] ^ zheld[held] ^ zsite[f, i] | np.uint64(1)
                    depth = nd_depth[top] if top >= 0 else 0
                    slot = np.int64(key & np.uint64(tsize - 1))
                    while tkey[slot] != 0 and tkey[slot] != key:
                        slot = (slot + 1) & (tsize - 1)
                    if tkey[slot] == key and depth >= tdepth[slot]:
                        node = top
                        for _ in range(depth - tdepth[slot]):
                            node = nd_parent[node]
                        if node == ttop[slot]:
                            event = 1
                            break
                    log_slot[nlog] = slot
                    log_key[nlog] = tkey[slot]
                    log_top[nlog] = ttop[slot]
                    log_depth[nlog] = tdepth[slot]
                    nlog += 1
                    tkey[slot] = key
                    ttop[slot] = top
                    tdepth[slot] = depth
                    nd_f[alloc] = f
                    nd_i[alloc] = i
                    nd_parent[alloc] = top
                    nd_depth[alloc] = depth + 1
                    top = alloc
                    alloc += 1
                    f = o - 4
                    i = -1
        # ---------------- a decision is needed: open a branch level ----------------
        if event == 2:
            if level == split_depth:
                if nprefix < out_prefixes.shape[0]:
                    for k in range(level):
                        out_prefixes[nprefix, k] = lv_opt[k]
                nprefix += 1
                event = 1
            elif level >= maxl:
                event = 1
            else:
                lv_kind[level] = kind
                lv_f[level] = f
                lv_i[level] = i
                lv_opt[level] = -1
                lv_oldmask[level] = pmask[f, i] if i < plen[f] else 0
                lv_piles[level] = piles
                lv_heights[level] = heights
                lv_bh[level] = bh
                sc = lv_sc[level]
                sc[0] = claw
                sc[1] = held
                sc[2] = ticks
                sc[3] = top
                sc[4] = alloc
                sc[5] = nlog
                sc[6] = used
                sc[7] = nfun
                sc[8] = cnt[0]
                sc[9] = cnt[1]
                sc[10] = cnt[2]
                sc[11] = cnt_unknown
                sc[12] = cnt[3]
                level += 1
                event = 1
        # ---------------- try the next option of the deepest open level ----------------
        while True:
            if level == 0:
                counters[0] = nodes
                counters[1] = nprefix
                return EXHAUSTED
            L = level - 1
            lf = lv_f[L]
            li = lv_i[L]
            lk = lv_kind[L]
            sc = lv_sc[L]
            # undo the option applied at this level (if any) and restore the machine
            if lv_opt[L] >= 0:
                if lk == EXTEND:
                    pend[lf] = 0
                    plen[lf] = li
                    if li < smax:
                        pop_[lf, li] = 0
                        pmask[lf, li] = 0
                elif lk == SPLIT:
                    pmask[lf, li] = lv_oldmask[L]
                else:
                    pop_[lf, li] = 0
            while nlog > sc[5]:
                nlog -= 1
                s = log_slot[nlog]
                tkey[s] = log_key[nlog]
                ttop[s] = log_top[nlog]
                tdepth[s] = log_depth[nlog]
            piles[:] = lv_piles[L]
            heights[:] = lv_heights[L]
            bh = lv_bh[L]
            claw = sc[0]
            held = sc[1]
            ticks = sc[2]
            top = sc[3]
            alloc = sc[4]
            used = sc[6]
            nfun = sc[7]
            cnt[0] = sc[8]
            cnt[1] = sc[9]
            cnt[2] = sc[10]
            cnt_unknown = sc[11]
            cnt[3] = sc[12]
            if lk == EXTEND:
                nopt = nops + 2
            elif lk == SPLIT:
                nopt = 2
            else:
                nopt = nops
            applied = False
            opt = lv_opt[L]
            while not applied:
                if L < forced.shape[0]:
                    if opt >= 0:
                        break
                    opt = forced[L]
                else:
                    opt += 1
                if opt >= nopt:
                    break
                fire = firemask[held]
                if lk == SPLIT:
                    old = lv_oldmask[L]
                    pmask[lf, li] = (old & fire) if opt == 0 else (old & ~fire)
                    if (
                        _pair_redundant(pop_, pmask, plen, lf, li - 1, red, ncond)
                        or _pair_redundant(pop_, pmask, plen, lf, li, red, ncond)
                        or (
                            used == budget
                            and cnt_unknown == 0
                            and _inlinable(pop_, pmask, plen, nfun, slots, seen, todo)
                        )
                    ):
                        pmask[lf, li] = old
                        continue
                    applied = True
                    continue
                if lk == EXTEND and opt == 0:
                    if li >= (1 if lf == 0 else 2) and not (lf == 0 and top < 0):
                        pend[lf] = 1
                        applied = True
                    continue
                if lk == EXTEND and opt == nops + 1:
                    mask = allmask & ~fire
                    if mask == 0 or li >= slots[lf]:
                        continue
                    plen[lf] = li + 1
                    pop_[lf, li] = 0
                    pmask[lf, li] = mask
                    used += 1
                    cnt_unknown += 1
                    if lf > 0 and not _fits(plen, nfun, limits_sorted):
                        applied = False
                    elif _lower_bound(used, plen, pend, nfun, need, cnt, cnt_unknown, budget) > budget:
                        applied = False
                    else:
                        applied = True
                    if not applied:
                        plen[lf] = li
                        pmask[lf, li] = 0
                        used -= 1
                        cnt_unknown -= 1
                    continue
                op = oplist[opt - 1] if lk == EXTEND else oplist[opt]
                if op >= 4 and op - 4 > nfun:
                    continue
                if op >= 4 and op - 4 == nfun and nfun >= nf:
                    continue
                if lk == EXTEND:
                    mask = allmask & fire
                    if mask == 0 or li >= slots[lf]:
                        continue
                    plen[lf] = li + 1
                    pmask[lf, li] = mask
                    used += 1
                else:
                    cnt_unknown -= 1
                pop_[lf, li] = op
                if op >= 4 and op - 4 == nfun:
                    nfun += 1
                cnt[min(op, 4) - 1] += 1
                ok = True
                if lk == EXTEND and lf > 0 and not _fits(plen, nfun, limits_sorted):
                    ok = False
                if ok and _lower_bound(used, plen, pend, nfun, need, cnt, cnt_unknown, budget) > budget:
                    ok = False
                if ok and (
                    _pair_redundant(pop_, pmask, plen, lf, li - 1, red, ncond)
                    or _pair_redundant(pop_, pmask, plen, lf, li, red, ncond)
                ):
                    ok = False
                if (
                    ok
                    and used == budget
                    and cnt_unknown == 0
                    and _inlinable(pop_, pmask, plen, nfun, slots, seen, todo)
                ):
                    ok = False
                if ok:
                    applied = True
                    continue
                # roll back this op
                pop_[lf, li] = 0
                used = sc[6]
                nfun = sc[7]
                cnt[0] = sc[8]
                cnt[1] = sc[9]
                cnt[2] = sc[10]
                cnt_unknown = sc[11]
                cnt[3] = sc[12]
                if lk == EXTEND:
                    plen[lf] = li
                    pmask[lf, li] = 0
            if applied:
                lv_opt[L] = opt
                nodes += 1
                if split_depth < 0 and nodes > max_nodes:
                    counters[0] = nodes
                    counters[1] = nprefix
                    return TOO_BIG
                f = lf
                i = li - 1
                event = 0
                break
            level -= 1
