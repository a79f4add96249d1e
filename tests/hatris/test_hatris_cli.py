"""The command line with Hatris: stats JSON, game options, and one-line errors with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from puzzlebots.cli import cli


def test_stats_json_is_reproducible(tmp_path: Path) -> None:
    runner = CliRunner()
    outs = []
    for jobs in (1, 2):
        out = tmp_path / f"s{jobs}.json"
        res = runner.invoke(
            cli,
            [
                "stats",
                "hatris",
                "--bot",
                "searcher",
                "--games",
                "3",
                "--seed",
                "5",
                "--jobs",
                str(jobs),
                "--max-spawns",
                "150",
                "--pairs",
                "uniform",
                "--json",
                str(out),
            ],
        )
        assert res.exit_code == 0, res.output
        outs.append(json.loads(out.read_text()))
    assert outs[0] == outs[1]
    summary = outs[0]["summary"]
    assert {"mean_spawns", "std_spawns", "median_spawns", "clear_all_rate"} <= set(summary)
    assert [g["seed"] for g in outs[0]["games"]] == [5, 6, 7]


def _error(args: list[str]) -> str:
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    return res.output.strip()


def test_bad_arguments_exit_2() -> None:
    assert "--pairs" in _error(["stats", "hatris", "--games", "2", "--pairs", "dice"])
    assert "--start-level" in _error(["stats", "hatris", "--games", "2", "--start-level", "60"])
    _error(["stats", "hatris", "--games", "-3"])
    _error(["stats", "hatris", "--bot", "oracle", "--games", "1"])


def test_bad_weights_file_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "w.json"
    bad.write_text(json.dumps({"weights": [1, 2, 3]}))
    out = _error(["stats", "hatris", "--games", "1", "--weights", str(bad)])
    assert len(out.splitlines()) == 1
