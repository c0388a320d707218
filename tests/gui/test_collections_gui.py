"""Collections in the window: create from the menu, add documents into the chosen one, the chat header says
where a question is asked and the answer's sources stay inside it, delete after confirmation.

Real MainWindow, real engine, offscreen Qt; only the modal dialogs (name input, Yes/No) are answered by
monkeypatching their static functions. The hashing embedder (FAST) is used: this is about which collection
answers, not about meaning.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QInputDialog, QMessageBox

from tests.gui.conftest import add_and_wait
from tests.support.chat_window import ask


def _write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, "utf-8")
    return folder


def test_collections_from_the_menu_to_an_answer_and_a_delete(make_window, qtbot, tmp_path, monkeypatch):
    window = make_window()
    bar = window.collection_bar
    qtbot.waitUntil(lambda: bar.combo.count() == 2, timeout=10_000)  # "All collections", "Default"
    general = _write(tmp_path / "general", "tea.txt", "Green tea\n\nGreen tea is steamed leaves; brew it at 80 degrees.")
    add_and_wait(qtbot, window, [str(general)])  # "All collections" shown: new documents go to the first one

    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: ("Work notes", True)))
    with qtbot.waitSignal(window.collections.current_changed, timeout=10_000):
        bar.actions["new"].trigger()
    qtbot.waitUntil(lambda: bar.combo.currentText() == "Work notes", timeout=10_000)
    assert window.asking_in.text() == "Asking in: Work notes"
    work = _write(tmp_path / "work", "brew.txt", "Brewing log\n\nThe brew kettle for tea runs at 80 degrees in the lab.")
    add_and_wait(qtbot, window, [str(work)])

    engine = window.backend.engine
    work_id = window.collections.current
    assert [s.path for s in engine.sources(work_id)] == [str(work)]
    qtbot.waitUntil(lambda: len(window.library_model.source_paths()) == 1, timeout=10_000)  # only this collection's

    message = ask(qtbot, window, "tea at 80 degrees")
    assert message.sources and {Path(h.path).parent for _, h in message.sources} == {work}
    assert engine.conversation_collection(window.chat.conversation_id) == work_id

    bar.combo.setCurrentIndex(0)
    bar.combo.activated.emit(0)  # back to "All collections": both documents answer
    assert window.asking_in.text() == "Asking in: All collections"
    window.chat.new_conversation()
    message = ask(qtbot, window, "tea at 80 degrees")
    assert {Path(h.path).parent for _, h in message.sources} == {work, general}

    bar.combo.setCurrentIndex(bar.combo.findData(work_id))
    bar.combo.activated.emit(bar.combo.currentIndex())
    asked: list[str] = []

    def answer(_parent, _title, text, *a, **k):
        asked.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", staticmethod(answer))
    with qtbot.waitSignal(window.collections.listing_changed, timeout=10_000,
                          check_params_cb=lambda listing: len(listing) == 1):
        bar.actions["delete"].trigger()
    assert asked and "Work notes" in asked[0] and "not touched" in asked[0]
    assert [c.name for c in engine.collections()] == ["Default"]
    assert (work / "brew.txt").exists() and [s.path for s in engine.sources()] == [str(general)]
    assert bar.combo.currentText() == "All collections"


def test_an_empty_name_is_said_to_be_needed(make_window, qtbot, monkeypatch):
    """New collection… or Rename… with an empty name, then OK: the window says a collection needs a name (OK did
    nothing, as if it had not been pressed)."""
    from desktop_rag.gui import i18n

    i18n.set_language("en")
    window = make_window()
    bar = window.collection_bar
    qtbot.waitUntil(lambda: bar.combo.count() == 2, timeout=10_000)
    shown: list[str] = []
    monkeypatch.setattr("desktop_rag.gui.views.collection_bar.show_plain",
                        lambda _parent, _icon, _title, message: shown.append(message))
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: ("   ", True)))
    bar.actions["new"].trigger()
    qtbot.waitUntil(lambda: shown == ["A collection needs a name."], timeout=10_000)
    window.collections.select(window.backend.engine.collection_id("Default"))
    qtbot.waitUntil(lambda: bar.actions["rename"].isEnabled(), timeout=10_000)
    bar.actions["rename"].trigger()
    qtbot.waitUntil(lambda: len(shown) == 2, timeout=10_000)
    assert shown[1] == "A collection needs a name."
    assert [c.name for c in window.backend.engine.collections()] == ["Default"]
