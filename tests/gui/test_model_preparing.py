"""A model's first use on the fast runtime builds its files (the bundled MiniLM's ONNX export here, about 10 s):
the status bar says so, step by step, and then names the model ready; the window never waits for it."""

from __future__ import annotations

import re
import time

from desktop_rag.config import BUNDLED_MODEL, Settings


def test_the_status_bar_shows_the_first_use_preparation(make_window, qtbot, tmp_path):
    seen: list[str] = []
    started = time.monotonic()
    window = make_window(Settings(embedding_model=BUNDLED_MODEL, ui_language="en"), home=tmp_path / "fresh")
    assert time.monotonic() - started < 5.0  # the window is up before the build
    qtbot.waitUntil(lambda: seen.append(window.model_label.text()) or window.model_state[0] in ("ready", "error"),
                    timeout=120_000)
    assert window.model_state[0] == "ready", window.model_state
    steps = [t for t in seen if t.startswith("Preparing the embedding model")]
    assert steps and "step 1 of 1" in steps[0], seen[:5]
    shown = [tuple(map(int, re.search(r"step (\d+) of (\d+)", t).groups())) for t in steps]
    assert all(done <= total for done, total in shown), shown  # never "step 2 of 1" while verifying
    assert window.model_label.text().endswith(BUNDLED_MODEL)
    assert window.backend.engine.runtime.embedder().runtime == "OnnxEmbedder"
    assert (tmp_path / "fresh" / "models" / ".onnx").is_dir()
