"""The numba hot paths of Puyo, one module per thing they hold.

``field``: the grid field (heights, groups, chain resolution with Tsu scoring); ``placements``: where a pair
may go and what dropping it there does; ``beam``: the beam bot's search and evaluation. The readable
reference they are tested against is ``games.puyo.oracle``.
"""
