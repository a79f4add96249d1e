"""A game whose one bot never finishes a decision, for the server tests: a request that runs until it is
stopped, on any machine (a real bot's slowness depends on the machine and on numba's cache). Its one page call,
``ponder``, reports its progress once and then works forever, deaf to a stop.

The web tests' server processes load it through ``PUZZLEBOTS_GAMES=slowgame:GAME``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rich.text import Text

from puzzlebots.core.base import EpisodicBase
from puzzlebots.core.protocols import BotInfo


class EndlessState:
    def __init__(self) -> None:
        self.moves = 0

    def clone(self) -> EndlessState:
        twin = EndlessState()
        twin.moves = self.moves
        return twin

    def is_terminal(self) -> bool:
        return False

    def legal_actions(self) -> list[str]:
        return ["move"]

    def apply(self, action: str) -> None:
        self.moves += 1

    def state_hash(self) -> str:
        return str(self.moves)

    def result(self) -> dict[str, Any]:
        return {"moves": self.moves}


class Ponder:
    """Thinks forever, on the CPU, like a search that is far too deep."""

    def act(self, state: EndlessState) -> str:
        n = 0
        while n >= 0:
            n += 1
        return "move"


class DeafCall:
    """Page controls whose call reports once, then thinks forever without ever asking whether it should stop."""

    def __init__(self) -> None:
        self.report: Callable[[dict[str, Any]], None] = lambda update: None

    def web_reporting(self, report: Callable[[dict[str, Any]], None], stopped: Callable[[], bool]) -> None:
        self.report = report

    def handle(self, op: str, msg: Mapping[str, Any]) -> dict[str, Any]:
        self.report({"thinking": "forever"})
        return {"move": Ponder().act(EndlessState())}


class SlowGame(EpisodicBase):
    name = "slow"
    title = "Slow"
    rules_version = "1"

    def bots(self) -> list[BotInfo]:
        return [BotInfo("ponder", "never finishes a decision", faithful=False)]

    def new_state(self, seed: int, config: Any) -> EndlessState:
        return EndlessState()

    def make_bot(self, name: str, config: Any, weights: Any, seed: int) -> Ponder:
        self.bot_info(name)
        return Ponder()

    def summarize(self, results: Any) -> dict[str, Any]:
        return {"games": len(results)}

    def fitness(self, result: Any) -> float:
        return float(result["moves"])

    def render(self, state: EndlessState, bot: Any = None) -> Text:
        return Text(f"{state.moves} moves")

    def web_ops(self) -> list[str]:
        return ["ponder"]

    def web_session(self) -> DeafCall:
        return DeafCall()


GAME = SlowGame()
