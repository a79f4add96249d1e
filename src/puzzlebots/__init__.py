"""puzzlebots: faithful, fast simulators of four classic puzzle games and the AIs that play them."""

__version__ = "0.1.0"
