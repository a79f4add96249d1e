"""The ``puzzlebots`` command line."""

from . import commands  # noqa: F401  (registers the commands on ``cli``)
from .app import cli, main

__all__ = ["cli", "main"]
