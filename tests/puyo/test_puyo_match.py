"""``puzzlebots puyo match``: the SPRT stops early on a clearly stronger bot, a run
killed by ``kill -9`` resumes to the same file, ``--jobs 1`` and ``--jobs 2`` play the same games, bad input is
refused with one line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from puzzlebots.cli.app import cli
from puzzlebots.core.registry import get_game

#: a small builder (a few hundred ms a move) against KRIEG: builder wins all but a few games
SMALL_BUILDER = ["--builder-width", "20", "--builder-depth", "4", "--builder-futures", "2"]
#: two quick bots with short games: krieg3 beats krieg some of the time, most games end drawn at 40 turns
QUICK = ["--bots", "krieg3,krieg", "--max-turns", "40", "--quiet"]


def match(tmp_path: Path, *args: str) -> tuple[int, str]:
    """Run ``puzzlebots puyo match ARGS`` in this process (one worker only: ``builder``'s OpenMP threads forbid a
    fork afterwards, so runs with workers go through :func:`run`)."""
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = CliRunner().invoke(cli, ["puyo", "match", *args])
    finally:
        os.chdir(here)
    return result.exit_code, result.output


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``puzzlebots puyo match ARGS`` as a new process in ``cwd``."""
    return subprocess.run(
        [sys.executable, "-m", "puzzlebots", "puyo", "match", *args], cwd=cwd, capture_output=True, text=True
    )


def test_sprt_stops_early_on_a_clearly_stronger_bot(tmp_path: Path) -> None:
    args = [
        "--bots",
        "builder,krieg",
        "--games",
        "40",
        "--sprt",
        "0,400",
        "--seed",
        "100000",
        *SMALL_BUILDER,
        "--quiet",
    ]
    code, out = match(tmp_path, *args, "--jobs", "1", "--json", "one.json")
    assert code == 0, out
    doc = json.loads((tmp_path / "one.json").read_text())
    summary = doc["summary"]
    assert summary["sprt"]["decision"] == "H1" and summary["sprt"]["llr"] >= summary["sprt"]["upper"]
    assert summary["pairs"] < 20 and len(doc["pairs"]) == summary["pairs"]  # stopped before --games
    assert summary["wins"][0] > summary["wins"][1] and summary["elo_low"] > 0
    assert "H1 accepted (Elo 400)" in out and "Elo builder - krieg: +" in out
    assert not (tmp_path / "one.json.partial").exists()
    # two workers finish pairs out of order and past the deciding one: the test still stops at the same pair
    two = run(tmp_path, *args, "--jobs", "2", "--json", "two.json")
    assert two.returncode == 0, two.stderr
    assert (tmp_path / "two.json").read_bytes() == (tmp_path / "one.json").read_bytes()


def test_the_same_seeds_give_the_same_games_for_any_jobs(tmp_path: Path) -> None:
    for jobs in ("1", "2"):
        done = run(tmp_path, *QUICK, "--games", "8", "--seed", "7", "--jobs", jobs, "--json", f"{jobs}.json")
        assert done.returncode == 0, done.stderr
    one, two = ((tmp_path / f"{j}.json").read_bytes() for j in ("1", "2"))
    assert one == two
    doc = json.loads(one)
    assert [p["seed"] for p in doc["pairs"]] == [7, 8, 9, 10]
    assert doc["summary"]["games"] == 8 and "sprt" not in doc["summary"] and doc["sprt"] is None


def lines(path: Path) -> int:
    try:
        return len([line for line in path.read_text().splitlines() if line.endswith("}")])
    except FileNotFoundError:
        return 0


def test_a_run_killed_by_kill_9_resumes_to_the_same_file(tmp_path: Path) -> None:
    args = [*QUICK, "--games", "16", "--seed", "300", "--jobs", "2"]  # killed with six of its eight pairs to play
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    whole.mkdir()
    cut.mkdir()
    partial = cut / "m.json.partial"
    proc = subprocess.Popen(
        [sys.executable, "-m", "puzzlebots", "puyo", "match", *args, "--json", "m.json"],
        cwd=cut,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 300  # a hang guard: the wait ends as soon as two pairs are saved
        while time.monotonic() < deadline and lines(partial) < 3:  # the head and two pairs
            assert proc.poll() is None, "the run ended before it could be killed"
            time.sleep(0.05)
        assert lines(partial) >= 3, "no pair finished in time"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    kept = lines(partial) - 1
    assert 2 <= kept < 8 and not (cut / "m.json").exists()
    resumed = run(cut, *args, "--json", "m.json")
    assert resumed.returncode == 0, resumed.stderr
    assert not partial.exists()
    fresh = run(whole, *args, "--json", "m.json")
    assert fresh.returncode == 0, fresh.stderr
    assert (cut / "m.json").read_bytes() == (whole / "m.json").read_bytes()
    assert resumed.stdout == fresh.stdout  # the same table


def test_resume_takes_the_pairs_of_the_partial_file_and_refuses_a_bad_one(tmp_path: Path) -> None:
    code, out = match(tmp_path, *QUICK, "--games", "4", "--seed", "5", "--jobs", "1", "--json", "m.json")
    assert code == 0, out
    doc = json.loads((tmp_path / "m.json").read_text())
    head = {k: v for k, v in doc.items() if k not in ("pairs", "summary")}
    marked = json.loads(json.dumps(doc["pairs"][1]))
    marked["games"][0]["turns"] = -7  # a pair only the partial file holds
    cut = '{"seed": 5, "ga'  # a line cut short by a kill (no newline): played again
    (tmp_path / "m.json.partial").write_text(
        "\n".join([json.dumps(head, sort_keys=True), json.dumps(marked)]) + "\n" + cut
    )
    code, out = match(tmp_path, *QUICK, "--games", "4", "--seed", "5", "--jobs", "1", "--json", "m.json")
    assert code == 0, out
    again = json.loads((tmp_path / "m.json").read_text())
    assert again["pairs"][1]["games"][0]["turns"] == -7  # resumed from the partial file
    assert again["pairs"][0] == doc["pairs"][0]  # the pair of seed 5 was played again
    # the run's record names only the keys its two bots read: another bot's setting leaves it the same run
    assert "builder_width" not in head["config"] and "k3_legality" in head["config"]
    (tmp_path / "m.json.partial").write_text(json.dumps(head, sort_keys=True) + "\n" + json.dumps(marked) + "\n")
    code, out = match(
        tmp_path, *QUICK, "--games", "4", "--seed", "5", "--jobs", "1", "--json", "m.json", "--builder-width", "7"
    )
    assert code == 0, out
    assert json.loads((tmp_path / "m.json").read_text())["pairs"][1]["games"][0]["turns"] == -7
    # a malformed pair is refused before any game, and the file kept as it is
    junk = json.dumps({"seed": 5, "games": [{"winner": 3}, {"winner": 0}]})
    (tmp_path / "m.json.partial").write_text(json.dumps(head, sort_keys=True) + "\n" + junk + "\n")
    code, out = match(tmp_path, *QUICK, "--games", "4", "--seed", "5", "--jobs", "1", "--json", "m.json")
    assert code == 2 and out.startswith("error: partial file m.json.partial line 2: not a pair"), out
    assert (tmp_path / "m.json.partial").read_text().endswith(junk + "\n")
    # a partial file of other arguments stops the run and stays for the run it belongs to
    (tmp_path / "m.json.partial").write_text(json.dumps({**head, "max_turns": 41}) + "\n")
    code, out = match(tmp_path, *QUICK, "--games", "4", "--seed", "5", "--jobs", "1", "--json", "m.json")
    assert code == 2 and out.startswith("error: m.json.partial holds a run with other arguments"), out
    assert (tmp_path / "m.json.partial").exists()


#: the smallest duelist, 40 turns: thresholds that fire anything (FIRE_ALL) change these games, so a seat that
#: reads them shows
TINY_DUELIST = ["--duelist-width", "1", "--duelist-depth", "1", "--duelist-futures", "1", "--max-turns", "40"]
SHIPPED = {p.name: p.default for p in get_game("puyo").tuned_parameters("duelist")}
FIRE_ALL = SHIPPED | {"duelist_fire_links": 1, "duelist_crush": 1, "duelist_defend": 1, "duelist_bury_rows": 1}
FIRE_ALL |= {"duelist_harass": 1, "duelist_harass_links": 1}


def settings_file(path: Path, values: dict[str, Any]) -> str:
    """A settings file as ``train --opponent`` writes it (whole numbers as floats, names in the tuned order)."""
    path.write_text(
        json.dumps(
            {"game": "puyo", "bot": "duelist", "names": list(values), "weights": [float(v) for v in values.values()]}
        )
    )
    return str(path)


def test_tuned_settings_play_in_bot_as_seat_only(tmp_path: Path) -> None:
    """``--tuned``: bot A plays the file's thresholds in both seats, B the config's. The shipped values in the file
    play the match without it; thresholds that fire anything play other games, and the file records them."""
    args = ["--bots", "duelist,duelist", "--games", "4", "--seed", "3", *TINY_DUELIST, "--jobs", "1", "--quiet"]
    plain = settings_file(tmp_path / "shipped.json", SHIPPED)
    eager = settings_file(tmp_path / "eager.json", FIRE_ALL)
    runs, said = {}, {}
    for name, extra in [("none", []), ("shipped", ["--tuned", plain]), ("eager", ["--tuned", eager])]:
        code, said[name] = match(tmp_path, *args, *extra, "--json", f"{name}.json")
        assert code == 0, said[name]
        runs[name] = json.loads((tmp_path / f"{name}.json").read_text())
    assert runs["shipped"]["pairs"] == runs["none"]["pairs"] != runs["eager"]["pairs"]
    assert runs["eager"]["sides"] == [FIRE_ALL, {}] and "sides" not in runs["none"]
    # the tables tell the two apart; the document's bots are the bots that played
    assert (
        runs["eager"]["summary"]["bots"] == ["duelist (tuned)", "duelist"] and "Elo duelist (tuned) - " in said["eager"]
    )
    assert runs["eager"]["bots"] == runs["none"]["summary"]["bots"] == ["duelist", "duelist"]


@pytest.mark.parametrize(
    ("values", "says"),
    [
        ({"duelist_fire_links": 12}, "must name"),
        (SHIPPED | {"duelist_defend": 6.5}, "whole number"),
        (SHIPPED | {"duelist_defend": 0}, "duelist_defend must be"),
    ],
)
def test_a_bad_settings_file_is_refused_before_any_game(tmp_path: Path, values: dict[str, Any], says: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"names": list(values), "weights": list(values.values())}))
    code, out = match(tmp_path, "--bots", "duelist,krieg3", "--games", "2", "--tuned", str(path), "--json", "o.json")
    assert code == 2 and says in out and "Traceback" not in out, out
    code, out = match(tmp_path, "--bots", "krieg3,duelist", "--games", "2", "--tuned", settings_file(path, SHIPPED))
    assert code == 2 and "bot A, krieg3, has no settings" in out, out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json"]  # no game played, no file written


@pytest.mark.parametrize(
    "args",
    [
        ["--bots", "builder"],
        ["--bots", "builder,nobody"],
        ["--bots", ",krieg"],
        ["--games", "3"],
        ["--games", "0"],
        ["--games", "many"],
        ["--sprt", "5"],
        ["--sprt", "a,b"],
        ["--sprt", "0,10,20"],
        ["--sprt", "10,0"],
        ["--sprt", "5,5"],
        ["--sprt", "nan,5"],
        ["--sprt", "0,inf"],
        ["--sprt", "0,5000"],
        ["--alpha", "0.1"],
        ["--sprt", "0,10", "--alpha", "0.5"],
        ["--sprt", "0,10", "--beta", "0"],
        ["--ms", "0"],
        ["--pairs", "10"],
        ["--builder-width", "0"],
        ["--jobs", "0"],
        ["--json", "."],
    ],
)
def test_bad_arguments_give_one_error_line(tmp_path: Path, args: list[str]) -> None:
    code, out = match(tmp_path, "--games", "2", *args)
    assert code == 2, out
    assert "Traceback" not in out
    assert len([line for line in out.splitlines() if line.startswith("error: ")]) == 1, out
    assert not list(tmp_path.iterdir())  # no game played, no file written
