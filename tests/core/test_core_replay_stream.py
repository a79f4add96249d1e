"""A replay is read as a stream and bounded: at most ``MAX_ACTIONS`` actions, lines of at most
``MAX_LINE_BYTES``, memory that does not grow with the file, a folder listing from a file's ends, and messages
that name the file by its name only."""

from __future__ import annotations

import json
import os
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

from puzzlebots.cli import cli
from puzzlebots.core import replay as replay_module
from puzzlebots.core.errors import InputError
from puzzlebots.core.replay import MAX_LINE_BYTES, check_replay, read_replay, replay_summary, write_replay
from puzzlebots.core.runner import play_episode


@pytest.fixture
def recorded(tmp_path: Path) -> tuple[Path, list[str]]:
    episode = play_episode("cards", "random", 7, {"cards": 40}, record=True, hash_every=3)
    path = tmp_path / "cards.jsonl"
    write_replay(path, episode, "1", 3)
    return path, path.read_text().splitlines()


def padded(path: Path, lines: list[str], pad: int) -> None:
    """The replay with every action line padded with ``pad`` spaces (the same JSON, a larger file)."""
    path.write_text(
        "\n".join(line[:-1] + " " * pad + "}" if line.startswith('{"a"') else line for line in lines) + "\n"
    )


def test_checking_and_re_running_hold_one_line_at_a_time(recorded: tuple[Path, list[str]]) -> None:
    path, lines = recorded
    padded(path, lines, MAX_LINE_BYTES - 64)  # 40 lines of almost 64 KiB: a 2.5 MB file
    assert path.stat().st_size > 40 * (MAX_LINE_BYTES - 64)
    tracemalloc.start()
    try:
        check = check_replay(read_replay(path))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert check.ok and check.actions == 40
    assert peak < 8 * MAX_LINE_BYTES, peak  # a few lines' worth, not the file


def test_more_actions_than_the_cap_are_refused(
    recorded: tuple[Path, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _ = recorded
    monkeypatch.setattr(replay_module, "MAX_ACTIONS", 39)
    with pytest.raises(InputError, match=r"^replay cards.jsonl holds more than 39 actions$"):
        read_replay(path)


def test_watch_stops_recording_at_the_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("puzzlebots.cli.commands.MAX_REPLAY_ACTIONS", 5)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["watch", "cards", "--bot", "random", "--delay", "0", "--replay", "r.jsonl"])
    assert result.exit_code == 0, result.output
    rep = read_replay(tmp_path / "r.jsonl")
    assert rep.length == 5 and rep.end["result"]["truncated"] is True


def test_a_line_over_the_cap_is_refused_without_quoting_it(recorded: tuple[Path, list[str]]) -> None:
    path, lines = recorded
    lines[3] = json.dumps({"a": ["take"] * MAX_LINE_BYTES})
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError) as caught:
        read_replay(path)
    assert str(caught.value) == f"replay cards.jsonl line 4 is longer than {MAX_LINE_BYTES:,} bytes"


@pytest.mark.parametrize("damage", ["not json", '{"a": 1, "b": 2}', '{"n": 99, "h": "x"}', "\xff"])
def test_messages_name_the_file_not_its_folder(recorded: tuple[Path, list[str]], damage: str) -> None:
    path, lines = recorded
    lines[4] = damage
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError) as caught:
        read_replay(path)
    message = str(caught.value)
    assert "cards.jsonl line 5" in message and str(path.parent) not in message and "\n" not in message


def test_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    for read in (read_replay, replay_summary):
        with pytest.raises(InputError, match="replay pipe.jsonl is not a regular file"):
            read(fifo)


def test_the_summary_reads_the_header_and_the_end_only(recorded: tuple[Path, list[str]]) -> None:
    path, lines = recorded
    lines[10] = "[" * 100  # a broken middle: the summary does not see it, opening the replay does
    path.write_text("\n".join(lines) + "\n")
    header, length = replay_summary(path)
    assert (header["game"], length) == ("cards", 40)
    with pytest.raises(InputError, match="line 11"):
        read_replay(path)
    path.write_text("\n".join(lines[:-1]) + "\n")
    with pytest.raises(InputError, match="truncated"):
        replay_summary(path)


def test_a_file_changed_after_its_check_is_refused_when_re_run(recorded: tuple[Path, list[str]]) -> None:
    path, lines = recorded
    rep = read_replay(path)
    path.write_text("\n".join(lines[:1] + lines[-1:]) + "\n")  # now without its actions
    with pytest.raises(InputError, match="end record says 40 actions, file has 0|changed while"):
        check_replay(rep)
