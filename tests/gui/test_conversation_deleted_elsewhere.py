"""A conversation another window (process) deleted, still listed here: opening it says nothing is there and starts a
new conversation, and the list drops it. It opened empty under the deleted conversation's id, and the next question
and its answer were saved nowhere (the engine drops turns of a conversation that is gone)."""

from __future__ import annotations

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine import Engine
from tests.gui.conftest import add_and_wait, write_docs
from tests.support.chat_window import ask


def test_opening_a_conversation_deleted_elsewhere_starts_a_new_one(make_window, qtbot, tmp_path):
    write_docs(tmp_path / "docs", count=1)
    window = make_window(home=tmp_path / "home")
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    ask(qtbot, window, "What does topic0 say?")
    gone = window.chat.conversation_id
    window.chat.new_conversation()
    other = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64"))  # another window
    try:
        other.delete_conversation(gone)
    finally:
        other.close()
    assert window.conversations_model.row_of(gone) >= 0  # still listed here
    window.chat.open_conversation(gone)
    qtbot.waitUntil(lambda: window.conversations_model.row_of(gone) < 0, timeout=10_000)
    assert window.chat.conversation_id is None
    ask(qtbot, window, "What does topic0 say about alpha?")
    engine = window.backend.engine
    saved = window.chat.conversation_id  # (SQLite may give it the deleted one's id again: it is a new row)
    assert [c.title for c in engine.conversations()] == ["What does topic0 say about alpha?"]
    assert [t.content for t in engine.messages(saved)][0] == "What does topic0 say about alpha?"
