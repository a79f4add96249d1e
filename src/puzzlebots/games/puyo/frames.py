"""The frame counts of Tsu versus at 60 frames per second, each from a named public source.

Two sources give numbers; where they disagree the config key ``versus_frames`` picks one (docs/rules/puyo.md,
"The frame clock", lists every number with its source):

- ``nova``: morioprog/nova, which takes its numbers from measurements of the real game published at
  puyo-camp.jp/posts/71019: ``core/src/placement/basic_frame.rs`` (a placement, from control to the next
  pair's control), ``core/src/chain/frame.rs`` (a chain link by its largest fall), ``core/src/ojama.rs``
  (a garbage drop by landing cell and quantity; margin-time targets).
- ``puyoai``: puyoai/puyoai ``src/core/frame.h`` (the ``USE_FPS_60`` values), whose chain frames its
  ``core_field_test.cc`` spells out (vanish, then a fast drop and a grounding when anything falls).

Margin time follows the reference (F17) by default; ``margin_targets = nova`` uses nova's table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .names import FRAME_SOURCES as FRAME_SOURCES  # re-exported: the sources this module tabulates
from .names import MARGIN_SOURCES as MARGIN_SOURCES
from .rules import CHILD_DX, TARGET_POINTS, WIDTH

FPS = 60  # puyoai USE_FPS_60; nova ojama.rs FPS

# -- nova (puyo-camp measurements) --------------------------------------------------------------------
#: frames to move the pair from column 3 to the axis column x (index x = 1..6)
NOVA_MOVE = (6, 4, 2, 0, 2, 4, 6)
#: frames to bring the pair down with the down key to axis row y: 52 - 2y (nova tabulates y = 0..15)
NOVA_DROP_BASE, NOVA_DROP_PER_ROW = 52, 2
#: frames a split pair (chigiri) takes, by the height difference of its two columns
NOVA_SPLIT = (0, 19, 24, 28, 31, 34, 37, 40, 42, 44, 46, 48, 50, 52, 54, 56)
#: frames of one chain link by the largest fall after its pop (0 = nothing falls)
NOVA_LINK = (55, 80, 82, 84, 86, 88, 90, 92, 94, 96, 98, 100, 102)
#: garbage: frames by the landing cell of a column's lowest garbage puyo, [row 1..14][column 1..6]
NOVA_GARBAGE_CELL = (
    (60, 59, 64, 56, 62, 58),
    (58, 57, 62, 54, 60, 56),
    (56, 55, 60, 52, 58, 54),
    (54, 53, 57, 50, 56, 52),
    (52, 51, 55, 48, 53, 49),
    (50, 48, 53, 46, 51, 47),
    (47, 46, 50, 44, 49, 45),
    (45, 44, 47, 42, 46, 42),
    (42, 41, 44, 39, 43, 40),
    (39, 38, 41, 36, 40, 37),
    (36, 35, 38, 33, 37, 34),
    (32, 31, 34, 30, 33, 30),
    (28, 27, 29, 26, 28, 26),
    (22, 21, 23, 20, 22, 21),
)
#: garbage: frames added by the quantity dropped (index 0..30)
NOVA_GARBAGE_COUNT = (
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    1,
    5,
    6,
    8,
    9,
    11,
    12,
    13,
    14,
    15,
    16,
    18,
    19,
    20,
    21,
    21,
    22,
    23,
    24,
    24,
    25,
    25,
)
#: nova's margin-time targets from 96 s, one per 16 s step (ojama_rate)
NOVA_MARGIN = (52, 34, 25, 16, 12, 8, 6, 4, 3, 2, 1)

# -- puyoai (src/core/frame.h, 60 fps) --------------------------------------------------------------
PAI_NEXT = 12  # FRAMES_PREPARING_NEXT: the next pair comes in
PAI_GROUNDING = 20  # FRAMES_GROUNDING
PAI_VANISH = 50  # FRAMES_VANISH_ANIMATION
PAI_QUICK_TURN = 20  # FRAMES_QUICKTURN
PAI_MOVE = (0, 4, 6, 8, 10, 12)  # FRAMES_TO_MOVE_HORIZONTALLY by columns moved
PAI_DROP = (0, 10, 16, 22, 24, 28, 32, 34, 36, 40, 42, 44, 46, 48, 50, 52)  # FRAMES_TO_DROP (split, garbage)
PAI_DROP_FAST_PER_ROW = 2  # FRAMES_TO_DROP_FAST: down held, or falling after a pop


def pai_garbage_grounding(n: int) -> int:
    """puyoai ``framesGroundingOjama`` (60 fps): 0, 8 (1-3), 24 (4-18), 32 (19+)."""
    return 0 if n <= 0 else 8 if n <= 3 else 24 if n <= 18 else 32


# -- margin time (reference F17) --------------------------------------------------------------------
MARGIN_START_SECONDS = 96
MARGIN_STEP_SECONDS = 16


def reference_margin_targets() -> tuple[int, ...]:
    """F17: at 96 s the target falls to 70 x 0.75; every 16 s after, to half the target in force before the
    previous reduction; floored, never below 1: 52, 35, 26, 17, 13, 8, 6, 4, 3, 2, 1, ..."""
    exact = [float(TARGET_POINTS), TARGET_POINTS * 0.75]
    while len(exact) < 13:
        exact.append(exact[-2] / 2)
    return tuple(max(1, int(v)) for v in exact[1:13])


REFERENCE_MARGIN = reference_margin_targets()


def target_points(frame: int, source: str = "reference") -> int:
    """The target points in force at ``frame`` (frames since the game began)."""
    if frame < MARGIN_START_SECONDS * FPS:
        return TARGET_POINTS
    table = REFERENCE_MARGIN if source == "reference" else NOVA_MARGIN
    step = (frame - MARGIN_START_SECONDS * FPS) // (MARGIN_STEP_SECONDS * FPS)
    return table[min(step, len(table) - 1)]


# -- placements, links, garbage -------------------------------------------------------------------
def needs_quick_turn(heights: Any, x: int, r: int) -> bool:
    """Whether reaching rotation 2 in column ``x`` (0-based) needs a quick turn: both sides of the pair at the
    spawn rows are a wall or a column reaching row 12 (reference F9)."""
    if r != 2:
        return False
    return all(not 0 <= c < WIDTH or heights[c] >= 12 for c in (x - 1, x + 1))


def placement_frames(heights: Any, x: int, r: int, source: str = "nova") -> int:
    """Frames from a pair's control to the next pair's control for a placement without a chain: move, rotate
    (a quick turn when boxed in), drop with the down key, split, ground, the next pair coming in. ``heights``
    are the 6 column heights before the drop; ``x`` is 0-based, ``r`` the rotation."""
    cx = x + CHILD_DX[r]
    ha, hc = int(heights[x]), int(heights[cx])
    turn = PAI_QUICK_TURN if needs_quick_turn(heights, x, r) else 0
    if r == 0:
        axis_row = ha + 1
    elif r == 2:
        axis_row = ha + 2
    else:
        axis_row = max(ha, hc) + 1
    split = abs(ha - hc)
    if source == "nova":
        drop = NOVA_DROP_BASE - NOVA_DROP_PER_ROW * min(axis_row, 15)
        return NOVA_MOVE[x + 1] + drop + NOVA_SPLIT[min(split, 15)] + turn
    rows = max(0, 12 - axis_row)  # from row 12, where the axis spawns
    return (
        PAI_NEXT + PAI_MOVE[abs(x - 2)] + PAI_DROP_FAST_PER_ROW * rows + PAI_DROP[min(split, 15)] + PAI_GROUNDING + turn
    )


def link_frames(max_fall: int, source: str = "nova") -> int:
    """Frames of one chain link whose pop lets puyos fall at most ``max_fall`` rows (pop and fall)."""
    if source == "nova":
        return NOVA_LINK[min(max_fall, len(NOVA_LINK) - 1)]
    return PAI_VANISH + (PAI_DROP_FAST_PER_ROW * max_fall + PAI_GROUNDING if max_fall else 0)


def garbage_frames(heights: Any, per_column: Sequence[int], source: str = "nova") -> int:
    """Frames a garbage drop takes: ``per_column`` puyos onto columns of ``heights`` (before the drop)."""
    n = int(sum(per_column))
    if n == 0:
        return 0
    landing = [int(h) + 1 for h, k in zip(heights, per_column, strict=True) if k]
    if source == "nova":
        by_cell = max(
            NOVA_GARBAGE_CELL[min(int(h), 13)][c] for c, (h, k) in enumerate(zip(heights, per_column, strict=True)) if k
        )
        return by_cell + NOVA_GARBAGE_COUNT[min(n, 30)]
    fall = max(0, 14 - min(landing))  # from row 14 down to the lowest landing row
    return PAI_DROP[min(fall, 15)] + pai_garbage_grounding(n)
