"""The time budget of one part of a file (an e-mail attachment, issue 49): it interrupts the block, nests (the
inner budget's holder catches only its own), and puts back the alarm that was set before (pytest-timeout's)."""

from __future__ import annotations

import signal
import time

import pytest

from desktop_rag.engine.ingest.loaders.time_budget import OverBudget, time_budget

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="SIGALRM budgets are POSIX")


def test_a_budget_interrupts_and_an_outer_one_goes_on() -> None:
    started = time.monotonic()
    with time_budget(5) as outer:
        try:
            with time_budget(0.2) as inner:
                time.sleep(3)
        except OverBudget:
            assert inner.expired and not outer.expired
        time.sleep(0.1)  # the outer budget still holds
    assert time.monotonic() - started < 2


def test_an_inner_holder_passes_on_the_outer_budget() -> None:
    caught = []
    with pytest.raises(OverBudget):
        with time_budget(0.2) as outer:
            try:
                with time_budget(5) as inner:
                    time.sleep(3)
            except OverBudget:
                caught.append(inner.expired)
                if not inner.expired:
                    raise
    assert caught == [False] and outer.expired


def test_the_alarm_set_before_is_put_back() -> None:
    fired = []
    previous = signal.signal(signal.SIGALRM, lambda *_: fired.append(True))
    try:
        signal.setitimer(signal.ITIMER_REAL, 1.0)
        with time_budget(0.1):
            pass
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 0.5 < left <= 1.0
        time.sleep(1.2)
        assert fired == [True]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
