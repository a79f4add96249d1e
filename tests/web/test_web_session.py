"""The page's protocol without a browser: watching, stepping, replays (and a tampered one), Cargo-Bot runs."""

from __future__ import annotations

import json
from pathlib import Path

from puzzlebots.core.registry import get_game
from puzzlebots.core.replay import write_replay
from puzzlebots.core.runner import play_episode
from puzzlebots.web.session import Session


def test_watch_and_step() -> None:
    session = Session(None)
    frame = session.handle({"op": "watch", "game": "puyo", "bot": "krieg3", "seed": 2, "config": {}})
    assert frame["type"] == "frame" and frame["step"] == 0 and frame["view"]["kind"] == "grid"
    frame = session.handle({"op": "step", "n": 3})
    assert frame["step"] == 3 and frame["result"]["pairs_played"] == 3
    frame = session.handle({"op": "step", "n": 500})
    end = frame["step"]
    assert frame["done"] and 3 < end <= get_game("puyo").default_config()["pairs"]
    assert session.handle({"op": "step"})["step"] == end  # a finished game stays finished


def test_bad_watch_requests_are_errors() -> None:
    session = Session(None)
    for msg in [
        {"op": "watch", "game": "puyo", "bot": "nobody"},
        {"op": "watch", "game": "puyo", "bot": "krieg", "config": {"pairs": -1}},
        {"op": "watch", "game": "puyo", "bot": "krieg", "seed": -5},
        {"op": "watch", "game": "puyo", "bot": "krieg", "seed": True},
    ]:
        answer = session.handle(msg)
        assert answer["type"] == "error" and answer["message"], msg


def test_replay_plays_back_and_a_tampered_hash_is_reported(tmp_path: Path) -> None:
    episode = play_episode("puyo", "krieg", 5, {"pairs": 25}, record=True)
    write_replay(tmp_path / "good.jsonl", episode, get_game("puyo").rules_version, 10)
    lines = (tmp_path / "good.jsonl").read_text().splitlines()
    tampered = [
        json.dumps({"n": 20, "h": "0" * 16}) if json.loads(line).get("n") == 20 else line for line in lines
    ]
    (tmp_path / "bad.jsonl").write_text("\n".join(tampered) + "\n")
    session = Session(tmp_path)
    assert session.handle({"op": "replays"})["replays"] == ["bad.jsonl", "good.jsonl"]
    session.handle({"op": "replay", "name": "good.jsonl"})
    frame = session.handle({"op": "step", "n": 500})
    assert frame["done"] and frame["step"] == 25 and frame["divergence"] is None
    assert frame["result"]["score"] == episode.result["score"]
    session.handle({"op": "replay", "name": "bad.jsonl"})
    frame = session.handle({"op": "step", "n": 500})
    assert frame["divergence"]["step"] == 20 and frame["step"] == 20 and frame["done"]


def test_cargo_runs() -> None:
    session = Session(None)
    levels = session.handle({"op": "cargo_levels"})["levels"]
    assert len(levels) == 40 and levels[0]["name"] == "Cargo 101"
    run = session.handle({"op": "cargo_run", "level": "Cargo 101", "program": "claw R claw"})
    assert run["solved"] and run["stars"] == 4 and len(run["frames"]) == 4
    assert [f["claw"]["pos"] for f in run["frames"]] == [0, 0, 1, 1]
    run = session.handle({"op": "cargo_run", "level": "Cargo 101", "program": "R claw"})
    assert not run["solved"] and run["stars"] == 0 and "not solved" in run["message"]
    for program in ["fly away", "claw_red R claw", "prog_9 claw"]:
        answer = session.handle({"op": "cargo_run", "level": "Cargo 101", "program": program})
        assert answer["type"] == "error", program
    assert session.handle({"op": "cargo_level", "level": "no such level"})["type"] == "error"
