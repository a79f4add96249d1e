"""Clean output: every command run with its stdout in a pipe (a real process, as a script or a log
sees it) writes whole lines, no carriage-return progress, JSON that parses on lines of its own (no caption
glued to it), tables whose words are whole (never ``Tutor…``), and colours that carry meaning as letters."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

#: a line whose text runs into the JSON that follows it (``hatris / searcher / seed 3{``)
GLUED = re.compile(r"\S[{\[]$")


def piped(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``puzzlebots ARGS`` with stdin, stdout and stderr in pipes (``stdin`` written to it); it must succeed."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "FORCE_COLOR")}  # rich's own defaults
    done = subprocess.run(
        [sys.executable, "-m", "puzzlebots", *args], input=stdin, capture_output=True, text=True, cwd=cwd, env=env
    )
    assert done.returncode == 0, done.stderr
    return done


def whole_lines(text: str) -> list[str]:
    """The lines of ``text``, checked: no carriage return, no colour codes, a newline at the end, no caption
    glued to JSON, no word cut short."""
    assert "\r" not in text and "\x1b[" not in text
    assert text == "" or text.endswith("\n")
    lines = text.splitlines()
    assert not [line for line in lines if GLUED.search(line)]
    assert "…" not in text
    return lines


def json_values(text: str) -> list[Any]:
    """Every JSON value that starts a line of ``text``; each must parse and end its line."""
    decoder = json.JSONDecoder()
    values, at = [], 0
    while at < len(text):
        if text[at] in "{[":
            value, end = decoder.raw_decode(text, at)
            assert text[end] == "\n", f"JSON followed by {text[end : end + 20]!r} on its last line"
            values.append(value)
            at = end
        at = text.index("\n", at) + 1
    return values


def test_list(tmp_path: Path) -> None:
    done = piped("list", cwd=tmp_path)
    lines = whole_lines(done.stdout)
    assert any("searcher" in line for line in lines) and any("builder" in line for line in lines)
    assert done.stderr == ""


def test_stats_table_keeps_whole_words_at_80_columns(tmp_path: Path) -> None:
    done = piped(
        "stats", "yoshis_cookie", "--bot", "greedy", "--games", "2", "--max-stages", "1", "--jobs", "1", cwd=tmp_path
    )
    lines = whole_lines(done.stdout)
    assert any("stage_clear_rate" in line or "stage clear rate" in line for line in lines)
    assert "\r" not in done.stderr


def test_stats_json_is_the_whole_output(tmp_path: Path) -> None:
    done = piped(
        "stats",
        "hatris",
        "--bot",
        "searcher",
        "--games",
        "2",
        "--max-spawns",
        "20",
        "--jobs",
        "1",
        "--format",
        "json",
        cwd=tmp_path,
    )
    whole_lines(done.stdout)
    doc = json.loads(done.stdout)
    assert doc["game"] == "hatris" and doc["summary"]["games"] == 2


def test_watch_and_replay_print_the_last_board_a_caption_and_json(tmp_path: Path) -> None:
    replay = tmp_path / "game.jsonl"
    done = piped(
        "watch",
        "hatris",
        "--bot",
        "searcher",
        "--seed",
        "3",
        "--delay",
        "0",
        "--max-actions",
        "5",
        "--replay",
        str(replay),
        cwd=tmp_path,
    )
    lines = whole_lines(done.stdout)
    assert "hatris / searcher / seed 3" in lines  # the caption on a line of its own
    assert json_values(done.stdout)[-1]["decisions"] == 5
    shown = piped("replay", str(replay), "--delay", "0", cwd=tmp_path)
    lines = whole_lines(shown.stdout)
    assert "game.jsonl: action 5/5" in lines
    assert any(line.startswith("replay game.jsonl: 5 actions") for line in lines)
    assert json_values(shown.stdout)[-1]["spawns"] >= 5


def test_puyo_colours_are_letters_in_a_pipe(tmp_path: Path) -> None:
    done = piped("watch", "puyo", "--bot", "krieg", "--seed", "2", "--delay", "0", "--max-actions", "6", cwd=tmp_path)
    whole_lines(done.stdout)
    field = [line for line in done.stdout.splitlines() if re.match(r"│ ( \d|\d\d) ", line)]  # rows 13..1
    assert len(field) == 13
    cells = "".join(line[5:17] for line in field)  # the six columns of each row
    assert "●" not in cells and set("RGBYP") & set(cells)  # 12 puyos placed, each by its colour's letter


def test_train(tmp_path: Path) -> None:
    done = piped(
        "train",
        "hatris",
        "--bot",
        "searcher",
        "--games-per-eval",
        "2",
        "--generations",
        "1",
        "--variants",
        "2",
        "--max-actions",
        "10",
        "--jobs",
        "1",
        "--out",
        "w.json",
        cwd=tmp_path,
    )
    whole_lines(done.stdout)
    assert "\r" not in done.stderr
    assert (tmp_path / "w.json").exists()


def test_versus(tmp_path: Path) -> None:
    done = piped(
        "versus", "puyo", "--bots", "krieg,krieg", "--games", "1", "--max-turns", "6", "--jobs", "1", cwd=tmp_path
    )
    lines = whole_lines(done.stdout)
    assert any("win rate" in line for line in lines)


def test_cargobot_levels_keep_every_name_whole(tmp_path: Path) -> None:
    table = piped("cargobot", "levels", cwd=tmp_path).stdout
    whole_lines(table)
    levels = json_values(piped("cargobot", "levels", "--json", cwd=tmp_path).stdout)[0]
    words = {w for lv in levels for w in f"{lv['pack']} {lv['name']}".split()}
    assert len(levels) == 40 and words <= set(re.split(r"[\s│┃]+", table))  # every word of every name, whole


def test_cargobot_run(tmp_path: Path) -> None:
    done = piped("cargobot", "run", "--level", "Cargo 101", "--program", "claw R claw", cwd=tmp_path)
    lines = whole_lines(done.stdout)
    assert lines[0].startswith("solved") and lines[1].startswith("final stacks: ")


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_cargobot_climb(tmp_path: Path, as_json: bool) -> None:
    done = piped(
        "cargobot",
        "climb",
        "--level",
        "Cargo 101",
        "--max-iterations",
        "200",
        *(["--json"] if as_json else []),
        cwd=tmp_path,
    )
    lines = whole_lines(done.stdout)
    if as_json:
        assert "solved" in json.loads(done.stdout)
    else:
        assert lines[0].startswith("Cargo 101: ")
    assert "\r" not in done.stderr


def test_cargobot_solve(tmp_path: Path) -> None:
    done = piped("cargobot", "solve", "--level", "Cargo 101", "--jobs", "1", cwd=tmp_path)
    lines = whole_lines(done.stdout)
    assert any(line.startswith("solved 1/1") for line in lines)
    assert "\r" not in done.stderr


def test_cargobot_evolve(tmp_path: Path) -> None:
    done = piped("cargobot", "evolve", "--level", "Cargo 101", "--evaluations", "2000", "--jobs", "1", cwd=tmp_path)
    lines = whole_lines(done.stdout)
    assert lines[0].startswith("Cargo 101: solved after ") and lines[1].startswith("program (")
    as_json = piped(
        "cargobot", "evolve", "--level", "Cargo 101", "--evaluations", "2000", "--jobs", "1", "--json", cwd=tmp_path
    )
    whole_lines(as_json.stdout)
    assert json.loads(as_json.stdout)["solved"] is True


def test_cargobot_bench_gp(tmp_path: Path) -> None:
    done = piped(
        "cargobot",
        "bench-gp",
        "--levels",
        "Cargo 101",
        "--runs",
        "1",
        "--evaluations",
        "500",
        "--methods",
        "random,gp-lexicase",
        "--jobs",
        "1",
        cwd=tmp_path,
    )
    lines = whole_lines(done.stdout)
    assert "gp-lexicase: 1 levels solved in at least half the runs" in lines
    assert any("Cargo 101" in line and "1/1" in line for line in lines)
    whole_lines(done.stderr)  # the progress bar's last state, a line of its own


def test_cargobot_sketch(tmp_path: Path) -> None:
    # --stop-at ends it at the designer's 3 registers; the time limit is a hang guard that is never reached
    done = piped(
        "cargobot",
        "sketch",
        "--level",
        "Cargo 101",
        "--stop-at",
        "3",
        "--time-limit",
        "600",
        "--jobs",
        "1",
        cwd=tmp_path,
    )
    lines = whole_lines(done.stdout)
    assert lines[0].startswith("Cargo 101: solved with 3 stars of 3") and lines[1] == "program: claw R claw"


def test_puyo_match_keeps_each_summary_line_whole(tmp_path: Path) -> None:
    done = piped(
        "puyo", "match", "--bots", "krieg,krieg", "--games", "2", "--max-turns", "8", "--jobs", "1", cwd=tmp_path
    )
    lines = whole_lines(done.stdout)
    assert any(line.startswith("Elo krieg - krieg: +0.0") and line.endswith("stronger 50.0%") for line in lines)
    whole_lines(done.stderr)


def test_puyo_versus(tmp_path: Path) -> None:
    done = piped(
        "puyo", "versus", "--bots", "krieg,krieg", "--games", "1", "--max-turns", "8", "--jobs", "1", cwd=tmp_path
    )
    lines = whole_lines(done.stdout)
    assert any("win rate" in line for line in lines) and any("draws 1" in line for line in lines)


def test_puyo_upi_answers_a_line_per_message(tmp_path: Path) -> None:
    done = piped("puyo", "upi", "--bot", "krieg", cwd=tmp_path, stdin="upi\nisready\nquit\n")
    assert whole_lines(done.stdout)[-2:] == ["upiok", "readyok"]


def test_puyo_play_refuses_a_pipe_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "puzzlebots", "puyo", "play"], input="", capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 2 and done.stdout == ""
    assert whole_lines(done.stderr) == ["error: puyo play needs an interactive terminal"]


def test_bench(tmp_path: Path) -> None:
    """Every benchmark's tables, whose long cells rich would cut at 80 columns (``Evaluato…``)."""
    done = piped("bench", "--quick", cwd=tmp_path)
    lines = whole_lines(done.stdout)
    assert any("benchmark: core" in line for line in lines) and any("speed-up 2 vs 1" in line for line in lines)
    assert any("Evaluator.run, one generation of random programs" in line for line in lines)


def test_serve_prints_its_address_on_a_line_of_its_own(tmp_path: Path) -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "puzzlebots", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    try:
        assert server.stdout is not None
        first = server.stdout.readline()  # blocks until the server is up and has said where
    finally:
        server.send_signal(signal.SIGTERM)
        rest, errors = server.communicate(timeout=60)
    whole_lines(first + rest)
    assert re.search(r"http://127\.0\.0\.1:\d+", first)
    whole_lines(errors)


#: every command, and the test above that runs it with its output in a pipe
PIPED = {
    "list": test_list,
    "stats GAME": test_stats_json_is_the_whole_output,
    "watch GAME": test_watch_and_replay_print_the_last_board_a_caption_and_json,
    "replay": test_watch_and_replay_print_the_last_board_a_caption_and_json,
    "train GAME": test_train,
    "versus GAME": test_versus,
    "bench": test_bench,
    "serve": test_serve_prints_its_address_on_a_line_of_its_own,
    "cargobot levels": test_cargobot_levels_keep_every_name_whole,
    "cargobot run": test_cargobot_run,
    "cargobot climb": test_cargobot_climb,
    "cargobot solve": test_cargobot_solve,
    "cargobot evolve": test_cargobot_evolve,
    "cargobot bench-gp": test_cargobot_bench_gp,
    "cargobot sketch": test_cargobot_sketch,
    "puyo match": test_puyo_match_keeps_each_summary_line_whole,
    "puyo versus": test_puyo_versus,
    "puyo upi": test_puyo_upi_answers_a_line_per_message,
    "puyo play": test_puyo_play_refuses_a_pipe_in_one_line,
}


def test_every_command_has_a_pipe_test() -> None:
    """A new command needs its own test here before it lands (a command made for each game, ``stats hatris``,
    is one command)."""
    import click

    from puzzlebots.cli import cli
    from puzzlebots.core.registry import game_names

    games = set(game_names())

    def paths(group: click.Group, prefix: str) -> list[str]:
        found = []
        with click.Context(group) as ctx:  # the groups load their commands lazily
            for name in group.list_commands(ctx):
                command, path = group.get_command(ctx, name), f"{prefix}{'GAME' if prefix and name in games else name}"
                found += paths(command, f"{path} ") if isinstance(command, click.Group) else [path]
        return found

    assert sorted(set(paths(cli, ""))) == sorted(PIPED)
