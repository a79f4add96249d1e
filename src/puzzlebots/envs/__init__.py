"""Gymnasium environments for every installed game with a Gym adapter (the ``[gym]`` extra).

Importing this package registers ``puzzlebots/<env_name>-v0`` for each such game (``puzzlebots/Hatris-v0``,
``puzzlebots/YoshisCookie-v0``, ``puzzlebots/Puyo-v0`` and any game of your own)::

    import gymnasium as gym
    import puzzlebots.envs  # noqa: F401

    env = gym.make("puzzlebots/Puyo-v0", render_mode="ansi")
    obs, info = env.reset(seed=1)
    action = int(env.np_random.choice(info["action_mask"].nonzero()[0]))
    obs, reward, terminated, truncated, info = env.step(action)

See docs/envs.md for vector envs and a training example.
"""

from __future__ import annotations

import gymnasium as gym

from ..core.protocols import GymGame
from ..core.registry import loadable_games

#: a cap on steps per episode, so that a policy repeating a forbidden action still ends
MAX_EPISODE_STEPS = 20_000


def env_id(game: GymGame) -> str:
    return f"puzzlebots/{game.env_name}-v0"


def register_all() -> list[str]:
    """Register an env id for every loadable game with a Gym adapter (again after adding a game); the ids."""
    ids = []
    for game in loadable_games():
        if isinstance(game, GymGame):
            ids.append(env_id(game))
            if ids[-1] not in gym.registry:
                gym.register(
                    id=ids[-1],
                    entry_point="puzzlebots.envs.base:make_env",
                    kwargs={"game": game.name},
                    max_episode_steps=MAX_EPISODE_STEPS,
                )
    return ids


ENVS = register_all()
