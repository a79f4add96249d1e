"""The bots, one module each: ``solver`` (linear algebra over GF(2)) and ``random``."""
