"""The page looks like the games: Hatris's hats are drawn with their sprites, with the falling and next
pairs, a legend and the level/cash/helpers panel; the figures are a panel, not JSON. The tests take the
screenshots docs/web.md shows when `make screenshots` names docs/img/ in PUZZLEBOTS_SCREENSHOTS (a test run
takes none and leaves the tree as it was)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from serving import PAGE_GUARD, screenshot

from puzzlebots.core.registry import get_game
from puzzlebots.core.replay import write_replay
from puzzlebots.core.runner import play_episode

TIMEOUT = PAGE_GUARD  # a hang guard: every wait ends at its event


def watch(page: Any, game: str, bot: str, seed: int, steps: int) -> None:
    """Start a bot's game, let it reach ``steps`` decisions, and pause."""
    page.select_option("#watch-game", game)
    page.select_option("#watch-bot", bot)
    page.fill("#watch-seed", str(seed))
    page.click("#watch-start")
    page.wait_for_selector("#play-board svg", timeout=TIMEOUT)
    page.wait_for_function(
        f"Number(document.getElementById('play-step-count').dataset.step) >= {steps}", timeout=TIMEOUT
    )
    page.click("#play-pause")
    at_rest(page)  # an answer already asked for may still arrive


def at_rest(page: Any) -> None:
    """Wait until no step the player asked for is still to be drawn."""
    page.wait_for_function("!document.getElementById('player').dataset.busy", timeout=TIMEOUT)


def set_range(page: Any, element: str, value: int, event: str = "change") -> None:
    """Move a slider as a person lets go of it."""
    page.evaluate(
        f"(s => {{ s.value = {value}; s.dispatchEvent(new Event('{event}')); }})(document.getElementById('{element}'))"
    )


def shoot(page: Any, selector: str, name: str) -> None:
    screenshot(page.locator(selector), name)


def test_hatris_hats_are_drawn_as_hats(page: Any) -> None:
    watch(page, "hatris", "searcher", 4, 12)
    board = page.locator("#play-board")
    assert page.locator("#hatris-sprites symbol").count() == 6  # top, wizard, crown, cap, derby, cowboy
    hats = board.locator("g[data-role='cell'] use")
    assert hats.count() > 0
    assert all(hats.nth(i).get_attribute("href").startswith("#hat-") for i in range(hats.count()))
    assert board.locator("g[data-role='piece']").count() == 2  # the falling pair
    assert board.locator("g[data-role='next']").count() == 2  # the next pair
    assert board.locator(".hat-legend span").count() == 6
    result = page.locator("#play-result")
    for key in ("level", "cash", "helper bars", "helpers (next first)", "spawns"):  # the game's panel and the result
        assert result.locator(f"tr[data-key='{key}']").count() == 1
    assert page.locator("#player table.figures:not(#play-thinking *)").count() == 1  # one figures panel
    assert result.locator("tr[data-key='spawns'] td").inner_text().replace(",", "").isdigit()
    assert "{" not in result.inner_text()  # figures, not JSON
    shoot(page, "#player", "watch-hatris.png")


def test_yoshis_cookies_in_their_shapes_with_the_unit_cursor_and_meters(page: Any) -> None:
    watch(page, "yoshis_cookie", "greedy", 4, 6)
    board = page.locator("#play-board")
    assert page.locator("#yoshis_cookie-sprites symbol").count() == 7  # five cookies, the Yoshi, the shell
    cookies = board.locator("g[data-role='cell'] use")
    assert cookies.count() > 0
    assert all(cookies.nth(i).get_attribute("href").startswith("#cookie-") for i in range(cookies.count()))
    assert board.locator("g[data-role='incoming']").count() > 0  # the falling unit at the matrix's edges
    assert board.locator("[data-role='cursor']").count() == 1
    assert board.locator("[data-role='cursor-row']").count() == 1
    assert board.locator(".meter-bar").count() == 5  # one Yoshi meter per cookie type
    assert page.locator("#play-result tr[data-key='score']").count() == 1
    assert page.locator("#player table.figures:not(#play-thinking *)").count() == 1
    shoot(page, "#player", "watch-yoshis_cookie.png")


def test_puyo_field_shades_row_13_marks_the_death_cell_and_counts_chains(page: Any) -> None:
    watch(page, "puyo", "krieg3", 4, 6)  # KRIEG3 builds its 3-chain target over pairs 1-12
    board = page.locator("#play-board")
    assert board.locator("rect.hidden-rows").count() == 1
    cross = board.locator("[data-role='cross']")
    assert (cross.get_attribute("data-row"), cross.get_attribute("data-col")) == ("4", "2")  # (3, 12), 3 rows down
    for key in ("score", "chain", "max_chain", "pairs"):
        assert page.locator(f"#play-result tr[data-key='{key}']").count() == 1
    assert page.locator("#player table.figures:not(#play-thinking *)").count() == 1
    assert board.locator("[data-role='ghost']").count() > 0  # KRIEG3's target chain, dim
    assert board.locator("svg text.aside-title").inner_html() == "next"  # the next-pair column is labelled
    assert board.locator("rect.join").count() > 0  # like neighbours drawn joined
    shoot(page, "#player", "watch-puyo.png")


def test_yoshis_cookie_lines_clear_with_an_animation_in_a_watch_and_a_replay(page: Any, replays_dir: Path) -> None:
    clearing = "#play-board svg g.cookie.clearing"
    set_range(page, "play-speed", 1, "input")  # slow: the views within a plan share a second
    page.select_option("#watch-game", "yoshis_cookie")
    page.select_option("#watch-bot", "greedy")
    page.fill("#watch-seed", "4")  # greedy's first plan clears 3 lines
    page.click("#watch-start")
    # one look in the page, taken the moment the clear shows (separate calls could straddle the next plan's clear)
    seen = page.wait_for_function(
        """() => {
          const b = document.getElementById("play-board");
          const label = b.querySelector("[data-role='clear-label']");
          return label && {
            cells: b.querySelectorAll("svg g.cookie.clearing[data-role='cell']").length,
            rects: b.querySelectorAll("svg rect.clear-cell").length,
            label: label.textContent,
            ms: b.style.getPropertyValue("--step-ms"),
          };
        }""",
        timeout=TIMEOUT,
    ).json_value()
    assert seen["cells"] > 0 and seen["rects"] == seen["cells"]
    assert seen["label"] == "3 lines!"
    assert 30 <= int(seen["ms"].removesuffix("ms")) <= 500  # a share of the decision's second, at most 500 ms
    shoot(page, "#player", "yoshi-clear.png")
    page.wait_for_function("document.getElementById('play-step-count').dataset.step >= '1'", timeout=TIMEOUT)
    page.click("#play-pause")
    episode = play_episode("yoshis_cookie", "greedy", 4, {"max_stages": 1}, record=True)
    write_replay(replays_dir / "yoshi-greedy-4.jsonl", episode, get_game("yoshis_cookie").rules_version, 5)
    page.click("nav button[data-tab='replays']")
    page.click("a[data-replay='yoshi-greedy-4.jsonl']", timeout=TIMEOUT)
    page.wait_for_selector("#play-scrub:not(.hidden)", timeout=TIMEOUT)
    assert page.locator(clearing).count() == 0
    page.click("#play-step")  # the replay's first plan, animated: its lines clear before the matrix closes
    page.wait_for_selector(clearing, timeout=TIMEOUT)
    page.wait_for_function("document.getElementById('play-step-count').dataset.step === '1'", timeout=TIMEOUT)
    assert page.locator(clearing).count() == 0  # the frame itself: the matrix closed
    (replays_dir / "yoshi-greedy-4.jsonl").unlink()  # the replay list of the next test shows only its own


def test_the_page_works_from_420_px_wide(page: Any) -> None:
    page.set_viewport_size({"width": 420, "height": 900})
    watch(page, "hatris", "searcher", 2, 3)
    wide = "document.scrollingElement.scrollWidth"
    assert page.evaluate(wide) <= 420, "the page scrolls sideways at 420 px"
    box = page.locator("#play-board svg").first.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 420
    for game, bot in (("puyo", "krieg"), ("yoshis_cookie", "greedy")):
        watch(page, game, bot, 2, 2)
        assert page.evaluate(wide) <= 420, f"{game} scrolls sideways at 420 px"
    screenshot(page, "narrow-420.png")


def test_a_puyo_chain_pops_link_by_link_with_the_link_count(page: Any) -> None:
    set_range(page, "play-speed", 10, "input")  # the first pairs at ten a second, then slowed before pair 13
    page.select_option("#watch-game", "puyo")
    page.select_option("#watch-bot", "krieg3")
    page.fill("#watch-seed", "4")  # KRIEG3 fires its 3-chain with pair 13
    page.click("#watch-start")
    # slow: the views within a move share a second. Set from inside the page as pair 10 shows, so the slower
    # pace holds two pairs before the chain's (the player reads the speed as each decision begins)
    slowed_at = page.wait_for_function(
        """() => {
          const step = Number(document.getElementById("play-step-count").dataset.step);
          if (!(step >= 10)) return false; // (no step shown yet reads as NaN)
          const s = document.getElementById("play-speed");
          s.value = 1;
          s.dispatchEvent(new Event("input"));
          return step;
        }""",
        polling=10,
        timeout=TIMEOUT,
    ).json_value()
    assert 10 <= slowed_at <= 12, slowed_at  # pair 13, the chain's, had not begun: it is played at the slow pace
    # one look in the page, taken the moment the second link shows (separate calls could straddle the third)
    seen = page.wait_for_function(
        """() => {
          const b = document.getElementById("play-board");
          return b.dataset.link === "2" && {
            title: b.querySelector("svg text").textContent,
            badge: (b.querySelector("svg [data-role='badge']") || {}).textContent,
            state: document.getElementById("play-state").textContent,
          };
        }""",
        polling=10,
        timeout=TIMEOUT,
    ).json_value()
    assert seen == {"title": "2-chain!", "badge": "2-chain!", "state": "2-chain"}
    shoot(page, "#player", "watch-puyo-chain.png")
    # the third link shown, then the frame of pair 13 (the player goes on, so read where it rests after a pause)
    page.wait_for_function("Number(document.getElementById('play-board').dataset.maxLink) >= 3", timeout=TIMEOUT)
    page.wait_for_function("Number(document.getElementById('play-step-count').dataset.step) >= 13", timeout=TIMEOUT)
    page.click("#play-pause")
    at_rest(page)
    assert int(page.locator("#play-result tr[data-key='max_chain'] td").inner_text()) >= 3


def test_a_replay_is_listed_scrubbed_and_stepped_back(page: Any, replays_dir: Path) -> None:
    episode = play_episode("puyo", "krieg3", 4, {"pairs": 20}, record=True)
    write_replay(replays_dir / "puyo-krieg3-4.jsonl", episode, get_game("puyo").rules_version, 5)
    page.click("nav button[data-tab='replays']")
    row = page.locator("#replay-table tr", has=page.locator("a[data-replay='puyo-krieg3-4.jsonl']"))
    cells = row.locator("td")
    assert [cells.nth(i).inner_text() for i in range(1, 5)] == ["puyo", "krieg3", "4", "20"]
    assert cells.nth(5).inner_text().endswith("UTC")
    page.click("a[data-replay='puyo-krieg3-4.jsonl']")
    page.wait_for_selector("#play-scrub:not(.hidden)", timeout=TIMEOUT)
    set_range(page, "play-scrub", 14)
    page.wait_for_function("document.getElementById('play-step-count').dataset.step === '14'", timeout=TIMEOUT)
    assert page.locator("#play-step-count").inner_text() == "step 14 / 20"
    assert page.locator("#play-result tr[data-key='max_chain'] td").inner_text() == "3"  # fired with pair 13
    shoot(page, "main", "replay-scrubbed.png")
    page.click("#play-back")
    page.wait_for_function("document.getElementById('play-step-count').dataset.step === '13'", timeout=TIMEOUT)
    page.click("#play-back")
    page.wait_for_function("document.getElementById('play-step-count').dataset.step === '12'", timeout=TIMEOUT)
    assert page.locator("#play-result tr[data-key='max_chain'] td").inner_text() == "0"  # before the chain


def cells_of(board: Any, role: str, row_attr: str = "data-row") -> set[tuple[int, int]]:
    cells = board.locator(f"[data-role='{role}']")
    return {
        (int(cells.nth(i).get_attribute(row_attr)), int(cells.nth(i).get_attribute("data-col")))
        for i in range(cells.count())
    }


def test_real_time_puyo_falls_by_gravity_and_lands_where_the_ghost_showed(page: Any) -> None:
    page.click("nav button[data-tab='puyo']")
    page.select_option("#versus-bot", "krieg3")
    page.select_option("#versus-gravity", "2")
    page.select_option("#versus-mode", "real")  # pairs placed at the AI speed, not on the frame clock
    page.click("#versus-start")
    you = page.locator("#versus-board svg").first
    page.wait_for_selector("#versus-board svg [data-role='piece']", timeout=TIMEOUT)
    page.keyboard.press("ArrowLeft")  # a move and a rotation: the ghost follows
    page.keyboard.press("x")
    page.wait_for_function(
        'new Set([...document.querySelectorAll("#versus-board svg:first-child '
        "[data-role='piece']\")].map(e => e.dataset.col)).size === 2",
        timeout=TIMEOUT,
    )
    ghost = cells_of(you, "ghost")
    assert ghost == {(15, 1), (15, 2)}  # side by side on the empty floor, columns 2 and 3
    page.wait_for_function("Number(document.getElementById('versus-board').dataset.fall) >= 2", timeout=TIMEOUT)
    assert page.locator("#versus-board").get_attribute("data-you") == "0"  # gravity alone, no key yet
    falling = cells_of(you, "piece", "data-fall-row")
    assert all(r >= 3 for r, _ in falling)  # two rows below where it hovered (row 1)
    shoot(page, "#tab-puyo", "play-puyo-falling.png")
    page.keyboard.down("ArrowDown")  # held: ten times the gravity, until it lands
    page.wait_for_function("document.getElementById('versus-board').dataset.you === '1'", timeout=TIMEOUT)
    page.keyboard.up("ArrowDown")
    assert cells_of(you, "cell") == ghost  # it landed where the ghost showed


def test_real_time_puyo_the_ai_plays_on_its_own_clock(page: Any) -> None:
    """With the person idle (no key pressed), the AI places pairs at its speed and the person's pair falls."""
    page.click("nav button[data-tab='puyo']")
    page.select_option("#versus-bot", "krieg3")
    page.select_option("#versus-gravity", "1")
    page.select_option("#versus-ai-speed", "4")
    page.select_option("#versus-mode", "real")  # pairs placed at the AI speed, not on the frame clock
    page.click("#versus-start")
    page.wait_for_selector("#versus-board svg [data-role='piece']", timeout=TIMEOUT)
    board = page.locator("#versus-board")
    ai = page.locator("#versus-board svg").nth(1)
    started = page.evaluate("performance.now()")
    page.wait_for_function(
        "(b => Number(b.dataset.ai) >= 4 && Number(b.dataset.fall) >= 2)(document.getElementById('versus-board'))",
        timeout=TIMEOUT,
    )
    ai_pairs, now = page.evaluate("[Number(document.getElementById('versus-board').dataset.ai), performance.now()]")
    # 4 moves/s: the AI's clock allows at most one move per 0.2 s (80% of its interval), however busy the machine
    assert ai_pairs <= (now - started) / 200 + 1, f"the AI placed {ai_pairs} pairs in {now - started:.0f} ms"
    assert ai.locator("[data-role='cell']").count() >= 2  # its field changed (a pop could take some away)
    assert board.get_attribute("data-you") == "0"  # the person placed nothing...
    assert int(board.get_attribute("data-fall")) >= 2  # ...while their pair fell by gravity
    shoot(page, "#tab-puyo", "puyo-realtime-ai.png")


def test_the_cargo_bot_editor_runs_with_the_executing_register_and_solves(page: Any) -> None:
    page.click("nav button[data-tab='cargobot']")
    page.wait_for_function("document.querySelectorAll('#cargo-level option').length >= 40", timeout=TIMEOUT)
    page.select_option("#cargo-level", "Inverter")
    page.wait_for_function("document.getElementById('cargo-info').textContent.includes('Inverter')", timeout=TIMEOUT)
    functions = page.locator("#cargo-editor .cargo-function")
    assert [functions.nth(i).locator(".register").count() for i in range(functions.count())] == [8, 8, 8, 5]
    tools = page.locator("#cargo-toolbox [data-command]")
    assert {tools.nth(i).get_attribute("data-command") for i in range(tools.count())} >= {"right", "pickup", "left"}
    page.click("#tab-cargobot summary")
    page.fill("#cargo-program", "call2 call2 call2 call2 R call1 prog_2 claw R claw L")
    page.click("#cargo-load")
    assert page.locator("#cargo-editor .register[data-cmd]").count() == 10
    set_range(page, "cargo-speed", 4, "input")
    page.click("#cargo-run")
    page.wait_for_function("Number(document.getElementById('cargo-ticks').dataset.tick) >= 2", timeout=TIMEOUT)
    page.click("#cargo-pause")
    tick = page.locator("#cargo-ticks").get_attribute("data-tick")
    executing = page.locator("#cargo-editor .register.executing")
    assert executing.count() == 1
    shoot(page, "#tab-cargobot", "cargo-editor-running.png")
    page.click("#cargo-step")
    page.wait_for_function(
        f"document.getElementById('cargo-ticks').dataset.tick === '{int(tick) + 1}'", timeout=TIMEOUT
    )
    set_range(page, "cargo-speed", 60, "input")
    page.click("#cargo-pause")  # play on to the end
    page.wait_for_selector("#cargo-status[data-outcome='solved']", timeout=TIMEOUT)
    assert page.locator("#cargo-ticks").inner_text() == "tick 107 / 107"  # as the result reports them
    assert page.locator("#cargo-stars").get_attribute("data-stars") == "3"
    page.select_option("#cargo-level", "Cargo 101")
    page.wait_for_function("document.getElementById('cargo-info').textContent.includes('Cargo 101')", timeout=TIMEOUT)
    page.locator("#cargo-editor .register[data-f='0'][data-i='0']").click()
    page.click("#cargo-toolbox [data-command='erase']")
    page.click("#cargo-toolbox [data-command='erase']")
    page.click("#cargo-toolbox [data-command='erase']")
    assert page.locator("#cargo-editor .register[data-cmd]").count() == 0
    page.click("#cargo-solve")
    page.wait_for_selector("#cargo-status[data-outcome='found']", timeout=TIMEOUT)
    assert page.locator("#cargo-program").input_value() == "claw R claw"
    assert page.locator("#cargo-editor .register[data-cmd]").count() == 3
    search = page.locator("#cargo-thinking table.figures")  # what the solver did
    assert search.locator("tr[data-key='programs tried'] td").inner_text().replace(",", "").isdigit()
    shoot(page, "#tab-cargobot", "cargo-editor-solved.png")


def quiet_ai(bot: str, seed: int, pairs: int) -> bool:
    """Whether ``bot``, playing alone in the page's real-time game, sends no garbage with its first ``pairs``:
    then the person's field does not depend on when the AI's moves come."""
    from puzzlebots.core.seeds import bot_seed
    from puzzlebots.games.puyo.versus import VersusGame

    game = get_game("puyo")
    config = game.check_config({})
    versus = VersusGame(seed, config)
    ai = game.make_bot(bot, config, None, bot_seed(seed))
    side = versus.players[1]
    for _ in range(pairs):
        if versus.over():
            return False
        versus.step_one(1, ai.act(side))
    return side.sent == 0


def keys_to_a_chain(bot: str, links: int) -> tuple[int, list[list[str]], int]:
    """A seed, the page keys (per pair: rotations, moves, Space) with which a person, placing as KRIEG3 would,
    fires a chain of ``links`` or more against ``bot`` in the page's real-time versus game (a seed where neither
    side sends garbage before that chain, so the AI's clock cannot change the person's field), and its length."""
    from puzzlebots.games.puyo.human import HumanMatch, PairCursor

    game = get_game("puyo")
    config = game.check_config({})
    for seed in range(1, 20):
        match = HumanMatch(seed, config, None)
        brain = game.make_bot("krieg3", config, None, 7)
        keys: list[list[str]] = []
        person = match.game.players[0]
        while not match.game.over() and len(keys) < 40:
            x, r = brain.act(person)
            pair_keys = []
            for _ in range(4):
                if match.cursor.r != r:
                    match.press("cw")
                    pair_keys.append("x")
            step = "left" if match.cursor.x > x - 1 else "right"
            while match.cursor.x != x - 1 and len(pair_keys) < 12:
                match.press(step)
                pair_keys.append("ArrowLeft" if step == "left" else "ArrowRight")
            if (match.cursor.x, match.cursor.r) != (x - 1, r):
                break
            keys.append([*pair_keys, " "])
            if person.sent:
                break  # garbage sent before the chain would make the AI's game depend on its clock
            match.game.step_one(0, (x, r))
            match.cursor = PairCursor(person.field)
            if person.max_chain >= links:
                if quiet_ai(bot, seed, 25):  # asked last: the AI's 25 pairs cost more than the person's chain
                    return seed, keys, person.max_chain
                break
    raise AssertionError(f"no seed gives a {links}-chain")


def test_real_time_puyo_mid_chain(page: Any) -> None:
    seed, keys, links = keys_to_a_chain("beam", 2)
    page.click("nav button[data-tab='puyo']")
    page.select_option("#versus-bot", "beam")
    page.select_option("#versus-gravity", "1")
    page.select_option("#versus-ai-speed", "1")
    page.fill("#versus-seed", str(seed))
    page.select_option("#versus-mode", "real")  # pairs placed at the AI speed, not on the frame clock
    page.click("#versus-start")
    page.wait_for_selector("#versus-board svg [data-role='piece']", timeout=TIMEOUT)
    # the AI plays on its own clock meanwhile (its first 25 pairs send no garbage: quiet_ai): its first pair placed
    page.wait_for_function("Number(document.getElementById('versus-board').dataset.ai) >= 1", timeout=TIMEOUT)
    answers = "Number(document.getElementById('versus-board').dataset.keys || 0)"  # answers to keys
    for pair_keys in keys[:-1]:
        for key in pair_keys:
            before = page.evaluate(answers)
            page.keyboard.press(key)
            page.wait_for_function(f"{answers} > {before}", timeout=TIMEOUT)
    for key in keys[-1]:  # the pair that fires the chain
        before = page.evaluate(answers)
        page.keyboard.press(key)
        if key != " ":
            page.wait_for_function(f"{answers} > {before}", timeout=TIMEOUT)
    page.wait_for_function(
        "document.querySelector(\"#versus-board[data-link='2'] svg rect.mark\")", polling=50, timeout=TIMEOUT
    )  # the second link's puyos popping
    shoot(page, "#tab-puyo", "play-puyo-chain.png")
    assert page.locator("#versus-status").inner_text() == "2-chain!"
    page.wait_for_function("document.getElementById('versus-board').dataset.link === ''", timeout=TIMEOUT)
    assert f"(chain {links}," in page.locator("#versus-board svg text").first.inner_html()
    assert int(page.locator("#versus-board").get_attribute("data-ai")) < 25  # the AI sent no garbage (quiet_ai)


def short_help(text: str) -> str:
    """A config key's label as the page should write it: its help without a closing parenthesis, capitalised."""
    short = text.split(" (")[0]
    return short[:1].upper() + short[1:]


def test_every_form_label_comes_from_the_schemas_help(page: Any) -> None:
    from puzzlebots.core.config import settings

    games = page.locator("#watch-game option")
    names = [games.nth(i).get_attribute("value") for i in range(games.count())]
    assert {"hatris", "yoshis_cookie", "puyo"} <= set(names)
    seen = 0
    for name in names:
        page.select_option("#watch-game", name)
        schema = settings(get_game(name).config_schema)
        bots = page.locator("#watch-bot option")
        for bot in [bots.nth(i).get_attribute("value") for i in range(bots.count())]:
            page.select_option("#watch-bot", bot)
            fields = page.locator("#watch-config label.field")
            for i in range(fields.count()):
                field = fields.nth(i)
                key = field.locator(".field-key").inner_text()
                assert field.locator(".field-label").inner_text() == short_help(schema[key].help), (name, key)
                assert field.get_attribute("title").startswith(f"{key}: {schema[key].help}")  # the key and all
                assert field.locator(f"#watch-config-{key}").count() == 1
                seen += 1
    assert seen > 20


def test_the_start_page_shows_the_four_games_live(browser_context: Any, live_server: Any) -> None:
    from conftest import open_page

    with open_page(browser_context, live_server.url, "start-page", tab="") as page:
        cards = page.locator("#cards .game-card")
        assert {cards.nth(i).get_attribute("data-game") for i in range(cards.count())} == {
            "hatris",
            "yoshis_cookie",
            "puyo",
            "cargobot",
        }
        for game in ("hatris", "yoshis_cookie", "puyo"):  # each has played decisions of its own (two: it goes on)
            page.wait_for_function(
                f"Number(document.querySelector(\"#cards [data-game='{game}']\").dataset.step) >= 2", timeout=TIMEOUT
            )
        page.wait_for_selector("#cards [data-game='cargobot'] [data-role='claw']", timeout=TIMEOUT)
        assert page.locator("#cards [data-game='puyo'] .card-bot").inner_text() == "bot: krieg3"
        assert page.locator("#cards [data-game='hatris'] g[data-role='cell']").count() > 0
        screenshot(page, "start-page.png")
        assert page.locator("#cards [data-game='cargobot']").get_attribute("href") == "#cargobot"
        page.click("#cards [data-game='puyo']")  # a card leads into its game
        page.wait_for_selector("#tab-watch:not(.hidden)", timeout=TIMEOUT)
        assert page.locator("#watch-game").input_value() == "puyo"
        page.go_back()  # and back to the start page, whose games go on
        page.wait_for_selector("#tab-home:not(.hidden)", timeout=TIMEOUT)
        step = int(page.locator("#cards [data-game='hatris']").get_attribute("data-step"))
        page.wait_for_function(
            f"Number(document.querySelector(\"#cards [data-game='hatris']\").dataset.step) > {step}", timeout=TIMEOUT
        )


def test_puyo_builder_shows_its_best_placements_and_target_chain_as_it_plays(page: Any) -> None:
    page.select_option("#watch-game", "puyo")
    page.select_option("#watch-bot", "builder")
    page.fill("#watch-config-builder_futures", "2")  # a small search: the page plays it at its speed
    page.fill("#watch-config-builder_width", "24")
    page.fill("#watch-seed", "4")
    page.click("#watch-start")
    page.wait_for_function("Number(document.getElementById('play-step-count').dataset.step) >= 8", timeout=TIMEOUT)
    page.click("#play-pause")
    at_rest(page)
    for _ in range(20):  # one decision at a time until its target chain has two links or more
        if page.locator("#play-board .mark-number", has_text="2").count():
            break
        step = int(page.locator("#play-step-count").get_attribute("data-step"))
        page.click("#play-step")
        page.wait_for_function(
            f"Number(document.getElementById('play-step-count').dataset.step) > {step}", timeout=TIMEOUT
        )
        at_rest(page)
    thinking = page.locator("#play-thinking")
    assert "builder's best placements" in thinking.locator("h3").inner_text()
    moves = thinking.locator("li[data-role='candidate']")
    assert 1 < moves.count() <= 5
    assert moves.first.get_attribute("class") == "chosen"
    scores = [float(moves.nth(i).locator(".score").inner_text().replace(",", "")) for i in range(moves.count())]
    assert scores == sorted(scores, reverse=True)
    assert page.locator("#play-board rect.join").count() > 0  # its connected puyos drawn joined
    # the chain its move aims at: the trigger dim on the board, the puyos it pops framed with their link
    aim = thinking.locator("tr[data-key='target chain'] td").inner_text()
    links = int(aim.split()[0])
    assert links >= 2 and "set off by" in aim
    numbers = {int(n) for n in page.locator("#play-board .mark-number").all_text_contents()}
    assert numbers == set(range(1, links + 1))
    assert page.locator("#play-board [data-role='ghost']").count() >= 1
    assert int(thinking.locator("tr[data-key='its score'] td").inner_text().replace(",", "")) > 0
    shoot(page, "#player", "watch-puyo-builder-thinking.png")


def test_the_hatris_searcher_shows_its_best_first_steps_and_the_speed_is_what_it_says(page: Any) -> None:
    set_range(page, "play-speed", 4, "input")
    assert page.locator("#play-speed-label").inner_text() == "4"
    page.select_option("#watch-game", "hatris")
    page.select_option("#watch-bot", "searcher")
    page.click("#watch-start")
    page.wait_for_selector("#play-rate[data-rate]", timeout=TIMEOUT)  # measured over the decisions drawn
    # five decisions: the rate measured over the four periods between them
    page.wait_for_function("Number(document.getElementById('play-step-count').dataset.step) >= 5", timeout=TIMEOUT)
    rate = float(page.locator("#play-rate").get_attribute("data-rate"))
    # each decision starts at least 1/4 s after the one before (animation within it): never faster than asked
    assert 0 < rate <= 4 * 1.05, rate
    page.click("#play-pause")
    at_rest(page)
    thinking = page.locator("#play-thinking")
    assert "searcher's best first steps" in thinking.locator("h3").inner_text()
    steps = thinking.locator("li[data-role='candidate']")
    assert 1 < steps.count() <= 5 and steps.first.get_attribute("class") == "chosen"
    assert steps.first.locator(".move").inner_text().startswith(("the pair on piles", "alexey", "vladimir"))
    scores = [float(steps.nth(i).locator(".score").inner_text().replace(",", "")) for i in range(steps.count())]
    assert scores == sorted(scores, reverse=True)
    shoot(page, "#player", "watch-hatris-thinking.png")


def test_a_tampered_replay_is_a_warning_box(page: Any, replays_dir: Path) -> None:
    import json

    episode = play_episode("puyo", "krieg", 9, {"pairs": 12}, record=True)
    write_replay(replays_dir / "good.jsonl", episode, get_game("puyo").rules_version, 5)
    lines = (replays_dir / "good.jsonl").read_text().splitlines()
    tampered = [json.dumps({"n": 10, "h": "0" * 16}) if json.loads(line).get("n") == 10 else line for line in lines]
    (replays_dir / "tampered.jsonl").write_text("\n".join(tampered) + "\n")
    (replays_dir / "good.jsonl").unlink()
    try:
        page.click("nav button[data-tab='replays']")
        page.click("a[data-replay='tampered.jsonl']", timeout=TIMEOUT)
        page.wait_for_selector("#play-scrub:not(.hidden)", timeout=TIMEOUT)
        assert page.locator("#play-warning").is_hidden()
        set_range(page, "play-scrub", 12)
        page.wait_for_selector("#play-warning:not(.hidden)", timeout=TIMEOUT)
        warning = page.locator("#play-warning")
        assert "diverged at step 10" in warning.inner_text()
        assert warning.evaluate("e => getComputedStyle(e).borderTopWidth") == "2px"  # a box, not grey text
        shoot(page, "#player", "replay-tampered.png")
    finally:
        (replays_dir / "tampered.jsonl").unlink()


def test_the_cargo_bot_board_keeps_its_place_as_the_status_grows(page: Any) -> None:
    page.click("nav button[data-tab='cargobot']")
    page.wait_for_function("document.querySelectorAll('#cargo-level option').length >= 40", timeout=TIMEOUT)
    page.select_option("#cargo-level", "Cargo 101")
    page.wait_for_function("document.getElementById('cargo-info').textContent.includes('Cargo 101')", timeout=TIMEOUT)
    before = page.locator("#cargo-board").bounding_box()["x"]
    page.evaluate("document.getElementById('cargo-status').textContent = 'a much longer status line '.repeat(20)")
    assert page.locator("#cargo-board").bounding_box()["x"] == before
    assert page.locator("#player").is_hidden() and page.locator("#play-board").is_hidden()  # no empty box
