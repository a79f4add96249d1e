"""The Puyo bots: ``krieg`` and ``krieg3`` (the KRIEG3 article's AIs) and ``beam`` (ours)."""
