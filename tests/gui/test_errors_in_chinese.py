"""With the interface in Chinese, no error the GUI shows holds an English sentence: every error text of the engine's
table (walked one by one, as a coded error and as the Reason a failed file or an answer carries), an
engine error from a worker, a failed file of an index run, a failed answer, a failed model download and the crash
dialog."""

from __future__ import annotations

import string
import sys

import pytest
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QMessageBox

from desktop_rag.engine import DesktopRagError, Reason, UsageError
from desktop_rag.engine.error_texts import ERROR_TEXTS
from desktop_rag.engine.messages import WINDOW, message
from desktop_rag.gui import crash_handler, i18n
from desktop_rag.gui.models.library import COL_STATE
from tests.gui.conftest import FAST, add_and_wait, llm_settings, write_docs
from tests.support.english import english_sentence


@pytest.fixture(autouse=True)
def chinese() -> None:
    i18n.set_language("zh")


def _sample_values(text: str) -> dict[str, str]:
    """A value for each field of `text`: a short token, as a file name or a number would be."""
    return {field: f"V{n}" for n, (_, field, _, _) in enumerate(string.Formatter().parse(text)) if field}


@pytest.mark.parametrize("key", sorted(k for k in ERROR_TEXTS if k.startswith("error.")))
def test_every_error_text_is_shown_in_chinese(key: str) -> None:
    texts = ERROR_TEXTS[key]
    values = _sample_values(texts["en"])
    english = message(key, "en", **values)
    assert english_sentence(english) or len(english.split()) < 4, key  # the check sees English where it is
    coded = DesktopRagError.coded(key.removeprefix("error."), **values)
    chinese = message(key, "zh", WINDOW, **values)
    assert i18n.error(coded) == chinese
    assert i18n.error(Reason.of(coded)) == chinese, "a failure passed on keeps its code"
    assert english_sentence(chinese) is None, chinese


def test_an_engine_error_from_a_worker(qtbot) -> None:
    from desktop_rag.gui.threads.worker_pool import WorkerPool

    owner = QObject()
    pool = WorkerPool("test-errors-zh", 1, owner)

    def fail() -> None:
        raise UsageError.coded("collection_exists", name="Work")

    worker = pool.start(fail)
    with qtbot.waitSignal(worker.errored, timeout=5_000) as blocker:
        pass
    assert blocker.args[0] == "名为“Work”的知识库已存在。"
    pool.shutdown()


def test_a_failed_file_of_an_index_run(make_window, qtbot, tmp_path) -> None:
    docs = tmp_path / "docs"
    write_docs(docs, count=1)
    (docs / "fake.pdf").write_bytes(b"this is not a PDF at all")
    window = make_window(FAST.replace(ui_language="zh"))
    add_and_wait(qtbot, window, [str(docs)])
    row = window.library_model.index_of(str(docs / "fake.pdf"))
    shown = row.siblingAtColumn(COL_STATE).data(Qt.ItemDataRole.ToolTipRole)
    assert message("error.not_pdf", "zh") in shown and english_sentence(shown) is None, shown
    i18n.set_language("en")  # the stored reason is its code: the same row reads in English again
    assert message("error.not_pdf") in row.siblingAtColumn(COL_STATE).data(Qt.ItemDataRole.ToolTipRole)


def test_a_failed_answer(make_window, qtbot, tmp_path, llm_server, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    write_docs(tmp_path / "docs", count=2)
    window = make_window(llm_settings(llm_server, ui_language="zh"))
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    llm_server.fail_next(401, times=2, code="invalid_api_key", message="bad key")  # rewrite + answer
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000):
        window.chat_panel.input.setPlainText("What is topic0?")
        window.chat_panel.send_button.click()
    bubble = window.chat_panel.messages.widget_at(window.chat_model.last_assistant_row())
    shown = bubble.notice_label.text()
    assert "拒绝了 API 密钥" in shown and english_sentence(shown.replace("bad key", "")) is None, shown


def test_a_failed_model_download(qtbot, tmp_path) -> None:
    from desktop_rag.gui.controllers.settings_work import ModelDownloads
    from desktop_rag.gui.views.model_download_dialog import ModelDownloadDialog
    from tests.support.hub_server import run_hub_server

    with run_hub_server() as hub:
        dialog = ModelDownloadDialog(tmp_path, hub.endpoint)
        qtbot.addWidget(dialog)
        ModelDownloads(dialog).serve(dialog)
        dialog.show()
        dialog.repo.setText("acme/missing")
        qtbot.mouseClick(dialog.download_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: dialog.error.text() != "", timeout=10_000)
        assert "找不到 acme/missing" in dialog.error.text() and english_sentence(dialog.error.text()) is None
        dialog.repo.setText("../../etc")
        qtbot.mouseClick(dialog.download_button, Qt.MouseButton.LeftButton)
        assert "不是“组织/名称”形式的模型名称" in dialog.error.text()
        qtbot.waitUntil(lambda: not dialog.running(), timeout=5_000)


class _Button(QObject):
    clicked = Signal()


@pytest.mark.qt_no_exception_capture
@pytest.mark.parametrize("error", [ValueError("something broke in an English sentence"),
                                   UsageError.coded("collection_gone")])
def test_the_crash_dialog(qtbot, tmp_path, error: Exception) -> None:
    from desktop_rag import logs
    from desktop_rag.config import resolve_paths

    saved = sys.excepthook
    log_file = logs.setup_logging(resolve_paths(tmp_path / "home"))
    crash_handler.install_excepthook(log_file)
    try:
        button = _Button()

        def fail() -> None:
            raise error

        button.clicked.connect(fail)
        button.clicked.emit()
        qtbot.waitUntil(lambda: crash_handler.crash_dialog() is not None, timeout=5_000)
        box = crash_handler.crash_dialog()
        shown = box.windowTitle() + box.text() + box.informativeText()
        assert "意外错误" in box.windowTitle() and english_sentence(shown) is None, shown
        if isinstance(error, DesktopRagError):
            assert "该知识库已不存在。" in box.text()
        else:  # named by its type; its English words stay in the details (the traceback)
            assert "程序内部错误（ValueError）" in box.text() and str(error) in box.detailedText()
        box.button(QMessageBox.StandardButton.Ok).click()
    finally:
        sys.excepthook = saved
        logs.shutdown_logging()


def test_the_connection_test_without_a_model(qtbot) -> None:
    from desktop_rag.config import Settings
    from desktop_rag.gui.controllers.settings_work import ConnectionTests
    from desktop_rag.gui.views.settings_dialog import SettingsDialog

    dialog = SettingsDialog(Settings(), "")
    qtbot.addWidget(dialog)
    ConnectionTests(dialog).serve(dialog)
    dialog.check_connection()
    shown = dialog.test_result.text()
    assert shown.startswith("未配置语言模型") and english_sentence(shown) is None, shown
