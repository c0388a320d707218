"""E-mail attachments in the window (issue 37): listed under their message in the library (both languages), the
finished run counting them, the viewer showing a PDF attachment's page and a Word attachment's text read from
the message, "Open with default app" handing over the message, and a changed message offering the re-index."""

from __future__ import annotations

import os

import pytest
from PySide6.QtCore import QUrl

from desktop_rag.engine.paths import attachment_path
from desktop_rag.gui import i18n
from desktop_rag.gui.models.library import COL_NAME
from tests.gui.conftest import add_and_wait
from tests.support.doc_files import write_eml


def _names(model) -> list[str]:
    return [model.index(row, COL_NAME).data() for row in range(model.rowCount())]


def _open(qtbot, window, hit):
    with qtbot.waitSignal(window.viewer.located, timeout=30_000) as blocker:
        window.viewer.open_passages(((1, hit),), 0)
    return blocker.args[0]


@pytest.fixture
def mail_window(make_window, qtbot, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    mail = write_eml(docs / "sample.eml")
    window = make_window()
    report = add_and_wait(qtbot, window, [str(docs)])
    assert (report.added, report.attachments) == (1, 2)
    return window, mail, report


@pytest.mark.parametrize("language", ["en", "zh"])
def test_attachments_are_listed_under_their_message(qtbot, mail_window, language):
    window, mail, report = mail_window
    i18n.set_language(language)
    assert _names(window.library_model) == ["docs", "sample.eml", "↳ 纪要.docx", "↳ shuttle.pdf"]
    tip = window.library_model.index(3, COL_NAME).data(0x03)  # ToolTipRole
    assert attachment_path(str(mail), "2/shuttle.pdf") in tip
    assert ("上方邮件的附件" if language == "zh" else "An attachment of the e-mail above") in tip
    text = window.index_runs.finished_text(report)
    assert ("2 个邮件附件作为独立文档读取" if language == "zh" else
            "2 e-mail attachments read as documents of their own") in text


def test_the_viewer_shows_an_attachment_read_from_its_message(qtbot, mail_window, monkeypatch):
    window, mail, _ = mail_window
    engine = window.backend.engine
    hit = engine.search("Which gate does the hotel shuttle leave from?", 5, types=["pdf"])[0]
    assert hit.path == attachment_path(str(mail), "2/shuttle.pdf") and hit.page == 2
    location = _open(qtbot, window, hit)
    viewer = window.viewer
    assert (location.kind, location.page, location.file_state, location.carrier) == ("pages", 2, "unchanged", str(mail))
    assert location.found and viewer.page == 1
    qtbot.waitUntil(lambda: viewer.view.page_view.image is not None, timeout=15_000)  # rendered from memory
    assert viewer.view.page_view.highlight and "shuttle.pdf" in viewer.view.windowTitle()

    opened: list[QUrl] = []
    monkeypatch.setattr("desktop_rag.gui.controllers.viewer_controller.QDesktopServices.openUrl",
                        lambda url: opened.append(url) or True)
    viewer.open_in_default_app()
    assert [u.toLocalFile() for u in opened] == [str(mail)]  # the message: no app opens a path inside it

    word = next(h for h in engine.search("新办公室的搬迁日期是哪天？", 5) if h.path.endswith("纪要.docx"))
    location = _open(qtbot, window, word)
    pane = viewer.view.text_pane
    assert location.kind == "text" and location.found and pane.highlighted_text() == word.text
    assert viewer.view.stack.currentWidget() is pane


def test_a_changed_message_offers_to_index_the_attachment_again(qtbot, mail_window):
    window, mail, _ = mail_window
    hit = window.backend.engine.search("hotel shuttle gate", 5, types=["pdf"])[0]
    window.backend.watcher.stop()  # the edit must not be re-indexed behind the test's back
    mail.write_bytes(mail.read_bytes().replace(b"meeting room Kestrel", b"meeting room Osprey"))
    location = _open(qtbot, window, hit)
    view = window.viewer.view
    assert location.file_state == "changed" and location.found  # the attachment itself is as it was
    assert view.reindex_button.isVisible()
    with qtbot.waitSignal(window.viewer.located, timeout=60_000) as blocker:
        view.reindex_button.click()  # re-reads the message, then looks for the passage again
    assert blocker.args[0].file_state == "unchanged" and blocker.args[0].found
    assert os.path.isfile(mail) and window.backend.engine.carrier(hit.path).path == str(mail)
