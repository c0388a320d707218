"""The bookkeeping of an e-mail's attachments in the library (store/store.py, ingest/ingest.py, paths.py), one rule
at a time on the store itself: an attachment is a file row below its message's path; a re-read keeps an unchanged
attachment's chunks and vectors and replaces a changed one; an attachment the message no longer carries goes, and
so do all of them with a failed or deleted message; a moved message takes them along; each knows its carrier.
test_email_attachments.py checks the same through whole index runs."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.ingest.documents import AttachedDocument, ParsedDocument, Section
from desktop_rag.engine.ingest.ingest import Ingestor
from desktop_rag.engine.paths import attachment_part, attachment_path
from desktop_rag.engine.reasons import Reason
from desktop_rag.engine.store.values import AttachmentRows, ChunkDraft


def _chunks(*texts: str) -> list[ChunkDraft]:
    out, at = [], 0
    for n, text in enumerate(texts):
        out.append(ChunkDraft(n, text, None, "", at, at + len(text)))
        at += len(text) + 2
    return out


@pytest.fixture
def lib(tmp_path: Path):
    folder = tmp_path / "mail"
    folder.mkdir()
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64"))
    source = engine.add_sources([folder])[0]
    yield engine, engine.store, source, str(folder / "m.eml")
    engine.close()


def _put(store, source, message: str, attachments: list[AttachmentRows], sha: str = "m1", mtime: int = 1) -> list[int]:
    body = _chunks("Message body.")
    return store.replace_file_chunks(source.id, message, 100, mtime, sha, body, Reason(), attachments)


def _embed_all(store) -> None:
    ids = [r[0] for r in store.db.execute("SELECT id FROM chunks ORDER BY id")]
    with store.transaction():
        store.add_vectors(ids, np.ones((len(ids), 64), np.float32))


def _row(store, path: str):
    return store.file_by_path(path)


def _ids(store, path: str) -> list[int]:
    return [r[0] for r in store.db.execute(
        "SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.path = ? ORDER BY c.id", (path,))]


def test_attachments_are_rows_below_their_message(lib):
    engine, store, source, message = lib
    notes, guide = attachment_path(message, "1/notes.txt"), attachment_path(message, "2/guide.pdf")
    _put(store, source, message, [AttachmentRows(notes, 10, "n1", _chunks("Notes one.", "Notes two.")),
                                  AttachmentRows(guide, 20, "g1", _chunks("Guide."), Reason.of("1 page read by OCR"))])
    parent = _row(store, message)
    for path, size, sha, count, note in ((notes, 10, "n1", 2, ""), (guide, 20, "g1", 1, "1 page read by OCR")):
        row = _row(store, path)
        assert (row.parent_id, row.source_id, row.size, row.sha256, row.status, row.chunk_count, str(row.error),
                row.mtime_ns) == (parent.id, source.id, size, sha, "indexed", count, note, parent.mtime_ns)
        assert store.carrier(path) == parent
    assert store.carrier(message) is None and store.carrier(message + "/nothing") is None
    assert parent.parent_id is None and parent.chunk_count == 1
    assert store.count_attachments() == 2 and store.count_attachments(source.collection_id) == 2
    assert store.count_attachments(source.collection_id + 1) == 0


def _two_embedded(store, source, message: str, first: str, second: str) -> tuple[str, str]:
    """The message with two attachments (1/`first`, 2/`second`), every chunk with a vector; their paths."""
    paths = attachment_path(message, f"1/{first}"), attachment_path(message, f"2/{second}")
    _put(store, source, message, [AttachmentRows(p, 10, f"{n}1", _chunks(f"Text of {n}."))
                                  for n, p in zip("ab", paths)])
    _embed_all(store)
    return paths


def test_a_reread_keeps_an_unchanged_attachment_and_replaces_a_changed_one(lib):
    engine, store, source, message = lib
    same, changed = _two_embedded(store, source, message, "same.txt", "changed.txt")
    kept, old = _ids(store, same), _ids(store, changed)
    old_message = _ids(store, message)
    dropped = _put(store, source, message, [AttachmentRows(same, 10, "a1", _chunks("Text of a.")),
                                            AttachmentRows(changed, 12, "c2", _chunks("New text."))],
                   sha="m2", mtime=2)
    assert sorted(dropped.dropped) == sorted(old_message + old)  # the message's and the changed attachment's vectors
    # the message's text is the same: its new chunk took the old one's vector (store/kept_vectors.py)
    assert dropped.reused == _ids(store, message) != old_message
    assert _ids(store, same) == kept and store.count_vectors() == len(kept) + 1
    assert _ids(store, changed) != old and _row(store, changed).sha256 == "c2" and _row(store, changed).size == 12
    assert _row(store, same).mtime_ns == 2 and _row(store, changed).mtime_ns == 2  # the message's time


def test_a_changed_attachment_keeps_the_vectors_of_its_unchanged_passages(lib):
    engine, store, source, message = lib
    path = attachment_path(message, "1/a.txt")
    _put(store, source, message, [AttachmentRows(path, 1, "a1", _chunks("Kept passage.", "Old passage."))])
    ids = [r[0] for r in store.db.execute("SELECT id FROM chunks ORDER BY id")]
    with store.transaction():  # a vector of its own for each passage
        store.add_vectors(ids, np.arange(len(ids) * 64, dtype=np.float32).reshape(len(ids), 64))
    old = store.stored_vectors(_ids(store, path))
    replaced = _put(store, source, message, [AttachmentRows(path, 2, "a2", _chunks("Kept passage.", "New passage."))])
    kept, new = _ids(store, path)
    assert replaced.reused == [_ids(store, message)[0], kept]  # the message's body and the unchanged passage
    assert np.array_equal(store.stored_vectors([kept])[kept], old[min(old)])
    assert new not in store.stored_vectors([new]) and sorted(old) == sorted(set(replaced.dropped) & set(old))


def test_an_attachment_with_no_hash_is_always_read_again(lib):
    engine, store, source, message = lib
    path = attachment_path(message, "1/a.txt")
    _put(store, source, message, [AttachmentRows(path, 1, "", _chunks("A."))])
    first = _ids(store, path)
    _put(store, source, message, [AttachmentRows(path, 1, "", _chunks("A."))])
    assert _ids(store, path) != first


def test_a_failed_attachment_row_is_not_kept_as_unchanged(lib):
    engine, store, source, message = lib
    path = attachment_path(message, "1/a.txt")
    _put(store, source, message, [AttachmentRows(path, 1, "a1", _chunks("A."))])
    with store.transaction():
        store.db.execute("UPDATE files SET status = 'failed' WHERE path = ?", (path,))
    first = _ids(store, path)
    _put(store, source, message, [AttachmentRows(path, 1, "a1", _chunks("A."))])
    assert _ids(store, path) != first and _row(store, path).status == "indexed"


def test_an_attachment_the_message_no_longer_carries_goes(lib):
    engine, store, source, message = lib
    gone, stays = _two_embedded(store, source, message, "gone.txt", "stays.txt")
    gone_ids = _ids(store, gone)
    dropped = _put(store, source, message, [AttachmentRows(stays, 10, "b1", _chunks("Text of b."))])
    assert set(gone_ids) <= set(dropped.dropped) and _row(store, gone) is None and _row(store, stays) is not None
    assert store.count_attachments() == 1


def test_a_failed_or_deleted_message_takes_its_attachments_along(lib):
    engine, store, source, message = lib
    paths = [attachment_path(message, f"{n}/a{n}.txt") for n in (1, 2)]
    _put(store, source, message, [AttachmentRows(p, 1, p, _chunks(p)) for p in paths])
    _embed_all(store)
    attached = [i for p in paths for i in _ids(store, p)]
    dropped = store.record_failure(source.id, message, 100, 3, "m3", Reason.coded("pdf_damaged"))
    assert set(attached) <= set(dropped) and store.count_attachments() == 0 and _row(store, message).status == "failed"
    _put(store, source, message, [AttachmentRows(p, 1, p, _chunks(p)) for p in paths])
    _embed_all(store)
    attached = [i for p in paths for i in _ids(store, p)]
    dropped = store.delete_files([_row(store, message).id])
    assert set(attached) <= set(dropped) and store.count_attachments() == 0 and _row(store, message) is None


def test_a_moved_message_takes_its_attachments_below_its_new_path(lib, tmp_path):
    engine, store, source, message = lib
    paths = [attachment_path(message, "1/a.txt"), attachment_path(message, "2/sub/b.pdf")]
    _put(store, source, message, [AttachmentRows(p, 1, p, _chunks("x")) for p in paths])
    other = tmp_path / "moved"
    other.mkdir()
    target = engine.add_sources([other])[0]
    new_path = str(other / "renamed message.eml")
    with store.transaction():
        store.move_file(_row(store, message).id, new_path, target.id, 100, 7)
    for part in ("1/a.txt", "2/sub/b.pdf"):
        row = _row(store, attachment_path(new_path, part))
        assert row is not None and row.source_id == target.id and row.mtime_ns == 7
        assert store.carrier(row.path).path == new_path
    assert all(_row(store, p) is None for p in paths)


def test_attachment_paths_sit_below_the_carrier_and_read_back():
    carrier = os.path.join(os.sep, "mail", "m.eml")
    path = attachment_path(carrier, "2/report.pdf")
    assert path == os.path.join(carrier, "2", "report.pdf")
    assert attachment_part(carrier, path) == "2/report.pdf"
    assert attachment_part(carrier, carrier + "//7.1/a.xlsx") == "7.1/a.xlsx"  # however many separators lead
    assert attachment_part(carrier, attachment_path(carrier, "X1/Xmas.pdf")) == "X1/Xmas.pdf"  # only separators go


def test_the_index_run_chunks_each_attachment_with_a_text(lib, tmp_path):
    engine, store, source, message = lib
    ingestor = Ingestor(store, Settings(embedding_model="hash:64", chunk_size=120, chunk_overlap=0),
                        engine.runtime.embedder, engine.runtime.vectors_for_writing, engine.runtime.parser())
    text = ParsedDocument(sections=(Section(text="Notes about the harbour. " * 8),), notes=("read by OCR", "again"))
    empty = ParsedDocument(sections=(Section(text="   "),))
    doc = ParsedDocument(sections=(Section(text="Body."),), attachments=(
        AttachedDocument("1/notes.txt", 300, "aa", text), AttachedDocument("2/blank.txt", 3, "bb", empty)))
    rows = ingestor._attachment_rows(message, doc)
    assert [(r.path, r.size, r.sha256, r.note) for r in rows] == [
        (attachment_path(message, "1/notes.txt"), 300, "aa", Reason.of("read by OCR", "again"))]
    assert len(rows[0].chunks) > 1 and all(len(c.text) <= 120 for c in rows[0].chunks)
