"""The Play Puyo tab on the frame clock in Chromium: a person's game against the AI where the person's chain
animates link by link at the documented pace (read from the frame counters the page shows, not the wall
clock), the garbage it sends waits in the AI's tray and then falls on the AI's field, and margin time shows
the target points. Screenshots go to the folder ``PUZZLEBOTS_SCREENSHOTS`` names (``make screenshots`` sets
docs/img); a test run takes none."""

from __future__ import annotations

from typing import Any

import pytest
from serving import PAGE_GUARD, screenshot

from puzzlebots.core.registry import get_game
from puzzlebots.core.seeds import bot_seed

TIMEOUT = PAGE_GUARD  # a hang guard: every wait ends at its event
AI = "krieg3"


def quiet(seed: int, pairs: int) -> bool:
    """Whether the AI, alone, pops nothing with its first ``pairs`` pairs (so it sends no garbage that would
    make the person's field depend on the clocks)."""
    from puzzlebots.games.puyo.engine import placement_of
    from puzzlebots.games.puyo.frame_versus import FrameVersus

    game = get_game("puyo")
    config = game.check_config({})
    side = FrameVersus(seed, config).players[1]
    ai = game.make_bot(AI, config, None, bot_seed(seed))
    for _ in range(pairs):
        if side.field.play(side.current(), placement_of(ai.act(side))).links or side.field.is_dead():
            return False
        side.index += 1
    return True


#: the person's placements: a short beam search told to fire as soon as a chain of the asked links is in reach, so
#: that the chain comes after a few pairs (KRIEG3 builds for longer; every pair costs its frames on the page)
BRAIN = ("beam", {"beam_depth": 3, "beam_samples": 1})


def keys_to_a_chain(links: int) -> tuple[int, list[list[str]], list[int]]:
    """A seed and the keys (per pair: rotations, moves, Space) with which a person, placing as ``BRAIN`` would,
    fires a chain of ``links`` or more on the frame clock while the AI stays quiet; the chain's per-link
    largest falls (for its documented frames)."""
    from puzzlebots.games.puyo.engine import placement_of
    from puzzlebots.games.puyo.frame_versus import FrameVersus, chain_links
    from puzzlebots.games.puyo.human import PairCursor

    game = get_game("puyo")
    config = game.check_config({})
    bot, keys_of_bot = BRAIN
    brain_config = game.check_config({**keys_of_bot, "beam_fire_links": links})
    for seed in range(1, 40):
        person = FrameVersus(seed, config).players[0]
        brain = game.make_bot(bot, brain_config, None, 7)
        keys: list[list[str]] = []
        while len(keys) < 30 and not person.field.is_dead():
            x, r = brain.act(person)
            cursor = PairCursor(person.field)
            pair_keys = []
            for _ in range(4):
                if cursor.r != r:
                    cursor.rotate(1)
                    pair_keys.append("x")
            step = -1 if cursor.x > x - 1 else 1
            while cursor.x != x - 1 and len(pair_keys) < 12:
                cursor.move(step)
                pair_keys.append("ArrowLeft" if step < 0 else "ArrowRight")
            if (cursor.x, cursor.r) != (x - 1, r):
                break
            keys.append([*pair_keys, " "])
            index = person.field.check_placement(person.current(), placement_of((x, r)))
            falls = [fall for _, fall in chain_links(person.field, person.current(), index)]
            result = person.field.play(person.current(), index)
            person.index += 1
            if result.links >= links and quiet(seed, len(keys) + 8):
                return seed, keys, falls
            if result.links:
                break  # an earlier chain would send garbage and start the AI's answer
    raise AssertionError(f"no seed gives a {links}-chain")


@pytest.mark.slow
def test_a_persons_chain_runs_at_the_frame_clocks_pace_and_its_garbage_falls(page: Any) -> None:
    from puzzlebots.games.puyo.frames import link_frames

    seed, keys, falls = keys_to_a_chain(2)
    page.click("nav button[data-tab='puyo']")
    assert page.locator("#versus-mode").input_value() == "frames"  # the frame clock is the default
    page.select_option("#versus-bot", AI)
    page.select_option("#versus-gravity", "1")
    page.fill("#versus-seed", str(seed))
    page.click("#versus-start")
    board = "document.getElementById('versus-board')"
    for placed, pair_keys in enumerate(keys):
        page.wait_for_function(
            f"{board}.dataset.readyYou === '1' && {board}.dataset.you === '{placed}'", timeout=TIMEOUT
        )
        for key in pair_keys:
            page.keyboard.press(key)
    samples = frame_samples(page, until_link=2)
    screenshot(page.locator("#tab-puyo"), "puyo-frames-chain.png")
    rest = frame_samples(page, until_link=0)
    samples += rest
    starts = {link: (start, frames) for _, link, start, frames, _ in samples if link}
    assert sorted(starts) == list(range(1, len(falls) + 1))
    for link, (start, frames) in starts.items():
        assert frames == link_frames(falls[link - 1])  # the documented frames of that link
        if link > 1:
            assert start == starts[link - 1][0] + starts[link - 1][1]  # each link follows the last at its pace
    for frame, link, start, frames, _ in samples:
        if link:
            assert start <= frame < start + frames  # a link is shown only during its own frames
    end = starts[len(falls)][0] + starts[len(falls)][1]
    assert any(link == 0 and frame >= end for frame, link, *_ in rest)
    # the garbage: announced in the AI's tray during the chain, then it falls on the AI's field
    assert max(tray for *_, tray in samples) > 0
    screenshot(page.locator("#tab-puyo"), "puyo-frames-tray.png")
    page.wait_for_function(
        "Number(document.getElementById('versus-tray-ai').dataset.received) > 0", polling=50, timeout=TIMEOUT
    )
    screenshot(page.locator("#tab-puyo"), "puyo-frames-garbage.png")
    assert page.locator("#versus-margin").get_attribute("data-target") == "70"  # before 96 s
    ai_cells = page.locator("#versus-board svg").nth(1).locator("[data-role='cell']")
    assert ai_cells.count() > 0


def frame_samples(page: Any, until_link: int) -> list[list[float]]:
    """The page's own frame counters, sampled on every animation frame until the person's chain shows link
    ``until_link`` (0: the chain is over): [frame, link, link start, link frames, garbage in the AI's tray]."""
    return page.evaluate(
        """async (until) => {
        const b = document.getElementById('versus-board');
        const ai = document.getElementById('versus-tray-ai');
        const out = [];
        const t0 = performance.now();
        while (performance.now() - t0 < 30000) {
          await new Promise((r) => requestAnimationFrame(r));
          const link = Number(b.dataset.linkYou || 0);
          out.push([Number(b.dataset.frame), link, Number(b.dataset.linkStartYou), Number(b.dataset.linkFramesYou),
                    Number(ai.dataset.incoming) + Number(ai.dataset.fixed)]);
          if (link === until) return out;
        }
        return out;
      }""",
        until_link,
    )
