"""The page's protocol without a browser: watching, stepping, replays (and a tampered one), what the page learns
of each game, and the ``game`` op routed to a game's own page controls (Cargo-Bot runs, Puyo against an AI)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from puzzlebots.core.protocols import WebView
from puzzlebots.core.registry import get_game
from puzzlebots.core.replay import write_replay
from puzzlebots.core.runner import play_episode
from puzzlebots.games.hatris import oracle
from puzzlebots.games.hatris.bots.searcher import Searcher, default_weights, step_name
from puzzlebots.games.hatris.engine import HatrisState
from puzzlebots.games.puyo import oracle as puyo_oracle
from puzzlebots.games.puyo.bots.builder import BuilderBot
from puzzlebots.web.session import Session, board


def test_watch_and_step() -> None:
    session = Session(None)
    frame = session.handle({"op": "watch", "game": "puyo", "bot": "krieg3", "seed": 2, "config": {}})
    assert frame["type"] == "frame" and frame["step"] == 0 and frame["view"]["kind"] == "grid"
    frame = session.handle({"op": "step", "n": 3})
    assert frame["step"] == 3 and frame["result"]["pairs_played"] == 3
    frame = session.handle({"op": "step", "n": 500})
    end = frame["step"]
    assert frame["done"] and 3 < end <= get_game("puyo").default_config()["pairs"]
    assert session.handle({"op": "step"})["step"] == end  # a finished game stays finished


def test_bad_watch_requests_are_errors() -> None:
    session = Session(None)
    for msg in [
        {"op": "watch", "game": "puyo", "bot": "nobody"},
        {"op": "watch", "game": "puyo", "bot": "krieg", "config": {"pairs": -1}},
        {"op": "watch", "game": "puyo", "bot": "krieg", "seed": -5},
        {"op": "watch", "game": "puyo", "bot": "krieg", "seed": True},
    ]:
        answer = session.handle(msg)
        assert answer["type"] == "error" and answer["message"], msg


def test_replay_plays_back_and_a_tampered_hash_is_reported(tmp_path: Path) -> None:
    episode = play_episode("puyo", "krieg", 5, {"pairs": 25}, record=True)
    write_replay(tmp_path / "good.jsonl", episode, get_game("puyo").rules_version, 10)
    lines = (tmp_path / "good.jsonl").read_text().splitlines()
    tampered = [json.dumps({"n": 20, "h": "0" * 16}) if json.loads(line).get("n") == 20 else line for line in lines]
    (tmp_path / "bad.jsonl").write_text("\n".join(tampered) + "\n")
    session = Session(tmp_path)
    assert session.handle({"op": "replays"})["replays"] == ["bad.jsonl", "good.jsonl"]
    session.handle({"op": "replay", "name": "good.jsonl"})
    frame = session.handle({"op": "step", "n": 500})
    assert frame["done"] and frame["step"] == 25 and frame["divergence"] is None
    assert frame["result"]["score"] == episode.result["score"]
    session.handle({"op": "replay", "name": "bad.jsonl"})
    frame = session.handle({"op": "step", "n": 500})
    assert frame["divergence"]["step"] == 20 and frame["step"] == 20 and frame["done"]


def game_call(session: Session, game: str, call: str, **fields: Any) -> dict[str, Any]:
    return session.handle({"op": "game", "game": game, "call": call, **fields})


def test_cargo_runs() -> None:
    session = Session(None)
    levels = game_call(session, "cargobot", "levels")
    assert levels["type"] == "game" and levels["game"] == "cargobot" and levels["call"] == "levels"
    assert len(levels["levels"]) == 40 and levels["levels"][0]["name"] == "Cargo 101"
    run = game_call(session, "cargobot", "run", level="Cargo 101", program="claw R claw")
    assert run["solved"] and run["stars"] == 3 and len(run["frames"]) == 4
    assert [f["claw"]["pos"] for f in run["frames"]] == [0, 0, 1, 1]
    # each frame is the board before a tick with the register that tick executes (F1's three, then the end)
    assert [(f["tick"], f["register"]) for f in run["frames"]] == [(0, [0, 0]), (1, [0, 1]), (2, [0, 2]), (3, None)]
    run = game_call(session, "cargobot", "run", level="Cargo 101", program="R claw")
    assert not run["solved"] and run["stars"] == 0 and "not solved" in run["message"]
    for program in ["fly away", "claw_red R claw", "prog_9 claw"]:
        answer = game_call(session, "cargobot", "run", level="Cargo 101", program=program)
        assert answer["type"] == "error", program
    assert game_call(session, "cargobot", "level", level="no such level")["type"] == "error"
    level = game_call(session, "cargobot", "level", level="Cargo 101")
    start = {k: v for k, v in run["frames"][0].items() if k not in ("tick", "register")}
    assert level["view"] == start and "Cargo 101" in level["info"]
    assert (level["functions"], level["commands"][:3]) == ([8, 8, 8, 5], ["right", "pickup", "left"])
    found = game_call(session, "cargobot", "solve", level="Cargo 101")
    assert found["solved"] and found["program"] == "claw R claw" and found["stars"] == 3 and not found["stopped"]
    for seconds in (0, 61, "5"):
        assert game_call(session, "cargobot", "solve", level="Cargo 101", seconds=seconds)["type"] == "error"
    refused = game_call(session, "cargobot", "solve", level="Cargo 101", second=5)  # a misspelt field
    assert refused == {"type": "error", "message": "unknown field 'second' (fields: call, game, level, op, seconds)"}


def test_a_person_plays_puyo_against_an_ai() -> None:
    session = Session(None)
    answer = game_call(session, "puyo", "key", key="left")
    assert answer["type"] == "error" and "start one first" in answer["message"]
    start = game_call(session, "puyo", "versus", bot="krieg", seed=3, mode="turn")
    assert start["type"] == "game" and start["piece"] == {"x": 3, "r": 0} and start["turn"] == 0
    person, ai = start["view"]["boards"]
    assert start["view"]["kind"] == "versus" and person["kind"] == ai["kind"] == "grid"
    assert game_call(session, "puyo", "key", key="left")["piece"] == {"x": 2, "r": 0}
    assert game_call(session, "puyo", "key", key="up")["type"] == "error"  # not a key
    dropped = game_call(session, "puyo", "key", key="drop")
    assert dropped["turn"] == 1 and dropped["status"] == "your move"
    for field in dropped["view"]["boards"]:
        assert sum(v != 0 for row in field["cells"] for v in row) == 2
    assert game_call(session, "puyo", "ai")["type"] == "error"  # turn-based: the AI has no clock of its own
    for bad in (
        {"ai_speed": 11},
        {"ai_speed": 0},
        {"ai_speed": "fast"},
        {"mode": "both"},
        {"realtime_garbage": "never"},
    ):
        answer = game_call(session, "puyo", "versus", bot="krieg", seed=3, **{"mode": "real", **bad})
        assert answer["type"] == "error" and "\n" not in answer["message"], bad
    assert game_call(session, "puyo", "key", key="cw")["turn"] == 1  # a refused start leaves the game as it was
    assert game_call(session, "puyo", "key", key="ccw")["piece"] == {"x": 3, "r": 0}
    # the page's game against the AI is its own: watching a bot meanwhile leaves it as it is
    session.handle({"op": "watch", "game": "puyo", "bot": "krieg", "seed": 1})
    assert game_call(session, "puyo", "key", key="right")["piece"] == {"x": 4, "r": 0}  # the new pair, moved


def test_game_calls_are_routed_only_to_a_games_own_controls() -> None:
    session = Session(None)
    cases = {
        ("no-such-game", "run"): "unknown game 'no-such-game'",
        ("hatris", "levels"): "hatris has no page controls of its own",
        ("cargobot", "versus"): "cargobot has no page call 'versus' (calls: levels, level, run, solve)",
        ("puyo", "levels"): "puyo has no page call 'levels' (calls: versus, key, ai)",
    }
    for (game, call), message in cases.items():
        answer = game_call(session, game, call)
        assert answer["type"] == "error" and answer["message"].startswith(message), answer
    for msg in [
        {"op": "game"},
        {"op": "game", "game": "puyo"},
        {"op": "game", "game": 3, "call": "key"},
        {"op": "game", "game": "puyo", "call": ["key"]},
    ]:
        answer = session.handle(msg)
        assert answer["type"] == "error" and "\n" not in answer["message"], msg
    assert session.controls == {}  # no session was made for a call that was refused


def test_the_page_learns_each_games_capabilities_and_web_config() -> None:
    games = {g["name"]: g for g in Session(None).handle({"op": "games"})["games"]}
    assert games["cargobot"]["controls"] == ["levels", "level", "run", "solve"] and not games["cargobot"]["episodic"]
    assert games["puyo"]["controls"] == ["versus", "key", "ai"] and games["puyo"]["episodic"]
    assert all(games[name]["script"] == f"/games/{name}/view.js" for name in ("hatris", "yoshis_cookie"))
    assert all(g["view"] for g in games.values())
    config = {f["key"]: f for f in games["puyo"]["config"]}
    assert set(config) == get_game("puyo").web_config_keys()
    assert "k3_templates" not in config  # it names a file
    assert config["pairs"] == {
        "key": "pairs",
        "help": config["pairs"]["help"],
        "type": "int",
        "default": 50,
        "min": 1,
        "max": 500,
    }  # the web bound, not the CLI's 100,000
    assert config["seq"]["choices"] == ["esports", "uniform"] and config["seq"]["type"] == "str"
    beam = next(b for b in games["puyo"]["bots"] if b["name"] == "beam")
    assert "beam_width" in beam["config_keys"]
    size = {f["key"]: f for f in games["yoshis_cookie"]["config"]}["size"]
    assert "min" not in size and size["what"].startswith("2-7")


def test_a_page_sets_a_web_key_within_its_bound() -> None:
    session = Session(None)
    frame = session.handle({"op": "watch", "game": "puyo", "bot": "krieg", "seed": 1, "config": {"pairs": 3}})
    assert frame["type"] == "frame"
    assert session.handle({"op": "step", "n": 500})["step"] == 3
    answer = session.handle({"op": "watch", "game": "puyo", "bot": "krieg", "config": {"pairs": 501}})
    assert answer["type"] == "error" and "on a web page" in answer["message"]


def test_a_game_without_a_web_view_is_drawn_as_its_terminal_text() -> None:
    game = get_game("puyo")
    state = game.new_state(1, game.check_config({}))
    assert isinstance(game, WebView) and board(game, state)["kind"] == "grid"
    text = board(TextOnly(), state)
    assert text["kind"] == "text" and "score" in text["text"]


class TextOnly:
    """Puyo's terminal view alone (a game without a web view)."""

    name = "text-only"

    def render(self, state: Any, bot: Any = None) -> Any:
        return get_game("puyo").render(state, bot)  # type: ignore[attr-defined]


def test_a_one_step_answer_animates_a_puyo_chain_link_by_link() -> None:
    """KRIEG3 fires a 3-chain with pair 13 of seed 4: the answer carries the landing and two views per link, and
    the oracle's last view is the engine's field; an answer for several steps, or not asked to, has none."""
    session = Session(None)
    session.handle({"op": "watch", "game": "puyo", "bot": "krieg3", "seed": 4, "config": {}})
    assert session.handle({"op": "step", "n": 12, "animate": True})["steps"] == []
    frame = session.handle({"op": "step", "animate": True})
    links = [view.get("link") for view in frame["steps"]]
    assert links == [None, None, 1, 1, 2, 2, 3, 3] and frame["result"]["max_chain"] == 3
    assert frame["steps"][-1]["cells"] == frame["view"]["cells"]
    assert all(view["marks"] for view in frame["steps"][2::2])  # the popping puyos are framed
    assert session.handle({"op": "step"})["steps"] == []
    answer = session.handle({"op": "step", "animate": 1})
    assert answer["type"] == "error" and "animate" in answer["message"]


def test_the_replay_list_says_game_bot_seed_length_and_date_and_seek_goes_back(tmp_path: Path) -> None:
    episode = play_episode("puyo", "krieg", 9, {"pairs": 12}, record=True)
    write_replay(tmp_path / "a.jsonl", episode, get_game("puyo").rules_version, 5)
    (tmp_path / "broken.jsonl").write_text("not json\n")
    session = Session(tmp_path)
    files = {f["name"]: f for f in session.handle({"op": "replays"})["files"]}
    good = files["a.jsonl"]
    assert (good["game"], good["bot"], good["seed"], good["length"]) == ("puyo", "krieg", 9, 12)
    assert good["date"].endswith("UTC") and "error" in files["broken.jsonl"]
    assert session.handle({"op": "seek", "step": 3})["type"] == "error"  # no replay open
    session.handle({"op": "replay", "name": "a.jsonl"})
    late = session.handle({"op": "seek", "step": 9})
    back = session.handle({"op": "seek", "step": 4})
    assert (late["step"], back["step"]) == (9, 4)
    again = session.handle({"op": "seek", "step": 9})
    assert again["view"] == late["view"] and again["result"] == late["result"]
    assert session.handle({"op": "seek", "step": 13})["type"] == "error"  # past the end


def test_every_cargo_example_program_wins_its_level() -> None:
    from puzzlebots.games.cargobot.view import examples, run

    found = examples()
    assert len(found) >= 27 and "Cargo 101" in found
    assert all(run(level, program)["solved"] for level, program in found.items())


def test_a_hatris_placement_is_animated_falling_then_vanishing() -> None:
    """The searcher's pairs fall onto the piles the engine puts them on; a 5-run is marked before it vanishes."""
    session = Session(None)
    session.handle({"op": "watch", "game": "hatris", "bot": "searcher", "seed": 4, "config": {"max_spawns": 60}})
    vanishes = placements = 0
    for _ in range(60):
        used = sum(session.play.state.result()["helpers_used"]) if session.play else 0
        frame = session.handle({"op": "step", "animate": True})
        steps = frame["steps"]
        if sum(frame["result"]["helpers_used"]) > used:
            assert steps == []  # a helper's use is not animated
            continue
        placements += 1
        assert len(steps) == 4 and steps[0]["falling"][0]["y"] > steps[2]["falling"][0]["y"]
        landed = steps[-1]["columns"]
        marked = [h for pile in landed for h in pile if h.get("vanish")]
        vanishes += bool(marked)
        kept = [[h for h in pile if not h.get("vanish")] for pile in landed]
        assert [[h["type"] for h in p] for p in kept] == [[h["type"] for h in p] for p in frame["view"]["columns"]]
        assert len(marked) % 5 == 0
        if frame["done"]:
            break
    assert vanishes >= 1 and placements >= 50


def test_a_watch_warms_its_bot_once_and_the_game_is_the_same() -> None:
    """The spare decision of a watch (its kernels compiled or loaded outside the first step's budget) changes
    nothing the page sees: the steps are those of a session whose bot was warmed by another game before."""
    session = Session(None)
    session.handle({"op": "watch", "game": "puyo", "bot": "krieg", "seed": 4, "config": {}})
    assert session.warm == {("puyo", "krieg")}
    first = session.handle({"op": "step", "n": 5})
    session.handle({"op": "watch", "game": "puyo", "bot": "krieg", "seed": 4, "config": {}})  # no second warm-up
    assert session.handle({"op": "step", "n": 5})["view"] == first["view"]
    session.handle({"op": "watch", "game": "hatris", "bot": "random", "seed": 1, "config": {}})
    assert ("hatris", "random") not in session.warm  # it calls no kernels


def test_a_watch_may_take_longer_than_a_step() -> None:
    from puzzlebots.web.server import WATCH_ALLOWANCE, allowance

    assert allowance(json.dumps({"op": "watch", "game": "puyo"}), 20.0) == WATCH_ALLOWANCE
    assert allowance(json.dumps({"op": "preview", "game": "puyo"}), 20.0) == WATCH_ALLOWANCE  # it warms up too
    for text in [json.dumps({"op": "step"}), "not json", "[" * 100_000, json.dumps(["watch"])]:
        assert allowance(text, 20.0) == 20.0


def test_the_start_pages_small_games_play_apart_from_the_watched_one() -> None:
    session = Session(None)
    session.handle({"op": "watch", "game": "hatris", "bot": "searcher", "seed": 3, "config": {}})
    first = session.handle({"op": "preview", "game": "puyo"})
    assert (first["type"], first["bot"], first["step"]) == ("preview", "krieg3", 0)  # the bot Puyo names for it
    steps = [session.handle({"op": "preview", "game": "puyo"})["step"] for _ in range(3)]
    assert steps == [1, 2, 3]
    assert session.handle({"op": "preview", "game": "hatris"})["bot"] == "searcher"  # else the first bot
    assert session.handle({"op": "step"})["step"] == 1  # the watched game went on by itself
    assert session.handle({"op": "preview", "game": "cargobot"})["type"] == "error"  # no seeded bot games


def test_a_frame_carries_the_bots_thinking_where_it_has_it() -> None:
    session = Session(None)
    config = {"builder_futures": 2, "builder_width": 16, "builder_depth": 4, "pairs": 5}
    assert (
        session.handle({"op": "watch", "game": "puyo", "bot": "builder", "seed": 1, "config": config})["thinking"]
        is None
    )  # no decision yet
    thinking = session.handle({"op": "step"})["thinking"]
    candidates = thinking["candidates"]
    assert 1 < len(candidates) <= 5 and all(c["move"].startswith("column ") for c in candidates)
    assert [c["score"] for c in candidates] == sorted((c["score"] for c in candidates), reverse=True)
    json.dumps(thinking)  # plain data
    session.handle({"op": "watch", "game": "hatris", "bot": "searcher", "seed": 1, "config": {}})
    candidates = session.handle({"op": "step"})["thinking"]["candidates"]
    assert candidates and candidates[0]["move"].startswith("the pair on piles")
    session.handle({"op": "watch", "game": "puyo", "bot": "krieg", "seed": 1, "config": {}})
    assert session.handle({"op": "step"})["thinking"] is None  # a bot without thinking()


def _first_steps_agree(bot: Searcher, state: HatrisState) -> None:
    """The searcher's ranked first steps start with the step it chose, at the chain score it found, and each
    score is what the readable oracle finds for that step."""
    state = state.clone()
    action = bot.act(state)
    ranked = bot.ranked_steps()
    assert ranked[0][0] == action and ranked[0][1] == pytest.approx(bot.last_score, abs=1e-9)
    assert [score for _, score in ranked] == sorted((score for _, score in ranked), reverse=True)
    field = oracle.Field([list(p) for p in state.piles], list(state.pool), list(state.bars))
    assert state.current is not None
    steps = dict(oracle.options(field, state.current, state.rules))  # each score is its chain's, by the oracle
    for step, score in ranked:
        assert score == pytest.approx(oracle.second_step(steps[step], state.next, state.rules, default_weights()))
    first = bot.thinking()["candidates"][0]
    assert (first["move"], first["score"]) == (step_name(action), round(bot.last_score, 2))


def test_the_searchers_ranked_first_steps_begin_with_its_choice() -> None:
    session = Session(None)
    session.handle({"op": "watch", "game": "hatris", "bot": "searcher", "seed": 3, "config": {}})
    assert session.play is not None and isinstance(session.play.bot, Searcher)
    for _ in range(12):  # played through the page: the thinking shown is the bot's choice, best first
        frame = session.handle({"op": "step"})
        candidates = frame["thinking"]["candidates"]
        assert 1 < len(candidates) <= 5
        assert candidates[0]["score"] == round(session.play.bot.last_score, 2)
    config = {"pair_source": "uniform", "start_level": 12}
    for piles, pool in (([[1, 4], [6], [], [4, 4, 1], [], [6]], [1, 0]), ([[2, 3]] * 3 + [[]] * 3, [1])):
        state = HatrisState(5, config)  # small fields with helpers on hand: helper uses are candidates too
        state.piles, state.pool = [list(p) for p in piles], pool
        _first_steps_agree(Searcher(state.rules, default_weights()), state)


def test_builders_target_chain_is_the_chain_its_trigger_fires_on_the_board_shown() -> None:
    session = Session(None)
    config = {"builder_futures": 2, "builder_width": 16, "builder_depth": 4, "pairs": 16}
    session.handle({"op": "watch", "game": "puyo", "bot": "builder", "seed": 1, "config": config})
    assert session.play is not None
    bot, seen = session.play.bot, 0
    assert isinstance(bot, BuilderBot)
    for _ in range(14):
        frame = session.handle({"op": "step"})
        figures = dict(frame["thinking"]["figures"])
        chain = bot.target()
        if chain.fires_now or not chain.links:
            continue
        seen += 1
        field: Any = session.play.state.field
        cols = [[int(v) for v in field.cells[x, : int(field.heights[x])]] for x in range(6)]
        for x, y, colour in chain.trigger:  # the trigger sits on top of its column of the field shown
            assert y == len(cols[x])
            cols[x].append(colour)
        assert puyo_oracle.resolve(cols)[:2] == (chain.links, chain.score) and figures["its score"] == chain.score
        assert figures["target chain"].startswith(f"{chain.links} link")
        ghosts = {(g["r"], g["c"]) for g in frame["view"]["ghosts"]}
        marks = {(m["r"], m["c"], m["n"]) for m in frame["view"]["marks"]}
        assert ghosts == {(15 - y, x) for x, y, _ in chain.trigger}  # 3 hover rows + 13 rows, row 0 at the bottom
        assert marks == {(15 - y, x, link) for x, y, link in chain.pops}
        assert {link for *_, link in chain.pops} == set(range(1, chain.links + 1))
    assert seen
