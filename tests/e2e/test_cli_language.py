"""The CLI writes its errors in English unless the locale (LC_ALL, LC_MESSAGES, LANG) is Chinese, as the GUI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_rag.engine import environment_language
from tests.support.english import english_sentence


def _run(home: Path, **locale: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")} | locale
    return subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), "collections", "rename",
                           "nosuch", "other"], capture_output=True, text=True, timeout=300, env=env)


def test_an_error_is_written_in_chinese_under_a_chinese_locale(tmp_path: Path) -> None:
    out = _run(tmp_path / "home", LANG="zh_CN.UTF-8")
    assert out.returncode == 1 and out.stderr.startswith("错误：没有名为“nosuch”的合集")
    assert english_sentence(out.stderr) is None, out.stderr
    english = _run(tmp_path / "home", LANG="zh_CN.UTF-8", LC_ALL="C.UTF-8")  # LC_ALL wins, as for any program
    assert english.stderr.startswith("error: There is no collection called “nosuch”")


@pytest.mark.parametrize("environ, language", [
    ({}, None), ({"LANG": "zh_TW.UTF-8"}, "zh"), ({"LANG": "en_GB.UTF-8"}, "en"),
    ({"LANG": "zh_CN.UTF-8", "LC_MESSAGES": "de_DE.UTF-8"}, "en"), ({"LC_ALL": "zh_CN", "LANG": "C"}, "zh"),
    ({"LC_ALL": "", "LANG": "zh_CN.UTF-8"}, "zh"),
])
def test_the_locale_rule(environ: dict, language: str | None) -> None:
    assert environment_language(environ) == language
