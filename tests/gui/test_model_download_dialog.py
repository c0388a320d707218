"""The Get-a-model dialog against a real loopback hub: progress, result path, cancel, errors, Settings hook."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QWidget

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.models import download as model_download
from desktop_rag.gui import i18n
from desktop_rag.gui.controllers.settings_work import ModelDownloads
from desktop_rag.gui.views.model_download_dialog import ModelDownloadDialog
from tests.support.hub_server import fake_model_files, run_hub_server

E5 = "intfloat/multilingual-e5-small"


@pytest.fixture
def hub():
    with run_hub_server() as server:
        server.add_repo(E5, fake_model_files(weights_bytes=2_000_000))
        yield server


def _dialog(qtbot, data_dir: Path, endpoint: str) -> ModelDownloadDialog:
    """The dialog, its downloads run by the controller that serves it (as SettingsFlow does)."""
    dialog = ModelDownloadDialog(data_dir, endpoint)
    qtbot.addWidget(dialog)
    downloads = ModelDownloads(dialog)
    downloads.serve(dialog)
    dialog.show()
    return dialog


def test_download_moves_the_bar_keeps_the_gui_live_and_returns_the_folder(qtbot, hub, tmp_path):
    hub.chunk_delay = 0.005
    dialog = _dialog(qtbot, tmp_path, hub.endpoint)
    assert dialog.repo.text() == E5  # the recommended model is preselected
    values: list[int] = []
    dialog.bar.valueChanged.connect(values.append)
    ticks: list[int] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(20)
    with qtbot.waitSignal(dialog.accepted, timeout=30_000):
        qtbot.mouseClick(dialog.download_button, Qt.MouseButton.LeftButton)
        assert not dialog.download_button.isEnabled()
    timer.stop()
    expected = tmp_path / "models" / "intfloat--multilingual-e5-small"
    assert dialog.model_path == str(expected)
    assert (expected / "model.safetensors").read_bytes() == hub.repos[E5].files["model.safetensors"]
    assert len(set(values)) >= 4 and values == sorted(values) and values[-1] == 1000
    assert len(ticks) >= 10, "the GUI thread was blocked during the download"
    assert dialog.endpoint() == hub.endpoint


def test_cancel_stops_the_download_and_a_second_try_resumes(qtbot, hub, tmp_path):
    hub.chunk_delay = 0.02
    dialog = _dialog(qtbot, tmp_path, hub.endpoint)
    qtbot.mouseClick(dialog.download_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.bar.value() > 50, timeout=30_000)
    assert dialog.cancel_button.text() == i18n.tr("download.stop")
    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dialog.running(), timeout=2_000)
    assert dialog.isVisible() and dialog.result() == 0
    assert dialog.status.text() == i18n.tr("download.cancelled")
    assert not (tmp_path / "models" / "intfloat--multilingual-e5-small").exists()
    assert dialog.download_button.isEnabled()

    hub.chunk_delay = 0.0
    with qtbot.waitSignal(dialog.accepted, timeout=30_000):
        qtbot.mouseClick(dialog.download_button, Qt.MouseButton.LeftButton)
    assert "range" in hub.file_requests("model.safetensors")[-1].headers
    assert Path(dialog.model_path, "model.safetensors").stat().st_size == 2_000_000


def test_closing_while_downloading_cancels_first(qtbot, hub, tmp_path):
    hub.chunk_delay = 0.02
    dialog = _dialog(qtbot, tmp_path, hub.endpoint)
    qtbot.mouseClick(dialog.download_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.bar.value() > 0, timeout=30_000)
    with qtbot.waitSignal(dialog.rejected, timeout=2_000):
        dialog.reject()  # Esc / the window's close button
        assert dialog.isVisible()  # stays until the thread has stopped
    assert not dialog.running() and not dialog.isVisible()
    assert not model_download.is_downloaded(tmp_path, E5)


def test_errors_are_shown_in_the_dialog(qtbot, hub, tmp_path):
    dialog = _dialog(qtbot, tmp_path, hub.endpoint)
    dialog.repo.setText("acme/missing")
    qtbot.mouseClick(dialog.download_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "was not found" in dialog.error.text(), timeout=10_000)
    assert dialog.isVisible() and not dialog.running()
    dialog.repo.setText("../../etc")
    qtbot.mouseClick(dialog.download_button, Qt.MouseButton.LeftButton)
    assert "organisation/name" in dialog.error.text()


class _Window(QWidget):
    """Stands in for MainWindow: the dialog finds the data dir through `paths`."""

    def __init__(self, home: Path) -> None:
        super().__init__()
        self.paths = resolve_paths(home)


def test_settings_get_a_model_fills_the_embedding_field(qtbot, hub, tmp_path):
    from desktop_rag.gui.views.settings_dialog import SettingsDialog

    window = _Window(tmp_path / "home")
    qtbot.addWidget(window)
    settings = SettingsDialog(Settings(hub_endpoint=hub.endpoint), "", window)
    ModelDownloads(window).serve_settings(settings)
    settings.show()
    qtbot.mouseClick(settings.get_model_button, Qt.MouseButton.LeftButton)
    dialog = settings.model_dialog
    assert dialog.endpoint() == hub.endpoint and dialog.data_dir == window.paths.data_dir
    with qtbot.waitSignal(dialog.finished, timeout=30_000):
        qtbot.mouseClick(dialog.download_button, Qt.MouseButton.LeftButton)
    expected = window.paths.data_dir / "models" / "intfloat--multilingual-e5-small"
    assert settings.embedding.text() == str(expected)
    assert settings.result_settings().embedding_model == str(expected)
    assert settings.result_settings().hub_endpoint == hub.endpoint
    settings.close()


def test_the_speed_note_follows_the_interface_language(qtbot, hub, tmp_path):
    """The catalog's speed note (the model list's tooltip) was English in a Chinese window."""
    i18n.set_language("zh")
    dialog = _dialog(qtbot, tmp_path, hub.endpoint)
    assert dialog.models.toolTip().startswith("在 2 个 CPU 核心上处理约 500 字符片段时的大致速度")
