"""The page in Debian's Chromium: it loads, a bot's game advances, a web config field takes effect, a key moves
the person's Puyo piece (Puyo's own tab), Cargo 101's solution runs to a win with its stars (Cargo-Bot's own tab),
a replay opens, and the toy game, registered only through the environment, is watched on its web view.
Each test leaves a screenshot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from serving import PAGE_GUARD

from puzzlebots.core.registry import get_game
from puzzlebots.core.replay import write_replay
from puzzlebots.core.runner import play_episode

TIMEOUT = PAGE_GUARD  # a hang guard: every wait ends at its event


def test_page_loads_and_lists_games(page: Any) -> None:
    rows = page.locator("#games-table tbody tr")
    names = {rows.nth(i).get_attribute("data-game") for i in range(rows.count())}
    assert {"hatris", "yoshis_cookie", "puyo", "cargobot"} <= names
    assert page.locator("#conn").inner_text() == "connected"
    tabs = page.locator("nav button")
    assert [tabs.nth(i).inner_text() for i in range(tabs.count())] == [
        "Games",
        "Watch a bot",
        "Cargo-Bot",
        "Play Puyo",
        "Replays",  # a tab for each game with page controls
    ]


def test_cargo_101_solution_runs_to_a_win_with_stars(page: Any) -> None:
    page.click("nav button[data-tab='cargobot']")
    page.wait_for_function("document.querySelectorAll('#cargo-level option').length >= 40", timeout=TIMEOUT)
    page.select_option("#cargo-level", "Cargo 101")
    page.click("#tab-cargobot summary")  # the program as text
    page.fill("#cargo-program", "claw R claw")
    page.click("#cargo-load")
    start = page.locator("#claw").get_attribute("data-pos")
    page.click("#cargo-run")
    page.wait_for_selector("#cargo-status[data-outcome='solved']", timeout=TIMEOUT)
    assert start == "0" and page.locator("#claw").get_attribute("data-pos") == "1"
    assert page.locator("#cargo-stars").inner_text() == "★★★"
    assert page.locator("#cargo-stars").get_attribute("data-stars") == "3"
    crates = page.locator("#cargo-board [data-role='crate']")
    assert crates.count() == 1 and crates.first.get_attribute("data-col") == "1"


def piece_columns(page: Any) -> list[int]:
    cells = page.locator("#versus-board svg").first.locator("[data-role='piece']")
    return sorted(int(cells.nth(i).get_attribute("data-col")) for i in range(cells.count()))


def test_key_press_moves_the_persons_puyo_piece(page: Any) -> None:
    page.click("nav button[data-tab='puyo']")
    page.select_option("#versus-bot", "krieg")
    page.select_option("#versus-mode", "turn")  # the pair hovers until dropped
    page.click("#versus-start")
    page.wait_for_selector("#versus-board svg [data-role='piece']", timeout=TIMEOUT)
    assert piece_columns(page) == [2, 2]  # column 3 (index 2), child above the axis
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(
        "document.querySelector(\"#versus-board svg [data-role='piece']\").dataset.col === '1'", timeout=TIMEOUT
    )
    assert piece_columns(page) == [1, 1]
    page.keyboard.press("ArrowUp")  # rotate: the child goes right of the axis
    page.wait_for_function(
        "new Set([...document.querySelectorAll(\"#versus-board svg:first-child [data-role='piece']\")]"
        ".map(e => e.dataset.col)).size === 2",
        timeout=TIMEOUT,
    )
    assert piece_columns(page) == [1, 2]
    page.keyboard.press("ArrowDown")  # drop: the person's field gets two puyos, the AI answers
    page.wait_for_function("document.getElementById('versus-board').dataset.turn === '1'", timeout=TIMEOUT)
    person = page.locator("#versus-board svg").first.locator("[data-role='cell']")
    assert person.count() == 2
    assert page.locator("#versus-board svg").nth(1).locator("[data-role='cell']").count() == 2


@pytest.mark.parametrize(("game", "bot"), [("puyo", "krieg"), ("yoshis_cookie", "greedy"), ("hatris", "searcher")])
def test_a_bots_game_advances_on_screen(page: Any, game: str, bot: str) -> None:
    page.select_option("#watch-game", game)
    page.select_option("#watch-bot", bot)
    page.fill("#watch-seed", "4")
    page.click("#watch-start")
    page.wait_for_selector("#play-board svg", timeout=TIMEOUT)
    first = page.locator("#play-board").inner_html()
    page.wait_for_function("Number(document.getElementById('play-step-count').dataset.step) >= 4", timeout=TIMEOUT)
    # the board drawn changes (waited on, not sampled: a decision may leave the board as it was, a Yoshi's Cookie
    # 'B', and how many decisions pass before the first drawing depends on the machine's speed)
    page.wait_for_function(
        "(first) => document.getElementById('play-board').innerHTML !== first", arg=first, timeout=TIMEOUT
    )
    page.click("#play-pause")  # pause: the step count stops
    page.wait_for_function("!document.getElementById('player').dataset.busy", timeout=TIMEOUT)  # none in flight
    step = page.locator("#play-step-count").get_attribute("data-step")
    page.wait_for_timeout(800)  # no step may come: a busier machine only makes this wait longer than needed
    assert page.locator("#play-step-count").get_attribute("data-step") == step
    assert page.locator("#play-board [data-role='cell']").count() > 0
    page.click("#play-step")  # single step
    page.wait_for_function(
        f"document.getElementById('play-step-count').dataset.step === '{int(step) + 1}'", timeout=TIMEOUT
    )


def test_a_replay_opens(page: Any, replays_dir: Path) -> None:
    episode = play_episode("puyo", "krieg", 9, {"pairs": 12}, record=True)
    write_replay(replays_dir / "puyo-krieg-9.jsonl", episode, get_game("puyo").rules_version, 10)
    page.click("nav button[data-tab='replays']")
    page.click("a[data-replay='puyo-krieg-9.jsonl']", timeout=TIMEOUT)
    page.wait_for_selector("#play-board svg", timeout=TIMEOUT)
    assert page.locator("#play-step-count").inner_text() == "step 0 / 12"
    page.click("#play-pause")
    page.wait_for_function("document.getElementById('play-state').textContent === 'finished'", timeout=TIMEOUT)
    assert page.locator("#play-step-count").inner_text() == "step 12 / 12"
    score = page.locator("#play-result tr[data-key='score'] td").inner_text()
    assert score == f"{episode.result['score']:,}"  # the figures are a panel, not JSON


def test_a_web_config_field_sets_the_game(page: Any) -> None:
    page.select_option("#watch-game", "puyo")
    page.select_option("#watch-bot", "krieg")
    assert page.locator("#watch-config-pairs").get_attribute("max") == "500"  # the web bound
    assert page.locator("#watch-config-beam_width").count() == 0  # only the beam bot reads it
    page.fill("#watch-config-pairs", "3")
    page.click("#watch-start")
    page.wait_for_function("document.getElementById('play-state').textContent === 'finished'", timeout=TIMEOUT)
    assert page.locator("#play-step-count").inner_text() == "step 3"
    page.select_option("#watch-bot", "beam")
    assert page.locator("#watch-config-beam_width").count() == 1


def test_the_toy_games_web_view_is_watched(toy_page: Any) -> None:
    page = toy_page
    page.select_option("#watch-game", "cards")
    page.select_option("#watch-bot", "threshold")
    page.fill("#watch-config-cards", "12")
    page.click("#watch-start")
    page.wait_for_function("document.getElementById('play-state').textContent === 'finished'", timeout=TIMEOUT)
    assert page.locator("#play-step-count").inner_text() == "step 12"
    assert page.locator("#play-board").get_attribute("data-kind") == "grid"
    assert page.locator("#play-board svg [data-role='cell']").count() == 12  # one per card
    assert page.locator("#play-board svg text").first.inner_html().startswith("score ")
