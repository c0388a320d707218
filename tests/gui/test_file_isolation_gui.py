"""Issue 49 item 1: the window's index worker and the folder watcher go on past a file whose storing raises: the
run finishes (not "failed"), the other files are indexed, the library shows the bad one failed with its reason,
and the watcher keeps indexing what changes afterwards."""

from __future__ import annotations

import pytest

from desktop_rag.engine.store.sqlite.store import SqliteStore as Store
from desktop_rag.gui.models.library import COL_STATE
from tests.gui.conftest import add_and_wait, wait_idle, write_docs


@pytest.fixture
def poisoned_store(monkeypatch: pytest.MonkeyPatch) -> None:
    """Storing any file named poison*.md raises, as a surrogate in a chunk made SQLite's binding raise."""
    real = Store.replace_file_chunks

    def replace(self, source_id, path, *args, **kwargs):
        if "poison" in path.rsplit("/", 1)[-1]:
            raise UnicodeEncodeError("utf-8", "\ud800", 0, 1, "surrogates not allowed")
        return real(self, source_id, path, *args, **kwargs)

    monkeypatch.setattr(Store, "replace_file_chunks", replace)


def _state(window, path) -> str:
    return window.library_model.index_of(str(path)).siblingAtColumn(COL_STATE).data()


def test_index_worker_and_watcher_go_on_past_a_file_that_cannot_be_stored(make_window, qtbot, tmp_path,
                                                                          poisoned_store) -> None:
    folder = tmp_path / "w"
    docs = write_docs(folder, count=2)
    poison = folder / "poison.md"
    poison.write_text("# Poison\n\nThis one cannot be stored.\n", encoding="utf-8")
    window = make_window()
    failures: list[str] = []
    window.backend.indexer.run_failed.connect(failures.append)
    report = add_and_wait(qtbot, window, [str(folder)])
    assert report.added == 2 and [f.path for f in report.failed] == [str(poison)]
    assert "could not be stored in the library (UnicodeEncodeError" in str(report.failed[0].error)
    assert not failures
    assert [_state(window, d) for d in docs] == ["indexed", "indexed"] and _state(window, poison) == "failed"
    assert window.last_status.files_failed == 1 and window.last_status.files_indexed == 2

    qtbot.waitUntil(lambda: window.backend.watcher._observer is not None, timeout=10_000)
    with qtbot.waitSignal(window.index_finished, timeout=30_000,
                          check_params_cb=lambda r: r.added == 1 and len(r.failed) == 1):
        (folder / "poison2.md").write_text("# Poison two\n\nNor this one.\n", encoding="utf-8")
        (folder / "zebra.md").write_text("# Zebras\n\nZebras have stripes.\n", encoding="utf-8")
    with qtbot.waitSignal(window.index_finished, timeout=30_000, check_params_cb=lambda r: r.updated == 1):
        docs[0].write_text("# Changed\n\nGiraffes are tall.\n", encoding="utf-8")  # the watcher still works
    wait_idle(qtbot, window)
    assert not failures
    assert _state(window, folder / "zebra.md") == "indexed" and _state(window, folder / "poison2.md") == "failed"
    assert window.last_status.files_indexed == 3 and window.last_status.files_failed == 2
