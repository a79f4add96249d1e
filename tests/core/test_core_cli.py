"""The command line on the toy game: stats files, bad input, replays, and train killed and resumed."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from puzzlebots.cli import cli


def run(*args):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_list_shows_registered_games():
    code, out = run("list")
    assert code == 0 and "cards" in out and "threshold" in out


def test_stats_json_identical_for_any_jobs(tmp_path):
    files = []
    for jobs in (1, 2, 1):
        path = tmp_path / f"s{len(files)}.json"
        code, _ = run(
            "stats",
            "cards",
            "--bot",
            "random",
            "--games",
            "12",
            "--seed",
            "5",
            "--jobs",
            str(jobs),
            "--json",
            str(path),
            "--quiet",
            "--cards",
            "30",
        )
        assert code == 0
        files.append(path.read_bytes())
    assert files[0] == files[1] == files[2]
    doc = json.loads(files[0])
    assert set(doc) >= {"game", "bot", "config", "games", "summary"}
    assert [g["seed"] for g in doc["games"]] == list(range(5, 17))
    assert doc["config"] == {"cards": 30}
    assert doc["summary"]["mean_score"] == pytest.approx(sum(g["score"] for g in doc["games"]) / 12)


def test_stats_resumes_an_interrupted_run(tmp_path):
    path = tmp_path / "s.json"
    code, _ = run("stats", "cards", "--bot", "random", "--games", "6", "--json", str(path), "--quiet")
    full = json.loads(path.read_text())
    # fake an interrupted run: the partial file has the header and two finished games, one with a marker
    head = {
        "game": "cards",
        "bot": "random",
        "config": {"cards": 20},
        "seeds": [0, 6],
        "weights": None,
        "max_actions": None,
    }
    kept = dict(full["games"][0], score=-1)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(head, sort_keys=True) + "\n" + json.dumps(kept) + "\n{broken")
    path.unlink()
    code, _ = run("stats", "cards", "--bot", "random", "--games", "6", "--json", str(path), "--quiet")
    doc = json.loads(path.read_text())
    assert code == 0 and not partial.exists()
    assert doc["games"][0]["score"] == -1  # taken from the partial file, not replayed
    assert doc["games"][1:] == full["games"][1:]


@pytest.mark.parametrize(
    "args, message",
    [
        (["stats", "nogame"], "unknown game 'nogame'"),
        (["stats", "cards", "--bot", "nobot", "--quiet"], "unknown bot 'nobot'"),
        (["stats", "cards", "--games", "-3"], "--games"),
        (["stats", "cards", "--games", "many"], "'many' is not a valid integer"),
        (["stats", "cards", "--cards", "0", "--quiet"], "error: cards: cards must be an integer in 1..1000, got 0"),
        (["watch", "cards", "--seed", "x"], "--seed"),
        (["train", "cards", "--generations", "0", "--out", "w.json"], "--generations"),
        (["replay", "missing.jsonl"], "cannot read replay"),
        (["versus", "cards"], "cards has no versus mode (games with one: puyo)"),  # a game without commands of its own
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], result.output


def test_versus_lists_only_games_with_a_versus_command():
    code, out = run("versus", "--help")
    commands = out.split("Commands:")[1].split()
    assert code == 0 and "puyo" in commands and "cards" not in commands and "hatris" not in commands


def test_weights_file_of_the_wrong_shape(tmp_path):
    bad = tmp_path / "w.json"
    bad.write_text(json.dumps({"weights": [1, 2, 3]}))
    code, out = run("stats", "cards", "--bot", "threshold", "--weights", str(bad), "--quiet")
    assert code == 2 and "has 3 weights, cards/threshold needs 2" in out
    bad.write_text("{not json")
    code, out = run("stats", "cards", "--bot", "threshold", "--weights", str(bad), "--quiet")
    assert code == 2 and "malformed JSON" in out


def test_watch_writes_a_replay_that_replays_and_detects_edits(tmp_path):
    rep = tmp_path / "r.jsonl"
    code, out = run("watch", "cards", "--bot", "random", "--seed", "9", "--delay", "0", "--replay", str(rep))
    assert code == 0 and rep.exists()
    code, out = run("replay", str(rep), "--no-show")
    assert code == 0 and "hashes match" in out
    lines = rep.read_text().splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith('{"a"'))
    lines[first] = '{"a": "take"}' if "skip" in lines[first] else '{"a": "skip"}'
    rep.write_text("\n".join(lines) + "\n")
    code, out = run("replay", str(rep), "--no-show")
    assert code == 2 and "diverges after action" in out
    rep.write_text("\n".join(lines[:-2]) + "\n")
    code, out = run("replay", str(rep))
    assert code == 2 and "truncated" in out


def test_train_killed_mid_run_resumes_from_its_last_generation(tmp_path):
    out = tmp_path / "w.json"
    base = [
        sys.executable,
        "-m",
        "puzzlebots",
        "train",
        "cards",
        "--bot",
        "threshold",
        "--games-per-eval",
        "10",
        "--generations",
        "1000",  # far more than it can play before the kill: the run is killed, never ends on its own
        "--out",
        str(out),
        "--jobs",
        "1",
        "--quiet",
        "--cards",
        "100",  # short games: a generation takes a tenth of a second
    ]
    proc = subprocess.Popen(base, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=os.environ.copy())
    ckpt = tmp_path / "w.json.ckpt"
    deadline = time.time() + 120
    while time.time() < deadline and not (
        out.exists() and json.loads(out.read_text())["trained_with"]["generations_done"] >= 2
    ):
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done = json.loads(out.read_text())["trained_with"]["generations_done"]
    assert ckpt.exists() and 2 <= done < 1000
    target = done + 2
    res = subprocess.run(
        [*base[: base.index("--generations") + 1], str(target), *base[base.index("--out") :], "--resume"],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        timeout=300,
    )
    assert res.returncode == 0, res.stderr
    doc = json.loads(out.read_text())
    assert doc["trained_with"]["generations_done"] == target
    assert [h["generation"] for h in doc["history"]] == list(range(1, target + 1))


def test_stats_and_train_plots_are_png_files(tmp_path):
    hist, curve = tmp_path / "h.png", tmp_path / "c.png"
    code, _ = run("stats", "cards", "--bot", "random", "--games", "20", "--plot", str(hist), "--quiet")
    assert code == 0
    code, _ = run(
        "train",
        "cards",
        "--games-per-eval",
        "3",
        "--generations",
        "3",
        "--out",
        str(tmp_path / "w.json"),
        "--jobs",
        "1",
        "--plot",
        str(curve),
        "--quiet",
        "--variants",
        "2",
        "--rounds",
        "1",
    )
    assert code == 0
    for png in (hist, curve):
        data = png.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
