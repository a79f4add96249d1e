"""Head-to-head matches between two bots: game pairs, the Elo difference with its interval, and the SPRT.

A match plays *game pairs*: two games on one seed with the sides swapped, so the luck of a seed counts for both
bots alike. Bot A's points in a pair (0, 1/2, 1, 3/2 or 2) are counted in five bins, the *pentanomial*, and the
statistics treat the pair as the sample, as fishtest does (official-stockfish/fishtest, ``server/fishtest/stats``):
the two games of a pair are correlated through their shared seed, which the trinomial model (games as independent
samples) ignores.

* Elo: the logistic Elo of A's mean score per game, ``-400 log10(1/s - 1)``, and a 95% interval from the normal
  approximation of the mean (its standard error over pairs), mapped through the same function.
* SPRT: the generalized sequential probability ratio test of H0 ``elo = elo0`` against H1 ``elo = elo1``: the log
  likelihood ratio of the two maximum-likelihood pentanomial distributions whose mean scores are those Elos, given
  the observed frequencies; H1 is accepted when it passes ``log((1 - beta) / alpha)``, H0 when it falls below
  ``log(beta / (1 - alpha))``.

Like fishtest, an empty bin counts as 0.001 of a pair (a small prior), so that a run of wins only still has a finite
Elo, variance and likelihood ratio. Unlike fishtest, no overshoot correction is applied to the bounds.

The module also runs a match over ``core.batch.run_tasks``: pairs in seed order, resumable, stopped by the SPRT on
the seed-ordered prefix of finished pairs, so the outcome never depends on the number of workers.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from .batch import run_tasks
from .errors import ConfigError

#: the weight of an empty frequency bin (fishtest's regularization)
EMPTY_BIN = 1e-3
#: the score an Elo figure is clamped to at either end (fishtest's ``elo``): at most about +-1200 Elo
SCORE_CLAMP = 1e-3
#: the two-sided 95% quantile of the standard normal law, 1.95996...
Z95 = NormalDist().inv_cdf(0.975)
#: the largest Elo a bound of the SPRT may name (a score of 1 - 1e-6 and beyond cannot be told apart)
MAX_SPRT_ELO = 2000.0


def score_of_elo(elo: float) -> float:
    """The expected score per game of a player ``elo`` logistic Elo points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of_score(score: float) -> float:
    """The logistic Elo difference of a mean score per game (clamped to ``SCORE_CLAMP``..1 - ``SCORE_CLAMP``)."""
    s = min(max(score, SCORE_CLAMP), 1.0 - SCORE_CLAMP)
    return -400.0 * math.log10(1.0 / s - 1.0)


def distribution(counts: Sequence[int]) -> tuple[float, list[tuple[float, float]]]:
    """The number of samples and ``(score per game, probability)`` of trinomial (L, D, W) or pentanomial counts
    (pairs of 0..4 half points), empty bins regularized (the samples include their weight, as fishtest's do)."""
    if len(counts) not in (3, 5) or any(c < 0 for c in counts) or sum(counts) == 0:
        raise ValueError(f"counts must be 3 or 5 non-negative numbers, not all 0: {list(counts)}")
    weights = [c if c > 0 else EMPTY_BIN for c in counts]
    total = sum(weights)
    last = len(counts) - 1
    return total, [(i / last, w / total) for i, w in enumerate(weights)]


def mean_and_variance(pdf: Sequence[tuple[float, float]]) -> tuple[float, float]:
    mean = sum(p * a for a, p in pdf)
    return mean, sum(p * (a - mean) ** 2 for a, p in pdf)


@dataclass(frozen=True)
class EloEstimate:
    """The Elo difference (A minus B) with its 95% interval, and the likelihood that A is the stronger."""

    elo: float
    low: float
    high: float
    los: float

    def as_dict(self) -> dict[str, float]:
        return {"elo": self.elo, "elo_low": self.low, "elo_high": self.high, "los": self.los}


def elo_estimate(counts: Sequence[int]) -> EloEstimate:
    """The Elo estimate from trinomial or pentanomial ``counts`` (samples: games or game pairs)."""
    samples, pdf = distribution(counts)
    mean, variance = mean_and_variance(pdf)
    error = math.sqrt(variance / samples)
    return EloEstimate(
        elo_of_score(mean),
        elo_of_score(mean - Z95 * error),
        elo_of_score(mean + Z95 * error),
        NormalDist().cdf((mean - 0.5) / error),
    )


def _secular_root(pdf: Sequence[tuple[float, float]]) -> float:
    """The ``x`` with ``sum p_i a_i / (1 + x a_i) = 0`` where every ``1 + x a_i > 0`` (the ``a_i`` take both signs).

    The sum falls strictly as ``x`` grows on that interval, from +infinity to -infinity, so bisection finds its one
    root; 200 halvings reach the precision of a float.
    """
    lo, hi = -1.0 / max(a for a, _ in pdf), -1.0 / min(a for a, _ in pdf)
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if sum(p * a / (1 + mid * a) for a, p in pdf) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def most_likely(pdf: Sequence[tuple[float, float]], score: float) -> list[float]:
    """The probabilities, on the same scores, of the distribution of mean ``score`` most likely to have given the
    observed ``pdf`` (a Lagrange multiplier: ``p_i / (1 + x (a_i - score))``)."""
    x = _secular_root([(a - score, p) for a, p in pdf])
    return [p / (1 + x * (a - score)) for a, p in pdf]


def llr(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """The generalized log likelihood ratio of ``elo1`` against ``elo0`` (logistic) for the observed ``counts``."""
    samples, pdf = distribution(counts)
    s0, s1 = score_of_elo(elo0), score_of_elo(elo1)
    lowest, highest = pdf[0][0], pdf[-1][0]
    if not lowest < s0 < highest or not lowest < s1 < highest:
        raise ValueError(f"the SPRT bounds {elo0}, {elo1} lie outside the scores a game can give")
    p0, p1 = most_likely(pdf, s0), most_likely(pdf, s1)
    return samples * sum(p * math.log(q1 / q0) for (_, p), q0, q1 in zip(pdf, p0, p1, strict=True))


@dataclass(frozen=True)
class Sprt:
    """The sequential test of H0 ``elo = elo0`` against H1 ``elo = elo1`` with error rates ``alpha``, ``beta``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1", "alpha", "beta"):
            if not math.isfinite(getattr(self, name)):
                raise ConfigError(f"--sprt: {name} must be a finite number")
        if not -MAX_SPRT_ELO <= self.elo0 < self.elo1 <= MAX_SPRT_ELO:
            raise ConfigError(
                f"--sprt ELO0,ELO1: need {-MAX_SPRT_ELO:g} <= ELO0 < ELO1 <= {MAX_SPRT_ELO:g}, "
                f"got {self.elo0:g},{self.elo1:g}"
            )
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ConfigError(f"--alpha and --beta must lie between 0 and 0.5, got {self.alpha:g} and {self.beta:g}")

    @property
    def lower(self) -> float:
        """Below this log likelihood ratio the test accepts H0."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Above this log likelihood ratio the test accepts H1."""
        return math.log((1 - self.beta) / self.alpha)

    def decide(self, counts: Sequence[int]) -> tuple[float, str | None]:
        """The log likelihood ratio of ``counts`` and the decision: "H0", "H1" or None (play on)."""
        ratio = llr(counts, self.elo0, self.elo1)
        return ratio, "H1" if ratio >= self.upper else "H0" if ratio <= self.lower else None

    def as_dict(self) -> dict[str, float]:
        return {
            "elo0": self.elo0,
            "elo1": self.elo1,
            "alpha": self.alpha,
            "beta": self.beta,
            "lower": self.lower,
            "upper": self.upper,
        }


# --------------------------------------------------------------------------- playing a match

#: one game: ``play(bot_a, bot_b, seed, *args)`` gives a dict whose ``winner`` is 0 (``bot_a``), 1 or None (draw);
#: ``play(..., sides=(a, b))`` also gives each bot its own config overrides (first player's, second's)
PlayGame = Callable[..., dict[str, Any]]
#: config overrides each of the two bots reads on top of the shared config (A's, then B's)
Sides = tuple[Mapping[str, Any], Mapping[str, Any]]


def play_pair(
    play: PlayGame, bot_a: str, bot_b: str, seed: int, *args: Any, sides: Sides | None = None
) -> dict[str, Any]:
    """The two games of one seed, A first then B first; a top-level function so that it pickles into workers.
    With ``sides`` (A's overrides, B's) each bot keeps its own in both games: two settings of one bot can play."""
    if sides is None:
        return {"seed": seed, "games": [play(bot_a, bot_b, seed, *args), play(bot_b, bot_a, seed, *args)]}
    a, b = sides
    return {
        "seed": seed,
        "games": [play(bot_a, bot_b, seed, *args, sides=(a, b)), play(bot_b, bot_a, seed, *args, sides=(b, a))],
    }


def game_points(pair: Mapping[str, Any]) -> tuple[int, int]:
    """Bot A's half points (0 loss, 1 draw, 2 win) in the two games of ``pair`` (A is player 1 in the second)."""
    first, second = (g["winner"] for g in pair["games"])
    return (1 if first is None else 2 * (first == 0)), (1 if second is None else 2 * (second == 1))


def pentanomial(pairs: Iterable[Mapping[str, Any]]) -> list[int]:
    """How many pairs gave bot A 0, 1/2, 1, 3/2 and 2 points."""
    counts = [0] * 5
    for pair in pairs:
        counts[sum(game_points(pair))] += 1
    return counts


def valid_pair(record: Any, seed: int) -> bool:
    """Whether ``record`` (read back from a progress file) is a pair of two games of ``seed`` with a valid winner."""
    if not isinstance(record, dict) or record.get("seed") != seed or type(record.get("seed")) is not int:
        return False
    games = record.get("games")
    return (
        isinstance(games, list)
        and len(games) == 2
        and all(
            isinstance(g, dict) and g.get("winner", 2) in (0, 1, None) and type(g["winner"]) is not bool for g in games
        )
    )


@dataclass
class MatchOutcome:
    """The pairs that count (in seed order), and the SPRT's last log likelihood ratio and decision if one ran."""

    pairs: list[dict[str, Any]]
    llr: float | None = None
    decision: str | None = None


class _Decided(Exception):
    """Raised from a result callback to stop the batch once the SPRT has decided (the pool cancels the rest)."""


def run_match(
    play: PlayGame,
    bot_a: str,
    bot_b: str,
    seeds: Sequence[int],
    args: tuple[Any, ...],
    *,
    sprt: Sprt | None = None,
    done: Mapping[int, dict[str, Any]] | None = None,
    on_pair: Callable[[dict[str, Any]], None] | None = None,
    jobs: int | None = None,
    executor: str = "process",
    address: str | None = None,
    progress: bool = True,
    sides: Sides | None = None,
) -> MatchOutcome:
    """Play one pair per seed (``play_pair(play, bot_a, bot_b, seed, *args, sides=sides)``) in parallel.

    ``done`` holds pairs of a resumed run by seed; ``on_pair`` sees each new pair as it arrives. With ``sprt``
    the test is run on the pairs in seed order, once per pair, and the match ends at the first pair where it
    decides: no pair after it is submitted or counted, whatever order the workers finished in.
    """
    have = dict(done or {})
    order = list(seeds)
    counted: list[dict[str, Any]] = []
    counts = [0] * 5
    state: dict[str, Any] = {"llr": None, "decision": None}

    def advance() -> bool:
        """Count the finished pairs that follow the counted ones in seed order; True once the test decides."""
        while state["decision"] is None and len(counted) < len(order) and order[len(counted)] in have:
            pair = have[order[len(counted)]]
            counted.append(pair)
            counts[sum(game_points(pair))] += 1
            if sprt is not None:
                state["llr"], state["decision"] = sprt.decide(counts)
        return state["decision"] is not None

    if not advance():
        todo = [s for s in order if s not in have]

        def arrived(i: int, pair: dict[str, Any]) -> None:
            have[todo[i]] = pair
            if on_pair is not None:
                on_pair(pair)
            if state["decision"] is None and advance():  # pairs that finish after the decision are kept, not counted
                raise _Decided

        try:
            run_tasks(
                play_pair if sides is None else functools.partial(play_pair, sides=sides),
                ((play, bot_a, bot_b, s, *args) for s in todo),
                total=len(todo),
                jobs=jobs,
                executor=executor,
                address=address,
                description=f"{bot_a} vs {bot_b}, pairs",
                progress=progress,
                on_result=arrived,
            )
        except _Decided:
            pass
    return MatchOutcome(counted, state["llr"], state["decision"])


def summarize(bots: Sequence[str], outcome: MatchOutcome, sprt: Sprt | None) -> dict[str, Any]:
    """Wins, draws and losses per bot, the pentanomial, the Elo estimate of A over B and the SPRT's state."""
    points = [p for pair in outcome.pairs for p in game_points(pair)]
    wins, draws, losses = points.count(2), points.count(1), points.count(0)
    summary: dict[str, Any] = {
        "bots": list(bots),
        "pairs": len(outcome.pairs),
        "games": len(points),
        "wins": [wins, losses],
        "draws": draws,
        "losses": [losses, wins],
        "score": (wins + draws / 2) / len(points) if points else None,
        "pentanomial": pentanomial(outcome.pairs),
    }
    if outcome.pairs:
        summary.update(elo_estimate(summary["pentanomial"]).as_dict())
    if sprt is not None:
        summary["sprt"] = {**sprt.as_dict(), "llr": outcome.llr, "decision": outcome.decision}
    return summary
