"""A game for the stop tests: seeds below ``QUICK_SEEDS`` end after one decision, every other seed's bot naps
forever. A run of both kinds reaches a known point (the quick games saved, every worker busy) on any machine,
where a signal then finds workers that would never finish by themselves.

A worker that starts an endless game writes ``busy-<seed>`` into the folder ``$NAP_MARKS`` (if set), so a test
waits on that instead of on the clock. Loaded through ``PUZZLEBOTS_GAMES=napgame:GAME``.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from rich.text import Text

from puzzlebots.core.base import EpisodicBase
from puzzlebots.core.protocols import BotInfo

#: seeds 0..QUICK_SEEDS-1 are played in one decision; the others never end
QUICK_SEEDS = 4


class NapState:
    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.moves = 0

    def clone(self) -> NapState:
        twin = NapState(self.seed)
        twin.moves = self.moves
        return twin

    def is_terminal(self) -> bool:
        return self.seed < QUICK_SEEDS and self.moves >= 1

    def legal_actions(self) -> list[str]:
        return [] if self.is_terminal() else ["move"]

    def apply(self, action: str) -> None:
        self.moves += 1

    def state_hash(self) -> str:
        return f"{self.seed}:{self.moves}"

    def result(self) -> dict[str, Any]:
        return {"moves": self.moves}


class Napper:
    """Answers at once in a quick game; in any other, marks itself busy and sleeps until it is killed."""

    def act(self, state: NapState) -> str:
        if state.seed >= QUICK_SEEDS:
            marks = os.environ.get("NAP_MARKS")
            if marks:
                (Path(marks) / f"busy-{state.seed}").write_text(str(os.getpid()))
            while True:
                time.sleep(0.05)
        return "move"


class NapGame(EpisodicBase):
    name = "nap"
    title = "Nap"
    rules_version = "1"

    def bots(self) -> list[BotInfo]:
        return [BotInfo("napper", "quick below seed 4, endless from there", ("a", "b"), faithful=False)]

    def new_state(self, seed: int, config: Any) -> NapState:
        return NapState(seed)

    def make_bot(self, name: str, config: Any, weights: Any, seed: int) -> Napper:
        self.bot_info(name)
        return Napper()

    def summarize(self, results: Any) -> dict[str, Any]:
        return {"games": len(results)}

    def fitness(self, result: Any) -> float:
        return float(result["moves"])

    def render(self, state: NapState, bot: Any = None) -> Text:
        return Text(f"{state.moves} moves")


GAME = NapGame()
