"""Settings (key storage, presets, connection test, re-index prompt), UI language, remembered layout, safe Markdown."""

from __future__ import annotations

import logging
import os
import stat

from PySide6.QtWidgets import QMessageBox

from desktop_rag.gui import i18n
from desktop_rag.gui.text import answer_markdown
from desktop_rag.gui.views.settings_dialog import SettingsDialog
from tests.gui.conftest import FAST, add_and_wait, llm_settings, wait_idle, write_docs


def test_api_key_saved_owner_only_and_connection_test(make_window, qtbot, llm_server, caplog):
    _capture_everything_first(caplog)
    window = make_window(llm_settings(llm_server))
    dialog = SettingsDialog(window.settings, "", window)
    qtbot.addWidget(dialog)
    window.settings_flow.serve(dialog)  # the controller runs the test the dialog asks for
    dialog.provider.setCurrentIndex(dialog.provider.findData("deepseek"))
    assert dialog.base_url.text() == "https://api.deepseek.com/v1" and dialog.model.text() == "deepseek-chat"
    dialog.base_url.setText(llm_server.base_url)
    dialog.model.setText("fake-model")
    dialog.key.setText("sk-secret-key-123456789")
    assert dialog.key.echoMode() == dialog.key.EchoMode.Password
    dialog.check_connection()
    qtbot.waitUntil(lambda: "Connected" in dialog.test_result.text(), timeout=20_000)

    with qtbot.waitSignal(window.app_settings.key_saved, timeout=10_000):  # written on the settings thread
        window.settings_flow.apply(dialog.result_settings(), dialog.api_key())
    env_file = window.paths.env_file
    assert stat.S_IMODE(os.stat(env_file).st_mode) == 0o600
    assert "OPENAI_API_KEY='sk-secret-key-123456789'" in env_file.read_text()
    assert os.environ["OPENAI_API_KEY"] == "sk-secret-key-123456789"
    wait_idle(qtbot, window)
    # the capture saw the connection test's request, down to DEBUG, and the key nowhere
    assert "/chat/completions" in caplog.text and any(r.levelno == logging.DEBUG for r in caplog.records)
    assert "sk-secret-key-123456789" not in caplog.text
    os.environ.pop("OPENAI_API_KEY")


def _capture_everything_first(caplog) -> None:
    """Every record at every level, as logged: independent of the levels and handlers earlier tests left behind.

    caplog's handler goes first, so it sees each message before a redacting log-file handler rewrites it.
    """
    caplog.set_level(logging.DEBUG)
    root = logging.getLogger()
    root.removeHandler(caplog.handler)
    root.handlers.insert(0, caplog.handler)


def test_changing_chunk_size_asks_then_reindexes(make_window, qtbot, tmp_path, monkeypatch):
    write_docs(tmp_path / "docs", count=3)
    window = make_window()
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    asked = []

    def yes(*args, **kwargs):
        asked.append(args)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", yes)
    with qtbot.waitSignal(window.index_finished, timeout=60_000, check_params_cb=lambda r: r.updated == 3):
        window.settings_flow.apply(FAST.replace(chunk_size=200, chunk_overlap=20))
    assert asked
    wait_idle(qtbot, window)
    assert window.backend.engine.settings.chunk_size == 200
    assert window.last_status.files_indexed == 3


def test_language_switch_and_layout_is_remembered(make_window, qtbot, tmp_path):
    home = tmp_path / "home"
    window = make_window(FAST.replace(ui_language="zh"), home=home)
    assert window.library_panel.add_folder_button.text() == "添加文件夹…"
    assert window.library_model.headerData(0, __import__("PySide6.QtCore").QtCore.Qt.Orientation.Horizontal) == "名称"
    i18n.set_language("en")
    assert window.library_panel.add_folder_button.text() == "Add folder…"
    window.resize(760, 540)  # the offscreen screen is 800x600
    window.main_splitter.setSizes([180, 330, 230])
    sizes = window.main_splitter.sizes()
    wait_idle(qtbot, window)
    window.close()
    assert (home / "config" / "window.ini").exists()

    again = make_window(FAST, home=home)
    assert again.size().width() == 760 and again.main_splitter.sizes() == sizes
    wait_idle(qtbot, again)


def test_markdown_is_escaped_and_citations_linked():
    md = answer_markdown('Hi <img src="http://evil/x.png"> <script>x</script> see [1] and `[2] <b>` [3](http://a)', 3)
    assert "<img" not in md.replace("\\<img", "") and "\\<script>" in md
    assert "(cite:1)" in md and "`[2] <b>`" in md and "(cite:3)" not in md
