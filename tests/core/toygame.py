"""A tiny game for testing the core without any real game: take a card's value or a fixed 5.

Twenty seeded cards with values 0-9; the ``threshold`` bot takes a card when w_take * value > w_skip * 5.
The best weights are about equal, so training has something to find.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any

from rich.text import Text

from puzzlebots.core.base import GameBase
from puzzlebots.core.config import Schema, setting
from puzzlebots.core.errors import IllegalActionError, InputError
from puzzlebots.core.protocols import BotInfo


class CardsState:
    def __init__(self, cards: list[int]) -> None:
        self.cards = cards
        self.i = 0
        self.score = 0

    def clone(self) -> CardsState:
        c = CardsState(list(self.cards))
        c.i, c.score = self.i, self.score
        return c

    def is_terminal(self) -> bool:
        return self.i >= len(self.cards)

    def legal_actions(self) -> list[str]:
        return [] if self.is_terminal() else ["take", "skip"]

    def apply(self, action: str) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"cards: illegal action {action!r}")
        self.score += self.cards[self.i] if action == "take" else 5
        self.i += 1

    def state_hash(self) -> str:
        return hashlib.sha1(f"{self.cards}|{self.i}|{self.score}".encode()).hexdigest()[:12]

    def result(self) -> dict[str, Any]:
        return {"score": self.score, "cards": self.i}


class Threshold:
    name = "threshold"

    def __init__(self, weights: list[float]) -> None:
        self.w = weights

    def act(self, state: CardsState) -> str:
        return "take" if self.w[0] * state.cards[state.i] > self.w[1] * 5 else "skip"


class RandomBot:
    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, state: CardsState) -> str:
        return self.rng.choice(state.legal_actions())


@dataclass(frozen=True)
class CardsConfig(Schema):
    """Each key once: default, help, domain, CLI flag, and whether (and how far) a web page may set it."""

    cards: int = setting(20, "Cards per game.", range=(1, 1000), flag="--cards", web=True, web_max=100)


class CardsGame(GameBase):
    name = "cards"
    title = "Cards"
    rules_version = "1"
    fitness_label = "score"
    config_schema = CardsConfig

    def bots(self) -> list[BotInfo]:
        return [BotInfo("threshold", "take when w0*value > w1*5", ("take", "skip")),
                BotInfo("random", "coin flip", faithful=False)]

    def new_state(self, seed: int, config: Any) -> CardsState:
        rng = random.Random(seed)
        return CardsState([rng.randrange(10) for _ in range(config["cards"])])

    def make_bot(self, name: str, config: Any, weights: Any, seed: int) -> Any:
        self.bot_info(name)
        self.check_weights(name, weights)
        if name == "random":
            return RandomBot(seed)
        return Threshold(list(weights) if weights is not None else [1.0, 1.0])

    def decode_action(self, data: Any) -> str:
        if data not in ("take", "skip"):
            raise InputError(f"cards: not an action: {data!r}")
        return str(data)

    def summarize(self, results: Any) -> dict[str, Any]:
        scores = [r["score"] for r in results]
        return {"mean_score": sum(scores) / len(scores), "games": len(scores)}

    def fitness(self, result: Any) -> float:
        return float(result["score"])

    def render(self, state: CardsState, bot: Any = None) -> Text:
        return Text(f"card {state.i}/{len(state.cards)} score {state.score}")


GAME = CardsGame()
