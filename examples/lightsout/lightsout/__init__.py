"""Lights Out on a 5 x 5 board: pressing a light toggles it and its four neighbours; the goal is every light off.

The example game of docs/architecture.md: one folder with the files every puzzlebots game has (config, engine,
bots, terminal view, web view, Gym adapter, the adapter object ``game.GAME``), registered by the entry point in
its own ``pyproject.toml``.
"""
