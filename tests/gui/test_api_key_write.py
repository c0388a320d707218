"""The API key's .env write (Settings → OK) happens on the settings thread, never the GUI thread; a write that
fails says why in a message and leaves the old key in the file and in use."""

from __future__ import annotations

import logging
import os
import stat

import pytest
from PySide6.QtWidgets import QMessageBox

from desktop_rag import config
from desktop_rag.gui import i18n
from tests.gui.conftest import thread_name
from tests.support.read_only import unwritable

OLD_KEY = "sk-old-key-0123456789abcdef"
NEW_KEY = "sk-new-key-fedcba9876543210"


@pytest.fixture
def env_writes(monkeypatch):
    """The thread of every .env write (the real write runs: this only records where)."""
    threads: list[str] = []
    write = config.atomic_write_text

    def audited(path, text, mode=None):
        if os.path.basename(path) == ".env":  # (settings.json is written the same way)
            threads.append(thread_name())
        return write(path, text, mode)

    monkeypatch.setattr(config, "atomic_write_text", audited)  # what config.write_env_value writes .env with
    return threads


def test_the_key_is_written_off_the_gui_thread_atomically_owner_only(make_window, qtbot, env_writes, caplog,
                                                                     monkeypatch):
    caplog.set_level(logging.DEBUG)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    window = make_window()
    (window.paths.config_dir / ".env").write_text("OTHER_SETTING=1\n", encoding="utf-8")
    with qtbot.waitSignal(window.app_settings.key_saved, timeout=10_000):
        window.settings_flow.apply(window.settings, NEW_KEY)
        assert os.environ.get("OPENAI_API_KEY") is None  # in use only once the file holds it
    assert env_writes == ["desktop-rag-settings"]
    env_file = window.paths.env_file
    assert stat.S_IMODE(env_file.stat().st_mode) == 0o600
    assert env_file.read_text(encoding="utf-8") == f"OTHER_SETTING=1\nOPENAI_API_KEY='{NEW_KEY}'\n"
    assert [p.name for p in window.paths.config_dir.iterdir() if p.name.startswith(".env")] == [".env"]
    assert os.environ["OPENAI_API_KEY"] == NEW_KEY
    assert NEW_KEY not in caplog.text


def test_a_failed_write_says_why_and_keeps_the_old_key(make_window, qtbot, env_writes, caplog, monkeypatch):
    caplog.set_level(logging.DEBUG)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    window = make_window()
    owner = window.app_settings  # the key alone (SettingsFlow.apply would save the settings after it too)
    with qtbot.waitSignal(owner.key_saved, timeout=10_000):
        owner.save_api_key(OLD_KEY)
    env_file = window.paths.env_file
    before = env_file.read_bytes()

    with unwritable(window.paths.config_dir):
        with qtbot.waitSignal(owner.key_save_failed, timeout=10_000) as failed:
            owner.save_api_key(NEW_KEY)
        assert not owner.saving
    reason = failed.args[0]
    assert env_writes == ["desktop-rag-settings", "desktop-rag-settings"]
    assert env_file.read_bytes() == before and os.environ["OPENAI_API_KEY"] == OLD_KEY
    boxes = [b for b in window.findChildren(QMessageBox) if b.isVisible()]
    assert len(boxes) == 1
    text = boxes[0].text()
    assert text.startswith(f"The API key could not be saved to {env_file} (") and i18n.error(reason) in text
    assert "The previous key stays in use" in text and reason and NEW_KEY not in text
    boxes[0].close()
    assert NEW_KEY not in caplog.text and OLD_KEY not in caplog.text
