"""Bit-count intrinsics for the bitboard kernels: population count and leading/trailing zeros of a uint64.

Numba exposes none of them directly; these map to LLVM's generic ``ctpop``/``ctlz``/``cttz``, which compile to
the CPU's own instructions where it has them and to a short sequence where it does not (no BMI2 needed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

_FALSE = ir.Constant(ir.IntType(1), 0)


def _popcount(typingctx: Any, x: Any) -> Any:
    """The number of set bits of a uint64."""
    sig = types.uint64(types.uint64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return sig, codegen


def _trailing_zeros(typingctx: Any, x: Any) -> Any:
    """The index of the lowest set bit of a uint64 (64 for zero)."""
    sig = types.uint64(types.uint64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], _FALSE)

    return sig, codegen


def _leading_zeros(typingctx: Any, x: Any) -> Any:
    """The number of zero bits above the highest set bit of a uint64 (64 for zero)."""
    sig = types.uint64(types.uint64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctlz(args[0], _FALSE)

    return sig, codegen


#: numba intrinsics, callable from njit code only (typed here for the callers' sake)
popcount = cast(Callable[[Any], Any], intrinsic(_popcount))
trailing_zeros = cast(Callable[[Any], Any], intrinsic(_trailing_zeros))
leading_zeros = cast(Callable[[Any], Any], intrinsic(_leading_zeros))
#: ``np.int64(v)``: turns a count into a signed integer (numba would make uint64 mixed with int64 a float)
to_int = cast(Callable[[Any], int], np.int64)
