"""Errors that reach the user as one clear line and exit code 2 (see ``cli.main``)."""


class PuzzlebotsError(Exception):
    """Base class: anything the user can cause by bad input (arguments, files, programs, actions)."""


class ConfigError(PuzzlebotsError, ValueError):
    """A configuration value, bot name, game name or weight vector is not acceptable."""


class InputError(PuzzlebotsError, ValueError):
    """A file or text given by the user (replay, program, level, template, weights) is malformed."""


class IllegalActionError(PuzzlebotsError, ValueError):
    """An action was asked of an engine that the current state does not allow."""
