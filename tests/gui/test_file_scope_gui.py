"""Ask this document in the window (issue 40): the library's context menu and the viewer's button limit the next
questions to one file; the chat shows "Asking in: name" (both languages, plain text) until it is removed; the
answers' sources are that file's only. Real MainWindow and engine (hashing embedder: about which file answers,
not meaning), offscreen Qt, questions sent with the Send button."""

from __future__ import annotations

from pathlib import Path

from desktop_rag.gui import i18n
from desktop_rag.gui.models.library import COL_NAME, PathRole
from tests.gui.conftest import add_and_wait
from tests.support.chat_window import ask

TEXT = "Green tea\n\nGreen tea is steamed leaves; brew it at 80 degrees for two minutes. Tea notes {n}."


def _row_of(window, path: str) -> int:
    model = window.library_model
    return next(r for r in range(model.rowCount()) if model.index(r, COL_NAME).data(PathRole) == path)


def test_ask_this_document_from_the_library_and_the_viewer(make_window, qtbot, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    names = ["tea.txt", "notes.md", "<b>x<b>.txt"]
    for n, name in enumerate(names):
        (docs / name).write_text(TEXT.format(n=n), "utf-8")
    window = make_window()
    add_and_wait(qtbot, window, [str(docs)])
    message = ask(qtbot, window, "green tea at 80 degrees")
    assert {Path(h.path).name for _, h in message.sources} == set(names)  # unscoped: every file answers

    target = str(docs / "notes.md")
    menu = window.library_panel.document_menu
    tree = window.library_panel.tree
    qtbot.waitUntil(lambda: any(window.library_model.index(r, COL_NAME).data(PathRole) == target
                                for r in range(window.library_model.rowCount())), timeout=10_000)
    rect = tree.visualRect(window.library_model.index(_row_of(window, target), COL_NAME))
    assert menu.document_at(rect.center()) == target
    assert menu.document_at(tree.visualRect(window.library_model.index(0, COL_NAME)).center()) is None  # the folder
    actions = menu.build(target).actions()
    assert [a.text() for a in actions][0] == "Ask this document"
    actions[0].trigger()
    scope = window.chat.ask_scope.file_scope
    assert scope.isVisibleTo(window) and scope.label.text() == "Asking in: notes.md"
    assert not window.chat.ask_scope.search_filter.isEnabled()
    for question in ("green tea at 80 degrees", "steamed leaves"):
        message = ask(qtbot, window, question)
        assert message.sources and {h.path for _, h in message.sources} == {target}
    i18n.set_language("zh")
    assert scope.label.text() == "提问范围：notes.md"
    assert menu.build(target).actions()[0].text() == "就此文档提问"
    i18n.set_language("en")
    grab = window.grab()
    assert grab.save(str(tmp_path / "file-scope.png"))

    scope.clear_button.click()
    assert not scope.isVisibleTo(window) and window.chat.ask_scope.search_filter.isEnabled()
    message = ask(qtbot, window, "green tea at 80 degrees")
    assert {Path(h.path).name for _, h in message.sources} == set(names)

    hostile = str(docs / "<b>x<b>.txt")  # the viewer's button: the file shown; a name stays literal text
    hit = next(h for _, h in message.sources if h.path == hostile)
    with qtbot.waitSignal(window.viewer.located, timeout=30_000):
        window.viewer.open_passages(((1, hit),), 0)
    window.viewer.view.ask_button.click()
    assert scope.label.text() == "Asking in: <b>x<b>.txt" and scope.label.textFormat().name == "PlainText"
    message = ask(qtbot, window, "green tea")
    assert message.sources and {h.path for _, h in message.sources} == {hostile}
