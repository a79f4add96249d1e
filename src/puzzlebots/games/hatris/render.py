"""Text views of a Hatris state: the rich renderable that ``watch`` and the playthroughs draw."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from puzzlebots.core.panel import game_panel

from .engine import HatrisState
from .rules import HAT_COLOURS, HAT_LETTERS, HAT_NAMES, HELPER_NAMES


def _hat(t: int) -> Text:
    return Text(HAT_LETTERS[t], style=f"bold {HAT_COLOURS[t]}")


def render(state: HatrisState) -> RenderableType:
    """Piles bottom-up (letters T W K C D B = top, wizard, crown, cap, derby, cowboy) and the game figures."""
    heights = state.heights()
    rows = max([len(p) for p in state.piles] + [1])
    field = Table.grid(padding=(0, 1))
    for _ in range(6):
        field.add_column(justify="center")
    for r in range(rows - 1, -1, -1):
        field.add_row(*[_hat(p[r]) if r < len(p) else Text("·", style="dim") for p in state.piles])
    field.add_row(*[Text(str(h), style="dim") for h in heights])
    info = Text()
    if state.current is not None:
        info.append("pair ")
        info.append_text(_hat(state.current[0]))
        info.append_text(_hat(state.current[1]))
    info.append("  next ")
    info.append_text(_hat(state.next[0]))
    info.append_text(_hat(state.next[1]))
    shop, stage = divmod(state.level, 10)
    info.append(f"\nlevel {state.level} (shop {shop} stage {stage})  stacks {state.stacks_level}/{state.quota}")
    info.append(f"\ncash {state.cash}  spawns {state.spawns}")
    info.append(f"\nhelpers {' '.join(HELPER_NAMES[k] for k in state.pool) or '-'} (top = last)")
    info.append(f"\nbars alexey {state.bars[0]}/5 vladimir {state.bars[1]}/5")
    legend = "hats: " + ", ".join(f"{HAT_LETTERS[t]} {HAT_NAMES[t]}" for t in range(1, 7))
    legend += "\nbottom row: pile heights; · empty"
    status = "GAME OVER" if state.game_over else ("done" if state.is_terminal() else "playing")
    return game_panel(Group(field, info), "Hatris", status, legend)
