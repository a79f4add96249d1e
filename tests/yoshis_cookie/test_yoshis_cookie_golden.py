"""Golden playthroughs: a fixed seed and bot give exactly the checked-in text dump.

Regenerate after an intended rules change with ``YC_UPDATE_GOLDEN=1 pytest tests/yoshis_cookie``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from puzzlebots.games.yoshis_cookie.game import GAME

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "yoshis_cookie"
CASES = [
    ("greedy", 1, {"max_stages": 3, "speed": "high"}),
    ("planner", 2, {"max_stages": 3, "speed": "high"}),
    ("greedy", 3, {"mode": "expert", "max_stages": 1, "speed": "low"}),
]


def playthrough(bot_name: str, seed: int, config: dict) -> str:
    cfg = GAME.check_config(config)
    state = GAME.new_state(seed, cfg)
    bot = GAME.make_bot(bot_name, cfg, None, 0)
    lines = [f"# yoshis_cookie {bot_name} seed {seed} {config}"]
    shown = None
    while not state.is_terminal():
        if shown != (state.round, state.stage, state.counters.continues):
            shown = (state.round, state.stage, state.counters.continues)
            lines.append(f"== round {state.round} stage {state.stage} continues {state.counters.continues}: "
                         + "/".join(state.rows_text()))
        before = (state.frame, state.R, state.C, state.cursor)
        plan = bot.act(state)
        state.apply(plan)
        lines.append(f"f{before[0]} {before[1]}x{before[2]} @{before[3][0]},{before[3][1]} {plan} -> "
                     f"{'/'.join(state.rows_text()) or 'empty'} score {state.counters.score}")
    lines.append(f"result {sorted(state.result().items())}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("bot", "seed", "config"), CASES)
def test_golden_playthrough(bot: str, seed: int, config: dict) -> None:
    path = GOLDEN / f"{bot}_seed{seed}.txt"
    text = playthrough(bot, seed, config)
    if os.environ.get("YC_UPDATE_GOLDEN"):
        path.write_text(text)
    assert text == path.read_text()
