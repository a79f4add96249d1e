"""Cargo-Bot's game-wide config: none. Its rules choices belong to one run of one program (the semantics, the
vaguery emulator's fragile/unstable crates, step and height limits: ``puzzlebots cargobot run --help``), so they
are options of the ``run``/``solve``/``climb`` commands, and the game's schema declares no key."""

from __future__ import annotations

from dataclasses import dataclass

from puzzlebots.core.config import Schema


@dataclass(frozen=True)
class CargoBotConfig(Schema):
    """No key: every Cargo-Bot setting is per run (see the module docstring)."""
