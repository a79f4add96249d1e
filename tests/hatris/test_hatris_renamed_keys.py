"""A replay written when two Hatris keys had short names (``fc0``, ``m7``) still loads and replays identically:
the schema's ``renamed`` table maps them to ``first_frame_counter`` and ``metric7_formula`` where a config is read."""

from __future__ import annotations

import json
from pathlib import Path

from puzzlebots.core.replay import check_replay, read_replay, write_replay
from puzzlebots.core.runner import play_episode
from puzzlebots.games.hatris.game import GAME

OLD_NAMES = {"first_frame_counter": "fc0", "metric7_formula": "m7"}


def with_old_names(path: Path) -> None:
    """Rewrite the replay's header as the code before the rename wrote it: the two keys under their old names."""
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header["config"] = {OLD_NAMES.get(k, k): v for k, v in header["config"].items()}
    lines[0] = json.dumps(header, sort_keys=True)
    path.write_text("\n".join(lines) + "\n")


def test_a_replay_with_the_old_key_names_replays_identically(tmp_path: Path) -> None:
    config = {"first_frame_counter": 7, "metric7_formula": "abs"}
    episode = play_episode("hatris", "searcher", 3, config, record=True, hash_every=5, max_actions=30)
    path = tmp_path / "old.jsonl"
    write_replay(path, episode, GAME.rules_version, 5)
    with_old_names(path)
    replay = read_replay(path)
    assert {"fc0", "m7"} <= set(replay.header["config"]) and "first_frame_counter" not in replay.header["config"]
    check = check_replay(replay)
    assert check.ok and check.checked_hashes == len(episode.hashes)
    assert check.result == {k: episode.result[k] for k in check.result}  # the episode adds seed, decisions, ...


def test_the_old_names_set_the_new_keys() -> None:
    config = GAME.check_config({"fc0": 12, "m7": "abs"})
    assert (config["first_frame_counter"], config["metric7_formula"]) == (12, "abs")
    assert "fc0" not in config and "m7" not in config
