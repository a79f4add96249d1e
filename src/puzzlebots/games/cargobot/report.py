"""What every run reports, in either semantics."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class RunReport:
    semantics: str  # "vaguery" or "game"
    outcome: str
    steps: int  # tokens popped (vaguery) or ticks (game)
    moves: int
    crashes: int
    topples: int
    stacks: list[list[str]]
    claw: int  # 1-based
    holding: str | None

    @property
    def solved(self) -> bool:
        return self.outcome == "solved"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
