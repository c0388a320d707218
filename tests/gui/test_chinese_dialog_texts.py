"""With the interface in Chinese, the dialogs' own words are Chinese too: the provider names Settings offers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from desktop_rag.config import Settings
from desktop_rag.engine import PRESETS
from desktop_rag.gui import i18n
from desktop_rag.gui.views.settings_dialog import SettingsDialog


@pytest.fixture
def chinese() -> Iterator[None]:
    i18n.set_language("zh")
    yield
    i18n.set_language("en")


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
        [preset.label for preset in PRESETS.values()]
