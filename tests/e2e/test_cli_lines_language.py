"""The command line's own lines (an index run's summary, status, "Sources:", a stored answer's note, the progress
line) are in the locale's language, as its errors and notes are; `--json` is the same whatever the locale (real
child processes; the hashing embedder, since this is about the words, not about meaning)."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_rag.cli import output
from desktop_rag.engine import Progress
from tests.support.english import english_sentence
from tests.support.hash_cli import environment, use_locale
from tests.support.openai_server import run_openai_server

@pytest.fixture
def model_url():
    """A local model server (so that an answer is stored and the second ask replays it)."""
    with run_openai_server() as server:
        yield server.base_url


def _library(tmp_path: Path, lang: str, model_url: str) -> tuple[Path, callable]:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "tea.txt").write_text("Green tea is brewed at eighty degrees for two minutes.\n", "utf-8")
    (docs / "fake.pdf").write_bytes(b"this is not a PDF at all")
    (docs / "deck.key").write_bytes(b"PK\x03\x04")
    env = environment(OPENAI_API_KEY="sk-test-key", OPENAI_BASE_URL=model_url, OPENAI_MODEL="fake-model")

    def cli(*args: str, home: str = "home", model: str = "hash:64", locale: str = lang) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(tmp_path / home), *args],
                              capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL,
                              env=env | {"DESKTOP_RAG_EMBEDDING_MODEL": model, "LANG": locale})
    return docs, cli


def test_a_chinese_locale_gets_chinese_lines(tmp_path: Path, model_url: str) -> None:
    docs, cli = _library(tmp_path, "zh_CN.UTF-8", model_url)
    index = cli("index", str(docs))
    assert index.returncode == 1, index.stderr  # fake.pdf failed
    first = index.stdout.splitlines()[0]
    assert first.startswith("新增 1，更新 0，移除 0，未变 0，失败 1；1 个新片段，已嵌入 1，用时 "), first
    assert "跳过 1 个文件：1 个 .key，不支持这些类型" in index.stdout
    assert f"  失败：{docs / 'fake.pdf'}：" in index.stdout
    status = cli("status").stdout
    for line in ("嵌入模型：hash:64（维度 64）", "文件：共 2 个，已索引 1，失败 1，待处理 0", "片段：1（0 个等待嵌入）",
                 f"来源：{docs}", f"失败：{docs / 'fake.pdf'}：", "上次扫描：跳过 1 个文件"):
        assert line in status, status
    search = cli("search", "green tea").stdout
    assert search.startswith(f"1. {docs / 'tea.txt'}  （得分 "), search
    asked = [cli("ask", "绿茶用多少度的水？").stdout for _ in range(2)]
    assert "\n\n来源：\n[1] " in asked[0] and "（已存储的回答：问题、段落和模型都与上次相同。）" in asked[1], asked
    context = cli("context", "green tea").stdout
    assert "\ntoken 数：压缩前 " in context, context
    assert cli("clear-answers").stdout == "已删除 1 个存储的回答。\n"
    assert cli("remove", str(docs)).stdout == f"已移除 {docs} 及其片段。\n"
    for said in (index.stdout, status, search.replace("Green tea is brewed at eighty degrees", ""),
                 context.replace("Green tea is brewed at eighty degrees for two minutes.", "")):
        assert english_sentence(said) is None, said


def test_an_english_locale_gets_english_lines_and_json_is_the_same(tmp_path: Path, model_url: str) -> None:
    docs, cli = _library(tmp_path, "en_US.UTF-8", model_url)
    index = cli("index", str(docs))
    assert index.stdout.startswith("1 added, 0 updated, 0 removed, 0 unchanged, 1 failed; 1 new chunk, 1 embedded in ")
    status = cli("status").stdout
    assert "Files: 2 total, 1 indexed, 1 failed, 0 pending\nChunks: 1 (0 waiting for embedding)\n" in status
    asked = [cli("ask", "How hot is the water for green tea?").stdout for _ in range(2)]
    assert "\n\nSources:\n[1] " in asked[0], asked[0]
    assert "(A stored answer: the same question, passages and model as before.)" in asked[1], asked[1]
    assert cli("clear-answers").stdout == "Removed 1 stored answer.\n"
    english = json.loads(cli("status", "--json").stdout)
    chinese = json.loads(cli("status", "--json", locale="zh_CN.UTF-8").stdout)
    assert chinese == english and english["failed_files"][0]["code"] == "not_pdf"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("lang, reading, embedding, model", [
    ("zh_CN.UTF-8", "读取中 [############............] 1/2 个文件，约剩 3 秒（正在识别文字，第 2/5 页）",
     "嵌入中 [########################] 4/4 个片段，每秒 2.5 个", "正在准备嵌入模型（仅首次使用）：第 1/3 步"),
    ("en_US.UTF-8", "Reading  [############............] 1/2 files, about 3 s left (recognising text, page 2 of 5)",
     "Embedding [########################] 4/4 chunks, 2.5/s", "Preparing the embedding model (first use only): step 1 of 3"),
])
def test_the_progress_line_is_in_the_locales_language(monkeypatch, lang, reading, embedding, model) -> None:
    use_locale(monkeypatch, lang)
    from desktop_rag.engine import model_download

    terminal = _Terminal()
    with contextlib.redirect_stderr(terminal):  # one bar each (a bar says at most ten lines a second)
        output.TerminalProgress()(Progress("text", files_done=1, files_total=2, eta_seconds=3, ocr_page=2, ocr_pages=5))
        output.TerminalProgress()(Progress("embed", chunks_embedded=4, chunks_total=4, rate=2.5))
        output.TerminalProgress().model(model_download.DownloadProgress("e5", "downloading", files_done=0, files_total=3))
    shown = terminal.getvalue()
    assert reading in shown and embedding in shown and model in shown, shown


def test_the_other_commands_lines_are_chinese_too(tmp_path: Path, model_url: str) -> None:
    """collections, export, import, eval, forget-grades and models under a Chinese locale."""
    docs, cli = _library(tmp_path, "zh_CN.UTF-8", model_url)
    assert cli("index", str(docs)).returncode == 1
    assert cli("collections", "create", "笔记").stdout == "已创建知识库“笔记”。\n"
    assert cli("collections", "rename", "笔记", "旧笔记").stdout == "已把“笔记”重命名为“旧笔记”。\n"
    assert "Default：1 个来源，2 个文件，1 个片段\n" in cli("collections").stdout
    exported = cli("export", str(tmp_path / "out.zip"), "--collection", "Default").stdout
    assert exported.startswith("已导出“Default”：2 个文件，1 个片段，1 个向量，0 个文档 -> "), exported
    imported = cli("import", str(tmp_path / "out.zip"), "--name", "副本", home="other").stdout
    assert imported.startswith("已导入“副本”：2 个文件，1 个片段，1 个向量按原样使用。\n"), imported
    assert cli("eval").stdout.startswith("没有可衡量的已标注问题：")
    assert cli("forget-grades").stdout == "已撤销 0 个回答的评分和标记的段落。\n"
    models = cli("models").stdout
    assert "\n速度：在 2 个 CPU 核心上" in models and "未下载" in models, models
    for said in (exported, imported, models.split("\n速度")[1]):  # (the models' names are English)
        assert english_sentence(said) is None, said


def test_a_model_downloads_progress_line_is_in_the_locales_language(monkeypatch) -> None:
    from desktop_rag.cli.model_commands import _TerminalDownloadProgress
    from desktop_rag.engine import model_download

    use_locale(monkeypatch, "zh_CN.UTF-8")
    terminal = _Terminal()
    _TerminalDownloadProgress(terminal)(model_download.DownloadProgress(
        "e5", "verifying", bytes_done=2_500_000, bytes_total=5_000_000, rate=1_000_000, eta_seconds=2.5))
    assert terminal.getvalue().endswith("正在校验 2.5/5.0 MB，1.0 MB/秒，约剩 2 秒"), terminal.getvalue()


@pytest.mark.parametrize("lang, said", [
    ("zh_CN.UTF-8", "此归档中的向量由嵌入模型“hash:64”生成，而此资料库使用“hash:32”；其中 1 个段落将用此资料库的模型重新嵌入。"),
    ("en_US.UTF-8", "The vectors in this archive were made with the embedding model “hash:64”, but this library uses "
                    "“hash:32”; its 1 passage will be embedded again with this library's model."),
])
def test_import_reembed_says_the_model_change_in_the_locales_language(tmp_path: Path, model_url: str, lang: str,
                                                                      said: str) -> None:
    """The line was cut out of the model mismatch's English text (at ". Its"), so it stayed English in Chinese."""
    docs, cli = _library(tmp_path, lang, model_url)
    cli("index", str(docs))
    assert cli("export", str(tmp_path / "out.zip"), "--collection", "Default").returncode == 0
    imported = cli("import", str(tmp_path / "out.zip"), "--reembed", home="other", model="hash:32")
    assert imported.returncode == 0 and imported.stderr.startswith(said + "\n"), imported.stderr


def test_no_display_is_said_in_the_locales_language(tmp_path: Path) -> None:
    """`desktop-rag` on Linux without a display runs the demo instead, and says so in Chinese under a Chinese locale."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the no-display fallback is Linux's")
    env = {k: v for k, v in environment("zh_CN.UTF-8").items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    run = subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(tmp_path / "home")],
                         capture_output=True, text=True, timeout=600, env=env, stdin=subprocess.DEVNULL)
    assert run.stderr.startswith("未找到显示器，无法打开窗口。改为在示例文档上运行无界面演示"), run.stderr[-2000:]
