"""The local web viewer and player (``puzzlebots serve``, the ``[web]`` extra).

``server`` holds the aiohttp app; ``session`` the message protocol (plain Python, no sockets); ``views``
turns each game's public state into the JSON the page draws; ``files`` decides which files may be served.
"""
