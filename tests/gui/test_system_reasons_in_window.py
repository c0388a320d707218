"""The window says the system's reason in its language: a Chinese window showed "无法连接位于 … 的模型服务器
（Connection refused）", the Settings connection test "…（Name or service not known）", a key that could not be saved
"…（[Errno 13] Permission denied: '…/.env.…'）". Real failures, real window, offscreen: a closed loopback port, a host
name under .invalid, a config folder this user may not write."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from desktop_rag.config import Settings
from desktop_rag.gui import i18n
from tests.gui.conftest import FAST, add_and_wait, write_docs
from tests.support.english import english_sentence
from tests.support.read_only import unwritable
from tests.support.unreachable import closed_port_url, resolver_words


def test_an_answer_whose_model_server_refuses_says_why_in_either_language(make_window, qtbot, tmp_path, monkeypatch):
    """The answer's error is kept as its Reason, the system's reason inside it as a code: a language switch says
    both again."""
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    address = closed_port_url()
    write_docs(tmp_path / "docs", 1)
    window = make_window(FAST.replace(llm_provider="custom", llm_base_url=address, llm_model="fake-model"))
    add_and_wait(qtbot, window, [str(tmp_path / "docs")])
    with qtbot.waitSignal(window.chat.answer_finished, timeout=60_000):
        window.chat_panel.input.setPlainText("What is topic0?")
        window.chat_panel.send_button.click()
    bubble = window.chat_panel.messages.widget_at(window.chat_model.last_assistant_row())
    english = bubble.notice_label.text()
    assert f"Could not reach the model server at {address} (Connection refused)." in english, english
    i18n.set_language("zh")
    chinese = bubble.notice_label.text()
    assert f"无法连接位于 {address} 的模型服务器（连接被拒绝）。" in chinese, chinese
    assert "Connection refused" not in chinese and english_sentence(chinese) is None, chinese


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_connection_test_to_a_name_that_does_not_resolve(make_window, qtbot, language):
    english_words = resolver_words()
    i18n.set_language(language)
    window = make_window(FAST.replace(ui_language=language))
    window.settings_flow.open()
    dialog = window.settings_flow.dialog
    dialog.provider.setCurrentIndex(dialog.provider.findData("custom"))
    dialog.base_url.setText("https://nosuch.invalid/v1")
    dialog.model.setText("fake-model")
    dialog.key.setText("sk-test-0123456789")
    dialog.check_connection()
    qtbot.waitUntil(lambda: not dialog.testing, timeout=60_000)
    shown = dialog.test_result.text()
    if language == "en":
        assert f"Could not reach the model server at https://nosuch.invalid/v1 ({english_words})." in shown, shown
    else:
        assert "无法连接位于 https://nosuch.invalid/v1 的模型服务器（找不到该主机名）。" in shown, shown
        assert english_words not in shown and english_sentence(shown) is None, shown
    dialog.reject()


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_key_this_user_may_not_save_says_why_in_either_language(make_window, qtbot, monkeypatch, language):
    """A folder that refuses new files: the system's reason (permission denied; for root, an immutable folder: not
    permitted), with the file, in the interface's language."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    i18n.set_language(language)
    window = make_window(Settings(embedding_model="hash:64", ui_language=language))
    owner = window.app_settings
    with unwritable(window.paths.config_dir):
        with qtbot.waitSignal(owner.key_save_failed, timeout=10_000):
            owner.save_api_key("sk-new-key-fedcba9876543210")
    boxes = [b for b in window.findChildren(QMessageBox) if b.isVisible()]
    assert len(boxes) == 1
    text = boxes[0].text()
    said = {"en": ("Permission denied: ", "Operation not permitted: "), "zh": ("没有权限：", "不允许此操作：")}[language]
    assert any(f"{words}{window.paths.config_dir}" in text for words in said), text
    assert "Errno" not in text, text
    if language == "zh":
        assert "Permission denied" not in text and "not permitted" not in text and english_sentence(text) is None
    boxes[0].close()


def test_the_connection_tests_result_is_never_seen_in_another_language(make_window, qtbot):
    """The Settings dialog's test result is worded once, when it arrives: the language it would need to follow
    changes only once the dialog has closed (OK applies it), and the dialog is gone by then. While it is open it is
    window-modal, so nothing else in the window can switch the language."""
    from PySide6.QtCore import Qt
    from shiboken6 import isValid

    window = make_window()
    window.settings_flow.open()
    dialog = window.settings_flow.dialog
    assert dialog.isModal() and dialog.windowModality() == Qt.WindowModality.WindowModal
    dialog.language.setCurrentIndex(dialog.language.findData("zh"))
    dialog.provider.setCurrentIndex(dialog.provider.findData("custom"))
    dialog.base_url.setText(closed_port_url())
    dialog.model.setText("fake-model")
    dialog.check_connection()
    qtbot.waitUntil(lambda: not dialog.testing, timeout=60_000)
    assert i18n.language() == "en" and "(Connection refused)" in dialog.test_result.text()
    alive_at_switch: list[bool] = []
    window.app_settings.changed.connect(lambda old, new: alive_at_switch.append(isValid(dialog)))
    with qtbot.waitSignal(window.app_settings.changed, timeout=30_000):
        dialog.accept()
    assert alive_at_switch == [False]  # the dialog was deleted before the switch was announced
    assert i18n.language() == "zh" and window.settings_flow.dialog is None


def test_a_cancelled_settings_dialog_is_not_kept(make_window, qtbot):
    """Cancel left the dialog hidden under the window until it closed (one more each time Settings was opened)."""
    from shiboken6 import isValid

    window = make_window()
    window.settings_flow.open()
    dialog = window.settings_flow.dialog
    dialog.reject()
    qtbot.waitUntil(lambda: not isValid(dialog), timeout=10_000)
    assert window.settings_flow.dialog is None
