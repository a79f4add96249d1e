"""``gym.make(id, render_mode="human")`` is refused in one ``ConfigError`` naming the modes
there are, as docs/envs.md says, instead of a pygame window wrapper that fails later in ``reset``."""

from __future__ import annotations

import gymnasium as gym
import pytest

import puzzlebots.envs  # noqa: F401 - registers the envs
from puzzlebots.core.errors import ConfigError
from puzzlebots.envs import ENVS


@pytest.mark.parametrize("env_id", ENVS)
@pytest.mark.parametrize("mode", ["human", "rgb_array_list", "ansi_list", "ascii"])
def test_a_render_mode_the_env_does_not_draw_is_one_config_error(env_id: str, mode: str) -> None:
    with pytest.raises(ConfigError) as caught:
        gym.make(env_id, render_mode=mode)
    message = str(caught.value)
    assert "\n" not in message and repr(mode) in message
    assert "'ansi'" in message and "'rgb_array'" in message


@pytest.mark.parametrize("env_id", ENVS)
@pytest.mark.parametrize("mode", [None, "ansi", "rgb_array"])
def test_the_render_modes_there_are_still_make_an_env(env_id: str, mode: str | None) -> None:
    env = gym.make(env_id, render_mode=mode)
    assert env.unwrapped.render_mode == mode and env.metadata["render_modes"] == ["ansi", "rgb_array"]
    env.close()
