"""Gymnasium environments for Hatris, Yoshi's Cookie and Puyo (the ``[gym]`` extra).

Importing this package registers ``puzzlebots/Hatris-v0``, ``puzzlebots/YoshisCookie-v0`` and
``puzzlebots/Puyo-v0``::

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

#: env id -> "module:class" under this package
ENVS = {
    "puzzlebots/Hatris-v0": "puzzlebots.envs.hatris:HatrisEnv",
    "puzzlebots/Puyo-v0": "puzzlebots.envs.puyo:PuyoEnv",
    "puzzlebots/YoshisCookie-v0": "puzzlebots.envs.yoshis_cookie:YoshisCookieEnv",
}
#: a cap on steps per episode, so that a policy repeating a forbidden action still ends
MAX_EPISODE_STEPS = 20_000

for _env_id, _entry_point in ENVS.items():
    if _env_id not in gym.registry:
        gym.register(id=_env_id, entry_point=_entry_point, max_episode_steps=MAX_EPISODE_STEPS)
