"""Hostile input to the envs: every action, reset option and constructor argument that is not
what the spaces and docs/envs.md promise raises InputError / ConfigError naming the space or the argument,
before the game sees it; a game that has ended raises ResetNeeded until reset."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import puzzlebots.envs
from puzzlebots.core.errors import ConfigError, InputError
from puzzlebots.core.seeds import MAX_SEED

ENV_IDS = sorted(puzzlebots.envs.ENVS)
#: configs under which a random masked agent ends a game within a few dozen steps
SHORT = {
    "puzzlebots/Puyo-v0": {"pairs": 30},
    "puzzlebots/Hatris-v0": {"max_spawns": 150},
    "puzzlebots/YoshisCookie-v0": {"max_stages": 1},
}
NAN = float("nan")


def live_env(env_id: str) -> tuple[gym.Env[Any, Any], dict[str, Any], dict[str, Any]]:
    env = gym.make(env_id, config=SHORT[env_id], render_mode="ansi")
    obs, info = env.reset(seed=4)
    return env, obs, info


def legal_action(info: dict[str, Any]) -> int:
    return int(np.flatnonzero(info["action_mask"])[0])


def same_obs(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def one_line(exc: BaseException) -> str:
    text = str(exc)
    assert text and "\n" not in text
    return text


# -- actions --------------------------------------------------------------------------------------------------
BAD_ACTIONS = {
    "array of shape (1,)": lambda legal: np.array([legal]),
    "None": lambda legal: None,
    "string": lambda legal: "abc",
    "digit string": lambda legal: str(legal),
    "nan": lambda legal: NAN,
    "float 3.7": lambda legal: 3.7,
    "whole float": lambda legal: float(legal),
    "numpy float": lambda legal: np.float64(legal),
    "True": lambda legal: True,
    "numpy True": lambda legal: np.bool_(True),
    "negative": lambda legal: -1,
    "past the end": lambda legal: 10**6,
    "2-d array": lambda legal: np.full((1, 1), legal),
    "0-d float array": lambda legal: np.array(float(legal)),
    "list": lambda legal: [legal],
    "dict": lambda legal: {"action": legal},
}


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("case", sorted(BAD_ACTIONS))
def test_a_bad_action_raises_input_error_naming_the_space_and_changes_nothing(env_id: str, case: str) -> None:
    env, obs, info = live_env(env_id)
    action = BAD_ACTIONS[case](legal_action(info))
    with pytest.raises(InputError) as caught:
        env.step(action)
    assert str(env.action_space) in one_line(caught.value)
    # the game did not move: the next legal step plays as on a twin env that never saw the bad action
    twin, twin_obs, twin_info = live_env(env_id)
    assert same_obs(obs, twin_obs)
    after, reward, *_ = env.step(legal_action(info))
    twin_after, twin_reward, *_ = twin.step(legal_action(twin_info))
    assert same_obs(after, twin_after) and reward == twin_reward
    env.close()
    twin.close()


INTEGER_FORMS = {
    "int": int,
    "numpy int64": np.int64,
    "numpy uint16": np.uint16,
    "0-d int array": np.array,
}


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("form", sorted(INTEGER_FORMS))
def test_every_integer_form_in_the_space_plays_like_the_int(env_id: str, form: str) -> None:
    env, _, info = live_env(env_id)
    twin, _, twin_info = live_env(env_id)
    action = legal_action(info)
    obs, reward, terminated, truncated, info = env.step(INTEGER_FORMS[form](action))
    twin_obs, twin_reward, *_ = twin.step(action)
    assert same_obs(obs, twin_obs) and reward == twin_reward and "illegal_action" not in info
    env.close()
    twin.close()


# -- after the end ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_step_after_the_game_ended_raises_reset_needed_until_reset(env_id: str) -> None:
    env, obs, info = live_env(env_id)
    rng = np.random.default_rng(0)
    terminated = False
    for _ in range(1000):
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated:
            break
    assert terminated and not info["action_mask"].any()
    for action in (0, int(env.action_space.n) - 1, "junk"):
        with pytest.raises(gym.error.ResetNeeded) as caught:
            env.step(action)
        assert "reset()" in one_line(caught.value)
    assert env.render().strip()  # the final position is still there to look at
    obs, info = env.reset()
    assert env.observation_space.contains(obs) and info["action_mask"].any()
    env.step(legal_action(info))
    env.close()


# -- reset options ---------------------------------------------------------------------------------------------
BAD_OPTIONS: dict[str, tuple[Any, str]] = {
    "game_seed a string": ({"game_seed": "abc"}, "game_seed"),
    "a list": ([1, 2], "reset options"),
    "a string": ("game_seed", "reset options"),
    "game_seed negative": ({"game_seed": -1}, "game_seed"),
    "game_seed a float": ({"game_seed": 1.5}, "game_seed"),
    "game_seed a whole float": ({"game_seed": 7.0}, "game_seed"),
    "game_seed True": ({"game_seed": True}, "game_seed"),
    "game_seed an array": ({"game_seed": np.array([3])}, "game_seed"),
    "an unknown key": ({"seed": 3}, "'seed'"),
    "a known and an unknown key": ({"game_seed": 3, "pairs": 5}, "'pairs'"),
}


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("case", sorted(BAD_OPTIONS))
def test_bad_reset_options_raise_config_error_naming_the_option(env_id: str, case: str) -> None:
    env, obs, info = live_env(env_id)
    options, named = BAD_OPTIONS[case]
    with pytest.raises(ConfigError) as caught:
        env.reset(options=options)
    assert named in one_line(caught.value)
    # the running game is untouched
    assert same_obs(env.unwrapped.adapter.observe(env.unwrapped.state), obs)
    env.close()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_game_seed_as_int_numpy_or_none(env_id: str) -> None:
    env = gym.make(env_id, config=SHORT[env_id])
    obs, info = env.reset(options={"game_seed": 1234})
    assert info["game_seed"] == 1234
    obs2, info2 = env.reset(options={"game_seed": np.uint32(1234)})
    assert info2["game_seed"] == 1234 and same_obs(obs, obs2)
    _, drawn = env.reset(seed=9, options={"game_seed": None})
    _, drawn_again = env.reset(seed=9, options={})
    assert drawn["game_seed"] == drawn_again["game_seed"]
    env.close()


# -- constructor arguments -------------------------------------------------------------------------------------
BAD_KWARGS: dict[str, tuple[dict[str, Any], str]] = {
    "illegal_penalty a string": ({"illegal_penalty": "x"}, "illegal_penalty"),
    "illegal_penalty nan": ({"illegal_penalty": NAN}, "illegal_penalty"),
    "illegal_penalty -inf": ({"illegal_penalty": -float("inf")}, "illegal_penalty"),
    "illegal_penalty positive": ({"illegal_penalty": 1.0}, "illegal_penalty"),
    "illegal_penalty False": ({"illegal_penalty": False}, "illegal_penalty"),
    "illegal_penalty None": ({"illegal_penalty": None}, "illegal_penalty"),
    "config a string": ({"config": "abc"}, "config"),
    "config a number": ({"config": 5}, "config"),
    "config a list of pairs": ({"config": [("pairs", 5)]}, "config"),
    "render_mode unknown": ({"render_mode": "ascii"}, "render_mode"),
}


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("case", sorted(BAD_KWARGS))
def test_bad_constructor_arguments_raise_config_error_naming_the_argument(env_id: str, case: str) -> None:
    kwargs, named = BAD_KWARGS[case]
    with pytest.raises(ConfigError) as caught:
        gym.make(env_id, **kwargs)
    assert named in one_line(caught.value)


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("penalty", [0, -0.5, np.float32(-2.0)])
def test_a_finite_non_positive_illegal_penalty_is_what_a_masked_out_action_gives(env_id: str, penalty: Any) -> None:
    env = gym.make(env_id, illegal_penalty=penalty)
    _, info = env.reset(seed=5)
    forbidden = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(forbidden)
    assert reward == float(penalty) and info["illegal_action"] and not terminated
    env.close()


# -- vector envs -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_vector_env_plays_through_episode_ends_and_refuses_an_action_outside_the_space(
    env_id: str, mode: str
) -> None:
    envs = gym.make_vec(env_id, num_envs=2, vectorization_mode=mode, config=SHORT[env_id])
    _, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(200):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
        _, _, terminated, _, info = envs.step(actions)
        ended += int(terminated.sum())
    assert ended >= 2  # autoreset resets an ended env instead of stepping it
    envs.reset(seed=1)
    outside = int(envs.single_action_space.n)
    with pytest.raises(InputError, match=r"Discrete\("):
        envs.step(np.array([outside, outside]))
    envs.close()


# -- random junk -----------------------------------------------------------------------------------------------
json_like = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(-3, 600) | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)
dtypes = hnp.scalar_dtypes() | hnp.unicode_string_dtypes() | hnp.byte_string_dtypes()
arrays = hnp.arrays(dtype=dtypes, shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3))
numpy_scalars = hnp.arrays(dtype=dtypes, shape=()).map(lambda a: a[()])
#: integers near and inside every env's space, in each accepted form, so that the played branch runs often too
near_the_space = st.builds(
    lambda k, form: form(k), st.integers(-2, 25) | st.integers(-2, 510), st.sampled_from([int, np.int64, np.array])
)
junk = (
    json_like
    | arrays
    | numpy_scalars
    | near_the_space
    | st.complex_numbers()
    | st.binary(max_size=4)
    | st.tuples(st.integers(0, 30))
)
#: one live env per id, shared by the examples (reset when a game ends)
JUNK_ENVS: dict[str, Any] = {}


def in_space(action: Any, n: int) -> bool:
    """The documented legal actions: a Python int (not bool), a numpy integer scalar or 0-d integer array (signed
    or unsigned integer dtype; numpy counts timedelta64 as an integer type, the space does not), in 0..n-1."""
    if isinstance(action, np.generic | np.ndarray):
        integral = action.shape == () and action.dtype.kind in "iu"
    else:
        integral = type(action) is int
    return integral and 0 <= int(action) < n


@pytest.mark.parametrize("env_id", ENV_IDS)
@settings(max_examples=400, deadline=None)
@given(action=junk)
def test_junk_actions_are_played_or_raise_input_error(env_id: str, action: Any) -> None:
    if env_id not in JUNK_ENVS:
        JUNK_ENVS[env_id] = live_env(env_id)[0]
    env = JUNK_ENVS[env_id]
    n = int(env.action_space.n)
    if in_space(action, n):
        allowed = bool(env.unwrapped.action_masks()[int(action)])
        event("played: allowed by the mask" if allowed else "played: masked out")
        obs, reward, terminated, truncated, info = env.step(action)
        assert env.observation_space.contains(obs) and np.isfinite(reward)
        assert info.get("illegal_action", False) is not allowed and (allowed or reward == -1.0)
        if terminated or truncated:
            env.reset()
    else:
        event("refused")
        with pytest.raises(InputError) as caught:
            env.step(action)
        assert str(env.action_space) in one_line(caught.value)


@pytest.mark.parametrize("env_id", ENV_IDS)
@settings(max_examples=150, deadline=None)
@given(
    options=st.none()
    | json_like
    | st.dictionaries(st.sampled_from(["game_seed", "seed"]), json_like, max_size=2)
    | st.fixed_dictionaries({"game_seed": st.none() | st.integers(-3, 2**64)})
)
def test_junk_reset_options_start_a_game_or_raise_config_error(env_id: str, options: Any) -> None:
    if env_id not in JUNK_ENVS:
        JUNK_ENVS[env_id] = live_env(env_id)[0]
    env = JUNK_ENVS[env_id]
    seed = options.get("game_seed") if isinstance(options, dict) else None
    valid = options is None or (
        isinstance(options, dict)
        and set(options) <= {"game_seed"}
        and (seed is None or (type(seed) is int and 0 <= seed <= MAX_SEED))
    )
    event("valid" if valid else "refused")
    if valid:
        obs, info = env.reset(options=options)
        assert env.observation_space.contains(obs) and info["action_mask"].any()
        if seed is not None:
            assert info["game_seed"] == seed
    else:
        with pytest.raises(ConfigError) as caught:
            env.reset(options=options)
        assert "option" in one_line(caught.value)
