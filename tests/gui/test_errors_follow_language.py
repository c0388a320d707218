"""An error the window already shows is said again in the new language after a language switch: it is kept as its
codes and values (a `Reason`), not as the text of the language it arrived in. The index run stopped by another
process's write (a real second process holding the library's lock), an answer whose worker failed, a model that
could not load, the review's failed export and failed measurement, the viewer's page that could not be drawn (a worker
pool's errback); a write's failure (a link) reaches its errback as a Reason. Real window and
engine, offscreen."""

from __future__ import annotations

import subprocess
import sys

from desktop_rag.engine import Reason
from desktop_rag.engine.messages import WINDOW, message
from desktop_rag.gui import i18n
from tests.data.make_fixtures import build_pdf
from tests.gui.conftest import FAST, add_and_wait, wait_idle, write_docs
from tests.support.hostile_pdfs import thin_pdf
from tests.support.shown_texts import COMMAND
from tests.support.viewer_window import bird_pages

HOLD = """
import sys, time
from desktop_rag.config import resolve_paths
from desktop_rag.engine import Engine
engine = Engine(resolve_paths(sys.argv[1]))
with engine.runtime.writing():
    print("held", flush=True)
    sys.stdin.read()
"""


def _busy_en() -> str:
    return message("error.library_busy", "en")[:40]


def _busy_zh() -> str:
    return message("error.library_busy", "zh")[:12]


def test_a_failed_index_run_is_said_again_in_chinese(make_window, qtbot, tmp_path):
    home = tmp_path / "home"
    window = make_window(FAST, home)
    qtbot.waitUntil(lambda: window.collection_bar.combo.count() == 2, timeout=10_000)  # the library exists
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(home)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        write_docs(tmp_path / "docs", 1)
        panel = window.library_panel
        with qtbot.waitSignal(window.backend.index_failed, timeout=30_000):
            window.add_paths([str(tmp_path / "docs")])
        qtbot.waitUntil(lambda: _busy_en() in panel.progress_label.text(), timeout=10_000)
        i18n.set_language("zh")
        assert _busy_zh() in panel.progress_label.text(), panel.progress_label.text()
    finally:
        holder.communicate("", timeout=30)


def test_an_answer_whose_worker_failed_is_said_again_in_chinese(make_window, qtbot):
    window = make_window()
    window.chat.ask_scope.file_scope.set_path("/no/such/file.txt")  # "Ask this document": not in the library
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000):
        window.chat_panel.input.setPlainText("What is topic0?")
        window.chat_panel.send_button.click()
    bubble = window.chat_panel.messages.widget_at(window.chat_model.last_assistant_row())
    english = bubble.notice_label.text()
    i18n.set_language("zh")
    chinese = bubble.notice_label.text()
    assert "is not a file of the library: choose one the library lists" in english  # no CLI command, nor flag
    assert chinese != english and "不是资料库中的文件：请选择资料库列出的文件" in chinese, (english, chinese)
    assert not COMMAND.search(english) and not COMMAND.search(chinese)


def test_a_model_that_could_not_load_is_said_again_in_chinese(make_window, qtbot, tmp_path):
    window = make_window(FAST.replace(embedding_model=str(tmp_path / "no-such-model")))
    qtbot.waitUntil(lambda: window.model_state[0] == "error", timeout=60_000)
    english = window.model_label.toolTip()
    i18n.set_language("zh")
    chinese = window.model_label.toolTip()
    assert chinese != english and "模型" in chinese, (english, chinese)


def _review(qtbot, window):
    window.review.open()
    qtbot.waitUntil(lambda: window.review.view is not None and window.review.view.isVisible(), timeout=10_000)
    return window.review.view


def test_the_reviews_failed_export_is_said_again_in_chinese(make_window, qtbot, tmp_path):
    window = make_window()
    view = _review(qtbot, window)
    window.review.export(str(tmp_path / "no-such-folder" / "graded.jsonl"))
    qtbot.waitUntil(lambda: view.overview.result.text() != "", timeout=10_000)
    english = view.overview.result.text()
    i18n.set_language("zh")
    chinese = view.overview.result.text()
    assert english.startswith("The export failed: The graded questions cannot be written"), english
    assert chinese.startswith("导出失败：无法把已评价的问题写入"), chinese
    view.close()
    wait_idle(qtbot, window)


def test_a_failed_measurement_is_said_again_in_chinese(make_window, qtbot, tmp_path):
    window = make_window()
    try:
        window.backend.engine.review.export(tmp_path / "no-such-folder" / "graded.jsonl")
    except Exception as exc:  # noqa: BLE001 - the engine's own failure, as the measurement's worker would get it
        failure = exc
    view = _review(qtbot, window)
    view.measure.show_failed(Reason.of(failure))
    assert view.measure.status.text().startswith("The measurement failed: The graded questions cannot be written")
    i18n.set_language("zh")
    assert view.measure.status.text().startswith("衡量失败：无法把已评价的问题写入"), view.measure.status.text()
    view.close()
    wait_idle(qtbot, window)


def test_a_failed_link_reaches_its_errback_as_codes(make_window, qtbot, tmp_path):
    """The index worker's task (a write) fails: its errback gets the Reason, worded when it is shown."""
    window = make_window()
    got = []
    window.backend.link(str(tmp_path / "not-a-source"), str(tmp_path), got.append)
    qtbot.waitUntil(lambda: bool(got), timeout=10_000)
    assert isinstance(got[0], Reason) and got[0].code == "not_a_source", got
    i18n.set_language("zh")
    assert i18n.error(got[0]) == message("error.not_a_source", "zh", WINDOW, path=str(tmp_path / "not-a-source"))


def test_a_page_the_viewer_could_not_draw_is_said_again_in_chinese(make_window, qtbot, tmp_path):
    """The page renderer's errback (a worker pool's) gets the Reason; the viewer's banner words it when shown."""
    birds = tmp_path / "docs" / "birds.pdf"
    birds.parent.mkdir()
    birds.write_bytes(build_pdf(bird_pages()))
    window = make_window()
    add_and_wait(qtbot, window, [str(birds)])
    hit = window.backend.engine.search("Where does the heron nest?", k=1)[0]
    window.backend.watcher.stop()  # the file below is not indexed again meanwhile
    birds.write_bytes(thin_pdf("0 0 0.000001 1000000000"))  # its one page cannot be drawn
    window.viewer.open_passages(((1, hit),), 0)
    qtbot.waitUntil(lambda: window.viewer.view is not None and "too thin" in window.viewer.view.banner_label.text(),
                    timeout=30_000)
    english = window.viewer.view.banner_label.text()
    assert english.startswith("Page 1 cannot be drawn: the page is too large or too thin ("), english
    i18n.set_language("zh")
    chinese = window.viewer.view.banner_label.text()
    assert chinese.startswith("第 1 页无法显示：页面太大或太窄（"), chinese

