"""The command line for Yoshi's Cookie: stats JSON, watch, and one-line errors with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from puzzlebots.cli import cli
from puzzlebots.core.errors import ConfigError, InputError
from puzzlebots.games.yoshis_cookie.boards import load_board_file
from puzzlebots.games.yoshis_cookie.game import GAME


def run(args: list[str]):
    return CliRunner().invoke(cli, args)


def test_stats_writes_the_summary(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    res = run(["stats", "yoshis_cookie", "--bot", "greedy", "--games", "2", "--max-stages", "2", "--json", str(out)])
    assert res.exit_code == 0, res.output
    summary = json.loads(out.read_text())["summary"]
    for key in ("stage_clear_rate", "continues", "mean_frames_per_stage", "mean_score"):
        assert key in summary
    assert summary["stages_attempted"] == 4


def test_watch_draws_the_matrix() -> None:
    res = run(["watch", "yoshis_cookie", "--bot", "planner", "--delay", "0", "--max-actions", "3"])
    assert res.exit_code == 0, res.output
    assert "round" in res.output and "stage" in res.output


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--size", "9"], "size must be 2-7"),
        (["--size", "1"], "size must be 2-7"),
        (["--speed", "turbo"], "turbo"),
        (["--mode", "hard"], "hard"),
        (["--bot", "nobody"], "nobody"),
        (["--max-stages", "x"], "x"),
        (["--start-round", "12"], "start_round"),
    ],
)
def test_bad_arguments_are_one_line_errors(args: list[str], needle: str) -> None:
    base = ["stats", "yoshis_cookie", "--games", "1"]
    if "--bot" not in args:
        base += ["--bot", "greedy"]
    res = run(base + args)
    assert res.exit_code == 2
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and needle in lines[0]
    assert "Traceback" not in res.output


@pytest.mark.parametrize(
    "config",
    [
        {"size": 8},
        {"size": 1},
        {"speed": "fast"},
        {"start_size": [3] * 9},
        {"types_per_round": [6] * 10},
        {"speed_px_per_frame": {"low": 0.3, "medium": 0.5, "high": 1.0}},
        {"cursor_follows": 1},
        {"nope": 1},
    ],
)
def test_bad_configuration_values_raise_config_error(config: dict) -> None:
    with pytest.raises(ConfigError) as info:
        GAME.check_config(config)
    assert "\n" not in str(info.value)


def test_board_files_are_checked_and_used(tmp_path: Path) -> None:
    bad = tmp_path / "boards.json"
    bad.write_text(json.dumps({"1-1": ["HHX", "FDK"]}))
    with pytest.raises(InputError, match="unknown cell letter 'X'"):
        load_board_file(str(bad))
    full = tmp_path / "full.json"
    full.write_text(json.dumps({"2-5": ["HHH", "FDK"]}))
    with pytest.raises(InputError, match="complete line"):
        load_board_file(str(full))
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"1-1": ["HHF", "FDH", "DFD"]}))
    state = GAME.new_state(0, GAME.check_config({"board_file": str(good)}))
    assert state.rows_text() == ["HHF", "FDH", "DFD"]


def test_replay_round_trip_and_malformed_actions(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    res = run(
        ["watch", "yoshis_cookie", "--bot", "greedy", "--delay", "0", "--max-actions", "12", "--replay", str(path)]
    )
    assert res.exit_code == 0, res.output
    res = run(["replay", str(path)])
    assert res.exit_code == 0, res.output
    assert GAME.decode_action("RuuB") == "RuuB"
    for bad in ("X", "BU", 7, ""):
        with pytest.raises(InputError):
            GAME.decode_action(bad)
