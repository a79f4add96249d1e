"""Hatris (NES, 1990): a faithful engine with the NES pair PRNG, and the Hatris AI article's searcher."""
