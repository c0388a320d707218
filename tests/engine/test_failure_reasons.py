"""A failed file's reason, and an indexed file's notes, are stored as their codes and values (issue 49 item 5):
shown in Chinese from the codes at once (never matched against English text), bounded in size; an older
library's English reasons are read into codes once, when it is opened (schema 3 -> 4), in bounded time."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine import LoadError, Reason, UsageError, error_text
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.messages import Phrase, message
from desktop_rag.engine.reasons import MAX_PARTS, MAX_STORED_CHARS, MAX_TEXT_CHARS, MAX_VALUE_CHARS
from desktop_rag.engine.store import legacy_reasons
from desktop_rag.engine.store.sqlite.schema import SCHEMA_VERSION
from tests.support.crafted_reasons import CRAFTED_CHARS, crafted_epub, crafted_name

HASH = Settings(embedding_model="hash:64")  # bookkeeping, not semantics
MISSING_PART_ZH = message("error.part_missing", "zh", name="\0").split("\0")[0]  # "此文件缺少一个部件（"


def _engine(home: Path) -> Engine:
    return Engine(resolve_paths(home), HASH)


@pytest.fixture
def failed(tmp_path: Path):
    """A library where the crafted EPUB, a fake PDF and a good note failed or were indexed."""
    docs = tmp_path / "docs"
    docs.mkdir()
    crafted_epub(docs / "crafted.epub")
    (docs / "fake.pdf").write_bytes(b"this is not a PDF at all")
    (docs / "good.md").write_text("# Good\n\nA good document about lighthouses.\n", encoding="utf-8")
    engine = _engine(tmp_path / "home")
    report = engine.index([str(docs)])
    yield engine, docs, report
    engine.close()


def test_a_failure_is_stored_as_its_code_and_values_and_shown_in_chinese_at_once(failed) -> None:
    engine, docs, report = failed
    reasons = {Path(f.path).name: f.error for f in report.failed}
    assert reasons["crafted.epub"].code == "part_missing" and reasons["fake.pdf"].code == "not_pdf"
    stored = dict(engine.store.db.execute("SELECT path, reason FROM files WHERE status = 'failed'").fetchall())
    part = json.loads(stored[str(docs / "crafted.epub")])[0]
    assert part["key"] == "error.part_missing" and len(part["values"]["name"]) <= MAX_VALUE_CHARS
    for record in engine.store.failed_files():  # read back from the store: the codes, not the English text
        started = time.perf_counter()
        chinese = error_text(record.error, "zh")
        assert time.perf_counter() - started < 0.05, "a reason is shown from its codes, never matched"
        if record.path.endswith("crafted.epub"):
            assert chinese.startswith(MISSING_PART_ZH) and len(chinese) < MAX_TEXT_CHARS
            assert crafted_name()[:100] in chinese  # the value as it was, cut in the middle
        else:
            assert chinese == message("error.not_pdf", "zh")
        assert str(record.error) == error_text(record.error, "en")


def test_a_stored_english_text_is_never_read_back() -> None:
    """Only codes translate: the English words of a reason passed on as a string stay as they are."""
    english = str(UsageError.coded("unknown_collection", name="Work", names="“Default”"))
    assert error_text(english, "zh") == english
    assert error_text(Reason.of(UsageError.coded("unknown_collection", name="Work", names="“Default”")), "zh") == \
        message("error.unknown_collection", "zh", name="Work", names="“Default”")


def test_a_reason_is_bounded_value_by_value_and_as_a_whole() -> None:
    huge = "x" * 100_000 + "\ud800"  # a lone surrogate SQLite could not store
    reason = Reason.of(LoadError.coded("part_missing", name=huge), *[Phrase("note.pdf_recovered", n=n)
                                                                     for n in range(50)], "plain " * 10_000)
    assert len(reason.parts) == MAX_PARTS + 1 and reason.parts[-1] == "…"
    name = reason.parts[0].values["name"]
    assert len(name) == MAX_VALUE_CHARS and "\ud800" not in name and name.startswith("xxx") and "…" in name
    assert len(str(reason)) <= MAX_TEXT_CHARS and len(reason.to_json()) <= MAX_STORED_CHARS
    many = Reason.of(*[LoadError.coded("file_too_large", name=huge, mb=huge, limit=huge) for _ in range(8)])
    assert len(str(many)) <= MAX_TEXT_CHARS and len(many.to_json()) <= MAX_STORED_CHARS
    assert many.parts[0].key == "error.file_too_large" and many.parts[-1] == "…"
    nested = Phrase("error.libreoffice_failed", name=Phrase("error.libreoffice_failed", name=Phrase(
        "error.libreoffice_failed", name=Phrase("error.libreoffice_failed", name="deep"))))
    assert len(Reason.of(nested).to_json()) < 1000  # past three levels a phrase is its English words


def test_a_reason_cut_short_reads_back_as_it_was_stored() -> None:
    """`of` keeps MAX_PARTS parts and a ninth, "…", saying that some were left out: the row reads back equal; a
    longer list (an edited row) reads as `of` would have fitted it."""
    notes = [Phrase("note.pdf_recovered", n=n) for n in range(MAX_PARTS + 3)]
    long = Reason.of(*notes)
    assert len(long.parts) == MAX_PARTS + 1 and long.parts[-1] == "…"
    huge = "x" * 100_000
    for reason in (long, Reason.of(*[LoadError.coded("file_too_large", name=huge, mb=huge, limit=huge)] * 8)):
        assert Reason.stored(str(reason), reason.to_json()) == reason
    edited = json.dumps([{"key": "note.pdf_recovered", "values": {"n": n}} for n in range(50)])
    assert Reason.stored("the English text", edited) == long


def test_a_stored_reason_that_does_not_fit_the_table_is_shown_as_its_text() -> None:
    """A row's JSON is someone else's (an edited library): anything but what `to_json` writes gives the English."""
    good = Reason.of(LoadError.coded("file_too_large", name="a.pdf", mb=300, limit=200))
    assert Reason.stored(str(good), good.to_json()) == good
    for bad in ('[{"key": "error.no_such_code", "values": {}}]', '[{"key": "error.file_too_large", "values": {}}]',
                '{"key": "error.not_pdf"}', "[" * 5000 + "]" * 5000, "not json", '[{"key": 3}]',
                '[{"key": "error.part_missing", "values": {"name": [1, 2]}}]',
                json.dumps([{"key": "error.part_missing", "values": {"name": "n" * MAX_STORED_CHARS}}])):
        shown = Reason.stored("the English text", bad)
        assert shown == Reason.of("the English text") and shown.text("zh") == "the English text", bad


def test_notes_of_an_indexed_file_are_codes_too() -> None:
    reason = Reason.of(Phrase("note.pdf_recovered", n=2), Phrase("note.pdf_left_out", n=1))
    assert reason.text("zh") == "2 页文字层无法读取的页面已通过文字识别（OCR）读取；1 页文字层无法读取的页面被略过"
    assert Reason.stored(str(reason), reason.to_json()) == reason


def _as_schema_3(database: Path, rows: dict[str, str]) -> None:
    """Make the library a schema-3 one (no files.reason) whose failed files carry these English reasons."""
    db = sqlite3.connect(database)
    db.execute("PRAGMA foreign_keys=OFF")
    db.execute("ALTER TABLE files DROP COLUMN reason")
    db.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
    source = db.execute("INSERT INTO sources (path, kind, added_at) VALUES ('/old', 'folder', 0)").lastrowid
    for name, text in rows.items():
        db.execute("INSERT INTO files (source_id, path, status, error) VALUES (?, ?, ?, ?)",
                   (source, f"/old/{name}", "indexed" if name.startswith("note") else "failed", text))
    db.commit()
    db.close()


def test_an_old_librarys_english_reasons_become_codes_once(tmp_path: Path) -> None:
    engine = _engine(tmp_path / "home")
    database = engine.store.path
    engine.close()
    crafted = str(LoadError.coded("part_missing", name=crafted_name()))  # as schema 3 stored it: 7.8k characters
    assert len(crafted) > CRAFTED_CHARS
    notes = "; ".join((Phrase("note.pdf_recovered", n=2).text("en"), Phrase("note.pdf_left_out", n=1).text("en")))
    _as_schema_3(database, {
        "crafted.epub": crafted,
        "nested.doc": str(LoadError.coded("libreoffice_failed", name=Phrase("phrase.legacy.doc"))),
        "big.pdf": str(LoadError.coded("file_too_large", name="big.pdf", mb="300.5", limit="200")),
        "odd.txt": "Some words no text of the table has",
        "note.pdf": notes,
        "long.txt": "y" * (legacy_reasons.MAX_TEXT_CHARS + 1),
    })
    started = time.perf_counter()
    engine = _engine(tmp_path / "home")  # the migration runs here, in one transaction
    took = time.perf_counter() - started
    try:
        assert engine.store.get_meta("schema_version") == str(SCHEMA_VERSION) == "7"
        reasons = {Path(f.path).name: f.error for f in engine.files()}
        assert reasons["crafted.epub"].code == "part_missing"
        assert reasons["crafted.epub"].text("zh").startswith(MISSING_PART_ZH)
        assert reasons["nested.doc"].text("zh") == "LibreOffice 无法转换此文件；它可能已损坏，或并不是旧版 Word 文档（.doc）"
        assert reasons["big.pdf"].text("zh") == message("error.file_too_large", "zh", name="big.pdf", mb="300.5",
                                                        limit="200")
        assert reasons["note.pdf"].codes() == ("note.pdf_recovered", "note.pdf_left_out")
        assert reasons["note.pdf"].text("zh").endswith("1 页文字层无法读取的页面被略过")
        assert reasons["odd.txt"] == Reason.of("Some words no text of the table has")  # plain, shown as it is
        assert reasons["odd.txt"].code is None and reasons["odd.txt"].text("zh") == "Some words no text of the table has"
        assert reasons["long.txt"].code is None and len(str(reasons["long.txt"])) <= MAX_TEXT_CHARS  # bounded
        stored = engine.store.db.execute("SELECT max(length(error)), max(length(reason)) FROM files").fetchone()
        assert stored[0] <= MAX_TEXT_CHARS and stored[1] <= MAX_STORED_CHARS
        assert [f.error.code for f in engine.status().failed_files if f.path.endswith(".epub")] == ["part_missing"]
    finally:
        engine.close()
    assert took < 30, f"opening the old library took {took:.1f} s"


def test_reading_an_old_reason_is_linear_in_its_length() -> None:
    """The read that replaces the patterns finds fixed words left to right: the crafted text parses at once."""
    crafted = str(LoadError.coded("part_missing", name=crafted_name()))
    started = time.perf_counter()
    reason = legacy_reasons.parse(crafted)
    assert time.perf_counter() - started < 0.5 and reason.code == "part_missing"
    assert legacy_reasons.parse(crafted, deadline=time.monotonic() - 1) == Reason.of(crafted)  # budget spent: plain


def test_an_archives_english_reasons_are_read_into_codes_on_import(failed, tmp_path: Path) -> None:
    """An archive carries a failed file's English text (format v1): the import reads it once, as a migration does."""
    engine, docs, _report = failed
    engine.export_collection(1, tmp_path / "archive.zip")
    target = _engine(tmp_path / "other")
    try:
        target.import_archive(tmp_path / "archive.zip", name="Imported")
        reasons = {Path(f.path).name: f.error for f in target.files() if f.status == "failed"}
    finally:
        target.close()
    assert reasons["fake.pdf"].code == "not_pdf" and reasons["fake.pdf"].text("zh") == message("error.not_pdf", "zh")
    assert reasons["crafted.epub"].code == "part_missing" and reasons["crafted.epub"].text("zh").startswith(
        MISSING_PART_ZH)
