"""One sub-package per game. A game never imports another game."""
