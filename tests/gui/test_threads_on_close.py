"""Closing the window joins every thread the app started, also mid-answer and mid-translation; nothing is lost."""

from __future__ import annotations

import os
import socketserver
import threading

from desktop_rag.config import resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.gui.threads.worker_pool import WorkerPool
from tests.gui.conftest import add_and_wait, llm_settings, write_docs

OS_GRACE_MS = 3000  # a thread Qt has joined may take a moment to leave the kernel's list


def os_threads() -> dict[int, str]:
    """Native id -> name of every live OS thread of this process (Linux /proc)."""
    found = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/comm", encoding="utf-8") as f:
                found[int(tid)] = f.read().strip()
        except OSError:  # ended meanwhile
            pass
    return found


def _servers_own(thread: threading.Thread) -> bool:
    """Threads of the test's own HTTP server (its loop and its request handlers) are not the app's."""
    target = getattr(thread, "_target", None)
    return isinstance(getattr(target, "__self__", None), socketserver.BaseServer)


class Baseline:
    """What ran before the window opened, so only threads the window started are judged."""

    def __init__(self) -> None:
        self.python = set(threading.enumerate())
        self.native = set(os_threads())

    def python_threads_alive(self) -> list[str]:
        """Python threads (threading.Thread) started since, still alive, other than the test server's."""
        return [t.name for t in threading.enumerate()
                if t not in self.python and t is not threading.main_thread() and t.is_alive()
                and not isinstance(t, threading._DummyThread) and not _servers_own(t)]

    def foreign_threads_alive(self) -> list[str]:
        """Threads Qt started that ran Python code (threading sees them as dummies) or carry an app name,
        still alive in the kernel."""
        live = os_threads()
        named = [f"{name} (native {tid})" for tid, name in live.items()
                 if tid not in self.native and name.startswith("desktop-rag")]
        dummies = [f"{t.name} (native {t.native_id})" for t in threading.enumerate()
                   if isinstance(t, threading._DummyThread) and t.native_id in live and t.native_id not in self.native]
        return named + dummies


def assert_every_thread_joined(qtbot, window, baseline: Baseline) -> None:
    assert window.backend.index_thread.isFinished()
    pools = window.findChildren(WorkerPool)
    assert {p.objectName() for p in pools} >= {"desktop-rag-reader", "desktop-rag-answer", "desktop-rag-viewer-locate",
                                               "desktop-rag-viewer-render"}
    assert all(p.stopped and p.active_threads == 0 for p in pools), [(p.objectName(), p.active_threads) for p in pools]
    assert baseline.python_threads_alive() == []  # joined, not left to finish on their own
    qtbot.waitUntil(lambda: baseline.foreign_threads_alive() == [], timeout=OS_GRACE_MS)


def _ready_window(make_window, qtbot, tmp_path, llm_server, monkeypatch, **settings):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    write_docs(tmp_path / "docs", count=3)
    baseline = Baseline()
    window = make_window(llm_settings(llm_server, **settings))
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    qtbot.waitUntil(lambda: window.model_state[0] == "ready", timeout=30_000)  # a model load is not waited for
    return window, baseline


def _send(window, question: str) -> None:
    window.chat_panel.input.setPlainText(question)
    window.chat_panel.send_button.click()


def test_closing_while_an_answer_streams_joins_every_thread_and_keeps_the_answer(
        make_window, qtbot, tmp_path, llm_server, monkeypatch):
    llm_server.endless = True
    llm_server.token_delay = 0.005
    window, baseline = _ready_window(make_window, qtbot, tmp_path, llm_server, monkeypatch)
    tokens: list[str] = []
    window.chat.token_received.connect(tokens.append)
    _send(window, "What does topic1 say about gamma?")
    qtbot.waitUntil(lambda: len(tokens) >= 20, timeout=30_000)
    window.viewer.open_number(1)  # the viewer's locate thread is busy too
    window.backend.refresh()  # and the reader has work queued

    window.close()

    assert_every_thread_joined(qtbot, window, baseline)
    request = llm_server.chat_requests()[-1]
    assert request.client_gone.wait(5), "the model's connection was closed, not left streaming"
    # nothing lost: the question and the answer so far are in the library
    engine = Engine(resolve_paths(tmp_path / "home"))
    try:
        conversation = engine.conversations()[0]
        turns = engine.messages(conversation.id)
    finally:
        engine.close()
    assert [t.role for t in turns] == ["user", "assistant"]
    assert turns[0].content == "What does topic1 say about gamma?"
    assert turns[1].content.strip().startswith("".join(tokens[:20]).strip()) and turns[1].sources


def test_closing_while_the_question_is_being_translated_joins_every_thread(
        make_window, qtbot, tmp_path, llm_server, monkeypatch):
    """A search asks the model for the question in the library's other language; closing must not wait for it."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "茶.md").write_text("# 绿茶\n\n龙井绿茶应该用八十度左右的水冲泡。\n", encoding="utf-8")
    llm_server.hang_if = lambda body: "Translate the user's search question" in body["messages"][0]["content"]
    window, baseline = _ready_window(make_window, qtbot, tmp_path, llm_server, monkeypatch, translate_queries=True)
    _send(window, "How hot should the water be for green tea?")
    qtbot.waitUntil(lambda: any(llm_server.hang_if(r.body) for r in llm_server.chat_requests()), timeout=30_000)
    assert window.chat.streaming

    window.close()

    assert_every_thread_joined(qtbot, window, baseline)
    translation = next(r for r in llm_server.chat_requests() if llm_server.hang_if(r.body))
    assert translation.client_gone.wait(5), "the translation request was cancelled, not left waiting"
