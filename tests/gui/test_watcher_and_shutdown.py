"""Folder watching picks up changes without user action; closing mid-index loses nothing."""

from __future__ import annotations

import os

from desktop_rag.gui.models.library import COL_STATE
from tests.gui.conftest import add_and_wait, wait_idle, write_docs


def test_watcher_picks_up_new_changed_renamed_and_deleted_files(make_window, qtbot, tmp_path):
    docs = write_docs(tmp_path / "w", count=2)
    window = make_window()
    add_and_wait(qtbot, window, [str(tmp_path / "w")])
    qtbot.waitUntil(lambda: window.backend.watcher._observer is not None, timeout=10_000)

    with qtbot.waitSignal(window.index_finished, timeout=30_000, check_params_cb=lambda r: r.updated == 1):
        docs[0].write_text("# Changed\n\nA brand new sentence about zebras.\n", encoding="utf-8")
    with qtbot.waitSignal(window.index_finished, timeout=30_000, check_params_cb=lambda r: r.added == 1):
        # an editor that saves through a temp file and a rename
        temp = tmp_path / "w" / ".new.md.swp"
        temp.write_text("# New\n\nGiraffes are tall.\n", encoding="utf-8")
        os.replace(temp, tmp_path / "w" / "new.md")
    with qtbot.waitSignal(window.index_finished, timeout=30_000, check_params_cb=lambda r: r.removed == 1):
        docs[1].unlink()
    wait_idle(qtbot, window)
    assert window.last_status.files_indexed == 2
    index = window.library_model.index_of(str(tmp_path / "w" / "new.md"))
    assert index.isValid() and index.siblingAtColumn(COL_STATE).data() == "indexed"
    assert not window.library_model.index_of(str(docs[1])).isValid()


def test_close_during_indexing_then_reopen_resumes_with_index_intact(make_window, qtbot, tmp_path):
    write_docs(tmp_path / "big", count=250, words=200)
    home = tmp_path / "home"
    window = make_window(home=home)
    wait_idle(qtbot, window)
    seen = []
    window.backend.indexer.file_event.connect(lambda e: seen.append(e.state))
    window.add_paths([str(tmp_path / "big")])
    qtbot.waitUntil(lambda: seen.count("indexed") >= 20, timeout=30_000)
    window.close()  # cancels, joins the worker, saves the vector cache
    assert not window.backend.index_thread.isRunning()
    assert seen.count("indexed") < 250, "the run finished before close; make the corpus bigger"

    again = make_window(home=home)
    # start-up reconcile resumes the run where it stopped
    qtbot.waitUntil(lambda: again.last_status is not None and again.last_status.files_indexed == 250
                    and again.last_status.chunks_pending_embedding == 0, timeout=90_000)
    wait_idle(qtbot, again)
    status = again.last_status
    assert (status.files_failed, status.files_pending) == (0, 0)
    assert again.library_model.totals()["files"] == 250
