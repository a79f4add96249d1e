"""numba kernels of the searcher and the expectimax bot (the hot paths); :mod:`..oracle` is the slow readable twin
they are tested against.

:mod:`.params` the arguments (small arrays with named indices, the tables), :mod:`.metrics` the 8 metrics in
additive pieces, :mod:`.moves` placements, landings and Alexey removals, :mod:`.tables` the per-pile tables,
:mod:`.search` the two-step chain; for the expectimax bot :mod:`.pairs` that chain for every possible next pair in
one pass (tested against :mod:`.search`) and :mod:`.expect` the three-pair expectation.

numba's ``cache=True`` keys each kernel's cache on its own file only: after editing a module here, the cached
kernels of the modules that call it (or read its constants) are stale; delete ``kernels/__pycache__``.
"""
