"""Golden playthroughs: a fixed seed gives a text dump of every state, checked in under tests/golden/hatris/.

Regenerate (after a deliberate rule change, then review the diff) with:
    HATRIS_REGEN_GOLDEN=1 .venv/bin/pytest tests/hatris/test_hatris_golden.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from puzzlebots.games.hatris.bots import RandomBot
from puzzlebots.games.hatris.config import Rules
from puzzlebots.games.hatris.engine import HatrisState
from puzzlebots.games.hatris.render import dump
from puzzlebots.games.hatris.searcher import Searcher

GOLDEN = Path(__file__).parent.parent / "golden" / "hatris"
#: the article's percentages (fixed here so that retraining the shipped weights leaves the goldens alone)
ARTICLE = [0.001, 0.00055, 1.78585, 0.06811, 88.31852, 0.00048, 0.06392, 9.76157]

CASES = {
    "searcher_nes_seed7": ("searcher", 7, {"max_spawns": 400}),
    "searcher_uniform_level25": ("searcher", 3, {"pair_source": "uniform", "start_level": 25, "max_spawns": 200}),
    "random_nes_carry_gravity": ("random", 11, {"prng_rotate": "carry_through", "down": "gravity"}),
}


def playthrough(bot_name: str, seed: int, config: dict) -> str:
    rules = Rules(config)
    state = HatrisState(seed, rules)
    bot = Searcher(rules, ARTICLE) if bot_name == "searcher" else RandomBot(seed)
    lines = [dump(state)]
    while not state.is_terminal():
        action = bot.act(state)
        lines.append("> " + " ".join(map(str, action)))
        state.apply(action)
        lines.append(dump(state))
    lines.append(f"result {sorted(state.result().items())}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name: str) -> None:
    text = playthrough(*CASES[name])
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("HATRIS_REGEN_GOLDEN"):
        path.write_text(text)
    assert path.read_text() == text
