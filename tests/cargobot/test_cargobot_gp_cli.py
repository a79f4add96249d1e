"""``cargobot evolve`` (the GP) and ``bench-gp``: wins replay through ``cargobot run`` in a real process, runs are
the same for any worker count, a suite resumes from its partial file, bad input is one error line before any work."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from puzzlebots.cli.app import cli


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["cargobot", *args])
    return result.exit_code, result.stdout, result.stderr


def evolve_json(*args: str) -> dict:
    code, out, err = invoke("evolve", *args, "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("semantics", ["game", "vaguery"])
def test_an_evolved_win_replays_through_cargobot_run(semantics: str) -> None:
    found = evolve_json(
        "--level", "Re-Curses", "--seed", "1", "--population", "100", "--evaluations", "5000", "--semantics", semantics
    )
    assert found["solved"] and found["evaluations"] <= 5000
    replay = subprocess.run(
        [
            sys.executable,
            "-m",
            "puzzlebots",
            "cargobot",
            "run",
            "--level",
            "Re-Curses",
            "--program",
            found["program"],
            "--semantics",
            semantics,
            "--step-limit",
            str(found["step_limit"]),
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    assert json.loads(replay.stdout)["outcome"] == "solved"


def test_evolve_without_recall_runs_every_child_and_finds_the_same_program() -> None:
    args = ("--level", "The Swap", "--seed", "0", "--evaluations", "20000")
    recalled, every = evolve_json(*args), evolve_json(*args, "--no-recall")
    assert recalled["solved"] and recalled["program"] == every["program"]
    assert recalled["generations"] == every["generations"] and every["recalled"] == 0 < recalled["recalled"]
    assert (recalled["evaluations"], every["evaluations"]) == (6_740, 15_542)


def test_evolve_is_the_same_with_one_or_two_worker_processes() -> None:
    args = ("--level", "Inverter", "--seed", "5", "--population", "60", "--evaluations", "600")
    assert evolve_json(*args, "--jobs", "1") == evolve_json(*args, "--jobs", "2")


def test_evolve_on_a_family_reports_its_test_boards() -> None:
    found = evolve_json("--level", "Re-Curses", "--family", "--population", "100", "--evaluations", "5000")
    assert found["test_boards"] == 20
    assert found["test_solved"] is None if not found["solved"] else 0 <= found["test_solved"] <= 20


def bench(tmp_path: Path, name: str, *args: str) -> dict:
    code, out, err = invoke(
        "bench-gp",
        "--levels",
        "Cargo 101,Inverter",
        "--methods",
        "random,gp-lexicase,climb",
        "--runs",
        "2",
        "--evaluations",
        "400",
        "--population",
        "40",
        "--json",
        str(tmp_path / name),
        *args,
    )
    assert code == 0, err
    assert "levels solved in at least half the runs" in out
    return json.loads((tmp_path / name).read_text())


def test_bench_gp_is_the_same_for_one_or_two_jobs_and_resumes(tmp_path: Path) -> None:
    one = bench(tmp_path, "one.json", "--jobs", "1", "--plot", str(tmp_path / "curve.png"))
    assert bench(tmp_path, "two.json", "--jobs", "2")["runs_done"] == one["runs_done"]
    assert (tmp_path / "curve.png").read_bytes()[:4] == b"\x89PNG" and not (tmp_path / "one.json.partial").exists()
    assert len(one["runs_done"]) == 12 and len(one["table"]) == 6
    head = {k: v for k, v in one.items() if k not in ("runs_done", "table")}
    kept = [json.dumps(head, sort_keys=True), *(json.dumps(r, sort_keys=True) for r in one["runs_done"][:5])]
    (tmp_path / "again.json.partial").write_text("\n".join(kept) + "\n")
    assert bench(tmp_path, "again.json", "--jobs", "1")["runs_done"] == one["runs_done"]


def test_a_partial_file_of_other_arguments_is_refused(tmp_path: Path) -> None:
    (tmp_path / "x.json.partial").write_text(json.dumps({"command": "bench-gp"}) + "\n")
    code, _, err = invoke(
        "bench-gp", "--levels", "Cargo 101", "--runs", "1", "--evaluations", "500", "--json", str(tmp_path / "x.json")
    )
    assert code == 2 and "other arguments" in err


@pytest.fixture
def no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    def started(*args: object, **kwargs: object) -> None:
        raise AssertionError("work started before the error")

    for name in ("run_gp", "run_ga", "run_tasks"):
        monkeypatch.setattr(f"puzzlebots.games.cargobot.gp_cli.{name}", started)


@pytest.mark.parametrize(
    "args, message",
    [
        (("evolve", "--level", "nope"), "unknown level"),
        (("evolve", "--level", "Mirror", "--population", "10", "--evaluations", "5"), "budget"),
        (("evolve", "--level", "Mirror", "--population", "10", "--elite", "10"), "elite"),
        (("evolve", "--level", "Mirror", "--tournament", "600"), "tournament size"),
        (("evolve", "--level", "Mirror", "--crossover", "0", "--mutation", "0"), "no child"),
        (("evolve", "--level", "Mirror", "--family"), "has no family"),
        (("evolve", "--level", "Mirror", "--step-limit", "0"), "step-limit"),
        (("evolve", "--level", "Mirror", "--method", "ga", "--selection", "tournament"), "for --method gp"),
        (("evolve", "--level", "Mirror", "--method", "ga", "--condition", "0.5"), "for --method gp"),
        (("evolve", "--level", "Mirror", "--method", "ga", "--no-board-case"), "for --method gp"),
        (("evolve", "--level", "Mirror", "--method", "ga", "--no-recall"), "for --method gp"),
        (("evolve", "--level", "Mirror", "--condition", "1.5"), "condition"),
        (("evolve", "--level", "Mirror", "--condition", "nan"), "condition"),
        (("evolve", "--level", "Mirror", "--method", "ga", "--evaluations", "5"), "budget"),
        (("bench-gp", "--methods", "random,nope"), "unknown method"),
        (("bench-gp", "--levels", "Mirror,nope"), "unknown level"),
        (("bench-gp", "--evaluations", "100"), "budget"),
        (("bench-gp", "--families", "--methods", "climb"), "leave climb out"),
        (("bench-gp", "--families", "--levels", "Mirror"), "has no family"),
        (("bench-gp", "--runs", "0"), "runs"),
        (("bench-gp", "--plot", "out.xyz"), "format"),
    ],
)
@pytest.mark.usefixtures("no_work")
def test_bad_input_is_one_error_line_before_any_work(args: tuple[str, ...], message: str) -> None:
    code, out, err = invoke(*args)
    lines = [line for line in (out + err).splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], out + err
