"""Make docs/screenshot-en.png and docs/screenshot-zh.png: the real window, sample documents, streamed answers;
and docs/screenshot-first-run.png: an empty library with no language model (start screen and model banner).

Run on a virtual screen:  xvfb-run -a -s "-screen 0 1600x1000x24" python -m tests.gui.make_screenshots
Options: --first-run-only (just the first-run picture), --out DIR (write somewhere else than docs/).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEventLoop, QTimer, QUrl

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.gui import i18n
from desktop_rag.gui.app import create_application
from tests.support import REPO
from tests.support.openai_server import run_openai_server

SAMPLES = REPO / "resources" / "samples"
FALLBACK_SAMPLES = REPO / "docs" / "screenshot_samples"
OUT = REPO / "docs"

EN_QUESTION = "What water temperature should I use for coffee, and how does green tea differ?"
ZH_QUESTION = "绿茶应该用多少度的水冲泡？用量是多少？"


def wait_until(predicate: Callable[[], bool], timeout_s: float = 120.0) -> None:
    """Spin the event loop until predicate() holds."""
    deadline = time.monotonic() + timeout_s
    loop = QEventLoop()
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("screenshot step timed out")
        QTimer.singleShot(20, loop.quit)
        loop.exec()


def number_of(window, question: str, name_part: str) -> int:
    """The [n] the engine will give the passage from a file whose name contains name_part."""
    hits = window.backend.engine.search(question)
    for i, hit in enumerate(hits, 1):
        if name_part in os.path.basename(hit.path):
            return i
    return 1


def ask(window, server, question: str, tokens: list[str]) -> None:
    server.tokens = tokens
    done: list[object] = []
    window.chat.answer_finished.connect(done.append)
    window.chat_panel.input.setPlainText(question)
    window.chat_panel.send_button.click()
    wait_until(lambda: bool(done))
    row = window.chat_model.last_assistant_row()
    bubble = window.chat_panel.messages.widget_at(row)
    bubble.browser.anchorClicked.emit(QUrl("cite:1"))  # as if the user clicked [1]
    wait_until(lambda: window.chat.conversation_id is not None and window.conversations_model.rowCount() > 0)


def grab(window, name: str, out: Path = OUT) -> Path:
    loop = QEventLoop()
    QTimer.singleShot(400, loop.quit)  # let layouts settle
    loop.exec()
    path = out / name
    window.grab().save(str(path))
    return path


def first_run(out: Path) -> Path:
    """A brand-new library without a language model: the start screen and the model banner."""
    from desktop_rag.gui.main_window import MainWindow

    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL"):
        os.environ.pop(name, None)
    with tempfile.TemporaryDirectory() as home:
        window = MainWindow(resolve_paths(home), Settings(ui_language="en"))
        window.resize(1480, 900)
        window.main_splitter.setSizes([380, 620, 480])
        window.show()
        wait_until(lambda: window.model_state[0] in ("ready", "error") and window.first_run.start_visible)
        path = grab(window, "screenshot-first-run.png", out)
        window.close()
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first-run-only", action="store_true")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    app = create_application()
    i18n.set_language("en")
    print(first_run(args.out))
    if args.first_run_only:
        app.quit()
        return 0
    samples = SAMPLES if SAMPLES.is_dir() and any(SAMPLES.iterdir()) else FALLBACK_SAMPLES
    from desktop_rag.gui.main_window import MainWindow

    with tempfile.TemporaryDirectory() as home, run_openai_server() as server:
        server.token_delay = 0.01
        os.environ["OPENAI_API_KEY"] = "screenshot-key"
        settings = Settings(llm_provider="custom", llm_base_url=server.base_url, llm_model="fake-model",
                            ui_language="en")
        window = MainWindow(resolve_paths(home), settings)
        window.resize(1480, 900)
        window.main_splitter.setSizes([380, 620, 480])
        window.show()
        wait_until(lambda: window.model_state[0] in ("ready", "error"))
        reports: list[object] = []
        window.index_finished.connect(reports.append)
        window.add_paths([str(samples)])
        wait_until(lambda: any(getattr(r, "added", 0) for r in reports) and not window.backend.busy)
        window.backend.refresh_status()
        tea = number_of(window, EN_QUESTION, "绿茶")
        ask(window, server, EN_QUESTION, [
            "For coffee, brew with water between **90 and 96 °C** [1]. ",
            "Hotter water pulls out bitter compounds, while cooler water leaves the cup sour and thin [1].\n\n",
            f"Green tea wants cooler water, about **80 °C**, so the tender leaves are not scalded [{tea}].\n\n",
            "- French press: coarse grind, about four minutes [1]\n",
            "- Pour-over: medium-fine grind, about three minutes [1]",
        ])
        window.chat.sources.select(window.chat_model.last_assistant_row())
        window.sources_panel.select_number(1)
        en = grab(window, "screenshot-en.png", args.out)

        i18n.set_language("zh")
        window.chat.new_conversation()
        ask(window, server, ZH_QUESTION, [
            "冲泡绿茶的水温一般在**八十度左右** [1]。",
            "水温过高会把嫩芽烫熟，使茶汤发苦发黄；水温过低则香气不易散发 [1]。\n\n",
            "用量方面，每一百五十毫升水放**三克左右**的茶叶比较合适，",
            "推荐使用玻璃杯或白瓷盖碗 [1]。",
        ])
        zh = grab(window, "screenshot-zh.png", args.out)
        window.close()
    print(en, zh)
    app.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
