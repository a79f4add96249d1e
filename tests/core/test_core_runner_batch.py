"""Episode runner and batch evaluation on the toy game: determinism, seed order, any number of workers."""

import pytest

from puzzlebots.core.batch import evaluate, run_tasks
from puzzlebots.core.errors import ConfigError
from puzzlebots.core.runner import play_episode


def test_episode_is_deterministic_and_records_hashes():
    a = play_episode("cards", "random", 7, record=True, hash_every=3)
    b = play_episode("cards", "random", 7, record=True, hash_every=3)
    assert a.result == b.result and a.actions == b.actions and a.hashes == b.hashes
    assert len(a.actions) == 20
    assert [n for n, _ in a.hashes] == [0, 3, 6, 9, 12, 15, 18, 20]
    c = play_episode("cards", "random", 8)
    assert c.result != a.result  # another seed, another game


def test_threshold_bot_scores_as_computed_by_hand():
    # seed 3 with 5 cards: the bot with equal weights takes exactly the cards above 5
    from toygame import GAME

    cards = GAME.new_state(3, GAME.check_config({"cards": 5})).cards
    expected = sum(c if c > 5 else 5 for c in cards)
    ep = play_episode("cards", "threshold", 3, {"cards": 5})
    assert ep.result["score"] == expected
    assert ep.result["seed"] == 3 and ep.result["decisions"] == 5 and ep.result["truncated"] is False


def test_max_actions_truncates():
    ep = play_episode("cards", "random", 1, max_actions=4)
    assert ep.result["decisions"] == 4 and ep.result["truncated"] is True


def test_evaluate_same_for_any_jobs_and_in_seed_order():
    one = evaluate("cards", "random", range(10, 30), jobs=1, progress=False)
    two = evaluate("cards", "random", range(10, 30), jobs=2, progress=False)
    assert one == two
    assert [r["seed"] for r in one] == list(range(10, 30))


def test_evaluate_resumes_from_done_results():
    full = evaluate("cards", "random", range(5), jobs=1, progress=False)
    seen = []
    part = evaluate(
        "cards", "random", range(5), jobs=1, progress=False, done={0: full[0], 1: full[1]}, on_result=seen.append
    )
    assert part == full
    assert sorted(r["seed"] for r in seen) == [2, 3, 4]  # only the missing games were played


def test_bad_config_and_names_are_config_errors():
    with pytest.raises(ConfigError, match="unknown config key"):
        play_episode("cards", "random", 0, {"nope": 1})
    with pytest.raises(ConfigError, match=r"^cards: cards must be an integer in 1\.\.1000, got 0$"):
        play_episode("cards", "random", 0, {"cards": 0})
    with pytest.raises(ConfigError, match="unknown bot"):
        play_episode("cards", "nobot", 0)
    with pytest.raises(ConfigError, match="unknown game"):
        play_episode("nogame", "random", 0)
    with pytest.raises(ConfigError, match="needs 2 weights"):
        play_episode("cards", "threshold", 0, weights=[1.0])


def _square(x: int) -> int:
    return x * x


def test_run_tasks_keeps_input_order_over_a_real_pool():
    assert run_tasks(_square, [(i,) for i in range(50)], jobs=2, progress=False) == [i * i for i in range(50)]
