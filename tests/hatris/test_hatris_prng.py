"""The NES pair PRNG against tables worked out by hand from the article's 6502 listing.

Worked example for the first pair of table A (frame counter 0, all six types allowed):
  h1 = ROR8(0x00 ^ 0x3F) = ROR8(0b0011_1111) = 0b1001_1111 = 159 -> 159 % 6 = 3 -> hat 4 (cap)
  h2 = ROL8(0x00 ^ 0x85) = ROL8(0b1000_0101) = 0b0000_1011 = 11  -> 11 % 6 = 5  -> hat 6 (cowboy)
The other rows continue the same arithmetic with the pickHats restriction loop and the re-pick-once rule.
"""

from __future__ import annotations

from puzzlebots.games.hatris.prng import NesPairs, UniformPairs

# Table A: frame counter 0..19, level 10 (shop 1: no restriction)
FC_A = list(range(20))
PAIRS_A = [
    (4, 6),
    (2, 3),
    (5, 3),
    (1, 5),
    (6, 1),
    (2, 4),
    (3, 5),
    (4, 6),
    (6, 4),
    (4, 3),
    (6, 5),
    (1, 2),
    (2, 3),
    (2, 6),
    (5, 3),
    (1, 3),
    (1, 6),
    (1, 2),
    (1, 5),
    (1, 3),
]
# Table B: frame counter (37 i + 11) mod 256, level 3 (no crowns)
FC_B = [11, 48, 85, 122, 159, 196, 233, 14, 51, 88, 125, 162, 199, 236, 17, 54, 91, 128, 165, 202]
PAIRS_B = [
    (2, 1),
    (5, 4),
    (2, 4),
    (6, 2),
    (4, 6),
    (2, 5),
    (2, 5),
    (4, 6),
    (1, 2),
    (2, 4),
    (6, 5),
    (5, 2),
    (2, 1),
    (4, 6),
    (4, 1),
    (2, 4),
    (6, 2),
    (6, 4),
    (6, 1),
    (5, 6),
]
# Table C: frame counter (5 i^2 + 3) mod 256, level 0 (tops, caps and cowboys only)
FC_C = [3, 8, 23, 48, 83, 128, 183, 248, 67, 152, 247, 96, 211, 80, 215, 104, 3, 168, 87, 16]
PAIRS_C = [
    (4, 6),
    (1, 6),
    (1, 6),
    (1, 6),
    (6, 1),
    (4, 1),
    (1, 6),
    (1, 6),
    (6, 4),
    (4, 6),
    (6, 1),
    (6, 1),
    (4, 1),
    (6, 1),
    (4, 4),
    (1, 1),
    (6, 4),
    (6, 6),
    (6, 4),
    (6, 1),
]


def _pairs(fcs: list[int], level: int) -> list[tuple[int, int]]:
    prng = NesPairs("circular8", retries_per_frame=10_000)
    out = []
    for i, fc in enumerate(fcs):
        pair, spent = prng.next_pair(fc, level, at_init=(i == 0))
        assert spent == 0
        out.append(pair)
    return out


def test_seed_bytes() -> None:
    prng = NesPairs()
    assert (prng.h1, prng.h2) == (0x3F, 0x85)


def test_table_a_unrestricted() -> None:
    assert _pairs(FC_A, 10) == PAIRS_A


def test_table_b_no_crowns() -> None:
    assert _pairs(FC_B, 3) == PAIRS_B
    assert all(3 not in p for p in PAIRS_B)


def test_table_c_level0_types_and_repick() -> None:
    pairs = _pairs(FC_C, 0)
    assert pairs == PAIRS_C
    assert all(set(p) <= {1, 4, 6} for p in pairs)
    # the re-pick happens once only, so matching pairs still occur (rows 15-16, 18)
    assert (4, 4) in pairs and (1, 1) in pairs


def test_carry_through_first_pair_by_hand() -> None:
    # carry 0 at init: h1 = 0 << 7 | 0x3F >> 1 = 31 -> hat 2; carry out 1: h2 = 0x0A | 1 = 11 -> hat 6
    prng = NesPairs("carry_through", retries_per_frame=10_000)
    assert prng.next_pair(0, 10, at_init=True) == ((2, 6), 0)
    assert (prng.h1, prng.h2) == (31, 11)


def test_nmi_breaks_a_fixed_frame_orbit() -> None:
    # at fc = 0 the bytes only rotate: h1 = 1 cycles through 1, 128, 64, ... (h1 % 6 + 1 never in {1, 4, 6}
    # together with h2's orbit), so pickHats at level 0 would spin forever without the NMI advancing fc
    prng = NesPairs("circular8", retries_per_frame=60)
    prng.h1 = 1
    a, b, spent = prng.pick_hats(0, 0, 0)
    assert {a, b} <= {1, 4, 6}
    assert spent >= 1


def test_uniform_source_is_seeded() -> None:
    a, b = UniformPairs(5), UniformPairs(5)
    assert [a.next_pair(0, 7, False) for _ in range(30)] == [b.next_pair(0, 7, False) for _ in range(30)]
    assert all(set(UniformPairs(9).next_pair(0, 0, False)[0]) <= {1, 4, 6} for _ in range(20))
