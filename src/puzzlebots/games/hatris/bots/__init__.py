"""The Hatris bots: ``searcher`` (the Hatris AI article's search chain) and ``random`` (ours, for tests)."""
