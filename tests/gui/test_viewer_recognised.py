"""A cited picture (its text recognised by OCR when it was indexed) opens in the viewer from the text the library
stored, not by recognising the picture again in the app's own process: a 300-page TIFF took as long to open as to
index (minutes, a gigabyte and more, outside the parser child's memory cap, with OCR switched off too), and every
other passage opened meanwhile waited behind it. A picture changed since then says so and offers to re-index it.
English and Chinese."""

from __future__ import annotations

import pytest

from desktop_rag.engine.document.locate import CHANGED, UNCHANGED
from desktop_rag.engine.ingest.loaders import ocr
from desktop_rag.gui import i18n
from tests.gui.conftest import add_and_wait
from tests.support import scans


@pytest.fixture
def recognitions(monkeypatch) -> list[int]:
    """Counts the pictures recognised in this process (each is still recognised: a spy, not a stand-in)."""
    calls: list[int] = []
    real = ocr.recognise

    def counted(image) -> str:
        calls.append(1)
        return real(image)

    monkeypatch.setattr(ocr, "recognise", counted)
    return calls


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_picture_opens_from_its_recognised_text_without_recognising_it_again(
        make_window, qtbot, tmp_path, recognitions, language):
    i18n.set_language(language)
    docs = tmp_path / "docs"
    docs.mkdir()
    scan = docs / "letters.tif"
    scans.strip(scans.ENGLISH[:2], False).save(scan, save_all=True,
                                                append_images=[scans.strip(scans.CHINESE[:2], True)])
    window = make_window()
    report = add_and_wait(qtbot, window, [str(docs)])
    assert report.added == 1 and not report.failed
    hit = next(h for h in window.backend.engine.search("请在购买后三十天内寄回保修卡", k=3) if h.page == 2)
    assert hit.ocr

    with qtbot.waitSignal(window.viewer.located, timeout=30_000) as blocker:
        window.viewer.open_passages(((1, hit),), 0)
    location, view = blocker.args[0], window.viewer.view
    assert recognitions == []  # nothing recognised again to show it
    assert location.from_library and location.file_state == UNCHANGED and location.found
    assert view.text_pane.highlighted_text() == hit.text
    assert view.banner_label.text() == i18n.tr("viewer.recognised") and not view.reindex_button.isVisibleTo(view)
    assert view.open_button.isEnabled()  # the picture itself: in the default app

    scans.strip(scans.ENGLISH[2:4], False).save(scan)  # another picture under its name
    with qtbot.waitSignal(window.viewer.located, timeout=30_000) as blocker:
        window.viewer.open_passages(((1, hit),), 0)
    location = blocker.args[0]
    assert recognitions == []
    assert location.file_state == CHANGED and location.found  # the text the answer was based on
    assert view.banner_label.text() == i18n.tr("viewer.recognised_changed")
    assert view.reindex_button.isVisibleTo(view)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_passage_of_a_scanned_pdf_page_is_highlighted_on_its_recognised_lines(make_window, qtbot, tmp_path,
                                                                                 language):
    """A scanned page has no text layer: the viewer draws the cited page with the passage highlighted on the lines
    OCR read there when it was indexed (the library's `ocr_lines`), and says so. A library made before those were
    kept (schema 4) has none: the page is drawn with the passage beside it, the banner saying the page is a scan.
    The banner speaks of the passage's page: on another page of the document it says nothing, or, with the passage
    beside, that it is the one cited on its page."""
    i18n.set_language(language)
    docs = tmp_path / "docs"
    docs.mkdir()
    scans.image_pdf([scans.strip(scans.ENGLISH[:2], False), scans.strip(scans.CHINESE[:2], True)],
                    docs / "scan.pdf")
    window = make_window()
    assert not add_and_wait(qtbot, window, [str(docs)]).failed
    engine = window.backend.engine
    hit = next(h for h in engine.search("请在购买后三十天内寄回保修卡", k=3) if h.page == 2)

    with qtbot.waitSignal(window.viewer.page_shown, timeout=30_000):
        window.viewer.open_passages(((1, hit),), 0)
    view = window.viewer.view
    assert window.viewer.location.page == 2 and window.viewer.page == 1  # the cited page is drawn
    lines = engine.recognised_lines(hit)
    assert lines and window.viewer.highlight_on(1) == tuple(line.rect for line in lines)
    assert window.viewer.highlight_on(0) == ()
    assert view.banner_label.text() == i18n.tr("viewer.recognised_lines")
    assert not view.side_text.isVisibleTo(view)
    with qtbot.waitSignal(window.viewer.page_shown, timeout=30_000):
        view.prev_page_button.click()  # page 1: nothing of the passage is highlighted there, the banner says nothing
    assert window.viewer.page == 0 and view.banner_label.text() == "" and not view.banner.isVisibleTo(view)
    with qtbot.waitSignal(window.viewer.page_shown, timeout=30_000):
        view.next_page_button.click()  # the passage's page again
    assert view.banner_label.text() == i18n.tr("viewer.recognised_lines") and view.banner.isVisibleTo(view)

    with engine.store.transaction() as db:  # as a library made before the lines were kept
        db.execute("DELETE FROM ocr_lines")
    with qtbot.waitSignal(window.viewer.page_shown, timeout=30_000):
        window.viewer.open_passages(((1, hit),), 0)
    assert window.viewer.location.page == 2 and window.viewer.highlight_on(1) == ()
    assert view.banner_label.text() == i18n.tr("viewer.unmatched_scan")
    assert hit.text in view.side_text.toPlainText()
    i18n.set_language("zh" if language == "en" else "en")  # the banner follows the language, on its page
    assert view.banner_label.text() == i18n.tr("viewer.unmatched_scan")
    with qtbot.waitSignal(window.viewer.page_shown, timeout=30_000):
        view.prev_page_button.click()  # "this page" is the passage's page, not this one; the passage stays beside
    assert view.banner_label.text() == i18n.tr("viewer.beside_elsewhere", page=2) and view.banner.isVisibleTo(view)
    assert view.side.isVisibleTo(view) and hit.text in view.side_text.toPlainText()
    i18n.set_language(language)
    assert view.banner_label.text() == i18n.tr("viewer.beside_elsewhere", page=2)
    with qtbot.waitSignal(window.viewer.page_shown, timeout=30_000):
        view.next_page_button.click()  # its page again
    assert view.banner_label.text() == i18n.tr("viewer.unmatched_scan")
