"""The registry's own reader of the ``puzzlebots.games`` entry points against ``importlib.metadata``'s."""

from __future__ import annotations

import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from puzzlebots.core import registry


def _both(group: str) -> tuple[dict[str, str], dict[str, str]]:
    registry._entry_points.cache_clear()
    try:
        return registry._entry_points(group), {ep.name: ep.value for ep in entry_points(group=group)}
    finally:
        registry._entry_points.cache_clear()


def test_the_installed_games_are_what_importlib_metadata_lists() -> None:
    ours, theirs = _both(registry.GROUP)
    assert ours == theirs and {"cargobot", "hatris", "puyo", "yoshis_cookie"} <= set(ours)


def test_distributions_on_the_path_first_found_first_and_other_groups_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A distribution found again further along the path is skipped; another group's entries are not ours."""
    first, second = tmp_path / "first", tmp_path / "second"
    for folder, entry in ((first, "toy = first_toy:GAME"), (second, "toy = second_toy:GAME\nmore = more:G")):
        info = folder / "Toy_Games-0.1.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-games\nVersion: 0.1\n")
        (info / "entry_points.txt").write_text(f"[console_scripts]\nx = y:z\n\n[{registry.GROUP}]\n{entry}\n")
    monkeypatch.setattr(sys, "path", [str(first), str(second), *sys.path])
    ours, theirs = _both(registry.GROUP)
    assert ours == theirs and ours["toy"] == "first_toy:GAME" and "more" not in ours and "x" not in ours


def test_an_entry_point_value_names_a_module_attribute() -> None:
    assert registry._load("os.path:join") is __import__("os").path.join
    assert registry._load("puzzlebots.core.registry:_entry_points.cache_clear [extra]") is not None
