"""numba hot paths: the two interpreters (``interpreter``) and the synthesizer's search (``solve``)."""
