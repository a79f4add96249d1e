"""The ama match script (benchmarks/puyo_vs_ama.py) without ama: its one-line refusals, as a real process, before
it builds or plays anything. A match against a real ama checkout is run by hand (docs/puyo.md, "Against ama"):
the suite has no checkout of it."""

import importlib.util
import os
import subprocess
import sys

import pytest

from puzzlebots.cli.commands import benchmarks_dir
from puzzlebots.core.errors import PuzzlebotsError

SCRIPT = benchmarks_dir() / "puyo_vs_ama.py"
SPEC = importlib.util.spec_from_file_location("puyo_vs_ama", SCRIPT)
assert SPEC is not None and SPEC.loader is not None
script = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(script)


def fake_checkout(root, leave_out=()):
    """A folder with every file the script looks for (empty: nothing gets far enough to read them)."""
    for name in script.NEEDED:
        if name not in leave_out:
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("")
    return root


def refused(args, tmp_path, path=None):
    """Run the script; its stderr, after checking it refused in one ``error:`` line with exit code 2 and built
    nothing."""
    env = dict(os.environ)
    if path is not None:
        env["PATH"] = str(path)
    cache = tmp_path / "cache"
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), *args, "--build-dir", str(cache)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("error: ") and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stdout == "" and not cache.exists()
    return proc.stderr


def test_no_checkout_is_refused(tmp_path):
    assert "--ama" in refused(["--ama", str(tmp_path / "nowhere")], tmp_path)


def test_a_checkout_without_its_files_is_refused(tmp_path):
    ama = fake_checkout(tmp_path / "ama", leave_out=("ai/ai.cpp",))
    err = refused(["--ama", str(ama)], tmp_path)
    assert "no ai/ai.cpp there" in err


def test_a_symlinked_file_is_refused(tmp_path):
    ama = fake_checkout(tmp_path / "ama", leave_out=("config.json",))
    (ama / "config.json").symlink_to(tmp_path / "elsewhere.json")
    assert "no config.json there" in refused(["--ama", str(ama)], tmp_path)


def test_no_compiler_is_refused(tmp_path):
    ama = fake_checkout(tmp_path / "ama")
    empty = tmp_path / "bin"
    empty.mkdir()
    err = refused(["--ama", str(ama)], tmp_path, path=empty)
    assert "no C++ compiler (g++ or clang++) is on PATH" in err


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--games", "3"], "--games takes an even number"),
        (["--bot", "nobody"], "unknown bot"),
        (["--bot", "upi:./x"], "--bot takes one of our bots"),
        (["--ms", "0"], "--ms takes"),
    ],
)
def test_bad_options_are_refused(tmp_path, args, words):
    """Options are checked before the compiler is looked for: with no compiler on PATH the option is named."""
    ama = fake_checkout(tmp_path / "ama")
    empty = tmp_path / "bin"
    empty.mkdir()
    assert words in refused(["--ama", str(ama), *args], tmp_path, path=empty)


def test_a_cpu_without_sse42_is_refused_and_bmi2_turns_pext_on():
    with pytest.raises(PuzzlebotsError, match="SSE4.2"):
        script.flags_for({"sse2", "avx"})
    assert "-DPEXT" in script.flags_for({"sse4_2", "bmi2"})
    assert "-DPEXT" not in script.flags_for({"sse4_2"})


def test_think_times_reads_the_driver_log(tmp_path):
    log = tmp_path / "think.log"
    log.write_text("".join(f"{t}\n" for t in range(1, 101)))
    line = script.think_times(log)
    assert "100 moves" in line and "mean 50 ms" in line and "95th percentile 96 ms" in line and "max 100" in line
    assert script.think_times(tmp_path / "none.log") == "ama think time: no move logged"
