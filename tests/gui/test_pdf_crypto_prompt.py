"""Issue 11: a PDF that needs a user password makes the app ask for it once (password echo), then index it.

Real window, real engine and parser child; only QInputDialog.getText is replaced, to answer the dialog.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QInputDialog, QLineEdit

from desktop_rag.engine.ingest.loaders.pdf import needs_password
from tests.gui.conftest import INDEX_TIMEOUT_MS, wait_idle
from tests.support.scans import encrypted_pdf, text_pdf_bytes

PASSWORD = "open-sesame-芝麻"


def test_locked_pdf_prompts_once_then_is_indexed(qtbot, make_window, tmp_path: Path, monkeypatch) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "plain.txt").write_text("An unlocked note about bicycles and their chains.", encoding="utf-8")
    locked = encrypted_pdf(text_pdf_bytes(["Quarterly otter census: forty-two otters counted."]),
                           docs / "census.pdf", "AES-256", user_password=PASSWORD)
    asked: list[tuple[str, str, QLineEdit.EchoMode]] = []

    def answer(parent, title, label, echo=QLineEdit.EchoMode.Normal, *args, **kwargs):
        asked.append((title, label, echo))
        return PASSWORD, True

    monkeypatch.setattr(QInputDialog, "getText", staticmethod(answer))
    window = make_window()
    reports = []
    window.index_finished.connect(reports.append)
    with qtbot.waitSignal(window.index_finished, timeout=INDEX_TIMEOUT_MS,
                          check_params_cb=lambda r: r.updated == 1):
        window.add_paths([str(docs)])
    first = next(r for r in reports if r.failed or r.added)  # the start-up run of an empty library comes first
    assert [needs_password(f.error) for f in first.failed] == [True] and first.added == 1
    assert len(asked) == 1
    title, label, echo = asked[0]
    assert echo == QLineEdit.EchoMode.Password and "census.pdf" in label and "never saved" in label
    assert reports[-1].failed == ()
    wait_idle(qtbot, window)
    assert window.last_status.files_failed == 0 and window.last_status.files_indexed == 2

    hits = window.backend.engine.search("otter census", 3)
    assert hits and hits[0].path == str(locked)

    # asked once: another run does not ask again, and the password is never written to disk
    with qtbot.waitSignal(window.index_finished, timeout=INDEX_TIMEOUT_MS):
        window.backend.reconcile(None)
    assert len(asked) == 1
    for path in Path(window.paths.data_dir).rglob("*"):
        if path.is_file():
            assert PASSWORD.encode() not in path.read_bytes(), path


def test_wrong_password_keeps_a_clear_reason_and_reindex_asks_again(qtbot, make_window, tmp_path, monkeypatch):
    docs = tmp_path / "docs"
    docs.mkdir()
    locked = encrypted_pdf(text_pdf_bytes(["Secret recipe."]), docs / "recipe.pdf", "AES-128", user_password="right")
    answers = iter([("wrong", True), ("right", True)])
    asked: list[str] = []

    def answer(parent, title, label, echo=QLineEdit.EchoMode.Normal, *args, **kwargs):
        asked.append(label)
        return next(answers)

    monkeypatch.setattr(QInputDialog, "getText", staticmethod(answer))
    window = make_window()
    with qtbot.waitSignal(window.index_finished, timeout=INDEX_TIMEOUT_MS,
                          check_params_cb=lambda r: any("not accepted" in str(f.error) for f in r.failed)):
        window.add_paths([str(docs)])
    assert len(asked) == 1  # the wrong answer is not followed by a second dialog on its own
    with qtbot.waitSignal(window.index_finished, timeout=INDEX_TIMEOUT_MS,
                          check_params_cb=lambda r: r.updated == 1 and not r.failed):
        window.reindex_path(str(locked), "file")
        window.password_prompt.forget(str(locked))  # what the Re-index button does with the selection
    assert len(asked) == 2
