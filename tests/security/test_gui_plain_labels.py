"""Attack: a file name, a conversation title, an error or a model's text is shown as HTML.

Qt guesses "rich text" for labels, tooltips and message boxes, and rich text loads the images it names:
a file called `<img src=file:%2Fdev%2Fzero>.txt` in a watched folder aborted the app while it indexed.
Every such text must be displayed literally.
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before any Qt import

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from PySide6 import QtGui  # noqa: E402
from PySide6.QtCore import QEvent, Qt, QTimer  # noqa: E402
from PySide6.QtGui import QHelpEvent, QTextDocument  # noqa: E402
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox, QToolTip  # noqa: E402

from desktop_rag.config import Settings, resolve_paths  # noqa: E402
from desktop_rag.engine.ingest.reports import Progress  # noqa: E402

FAST = Settings(embedding_model="hash:64")
# Harmless in-process (the image does not exist), but any HTML interpretation changes what is shown.
MARKUP = "<b>bold<img src=missing-image.png>"  # no slash: it is also a file name
ABORTS = "<img src=file:%2Fdev%2Fzero>"  # aborted the app when rendered as rich text: child process only


def shown(text: str, text_format: Qt.TextFormat = Qt.TextFormat.AutoText) -> str:
    """What a user reads: the text itself when shown as plain text, else what the HTML renders to."""
    rich = text_format == Qt.TextFormat.RichText or (
        text_format == Qt.TextFormat.AutoText and QtGui.Qt.mightBeRichText(text))
    if not rich:
        return text
    document = QTextDocument()
    document.setHtml(text)
    return document.toPlainText()


def assert_literal(label: QLabel, expected: str) -> None:
    assert label.textFormat() == Qt.TextFormat.PlainText
    assert expected in shown(label.text(), label.textFormat())


@pytest.fixture
def window(qtbot, tmp_path: Path):
    from desktop_rag.gui.app import create_application
    from desktop_rag.gui.main_window import MainWindow

    create_application()
    win = MainWindow(resolve_paths(tmp_path / "home"), FAST)
    win.show()
    yield win
    win.close()


def _wait_index(qtbot, window, paths: list[str]):
    with qtbot.waitSignal(window.index_finished, timeout=60_000,
                          check_params_cb=lambda r: r.added + len(r.failed) > 0) as blocker:
        window.add_paths(paths)
    qtbot.waitUntil(lambda: not window.backend.busy, timeout=60_000)
    return blocker.args[0]


def _modal_text(qtbot, action) -> str:
    """Run `action` (which opens a modal message box), read what the box shows, answer No."""
    seen: list[str] = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, answer)
            return
        seen.append(shown(box.text(), box.textFormat()))
        box.button(QMessageBox.StandardButton.No).click()

    QTimer.singleShot(0, answer)
    action()
    qtbot.waitUntil(lambda: bool(seen), timeout=5_000)
    return seen[0]


def _tooltip_over(qtbot, view, index) -> str:
    """Hover `index` in an item view the way Qt does (a ToolTip help event) and read the tooltip shown."""
    QToolTip.hideText()
    pos = view.visualRect(index).center()
    event = QHelpEvent(QEvent.Type.ToolTip, pos, view.viewport().mapToGlobal(pos))
    QApplication.sendEvent(view.viewport(), event)
    qtbot.waitUntil(QToolTip.isVisible, timeout=5_000)
    return shown(QToolTip.text())


def test_file_names_and_errors_in_the_library_are_literal(qtbot, window, tmp_path: Path) -> None:
    docs = tmp_path / f"docs {MARKUP}"  # the folder's own name is hostile too
    docs.mkdir()
    bad_name = f"{MARKUP}.pdf"
    (docs / bad_name).write_bytes(b"not a pdf at all")  # fails: its row has a failure reason
    (docs / f"{MARKUP}.txt").write_text("Ordinary text about zebras.\n", encoding="utf-8")
    report = _wait_index(qtbot, window, [str(docs)])
    assert report.failed

    panel = window.library_panel
    panel.show_progress(Progress("text", 1, 2, current_file=str(docs / bad_name)))  # what indexing shows
    assert_literal(panel.progress_label, bad_name)

    model = window.library_model
    qtbot.waitUntil(lambda: model.rowCount() == 1 + 2, timeout=30_000)  # the source's row, then its 2 files
    failed = next(model.index(r, 0) for r in range(1, model.rowCount()) if model.index(r, 0).data().endswith(".pdf"))
    panel.tree.setCurrentIndex(failed)
    assert panel.detail.isVisibleTo(panel)
    assert_literal(panel.detail, str(report.failed[0].error))  # the failure reason, as the user reads it
    assert _tooltip_over(qtbot, panel.tree, failed) == panel.detail.text()
    other = next(model.index(r, 0) for r in range(1, model.rowCount()) if model.index(r, 0).data().endswith(".txt"))
    assert _tooltip_over(qtbot, panel.tree, other) == str(docs / f"{MARKUP}.txt")  # the path, literally

    refused = tmp_path / f"{MARKUP}.exe"
    refused.write_bytes(b"MZ")
    window.add_paths([str(refused)])
    assert_literal(panel.banner, refused.name)

    assert f"“{docs}”" in _modal_text(qtbot, lambda: window.confirm_remove(str(docs)))


def test_titles_and_model_errors_are_literal(qtbot, window) -> None:
    question = f"{MARKUP} what?"
    with qtbot.waitSignal(window.chat.answer_finished, timeout=60_000):
        window.chat_panel.input.setPlainText(question)
        window.chat_panel.submit()
    cid = window.chat.conversation_id
    qtbot.waitUntil(lambda: window.conversations_model.title_of(cid) == question, timeout=10_000)
    assert_literal(window.chat_panel.title, question)
    assert question in _tooltip_over(qtbot, window.conversations_panel.view, window.conversations_model.index(0))
    assert question in _modal_text(qtbot, lambda: window.delete_conversation(cid))

    window._model_state("error", f"the server said {MARKUP}")
    assert_literal(window.model_label, f"the server said {MARKUP}")
    assert shown(window.model_label.toolTip()) == f"the server said {MARKUP}"


# The real window indexes a folder holding a file whose name aborted the app; labels, the failure
# detail and the tooltips are exercised with that name, in a child process.
INDEX_HOSTILE_NAMES = r"""
from PySide6.QtCore import QEvent, QEventLoop, Qt, QTimer
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip
from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.ingest.reports import Progress
from desktop_rag.gui.app import create_application
from desktop_rag.gui.main_window import MainWindow

app = create_application()
folder, home = ARGS
window = MainWindow(resolve_paths(home), Settings(embedding_model="hash:64"))
window.show()
loop = QEventLoop()
reports = []
window.index_finished.connect(lambda r: (reports.append(r), loop.quit()) if r.added + len(r.failed) else None)
QTimer.singleShot(90000, loop.quit)
window.add_paths([folder])
loop.exec()
assert reports, "indexing did not finish"
panel = window.library_panel
names = sorted(os.listdir(folder))
panel.show_progress(Progress("text", 1, 2, current_file=os.path.join(folder, names[0])))
app.processEvents()
model = window.library_model
tips = []
for row in range(1, model.rowCount()):  # the files, under their source's row
    index = model.index(row, 0)
    panel.tree.setCurrentIndex(index)
    app.processEvents()
    pos = panel.tree.visualRect(index).center()
    QApplication.sendEvent(panel.tree.viewport(), QHelpEvent(QEvent.Type.ToolTip, pos, panel.tree.viewport().mapToGlobal(pos)))
    app.processEvents()
    tips.append(QToolTip.text())
window.add_paths([os.path.join(folder, names[0] + ".exe")])
window.chat_panel.set_title(names[0])
window._model_state("error", names[0])
app.processEvents()
window.grab()
labels = {"progress": panel.progress_label, "detail": panel.detail, "banner": panel.banner,
          "title": window.chat_panel.title, "model": window.model_label}
report({"failed": len(reports[0].failed), "tips": tips,
        "labels": {k: [v.text(), int(v.textFormat().value)] for k, v in labels.items()}})
window.close()
"""


@pytest.mark.skipif(sys.platform == "win32", reason="the name holds characters Windows forbids")
def test_indexing_a_file_named_like_an_image_tag_does_not_abort(gui_child, tmp_path: Path) -> None:
    docs = tmp_path / "watched"
    docs.mkdir()
    (docs / f"{ABORTS}.txt").write_text("Plain words about lighthouses.\n", encoding="utf-8")
    (docs / f"{ABORTS}.pdf").write_bytes(b"broken pdf")
    result = gui_child(INDEX_HOSTILE_NAMES, str(docs), str(tmp_path / "home"), timeout=180)
    assert result["failed"] == 1
    plain = int(Qt.TextFormat.PlainText.value)
    for name, (text, text_format) in result["labels"].items():
        assert text_format == plain, name
    assert ABORTS in result["labels"]["progress"][0]
    assert ABORTS in result["labels"]["banner"][0]
    assert result["labels"]["title"][0] == f"{ABORTS}.pdf"
    assert len(result["tips"]) == 2 and all(tip and ABORTS not in tip for tip in result["tips"])
    assert any(shown(tip).endswith(f"{ABORTS}.txt") for tip in result["tips"])  # the path, literally
