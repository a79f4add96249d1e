"""Benchmarks only from the project, one seed range everywhere, errors
that quote values short, CMA-ES from any seed, no bot option silently ignored, finite bounded floats."""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parents[1] / "files"))
from refusal import refused  # noqa: E402

from puzzlebots.cli import cli  # noqa: E402
from puzzlebots.cli.app import MAX_ERROR, error_line  # noqa: E402
from puzzlebots.cli.commands import benchmarks_dir  # noqa: E402
from puzzlebots.command_parts.options import FiniteFloat  # noqa: E402
from puzzlebots.core import config as config_mod  # noqa: E402
from puzzlebots.core.jsonio import show  # noqa: E402
from puzzlebots.core.protocols import Episodic  # noqa: E402
from puzzlebots.core.registry import get_game, loadable_games  # noqa: E402
from puzzlebots.core.seeds import MAX_SEED, legacy_seed  # noqa: E402
from puzzlebots.web.cli import serve  # noqa: E402

ROOT = Path(__file__).parents[2]
CMA = [
    "train",
    "hatris",
    "--method",
    "cma",
    "--popsize",
    "2",
    "--games-per-eval",
    "1",
    "--generations",
    "1",
    "--max-actions",
    "3",
    "--jobs",
    "1",
    "--quiet",
]


def commands(group: click.Group, ctx: click.Context, path: str = "") -> Iterator[tuple[str, click.Command]]:
    """Every command under ``group`` (each game's ``stats``/``watch``/``train``, its own commands)."""
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        if cmd is None:
            continue
        if isinstance(cmd, click.Group):
            yield from commands(cmd, click.Context(cmd, parent=ctx, info_name=name), f"{path}{name} ")
        else:
            yield f"{path}{name}", cmd


def every_command() -> list[tuple[str, click.Command]]:
    return [*commands(cli, click.Context(cli, info_name="puzzlebots")), ("serve", serve)]


# ----------------------------------------------------------------- item 2: benchmarks only from the project


def test_bench_never_runs_a_benchmark_planted_in_the_working_directory(tmp_path: Path) -> None:
    planted = tmp_path / "benchmarks"
    planted.mkdir()
    marker = tmp_path / "ran"
    (planted / "bench_evil.py").write_text(f"def main(quick):\n    open({str(marker)!r}, 'w').close()\n")
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        line = refused("bench", "evil")
        assert benchmarks_dir() == ROOT / "benchmarks"
    finally:
        os.chdir(here)
    assert "unknown benchmark 'evil'" in line and not marker.exists()


# ----------------------------------------------------------------- item 5: one seed range, the replays' own


def test_every_seed_option_takes_exactly_the_seeds_a_replay_accepts() -> None:
    seeds = [(name, p) for name, cmd in every_command() for p in cmd.params if p.name == "seed"]
    assert len(seeds) >= 14  # stats, watch and train of three games, versus, play, climb, sketch, evolve
    for name, param in seeds:
        assert isinstance(param.type, click.IntRange), name
        assert (param.type.min, param.type.max) == (0, MAX_SEED), name


def test_a_seed_past_the_range_is_refused_where_the_option_is_read(tmp_path: Path) -> None:
    line = refused("watch", "puyo", "--bot", "krieg", "--seed", MAX_SEED + 1, "--replay", tmp_path / "r.jsonl")
    assert "--seed" in line and not (tmp_path / "r.jsonl").exists()
    assert "past the last seed" in refused("stats", "puyo", "--seed", MAX_SEED, "--games", "2")


def test_the_largest_seed_watched_replays(tmp_path: Path) -> None:
    rep = tmp_path / "r.jsonl"
    result = CliRunner().invoke(
        cli,
        [
            "watch",
            "puyo",
            "--bot",
            "krieg",
            "--seed",
            str(MAX_SEED),
            "--pairs",
            "3",
            "--delay",
            "0",
            "--replay",
            str(rep),
        ],
    )
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(cli, ["replay", str(rep), "--no-show"])
    assert result.exit_code == 0 and "hashes match" in result.output, result.output


# ----------------------------------------------------------------- item 11: CMA-ES from any seed


@pytest.mark.parametrize("seed", [2**32 - 1, 2**32, MAX_SEED])
def test_cma_trains_from_any_seed_in_range(tmp_path: Path, seed: int) -> None:
    result = CliRunner().invoke(cli, [*CMA, "--seed", str(seed), "--out", str(tmp_path / "w.json")])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "w.json").read_text())["trained_with"]["seed"] == seed


def test_cma_seed_2_to_the_64_is_one_error_line(tmp_path: Path) -> None:
    assert "--seed" in refused(*CMA, "--seed", 2**64, "--out", tmp_path / "w.json")


def test_the_numpy_seed_keeps_old_runs_and_fits_32_bits() -> None:
    assert legacy_seed(41, 1) == 42  # what runs made before larger seeds had
    for seed in (2**32 - 1, 2**32, MAX_SEED):
        assert 0 <= legacy_seed(seed, 1) < 2**32


# ----------------------------------------------------------------- item 13: no bot option silently ignored


def unread_flags() -> list[tuple[str, str, str, object]]:
    """(game, bot, flag, a value) for every command-line option of a key that bot does not read."""
    cases = []
    for game in loadable_games():
        if not isinstance(game, Episodic):
            continue
        specs = config_mod.settings(game.config_schema)
        defaults = game.default_config()
        for bot in game.bots():
            for key in config_mod.unread_keys(game.config_schema, bot.name):
                flag = specs[key].flag
                if flag is not None:
                    value = None if specs[key].type is bool else defaults[key]
                    cases.append((game.name, bot.name, flag.split("/")[0], value))
    return cases


def test_each_game_declares_which_bots_read_its_keys() -> None:
    for game in loadable_games():
        names = {b.name for b in game.bots()}
        for key, spec in config_mod.settings(game.config_schema).items():
            assert set(spec.bots) <= names, (game.name, key)
        for bot in game.bots():  # the page reads BotInfo.config_keys: the same declaration
            assert set(bot.config_keys) == set(config_mod.bot_keys(game.config_schema, bot.name)), bot.name


@pytest.mark.parametrize(("game", "bot", "flag", "value"), unread_flags())
def test_an_option_the_bot_does_not_read_is_refused(game: str, bot: str, flag: str, value: object) -> None:
    args = [flag] if value is None else [flag, value]
    line = refused("stats", game, "--bot", bot, *args, "--games", "1")
    assert line == f"error: {flag} has no effect with --bot {bot}"


def test_the_audits_case_and_the_bot_that_reads_it() -> None:
    for bot in ("random", "searcher"):
        assert "has no effect" in refused("stats", "hatris", "--bot", bot, "--hoard-stage", "2", "--games", "1")
    result = CliRunner().invoke(
        cli,
        [
            "stats",
            "hatris",
            "--bot",
            "expectimax",
            "--hoard-stage",
            "2",
            "--games",
            "1",
            "--max-actions",
            "2",
            "--jobs",
            "1",
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output


# ----------------------------------------------------------------- item 14: finite, bounded floats


def test_every_float_option_is_finite_and_bounded() -> None:
    floats = [(name, p) for name, cmd in every_command() for p in cmd.params if isinstance(p.type, click.FloatRange)]
    assert len(floats) >= 8
    for name, param in floats:
        assert isinstance(param.type, FiniteFloat), (name, param.name)
        assert math.isfinite(param.type.min) and math.isfinite(param.type.max), (name, param.name)


@pytest.mark.parametrize(
    "args",
    [
        ["serve", "--time-budget", "nan"],
        ["serve", "--time-budget", "inf"],
        ["train", "hatris", "--sigma", "1e308", "--out", "w.json"],
        ["train", "hatris", "--sigma", "nan", "--out", "w.json"],
        ["cargobot", "solve", "--level", "Cargo 101", "--time-limit", "1e308"],
        ["watch", "hatris", "--delay", "nan"],
    ],
)
def test_a_float_that_is_not_finite_or_in_range_is_one_error_line(args: list[str]) -> None:
    flag = next(a for a in args if a in ("--time-budget", "--sigma", "--time-limit", "--delay"))
    assert f"Invalid value for '{flag}'" in refused(*args)


# ----------------------------------------------------------------- item 8: values quoted short


def test_a_replay_action_of_a_million_elements_is_quoted_short(tmp_path: Path) -> None:
    game = get_game("hatris")
    head = {
        "type": "header",
        "format": 1,
        "game": "hatris",
        "config": {},
        "seed": 0,
        "bot": "random",
        "rules_version": game.rules_version,
        "hash_every": 10,
    }
    action = ["place", *range(1_000_000)]
    path = tmp_path / "r.jsonl"
    path.write_text(
        "\n".join(json.dumps(x) for x in [head, {"a": action}, {"type": "end", "decisions": 1, "result": {}}]) + "\n"
    )
    line = refused("replay", path, "--no-show")
    assert len(line) < 300, len(line)


def test_show_never_builds_a_huge_text() -> None:
    assert len(show(list(range(10**6)))) <= 40
    assert len(show("x" * 10**7, 80)) <= 80


def test_the_error_printer_cuts_any_message() -> None:
    line = error_line("x" * 10**6 + "\nsecond line")
    assert len(line) <= len("error: ") + MAX_ERROR and "\n" not in line
