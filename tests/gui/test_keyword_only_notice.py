"""A library reopened while its vectors still load answers from keyword search at once (Engine.warm_up on the index worker):
the answer's one notice says so, and the status bar says the search index is loading until it is ready.

Real MainWindow, real engine, offscreen Qt, the loopback OpenAI server for the model answer. In the first two tests
the vectors' load is held back by taking the engine's own lock before the window starts its background load, as a
slow disk would hold it, so each step is deterministic; the last test opens a large library whose corrupt vector
cache is really rebuilt in the background (as tests/engine/test_vector_index_rebuild.py does without a window).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.store.sqlite import vector_index
from desktop_rag.gui import i18n
from tests.engine import test_vector_index_rebuild as rebuild
from tests.gui.conftest import FAST, add_and_wait, llm_settings, wait_idle, write_docs
from tests.support.chat_window import ask

QUESTION = "topic1 fact2 alpha"
LOADING_EN = "Still loading the search index"
LOADING_ZH = "检索索引仍在加载"


def _notice(window) -> str:
    """The last answer's notice as the user sees it ("" when hidden)."""
    bubble = window.chat_panel.messages.widget_at(window.chat_model.last_assistant_row())
    return bubble.notice_label.text() if bubble.notice_label.isVisibleTo(window) else ""


def _indexed_library(make_window, qtbot, tmp_path: Path, settings: Settings) -> tuple[Path, int]:
    """A library indexed (vectors stored, cache saved) by one window, then closed; (home, passages with vectors)."""
    home = tmp_path / "home"
    first = make_window(settings, home=home)
    add_and_wait(qtbot, first, [str(p) for p in write_docs(tmp_path / "docs", count=3)])
    status = first.last_status
    first.close()
    assert status.chunks > 0 and status.chunks_pending_embedding == 0
    return home, status.chunks


@contextmanager
def _reopened_while_loading(qtbot, home: Path, settings: Settings) -> Iterator:
    """The window reopened on `home` with its background load of the model and vectors held until the block's
    `release()` (called at the latest on exit)."""
    from desktop_rag.gui.app import create_application
    from desktop_rag.gui.main_window import MainWindow

    create_application()
    window = MainWindow(resolve_paths(home), settings, start=False)
    engine = window.backend.engine
    engine.runtime._lock.acquire()  # the load (Engine.warm_up) waits here, as on a slow disk; searches do not need it
    held = [True]

    def release() -> None:
        if held[0]:
            held[0] = False
            engine.runtime._lock.release()

    reader_gate = threading.Event()  # the first status read waits until the load has been seen to begin
    try:
        window.show()
        window.backend.run(lambda: reader_gate.wait(10))
        window.backend.start()
        window.chat.load_conversations()
        qtbot.waitUntil(lambda: engine.runtime.loading(), timeout=10_000)  # the background load has begun
        QApplication.processEvents()  # its "loading" state, emitted before, is shown
        assert window.last_status is None and window.model_label.text() == "Loading the embedding model…"
        reader_gate.set()  # the status arrives during the load: the status bar says what is loading
        qtbot.waitUntil(lambda: window.last_status is not None, timeout=10_000)
        assert window.model_label.text().startswith("Loading the search index ("), window.model_label.text()
        window.release = release
        yield window
    finally:
        reader_gate.set()
        release()
        window.close()


def _check_loading_then_ready(qtbot, window, passages: int) -> None:
    """While held: the status bar says the index is loading; after release it says ready and dense search works."""
    engine = window.backend.engine
    qtbot.waitUntil(lambda: window.last_status is not None, timeout=10_000)
    label = window.model_label
    assert label.text().startswith(f"Loading the search index ({passages} passages)"), label.text()
    assert not engine.runtime.dense_ready()
    window.release()
    qtbot.waitUntil(lambda: window.model_state[0] == "ready", timeout=30_000)  # shown on the GUI thread
    assert engine.runtime.dense_ready()
    assert "Loading" not in label.text() and label.text().startswith("Model ready"), label.text()


def test_keyword_only_extractive_answer_says_so_until_the_index_is_loaded(make_window, qtbot, tmp_path):
    home, passages = _indexed_library(make_window, qtbot, tmp_path, FAST)
    with _reopened_while_loading(qtbot, home, FAST) as window:
        message = ask(qtbot, window, QUESTION)
        assert message.keyword_only and message.mode == "extractive" and message.sources
        notice = _notice(window)
        assert f"{LOADING_EN} ({passages} passages): this answer used keyword matches only." in notice, notice
        assert "No language model is configured" in notice  # the same one notice still says it is extractive
        i18n.set_language("zh")  # the notice follows the interface language
        assert f"{LOADING_ZH}（{passages} 个段落）" in _notice(window)
        assert window.model_label.text().startswith("正在加载检索索引")
        i18n.set_language("en")

        _check_loading_then_ready(qtbot, window, passages)
        window.chat.new_conversation()
        message = ask(qtbot, window, QUESTION)
        assert not message.keyword_only and message.sources
        assert LOADING_EN not in _notice(window) and "No language model" in _notice(window)
        wait_idle(qtbot, window)


def test_keyword_only_model_answer_says_so_and_a_normal_one_does_not(make_window, qtbot, tmp_path, llm_server,
                                                                      monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    llm_server.tokens = ["Topic1 ", "mentions ", "alpha ", "[1]", "."]
    settings = llm_settings(llm_server)
    home, passages = _indexed_library(make_window, qtbot, tmp_path, settings)
    with _reopened_while_loading(qtbot, home, settings) as window:
        message = ask(qtbot, window, QUESTION)
        assert message.mode == "llm" and message.text == "".join(llm_server.tokens) and message.keyword_only
        assert _notice(window) == f"{LOADING_EN} ({passages} passages): this answer used keyword matches only."

        _check_loading_then_ready(qtbot, window, passages)
        message = ask(qtbot, window, QUESTION)  # same conversation, vectors loaded
        assert message.mode == "llm" and not message.keyword_only and not message.error
        assert _notice(window) == ""
        wait_idle(qtbot, window)


def test_a_corrupt_cache_rebuilt_at_start_shows_loading_until_dense_is_ready(make_window, qtbot, tmp_path, monkeypatch):
    """The real thing: a 50k-passage library whose vector cache is corrupt is rebuilt in the background when the
    window opens. The status bar says so until the rebuild ends; an answer asked at once carries the notice
    exactly when it was keyword-only (it almost always is: the rebuild takes about a second, the answer ~10 ms)."""
    monkeypatch.setattr(vector_index, "APPROX_THRESHOLD", rebuild.LARGE // 2)  # the compressed kind, as at 1M
    home = tmp_path / "home"
    passages = rebuild._library(home, rebuild.LARGE)
    engine = Engine(resolve_paths(home), Settings(embedding_model=rebuild.MODEL))
    with engine.store.transaction() as db:  # its documents are not on this machine: start-up leaves it alone
        db.execute("UPDATE sources SET detached = 1")
    engine.close()
    rebuild._damage(home, "corrupt")

    window = make_window(Settings(embedding_model=rebuild.MODEL), home=home)
    seen: set[str] = set()
    recorder = QTimer(window, interval=5)  # what the status bar shows, sampled while the window runs
    recorder.timeout.connect(lambda: seen.add(window.model_label.text()))
    recorder.start()
    message = ask(qtbot, window, rebuild.QUERY)
    assert message.sources
    assert (LOADING_EN in _notice(window)) == message.keyword_only, (message.keyword_only, _notice(window))
    qtbot.waitUntil(lambda: window.model_state[0] == "ready", timeout=60_000)
    recorder.stop()
    assert f"Loading the search index ({passages:,} passages)…" in seen, seen
    assert window.backend.engine.runtime.dense_ready() and window.model_label.text().startswith("Model ready")
    window.chat.new_conversation()
    message = ask(qtbot, window, rebuild.QUERY)
    assert not message.keyword_only and LOADING_EN not in _notice(window)
