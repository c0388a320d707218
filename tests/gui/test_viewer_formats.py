"""The viewer opens a passage of a web page, e-book, e-mail, mailbox, OpenDocument or RTF file (issue 37): the
document's extracted text with the passage highlighted, and the window title naming where it is (chapter,
message; in the interface language)."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop_rag.engine.file_types import location_text
from tests.support.doc_files import WRITERS

# format -> a text of the passage to open, the heading it sits under
PASSAGES = {
    "html": ("| Zermatt | 13:45 | 7 |", "Alpine railway guide > Timetable"),
    "epub": ("乌篷船", "江南水乡"),
    "eml": ("meeting room Kestrel", "Quarterly budget review"),
    "mbox": ("杭州西溪宾馆", "年会安排"),
    "odt": ("| Spectrometer | Lab Orion | SN-9912 |", "Laboratory handbook > Equipment register"),
    "rtf": ("每周一闭馆", ""),
}


@pytest.mark.parametrize("language,chunk_size", [("en", 500), ("zh", 1000)])
@pytest.mark.parametrize("suffix", list(WRITERS))
def test_the_viewer_shows_the_passage_of_each_format(qtbot, tmp_path: Path, suffix: str, language: str,
                                                     chunk_size: int):
    """In English at the default chunk size; in Chinese at a larger one (tables are re-read in its row groups)."""
    from PySide6.QtWidgets import QWidget

    from desktop_rag.config import resolve_paths
    from desktop_rag.engine.ingest.chunking import chunk_document
    from desktop_rag.engine.ingest.loaders import LoadContext, load
    from desktop_rag.engine.store.values import Hit
    from desktop_rag.gui import i18n
    from desktop_rag.gui.controllers.viewer_controller import ViewerController
    from desktop_rag.gui.models.sources import SourcesModel
    from desktop_rag.gui.threads.app_settings import AppSettings
    from desktop_rag.gui.threads.backend import Backend
    from tests.gui.conftest import FAST

    path = WRITERS[suffix](tmp_path / f"sample.{suffix}")
    target, heading = PASSAGES[suffix]
    doc = load(path, max_bytes=1 << 26, context=LoadContext(table_chars=chunk_size))
    chunk = next(c for c in chunk_document(doc, chunk_size, 50) if target in c.text)
    assert chunk.heading == heading
    hit = Hit(chunk.ordinal, 1.0, str(path), chunk.page, chunk.heading, chunk.text,
              char_start=chunk.char_start, char_end=chunk.char_end)
    host = QWidget()
    qtbot.addWidget(host)
    paths = resolve_paths(tmp_path / "home")
    backend = Backend(paths, AppSettings(paths, FAST.replace(chunk_size=chunk_size), host), host)
    sources = SourcesModel(host)
    viewer = ViewerController(backend, sources, host)
    sources.set_sources(((1, hit),))
    i18n.set_language(language)
    try:
        with qtbot.waitSignal(viewer.located, timeout=30_000) as blocker:
            viewer.open_number(1)
        location = blocker.args[0]
        assert location.kind == "text" and location.found
        pane = viewer.view.text_pane
        assert viewer.view.stack.currentWidget() is pane
        if chunk.text.startswith("|"):  # a table: drawn as a grid (gui/table_grid.py), the passage's rows lit
            from desktop_rag.engine import markdown_tables

            shown = pane.highlighted_text()
            cells = [c.text for table in markdown_tables(chunk.text) for row, _ in table.rows for c in row]
            assert all(cell in shown for cell in cells) and "| --- |" not in shown
        else:
            assert pane.highlighted_text() == chunk.text  # the passage, exactly, is what is highlighted
        shown_text = pane.document().toPlainText()
        assert target in shown_text if not target.startswith("|") else all(  # a table row: its cells, on the grid
            cell.strip() in shown_text for cell in target.strip("|").split("|"))
        title = viewer.view.windowTitle()
        where = location_text(path, chunk.page, language)
        assert path.name in title and (not where or where in title) and heading in title
        assert (where != "") == (suffix in ("epub", "mbox"))  # the formats whose passages have a unit
    finally:
        backend.shutdown()


def test_the_sources_table_names_a_chapter_or_a_message():
    from desktop_rag.engine.store.values import Hit
    from desktop_rag.gui import i18n
    from desktop_rag.gui.models.sources import _unit

    cases = [("/d/book.epub", 2, "chapter 2", "第 2 章"), ("/d/mail.MBOX", 3, "message 3", "第 3 封邮件"),
             ("/d/page.html", None, "", ""), ("/d/one.eml", None, "", ""), ("/d/deck.ppt", 4, "slide 4", "第 4 张幻灯片")]
    for language in ("en", "zh"):
        i18n.set_language(language)
        assert [_unit(Hit(1, 1.0, path, page, "", "x")) for path, page, _, _ in cases] == \
            [en if language == "en" else zh for _, _, en, zh in cases]
