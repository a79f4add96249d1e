"""The replay list in the browser: a replay it cannot read shows its error by the file's name only (never
the server's path), and its row, however long the name and the error, stays inside a narrow page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from serving import PAGE_GUARD

TIMEOUT = PAGE_GUARD  # a hang guard: every wait ends at its event
WIDTH = 420


def test_a_bad_replay_row_names_the_file_only_and_fits_the_page(page: Any, replays_dir: Path) -> None:
    name = "a-replay-whose-name-goes-on-" + "and-on-" * 25 + "end.jsonl"
    (replays_dir / name).write_text('{"type": "header", "format": 1}\n' + "x" * 5000 + "\n")
    try:
        page.set_viewport_size({"width": WIDTH, "height": 900})
        page.click("nav button[data-tab='replays']")
        row = page.locator("#replay-table tr", has=page.locator(f"a[data-replay='{name}']"))
        error = row.locator("td.replay-error")
        error.wait_for(timeout=TIMEOUT)
        text = error.inner_text()
        assert name in text and str(replays_dir) not in text and "/" not in text, text
        assert row.locator("td").count() == 2  # the name, and the error across the other five columns
        assert page.evaluate("document.scrollingElement.scrollWidth") <= WIDTH, "the row overflows the page"
        box = row.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH
    finally:
        (replays_dir / name).unlink()
