"""Issue 49 item 6: text recognition of one file is bounded. A PDF of 40 pages sharing one content stream of
control-character glyphs (7 KB; 200 such pages took 3 minutes and 650 MB, 3,000 would take about 46 minutes)
sends at most `ocr_max_pages` pages to OCR and recognises for at most `ocr_max_minutes`; the file's note names the
pages left out and the limit (English and Chinese), the progress counts the pages that will be read, and a cancel
ends the reading at once. Defaults (Settings): 300 pages and 30 minutes a file."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.ingest.loaders import OCR_MAX_PAGES, OCR_MAX_SECONDS, LoadContext, load
from desktop_rag.engine.ingest.parsing import ParseCancelled, SafeParser
from tests.support.pdf_build import shared_broken_pdf

BROKEN = 40  # pages 2-41


@pytest.fixture(scope="module")
def crafted(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("ocr") / "crafted.pdf"
    path.write_bytes(shared_broken_pdf(BROKEN))
    return path


def test_the_defaults_are_the_settings(crafted: Path) -> None:
    assert (Settings().ocr_max_pages, Settings().ocr_max_minutes * 60) == (OCR_MAX_PAGES, OCR_MAX_SECONDS) == (300, 1800)


def test_pages_past_the_page_limit_are_not_recognised_and_named(crafted: Path) -> None:
    progress: list[tuple[int, int]] = []
    doc = load(crafted, max_bytes=0, context=LoadContext(ocr_max_pages=3, page=lambda *p: progress.append(p)))
    assert progress == [(1, 3), (2, 3), (3, 3)]  # the total is what will be read, not 40
    assert [s.page for s in doc.sections] == [1] and "forty two fishing boats" in doc.sections[0].text
    assert [str(note) for note in doc.notes] == [
        "3 page(s) with an unreadable text layer were left out",
        "Page(s) 5-41 were not read by text recognition (OCR): over the limit of 3 pages a file (Settings)"]
    assert doc.notes[1].text("zh") == "第 5-41 页未经文字识别（OCR）读取：超过了每个文件 3 页的上限（见“设置”）"


def test_pages_after_the_time_limit_are_not_recognised_and_named(crafted: Path) -> None:
    started = time.monotonic()
    doc = load(crafted, max_bytes=0, context=LoadContext(ocr_max_seconds=0.6))  # 0.01 minutes
    assert time.monotonic() - started < 60
    # how many pages fit in 0.6 s depends on the machine and its load: at least one is read, then the rest are named
    cut = re.fullmatch(r"Page\(s\) (\d+)-41 were not read by text recognition \(OCR\): the file's text "
                       r"recognition reached its limit of 0\.01 minutes \(Settings\)", str(doc.notes[-1]))
    assert cut is not None and 2 <= int(cut.group(1)) <= 40, doc.notes[-1]
    assert "此文件的文字识别已达到 0.01 分钟的上限" in doc.notes[-1].text("zh")


def test_an_index_run_keeps_the_settings_limit_and_the_note(crafted: Path, tmp_path: Path) -> None:
    """Through the parser child, as indexing reads: the Settings' limit, the note on the indexed file."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "crafted.pdf").write_bytes(crafted.read_bytes())
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64", ocr_max_pages=2))
    pages: list[tuple[int, int]] = []
    try:
        report = engine.index([docs], on_progress=lambda p: pages.append((p.ocr_page, p.ocr_pages)) if p.ocr_pages else None)
        assert report.added == 1 and not report.failed
        assert set(pages) == {(1, 2), (2, 2)}
        assert "Page(s) 4-41 were not read by text recognition (OCR): over the limit of 2 pages a file" in (
            str(report.notes[0].error))
    finally:
        engine.close()


def test_a_cancel_ends_the_recognition_at_once(crafted: Path) -> None:
    cancel = threading.Event()
    seen: list[float] = []

    def on_page(done: int, total: int) -> None:
        seen.append(time.monotonic())
        cancel.set()  # as the window's Stop during "recognising text, page 1 of 300"

    with SafeParser() as parser:
        parser.start()
        with pytest.raises(ParseCancelled):
            parser.parse(crafted, on_page=on_page, cancel=cancel)
        assert seen and time.monotonic() - seen[0] < 2.0
