"""The planner bot: Shell lines, plans that replay, and its edge over greedy on fixed seeds."""

from __future__ import annotations

import pytest
from yc_helpers import state_with

from puzzlebots.core.runner import play_episode
from puzzlebots.games.yoshis_cookie.bots.planner import PlannerBot, cancel_cursor_moves, default_planner_weights
from puzzlebots.games.yoshis_cookie.game import GAME


def test_cancel_cursor_moves_keeps_rotations_and_the_end_cursor() -> None:
    assert cancel_cursor_moves("RLrdUDDuLR") == "rdDu"
    assert cancel_cursor_moves("RuL") == "RuL"


def test_planner_clears_the_shell_in_expert_stages() -> None:
    result = play_episode(GAME, "planner", 4, {"mode": "expert", "max_stages": 3}).result
    assert result["stages_cleared"] == 3 and result["shells_cleared"] == 3


def test_planner_plans_replay_to_their_predicted_clear() -> None:
    state = state_with(["HFDK", "KHFD", "DKHF", "HDFK"])
    bot = PlannerBot(state.config, default_planner_weights())
    state.apply(bot.act(state))
    assert state.counters.lines >= 1


def test_planner_beats_greedy_on_fixed_seeds_at_high_speed() -> None:
    config = {"speed": "high", "max_stages": 30}
    greedy = [play_episode(GAME, "greedy", s, config).result for s in range(3)]
    planner = [play_episode(GAME, "planner", s, config).result for s in range(3)]
    g, p = GAME.summarize(greedy), GAME.summarize(planner)
    assert p["stage_clear_rate"] >= g["stage_clear_rate"]
    assert p["mean_frames_per_stage"] < g["mean_frames_per_stage"]


def test_planner_weights_are_relative_as_the_trainer_normalises_them() -> None:
    cfg = GAME.check_config({})
    shipped = default_planner_weights()
    a = PlannerBot(cfg, shipped)
    b = PlannerBot(cfg, [100 * w / sum(shipped) for w in shipped])
    assert list(b.weights) == pytest.approx(list(a.weights))
    assert list(a.weights) == pytest.approx(shipped)
    assert GAME.default_weights("planner") == shipped and GAME.default_weights("greedy") is None
