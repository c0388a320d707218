"""Index runs end to end through the facade: add, unchanged, touched, renamed, removed, mismatched settings."""

from __future__ import annotations

import os
import shutil
import threading

import numpy as np
import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.errors import ModelMismatchError, UsageError
from tests.support.index_runs import consistent, make_engine, write_docs


def test_index_then_rescan_is_incremental(tmp_path):
    docs = write_docs(tmp_path / "docs", 20)
    engine = make_engine(tmp_path / "home")
    first = engine.index([tmp_path / "docs"])
    assert (first.added, first.updated, first.removed, first.unchanged, first.failed) == (20, 0, 0, 0, ())
    assert first.embedded == first.chunks > 0
    consistent(engine)

    again = engine.index()
    assert (again.added, again.updated, again.unchanged, again.embedded) == (0, 0, 20, 0)

    docs[3].write_text("A brand new text about zebras. " * 5, encoding="utf-8")
    changed = engine.index()
    chunks_of_doc3 = engine.store.file_by_path(str(docs[3])).chunk_count
    assert (changed.updated, changed.unchanged, changed.embedded) == (1, 19, chunks_of_doc3)
    assert engine.search("zebras", 1)[0].path == str(docs[3])
    consistent(engine)
    engine.close()


def test_touch_rename_and_delete_never_reembed(tmp_path):
    docs = write_docs(tmp_path / "docs", 5)
    engine = make_engine(tmp_path / "home")
    engine.index([tmp_path / "docs"])
    vectors_before = engine.store.count_vectors()

    os.utime(docs[0], ns=(1, 1))  # new mtime, same content
    moved = docs[1].with_name("renamed.txt")
    docs[1].rename(moved)
    docs[2].unlink()
    report = engine.index()
    assert report.embedded == 0 and report.added == 0 and report.updated == 0
    assert report.removed == 1 and report.unchanged == 4
    assert engine.store.file_by_path(str(moved)).status == "indexed"
    assert engine.store.file_by_path(str(docs[1])) is None
    assert engine.store.count_vectors() < vectors_before  # the deleted file's vectors are gone
    consistent(engine)
    engine.close()


def test_two_copies_renamed_in_one_run_are_not_reembedded(tmp_path):
    docs = write_docs(tmp_path / "docs", 2)
    docs[1].write_bytes(docs[0].read_bytes())  # the same content twice (a copy kept in two places)
    engine = make_engine(tmp_path / "home")
    engine.index([tmp_path / "docs"])
    for doc in docs:
        doc.rename(doc.with_name("renamed-" + doc.name))
    report = engine.index()
    assert (report.embedded, report.added, report.removed, report.unchanged) == (0, 0, 0, 2)
    assert [f.status for f in engine.store.files()] == ["indexed", "indexed"]
    consistent(engine)
    engine.close()


def test_faiss_cache_rebuilt_when_missing_corrupt_or_stale(tmp_path):
    write_docs(tmp_path / "docs", 8)
    home = tmp_path / "数据 用户"  # a non-ASCII data dir must work
    engine = make_engine(home)
    engine.index([tmp_path / "docs"])
    expected = engine.runtime.vectors().ids()
    engine.close()
    faiss_file = resolve_paths(home).vector_index
    assert faiss_file.exists()

    for damage in ("missing", "corrupt", "stale"):
        if damage == "missing":
            faiss_file.unlink()
        elif damage == "corrupt":
            faiss_file.write_bytes(b"not a faiss index at all")
        else:  # the stored vectors changed after the cache was saved, same ids (as a re-embed leaves them)
            engine = make_engine(home)
            ids, old = next(engine.store.iter_vectors())
            engine.store.add_vectors(ids.tolist(), -old)  # a new generation
            engine.close()
        engine = make_engine(home)
        assert np.array_equal(engine.runtime.vectors().ids(), expected), damage
        if damage == "stale":  # the cache now serves the new vectors, not the old ones
            for chunk_id, vector in zip(ids[:3], -old[:3]):
                top = engine.runtime.vectors().search(vector, 1)[0]
                assert top[0] == chunk_id and top[1] == pytest.approx(1.0, abs=1e-4), damage
        assert not engine.runtime._embedders, "rebuilding the cache must not load or run the model"
        engine.close()


def test_other_chunking_refuses_to_mix_and_reindex_rebuilds(tmp_path):
    write_docs(tmp_path / "docs", 3)
    engine = make_engine(tmp_path / "home")
    engine.index([tmp_path / "docs"])
    engine.close()

    other = make_engine(tmp_path / "home", Settings(embedding_model="hash:32", chunk_size=300))
    assert other.needs_reindex()
    with pytest.raises(ModelMismatchError, match="re-index"):
        other.index()
    assert other.status().embedding_model == "hash:64"  # nothing changed
    report = other.reindex()
    assert report.added == 0 and report.updated == 3 and report.embedded == report.chunks
    assert other.status().embedding_model == "hash:32" and other.runtime.vectors().dimension == 32
    consistent(other)
    other.close()


def test_bad_paths_are_usage_errors(tmp_path):
    engine = make_engine(tmp_path / "home")
    with pytest.raises(UsageError, match="No such file"):
        engine.index([tmp_path / "missing"])
    (tmp_path / "x.key").write_bytes(b"PK")
    with pytest.raises(UsageError, match="Not a supported"):
        engine.index([tmp_path / "x.key"])
    engine.close()


def test_hidden_temp_and_unsupported_files_are_skipped(tmp_path):
    folder = tmp_path / "docs"
    write_docs(folder, 2)
    # .key: a type no loader reads (a .png is read by OCR since images became documents)
    for name in (".hidden.txt", "~$draft.docx", ".~lock.report.docx#", "notes.tmp", "a.txt~", "slides.key"):
        (folder / name).write_bytes(b"whatever")
    (folder / "sub").mkdir()
    (folder / "sub" / "loop").symlink_to(folder, target_is_directory=True)
    events = []
    engine = make_engine(tmp_path / "home")
    report = engine.index([folder], on_file=events.append)
    assert report.added == 2 and not report.failed
    assert {e.path.rsplit("/", 1)[-1] for e in events if e.state == "skipped"} == {"slides.key"}
    engine.close()


def test_cancel_then_resume_finishes_the_job(tmp_path):
    write_docs(tmp_path / "docs", 30)
    engine = make_engine(tmp_path / "home")
    cancel = threading.Event()

    def stop_midway(progress):
        if progress.phase == "text" and progress.files_done >= 10:
            cancel.set()

    report = engine.index([tmp_path / "docs"], cancel=cancel, on_progress=stop_midway)
    assert report.cancelled and 0 < report.added < 30
    consistent(engine)
    engine.close()

    engine = make_engine(tmp_path / "home")
    report = engine.index()
    status = engine.status()
    assert status.files_indexed == 30 and status.chunks_pending_embedding == 0
    consistent(engine)
    engine.close()


def test_vector_queue_resumes_after_restart(tmp_path):
    write_docs(tmp_path / "docs", 6)
    engine = make_engine(tmp_path / "home")
    engine.index([tmp_path / "docs"], embed=False)
    pending = engine.status().chunks_pending_embedding
    assert pending == engine.store.count_chunks() > 0
    assert engine.search("topic3", 1)[0].path.endswith("doc0003.txt")  # keyword-searchable before vectors
    engine.close()
    engine = make_engine(tmp_path / "home")
    report = engine.index()
    assert report.embedded == pending and engine.status().chunks_pending_embedding == 0
    engine.close()


def test_embedding_batches_span_files(tmp_path, monkeypatch):
    write_docs(tmp_path / "docs", 40)
    engine = make_engine(tmp_path / "home")
    sizes = []
    real = engine.runtime.embedder().embed

    def spy(texts, batch_size=64):
        sizes.append(len(texts))
        return real(texts, batch_size)

    monkeypatch.setattr(engine.runtime.embedder(), "embed", spy)
    engine.index([tmp_path / "docs"])
    assert sum(sizes) == engine.store.count_chunks()
    assert max(sizes) > engine.store.count_chunks() / 40 * 5  # one embed call covers many files
    engine.close()


def test_copy_of_folder_with_same_content_is_indexed_separately(tmp_path):
    write_docs(tmp_path / "a", 2)
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    engine = make_engine(tmp_path / "home")
    report = engine.index([tmp_path / "a", tmp_path / "b"])
    assert report.added == 4
    engine.close()


def test_remove_source_forgets_everything(tmp_path):
    write_docs(tmp_path / "a", 2)
    write_docs(tmp_path / "b", 2, prefix="other")
    engine = make_engine(tmp_path / "home")
    engine.index([tmp_path / "a", tmp_path / "b"])
    assert engine.remove_source(tmp_path / "a")
    assert not engine.remove_source(tmp_path / "a")
    status = engine.status()
    assert status.files_total == 2 and status.sources == (str(tmp_path / "b"),)
    consistent(engine)
    engine.close()


def test_ingestor_reports_progress_phases(tmp_path):
    write_docs(tmp_path / "docs", 4)
    engine = make_engine(tmp_path / "home")
    seen = []
    engine.index([tmp_path / "docs"], on_progress=lambda p: seen.append(p.phase))
    assert seen[0] == "scan" and "text" in seen and "embed" in seen and seen[-1] == "done"
    engine.close()
