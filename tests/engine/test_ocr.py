"""Local OCR (issue 11): scanned PDFs, mixed PDFs and image files are indexed and found by `search`;
recognised text keeps its page and is flagged as OCR; progress, cancel and the off switch work.

The fixtures are made here: known English and Chinese text rendered at 300 dpi with Pillow, saved as an
image-only PDF and as a .png. The Chinese ones need a CJK font (fonts-noto-cjk; CI installs it).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.messages import message
from tests.support import scans

pytestmark = pytest.mark.skipif(scans.cjk_font_path() is None, reason=scans.NO_CJK_FONT)

# Recognition is the subject here, not semantics: the deterministic hash embedder keeps the runs short.
HASH = Settings(embedding_model="hash:64")
TEXT_LAYER = "Alpha text layer page about gardening tools and seed trays."


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(home), *args],
                          capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def scanned(tmp_path_factory) -> Path:
    """A folder: scan.pdf (page 1 English, page 2 Chinese, image only), photo.png (Chinese), mixed.pdf."""
    folder = tmp_path_factory.mktemp("scans")
    scans.image_pdf([scans.strip(scans.ENGLISH[0:3], False), scans.strip(scans.CHINESE[1:4], True)],
                    folder / "scan.pdf")
    scans.strip(scans.CHINESE[4:6], True).save(folder / "photo.png")
    scans.mixed_pdf([TEXT_LAYER], scans.strip(scans.ENGLISH[3:6], False), folder / "mixed.pdf")
    return folder


@pytest.fixture(scope="module")
def library(scanned: Path, tmp_path_factory) -> Path:
    """The folder indexed once by the real CLI (the parser child does the OCR)."""
    home = tmp_path_factory.mktemp("ocr-home")
    resolve_paths(home).ensure().settings_file.write_text(json.dumps({"embedding_model": "hash:64"}))
    out = _cli(home, "index", str(scanned), "--json")
    assert out.returncode == 0, out.stdout + out.stderr
    report = json.loads(out.stdout)
    assert report["added"] == 3 and report["failed"] == []
    return home


def _search(home: Path, query: str) -> list[dict]:
    out = _cli(home, "search", query, "-k", "3", "--json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["hits"]


def _found(home: Path, query: str) -> list[tuple[str, int | None, bool]]:
    """(file, page, ocr) of the hits whose text holds the query (the ranking among three files is the hash
    embedder's noise, so the test asks that the passage is found, not that it ranks first)."""
    words = "".join(query.split()).lower()
    return [(Path(h["path"]).name, h["page"], h["ocr"]) for h in _search(home, query)
            if words in "".join(h["text"].split()).lower()]


@pytest.mark.parametrize("query,name,page", [
    (scans.ENGLISH_PHRASE, "scan.pdf", 1),
    (scans.CHINESE_PHRASE, "scan.pdf", 2),
    ("罗勒", "photo.png", None),
    ("quarterly budget review", "mixed.pdf", 2),
])
def test_scanned_text_is_found_by_search_with_its_page_and_ocr_flag(library: Path, query, name, page) -> None:
    assert _found(library, query) == [(name, page, True)]


def test_mixed_pdf_reads_the_text_layer_where_it_exists(library: Path) -> None:
    assert _found(library, "gardening tools and seed trays") == [("mixed.pdf", 1, False)]


def test_recognition_is_accurate_on_clean_300_dpi_scans(library: Path) -> None:
    engine = Engine(resolve_paths(library), HASH)
    try:
        rows = engine.store.db.execute(
            "SELECT c.page, c.text FROM chunks c JOIN files f ON f.id = c.file_id "
            "WHERE f.path LIKE '%scan.pdf' ORDER BY c.ordinal").fetchall()
    finally:
        engine.close()
    by_page: dict[int, str] = {}
    for page, text in rows:
        by_page[page] = by_page.get(page, "") + text
    english, chinese = scans.cer(scans.page_text(scans.ENGLISH[0:3]), by_page[1]), scans.cer(
        scans.page_text(scans.CHINESE[1:4]), by_page[2])
    print(f"CER English {english:.3%}, Chinese {chinese:.3%}")
    assert english <= 0.05 and chinese <= 0.05


def test_ocr_switched_off_gives_clear_reasons(scanned: Path, tmp_path: Path) -> None:
    engine = Engine(resolve_paths(tmp_path / "home"), HASH.replace(ocr_enabled=False))
    try:
        report = engine.index([scanned])
    finally:
        engine.close()
    reasons = {Path(f.path).name: str(f.error) for f in report.failed}
    assert reasons == {"scan.pdf": message("error.pdf_no_text_ocr_off"), "photo.png": message("error.image_ocr_off")}
    assert report.added == 1  # mixed.pdf: its text page is still read


def test_progress_reaches_the_caller_and_cancel_stops_recognition(tmp_path: Path) -> None:
    pages = [scans.strip(scans.ENGLISH[i:i + 1], False) for i in range(4)]
    long_scan = scans.image_pdf(pages, (tmp_path / "docs").mkdir() or tmp_path / "docs" / "long scan.pdf")
    engine = Engine(resolve_paths(tmp_path / "home"), HASH)
    cancel = threading.Event()
    seen: list[tuple[int, int, str]] = []
    cancelled_at: list[float] = []

    def on_progress(p) -> None:
        if p.ocr_pages:
            seen.append((p.ocr_page, p.ocr_pages, p.current_file))
            if p.ocr_page == 2 and not cancel.is_set():
                cancelled_at.append(time.monotonic())
                cancel.set()

    try:
        parser = engine.runtime.parser()
        report = engine.index([long_scan], cancel=cancel, on_progress=on_progress)
        stopped = time.monotonic()
        assert seen[:2] == [(1, 4, str(long_scan)), (2, 4, str(long_scan))]
        assert report.cancelled and report.failed == () and report.added == 0
        assert stopped - cancelled_at[0] < 3.0, "cancel must not wait for the page being recognised"
        assert engine.store.file_by_path(str(long_scan)) is None  # nothing recorded: read again next run
        assert parser.restarts == 1  # the busy child was killed
    finally:
        engine.close()
