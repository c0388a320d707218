"""Attack: a model folder whose tokenizer.json runs a backtracking regular expression (a `Split` pre-tokenizer with
`(a+)+b`). The `tokenizers` library panicked on a passage of a's: pyo3's PanicException, a BaseException that escaped
every `except Exception`, so `desktop-rag index` ended in a traceback, the MCP server died on the next request and the
window's index and answer threads died without a word. Now a tokenizer with an unknown regex is refused when the
folder is loaded, a panic that gets past that is an error like any other, and the threads and servers live on."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from desktop_rag.engine import DesktopRagError, error_text
from tests.support.english import english_sentence
from tests.support import REPO
from tests.support.mcp_session import run_mcp
from tests.support.model_folders import documents, minilm_copy, run_cli, with_tokenizer_regex

BACKTRACKING = "(a+)+b"
PASSAGE = "Alarm\n\n" + "a" * 60 + " and then the alarm went off.\n"


@pytest.mark.parametrize("runtime", ["torch", "auto"])  # sentence-transformers; the ONNX runtime (exported first)
def test_index_refuses_a_tokenizer_that_backtracks_with_a_clear_error(tmp_path: Path, runtime: str):
    model = with_tokenizer_regex(minilm_copy(tmp_path / "model"), BACKTRACKING)
    result, done = run_cli(tmp_path / "home", "index", str(documents(tmp_path / "docs", PASSAGE)),
                           model=str(model), runtime=runtime)
    assert "peak_mb" in result, f"the CLI died:\n{done.stderr[-3000:]}"  # main() returned: no escaped exception
    assert result["rc"] == 1
    assert "Traceback" not in done.stderr and "PanicException" not in done.stderr
    assert "regular expression" in done.stderr and "tokenizer.json" in done.stderr


@pytest.mark.parametrize("runtime", ["torch", "onnx"])
def test_a_panic_that_gets_past_the_check_is_an_error_not_a_crash(tmp_path: Path, monkeypatch, runtime: str):
    """The second line of defence: were the regex allowed, the tokenizer's panic becomes a DesktopRagError."""
    from desktop_rag.config import BUNDLED_MODEL
    from desktop_rag.engine.models.embedders import onnx_backend, sentence_transformers_backend
    from desktop_rag.engine.models.embedders.sentence_transformers_backend import bundled_model_path
    from desktop_rag.engine.models.onnx_export import RuntimeFolders, ensure_exported

    monkeypatch.setattr("desktop_rag.engine.models.folder_checks.is_known_pattern", lambda pattern: True)
    model = with_tokenizer_regex(minilm_copy(tmp_path / "model"), BACKTRACKING)
    if runtime == "torch":
        embedder = sentence_transformers_backend.SentenceTransformerEmbedder(str(model))
    else:  # the bundled MiniLM's exported runtime files (the same weights) with the crafted tokenizer
        runtime_files = ensure_exported(bundled_model_path(), tmp_path / "home", BUNDLED_MODEL).runtime
        embedder = onnx_backend.OnnxEmbedder(str(model), lambda: RuntimeFolders(model, runtime_files), ("", ""),
                                             384, None, 1.0)
    with pytest.raises(DesktopRagError, match="native library") as caught:
        embedder.embed(["a" * 60])
    said = error_text(caught.value, "zh")  # a worded sentence and what to do, then the library's words on one line
    worded, _, theirs = said.partition("（系统报告的错误：")
    assert worded.startswith("嵌入模型") and "在原生库（程序中不是用 Python 写的部分）内部失败，已中止。" in worded, said
    assert "请在“设置”中换用其他嵌入模型" in worded and english_sentence(worded) is None, said
    assert theirs.endswith("）。") and "\n" not in said and len(theirs) <= 305, said


def test_the_mcp_server_keeps_answering_after_a_tokenizer_fails(tmp_path: Path):
    from desktop_rag.config import Settings, resolve_paths
    from desktop_rag.engine.engine import Engine

    model = minilm_copy(tmp_path / "model")
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model=str(model)))
    try:
        engine.index([documents(tmp_path / "docs", PASSAGE)])  # (the fast runtime: Settings() is not the env)
    finally:
        engine.close()
    with_tokenizer_regex(model, BACKTRACKING)  # swapped in after indexing: the server meets it on a query

    async def calls(client):
        searched = await client.call_tool("search", {"query": "a" * 60, "k": 3})
        status = await client.call_tool("status", {})
        again = await client.call_tool("search", {"query": "alarm went off", "k": 3})
        return searched, status, again

    searched, status, again = run_mcp(tmp_path / "home", calls, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert searched.is_error and "regular expression" in searched.content[0].text
    assert not status.is_error and status.structured_content["files"]["indexed"] == 1
    assert again.is_error and "regular expression" in again.content[0].text  # still answering, same clear reason


_GUI_THREADS = """
from pathlib import Path
from PySide6.QtCore import QObject, QThread
from PySide6.QtWidgets import QApplication
from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine import Engine
from desktop_rag.gui.threads.index_worker import IndexRequest, IndexWorker
from desktop_rag.gui.threads.worker_pool import WorkerPool

app = QApplication([])
model, docs, more, home, mode = ARGS
settings = Settings(embedding_model=model, embed_runtime="torch")
if mode == "crafted-folder":  # indexed with the model as it came; then its tokenizer is swapped
    from tests.support.model_folders import with_tokenizer_regex
    indexing = Engine(resolve_paths(home), settings)
    indexing.index([docs])
    indexing.close()
    with_tokenizer_regex(Path(model), "(a+)+b")
engine = Engine(resolve_paths(home), settings)
if mode == "injected":  # a genuine PanicException, raised where the engine would raise it
    from tokenizers import Regex, Tokenizer, models, pre_tokenizers
    tokenizer = Tokenizer(models.WordLevel({"a": 0}, unk_token="a"))
    tokenizer.pre_tokenizer = pre_tokenizers.Split(Regex("(a+)+b"), "isolated")
    try:
        tokenizer.encode("a" * 60)
    except BaseException as exc:
        panic = type(exc)
    def index(*args, **kwargs):
        raise panic("index panicked")
    def ask(*args, **kwargs):
        raise panic("answer panicked")
        yield
    engine.index, engine.ask = index, ask
thread = QThread()
worker = IndexWorker(engine)
worker.moveToThread(thread)
thread.start()
finished, failures, closed = [], [], []  # the worker's signals come from its thread: recorded before it acts
worker.run_finished.connect(finished.append)
worker.run_failed.connect(failures.append)
worker.closed.connect(lambda: closed.append(True))
worker.submit(IndexRequest("index", (more,)))
until(lambda: finished or failures, 90000)  # neither when the thread died
owner = QObject()
answers = WorkerPool("desktop-rag-answer", 1, owner)
answer = answers.start(engine.ask, "a" * 60, None, cancel_kw="cancel")
events, errors = [], []
answer.yielded.connect(events.append)
answer.errored.connect(errors.append)
need(answer.finished, 120000)
errors += [str(e.message) for e in events if type(e).__name__ == "ErrorEvent"]
worker.submit(IndexRequest("close"))
if not until(lambda: closed, 60000):
    raise SystemExit("the index worker never closed")
thread.quit()
thread.wait()
report({"index_failed": [str(f) for f in failures], "index_finished": len(finished),  # Reasons: as worded
        "answer_errors": [str(e) for e in errors]})
"""


@pytest.mark.parametrize("mode", ["crafted-folder", "injected"])
def test_the_window_index_and_answer_threads_report_a_panic(tmp_path: Path, gui_child, mode: str):
    model = minilm_copy(tmp_path / "model")
    docs, more = documents(tmp_path / "docs", PASSAGE), documents(tmp_path / "more", PASSAGE.replace("Alarm", "Bell"))
    result = gui_child(_GUI_THREADS, str(model), str(docs), str(more), str(tmp_path / "home"), mode, timeout=400)
    expected = "regular expression" if mode == "crafted-folder" else "panicked"
    assert result["index_finished"] == 0 and len(result["index_failed"]) == 1, result
    assert expected in result["index_failed"][0], result
    assert result["answer_errors"] and expected in result["answer_errors"][0], result
