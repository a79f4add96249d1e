"""The hill climber of ``bots/climb.py`` in game semantics as one numba loop: mutation, the seen set, the legality
and genes of a script and its run, so an iteration costs no Python. ``bots.climb.kernel_climb`` builds the inputs;
the tests check this loop against the plain Python loop, draw for draw (``core.mt19937`` continues Python's random
stream).

Tokens are integer ids: ``base * (suffixes + 1) + s``, ``s = 0`` without a condition suffix, else the suffix
``s - 1``. Per id, ``token_function`` is the function a ``prog_N`` directive selects (else -1) and ``token_gene``
the register's gene (-1: a register the level forbids). The seen set is an open-addressing hash table over
stored token sequences that compares the sequences on a hash match (``Seen``). A call runs at most up to
``counters[ITERATION] == until``, carrying its state in the arrays, so the caller reports progress between calls.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from puzzlebots.core.mt19937 import randbelow, random_float

from .batch import _rebuild
from .interpreter import OUT_CRASHES, OUT_TOPPLES, game_loop

#: ``counters`` slots: iterations done, the wild type's length, solutions seen, sequences in the seen set, the
#: first solution's length, the most solutions
ITERATION, WILD_LENGTH, SOLUTIONS, SEEN, FIRST_LENGTH, STOP_AFTER = range(6)
COUNTERS = 6
#: the longest token list a mutation makes (``bots.climb.MAX_LENGTH``) and room for the list being built
MOST_TOKENS = 33
#: each figure of a script the game refuses (``bots.climb.UNSCORABLE``)
UNSCORABLE = 10**9
EMPTY = -1


@njit(cache=True)
def _random_token(mt, base_of, base_is_prog, suffixes, suffix_probability):
    """``bots.climb._random_token``: a base token, and with probability ``suffix_probability`` a suffix."""
    i = randbelow(mt, base_of.shape[0])
    suffix = 0
    if not base_is_prog[i] and suffixes > 0 and random_float(mt) < suffix_probability:
        suffix = 1 + randbelow(mt, suffixes)
    return base_of[i] * (suffixes + 1) + suffix


@njit(cache=True)
def mutate(wild, length, out, mt, pool, rates):
    """``bots.climb.mutate`` of ``wild[:length]`` into ``out``; returns the mutant's length. ``pool`` is
    (base_of, base_is_prog, suffixes); ``rates`` (least length, most length, insertion, suffix probability)."""
    base_of, base_is_prog, suffixes = pool
    least, most, insertion, suffix_probability = rates
    n = length
    out[:n] = wild[:n]
    if n > 0:
        out[randbelow(mt, n)] = _random_token(mt, base_of, base_is_prog, suffixes, suffix_probability)
    i = 0
    while i < n and n > least:
        if random_float(mt) < 1 / n:
            for k in range(i, n - 1):
                out[k] = out[k + 1]
            n -= 1
        else:
            i += 1
    i = 0
    while i < n and n < most:
        if random_float(mt) < insertion:
            for k in range(n, i, -1):
                out[k] = out[k - 1]
            out[i] = _random_token(mt, base_of, base_is_prog, suffixes, suffix_probability)
            n += 1
            i += 1
        i += 1
    return n


@njit(cache=True)
def sequence_hash(tokens, n):
    h = n
    for k in range(n):
        h = (h * 1000003) ^ (tokens[k] + 1)
    return h & 0x7FFFFFFFFFFFFFFF


@njit(cache=True)
def _same(entries, lengths, e, tokens, n):
    if lengths[e] != n:
        return False
    for k in range(n):
        if entries[e, k] != tokens[k]:
            return False
    return True


@njit(cache=True)
def add_seen(tokens, n, entries, lengths, hashes, table, counters):
    """Add ``tokens[:n]`` to the seen set; False if it was there (same hash and the same tokens)."""
    h = sequence_hash(tokens, n)
    mask = table.shape[0] - 1
    slot = h & mask
    while table[slot] != EMPTY:
        e = table[slot]
        if hashes[e] == h and _same(entries, lengths, e, tokens, n):
            return False
        slot = (slot + 1) & mask
    e = counters[SEEN]
    entries[e, :n] = tokens[:n]
    lengths[e], hashes[e] = n, h
    table[slot] = e
    counters[SEEN] = e + 1
    return True


@njit(cache=True)
def rehash(hashes, count, table):
    """Fill an empty (all ``EMPTY``) ``table`` with the first ``count`` entries (after the set grows)."""
    mask = table.shape[0] - 1
    for e in range(count):
        slot = hashes[e] & mask
        while table[slot] != EMPTY:
            slot = (slot + 1) & mask
        table[slot] = e


@njit(cache=True)
def score(tokens, n, program, board, scratch, figures):
    """(rebuild distance, crashes, topples) of a script into ``figures``, unscorable when the game would refuse
    it (``bots.climb.Scores._genome``): a directive beyond the level's functions, a forbidden register, a function
    over its slots. ``program`` is (token_function, token_gene, slots of every level function, gene_op,
    gene_cond, genome slots); ``board`` the level's first board; ``scratch`` the arrays a run writes into.
    Returns the call stack (``game_loop`` may grow it)."""
    token_function, token_gene, slots, gene_op, gene_cond, flen = program
    piles, heights, goal, goal_heights, has_goal, claw, tick_limit = board
    ops, conds, used, state, state_heights, work, left, out, stack = scratch
    width = ops.shape[0] // flen.shape[0]
    ops[:] = 0
    conds[:] = 0
    used[:] = 0
    current = 0
    for k in range(n):
        t = tokens[k]
        f = token_function[t]
        if f >= 0:
            if f >= slots.shape[0]:
                figures[:] = UNSCORABLE
                return stack
            current = f
            continue
        gene = token_gene[t]
        if gene < 0 or used[current] == slots[current]:
            figures[:] = UNSCORABLE
            return stack
        if current < flen.shape[0]:
            ops[current * width + used[current]] = gene_op[gene]
            conds[current * width + used[current]] = gene_cond[gene]
        used[current] += 1
    state[:] = piles
    state_heights[:] = heights
    out[:] = 0
    stack = game_loop(
        ops, conds, flen, width, state, state_heights, goal, goal_heights, has_goal, claw, tick_limit, out, stack
    )
    figures[0] = _rebuild(state, state_heights, goal, goal_heights, work, left) if has_goal else -1
    figures[1], figures[2] = out[OUT_CRASHES], out[OUT_TOPPLES]
    return stack


@njit(cache=True)
def climb_chunk(mt, wild, wild_score, first, counters, seen, pool, rates, program, board, scratch, until):
    """The climb's plain loop until ``until`` iterations or ``counters[STOP_AFTER]`` solutions: mutate the wild
    type, skip a script seen before, score it, count a solution (the first kept in ``first``), and accept a
    mutant no worse in all three figures. ``seen`` is (entries, lengths, hashes, table), with room for
    ``until - counters[ITERATION]`` more sequences."""
    entries, lengths, hashes, table = seen
    mutant = np.empty(MOST_TOKENS, wild.dtype)
    figures = np.empty(3, np.int64)
    ops, conds, used, state, state_heights, work, left, out, stack = scratch
    while counters[ITERATION] < until and counters[SOLUTIONS] < counters[STOP_AFTER]:
        n = mutate(wild, counters[WILD_LENGTH], mutant, mt, pool, rates)
        counters[ITERATION] += 1
        if not add_seen(mutant, n, entries, lengths, hashes, table, counters):
            continue
        stack = score(
            mutant, n, program, board, (ops, conds, used, state, state_heights, work, left, out, stack), figures
        )
        if figures[0] == 0 and figures[1] == 0 and figures[2] == 0:
            counters[SOLUTIONS] += 1
            if counters[SOLUTIONS] == 1:
                first[:n] = mutant[:n]
                counters[FIRST_LENGTH] = n
            if counters[SOLUTIONS] >= counters[STOP_AFTER]:
                break
        if figures[0] <= wild_score[0] and figures[1] <= wild_score[1] and figures[2] <= wild_score[2]:
            wild[:n] = mutant[:n]
            counters[WILD_LENGTH] = n
            wild_score[:] = figures


class Seen:
    """The seen set's arrays (``add_seen``): stored sequences, their lengths and hashes, and the table of their
    places (at most half full), grown and the table rebuilt before a call that could fill them."""

    def __init__(self, capacity: int = 4096) -> None:
        self.entries = np.zeros((capacity, MOST_TOKENS), np.int32)
        self.lengths = np.zeros(capacity, np.int64)
        self.hashes = np.zeros(capacity, np.int64)
        self.table = np.full(2 * capacity, EMPTY, np.int64)

    def make_room(self, count: int, more: int) -> None:
        """Room for ``more`` sequences beside the ``count`` stored."""
        capacity = len(self.lengths)
        if count + more <= capacity:
            return
        while capacity < count + more:
            capacity *= 2
        entries = np.zeros((capacity, MOST_TOKENS), np.int32)
        entries[:count] = self.entries[:count]
        self.entries = entries
        self.lengths = np.concatenate([self.lengths[:count], np.zeros(capacity - count, np.int64)])
        self.hashes = np.concatenate([self.hashes[:count], np.zeros(capacity - count, np.int64)])
        self.table = np.full(2 * capacity, EMPTY, np.int64)
        rehash(self.hashes, count, self.table)

    @property
    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return self.entries, self.lengths, self.hashes, self.table
