"""Coded errors: English in str(exc), the user's language through error_text; every code has both texts."""

from __future__ import annotations

import pytest

from desktop_rag.engine import DiskFullError, UsageError, error_text
from desktop_rag.engine.errors import disk_full_guard
from desktop_rag.engine.messages import TEXTS


def test_a_coded_error_reads_english_and_chinese() -> None:
    with pytest.raises(DiskFullError) as caught:
        with disk_full_guard("/data/lib"):
            raise OSError(28, "No space left on device")
    exc = caught.value
    assert exc.code == "disk_full" and "/data/lib" in str(exc) and "disk" in str(exc)
    assert error_text(exc, "en") == str(exc)
    chinese = error_text(exc, "zh")
    assert "/data/lib" in chinese and "磁盘" in chinese


def test_an_uncoded_error_shows_its_own_message() -> None:
    assert error_text(UsageError("plain words"), "zh") == "plain words"
    assert error_text(ValueError("x"), "zh") == "x"


def test_an_unknown_code_is_a_programming_error() -> None:
    with pytest.raises(KeyError):
        UsageError.coded("no_such_code_anywhere")


def test_every_error_text_has_english_and_chinese() -> None:
    for key, texts in TEXTS.items():
        if key.startswith("error."):
            assert texts.get("en") and texts.get("zh"), key
