"""The real-time 1P engine: a full-game run of stages, driven by plans of button moves.

A decision (an action) is a *plan*: a string of cursor moves ``U D L R`` and 1-cell rotations ``u d l r``
of the cursor's column or row, optionally ending in ``B`` (hold B until the matrix changes size). The engine
turns it into frames: a cursor move is a press and a release; consecutive rotations along one axis are one
hold of A. The incoming L-shaped unit falls all the while, and its contact grows the matrix mid-plan if it
happens then. A plan stops early as soon as the matrix changes size (a clear or a contact), so a bot
replans on every size change, as the article's bot does.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from puzzlebots.core.errors import IllegalActionError, InputError
from puzzlebots.core.jsonio import show

from .boards import check_board, load_board_file, parse_board, random_board
from .config import YoshiConfig
from .kernels import matrix as K
from .rules import (
    AREA,
    CELL_LETTERS,
    HOLD_B,
    LAST_NORMAL_ROUND,
    LAST_ROUND,
    MOVE_LETTERS,
    STAGES_PER_ROUND,
    UNITS_PER_CELL,
    UNITS_PER_PX,
    YOSHI,
)

#: the primitive plans; an action is any non-empty string of these letters, ``B`` only at the end
PRIMITIVES = tuple(MOVE_LETTERS) + (HOLD_B,)


@dataclass
class Incoming:
    """The falling L-shaped unit (Q5): a row arm above the matrix, a column arm to its right, a corner.

    ``row_arm`` is aligned with the matrix columns and ``col_arm`` with its rows (top first); an arm is
    None once it has joined. ``y``/``x`` are the arms' leading edges in sub-pixel units from the matrix's
    bottom-left corner.
    """

    row_arm: list[int] | None
    col_arm: list[int] | None
    corner: int
    y: int
    x: int
    delay: int

    def copy(self) -> Incoming:
        return Incoming(
            None if self.row_arm is None else list(self.row_arm),
            None if self.col_arm is None else list(self.col_arm),
            self.corner,
            self.y,
            self.x,
            self.delay,
        )


@dataclass
class StageRecord:
    """One stage of the run: how many frames it took and how many continues it needed."""

    round: int
    stage: int
    frames: int = 0
    continues: int = 0
    cleared: bool = False


@dataclass
class Counters:
    """Run totals that feed ``result()``."""

    score: int = 0
    lines: int = 0
    max_chain: int = 0
    yoshis_earned: int = 0
    shells_cleared: int = 0
    continues: int = 0
    stages: list[StageRecord] = field(default_factory=list)


def stage_plan(config: YoshiConfig) -> list[tuple[int, int]]:
    """The (round, stage) pairs a run plays, from its mode, start round and stage cap."""
    first = config.start_round or (LAST_NORMAL_ROUND + 1 if config.mode == "expert" else 1)
    last = LAST_NORMAL_ROUND if config.mode == "normal" else LAST_ROUND
    plan = [(r, s) for r in range(first, last + 1) for s in range(1, STAGES_PER_ROUND + 1)]
    if config.max_stages:
        plan = plan[: config.max_stages]
    return plan


def stage_size(config: YoshiConfig, stage: int) -> int:
    """Q1: the square starting size of stage 1..10 (the same in every round)."""
    if config.size:
        return int(config.size)
    return int(config.start_size[stage - 1])


def stage_types(config: YoshiConfig, round_: int) -> int:
    """Q2/Q24: how many normal types are in play in a round."""
    if round_ > LAST_NORMAL_ROUND:
        return int(config.expert_types)
    return int(config.types_per_round[round_ - 1])


class YoshiState:
    """A seeded full-game run. Public reads: ``grid`` (R x C), ``cursor``, ``incoming``, ``round``..."""

    def __init__(self, config: Mapping[str, Any], seed: int) -> None:
        #: the checked config as given (plain data: what bots and replays take)
        self.config = dict(config)
        #: the same config as attributes: what the engine reads
        self.rules = YoshiConfig.of(config)
        rules = self.rules
        self.seed = seed
        self.rng = random.Random(seed)
        self.plan = stage_plan(rules)
        self.boards = load_board_file(rules.board_file, rules.min_line) if rules.board_file else {}
        self._grid = np.zeros((AREA, AREA), dtype=np.int8)
        self.R = 0
        self.C = 0
        self.cr = 0
        self.cc = 0
        self.frame = 0
        self.meters = [0] * 8
        self.pending_yoshis = 0
        self.incoming = Incoming(None, None, 0, 0, 0, 0)
        self.counters = Counters()
        self.stage_pos = 0
        self.done = False
        self.stuck = False
        self.b_held = False
        self._changed = False
        #: called with (state, rows, cols) as complete lines are found, before they go (the page animates the
        #: clear); it only reads: no result depends on it. Clones start without it.
        self.on_clear: Callable[[YoshiState, list[int], list[int]], None] | None = None
        self.fall_units = round(rules.speed_px_per_frame[rules.speed] * UNITS_PER_PX)
        self.b_units = round(rules.b_speed * UNITS_PER_PX)
        self._row_code = np.empty(AREA, dtype=np.int64)
        self._col_code = np.empty(AREA, dtype=np.int64)
        self._start_stage(new_record=True)

    # ----------------------------------------------------------------- reads
    @property
    def grid(self) -> np.ndarray:
        """The R x C matrix (a view: do not modify)."""
        return self._grid[: self.R, : self.C]

    @property
    def raw_grid(self) -> np.ndarray:
        """The 8 x 8 buffer whose top-left R x C block is the matrix (for kernels)."""
        return self._grid

    @property
    def cursor(self) -> tuple[int, int]:
        return self.cr, self.cc

    @property
    def round(self) -> int:
        return self.plan[min(self.stage_pos, len(self.plan) - 1)][0]

    @property
    def stage(self) -> int:
        return self.plan[min(self.stage_pos, len(self.plan) - 1)][1]

    @property
    def expert(self) -> bool:
        return self.round > LAST_NORMAL_ROUND

    def frames_to_contact(self) -> int:
        """Frames until the next arm of the incoming unit touches the matrix at the normal fall speed."""
        inc = self.incoming
        gaps = []
        if inc.row_arm is not None:
            gaps.append(inc.y - self.R * UNITS_PER_CELL)
        if inc.col_arm is not None:
            gaps.append(inc.x - self.C * UNITS_PER_CELL)
        gap = max(0, min(gaps)) if gaps else 0
        return inc.delay + -(-gap // self.fall_units)

    def rows_text(self) -> list[str]:
        """The matrix as letters, top row first (``rules.CELL_LETTERS``)."""
        return ["".join(CELL_LETTERS[v] for v in row) for row in self.grid]

    def set_matrix(self, rows: Sequence[str], cursor: tuple[int, int] = (0, 0), delay: int | None = None) -> None:
        """Replace the matrix by rows of letters (``rules.CELL_LETTERS``) and send a fresh incoming unit,
        held back ``delay`` frames (default: the stage-start delay). For tests, examples and puzzles."""
        board = parse_board(list(rows), "set_matrix")
        check_board(board, int(self.rules.min_line), "set_matrix")
        if not (0 <= cursor[0] < len(board) and 0 <= cursor[1] < len(board[0])):
            raise InputError(f"set_matrix: cursor {cursor} is outside the {len(board)} x {len(board[0])} matrix")
        self._grid[:] = 0
        self.R, self.C = len(board), len(board[0])
        self._grid[: self.R, : self.C] = np.array(board, dtype=np.int8)
        self.cr, self.cc = cursor
        self._spawn(int(self.rules.start_delay) if delay is None else delay)

    # ------------------------------------------------------------- protocol
    def clone(self) -> YoshiState:
        other = YoshiState.__new__(YoshiState)
        other.__dict__.update(self.__dict__)
        other.config = self.config
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other._grid = self._grid.copy()
        other.meters = list(self.meters)
        other.incoming = self.incoming.copy()
        other.counters = Counters(
            self.counters.score,
            self.counters.lines,
            self.counters.max_chain,
            self.counters.yoshis_earned,
            self.counters.shells_cleared,
            self.counters.continues,
            [StageRecord(**vars(s)) for s in self.counters.stages],
        )
        other._row_code = np.empty(AREA, dtype=np.int64)
        other._col_code = np.empty(AREA, dtype=np.int64)
        other.on_clear = None
        return other

    def is_terminal(self) -> bool:
        return self.done

    def legal_actions(self) -> Sequence[str]:
        """The primitive plans. Any non-empty string of them is legal, with ``B`` only as its last letter."""
        return () if self.done else PRIMITIVES

    def apply(self, action: str) -> None:
        """Play a plan until it ends or the matrix changes size (see the module docstring)."""
        check_plan(action)
        if self.done:
            raise IllegalActionError("yoshis_cookie: the run is over")
        self._changed = False
        hold_b = action.endswith(HOLD_B)
        moves = action[:-1] if hold_b else action
        k = 0
        while k < len(moves) and not self._changed:
            letter = moves[k]
            if letter in "UDLR":
                self._cursor_move(letter)
                k += 1
                continue
            run = 1
            axis = "ud" if letter in "ud" else "lr"
            while k + run < len(moves) and moves[k + run] in axis:
                run += 1
            self._rotation_run(moves[k : k + run])
            k += run
        if hold_b and not self._changed:
            self.b_held = True
            while not self._changed:
                self._elapse(max(1, self._frames_to_contact_now()))
            self.b_held = False

    def state_hash(self) -> str:
        h = hashlib.blake2b(digest_size=8)
        h.update(self._grid.tobytes())
        inc = self.incoming
        h.update(
            repr(
                (
                    self.R,
                    self.C,
                    self.cr,
                    self.cc,
                    self.frame,
                    self.stage_pos,
                    self.meters,
                    self.pending_yoshis,
                    inc.row_arm,
                    inc.col_arm,
                    inc.corner,
                    inc.y,
                    inc.x,
                    inc.delay,
                    self.counters.score,
                    self.counters.continues,
                    self.rng.getstate(),
                )
            ).encode()
        )
        return h.hexdigest()

    def result(self) -> dict[str, Any]:
        c = self.counters
        played = c.stages
        cleared = [s for s in played if s.cleared]
        return {
            "score": c.score,
            "frames": self.frame,
            "stages_attempted": len(played),
            "stages_cleared": len(cleared),
            "stages_cleared_first_try": sum(1 for s in cleared if s.continues == 0),
            "continues": c.continues,
            "frames_in_cleared_stages": sum(s.frames for s in cleared),
            "lines": c.lines,
            "max_chain": c.max_chain,
            "yoshis_earned": c.yoshis_earned,
            "shells_cleared": c.shells_cleared,
            "last_round": self.round,
            "last_stage": self.stage,
            "completed": self.done and not self.stuck,
            "stuck": self.stuck,
        }

    # ------------------------------------------------------------- stages
    def _start_stage(self, new_record: bool) -> None:
        round_, stage = self.plan[self.stage_pos]
        if new_record:
            self.counters.stages.append(StageRecord(round_, stage))
        board = self.boards.get((round_, stage)) if self.boards else None
        if board is None:
            n = stage_size(self.rules, stage)
            board = random_board(
                self.rng, n, n, stage_types(self.rules, round_), round_ > LAST_NORMAL_ROUND, self.rules
            )
        R, C = len(board), len(board[0])
        self._grid[:] = 0
        self._grid[:R, :C] = np.array(board, dtype=np.int8)
        self.R, self.C = R, C
        self.cr, self.cc = 0, 0
        self._spawn(delay=int(self.rules.start_delay))

    def _stage_cleared(self) -> None:
        self.counters.stages[-1].cleared = True
        self.stage_pos += 1
        self._changed = True
        if self.stage_pos >= len(self.plan):
            self.done = True
            self.stage_pos = len(self.plan) - 1
            return
        self._start_stage(new_record=True)

    def _game_over(self) -> None:
        """Reaching 8 rows or columns: continue (F19) by restarting the stage; the meters reset (Q9, Q22)."""
        record = self.counters.stages[-1]
        record.continues += 1
        self.counters.continues += 1
        self.meters = [0] * 8
        self.pending_yoshis = 0
        self._changed = True
        if record.continues >= self.rules.max_continues:
            self.done = True
            self.stuck = True
            return
        self._start_stage(new_record=False)

    # ------------------------------------------------------------- incoming
    def _spawn(self, delay: int) -> None:
        types = stage_types(self.rules, self.round)
        draw = self.rng.randrange
        row_arm = [1 + draw(types) for _ in range(self.C)]
        col_arm = [1 + draw(types) for _ in range(self.R)]
        corner = 1 + draw(types)
        start = AREA * UNITS_PER_CELL
        self.incoming = Incoming(row_arm, col_arm, corner, start, start, delay)
        if self.pending_yoshis and self.rules.yoshi_delivery == "next_incoming":
            n_cells = len(row_arm) + len(col_arm) + 1
            put = min(self.pending_yoshis, n_cells)
            for cell in self.rng.sample(range(n_cells), put):
                if cell < len(row_arm):
                    row_arm[cell] = YOSHI
                elif cell < len(row_arm) + len(col_arm):
                    col_arm[cell - len(row_arm)] = YOSHI
                else:
                    self.incoming.corner = YOSHI
            self.pending_yoshis -= put

    def _frames_to_contact_now(self) -> int:
        inc = self.incoming
        if inc.delay:
            return inc.delay
        speed = self.b_units if self.b_held else self.fall_units
        best = 1 << 30
        if inc.row_arm is not None:
            best = min(best, -(-(inc.y - self.R * UNITS_PER_CELL) // speed))
        if inc.col_arm is not None:
            best = min(best, -(-(inc.x - self.C * UNITS_PER_CELL) // speed))
        return max(best, 0)

    def _elapse(self, frames: int) -> None:
        """Let ``frames`` frames pass with the unit falling; handle contacts inside them."""
        record = self.counters.stages[-1]
        while frames > 0 and not self.done:
            inc = self.incoming
            if inc.delay:
                d = min(frames, inc.delay)
                inc.delay -= d
                self.frame += d
                record.frames += d
                frames -= d
                continue
            f = self._frames_to_contact_now()
            speed = self.b_units if self.b_held else self.fall_units
            step = min(f, frames)
            if inc.row_arm is not None:
                inc.y -= step * speed
            if inc.col_arm is not None:
                inc.x -= step * speed
            self.frame += step
            record.frames += step
            frames -= step
            if f <= step:
                self._contact()
                record = self.counters.stages[-1]

    def _animate(self, frames: int) -> None:
        """An animation: input is locked and the unit does not move (assumption in docs/rules)."""
        self.frame += frames
        self.counters.stages[-1].frames += frames

    def _contact(self) -> None:
        inc = self.incoming
        rows = inc.row_arm is not None and inc.y <= self.R * UNITS_PER_CELL
        cols = inc.col_arm is not None and inc.x <= self.C * UNITS_PER_CELL
        g = self._grid
        R, C = self.R, self.C
        # arms longer than the matrix (clear_incoming_aligned off): cells past its edge fall beside it
        if inc.row_arm is not None:
            inc.row_arm = inc.row_arm[:C]
        if inc.col_arm is not None:
            inc.col_arm = inc.col_arm[len(inc.col_arm) - R :]
        if rows and cols:
            assert inc.row_arm is not None and inc.col_arm is not None
            g[1 : R + 1, :C] = g[:R, :C].copy()
            g[0, :C] = inc.row_arm
            g[0, C] = inc.corner
            g[1 : R + 1, C] = inc.col_arm
            self.R, self.C = R + 1, C + 1
            self.cr += 1
            inc.row_arm = inc.col_arm = None
        elif rows:
            assert inc.row_arm is not None
            g[1 : R + 1, :C] = g[:R, :C].copy()
            g[0, :C] = inc.row_arm
            self.R = R + 1
            self.cr += 1
            inc.row_arm = None
            if inc.col_arm is not None:
                inc.col_arm.insert(0, inc.corner)
        else:
            assert inc.col_arm is not None
            g[:R, C] = inc.col_arm
            self.C = C + 1
            inc.col_arm = None
            if inc.row_arm is not None:
                inc.row_arm.append(inc.corner)
        inc.corner = 0
        self._changed = True
        self._animate(int(self.rules.frames_contact))
        if self.R >= AREA or self.C >= AREA:
            self._game_over()
            return
        self._resolve()
        if self.R == 0:
            self._stage_cleared()
            return
        if inc.row_arm is None and inc.col_arm is None:
            self._spawn(delay=0)

    # ------------------------------------------------------------- the player
    def _cursor_move(self, letter: str) -> None:
        if letter == "U":
            self.cr = (self.cr - 1) % self.R
        elif letter == "D":
            self.cr = (self.cr + 1) % self.R
        elif letter == "L":
            self.cc = (self.cc - 1) % self.C
        else:
            self.cc = (self.cc + 1) % self.C
        self._elapse(int(self.rules.frames_cursor))

    def _rotation_run(self, letters: str) -> None:
        button = int(self.rules.frames_button)
        shift = int(self.rules.frames_rotate)
        follows = self.rules.cursor_follows
        self._elapse(button)  # press A
        for letter in letters:
            if self._changed or self.done:
                return
            step = 1 if letter in "dr" else -1
            if letter in "ud":
                K.rotate_col(self._grid, self.cc, self.R, step)
                if follows:
                    self.cr = (self.cr + step) % self.R
            else:
                K.rotate_row(self._grid, self.cr, self.C, step)
                if follows:
                    self.cc = (self.cc + step) % self.C
            self._elapse(button + shift)  # press and shift animation
            if self._changed or self.done:
                return
            self._resolve()
            if self.R == 0:
                self._stage_cleared()
                return
            self._elapse(button)  # release
        if not self._changed:
            self._elapse(button)  # release A

    def _resolve(self) -> None:
        """Q11: clear every complete line at once, contract, repeat; score, meters, aligned incoming cells."""
        cfg = self.rules
        chain = 0
        inc = self.incoming
        while self.R > 0 and self.C > 0:
            rc, cc = self._row_code, self._col_code
            n = K.find_complete(self._grid, self.R, self.C, cfg.min_line, rc, cc)
            if n == 0:
                break
            chain += 1
            cells, yoshis = K.count_removed(self._grid, self.R, self.C, rc, cc)
            self.counters.score += cfg.score_cookie * cells * n * chain + cfg.score_yoshi * yoshis
            self.counters.lines += n
            self.counters.max_chain = max(self.counters.max_chain, chain)
            rows = [i for i in range(self.R) if rc[i] >= 0]
            cols = [j for j in range(self.C) if cc[j] >= 0]
            for code in [int(rc[i]) for i in rows] + [int(cc[j]) for j in cols]:
                self._credit(code)
            if self.on_clear is not None:
                self.on_clear(self, rows, cols)
            if cfg.clear_incoming_aligned:
                if inc.col_arm is not None:
                    inc.col_arm = [v for i, v in enumerate(inc.col_arm) if i not in rows]
                if inc.row_arm is not None:
                    inc.row_arm = [v for j, v in enumerate(inc.row_arm) if j not in cols]
            from_bottom = self.R - 1 - self.cr
            R, C = K.contract(self._grid, self.R, self.C, rc, cc)
            if R == 0 or C == 0:
                R = C = 0
                self._grid[:] = 0
            self.R, self.C = R, C
            self.cr = max(0, R - 1 - min(from_bottom, R - 1))
            self.cc = min(self.cc, max(C - 1, 0))
            self._changed = True
            self._animate(int(cfg.frames_clear))

    def _credit(self, code: int) -> None:
        """Q9: one bulb per cleared line of a normal type; 5 bulbs earn a Yoshi cookie for the next unit."""
        if code == 7:
            self.counters.shells_cleared += 1
            return
        if code == 0:
            return
        self.meters[code] += 1
        if self.meters[code] >= self.rules.meter_target:
            self.meters[code] = 0
            self.pending_yoshis += 1
            self.counters.yoshis_earned += 1


def check_plan(action: Any) -> None:
    """Raise ``IllegalActionError`` unless ``action`` is a plan string (see the module docstring)."""
    if not isinstance(action, str) or not action:
        raise IllegalActionError(
            f"yoshis_cookie: a plan is a non-empty string of {''.join(PRIMITIVES)}, got {show(action)}"
        )
    bad = [ch for ch in action if ch not in PRIMITIVES]
    if bad:
        raise IllegalActionError(
            f"yoshis_cookie: unknown plan letter {bad[0]!r} in {show(action)} (letters: {''.join(PRIMITIVES)})"
        )
    if HOLD_B in action[:-1]:
        raise IllegalActionError(f"yoshis_cookie: B (hold B) may only end a plan, got {show(action)}")
