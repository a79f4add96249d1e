"""A fast first run: ``puzzlebots --help`` and ``puzzlebots list`` load no numba kernels (numba's
import alone takes about a second), no numpy, no process pool (``core.batch``) and no ``importlib.metadata`` (the
registry reads the entry points itself), checked by the modules a real process has loaded, not by a clock."""

from __future__ import annotations

import subprocess
import sys

import pytest

PROBE = """
import runpy, sys
sys.argv = ["puzzlebots", *sys.argv[1:]]
try:
    runpy.run_module("puzzlebots", run_name="__main__")
except SystemExit as exc:
    assert exc.code in (0, None), exc.code
heavy = ["numba", "numpy", "concurrent.futures.process", "puzzlebots.core.batch", "importlib.metadata"]
print(sorted(m for m in sys.modules if m in heavy or m.startswith("puzzlebots.games.") and ".kernels" in m),
      file=sys.stderr)
"""


@pytest.mark.parametrize("args", [["--help"], ["list"], ["stats", "--help"], ["watch", "--help"]], ids=" ".join)
def test_help_and_list_import_no_kernels(args: list[str]) -> None:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines()[-1] == "[]", done.stderr
