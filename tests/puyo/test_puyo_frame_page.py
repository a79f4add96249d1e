"""The Play Puyo tab on the frame clock (``frame_page``), with an injected clock: the AI's placement takes its
frames, a person's chain shows link by link at the documented pace, its garbage waits in the AI's tray while
the chain runs and is fixed when it ends, and the person cannot drop before the next pair is in."""

from __future__ import annotations

from puzzlebots.games.puyo import frames
from puzzlebots.games.puyo.engine import Field
from puzzlebots.games.puyo.game import GAME as PUYO
from puzzlebots.games.puyo.versus_page import VersusPage

RED, BLUE = 1, 3


class Clock:
    """Seconds that pass only when a test says so."""

    now = 0.0

    def __call__(self) -> float:
        return self.now

    def at(self, frame: int) -> None:
        self.now = frame / frames.FPS + 1e-9


def started(seed: int = 3) -> tuple[VersusPage, Clock]:
    clock = Clock()
    session = VersusPage(PUYO, clock)
    start = session.handle("versus", {"bot": "krieg", "seed": seed})
    assert start["mode"] == "frames" and start["frame"] == 0 and start["sides"]["you"]["ready"]
    return session, clock


def test_the_ais_placement_takes_its_frames() -> None:
    session, clock = started()
    first = session.handle("ai", {})
    ai = first["sides"]["ai"]
    assert first["pairs"]["ai"] == 1 and ai["busy_until"] > 0 and not ai["ready"]
    assert first["view"]["boards"][1]["piece"]  # the AI's pair is on its way down
    clock.at(ai["busy_until"] - 1)
    assert session.handle("ai", {})["pairs"]["ai"] == 1  # not one frame early
    clock.at(ai["busy_until"])
    assert session.handle("ai", {})["pairs"]["ai"] == 2


def test_a_chain_animates_link_by_link_and_its_garbage_waits_in_the_tray() -> None:
    session, clock = started()
    assert session.frames is not None
    person = session.frames.game.players[0]
    person.field = Field.from_rows(["..B...", "RRR.BB"])
    person.sequence = [(RED, BLUE)] * 128
    session.frames.cursor.field = person.field
    session.handle("key", {"key": "right"})
    dropped = session.handle("key", {"key": "drop"})  # lands at once: the chain starts after the split/grounding
    land = frames.PAI_GROUNDING + frames.PAI_NEXT
    second, end = land + 80, land + 80 + 55
    assert dropped["sides"]["you"]["busy_until"] == end
    assert session.handle("key", {"key": "drop"})["status"] == "wait for your next pair"
    seen = {}
    for frame in range(0, end + 1):
        clock.at(frame)
        answer = session.handle("ai", {})
        you, ai = answer["sides"]["you"], answer["sides"]["ai"]
        seen[frame] = (you["link"], you["link_start"], you["link_frames"], ai["incoming"] + ai["fixed"])
        assert you["ready"] == (frame >= end)
    assert seen[land - 1][0] == 0 and seen[land] == (1, land, 80, 0)
    assert seen[second - 1][:3] == (1, land, 80) and seen[second] == (2, second, 55, 5)  # 5 garbage announced
    assert seen[end][0] == 0 and seen[end][3] == 5


def test_turn_and_real_modes_stay() -> None:
    clock = Clock()
    session = VersusPage(PUYO, clock)
    answer = session.handle("versus", {"bot": "krieg", "seed": 3, "mode": "turn"})
    assert "sides" not in answer and session.frames is None


def test_terminal_play_on_the_frame_clock_runs_the_ai_while_the_person_waits() -> None:
    from io import StringIO

    from rich.console import Console

    from puzzlebots.games.puyo.frame_page import FramePage
    from puzzlebots.games.puyo.frame_terminal import run_frame_match

    clock = Clock()
    config = PUYO.check_config({})
    page = FramePage(3, config, PUYO.make_bot("krieg", config, None, 1), "krieg", clock)
    keys = iter(["\x1b[D", "\x1b[B"] + [None] * 600)  # left, drop, then 600 ticks of nothing

    def read(timeout: float) -> str | None:
        clock.now += 0.1  # each read is a tenth of a second: 6 frames
        return next(keys, "q")

    console = Console(file=StringIO(), width=120)
    run_frame_match(page, read, console)
    person, ai = page.game.players
    assert person.index == 1 and ai.index > 20  # the AI played on while the person did nothing
    assert person.fixed > 0  # its garbage waits for the person's next pair (it never came)
    assert clock.now > 60 and "You quit at frame" in console.file.getvalue()  # type: ignore[attr-defined]
