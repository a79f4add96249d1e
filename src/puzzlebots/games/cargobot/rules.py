"""Cargo-Bot's rules as data: the toolbox, what a run can end in, and the numbers every interpreter shares.

The readable oracle, the interpreter kernels and the solver read these, so the three cannot drift apart.
"""

from __future__ import annotations

#: level packs, in the game's order
PACKS = ("Tutorial", "Easy", "Medium", "Hard", "Crazy", "Impossible", "Bonus")
#: register slots of F1-F4 and the commands of a level that names none
DEFAULT_FUNCTIONS = (8, 8, 8, 5)
DEFAULT_COMMANDS = ("right", "pickup", "left", "f1", "f2", "f3", "f4")
#: every command a toolbox may hold, and the crate colours a condition may name
COMMANDS = ("right", "left", "pickup", "f1", "f2", "f3", "f4", "f5")
COLOURS = ("blue", "red", "green", "yellow")

#: run outcomes; ``out_of_steps`` is the step limit (vaguery) or tick budget (game)
OUTCOMES = ("solved", "crashed", "toppled", "out_of_steps", "finished")
#: the kernels' codes of the moving commands
RIGHT, LEFT, PICKUP = 1, 2, 3
#: game semantics: a pile this high topples when the claw leaves it
TOPPLE_HEIGHT = 7
#: function calls a single tick may follow before the program is taken to loop without acting
FETCH_GUARD = 1000
