"""Seed derivation in one place, so a bot's randomness never shares a stream with its game's.

A game's engine draws from ``seed``; its bot draws from :func:`bot_seed` of the same number. Everything that
starts a bot (the runner, the web page, a versus match) calls this function, so a game watched on the page is
the game ``stats`` counted.
"""

from __future__ import annotations

#: mixed into the game seed for the bot's own stream
BOT_SEED_SALT = 0x5EED_B07


def bot_seed(seed: int, player: int | None = None) -> int:
    """The seed of the bot that plays the game of ``seed`` (``player`` 0, 1, ... in a match of several bots)."""
    own = seed ^ BOT_SEED_SALT
    return own if player is None else own * 2 + player
