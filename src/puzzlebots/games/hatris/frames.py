"""The frame model: how many frames a decision takes, so the frame counter (and the PRNG) advance as in play.

A placement is played as button presses: swap (if needed), then one press per column from the spawn position
(columns 2-3) to the pair position, then Down. If the pair splits, the free hat gets one press per column and
Down again. Each press costs ``frames_per_press + frames_per_release`` frames (Q7, edge-triggered, no repeat).
While a hat moves it falls through the 8-bit accumulator (F23, speed per level Q5); with ``down = "gravity"``
Down is not used and the hat falls at that speed to its landing height; with ``"hard_drop"`` (Q6) Down lands
it in one press. Vanishes and helpers add their animation frames (Q22).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .rules import SPAWN_COLUMNS, SPAWN_Y, fall_speed

if TYPE_CHECKING:
    from .config import Rules


@dataclass(frozen=True)
class Route:
    """Buttons for one placement: pair position ``c`` (left hat's column), ``swap``, and the free hat's slide."""

    c: int
    swap: int
    free_from: int  # -1 when both hats land together
    free_to: int

    def presses(self) -> int:
        free = abs(self.free_to - self.free_from) if self.free_from >= 0 else 0
        return self.swap + abs(self.c - SPAWN_COLUMNS[0]) + free


def _fall(acc: int, speed: int, n: int) -> tuple[int, int]:
    """Pixels fallen and the new accumulator after ``n`` frames."""
    total = acc + speed * n
    return total >> 8, total & 0xFF


def _descend(y: int, target: int, acc: int, speed: int, rules: Rules) -> tuple[int, int]:
    """Frames to bring a hat from base ``y`` to ``target`` (Down press, or gravity), and the accumulator."""
    if rules.down == "hard_drop":
        return rules.press_frames, acc
    need = max(0, y - target) * 256 - acc
    n = max(0, -(-need // speed))
    return n, (acc + speed * n) & 0xFF


def placement_frames(route: Route, heights: Sequence[int], level: int, acc: int, rules: Rules) -> tuple[int, int]:
    """Frames from the pair's spawn to its last hat landing, and the accumulator afterwards."""
    speed = fall_speed(level, rules.speed_base, rules.speed_step)
    n = (route.swap + abs(route.c - SPAWN_COLUMNS[0])) * rules.press_frames
    fallen, acc = _fall(acc, speed, n)
    first = max(heights[route.c], heights[route.c + 1])
    drop, acc = _descend(SPAWN_Y - fallen, first, acc, speed, rules)
    n += drop
    if route.free_from >= 0:
        slide = abs(route.free_to - route.free_from) * rules.press_frames
        fallen, acc = _fall(acc, speed, slide)
        drop, acc = _descend(first - fallen, heights[route.free_to], acc, speed, rules)
        n += slide + drop
    return n, acc
