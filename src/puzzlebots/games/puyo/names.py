"""Names that listing the game and its options needs (reach rules, pair sequences, bot weight names), kept apart
from numpy and the numba kernels so that ``puzzlebots list`` and ``--help`` do not load them."""

from __future__ import annotations

#: the tallest column height the pair can still cross, per reach rule (reference Q6): one below the 12 visible
#: rows, or all 12 (``rules.VISIBLE_ROWS``; a test checks they agree)
REACH_RULES = {"strict": 11, "climb12": 12}
#: the pair sequences (``pairs``)
SEQUENCES = ("esports", "uniform")
#: where the frame clock's numbers come from, and its margin-time targets (``frames``; docs/rules/puyo.md)
FRAME_SOURCES = ("nova", "puyoai")
MARGIN_SOURCES = ("reference", "nova")
#: the modified KRIEG evaluation's weights (``bots.krieg``)
KRIEG_WEIGHT_NAMES = ("wH", "wE", "wG")
#: the chain evaluation's features, in the kernel's order (``kernels.chain_eval``)
CHAIN_WEIGHT_NAMES = (
    "chain",
    "y",
    "key",
    "chi",
    "shape",
    "well",
    "bump",
    "link2",
    "link3",
    "nuisance",
    "side",
    "spawn",
    "tear",
    "waste",
    "form",
)
