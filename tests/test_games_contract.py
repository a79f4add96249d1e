"""Every installed game keeps the core's contract: seeded determinism, clones, replays, stats for any --jobs."""

import json

import pytest
from click.testing import CliRunner

from puzzlebots.cli import cli
from puzzlebots.core.protocols import Episodic
from puzzlebots.core.registry import loadable_games
from puzzlebots.core.replay import check_replay, read_replay, write_replay
from puzzlebots.core.runner import play_episode

EPISODIC = [g for g in loadable_games() if isinstance(g, Episodic)]
ACTIONS = 25


def first_bot(game) -> str:
    return game.bots()[0].name


@pytest.mark.parametrize("game", EPISODIC, ids=lambda g: g.name)
def test_same_seed_same_game_other_seed_other_game(game):
    bot = first_bot(game)
    a = play_episode(game, bot, 3, record=True, max_actions=ACTIONS)
    b = play_episode(game, bot, 3, record=True, max_actions=ACTIONS)
    c = play_episode(game, bot, 4, record=True, max_actions=ACTIONS)
    assert a.actions == b.actions and a.hashes == b.hashes and a.result == b.result
    assert a.hashes[0] != c.hashes[0] or a.actions != c.actions


@pytest.mark.parametrize("game", EPISODIC, ids=lambda g: g.name)
def test_clone_is_independent(game):
    state = game.new_state(5, game.check_config({}))
    before = state.state_hash()
    copy = state.clone()
    copy.apply(copy.legal_actions()[0])
    assert state.state_hash() == before and copy.state_hash() != before


@pytest.mark.parametrize("game", EPISODIC, ids=lambda g: g.name)
def test_replay_reproduces_its_own_hashes_and_catches_an_edit(game, tmp_path):
    ep = play_episode(game, first_bot(game), 7, record=True, hash_every=5, max_actions=ACTIONS)
    path = tmp_path / "r.jsonl"
    write_replay(path, ep, game.rules_version, 5)
    check = check_replay(read_replay(path))
    assert check.ok and check.checked_hashes == len(ep.hashes)
    # play a different legal action at step 3: the replay must diverge by the next recorded hash
    state = game.new_state(7, ep.config)
    for data in ep.actions[:2]:
        state.apply(game.decode_action(data))
    others = [a for a in state.legal_actions() if game.encode_action(a) != ep.actions[2]]
    if not others:
        pytest.fail(f"{game.name}: only one legal action at step 3 of seed 7; pick another seed")
    lines = path.read_text().splitlines()
    action_rows = [i for i, line in enumerate(lines) if line.startswith('{"a"')]
    lines[action_rows[2]] = json.dumps({"a": game.encode_action(others[0])})
    path.write_text("\n".join(lines) + "\n")
    try:
        edited = check_replay(read_replay(path))
    except Exception as exc:  # a later recorded action may become illegal: that is a detection too
        assert "cannot be played" in str(exc)
    else:
        assert not edited.ok and edited.divergence is not None and edited.divergence[0] <= 5


@pytest.mark.parametrize("game", EPISODIC, ids=lambda g: g.name)
def test_stats_json_is_identical_for_one_and_two_jobs(game, tmp_path):
    out = []
    for jobs in (1, 2):
        path = tmp_path / f"{jobs}.json"
        res = CliRunner().invoke(
            cli,
            [
                "stats",
                game.name,
                "--games",
                "4",
                "--seed",
                "11",
                "--jobs",
                str(jobs),
                "--max-actions",
                "15",
                "--json",
                str(path),
                "--quiet",
            ],
        )
        assert res.exit_code == 0, res.output
        out.append(path.read_bytes())
    assert out[0] == out[1]
    doc = json.loads(out[0])
    assert [g["seed"] for g in doc["games"]] == [11, 12, 13, 14] and doc["summary"]
