"""Game-agnostic machinery: protocols, registry, episode runner, batch evaluation, replays, tuning.

Nothing in here imports a game: games are found through the ``puzzlebots.games`` entry points.
"""
