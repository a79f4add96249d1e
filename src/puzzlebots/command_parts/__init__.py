"""What a command is built from: option types and checks, the files a command writes, terminal output, and the
``match`` command's options and tables.

Both ``puzzlebots.cli`` and a game's own commands (``Commands.extra_commands``) use these; a game imports them
and ``puzzlebots.core``, never ``puzzlebots.cli``, so every game stands below the command line.
"""
