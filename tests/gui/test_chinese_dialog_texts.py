"""With the interface in Chinese, the dialogs' own words are Chinese too: the provider names Settings offers, and
Qt's standard buttons (OK, Cancel, Yes, No, Close), whose translations Qt ships but the app does not load."""

from __future__ import annotations


import pytest
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

from desktop_rag.config import Settings
from desktop_rag.engine import PRESETS
from desktop_rag.gui import i18n
from desktop_rag.gui.app import create_application
from desktop_rag.gui.views.settings_dialog import SettingsDialog


@pytest.fixture
def chinese() -> None:
    i18n.set_language("zh")


def test_the_providers_are_named_in_the_interface_language(qtbot, chinese) -> None:
    dialog = SettingsDialog(Settings(), "")
    qtbot.addWidget(dialog)
    names = {dialog.provider.itemData(i): dialog.provider.itemText(i) for i in range(1, dialog.provider.count())}
    assert set(names) == set(PRESETS)
    assert names["ollama"] == "Ollama（本地）" and names["lmstudio"] == "LM Studio（本地）"
    assert names["custom"] == "自定义接口" and names["zhipu"] == "智谱 GLM"
    assert names["openai"] == "OpenAI"  # a brand stays as it is
    i18n.set_language("en")
    english = SettingsDialog(Settings(), "")
    qtbot.addWidget(english)
    assert [english.provider.itemText(i) for i in range(1, english.provider.count())] == \
        [preset.label.text("en") for preset in PRESETS.values()]


def test_the_standard_buttons_follow_the_interface_language(qtbot, chinese) -> None:
    create_application()
    settings = SettingsDialog(Settings(), "")
    qtbot.addWidget(settings)
    ok, cancel = QDialogButtonBox.StandardButton.Ok, QDialogButtonBox.StandardButton.Cancel
    assert (settings.buttons.button(ok).text(), settings.buttons.button(cancel).text()) == ("确定", "取消")
    closing = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)  # "What was sent"
    qtbot.addWidget(closing)
    assert closing.button(QDialogButtonBox.StandardButton.Close).text() == "关闭"
    yes, no = QMessageBox.StandardButton.Yes, QMessageBox.StandardButton.No
    question = QMessageBox(QMessageBox.Icon.Question, "移除", "从资料库中移除？", yes | no)
    qtbot.addWidget(question)
    assert (question.button(yes).text(), question.button(no).text()) == ("是(&Y)", "否(&N)")

    i18n.set_language("en")  # Qt's own words again
    english = QMessageBox(QMessageBox.Icon.Question, "Remove", "Remove?", yes | no)
    qtbot.addWidget(english)
    assert (english.button(yes).text(), english.button(no).text()) == ("&Yes", "&No")
    settings = SettingsDialog(Settings(), "")
    qtbot.addWidget(settings)
    assert settings.buttons.button(ok).text() == "OK"


def test_a_settings_problem_names_the_provider_in_the_interface_language(qtbot, chinese) -> None:
    """Why no model is used, as the Settings connection test says it: the provider as the list names it (issue: a
    Chinese message said "Ollama (local)")."""
    dialog = SettingsDialog(Settings(llm_provider="ollama"), "")
    qtbot.addWidget(dialog)
    dialog.model.setText("")
    dialog.check_connection()  # no model name: the problem shows at once, nothing is sent
    shown = dialog.test_result.text()
    assert "没有为Ollama（本地）设置模型名称" in shown and "(local)" not in shown
    assert dialog.provider.currentText() in shown
    dialog.provider.setCurrentIndex(dialog.provider.findData("deepseek"))
    dialog.check_connection()  # no key for a remote provider
    assert "没有为DeepSeek设置 API 密钥" in dialog.test_result.text()
    i18n.set_language("en")
    english = SettingsDialog(Settings(llm_provider="lmstudio"), "")
    qtbot.addWidget(english)
    english.model.setText("")
    english.check_connection()
    assert "No model name is set for LM Studio (local)." in english.test_result.text()
