"""Golden playthroughs: a fixed seed and bot -> a checked-in text dump (regenerate with PUYO_REGOLDEN=1)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from puzzlebots.core.runner import play_episode
from puzzlebots.games.puyo.engine import SoloState
from puzzlebots.games.puyo.game import GAME

GOLDEN = Path(__file__).parents[1] / "golden" / "puyo"
CASES = {
    "krieg_seed1": ("krieg", 1, {}),
    "krieg3_seed2": ("krieg3", 2, {}),
    "beam_seed3": ("beam", 3, {"pairs": 16, "beam_width": 12, "beam_samples": 1}),
}


def dump(bot: str, seed: int, config: dict[str, Any]) -> str:
    lines = [f"# puyo golden: bot {bot}, seed {seed}, config {config}"]

    def step(state: Any, _bot: Any, action: Any) -> None:
        assert isinstance(state, SoloState)
        pair = state.sequence[state.index - 1]
        r = state.last
        lines.append(f"{state.index:3d} pair {pair} -> {action}  links {r.links} score {state.score}")
        if state.index % 10 == 0 or state.is_terminal():
            lines.extend("    " + row for row in state.field.rows())

    episode = play_episode(GAME, bot, seed, config, on_step=step)
    lines.append(f"result {dict(sorted(episode.result.items()))}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name: str) -> None:
    bot, seed, config = CASES[name]
    text = dump(bot, seed, config)
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("PUYO_REGOLDEN"):
        path.write_text(text)
    assert text == path.read_text()
