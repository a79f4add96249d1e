"""Names that listing the game needs (reach rules, bot weight names), kept apart from the numba kernels so that
``puzzlebots list`` and ``--help`` do not load them."""

from __future__ import annotations

from .rules import VISIBLE_ROWS

#: the number of the tallest column height the pair can still cross, per reach rule (reference Q6)
REACH_RULES = {"strict": VISIBLE_ROWS - 1, "climb12": VISIBLE_ROWS}
#: the modified KRIEG evaluation's weights (``bots.krieg``)
KRIEG_WEIGHT_NAMES = ("wH", "wE", "wG")
#: the chain evaluation's features, in the kernel's order (``kernels.chain_eval``)
CHAIN_WEIGHT_NAMES = ("chain", "y", "key", "chi", "shape", "well", "bump", "link2", "link3", "nuisance", "side",
                      "spawn", "tear", "waste", "form")
