"""A time budget for one part of a file (an e-mail's attachment), enforced inside the reader.

The parser child's own limit kills the whole reading; a part that takes too long must instead be given up alone,
so the rest of the file is kept. `time_budget(seconds)` arms SIGALRM (POSIX, main thread: where the parser child
reads) and raises `OverBudget` in the block when the seconds run out: between two Python steps, so a library call
in native code is interrupted when it returns (PDFium hands back after each page); one that never returns is left
to the child's limit. Budgets nest: the timer is set for the nearest deadline, and a budget's holder catches
`OverBudget` only when its own deadline has passed (`Budget.expired`), else passes it on; the handler and timer
that were there before (pytest-timeout's) are put back after the outermost budget. Elsewhere (Windows, a thread)
the block runs without a budget of its own.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

_deadlines: list[float] = []
_previous: object = None  # the SIGALRM handler and timer before the outermost budget (pytest-timeout's, say)
_previous_timer: tuple[float, float, float] = (0.0, 0.0, 0.0)  # (seconds left, interval, when read)


class OverBudget(BaseException):
    """A time budget ran out (a BaseException: a reader's `except Exception` must not swallow it)."""


@dataclass(frozen=True)
class Budget:
    deadline: float

    @property
    def expired(self) -> bool:
        return time.monotonic() >= self.deadline


def _usable() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def _arm() -> None:
    left = min(_deadlines) - time.monotonic() if _deadlines else 0.0
    signal.setitimer(signal.ITIMER_REAL, max(left, 0.001) if _deadlines else 0.0)


def _fire(_signum, _frame) -> None:
    if _deadlines and min(_deadlines) <= time.monotonic():  # a late signal after its budget ended: ignored
        raise OverBudget()
    _arm()


@contextmanager
def time_budget(seconds: float) -> Iterator[Budget]:
    """Run the block within `seconds` (see the module's docstring)."""
    global _previous, _previous_timer
    budget = Budget(time.monotonic() + seconds)
    if not _usable():
        yield budget
        return
    if not _deadlines:
        _previous = signal.signal(signal.SIGALRM, _fire)
        _previous_timer = (*signal.getitimer(signal.ITIMER_REAL), time.monotonic())
    _deadlines.append(budget.deadline)
    _arm()
    try:
        yield budget
    finally:
        _deadlines.remove(budget.deadline)
        _arm()
        if not _deadlines:
            signal.signal(signal.SIGALRM, _previous if _previous is not None else signal.SIG_DFL)
            left, interval, read = _previous_timer
            if left:
                signal.setitimer(signal.ITIMER_REAL, max(left - (time.monotonic() - read), 0.001), interval)
