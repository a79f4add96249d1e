"""Every registered env passes Gymnasium's checker, and a random agent that respects the action mask plays
1,000 steps in each (resetting when a game ends) with observations always inside the observation space."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import puzzlebots.envs
from puzzlebots.core.errors import ConfigError
from puzzlebots.envs.base import PuzzleEnv

ENV_IDS = sorted(puzzlebots.envs.ENVS)
#: short games so that the random agent also goes through resets
SHORT = {
    "puzzlebots/Puyo-v0": {"pairs": 30},
    "puzzlebots/Hatris-v0": {"max_spawns": 150},
    "puzzlebots/YoshisCookie-v0": {"max_stages": 2},
}


def test_all_three_games_are_registered() -> None:
    assert ENV_IDS == ["puzzlebots/Hatris-v0", "puzzlebots/Puyo-v0", "puzzlebots/YoshisCookie-v0"]


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("render_mode", ["ansi", "rgb_array"])
def test_check_env_passes(env_id: str, render_mode: str) -> None:
    env = gym.make(env_id, render_mode=render_mode)
    check_env(env.unwrapped, skip_render_check=False)
    env.reset(seed=3)
    frame = env.render()
    if render_mode == "ansi":
        assert isinstance(frame, str) and frame.strip()
    else:
        assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3 and frame.std() > 0
    env.close()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_random_masked_agent_plays_1000_steps(env_id: str) -> None:
    env = gym.make(env_id, config=SHORT.get(env_id))
    rng = np.random.default_rng(7)
    obs, info = env.reset(seed=11)
    episodes, total_reward = 1, 0.0
    for _ in range(1000):
        mask = info["action_mask"]
        assert mask.any(), "a live game must offer a legal action"
        assert env.observation_space.contains(obs)
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, reward, terminated, truncated, info = env.step(action)
        assert not info.get("illegal_action")
        total_reward += float(reward)
        if terminated or truncated:
            obs, info = env.reset()
            episodes += 1
    assert episodes >= 2
    assert np.isfinite(total_reward)
    env.close()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_masked_out_action_is_penalised_and_changes_nothing(env_id: str) -> None:
    env = gym.make(env_id)
    obs, info = env.reset(seed=5)
    forbidden = np.flatnonzero(info["action_mask"] == 0)
    assert forbidden.size, "some action must be masked out at the start"
    after, reward, terminated, truncated, info2 = env.step(int(forbidden[0]))
    assert reward == -1.0 and info2["illegal_action"] and not terminated
    for key in obs:
        assert np.array_equal(obs[key], after[key])
    assert np.array_equal(env.unwrapped.action_masks(), info["action_mask"])


def test_same_seed_same_game() -> None:
    a, b = gym.make("puzzlebots/Puyo-v0"), gym.make("puzzlebots/Puyo-v0")
    oa, ia = a.reset(seed=42)
    ob, ib = b.reset(seed=42)
    rng = np.random.default_rng(0)
    for _ in range(20):
        assert np.array_equal(ia["action_mask"], ib["action_mask"])
        action = int(rng.choice(np.flatnonzero(ia["action_mask"])))
        oa, ra, done, *_, ia = a.step(action)
        ob, rb, *_, ib = b.step(action)
        assert ra == rb and all(np.array_equal(oa[k], ob[k]) for k in oa)
        if done:
            break


def test_bad_config_and_render_mode_are_config_errors() -> None:
    with pytest.raises(ConfigError):
        gym.make("puzzlebots/Puyo-v0", config={"no_such_key": 1})
    with pytest.raises(ConfigError):
        PuzzleEnv("puyo", render_mode="human")


def test_make_without_importing_first() -> None:
    env = gym.make("puzzlebots.envs:puzzlebots/Puyo-v0")
    assert env.spec is not None and env.spec.id == "puzzlebots/Puyo-v0"
    env.close()
