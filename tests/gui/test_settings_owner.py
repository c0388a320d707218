"""One settings owner: a change made through AppSettings reaches the window, the backend and the engine;
a change that cannot be saved leaves the old settings everywhere and says why."""

from __future__ import annotations

import json

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from desktop_rag.config import load_settings
from desktop_rag.gui import i18n
from desktop_rag.gui.controllers.first_run_flow import FirstRunFlow
from desktop_rag.gui.models.library import LibraryModel
from desktop_rag.gui.threads.app_settings import AppSettings
from desktop_rag.gui.views.chat_area import ChatArea
from tests.gui.conftest import FAST, wait_idle

LOCAL_MODEL_URL = "http://127.0.0.1:9/v1"  # never contacted: only the configuration is checked


def _configured(settings):
    return settings.replace(llm_provider="custom", llm_base_url=LOCAL_MODEL_URL, llm_model="local-model",
                            ui_language="zh", top_k=7)


def test_a_change_through_the_owner_reaches_window_backend_and_engine(make_window, qtbot):
    window = make_window(FAST.replace(ui_language="en"))
    wait_idle(qtbot, window)
    assert window.model_banner.isVisible() and window.library_panel.add_folder_button.text() == "Add folder…"
    new = _configured(window.settings)

    with qtbot.waitSignal(window.backend.indexer.settings_applied, timeout=30_000) as applied:
        with qtbot.waitSignal(window.app_settings.changed, timeout=10_000) as changed:
            window.app_settings.update(new)
        assert changed.args[1] == new and changed.args[0].top_k != 7
    assert applied.args == [new]
    assert window.settings == new and window.backend.settings == new
    assert window.backend.engine.settings == new  # applied on the index worker
    assert window.windowTitle() == "Desktop RAG 本地知识库"  # the window's texts follow the new language
    assert window.library_panel.add_folder_button.text() == "添加文件夹…"
    assert not window.model_banner.isVisible()  # a model is configured now
    assert json.loads(window.paths.settings_file.read_text("utf-8"))["top_k"] == 7  # saved once, by the owner
    assert load_settings(window.paths).top_k == 7
    wait_idle(qtbot, window)


def test_a_failed_save_keeps_the_old_settings_everywhere_and_says_so(make_window, qtbot):
    window = make_window(FAST.replace(ui_language="en"))
    wait_idle(qtbot, window)
    old = window.settings
    applied: list = []
    window.backend.indexer.settings_applied.connect(applied.append)
    changed: list = []
    window.app_settings.changed.connect(lambda *args: changed.append(args))
    window.paths.settings_file.unlink(missing_ok=True)
    window.paths.settings_file.mkdir(parents=True)  # a folder where the file goes: the rename fails

    with qtbot.waitSignal(window.app_settings.save_failed, timeout=10_000) as failed:
        window.app_settings.update(_configured(old))
    assert failed.args[0]  # the reason
    boxes = [b for b in window.findChildren(QMessageBox) if b.isVisible()]
    assert len(boxes) == 1
    text = boxes[0].text()
    assert "could not be saved" in text and str(window.paths.settings_file) in text and i18n.error(failed.args[0]) in text
    assert "previous settings stay in use" in text
    boxes[0].close()

    # the engine would only hear of it through the worker: let everything queued run first
    wait_idle(qtbot, window)
    assert not changed and not applied
    assert window.settings == old and window.backend.settings == old and window.backend.engine.settings == old
    assert window.library_panel.add_folder_button.text() == "Add folder…" and i18n.language() == "en"
    assert window.model_banner.isVisible()  # still no model


def test_changes_are_announced_in_the_order_they_were_made(qtbot, tmp_path):
    from desktop_rag.config import resolve_paths

    owner = AppSettings(resolve_paths(tmp_path / "home"), FAST)
    seen: list[tuple[int, int]] = []
    owner.changed.connect(lambda old, new: seen.append((old.top_k, new.top_k)))
    for k in (3, 4, 5, 6):
        owner.update(FAST.replace(top_k=k))
    assert owner.saving and owner.current == FAST  # nothing is announced before it is saved
    qtbot.waitUntil(lambda: len(seen) == 4, timeout=10_000)
    assert seen == [(FAST.top_k, 3), (3, 4), (4, 5), (5, 6)] and owner.current.top_k == 6 and not owner.saving
    owner.close()


def test_two_windows_keep_each_others_changes(qtbot, tmp_path):
    """Two windows of one data folder (two processes): a setting changed in one is not put back by the other's
    next change of another setting (each wrote all its settings, as it had read them at its start)."""
    from desktop_rag.config import resolve_paths

    paths = resolve_paths(tmp_path / "home")
    first, second = AppSettings(paths, load_settings(paths)), AppSettings(paths, load_settings(paths))
    for owner, change in ((first, {"top_k": 9}), (second, {"ui_language": "zh"}), (first, {"chunk_size": 700})):
        with qtbot.waitSignal(owner.changed, timeout=10_000):
            owner.update(owner.current.replace(**change))
    stored = load_settings(paths)
    assert (stored.top_k, stored.ui_language, stored.chunk_size) == (9, "zh", 700)
    assert second.current.top_k == FAST.top_k  # (each window keeps what it runs with until it starts again)
    first.close()
    second.close()


class _Listing(QObject):
    loaded = Signal(object)  # stands in for Backend.library_loaded


def test_first_run_flow_needs_no_main_window(qtbot, tmp_path):
    """The flow gets only what it uses and reports requests as signals (no construction order to respect)."""
    from desktop_rag.config import resolve_paths

    area = ChatArea(QWidget)  # any widget stands in for the chat panel
    qtbot.addWidget(area)
    owner = AppSettings(resolve_paths(tmp_path / "home"), FAST, area)
    model = LibraryModel(area)
    listing = _Listing(area)
    qsettings = QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)
    flow = FirstRunFlow(area, owner, model, listing.loaded, qsettings, area)
    area.show()
    assert area.banner.isVisible() and not flow.start_visible
    listing.loaded.emit(())  # the first listing arrived, and the library is empty
    assert flow.start_visible

    with qtbot.waitSignal(flow.add_paths_requested) as samples:
        area.start_screen.samples_button.click()
    assert samples.args[0][0].endswith("samples")
    with qtbot.waitSignal(flow.add_folder_requested):
        area.start_screen.add_folder_button.click()
    with qtbot.waitSignal(flow.settings_requested):
        area.banner.settings_button.click()

    with qtbot.waitSignal(owner.changed, timeout=10_000):
        owner.update(FAST.replace(llm_provider="custom", llm_base_url=LOCAL_MODEL_URL, llm_model="m"))
    assert not area.banner.isVisible() and flow.banner_done
    owner.close()


def test_settings_flow_switches_language_first_then_asks_and_reindexes(make_window, qtbot, tmp_path, monkeypatch):
    from tests.gui.conftest import add_and_wait, write_docs

    write_docs(tmp_path / "docs", count=2)
    window = make_window(FAST.replace(ui_language="en"))
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    titles: list[str] = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda _parent, title, *a, **k: titles.append(title) or QMessageBox.StandardButton.Yes)
    new = window.settings.replace(ui_language="zh", chunk_size=300, chunk_overlap=30)
    with qtbot.waitSignal(window.index_finished, timeout=60_000, check_params_cb=lambda r: r.updated == 2):
        window.settings_flow.apply(new)
    assert titles == ["需要重新索引"]  # asked once, already in the new language
    wait_idle(qtbot, window)
    assert window.settings == new and window.backend.engine.settings == new
    assert json.loads(window.paths.settings_file.read_text("utf-8"))["chunk_size"] == 300
