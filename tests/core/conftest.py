import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))


@pytest.fixture(autouse=True, scope="module")
def _toy_game():
    """Register the toy game here and, through the environment, in CLI subprocesses; undo it afterwards."""
    from puzzlebots.core.registry import get_game

    saved = {k: os.environ.get(k) for k in ("PUZZLEBOTS_GAMES", "PYTHONPATH")}
    os.environ["PUZZLEBOTS_GAMES"] = "toygame:GAME"
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in [str(HERE), saved["PYTHONPATH"]] if p)
    get_game.cache_clear()
    yield
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    get_game.cache_clear()
