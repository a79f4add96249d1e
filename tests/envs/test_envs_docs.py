"""The examples in docs/envs.md run as written (the vector env and the training loop)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "envs.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)


def test_the_doc_has_both_examples() -> None:
    assert len(BLOCKS) == 2
    assert "make_vec" in BLOCKS[0] and "weights +=" in BLOCKS[1]


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_doc_example_runs(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(BLOCKS[index], f"{DOC.name} example {index + 1}", "exec"), {"__name__": "__doc_example__"})
    assert capsys.readouterr().out.strip()
