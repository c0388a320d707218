"""First run: the start screen on an empty library, the sample documents, and the one-time model banner."""

from __future__ import annotations

import os

from PySide6.QtWidgets import QFileDialog, QMessageBox

from desktop_rag.config import resource_path
from desktop_rag.gui.controllers.first_run_flow import BANNER_DONE_KEY
from tests.gui.conftest import FAST, wait_idle, write_docs

# These tests use FAST (the deterministic hash:64 embedder, see conftest): they check the first-run
# screens and indexing plumbing, not search quality, and it keeps them fast on a shared CPU.
LOCAL_MODEL_URL = "http://127.0.0.1:9/v1"  # never contacted: the banner only checks the configuration


def _start_shown(window) -> bool:
    return window.start_screen.isVisible() and not window.chat_panel.isVisible()


def test_start_screen_until_samples_are_indexed_and_back_when_emptied(make_window, qtbot, tmp_path, monkeypatch):
    window = make_window(FAST)
    qtbot.waitUntil(lambda: _start_shown(window), timeout=30_000)
    start = window.start_screen
    assert start.drop_label.text() == "Drop files or folders here"
    assert start.samples_button.text() == "Try the sample documents"

    samples = os.path.realpath(resource_path("samples"))
    expected = sum(1 for name in os.listdir(samples) if not name.startswith("."))
    with qtbot.waitSignal(window.index_finished, timeout=60_000, check_params_cb=lambda r: r.added > 0):
        start.samples_button.click()
        assert not _start_shown(window) and window.chat_panel.isVisible()  # hidden as soon as the source exists
    wait_idle(qtbot, window)
    assert window.library_model.source_paths() == [(samples, "folder")]
    assert window.last_status.files_indexed == expected
    assert not _start_shown(window)

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    window.confirm_remove(samples)
    qtbot.waitUntil(lambda: _start_shown(window), timeout=30_000)  # the last source is gone: welcome again

    docs = tmp_path / "docs"
    write_docs(docs, count=2)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(docs))
    with qtbot.waitSignal(window.index_finished, timeout=60_000, check_params_cb=lambda r: r.added == 2):
        start.add_folder_button.click()  # the same path as the library's Add folder…
    wait_idle(qtbot, window)
    assert not _start_shown(window)


def test_start_screen_is_translated(make_window, qtbot):
    window = make_window(FAST.replace(ui_language="zh"))
    qtbot.waitUntil(lambda: _start_shown(window), timeout=30_000)
    assert window.start_screen.samples_button.text() == "试用示例文档"
    assert window.start_screen.add_folder_button.text() == "添加文件夹…"
    assert "语言模型" in window.model_banner.text.text()
    wait_idle(qtbot, window)


def test_model_banner_opens_settings_and_dismissal_is_remembered(make_window, qtbot, tmp_path):
    home = tmp_path / "home"
    window = make_window(FAST, home=home)
    banner = window.model_banner
    assert banner.isVisible() and "extractive" in banner.text.text()

    banner.settings_button.click()
    dialog = window.settings_flow.dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible, timeout=5_000)
    dialog.reject()
    qtbot.waitUntil(lambda: window.settings_flow.dialog is None, timeout=5_000)
    assert banner.isVisible()  # closing Settings without a model keeps the explanation

    banner.close_button.click()
    assert not banner.isVisible()
    wait_idle(qtbot, window)
    window.close()

    again = make_window(FAST, home=home)
    assert again.qsettings.value(BANNER_DONE_KEY) in (True, "true")
    assert not again.model_banner.isVisible()
    wait_idle(qtbot, again)


def test_no_banner_when_a_model_is_configured(make_window, qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("OPENAI_BASE_URL", LOCAL_MODEL_URL)
    monkeypatch.setenv("OPENAI_MODEL", "local-model")
    window = make_window(FAST)
    assert not window.model_banner.isVisible()
    wait_idle(qtbot, window)


def test_banner_goes_away_for_good_once_a_model_is_set(make_window, qtbot, tmp_path):
    home = tmp_path / "home"
    window = make_window(FAST, home=home)
    assert window.model_banner.isVisible()
    configured = FAST.replace(llm_provider="custom", llm_base_url=LOCAL_MODEL_URL, llm_model="local-model")
    window.settings_flow.apply(configured)
    qtbot.waitUntil(lambda: not window.model_banner.isVisible(), timeout=30_000)
    wait_idle(qtbot, window)
    window.close()

    again = make_window(FAST, home=home)  # even without a model now, the banner was already explained
    assert not again.model_banner.isVisible()
    wait_idle(qtbot, again)
