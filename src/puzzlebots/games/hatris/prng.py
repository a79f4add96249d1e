"""The NES Hatris pair PRNG, as the article's 6502 listing ($8CB2 seedRNG, $88D8 randomizeHats,
$889E pickHats, the re-pick-once rule of $8C60 initGame and $86CA spawnPair), plus the uniform source.

The generator reads only the low byte of the frame counter; the engine's frame model decides which byte.
"""

from __future__ import annotations

import hashlib
import random

from .rules import CROWN, DERBY, WIZARD, allowed_types

SEED_H1, SEED_H2 = 0x3F, 0x85


class NesPairs:
    """h1/h2 and (for ``rotate="carry_through"``) the 6502 carry flag.

    ``circular8`` (Q2 default) rotates each byte on itself, as the article's comments say. ``carry_through``
    rotates through the carry like a real ROR/ROL: the carry entering ``randomizeHats`` is 1 after an
    equality compare (a pickHats retry or the re-pick) and after the SBC loop at $86F0 that precedes the
    first pick of a spawn; at game init it is unknown and taken as 0.
    """

    def __init__(self, rotate: str = "circular8", retries_per_frame: int = 60) -> None:
        self.rotate = rotate
        self.retries_per_frame = retries_per_frame
        self.h1 = SEED_H1
        self.h2 = SEED_H2
        self.carry = 0

    def copy(self) -> NesPairs:
        other = NesPairs(self.rotate, self.retries_per_frame)
        other.h1, other.h2, other.carry = self.h1, self.h2, self.carry
        return other

    def randomize(self, fc: int, carry_in: int) -> tuple[int, int]:
        """$88D8: h1 = ROR(fc ^ h1), h2 = ROL(fc ^ h2); hat = h % 6 + 1."""
        fc &= 0xFF
        x = fc ^ self.h1
        if self.rotate == "circular8":
            self.h1 = (x >> 1) | ((x & 1) << 7)
            y = fc ^ self.h2
            self.h2 = ((y << 1) & 0xFF) | (y >> 7)
        else:
            self.h1 = (carry_in << 7) | (x >> 1)
            c = x & 1
            y = fc ^ self.h2
            self.h2 = ((y << 1) & 0xFF) | c
            self.carry = 0  # the mod-6 loops end with CLC; ADC #1, which leaves the carry clear
        return self.h1 % 6 + 1, self.h2 % 6 + 1

    def pick_hats(self, fc: int, level: int, carry_in: int) -> tuple[int, int, int]:
        """$889E: re-randomize until the pair obeys the shop-0 type restrictions.

        Returns the pair and the frames the loop took. At a fixed frame counter the (h1, h2) orbit can miss
        every allowed pair, so the loop relies on the NMI bumping the frame counter while it spins: every
        ``retries_per_frame`` rejected draws one frame passes (assumption ``prng_retries_per_frame``).
        """
        shop, stage = divmod(level, 10)
        retries = 0
        while True:
            a, b = self.randomize(fc + retries // self.retries_per_frame, carry_in)
            carry_in = 1  # every `continue` path leaves an equal CMP (carry set)
            retries += 1
            if shop != 0 or stage >= 6:
                break
            if CROWN in (a, b):
                continue
            if stage >= 3:
                break
            if WIZARD in (a, b):
                continue
            if stage != 0:
                break
            if DERBY in (a, b):
                continue
            break
        return a, b, (retries - 1) // self.retries_per_frame

    def next_pair(self, fc: int, level: int, at_init: bool) -> tuple[tuple[int, int], int]:
        """pickHats, then one re-pick if both hats match ($8C92 at init, $871D at each spawn).

        Returns the pair and the frames spent in the retry loops."""
        a, b, spent = self.pick_hats(fc, level, 0 if at_init else 1)
        if a == b:
            a, b, more = self.pick_hats(fc + spent, level, 1)
            spent += more
        return (a, b), spent

    def state(self) -> tuple[int, int, int]:
        return self.h1, self.h2, self.carry


class UniformPairs:
    """Independent uniform hats over the level's allowed types, no re-pick (the article's first simulator)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def copy(self) -> UniformPairs:
        other = UniformPairs(0)
        other.rng.setstate(self.rng.getstate())
        return other

    def next_pair(self, fc: int, level: int, at_init: bool) -> tuple[tuple[int, int], int]:
        types = allowed_types(level)
        return (self.rng.choice(types), self.rng.choice(types)), 0

    def state(self) -> tuple[int, int, int]:
        digest = hashlib.sha1(repr(self.rng.getstate()).encode()).hexdigest()
        return int(digest[:8], 16), 0, 0
