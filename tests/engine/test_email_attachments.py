"""E-mail attachments as documents of their own (issue 37): a file row below the message's path, kept with the
message through re-reads (an unchanged attachment keeps its vectors), renames, failures and deletes; found by a
type filter, re-read by the viewer from the message, exported and imported with its message."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from desktop_rag.engine.archive.archive_file import ArchiveError
from desktop_rag.engine.document.locate import CHANGED, EXACT, UNCHANGED, Carrier, IndexedFile, locate
from desktop_rag.engine.paths import attachment_path
from desktop_rag.engine.store.sqlite.schema import SCHEMA_VERSION
from tests.support.archives import forge
from tests.support.index_runs import consistent, make_engine
from tests.support.mail_attachments import harbour_message

@pytest.fixture
def mail(tmp_path: Path):
    docs = tmp_path / "docs"
    docs.mkdir()
    path = docs / "harbour.eml"
    path.write_bytes(bytes(harbour_message()))
    engine = make_engine(tmp_path / "home")
    report = engine.index([docs])
    yield engine, path, report
    engine.close()


def _rows(engine) -> dict[str, tuple]:
    return {os.path.relpath(f.path, engine.sources()[0].path): (f.status, f.parent_id is not None, f.chunk_count)
            for f in engine.files()}


def _chunk_ids(engine, path: str) -> list[int]:
    return [r[0] for r in engine.store.db.execute(
        "SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.path = ? ORDER BY c.id", (path,))]


def test_each_attachment_is_a_file_row_below_itsharbour_message(mail):
    engine, path, report = mail
    assert (report.added, report.attachments, report.failed) == (1, 2, ())
    rows = _rows(engine)
    assert rows == {"harbour.eml": ("indexed", False, 1),
                    os.path.join("harbour.eml", "1", "备忘.txt"): ("indexed", True, 1),
                    os.path.join("harbour.eml", "2", "guide.pdf"): ("indexed", True, 3)}
    pdf = attachment_path(str(path), "2/guide.pdf")
    assert engine.carrier(pdf).path == str(path) and engine.carrier(str(path)) is None
    pages = engine.store.db.execute("SELECT page FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.path = ? "
                                    "ORDER BY c.ordinal", (pdf,)).fetchall()
    assert [p for (p,) in pages] == [1, 2, 3]  # cited by the PDF's own pages
    status = engine.status()
    assert (status.files_total, status.files_attachments, status.files_indexed) == (3, 2, 3)
    consistent(engine)


def test_search_finds_an_attachment_by_its_type_and_folder(mail):
    engine, path, _ = mail
    hits = engine.search("lighthouse keeper weather", 5, types=["pdf"])
    assert hits and hits[0].path == attachment_path(str(path), "2/guide.pdf") and hits[0].page == 2
    hits = engine.search("钥匙 抽屉", 5, types=["txt"], folders=[str(path.parent)])
    assert hits[0].path == attachment_path(str(path), "1/备忘.txt")
    assert {h.path for h in engine.search("lighthouse", 5, types=["txt"])} == {attachment_path(str(path), "1/备忘.txt")}


def test_a_rescan_leaves_attachments_alone(mail):
    engine, path, _ = mail
    before = _rows(engine)
    report = engine.index()
    assert (report.added, report.updated, report.removed, report.unchanged, report.embedded) == (0, 0, 0, 1, 0)
    assert _rows(engine) == before


def test_an_edited_message_keeps_the_vectors_of_unchanged_attachments(mail):
    engine, path, _ = mail
    pdf, note = attachment_path(str(path), "2/guide.pdf"), attachment_path(str(path), "1/备忘.txt")
    pdf_ids, note_ids = _chunk_ids(engine, pdf), _chunk_ids(engine, note)
    path.write_bytes(bytes(harbour_message(body="Updated: the files are attached.", notes="钥匙改放在保安室。")))
    report = engine.index()
    assert (report.updated, report.attachments) == (1, 2)
    assert _chunk_ids(engine, pdf) == pdf_ids  # the same bytes: the same chunks, not embedded again
    assert _chunk_ids(engine, note) != note_ids
    assert report.embedded == 2  # the message's chunk and the changed note's
    assert note in [h.path for h in engine.search("保安室", 3)]
    consistent(engine)


def test_an_attachment_taken_out_of_the_message_leaves_the_library(mail):
    engine, path, _ = mail
    path.write_bytes(bytes(harbour_message(with_pdf=False)))
    engine.index()
    assert set(_rows(engine)) == {"harbour.eml", os.path.join("harbour.eml", "1", "备忘.txt")}
    assert all(h.path != attachment_path(str(path), "2/guide.pdf") for h in engine.search("lighthouse keeper", 10))
    consistent(engine)


def test_a_renamed_message_takes_its_attachments_along_without_embedding(mail):
    engine, path, _ = mail
    moved = path.with_name("renamed.eml")
    path.rename(moved)
    report = engine.index()
    assert (report.removed, report.embedded) == (0, 0)
    assert set(_rows(engine)) == {"renamed.eml", os.path.join("renamed.eml", "1", "备忘.txt"),
                                  os.path.join("renamed.eml", "2", "guide.pdf")}
    assert engine.carrier(attachment_path(str(moved), "2/guide.pdf")).path == str(moved)
    consistent(engine)


@pytest.mark.parametrize("how", ["deleted", "broken"])
def test_a_deleted_or_unreadable_message_takes_its_attachments_along(mail, how):
    engine, path, _ = mail
    if how == "deleted":
        path.unlink()
    else:
        path.write_bytes(b"\n")  # an empty message: it fails, and what it carried goes
    report = engine.index()
    assert engine.store.count_attachments() == 0
    assert (report.removed, len(report.failed)) == ((1, 0) if how == "deleted" else (0, 1))
    consistent(engine)


def test_reindexing_an_attachment_reads_its_message_again(mail):
    engine, path, _ = mail
    events = []
    engine.index(force=[attachment_path(str(path), "1/备忘.txt")], on_file=events.append)
    assert [e.state for e in events if e.path == str(path)][-1] == "indexed"
    carried = [e for e in events if e.carrier == str(path)]
    assert {os.path.basename(e.path) for e in carried} == {"备忘.txt", "guide.pdf"}


def _hit(engine, path: str):
    return engine.store.hits_for([(_chunk_ids(engine, path)[-1], 1.0)])[0]


def _carrier(engine, path: str) -> Carrier:
    record = engine.carrier(path)
    return Carrier(record.path, IndexedFile(record.size, record.mtime_ns, record.sha256))


def test_the_viewer_reads_an_attachment_from_itsharbour_message(mail):
    engine, path, _ = mail
    note = attachment_path(str(path), "1/备忘.txt")
    hit = _hit(engine, note)
    location = locate(hit, None, max_bytes=1 << 26, carrier=_carrier(engine, note))
    assert (location.kind, location.match, location.file_state) == ("text", EXACT, UNCHANGED)
    assert location.text[location.start:location.end] == hit.text and location.carrier == str(path)
    pdf = attachment_path(str(path), "2/guide.pdf")
    hit = _hit(engine, pdf)
    location = locate(hit, None, carrier=_carrier(engine, pdf))
    assert (location.kind, location.page, location.page_count, location.file_state) == ("pages", 3, 3, UNCHANGED)
    assert location.found and location.rects
    carrier = _carrier(engine, pdf)
    path.write_bytes(bytes(harbour_message(with_pdf=False)))  # changed since indexing, the attachment gone
    location = locate(hit, None, carrier=carrier)
    assert location.file_state == CHANGED and "no longer holds the attachment guide.pdf" in str(location.error)


def test_export_and_import_keep_attachments_with_theirharbour_message(mail, tmp_path):
    engine, path, _ = mail
    archive = tmp_path / "harbour.zip"
    report = engine.export_collection(1, archive, with_documents=True)
    assert (report.files, report.documents, report.missing_documents) == (3, 1, ())  # the message carries them
    other = make_engine(tmp_path / "other")
    imported = other.import_archive(archive, name="Imported", documents_dir=tmp_path / "extracted")
    assert (imported.files, imported.documents) == (3, 1)
    message = other.store.file_by_path(str(tmp_path / "extracted" / "docs" / "harbour.eml"))
    children = [f for f in other.files() if f.parent_id == message.id]
    assert sorted(os.path.relpath(f.path, message.path) for f in children) == [
        os.path.join("1", "备忘.txt"), os.path.join("2", "guide.pdf")]
    pdf = attachment_path(message.path, "2/guide.pdf")
    location = locate(_hit(other, pdf), None, carrier=_carrier(other, pdf))  # read from the extracted message
    assert location.found and location.file_state == UNCHANGED
    report = other.index()  # the extracted message is unchanged: nothing is read or embedded again
    assert (report.unchanged, report.removed, report.embedded) == (1, 0, 0)
    other.close()


@pytest.mark.parametrize("change,reason", [
    (lambda c: c["files"][1].update(path="/elsewhere/x.txt"), "outside its message"),
    (lambda c: c["files"][1].update(parent_id=999), "belongs to no message"),
    (lambda c: c["files"][2].update(parent_id=c["files"][1]["id"]), "belongs to no message"),  # two levels deep
])
def test_an_archive_with_a_misplaced_attachment_is_refused(mail, tmp_path, change, reason):
    engine, _, _ = mail
    archive, crafted = tmp_path / "a.zip", tmp_path / "crafted.zip"
    engine.export_collection(1, archive)
    forge(archive, crafted, rows=change)
    with pytest.raises(ArchiveError, match=reason):
        engine.read_archive(crafted)


def test_a_library_from_before_attachments_is_upgraded_in_place(tmp_path):
    """Schema 2 (no files.parent_id): the column is added, every file stays a file of its own."""
    engine = make_engine(tmp_path / "home")
    database = engine.store.path  # opened: the schema is written
    engine.close()
    db = sqlite3.connect(database)
    db.execute("PRAGMA foreign_keys=OFF")
    db.executescript("DROP INDEX files_parent; ALTER TABLE files DROP COLUMN parent_id; "
                     "UPDATE meta SET value = '2' WHERE key = 'schema_version'; "
                     "INSERT INTO sources (path, kind, added_at) VALUES ('/old/docs', 'folder', 0); "
                     "INSERT INTO files (source_id, path, status) VALUES (1, '/old/docs/a.txt', 'indexed');")
    db.commit()
    db.close()
    engine = make_engine(tmp_path / "home")
    assert engine.store.get_meta("schema_version") == str(SCHEMA_VERSION)
    assert [(f.path, f.parent_id) for f in engine.files()] == [("/old/docs/a.txt", None)]
    engine.close()


def test_an_attachment_can_be_asked_and_summarised_on_its_own(mail):
    """File scope and one-document summaries take an attachment's path like any file's."""
    from desktop_rag.engine.answer.events import DoneEvent, SourcesEvent

    engine, path, _ = mail
    pdf = attachment_path(str(path), "2/guide.pdf")
    assert {h.path for h in engine.search("the weather", 10, files=[pdf])} == {pdf}
    events = list(engine.summarise(pdf))
    sources = next(e for e in events if isinstance(e, SourcesEvent)).hits
    assert isinstance(events[-1], DoneEvent) and {h.path for h in sources} == {pdf}
    assert "lighthouse keeper" in events[-1].answer


def test_an_attached_scan_is_recognised_found_and_shown(tmp_path):
    """A photographed page sent as an attachment: read by OCR in the parser child, found by an English and a
    Chinese question, and shown by the viewer from the library's stored text (never recognised again in the app's
process: `Location.from_library`)."""
    import io

    from tests.support.scans import render_page

    msg = harbour_message(with_pdf=False)
    for name, text, chinese in (("card.png", "Return the warranty card within thirty days.", False),
                                ("卡片.png", "请在三十天内寄回保修卡。", True)):
        out = io.BytesIO()
        render_page((text,), chinese, size_pt=14, page=(1240, 600)).save(out, format="PNG")
        msg.add_attachment(out.getvalue(), maintype="image", subtype="png", filename=name)
    docs = tmp_path / "docs"
    docs.mkdir()
    path = docs / "scans.eml"
    path.write_bytes(bytes(msg))
    engine = make_engine(tmp_path / "home")
    try:
        report = engine.index([docs])
        assert (report.attachments, report.failed) == (3, ())
        for question, name in (("warranty card thirty days", "card.png"), ("保修卡", "卡片.png")):
            hit = next(h for h in engine.search(question, 5) if h.path.endswith(name))
            assert hit.ocr and hit.path == attachment_path(str(path), f"{2 if name == 'card.png' else 3}/{name}")
            location = locate(hit, None, max_bytes=1 << 26, carrier=_carrier(engine, hit.path))
            assert location.from_library and location.file_state == UNCHANGED and not location.text
            stored = engine.stored_location(hit)
            assert stored.kind == "text" and stored.match == EXACT and hit.text in stored.text
    finally:
        engine.close()
