"""numba kernels of the searcher (the hot paths); :mod:`..oracle` is the slow readable twin they are tested against."""
