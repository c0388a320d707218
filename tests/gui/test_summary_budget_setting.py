"""The summary request size in Settings (issue 40): "Automatic (from the model)" by default, a number of tokens
when set (never below 1000), saved and used by the engine's next summary plan; English and Chinese labels."""

from __future__ import annotations

from desktop_rag.config import load_settings
from desktop_rag.gui import i18n
from desktop_rag.gui.views.settings_dialog import SettingsDialog
from tests.gui.conftest import form_label, llm_settings, wait_idle


def test_the_summary_budget_is_automatic_until_set(make_window, qtbot, llm_server):
    window = make_window(llm_settings(llm_server))
    dialog = SettingsDialog(window.settings, "", window)
    qtbot.addWidget(dialog)
    spin = dialog.summary_budget
    assert spin.value() == 0 and spin.text() == "Automatic (from the model)"
    assert form_label(dialog, spin) == "Summary request size (tokens)"
    assert dialog.result_settings().summary_budget_tokens == 0
    spin.setValue(500)
    assert dialog.result_settings().summary_budget_tokens == 1000  # the least that works
    spin.setValue(12000)
    window.settings_flow.apply(dialog.result_settings(), dialog.api_key())
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: window.backend.engine.settings.summary_budget_tokens == 12000, timeout=10_000)
    assert load_settings(window.paths).summary_budget_tokens == 12000
    i18n.set_language("zh")
    dialog = SettingsDialog(window.settings.replace(summary_budget_tokens=0), "", window)
    qtbot.addWidget(dialog)
    assert dialog.summary_budget.text() == "自动（按模型）"
    assert form_label(dialog, dialog.summary_budget) == "总结的单次请求大小（token）"
