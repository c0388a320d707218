"""A scanned PDF page keeps the boxes OCR read on it (`ocr_lines`, schema 5): each box's characters as a chunk's
offsets and its rectangle on the page in display points, written with the file's chunks and dropped with them. A
cited passage of a scanned page is highlighted on the lines that hold it: the rectangles `locate` gives lie over the
passage's words (the page drawn by PDFium, each rectangle's pixels read again by OCR, give back its line's text).

The fixtures are made here (tests/support/scans.py): known English and Chinese text rendered at 300 dpi, saved as
image-only PDFs; the Chinese ones need a CJK font (fonts-noto-cjk; CI installs it).
"""

from __future__ import annotations

import contextlib
import math
import sqlite3
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.archive.archive_file import ArchiveError
from desktop_rag.engine.document.locate import RECOGNISED, IndexedFile, locate
from desktop_rag.engine.document.pdf_child import PdfPages
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.ingest.loaders import LoadContext, ocr
from desktop_rag.engine.ingest.cleaning import clean_pages
from desktop_rag.engine.ingest.loaders.ocr_boxes import MAX_LINES, page_lines
from desktop_rag.engine.ingest.loaders.pdf import load_pdf
from desktop_rag.engine.store.sqlite.schema import SCHEMA_VERSION
from tests.support import scans
from tests.support.archives import forge

pytestmark = pytest.mark.skipif(scans.cjk_font_path() is None, reason=scans.NO_CJK_FONT)

# small chunks: a page's text is cut into several passages, so a passage's lines are some of its page's
SETTINGS = Settings(embedding_model="hash:64", chunk_size=60, chunk_overlap=5)
TEXT_LAYER = "Alpha text layer page about gardening tools and seed trays."


@pytest.fixture(scope="module")
def scanned(tmp_path_factory) -> Path:
    """scan.pdf (page 1 English, page 2 Chinese, image only) and mixed.pdf (a text page, then a scanned one)."""
    folder = tmp_path_factory.mktemp("scans")
    scans.image_pdf([scans.strip(scans.ENGLISH[0:3], False), scans.strip(scans.CHINESE[1:4], True)],
                    folder / "scan.pdf")
    scans.mixed_pdf([TEXT_LAYER], scans.strip(scans.ENGLISH[3:5], False), folder / "mixed.pdf")
    return folder


@pytest.fixture(scope="module")
def library(scanned: Path, tmp_path_factory):
    engine = Engine(resolve_paths(tmp_path_factory.mktemp("home")), SETTINGS)
    report = engine.index([scanned])
    assert report.added == 2 and not report.failed
    yield engine
    engine.close()


def _lines(engine: Engine, name: str) -> list[tuple]:
    """(page, start, end, x0, y0, x1, y1) of a file's stored lines, in order."""
    return engine.store.db.execute(
        "SELECT l.page, l.char_start, l.char_end, l.x0, l.y0, l.x1, l.y1 FROM ocr_lines l JOIN files f "
        "ON f.id = l.file_id WHERE f.path LIKE ? ORDER BY l.page, l.char_start", (f"%{name}",)).fetchall()


def _document_text(engine: Engine, name: str) -> str:
    """The document text chunk offsets index, rebuilt from the stored chunks (their overlaps agree)."""
    text: list[str] = []
    for start, end, chunk in engine.store.db.execute(
            "SELECT c.char_start, c.char_end, c.text FROM chunks c JOIN files f ON f.id = c.file_id "
            "WHERE f.path LIKE ? ORDER BY c.ordinal", (f"%{name}",)):
        text[len(text):] = [" "] * max(0, end - len(text))
        text[start:end] = list(chunk)
    return "".join(text)


def test_an_ocr_page_keeps_its_lines_and_a_text_page_none(library: Engine) -> None:
    scan, mixed = _lines(library, "scan.pdf"), _lines(library, "mixed.pdf")
    text = _document_text(library, "scan.pdf")
    assert {row[0] for row in scan} == {1, 2} and {row[0] for row in mixed} == {2}  # page 1 of mixed: a text layer
    english = [text[start:end] for page, start, end, *_ in scan if page == 1]
    chinese = [text[start:end] for page, start, end, *_ in scan if page == 2]
    assert scans.cer(" ".join(scans.ENGLISH[0:3]), " ".join(english)) < 0.05  # every line, in order
    assert scans.cer("".join(scans.CHINESE[1:4]), "".join(chinese)) < 0.05
    for page, start, end, x0, y0, x1, y1 in scan:
        # within an A4 page's width at 300 dpi's strip (595 x 240 points), text from the margin (57.6 pt) on
        assert 57.6 - 2 <= x0 < x1 <= 595.3 and 0 <= y0 < y1 <= 240.0


def _rendered(pages: PdfPages, path: str, page: int, scale: float):
    from PIL import Image

    pdf = pages.open(path)
    try:
        image = pdf.render(page - 1, scale)
    finally:
        pdf.close()
    return Image.frombuffer("RGBX", (image.width, image.height), image.data, "raw", "BGRX", image.stride, 1)


@pytest.mark.parametrize("query", [scans.ENGLISH_PHRASE, "灯塔看守人在凌晨四点"])
def test_a_cited_passage_on_a_scanned_page_is_highlighted_over_its_words(library: Engine, query: str) -> None:
    chunk_id = next(row[0] for row in library.store.db.execute("SELECT id, text FROM chunks ORDER BY id")
                    if "".join(query.split()) in "".join(row[1].split()))
    hit = library.store.hits_for([(chunk_id, 1.0)])[0]  # one passage (a search merges a page's neighbours)
    assert hit.ocr and Path(hit.path).name == "scan.pdf"
    record, _ = library.indexed_file(hit.path)
    lines = library.recognised_lines(hit)
    with contextlib.closing(PdfPages()) as pages:
        location = locate(hit, IndexedFile(record.size, record.mtime_ns, record.sha256), pages=pages, lines=lines)
        assert location.match == RECOGNISED and location.page == hit.page and location.found
        scale = 300 / 72
        page = _rendered(pages, hit.path, hit.page, scale)
    text = _document_text(library, "scan.pdf")
    every = [row for row in _lines(library, "scan.pdf") if row[0] == hit.page]
    marked = [row for row in every if row[1] < hit.char_end and row[2] > hit.char_start]
    assert 0 < len(marked) < len(every)  # the passage's lines, not the whole page's
    assert location.rects == tuple(tuple(row[3:]) for row in marked)
    assert "".join(query.split()) in "".join("".join(text[row[1]:row[2]] for row in marked).split())
    for rect, row in zip(location.rects, marked):  # the ink under each rectangle reads as its line
        assert scans.cer(text[row[1]:row[2]], _read_back(page, rect, scale)) < 0.1


def _read_back(page, rect: tuple, scale: float, angle: int = 0) -> str:
    """What OCR reads in `rect` (display points) of the drawn `page`, the crop turned upright by `angle`."""
    x0, y0, x1, y1 = rect
    crop = page.crop((round(x0 * scale) - 4, round(y0 * scale) - 4, round(x1 * scale) + 4, round(y1 * scale) + 4))
    return ocr.recognise(crop.rotate(-angle, expand=True) if angle else crop)


@pytest.mark.parametrize("angle", [180, 90])
def test_a_turned_scans_lines_lie_over_its_words(tmp_path: Path, angle: int) -> None:
    """A page scanned upside down or sideways is read turned (ocr._oriented); its boxes are placed on the page as it
    is drawn, not as it was read."""
    path = scans.image_pdf([scans.strip(scans.ENGLISH[1:3], False).rotate(angle, expand=True)], tmp_path / "t.pdf")
    (section,) = load_pdf(path, LoadContext()).sections
    assert len(section.lines) >= 3
    with contextlib.closing(PdfPages()) as pages:
        page = _rendered(pages, str(path), 1, 2.0)
    for line in section.lines:
        assert scans.cer(section.text[line.start:line.end], _read_back(page, line.rect, 2.0, angle)) < 0.1


def test_a_rotated_pages_lines_lie_over_its_words_as_displayed(tmp_path: Path) -> None:
    """A page whose dictionary turns it (/Rotate 90: shown turned clockwise) holds an upright scan: the boxes, read on
    the image, are placed through its matrix and the page's turn where the viewer draws them."""
    from pypdf import PdfReader, PdfWriter

    scan = scans.image_pdf([scans.strip(scans.ENGLISH[1:3], False)], tmp_path / "scan.pdf")
    writer = PdfWriter(clone_from=PdfReader(scan))
    writer.pages[0].rotate(90)
    path = tmp_path / "rotated.pdf"
    writer.write(path)
    (section,) = load_pdf(path, LoadContext()).sections
    assert len(section.lines) >= 3
    with contextlib.closing(PdfPages()) as pages:
        page = _rendered(pages, str(path), 1, 2.0)
    assert page.height > page.width  # the strip, wide as scanned, stands on end as displayed
    for line in section.lines:
        assert scans.cer(section.text[line.start:line.end], _read_back(page, line.rect, 2.0, -90)) < 0.1


def test_a_hostile_pages_boxes_are_bounded() -> None:
    """Boxes not finite or off the page are left out, at most MAX_LINES a page are kept; a box whose text the page's
    cleaning dropped (a page number) has no span, and the boxes after it keep theirs."""
    size = (595.0, 842.0)
    pieces = [("12", (10.0, 10.0, 20.0, 20.0)), ("first line", (50.0, 50.0, 300.0, 60.0)),
              ("off the page", (50.0, 900.0, 300.0, 910.0)), ("not a number", (math.nan, 70.0, 300.0, 80.0)),
              ("endless", (50.0, 90.0, math.inf, 100.0)), ("unplaced", None), ("last-", (50.0, 110.0, 300.0, 120.0)),
              ("word", (50.0, 130.0, 300.0, 140.0))]
    text = clean_pages(["\n".join(piece for piece, _ in pieces)])[0]
    assert text.startswith("first line")  # the page number dropped, "last-" + "word" joined
    lines = page_lines(pieces, text, 3, size)
    assert [(text[line.start:line.end], line.page) for line in lines] == [("first line", 3), ("last", 3), ("word", 3)]
    many = [(f"line{i}", (50.0, 10.0, 300.0, 12.0)) for i in range(MAX_LINES + 50)]
    assert len(page_lines(many, "\n".join(piece for piece, _ in many), 1, size)) == MAX_LINES


def test_a_books_lines_are_written_a_batch_a_statement(tmp_path: Path) -> None:
    """A scanned book's thousands of lines go BATCH a statement (on a server each is a round trip: 5,000 lines took
    452 ms one at a time, 71 ms in batches, over a local socket), stored whole and in order."""
    from desktop_rag.engine.store import ocr_lines
    from desktop_rag.engine.store.values import OcrLine

    engine = Engine(resolve_paths(tmp_path / "home"), SETTINGS)
    try:
        (tmp_path / "docs").mkdir()
        (tmp_path / "docs" / "book.txt").write_text("A book's text.", "utf-8")
        engine.index([tmp_path / "docs"])
        file_id = engine.files()[0].id
        lines = [OcrLine(1 + i // 40, i * 10, i * 10 + 9, 72.0, 10.0 + i % 40, 500.0, 19.0 + i % 40)
                 for i in range(2 * ocr_lines.BATCH + 1)]
        statements: list[str] = []
        engine.store.db.set_trace_callback(statements.append)
        with engine.store.transaction():
            ocr_lines.write(engine.store, file_id, lines)
        engine.store.db.set_trace_callback(None)
        assert len([s for s in statements if s.startswith("INSERT INTO ocr_lines")]) == 3
        assert _lines(engine, "book.txt") == [(line.page, line.start, line.end, *line.rect) for line in lines]
    finally:
        engine.close()


def _line_rows(engine: Engine, name: str) -> list[tuple]:
    return [row[:3] + tuple(round(v, 6) for v in row[3:]) for row in _lines(engine, name)]


def test_an_archive_carries_the_lines_and_a_malformed_one_is_refused(library: Engine, tmp_path: Path) -> None:
    archive = tmp_path / "scans.zip"
    library.export_collection(library.collections()[0].id, archive, with_documents=True)
    target = Engine(resolve_paths(tmp_path / "target"), SETTINGS)
    try:
        target.import_archive(archive, documents_dir=tmp_path / "imported")
        assert _line_rows(target, "scan.pdf") == _line_rows(library, "scan.pdf") != []
        assert _line_rows(target, "mixed.pdf") == _line_rows(library, "mixed.pdf") != []
        hit = next(h for h in target.search(scans.ENGLISH_PHRASE, k=5) if h.path.endswith("scan.pdf"))
        assert str(tmp_path / "imported") in hit.path and target.recognised_lines(hit)

        bad = tmp_path / "bad.zip"
        forge(archive, bad, rows=lambda rows: next(f for f in rows["files"] if f.get("ocr_lines"))
              ["ocr_lines"][0].__setitem__(5, 1e9))  # a rectangle past the largest page
        with pytest.raises(ArchiveError, match="recognised lines are malformed"):
            target.import_archive(bad, name="Scans again", documents_dir=tmp_path / "bad-docs")
    finally:
        target.close()


def test_lines_go_with_the_files_chunks(library: Engine, scanned: Path, tmp_path: Path) -> None:
    engine = Engine(resolve_paths(tmp_path / "home"), SETTINGS)
    try:
        folder = tmp_path / "docs"
        folder.mkdir()
        scan = scans.image_pdf([scans.strip(scans.ENGLISH[0:2], False)], folder / "scan.pdf")
        engine.index([folder])
        before = _lines(engine, "scan.pdf")
        assert before
        scans.image_pdf([scans.strip(scans.ENGLISH[4:5], False)], scan)  # read again: the new page's lines only
        engine.index([folder])
        after = _lines(engine, "scan.pdf")
        assert after and after != before and len(after) < len(before)
        assert scans.cer(scans.ENGLISH[4], " ".join(_document_text(engine, "scan.pdf")[r[1]:r[2]] for r in after)) \
            < 0.05
        scan.write_bytes(b"%PDF-1.4 damaged")  # a failure drops the chunks, and the lines with them
        engine.index([folder])
        assert engine.files()[0].status == "failed" and _lines(engine, "scan.pdf") == []
        scans.image_pdf([scans.strip(scans.ENGLISH[0:1], False)], scan)
        engine.index([folder])
        assert _lines(engine, "scan.pdf")
        engine.store.clear_index()  # other chunking settings: every chunk goes, and every line
        assert _lines(engine, "scan.pdf") == []
        engine.index([folder])
        assert _lines(engine, "scan.pdf")
        engine.remove_source(str(folder))  # removed: no line left
        assert engine.store.db.execute("SELECT count(*) FROM ocr_lines").fetchone()[0] == 0
    finally:
        engine.close()


def test_a_schema_4_library_opens_and_its_scans_get_lines_once_read_again(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    scan = scans.image_pdf([scans.strip(scans.ENGLISH[1:2], False)], folder / "scan.pdf")
    engine = Engine(resolve_paths(tmp_path / "home"), SETTINGS)
    engine.index([folder])
    database = engine.store.path
    engine.close()
    db = sqlite3.connect(database)  # as schema 4 made it: no ocr_lines table
    db.execute("DROP TABLE ocr_lines")
    db.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
    db.commit()
    db.close()
    engine = Engine(resolve_paths(tmp_path / "home"), SETTINGS)
    try:
        assert engine.store.get_meta("schema_version") == str(SCHEMA_VERSION) == "7"
        assert _lines(engine, "scan.pdf") == []  # nothing recognised again by the upgrade
        hit = engine.search(scans.ENGLISH_PHRASE, k=1)[0]
        assert hit.ocr and engine.recognised_lines(hit) == ()  # shown unhighlighted, as before
        engine.index([folder], force=[scan])
        hit = engine.search(scans.ENGLISH_PHRASE, k=1)[0]
        assert engine.recognised_lines(hit) and _lines(engine, "scan.pdf")
    finally:
        engine.close()
    assert scan.exists()


def test_a_read_again_landing_during_the_lines_read_gives_no_lines(tmp_path: Path, monkeypatch) -> None:
    """The viewer's thread reads a passage's lines while the index worker may read its file again: a re-read
    committed between the check that the passage is held and the read of the lines would give the new page's lines
    at the old passage's offsets; the lines are read first, so the passage then no longer held gives none."""
    from desktop_rag.engine.store import ocr_lines

    folder = tmp_path / "docs"
    folder.mkdir()
    scan = scans.image_pdf([scans.strip(scans.ENGLISH[0:2], False)], folder / "scan.pdf")
    engine = Engine(resolve_paths(tmp_path / "home"), SETTINGS)
    try:
        engine.index([folder])
        hit = engine.search(scans.ENGLISH_PHRASE, k=1)[0]
        assert hit.ocr and engine.recognised_lines(hit)
        real = ocr_lines.lines_of

        def read_again_first(*args):  # the re-read commits as the lines are read
            scans.image_pdf([scans.strip(scans.ENGLISH[3:5], False)], scan)
            engine.index([folder])
            return real(*args)

        monkeypatch.setattr(ocr_lines, "lines_of", read_again_first)
        assert engine.recognised_lines(hit) == ()
    finally:
        engine.close()
