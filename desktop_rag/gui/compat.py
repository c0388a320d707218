"""Work-arounds for known PySide6 bugs, applied once before the app starts."""

from __future__ import annotations

import ctypes
import sys

_BOOL_PADDING = 1 << 40
_applied = False


def _pyside_version() -> tuple[int, ...]:
    import PySide6

    return tuple(int(p) for p in PySide6.__version__.split(".")[:3] if p.isdigit())


def pin_bools() -> None:
    """PySide6 6.12.0: every Python-side Signal.emit() returns Py_True without a new reference.

    On Python < 3.12 (where True/False are not immortal) each emit drops one reference to True,
    and after enough emits the interpreter aborts with "bool_dealloc". Padding the reference
    counts of True and False makes them effectively immortal, as they are on Python 3.12+.
    """
    global _applied
    if _applied or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    if _pyside_version() < (6, 12):
        return
    for value in (True, False):
        ctypes.c_ssize_t.from_address(id(value)).value += _BOOL_PADDING
    _applied = True
