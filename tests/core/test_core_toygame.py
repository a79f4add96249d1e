"""Adding a game: the toy game, installed from outside the package through
``PUZZLEBOTS_GAMES`` only, gets every command, a Gym env that passes ``check_env``, and (tests/web) a page.

Each command runs in a real process whose environment is all that tells it about the game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PUZZLEBOTS_GAMES": "toygame:GAME",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")])),
    }
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def cli(*args: str, cwd: Path) -> str:
    done = run("-m", "puzzlebots", *args, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_toy_game_gets_every_command(tmp_path: Path) -> None:
    assert "cards" in cli("list", cwd=tmp_path)
    cli(
        "stats",
        "cards",
        "--bot",
        "random",
        "--games",
        "4",
        "--cards",
        "5",
        "--jobs",
        "1",
        "--quiet",
        "--json",
        "s.json",
        cwd=tmp_path,
    )
    assert len(json.loads((tmp_path / "s.json").read_text())["games"]) == 4
    cli("watch", "cards", "--bot", "threshold", "--delay", "0", "--replay", "r.jsonl", cwd=tmp_path)
    assert "hashes match" in cli("replay", "r.jsonl", "--no-show", cwd=tmp_path)
    cli(
        "train",
        "cards",
        "--games-per-eval",
        "2",
        "--generations",
        "1",
        "--variants",
        "2",
        "--rounds",
        "1",
        "--jobs",
        "1",
        "--quiet",
        "--out",
        "w.json",
        cwd=tmp_path,
    )
    assert len(json.loads((tmp_path / "w.json").read_text())["weights"]) == 2


def test_the_toy_game_gets_a_gym_env_that_passes_check_env(tmp_path: Path) -> None:
    script = (
        "import gymnasium as gym, puzzlebots.envs as e\n"
        "from gymnasium.utils.env_checker import check_env\n"
        "assert 'puzzlebots/Cards-v0' in e.ENVS, e.ENVS\n"
        "env = gym.make('puzzlebots/Cards-v0', config={'cards': 6})\n"
        "check_env(env.unwrapped)\n"
        "obs, info = env.reset(seed=1)\n"
        "done = False\n"
        "while not done:\n"
        "    obs, reward, done, truncated, info = env.step(int(info['action_mask'].nonzero()[0][0]))\n"
        "print('ok', info['result']['cards'])\n"
    )
    done = run("-c", script, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ok", "6"]
