"""Seed derivation in one place, so a bot's randomness never shares a stream with its game's.

A game's engine draws from ``seed``; its bot draws from :func:`bot_seed` of the same number. Everything that
starts a bot (the runner, the web page, a versus match) calls this function, so a game watched on the page is
the game ``stats`` counted. ``MAX_SEED`` bounds every seed a command or a file may name.
"""

from __future__ import annotations

#: mixed into the game seed for the bot's own stream
BOT_SEED_SALT = 0x5EED_B07
#: the largest seed: what a 64-bit engine seed holds, and so what every seed option and replay file accepts
MAX_SEED = 2**63 - 1


def bot_seed(seed: int, player: int | None = None) -> int:
    """The seed of the bot that plays the game of ``seed`` (``player`` 0, 1, ... in a match of several bots)."""
    own = seed ^ BOT_SEED_SALT
    return own if player is None else own * 2 + player


def legacy_seed(seed: int, offset: int) -> int:
    """A seed for numpy's ``RandomState`` (which takes 0..2**32-1) derived from ``seed``: ``seed + offset``
    where that fits (as runs made before any larger seed was allowed had it), else a 32-bit hash of both."""
    if 0 <= seed + offset < 2**32:
        return seed + offset
    import numpy as np  # here: ``--help`` and ``list`` import this module and load no numpy

    return int(np.random.SeedSequence([seed, offset]).generate_state(1)[0])
