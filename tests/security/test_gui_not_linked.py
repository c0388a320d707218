"""Attack: an archive imported without its documents names a private local folder; the window's start-up scan
and the folder watcher index it. In the window such a source is shown as not linked, is neither scanned nor
watched, and is indexed only after the user links it to a folder they chose."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before any Qt import

from pathlib import Path  # noqa: E402

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QFileDialog  # noqa: E402

from desktop_rag.config import resolve_paths  # noqa: E402
from desktop_rag.engine import STORED, Engine  # noqa: E402
from desktop_rag.gui.controllers.viewer_locate import locate_passage  # noqa: E402
from desktop_rag.gui.models.library import COL_NAME, COL_STATE, PathRole  # noqa: E402
from tests.gui.conftest import FAST, make_window, wait_idle  # noqa: E402,F401 - make_window is a fixture
from tests.support.archives import SECRET, exported, forge, move_rows  # noqa: E402


def test_a_not_linked_source_is_shown_as_such_and_indexed_only_where_the_user_links_it(
        make_window, qtbot, tmp_path: Path, monkeypatch):  # noqa: F811 - the fixture imported above
    archive, docs = exported(tmp_path)
    private = tmp_path / "private"
    private.mkdir()
    (private / "vault.txt").write_text(f"Vault\n\n{SECRET}.", encoding="utf-8")
    evil = tmp_path / "evil.zip"
    forge(archive, evil, rows=lambda c: move_rows(c, str(private)))
    home = tmp_path / "home"
    engine = Engine(resolve_paths(home), FAST)
    engine.import_archive(evil, name="Shared")
    engine.close()

    window = make_window(home=home)
    wait_idle(qtbot, window)  # the start-up scan of every source has run
    panel, model = window.library_panel, window.library_model
    assert window.last_status.files_total == 2  # the archive's two records; vault.txt was never read
    assert str(private) not in window.backend.watcher._sources
    row = model.index(0, COL_NAME)
    assert str(private) in row.data(Qt.ItemDataRole.ToolTipRole)
    assert model.index(0, COL_STATE).data() == "not linked"
    panel.tree.setCurrentIndex(row)
    assert panel.link_button.isVisibleTo(panel) and not panel.reindex_button.isEnabled()
    # a citation of the archive's passage names private/plan.txt: the viewer reads nothing at that path, it shows
    # the archive's own stored text (issue 46)
    (private / "plan.txt").write_text(f"Plan\n\n{SECRET}.", encoding="utf-8")
    hit = next(h for h in window.backend.engine.search("tomatoes south fence") if h.path.endswith("plan.txt"))
    location, pdf = locate_passage(window.backend.engine, hit, 1 << 20, None, window.viewer.pages)
    assert pdf is None and location.file_state == STORED and SECRET not in location.text
    assert "Tomatoes go along the south fence" in location.text

    chosen = tmp_path / "chosen"
    chosen.mkdir()
    (chosen / "plan.txt").write_bytes((docs / "plan.txt").read_bytes())
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(chosen))
    with qtbot.waitSignal(window.index_finished, timeout=60_000):
        panel.link_button.click()
    wait_idle(qtbot, window)
    assert window.last_status.not_linked == () and window.last_status.files_total == 1
    qtbot.waitUntil(lambda: model.index(0, COL_STATE).data() == "folder", timeout=10_000)
    assert model.index(0, COL_NAME).data(PathRole) == str(chosen)
    assert str(chosen) in window.backend.watcher._sources

