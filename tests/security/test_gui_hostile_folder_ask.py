"""Attack: a library folder named like markup with a right-to-left override (`<b>lab</b>` + U+202E), asked about in
the real window: with the folder chosen in the search filter and without, extractive and through the loopback
model server (whose answer repeats the name). A helper once saw `answer_finished` not arrive within 30 s here.

Every ask must finish within that bound with an answer, and the name must stay literal text wherever it is shown
(the sources table, the passage detail, the answer). The window runs in a child process, so a hang or an abort
fails this test instead of the test run.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the name holds characters Windows forbids")

NAME = "<b>lab</b>\u202e"  # on POSIX the slash makes two folders: "<b>lab<" holding "b>\u202e"
ANSWER_BOUND_S = 30.0
FILE = "<b>lab\u202efdp.md"  # the override shows "...pdf.md" reversed in a naive view
PLAIN = 0  # Qt.TextFormat.PlainText (the parent process does not import Qt)

ASK_HOSTILE_FOLDER = r"""
import time
from desktop_rag.config import Settings, resolve_paths
from desktop_rag.gui.app import create_application
from desktop_rag.gui.main_window import MainWindow

app = create_application()
folder, home, base_url = ARGS

settings = Settings(embedding_model="hash:64")
if base_url:
    os.environ["OPENAI_API_KEY"] = "test-key"
    settings = settings.replace(llm_provider="custom", llm_base_url=base_url, llm_model="fake-model")
window = MainWindow(resolve_paths(home), settings)
window.show()
window.add_paths([folder])
need(window.index_finished, 90000, lambda r: r.added > 0)
bar = window.chat.ask_scope.search_filter
deadline = time.monotonic() + 10
while bar.folder_combo.findData(folder) < 0 and time.monotonic() < deadline:
    app.processEvents()
flows = []
for chosen in (None, folder):
    bar.choose(folder=chosen)
    for question in ("How fast does the centrifuge spin?", "What is in " + os.path.basename(folder) + "?"):
        window.chat.new_conversation()
        started = time.monotonic()
        window.chat_panel.input.setPlainText(question)
        window.chat_panel.submit()
        got = wait(window.chat.answer_finished, 35000)  # past the 30 s bound: report it, do not wait for more
        seconds = time.monotonic() - started
        app.processEvents()
        message = got[0] if got else None
        bubble = window.chat_panel.messages.widget_at(window.chat_model.last_assistant_row())
        table = window.sources_panel.model
        flows.append({
            "filter": chosen, "question": question, "finished": got is not None, "seconds": seconds,
            "mode": message.mode if message else None, "error": str(message.error) if message else None,
            "answer_shown": bubble.browser.toPlainText() if message else "",
            "notice_format": int(bubble.notice_label.textFormat().value),
            "files": [table.index(r, 1).data() for r in range(table.rowCount())],
            "detail": window.sources_panel.detail.toPlainText(),
            "filtered_paths": [h.path for _, h in message.sources] if message else [],
        })
        if message is None:
            break
    if flows[-1]["mode"] is None:
        break
window.close()
report({"flows": flows})
"""


@pytest.fixture
def hostile_folder(tmp_path: Path) -> Path:
    folder = tmp_path / NAME
    folder.mkdir(parents=True)
    (folder / FILE).write_text(f"# {NAME}\n\nThe centrifuge in {NAME} spins at 4000 rpm.\n", encoding="utf-8")
    (folder / "plain.txt").write_text("Lab coats are required near the centrifuge.\n", encoding="utf-8")
    return folder


def _check(flows: list[dict], folder: Path, mode: str) -> None:
    for flow in flows:
        where = f"{flow['question']!r}, filter {flow['filter']!r}"
        assert flow["finished"] and flow["seconds"] < ANSWER_BOUND_S, f"no answer within {ANSWER_BOUND_S} s: {where}"
        assert flow["mode"] == mode and not flow["error"], where
        assert "4000 rpm" in flow["answer_shown"] or NAME in flow["answer_shown"], where
        assert flow["notice_format"] == PLAIN
        assert FILE in flow["files"] and all(Path(p).parent == folder for p in flow["filtered_paths"]), where
        assert str(folder) in flow["detail"], where  # the path with its markup as text (rendered, it would vanish)
    assert len(flows) == 4


def test_asking_about_a_hostile_folder_extractive(gui_child, hostile_folder: Path, tmp_path: Path) -> None:
    result = gui_child(ASK_HOSTILE_FOLDER, str(hostile_folder), str(tmp_path / "home"), "", timeout=180)
    _check(result["flows"], hostile_folder, "extractive")


def test_asking_about_a_hostile_folder_with_a_model(gui_child, model_server, hostile_folder: Path,
                                                    tmp_path: Path) -> None:
    model_server.tokens = ["The ", "centrifuge ", "in ", NAME, " spins ", "at ", "4000 rpm ", "[1]", "."]
    result = gui_child(ASK_HOSTILE_FOLDER, str(hostile_folder), str(tmp_path / "home"), model_server.base_url,
                       timeout=180)
    _check(result["flows"], hostile_folder, "llm")
    # the model's text, literally, its bidi override visible (U+FFFD) instead of reversing what follows
    assert all(NAME.replace("\u202e", "\ufffd") in flow["answer_shown"] for flow in result["flows"])
