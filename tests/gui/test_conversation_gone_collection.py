"""A conversation reopened whose collection is no longer there for this person (on a library on a server: deleted by
the administrator, whose delete clears only the administrator's own conversations; or no longer granted) asks in
all collections, as its "Asking in" line says. It asked in the missing collection: the line said "All collections"
while every answer said nothing was found."""

from __future__ import annotations

from tests.gui.conftest import add_and_wait, write_docs
from tests.support.chat_window import ask


def test_a_conversation_of_a_collection_no_longer_there_asks_in_all(make_window, qtbot, tmp_path):
    write_docs(tmp_path / "docs", count=2)
    window = make_window()
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    engine = window.backend.engine
    ask(qtbot, window, "What does topic0 say?")
    conversation = window.chat.conversation_id
    with engine.store.transaction() as db:  # as another person's delete leaves this person's conversation
        db.execute("UPDATE conversations SET collection_id = 99 WHERE id = ?", (conversation,))
    window.chat.new_conversation()
    with qtbot.waitSignals([window.chat.messages_loaded, window.chat.conversation_collection], timeout=10_000):
        window.chat.open_conversation(conversation)
    assert window.collections.current is None and window.backend.collection is None
    assert window.asking_in.text() == "Asking in: All collections"
    message = ask(qtbot, window, "What does topic1 say?")
    assert message.sources  # found in all collections
