"""The CLI writes its errors in English unless the locale (LC_ALL, LC_MESSAGES, LANG) is Chinese, as the GUI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_rag.engine import environment_language
from tests.support.english import english_sentence
from tests.support.hash_cli import environment


def _run(home: Path, **locale: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), "collections", "rename",
                           "nosuch", "other"], capture_output=True, text=True, timeout=300,
                          env=environment(**locale))


def test_an_error_is_written_in_chinese_under_a_chinese_locale(tmp_path: Path) -> None:
    out = _run(tmp_path / "home", LANG="zh_CN.UTF-8")
    assert out.returncode == 1 and out.stderr.startswith("错误：没有名为“nosuch”的知识库")
    assert english_sentence(out.stderr) is None, out.stderr
    english = _run(tmp_path / "home", LANG="zh_CN.UTF-8", LC_ALL="C.UTF-8")  # LC_ALL wins, as for any program
    assert english.stderr.startswith("error: There is no collection called “nosuch”")


@pytest.mark.parametrize("args, chinese", [
    (("collections", "delete", "Default"), "错误：未删除（加上 --yes"),  # not confirmed (stdin is not a terminal)
    (("collections", "create"), "错误：用法：`desktop-rag collections create NAME`"),
    (("export", "out.zip"), "错误：请用 --collection 名称 指明要导出哪个知识库（现有："),  # two collections
    (("remove", "/nowhere/notes", "--collection", "Default"), "错误：/nowhere/notes 不是知识库“Default”中的来源"),
    (("remove", "/nowhere/notes"), "错误：/nowhere/notes 不是此资料库中的来源"),
    (("download-model", "nosuchmodel"), "错误：未知的模型 'nosuchmodel'："),
])
def test_the_command_lines_own_errors_are_chinese_too(tmp_path: Path, args: tuple, chinese: str) -> None:
    """They were English after "错误：" ("Not deleted (add --yes ...)", "usage: ...", "Say which collection ...",
    "... is not a source in ...", "Unknown model ...")."""
    home = tmp_path / "home"
    run = lambda *a: subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), *a],  # noqa: E731
                                    capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL,
                                    cwd=tmp_path, env=environment("zh_CN.UTF-8"))
    assert run("collections", "create", "Notes").returncode == 0
    out = run(*args)
    assert out.returncode == 1 and out.stderr.startswith(chinese), out.stderr
    assert english_sentence(out.stderr) is None, out.stderr


@pytest.mark.parametrize("environ, language", [
    ({}, None), ({"LANG": "zh_TW.UTF-8"}, "zh"), ({"LANG": "en_GB.UTF-8"}, "en"),
    ({"LANG": "zh_CN.UTF-8", "LC_MESSAGES": "de_DE.UTF-8"}, "en"), ({"LC_ALL": "zh_CN", "LANG": "C"}, "zh"),
    ({"LC_ALL": "", "LANG": "zh_CN.UTF-8"}, "zh"),
])
def test_the_locale_rule(environ: dict, language: str | None) -> None:
    assert environment_language(environ) == language


def test_status_says_each_failed_files_reason_in_the_interface_language(tmp_path: Path) -> None:
    """Issue 49: the reason is stored as its code, so `status` writes it in Chinese under a Chinese locale;
    `status --json` keeps "error" (the English text) and adds "code"."""
    from desktop_rag.engine.messages import message
    from tests.support.crafted_reasons import crafted_epub

    docs, home = tmp_path / "docs", tmp_path / "home"
    docs.mkdir()
    (docs / "fake.pdf").write_bytes(b"this is not a PDF at all")
    crafted_epub(docs / "crafted.epub")

    def cli(*args: str, **locale: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), *args],
                              capture_output=True, text=True, timeout=600, env=environment(**locale))

    indexed = cli("index", str(docs), LANG="zh_CN.UTF-8")
    assert indexed.returncode == 1 and f"失败：{docs / 'fake.pdf'}：{message('error.not_pdf', 'zh')}" in indexed.stdout
    chinese = cli("status", LANG="zh_CN.UTF-8")
    assert chinese.returncode == 0, chinese.stderr
    assert f"失败：{docs / 'fake.pdf'}：{message('error.not_pdf', 'zh')}" in chinese.stdout
    crafted = next(line for line in chinese.stdout.splitlines() if "crafted.epub" in line)
    assert "此文件缺少一个部件（" in crafted and len(crafted) < 1000, crafted[:200]
    english = cli("status", LANG="en_GB.UTF-8")
    assert f"Failed: {docs / 'fake.pdf'}: {message('error.not_pdf')}" in english.stdout
    failed = json.loads(cli("status", "--json", LANG="zh_CN.UTF-8").stdout)["failed_files"]
    assert {(Path(f["path"]).name, f["error"], f["code"]) for f in failed if f["path"].endswith(".pdf")} == {
        ("fake.pdf", message("error.not_pdf"), "not_pdf")}
    assert [f["code"] for f in failed if f["path"].endswith(".epub")] == ["part_missing"]
