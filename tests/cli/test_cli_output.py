"""What a newcomer reads in the terminal. Help on every command, plain words in it, a summary table."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import click
import pytest
from click.testing import CliRunner

from puzzlebots.cli import cli
from puzzlebots.cli.commands import replay_cmd

#: words the issue found in the help that a newcomer cannot know
JARGON = ["seed article", "vaguery only", "|Z|", "K: games", "sequence S", "rating of W"]


def walk(group: click.Group, path: list[str]) -> Iterator[tuple[list[str], click.Command]]:
    """Every command under ``group`` with the words that reach it (the dynamic per-game groups included)."""
    ctx = click.Context(group, info_name=path[-1] if path else "puzzlebots")
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        assert cmd is not None, name
        yield [*path, name], cmd
        if isinstance(cmd, click.Group):
            yield from walk(cmd, [*path, name])


COMMANDS = [(path, cmd) for path, cmd in walk(cli, []) if path != ["serve"]]


def serve_command() -> click.Command:
    from puzzlebots.web.cli import serve

    return serve


@pytest.mark.parametrize(
    "args",
    [[], ["watch"], ["cargobot"], ["stats"], ["train"], ["puyo"], ["versus"]],
    ids=lambda a: " ".join(a) or "bare",
)
def test_a_bare_group_prints_its_help_and_exits_0(args: list[str]) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Usage: ") and "error" not in result.output and "Commands:" in result.output


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS] + [["serve"]], ids=" ".join)
def test_dash_h_works_everywhere(path: list[str]) -> None:
    result = CliRunner().invoke(cli, [*path, "-h"])
    assert result.exit_code == 0, result.output
    assert "Usage: " in result.output and "-h, --help" in result.output


def test_every_option_has_help_in_plain_words() -> None:
    missing, jargon = [], []
    for path, cmd in [*COMMANDS, (["serve"], serve_command())]:
        texts = [cmd.help or ""]
        for p in cmd.params:
            if isinstance(p, click.Option):
                if not p.help:
                    missing.append(f"{' '.join(path)} {p.opts[0]}")
                texts.append(p.help or "")
        jargon += [f"{' '.join(path)}: {w!r}" for w in JARGON for t in texts if w.lower() in t.lower()]
    assert not missing, f"options without help: {missing}"
    assert not jargon, f"jargon in help: {jargon}"


def test_the_cargobot_semantics_are_explained_where_they_are_chosen() -> None:
    options = [p for _, cmd in COMMANDS for p in cmd.params if p.name == "semantics"]
    assert len(options) >= 2
    for option in options:
        assert isinstance(option, click.Option) and option.help
        assert "game:" in option.help and "vaguery:" in option.help and "Ruby" in option.help


def test_list_says_where_a_bot_comes_from_in_plain_words() -> None:
    result = CliRunner().invoke(cli, ["list"])
    assert result.exit_code == 0 and "from the article" in result.output and "seed article" not in result.output


def test_stats_prints_a_table_with_rounded_figures_and_json_only_on_request() -> None:
    args = ["stats", "puyo", "--games", "2", "--quiet", "--max-actions", "20", "--jobs", "1"]
    table = CliRunner().invoke(cli, args)
    assert table.exit_code == 0, table.output
    assert "┃ figure" in table.output and "mean score" in table.output and "{" not in table.output
    doc = CliRunner().invoke(cli, [*args, "--format", "json"])
    assert doc.exit_code == 0, doc.output
    summary = json.loads(doc.output)["summary"]
    # rounded: the table shows the mean score with no long decimals
    assert f"{summary['mean_score']:,.0f}" in table.output or f"{summary['mean_score']:.3g}" in table.output


def test_yoshi_stats_say_what_cleared_and_attempted_mean() -> None:
    args = ["stats", "yoshis_cookie", "--games", "1", "--quiet", "--max-stages", "1", "--jobs", "1"]
    result = CliRunner(env={"COLUMNS": "120"}).invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "stages started" in result.output and "stages finished" in result.output
    assert "without a continue" in result.output


def test_replay_shows_the_game_at_a_visible_pace_by_default() -> None:
    delay = next(p for p in replay_cmd.params if p.name == "delay")
    assert isinstance(delay.default, float) and delay.default >= 0.03


def _legend_clear_of_the_plot(fig: Any) -> bool:
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    (ax,) = fig.axes
    legend = fig.legends[0].get_window_extent(renderer)
    return not ax.get_window_extent(renderer).overlaps(legend) and ax.get_legend() is None


def test_the_stats_histogram_counts_whole_games_in_the_games_units() -> None:
    from puzzlebots.cli.output import histogram_figure

    fig = histogram_figure([3.0, 4.0, 4.0, 7.0, 9.0], "spawns to game over", "t")
    (ax,) = fig.axes
    fig.canvas.draw()
    assert ax.get_xlabel() == "spawns to game over" and ax.get_ylabel() == "games"
    assert all(float(t).is_integer() for t in ax.get_yticks()) and all(float(t).is_integer() for t in ax.get_xticks())
    assert _legend_clear_of_the_plot(fig)


def test_the_learning_curve_names_the_games_units_not_fitness() -> None:
    from puzzlebots.cli.output import learning_curve_figure

    history = [{"generation": g, "rating": 10.0 * g, "best_rating": 11.0 * g} for g in range(1, 4)]
    fig = learning_curve_figure(history, "t", "spawns to game over")
    (ax,) = fig.axes
    fig.canvas.draw()
    assert ax.get_ylabel() == "mean spawns to game over per game" and "fitness" not in ax.get_ylabel()
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels == ["tuned weights", "best candidate"]
    assert all(float(t).is_integer() for t in ax.get_xticks())
    assert _legend_clear_of_the_plot(fig)


def test_the_stats_plot_of_each_game_is_in_its_units() -> None:
    from puzzlebots.cli.commands import plotted
    from puzzlebots.core.registry import get_game

    puyo = get_game("puyo")
    assert plotted(puyo, [{"max_chain": 7, "score": 9000}]) == ([7.0], "largest chain", "")  # type: ignore[arg-type]
    hatris = get_game("hatris")
    assert plotted(hatris, [{"spawns": 812}]) == ([812.0], "spawns", "")  # type: ignore[arg-type]
    capped = plotted(hatris, [{"spawns": 200}, {"spawns": 150}], hatris.check_config({"max_spawns": 200}))  # type: ignore[arg-type]
    assert capped == ([200.0, 150.0], "spawns", "capped at 200 spawns: 1 of 2 games reached it")


def test_a_constant_column_gets_an_axis_around_it_and_a_note() -> None:
    """Games that all hit the cap (every value 200): round ticks about the one bar, not 199.45-200.50, and the
    title says every game had that value and how many games reached the cap."""
    from puzzlebots.cli.output import histogram_figure

    note = "capped at 200 spawns: 20 of 20 games reached it"
    fig = histogram_figure([200.0] * 20, "spawns", "t", note)
    (ax,) = fig.axes
    fig.canvas.draw()
    low, high = ax.get_xlim()
    assert low < 200 < high and high - low >= 2 and 200 - low == high - 200
    ticks = [t for t in ax.get_xticks() if low <= t <= high]
    assert 200 in ticks and all(float(t).is_integer() for t in ticks)
    assert note in ax.get_title() and "every game: 200 spawns" in ax.get_title()
    fig = histogram_figure([0.5] * 3, "share", "t")  # a constant fraction: at least one unit either side
    (ax,) = fig.axes
    assert ax.get_xlim() == (-0.5, 1.5) and "every game: 0.5 share" in ax.get_title()


def test_a_learning_curve_at_one_value_gets_an_axis_around_it() -> None:
    from puzzlebots.cli.output import learning_curve_figure

    history = [{"generation": g, "rating": 200.0, "best_rating": 200.0} for g in range(1, 4)]
    fig = learning_curve_figure(history, "t", "spawns")
    (ax,) = fig.axes
    fig.canvas.draw()
    low, high = ax.get_ylim()
    assert 200 - low == high - 200 >= 1
    assert all(float(t).is_integer() for t in ax.get_yticks()) and "every generation: 200" in ax.get_title()
