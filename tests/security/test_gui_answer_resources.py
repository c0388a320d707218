"""Attack: an answer (from a model, a document or a saved conversation) makes the answer view read local files.

`![x](/dev/zero)` aborted the app, a FIFO hung the GUI thread, any local image rendered (and on Windows
`//host/share/x.png` would reach out over SMB). Each hostile answer is rendered by the real widgets,
offscreen, in a child process: an abort or a hang fails the test instead of killing the test run.
"""

from __future__ import annotations

import ctypes
import os
import sys
from pathlib import Path

import pytest

from tests.support.png_files import png

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX probes (FIFO, /dev/zero, inotify)")

RENDER_TIMEOUT = 60  # s: a child that blocks on a FIFO or chews /dev/zero never reports

# Renders one hostile answer through the real MessageWidget (and the same text as HTML through the
# SafeTextBrowser the sources panel uses), then reports what the document holds and what was drawn.
RENDER = r"""
from PySide6.QtGui import QColor, QTextDocument
from PySide6.QtWidgets import QApplication
app = QApplication([])
from desktop_rag.gui.models.chat import Message
from desktop_rag.gui.views.message_widget import MessageWidget
from desktop_rag.gui.views.safe_browser import SafeTextBrowser

def red_pixels(widget):
    image = widget.grab().toImage()
    return sum(image.pixelColor(x, y) == QColor(255, 0, 0) for x in range(0, image.width(), 2)
               for y in range(0, image.height(), 2))

def images(document):
    found, block = [], document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.isImageFormat():
                found.append(fmt.toImageFormat().name())
            it += 1
        block = block.next()
    return found

mode, text = ARGS
if mode == "answer":
    widget = MessageWidget(Message("assistant", text))
    browser = widget.browser
else:  # the view itself, given HTML (what the sources panel does with escaped text)
    widget = browser = SafeTextBrowser()
    browser.setHtml(text)
widget.resize(700, 500)
widget.show()
app.processEvents()
report({"red": red_pixels(widget), "images": images(browser.document())})
"""


def _inotify(path: Path):
    """A Linux inotify watch on `path` for opens and reads (no file descriptor of ours touches it)."""
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.inotify_init1(os.O_NONBLOCK)
    if fd < 0 or libc.inotify_add_watch(fd, str(path).encode(), 0x20 | 0x01) < 0:  # IN_OPEN | IN_ACCESS
        pytest.skip("inotify is not available")

    def opened() -> bool:
        try:
            return bool(os.read(fd, 65536))
        except BlockingIOError:
            return False

    return fd, opened


@pytest.fixture
def red_png(tmp_path: Path) -> Path:
    """A 40x40 pure red PNG: if any red pixel shows up, the answer view rendered a local file."""
    path = tmp_path / "secret.png"
    path.write_bytes(png(40, 40, b"".join(b"\x00" + b"\xff\x00\x00" * 40 for _ in range(40))))
    return path


HOSTILE_ANSWERS = {
    "dev-zero": "The answer [1].\n\n![x](/dev/zero)",
    "file-url-dev-zero": "See ![x](file:///dev/zero) [1]",
    "unc-share": "![x](//host/share/x.png)",
    "reference-image": "Look ![x][r] here.\n\n[r]: /dev/zero",
    "image-in-link": "[![x](/dev/zero)](https://example.com)",
    "escaped-backtick-confuses-code": "\\`x ![x](/dev/zero)` [1]",
}  # raw <img> tags, images inside code and `&#33;[` were already inert: the local-file test below covers them


@pytest.mark.parametrize("answer", list(HOSTILE_ANSWERS.values()), ids=list(HOSTILE_ANSWERS))
def test_hostile_answer_renders_without_reading_anything(gui_child, answer: str) -> None:
    result = gui_child(RENDER, "answer", answer, timeout=RENDER_TIMEOUT)
    assert result["images"] == []  # no image syntax survives into the answer document


def test_local_image_in_an_answer_is_not_opened(gui_child, red_png: Path) -> None:
    fd, opened = _inotify(red_png)
    try:
        for mode, text in (("answer", f"Here: ![x]({red_png}) [1]"),
                           ("answer", f"![x](file://{red_png})"),
                           ("answer", f'<img src="{red_png}">'),
                           ("answer", f"```\n![x]({red_png})\n```\n&#33;[x]({red_png})"),
                           ("html", f'<p>passage</p><img src="{red_png}"><table background="{red_png}"><tr><td>x'),
                           ("html", f'<img src="file://{red_png}">')):
            result = gui_child(RENDER, mode, text, timeout=RENDER_TIMEOUT)
            assert result["red"] == 0, f"the local image was drawn for {text!r}"
            assert not opened(), f"the local image was opened for {text!r}"
        red_png.read_bytes()
        assert opened(), "the probe itself must see an open"  # the inotify watch works
    finally:
        os.close(fd)


def test_fifo_and_device_paths_do_not_block_the_view(gui_child, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    for mode, text in (("answer", f"![x]({fifo})"), ("html", f'<img src="{fifo}">'),
                       ("html", '<img src="/dev/zero"><p style="background-image: url(/dev/zero)">x</p>'),
                       ("html", f'<link rel="stylesheet" href="{fifo}"><p>x</p>')):
        gui_child(RENDER, mode, text, timeout=RENDER_TIMEOUT)  # opening the FIFO would block until timeout


# The full path: a document with hostile Markdown is indexed, the question gets an extractive answer
# (no model configured) whose sentences come from that document, then the saved conversation is reopened.
DOCUMENT_TO_ANSWER = r"""
from desktop_rag.config import Settings, resolve_paths
from desktop_rag.gui.app import create_application
from desktop_rag.gui.main_window import MainWindow

app = create_application()
folder, home = ARGS


window = MainWindow(resolve_paths(home), Settings(embedding_model="hash:64"))
window.show()
window.add_paths([folder])
need(window.index_finished, until=lambda r: r.added > 0)
window.chat_panel.input.setPlainText("What does the zebra report say about zebra stripes?")
window.chat_panel.submit()
(message,) = need(window.chat.answer_finished)
app.processEvents()
answer = window.chat_panel.messages.widget_at(1)
links = []
block = answer.browser.document().begin()
while block.isValid():
    it = block.begin()
    while not it.atEnd():
        fmt = it.fragment().charFormat()
        if fmt.isAnchor():
            links.append(fmt.anchorHref())
        it += 1
    block = block.next()
cid = window.chat.conversation_id
window.close()

again = MainWindow(resolve_paths(home), Settings(embedding_model="hash:64"))
again.show()
need(again.chat.conversations_loaded)
again.conversations_panel.opened.emit(cid)
need(again.chat.messages_loaded)
app.processEvents()
reopened = again.chat_panel.messages.widget_at(1).message.text
again.close()
report({"answer": message.text, "mode": message.mode, "links": links, "reopened": reopened})
"""


def test_document_cannot_make_its_extractive_answer_load_files(gui_child, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "zebra.md").write_text(
        "# Zebra report\n\n"
        "Zebra stripes confuse biting flies ![x](/dev/zero) according to the zebra field report.\n\n"
        "The zebra stripes report links [the official zebra site](https://evil.example/zebra) for zebra stripes "
        "![y](/dev/zero).\n\n"
        "Zebra stripes <img src=file:%2Fdev%2Fzero> stay cool in the zebra stripes report [9].\n",
        encoding="utf-8")
    result = gui_child(DOCUMENT_TO_ANSWER, str(docs), str(tmp_path / "home"), timeout=180)
    assert result["mode"] == "extractive"
    assert "zebra" in result["answer"].lower()
    assert "/dev/zero" in result["answer"]  # the sentence is there, as text
    # only the app's own citation links: the document made no link (and no fake [9] citation)
    assert result["links"] and all(href.startswith("cite:") for href in result["links"])
    assert "cite:9" not in result["links"]
    assert result["reopened"] == result["answer"]  # the saved conversation re-rendered without harm


def test_extractive_answer_keeps_document_markup_as_text(qapp) -> None:
    """Sentences copied from a document are literal text in the answer: no link, image, HTML or citation."""
    from PySide6.QtGui import QTextDocument

    from desktop_rag.engine.answer.extractive import extractive_answer
    from desktop_rag.engine.store.values import Hit
    from desktop_rag.gui.text import answer_markdown
    from desktop_rag.gui.views.safe_browser import MARKDOWN_FEATURES

    text = ("Otters hold hands [while sleeping](https://evil.example/otters) and use `tools <b>bold</b> and "
            "![pic](missing-otter.png) in the otter study [7].")  # one sentence: an answer quotes what answers
    hits = [Hit(chunk_id=1, score=1.0, path="/docs/otters.txt", page=None, heading="", text=text)]
    answer = extractive_answer("What does the otter study say about otters?", hits)
    document = QTextDocument()
    document.setMarkdown(answer_markdown(answer, len(hits)), MARKDOWN_FEATURES)
    links, block = [], document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            assert not fmt.isImageFormat()
            if fmt.isAnchor():
                links.append(fmt.anchorHref())
            it += 1
        block = block.next()
    assert links == ["cite:1"]  # only the app's own citation: no document link, no forged [7]
    shown = document.toPlainText()
    assert "[while sleeping](https://evil.example/otters)" in shown
    assert "`tools <b>bold</b>" in shown and "[7]" in shown



def test_answer_control_and_bidi_characters_are_shown_not_obeyed(qapp) -> None:
    """A model's answer with a right-to-left override (U+202E), an isolate, a bell and a terminal escape: each shows
    as U+FFFD and the words after it keep their order; line ends (CRLF too) and tabs stay what they are."""
    from PySide6.QtGui import QTextDocument

    from desktop_rag.gui.text import answer_markdown
    from desktop_rag.gui.views.safe_browser import MARKDOWN_FEATURES

    answer = "Pay\u202e 0001 \u2067now\u2069 bell\x07 \x1b[31mred [1]\r\nnext\tline"
    document = QTextDocument()
    document.setMarkdown(answer_markdown(answer, 1), MARKDOWN_FEATURES)
    shown = document.toPlainText()
    assert not set(shown) & {"\u202e", "\u2067", "\u2069", "\x07", "\x1b", "\r"}
    assert "Pay\ufffd 0001 \ufffdnow\ufffd bell\ufffd \ufffd[31mred [1]" in shown
    assert "next\tline" in shown and shown.count("\ufffd") == 5

# A conversation saved with a hostile answer (a model echoed a document, or an older version stored it)
# used to abort the app every time it was opened.
REOPEN_SAVED = r"""
from PySide6.QtCore import QEventLoop, QTimer
from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.store import conversations
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.store.values import ChatTurn
from desktop_rag.gui.app import create_application
from desktop_rag.gui.main_window import MainWindow

home, answer = ARGS
settings = Settings(embedding_model="hash:64")
engine = Engine(resolve_paths(home), settings)
cid = engine.new_conversation("Hostile answer")
conversations.add_message(engine.store, cid, ChatTurn("user", "What is in the report?"))
conversations.add_message(engine.store, cid, ChatTurn("assistant", answer))
engine.close()

app = create_application()
window = MainWindow(resolve_paths(home), settings)
window.show()
for signal, action in ((window.chat.conversations_loaded, lambda: None),
                       (window.chat.messages_loaded, lambda: window.conversations_panel.opened.emit(cid))):
    loop = QEventLoop()
    signal.connect(loop.quit)
    QTimer.singleShot(60000, loop.quit)
    action()
    loop.exec()
app.processEvents()
window.grab()
shown = window.chat_panel.messages.widget_at(1)
report({"text": shown.message.text if shown else None})
window.close()
"""


def test_reopening_a_saved_hostile_answer_is_harmless(gui_child, tmp_path: Path) -> None:
    answer = "From the report [1]: ![chart](/dev/zero) and ![map](file:///dev/zero)"
    result = gui_child(REOPEN_SAVED, str(tmp_path / "home"), answer, timeout=120)
    assert result["text"] == answer
