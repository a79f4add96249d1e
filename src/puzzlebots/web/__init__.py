"""The local web viewer and player (``puzzlebots serve``, the ``[web]`` extra): a shell that knows no game.

``server`` holds the aiohttp app; ``session`` the message protocol (plain Python, no sockets); ``games`` what
the page learns of each game from its capabilities; ``files`` decides which files may be served. Each game's
board JSON, page script and controls come from the game's own folder (``view.py``, ``web/``).
"""
