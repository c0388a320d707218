"""A citation opens the passage of the answer it was clicked in, even when another answer's sources are shown."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl

from tests.gui.conftest import add_and_wait, llm_settings
from tests.support.chat_window import ask

TOPICS = {
    "heron.md": "# Herons\n\nThe grey heron builds its nest of sticks high in the alder trees by the lake.\n",
    "bakery.md": "# Sourdough\n\nA sourdough loaf needs a ripe starter, rye flour and a long cold overnight rise.\n",
}
SECOND = "What does a sourdough loaf need?"


def _ask(qtbot, window, question: str):
    """The answer's final message and its row in the chat."""
    return ask(qtbot, window, question), window.chat_model.last_assistant_row()


def test_a_citation_in_an_earlier_answer_opens_that_answers_passage(make_window, qtbot, tmp_path: Path,
                                                                     llm_server, monkeypatch):
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in TOPICS.items():
        (docs / name).write_text(text, encoding="utf-8")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    llm_server.tokens = ["See ", "[1]", "."]
    llm_server.reply_for = lambda body: None if body.get("stream") else SECOND  # the follow-up's rewrite
    window = make_window(llm_settings(llm_server, top_k=1))
    add_and_wait(qtbot, window, [str(docs)])
    first, first_row = _ask(qtbot, window, "Where does the grey heron build its nest?")
    second, second_row = _ask(qtbot, window, SECOND)
    heron, bread = dict(first.sources)[1].path, dict(second.sources)[1].path
    assert Path(heron).name == "heron.md" and Path(bread).name == "bakery.md"
    assert window.sources_model.hit(0).path == bread  # the last answer's sources are shown

    # The chat panel's signal, as MainWindow wires it: ShownSources.open_citation shows the first answer's
    # sources before the viewer looks up [1] in them.
    with qtbot.waitSignal(window.viewer.located, timeout=30_000) as blocker:
        window.chat_panel.messages.citation_clicked.emit(first_row, 1)
    assert blocker.args[0].path == heron and window.viewer.hit.path == heron
    location = blocker.args[0]
    assert location.found and "grey heron" in location.text[location.start:location.end]
    assert window.sources_model.hit(0).path == heron  # and the sources panel shows that answer's passages

    # The whole click on the [1] link of the first answer, while the second answer's sources are shown.
    window.chat.sources.select(second_row)
    assert window.sources_model.hit(0).path == bread
    bubble = window.chat_panel.messages.widget_at(first_row)
    with qtbot.waitSignal(window.viewer.located, timeout=30_000) as blocker:
        bubble.browser.anchorClicked.emit(QUrl("cite:1"))
    assert blocker.args[0].path == heron

    window.chat.sources.select(second_row)  # a sources row opens the passage of the answer shown
    with qtbot.waitSignal(window.viewer.located, timeout=30_000) as blocker:
        window.sources_panel.table.doubleClicked.emit(window.sources_model.index(0, 0))
    assert blocker.args[0].path == bread


def test_the_viewer_needs_no_main_window(qtbot, tmp_path: Path):
    """It gets only what it uses: the backend, the sources model and a parent for its window."""
    from PySide6.QtWidgets import QWidget

    from desktop_rag.config import resolve_paths
    from desktop_rag.engine.store.values import Hit
    from desktop_rag.gui.controllers.viewer_controller import ViewerController
    from desktop_rag.gui.models.sources import SourcesModel
    from desktop_rag.gui.threads.app_settings import AppSettings
    from desktop_rag.gui.threads.backend import Backend
    from tests.gui.conftest import FAST

    host = QWidget()
    qtbot.addWidget(host)
    paths = resolve_paths(tmp_path / "home")
    backend = Backend(paths, AppSettings(paths, FAST, host), host)
    sources = SourcesModel(host)
    viewer = ViewerController(backend, sources, host)
    doc = tmp_path / "heron.md"
    doc.write_text(TOPICS["heron.md"], encoding="utf-8")
    passage = "The grey heron builds its nest of sticks high in the alder trees by the lake."
    sources.set_sources(((4, Hit(1, 1.0, str(doc), None, "Herons", passage)),))
    try:
        with qtbot.waitSignal(viewer.located, timeout=30_000) as blocker:
            viewer.open_number(4)
        location = blocker.args[0]
        assert location.path == str(doc) and location.found and location.text[location.start:location.end] == passage
        assert viewer.view.parentWidget() is host and viewer.parent() is host
    finally:
        backend.shutdown()
