"""One "library changed" signal after every committed write: the views refresh from it (no refresh call is
placed after an operation). Real MainWindow and engine, offscreen; the hashing embedder (FAST): this is about
who refreshes, not about meaning."""

from __future__ import annotations

import pytest

from desktop_rag.gui.threads.backend import LibraryChange
from tests.gui.conftest import add_and_wait, write_docs


def _recorder(window) -> list[frozenset[str]]:
    seen: list[frozenset[str]] = []
    window.backend.library_changed.connect(lambda change: seen.append(change.kinds))
    return seen


def test_each_kind_of_write_says_what_it_changed(make_window, qtbot, tmp_path):
    window = make_window()
    seen = _recorder(window)
    write_docs(tmp_path / "docs", 2)
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    assert frozenset({"files"}) in seen

    controller = window.collections
    with qtbot.waitSignal(controller.listing_changed, timeout=10_000,
                          check_params_cb=lambda listing: any(c.name == "Projects" for c in listing)):
        controller.create("Projects")  # the listing follows the signal alone: create() asks for no refresh
    assert frozenset({"collections"}) in seen
    created = next(c.id for c in controller.listing if c.name == "Projects")
    with qtbot.waitSignal(controller.listing_changed, timeout=10_000,
                          check_params_cb=lambda listing: any(c.name == "Renamed" for c in listing)):
        controller.rename(created, "Renamed")
    with qtbot.waitSignal(controller.listing_changed, timeout=10_000,
                          check_params_cb=lambda listing: all(c.id != created for c in listing)):
        controller.delete(created)
    assert frozenset({"collections", "files"}) in seen


def test_conversation_edits_reload_the_conversation_list(make_window, qtbot):
    window = make_window()
    engine, chat = window.backend.engine, window.chat
    seen = _recorder(window)
    conversation = engine.new_conversation("First title")  # written outside the window
    chat.rename_conversation(conversation, "Second title")  # asks for no reload: the signal does it
    qtbot.waitUntil(lambda: chat.conversations_model.title_of(conversation) == "Second title", timeout=10_000)
    assert frozenset({"conversations"}) in seen
    chat.delete_conversation(conversation)
    qtbot.waitUntil(lambda: chat.conversations_model.row_of(conversation) < 0, timeout=10_000)


def test_an_unknown_kind_is_refused(make_window):
    window = make_window()
    with pytest.raises(ValueError, match="unknown change kinds"):
        window.backend.announce("everything")
    assert LibraryChange(frozenset({"files"})).touches("files", "model")
    assert not LibraryChange(frozenset({"conversations"})).touches("files", "collections")
