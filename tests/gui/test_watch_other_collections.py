"""The folder watcher watches every source of the library, whichever collection the window shows: a document
edited in another collection's folder is indexed again at once. It watched only the shown collection's sources,
so with "Work" chosen an edit to a "Home" document stayed unindexed (search gave its old text) until the app
started again."""

from __future__ import annotations

from tests.gui.conftest import add_and_wait, wait_idle, write_docs


def test_a_document_of_a_collection_not_shown_is_reindexed_when_it_changes(make_window, qtbot, tmp_path):
    home_docs = write_docs(tmp_path / "home-docs", count=2)
    write_docs(tmp_path / "work-docs", count=1)
    window = make_window()
    engine = window.backend.engine
    add_and_wait(qtbot, window, [str(tmp_path / "home-docs")])  # into "Default"
    work = engine.create_collection("Work")
    window.collections.refresh()
    qtbot.waitUntil(lambda: any(c.id == work for c in window.collections.listing), timeout=10_000)
    window.collections.select(work)
    add_and_wait(qtbot, window, [str(tmp_path / "work-docs")])
    qtbot.waitUntil(lambda: str(tmp_path / "work-docs") in window.backend.watcher._sources, timeout=10_000)
    qtbot.waitUntil(lambda: window.backend.watcher._observer is not None, timeout=10_000)
    with qtbot.waitSignal(window.index_finished, timeout=30_000, check_params_cb=lambda r: r.updated == 1):
        home_docs[0].write_text("# Changed\n\nA brand new sentence about zebras.\n", encoding="utf-8")
    wait_idle(qtbot, window)
    assert [h.path for h in engine.search("zebras brand new sentence", 1)] == [str(home_docs[0])]
    assert window.collections.current == work  # still shown
