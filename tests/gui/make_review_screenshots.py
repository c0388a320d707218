"""Pictures of grading (issue 39): the grade bar under an answer with a marked passage, and the Review view's three
pages, in English and in Chinese. Real window, the sample documents, a local OpenAI-compatible server.

Run on a virtual screen:  xvfb-run -a -s "-screen 0 1600x1000x24" python -m tests.gui.make_review_screenshots \
    --out /tmp/shots
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.gui import i18n
from desktop_rag.gui.app import create_application
from tests.gui.make_screenshots import EN_QUESTION, FALLBACK_SAMPLES, SAMPLES, ZH_QUESTION, ask, grab, wait_until
from tests.support.openai_server import run_openai_server

EN_TOKENS = ["For coffee, brew with water between **90 and 96 °C** [1]. ",
             "Green tea wants cooler water, about **80 °C** [2]."]
ZH_TOKENS = ["冲泡绿茶的水温一般在**八十度左右** [1]。", "每一百五十毫升水放**三克左右**的茶叶 [1]。"]


def grade_last(window, grade: str, passage: int) -> None:
    row = window.chat_model.last_assistant_row()
    window.chat_panel.messages.widget_at(row).grade_bar.buttons[grade].click()
    window.chat.sources.select(row)
    window.sources_panel.select_number(passage)
    window.sources_panel.mark_button.click()
    wait_until(lambda: window.backend.reader.pending == 0)


def review_pictures(window, lang: str, out: Path) -> list[Path]:
    window.review.open()
    view = window.review.view
    view.resize(980, 700)
    wait_until(lambda: view.overview.table.rowCount() > 0 and window.backend.reader.pending == 0)
    paths = [grab(view, f"review-overview-{lang}.png", out)]
    view.tabs.setCurrentWidget(view.spot)
    paths.append(grab(view, f"review-spot-{lang}.png", out))
    view.tabs.setCurrentWidget(view.measure)
    view.measure.run_button.click()
    wait_until(lambda: window.review.measuring is None and view.measure.table.rowCount() > 0)
    paths.append(grab(view, f"review-measure-{lang}.png", out))
    view.close()
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    app = create_application()
    samples = SAMPLES if SAMPLES.is_dir() and any(SAMPLES.iterdir()) else FALLBACK_SAMPLES
    from desktop_rag.gui.main_window import MainWindow

    paths: list[Path] = []
    with tempfile.TemporaryDirectory() as home, run_openai_server() as server:
        os.environ["OPENAI_API_KEY"] = "screenshot-key"
        settings = Settings(llm_provider="custom", llm_base_url=server.base_url, llm_model="fake-model",
                            ui_language="en", translate_queries=False)
        i18n.set_language("en")
        window = MainWindow(resolve_paths(home), settings)
        window.resize(1480, 900)
        window.main_splitter.setSizes([340, 660, 480])
        window.show()
        wait_until(lambda: window.model_state[0] in ("ready", "error"))
        reports: list[object] = []
        window.index_finished.connect(reports.append)
        window.add_paths([str(samples)])
        wait_until(lambda: any(getattr(r, "added", 0) for r in reports) and not window.backend.busy)
        for question in ("How long should a French press steep?", "What grind for pour-over?"):
            window.chat.new_conversation()
            ask(window, server, question, ["About four minutes [1]."])  # ungraded: for the spot check
        window.chat.new_conversation()
        ask(window, server, EN_QUESTION, EN_TOKENS)
        grade_last(window, "partly", 2)
        paths.append(grab(window, "grade-bar-en.png", args.out))
        paths += review_pictures(window, "en", args.out)
        i18n.set_language("zh")
        window.chat.new_conversation()
        ask(window, server, ZH_QUESTION, ZH_TOKENS)
        grade_last(window, "right", 1)
        paths.append(grab(window, "grade-bar-zh.png", args.out))
        paths += review_pictures(window, "zh", args.out)
        window.close()
    print("\n".join(map(str, paths)))
    app.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
