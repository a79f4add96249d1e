"""Replay files: round trip, divergence at the edited action, truncation and malformed lines."""

import json

import pytest

from puzzlebots.core.errors import InputError
from puzzlebots.core.replay import check_replay, read_replay, write_replay
from puzzlebots.core.runner import play_episode


@pytest.fixture
def replay_file(tmp_path):
    ep = play_episode("cards", "random", 11, record=True, hash_every=4)
    path = tmp_path / "game.jsonl"
    write_replay(path, ep, "1", 4)
    return path, ep


def test_round_trip_reproduces_every_hash(replay_file):
    path, ep = replay_file
    rep = read_replay(path)
    assert rep.header["seed"] == 11 and [a for a, _ in rep.steps()] == ep.actions and rep.length == len(ep.actions)
    check = check_replay(rep)
    assert check.ok and check.checked_hashes == len(ep.hashes) and check.result["score"] == ep.result["score"]


def test_edited_action_diverges_at_the_next_hash(replay_file):
    path, ep = replay_file
    lines = path.read_text().splitlines()
    action_lines = [i for i, line in enumerate(lines) if line.startswith('{"a"')]
    i = action_lines[5]  # the 6th action: the first hash after it is at action 8
    old = json.loads(lines[i])["a"]
    lines[i] = json.dumps({"a": "skip" if old == "take" else "take"})
    path.write_text("\n".join(lines) + "\n")
    check = check_replay(read_replay(path))
    assert not check.ok and check.divergence is not None and check.divergence[0] == 8


def test_truncated_replay_is_refused(replay_file):
    path, _ = replay_file
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-3]) + "\n")
    with pytest.raises(InputError, match="truncated"):
        read_replay(path)


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda ls: ["not json"] + ls[1:], "line 1: malformed JSON"),
        (lambda ls: ls[1:], "missing header"),
        (lambda ls: ls[:2] + ['{"x": 1}'] + ls[2:], "unknown record"),
        (lambda ls: ls + ['{"a": "take"}'], "after the end record"),
    ],
)
def test_malformed_lines_name_the_problem(replay_file, mutate, message):
    path, _ = replay_file
    path.write_text("\n".join(mutate(path.read_text().splitlines())) + "\n")
    with pytest.raises(InputError, match=message):
        read_replay(path)


def test_unplayable_action_is_an_input_error(replay_file):
    path, _ = replay_file
    text = path.read_text().replace('{"a": "take"}', '{"a": "jump"}', 1).replace('{"a": "skip"}', '{"a": "jump"}', 1)
    path.write_text(text)
    with pytest.raises(InputError, match="cannot be played"):
        check_replay(read_replay(path))
