"""A tiny game for testing the core without any real game, and the "add a game" walk-through of
docs/architecture.md: take a card's value or a fixed 5.

Twenty seeded cards with values 0-9; the ``threshold`` bot takes a card when w_take * value > w_skip * 5.
The best weights are about equal, so training has something to find.

Everything the tool offers for a game comes from this one module: the config schema, the state, two bots, and
the capabilities it implements (episodic play, a terminal view, a web view, a Gym adapter). Installed from
outside the package (``PUZZLEBOTS_GAMES=toygame:GAME``), it gets list, stats, watch, replay, train, playthroughs,
``puzzlebots/Cards-v0`` and a page on ``puzzlebots serve``.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any

import numpy as np
from rich.text import Text

from puzzlebots.core.arrays import draw_cells, numbered_mask
from puzzlebots.core.base import EpisodicBase
from puzzlebots.core.config import Schema, setting
from puzzlebots.core.errors import IllegalActionError, InputError
from puzzlebots.core.protocols import BotInfo, State


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


class CardsGame(EpisodicBase):
    name = "cards"
    title = "Cards"
    rules_version = "1"
    env_name = "Cards"
    fitness_label = "score"
    config_schema = CardsConfig

    def bots(self) -> list[BotInfo]:
        return [
            BotInfo("threshold", "take when w0*value > w1*5", ("take", "skip")),
            BotInfo("random", "coin flip", faithful=False),
        ]

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

    # -- capabilities ------------------------------------------------------------------------------
    def render(self, state: CardsState, bot: Any = None) -> Text:
        """Terminal view (``watch``, ``replay``, playthroughs)."""
        return Text(f"card {state.i}/{len(state.cards)} score {state.score}")

    def web_view(self, state: CardsState, bot: Any = None) -> dict[str, Any]:
        """Web view: the cards as one row of the page's generic grid, the next card marked."""
        return {
            "kind": "grid",
            "rows": 1,
            "cols": len(state.cards),
            "cells": [[v + 1 for v in state.cards]],
            "labels": {v + 1: str(v) for v in range(10)},
            "marks": [{"r": 0, "c": state.i}],
            "title": f"score {state.score}",
        }

    def web_folder(self) -> None:
        """No page files of its own: the generic grid draws it."""
        return None

    def env_adapter(self, config: Any) -> CardsAdapter:
        """Gym adapter (``puzzlebots/Cards-v0``): action 0 takes, 1 skips."""
        return CardsAdapter(config)


class CardsAdapter:
    n_actions = 2

    def __init__(self, config: Any) -> None:
        self.cards = config["cards"]

    def action_index(self, action: str) -> int:
        return ("take", "skip").index(action)

    def index_action(self, index: int, state: State) -> str:
        return ("take", "skip")[index]

    def legal_mask(self, state: CardsState) -> np.ndarray:
        return numbered_mask(state, self.n_actions, self.action_index)

    def observation_space(self) -> Any:
        from gymnasium import spaces

        return spaces.Dict(
            {
                "card": spaces.Box(0, 9, shape=(1,), dtype=np.int64),
                "left": spaces.Box(0, self.cards, shape=(1,), dtype=np.int64),
            }
        )

    def observe(self, state: CardsState) -> dict[str, np.ndarray]:
        card = state.cards[state.i] if not state.is_terminal() else 0
        return {"card": np.array([card]), "left": np.array([len(state.cards) - state.i])}

    def draw(self, state: CardsState) -> np.ndarray:
        return draw_cells(np.array([state.cards]), PALETTE)


#: one grey per card value, for ``draw``
PALETTE = np.array([[25 * v, 25 * v, 25 * v] for v in range(10)], dtype=np.uint8)


GAME = CardsGame()
