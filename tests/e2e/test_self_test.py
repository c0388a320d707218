"""`python -m desktop_rag --self-test` (and `demo`) in a child process: index the bundled samples, search, answer, OCR;
exit 0. Its lines are in the locale's language (they were English under LANG=zh_CN.UTF-8)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support import REPO
from tests.support.hash_cli import environment, use_locale

@pytest.mark.slow
@pytest.mark.parametrize("lang, command, lines", [
    ("en_US.UTF-8", "--self-test", ("Indexing the sample documents in ", "Search: 新办公室在哪里？\n  top passage from ",
                                    "Scanned page: scanned-library-notice.png read by OCR", "Self-test passed.")),
    ("zh_CN.UTF-8", "demo", ("正在把 ", "搜索：新办公室在哪里？\n  最佳段落来自 办公室搬迁通知.txt（得分 ",
                             "扫描页：scanned-library-notice.png 已通过文字识别（OCR）读取", "\n  回答：", "自检通过。")),
])
def test_self_test_passes(tmp_path, lang, command, lines):
    env = environment(lang, DESKTOP_RAG_HOME=str(tmp_path / "home"), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    run = subprocess.run([sys.executable, "-m", "desktop_rag", command], cwd=REPO, env=env,
                         capture_output=True, text=True, timeout=600)
    output = run.stdout[-3000:] + run.stderr[-3000:]
    assert run.returncode == 0, output
    for line in lines:  # the OCR check ran too
        assert line in run.stdout, (line, output)


@pytest.mark.parametrize("lang, line", [("zh_CN.UTF-8", "自检失败：在 {folder} 找不到示例文档"),
                                        ("en_US.UTF-8", "SELF-TEST FAILED: sample documents not found at {folder}")])
def test_a_failed_check_is_said_in_the_locales_language(tmp_path, monkeypatch, capsys, lang, line):
    from desktop_rag.selftest import run_self_test

    use_locale(monkeypatch, lang)
    assert run_self_test(samples=tmp_path / "missing") == 1
    assert capsys.readouterr().out == line.format(folder=tmp_path / "missing") + "\n"
