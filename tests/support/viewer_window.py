"""The viewer opened from an answer in a test's main window: the documents it is tested on (a PDF of six bird pages,
a long Markdown file with one passage to find), an answer citing them, a click on its [n] link, a passage opened
at its page."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl

from tests.gui.conftest import add_and_wait, llm_settings
from tests.support.chat_window import ask

# Six pages, each one short passage (one chunk per page); the target is on page 4.
BIRDS = ["robin", "sparrow", "finch", "heron", "falcon", "owl"]
TARGET_PAGE = 4
MD_TARGET = "Prune the climbing roses in late winter, cutting each cane just above an outward-facing bud."


def bird_pages() -> list[list[str]]:
    """The lines of the six pages, a bird each."""
    return [[f"Chapter {i + 1}: the {bird}",
             f"The {bird} builds its nest near the quiet water of the",
             f"northern lakes, where the {bird} raises two broods each",
             f"summer and leaves the {bird} colony before the frost."] for i, bird in enumerate(BIRDS)]


def long_markdown(path: Path, target: str) -> None:
    """A Markdown file of 240 paragraphs of filler with `target` alone in the middle, under "## Roses"."""
    filler = "\n\n".join(f"Paragraph {i}: general remarks about gardening tools and soil." for i in range(120))
    path.write_text(f"# Garden notes\n\n{filler}\n\n## Roses\n\n{target}\n\n{filler}\n", encoding="utf-8")


def window_with_answer(make_window, qtbot, llm_server, monkeypatch, docs: list[Path], question: str):
    """A window that indexed `docs` and answered `question` citing [1] and [2]: (window, the answer's message)."""
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    llm_server.tokens = ["See ", "[1]", " and ", "[2]", "."]
    window = make_window(llm_settings(llm_server))
    add_and_wait(qtbot, window, [str(p) for p in docs])
    return window, ask(qtbot, window, question)


def number_of(message, predicate) -> int:
    """The [n] of the first source of `message` that `predicate` holds for."""
    return next(n for n, hit in message.sources if predicate(hit))


def click_citation(qtbot, window, number: int, row: int | None = None):
    """What a click on the [n] link of the answer at `row` (the last one) delivers; waits until the viewer has shown
    the passage."""
    bubble = window.chat_panel.messages.widget_at(window.chat_model.last_assistant_row() if row is None else row)
    with qtbot.waitSignal(window.viewer.located, timeout=30_000) as blocker:
        bubble.browser.anchorClicked.emit(QUrl(f"cite:{number}"))
    return blocker.args[0]


def shown_at_page(qtbot, viewer, hit, page: int) -> None:
    """Open `hit` as passage [1] in `viewer` and wait until it shows page `page` (0-based)."""
    with qtbot.waitSignal(viewer.page_shown, timeout=60_000, check_params_cb=lambda i: i == page):
        viewer.open_passages(((1, hit),), 0)
