"""The numba hot paths of Puyo, one module per thing they hold.

``bitboard``: the field as bit planes (drops, pops, gravity, Tsu scoring, garbage), which the engine, every
bot and the Gym env run on; ``bits``: the bit-count intrinsics it uses; ``placements``: which placements a pair
can reach (from column heights); ``beam``: the beam bot's search and evaluation; ``builder`` and
``chain_eval``: the chain builder's parallel multi-future beam and its ama-like evaluation. ``field`` is the
grid kernel the bitboards replaced, kept as the oracle of their differential tests, as is the readable
``games.puyo.oracle``.
"""
