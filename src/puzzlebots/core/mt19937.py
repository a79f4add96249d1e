"""CPython's Mersenne Twister (``random.Random``) in numba, draw for draw, so a numba kernel can continue a Python
search's random stream and leave it exactly as the Python code would.

The state is an int64 array of 625 entries: the 624 words of ``random.Random().getstate()[1]`` and the position
(its last entry), as ``state(rng)`` builds it. Seeding stays in Python (``random.Random(seed)``). The draws are
CPython's ``genrand_uint32``, ``random()`` (53 bits from two words), ``getrandbits(k)`` for ``k <= 32`` and
``_randbelow(n)`` by rejection, which ``randrange(n)`` and ``choice`` use (Python 3.11).
"""

from __future__ import annotations

import random

import numpy as np
from numba import njit

WORDS, SHIFT = 624, 397
MATRIX_A, UPPER, LOWER, MASK = 0x9908B0DF, 0x80000000, 0x7FFFFFFF, 0xFFFFFFFF


def state(rng: random.Random) -> np.ndarray:
    """The generator's words and position as the kernels take them."""
    return np.array(rng.getstate()[1], np.int64)


@njit(cache=True)
def _twist(mt):
    for k in range(WORDS):
        y = (mt[k] & UPPER) | (mt[(k + 1) % WORDS] & LOWER)
        mt[k] = mt[(k + SHIFT) % WORDS] ^ (y >> 1) ^ (MATRIX_A if y & 1 else 0)
    mt[WORDS] = 0


@njit(cache=True)
def genrand_uint32(mt):
    """The next 32-bit word (twisting the 624 words when they are used up), tempered."""
    if mt[WORDS] >= WORDS:
        _twist(mt)
    y = mt[mt[WORDS]]
    mt[WORDS] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & MASK


@njit(cache=True)
def random_float(mt):
    """``random()``: a 53-bit float in [0, 1) from two words."""
    a = genrand_uint32(mt) >> 5
    b = genrand_uint32(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def getrandbits(mt, k):
    """``getrandbits(k)`` for ``0 <= k <= 32``: the top ``k`` bits of one word (no draw for 0)."""
    if k == 0:
        return 0
    return genrand_uint32(mt) >> (32 - k)


@njit(cache=True)
def randbelow(mt, n):
    """``_randbelow(n)`` for ``1 <= n < 2**32``: ``getrandbits(n.bit_length())`` until it is below ``n``."""
    k = 0
    while (n >> k) != 0:
        k += 1
    r = getrandbits(mt, k)
    while r >= n:
        r = getrandbits(mt, k)
    return r
