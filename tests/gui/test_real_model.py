"""With default Settings (the bundled embedding model): the window opens before the model loads; search works."""

from __future__ import annotations

import pytest

from desktop_rag.config import Settings
from tests.gui.conftest import add_and_wait

pytestmark = pytest.mark.slow


def test_bundled_model_loads_in_background_and_answers(make_window, qtbot, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "cats.md").write_text("# Cats\n\nCats are small domesticated felines that purr and hunt mice.\n",
                                  encoding="utf-8")
    (docs / "rockets.md").write_text("# Rockets\n\nA rocket engine burns propellant to produce thrust.\n",
                                     encoding="utf-8")
    window = make_window(Settings())
    assert window.model_state[0] == "loading"  # the window is up before the model
    qtbot.waitUntil(lambda: window.model_state[0] in ("ready", "error"), timeout=120_000)
    assert window.model_state[0] == "ready", window.model_state
    add_and_wait(qtbot, window, [str(docs)], timeout=120_000)
    assert window.last_status.chunks_pending_embedding == 0

    with qtbot.waitSignal(window.chat.answer_finished, timeout=60_000) as blocker:
        window.chat_panel.input.setPlainText("Which animal purrs?")
        window.chat_panel.send_button.click()
    message = blocker.args[0]
    assert message.mode == "extractive"
    assert window.sources_model.hit(0).path.endswith("cats.md")
