"""Make docs/screenshot-viewer-pdf.png and docs/screenshot-viewer-docx-zh.png: a citation opened in the viewer.

Run on a virtual screen:  xvfb-run -a -s "-screen 0 1600x1000x24" python -m tests.gui.make_viewer_screenshots
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QUrl

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.gui import i18n
from desktop_rag.gui.app import create_application
from tests.data.make_fixtures import build_pdf
from tests.gui.make_screenshots import wait_until
from tests.support import REPO
from tests.support.openai_server import run_openai_server

OUT = REPO / "docs"
EN_PAGES = [
    ["Brewing guide: coffee", "Grind the beans just before brewing; ground coffee loses its aroma",
     "within minutes. Use about sixty grams of coffee per litre of water."],
    ["Brewing guide: water temperature", "Brew coffee with water between 90 and 96 degrees Celsius.",
     "Hotter water pulls out bitter compounds, while cooler water leaves",
     "the cup sour and thin. Let boiling water rest for thirty seconds."],
    ["Brewing guide: methods", "French press: coarse grind, about four minutes of steeping.",
     "Pour-over: medium-fine grind, about three minutes in total."],
]
ZH_PARAGRAPHS = [
    "绿茶是未经发酵的茶，保留了鲜叶的天然物质。",
    "冲泡绿茶的水温一般在八十度左右。水温过高会把嫩芽烫熟，使茶汤发苦发黄；水温过低则香气不易散发。",
    "用量方面，每一百五十毫升水放三克左右的茶叶比较合适，推荐使用玻璃杯或白瓷盖碗。",
    "红茶属于全发酵茶，宜用沸水冲泡，浸泡三到五分钟。",
]


def _docx(path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_heading("泡茶指南", level=0)
    document.add_heading("器具与水", level=1)
    for i, topic in enumerate(("紫砂壶", "盖碗", "玻璃杯", "公道杯", "山泉水", "纯净水")):
        document.add_paragraph(f"{topic}：这一部分介绍{topic}的特点、挑选方法和日常保养，"
                               f"例如使用前先用热水温烫，使用后及时清洗晾干，避免留下异味和水垢。第{i + 1}节。")
    document.add_heading("绿茶", level=1)
    for paragraph in ZH_PARAGRAPHS[:3]:
        document.add_paragraph(paragraph)
    document.add_heading("红茶", level=1)
    document.add_paragraph(ZH_PARAGRAPHS[3])
    document.save(str(path))


def _show(window, server, question: str, predicate, out: Path, name: str) -> Path:
    server.tokens = ["See ", "[1]", "."]
    done: list[object] = []
    window.chat.answer_finished.connect(done.append)
    window.chat_panel.input.setPlainText(question)
    window.chat_panel.send_button.click()
    wait_until(lambda: bool(done))
    message = done[-1]
    number = next(n for n, hit in message.sources if predicate(hit))
    located: list[object] = []
    window.viewer.located.connect(located.append)
    bubble = window.chat_panel.messages.widget_at(window.chat_model.last_assistant_row())
    bubble.browser.anchorClicked.emit(QUrl(f"cite:{number}"))
    wait_until(lambda: bool(located))
    view = window.viewer.view
    view.resize(1100, 820)
    if located[-1].kind == "pages":
        wait_until(lambda: view.page_view.image is not None)
    from tests.gui.make_screenshots import grab

    return grab(view, name, out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    app = create_application()
    from desktop_rag.gui.main_window import MainWindow

    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as docs, \
            run_openai_server() as server:
        (Path(docs) / "brewing-guide.pdf").write_bytes(build_pdf(EN_PAGES))
        _docx(Path(docs) / "泡茶指南.docx")
        os.environ["OPENAI_API_KEY"] = "screenshot-key"
        settings = Settings(llm_provider="custom", llm_base_url=server.base_url, llm_model="fake-model",
                            ui_language="en", embedding_model="hash:64")
        i18n.set_language("en")
        window = MainWindow(resolve_paths(home), settings)
        window.show()
        reports: list[object] = []
        window.index_finished.connect(reports.append)
        window.add_paths([docs])
        wait_until(lambda: any(getattr(r, "added", 0) for r in reports) and not window.backend.busy)
        pdf = _show(window, server, "What water temperature should I use for coffee?",
                    lambda h: h.page == 2, args.out, "screenshot-viewer-pdf.png")
        i18n.set_language("zh")
        window.chat.new_conversation()
        zh = _show(window, server, "绿茶应该用多少度的水冲泡？", lambda h: "八十度" in h.text, args.out,
                   "screenshot-viewer-docx-zh.png")
        window.close()
    print(pdf, zh)
    app.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
