"""Import from the collections menu: an archive whose collection's name is taken here (by one holding documents)
asks for another name first and is imported under it; Cancel imports nothing. Before, the import failed with
"import it under another name (`desktop-rag import FILE --name NEW`)": the app had no way to give one.

Real MainWindow and engine (hashing embedder: this is about the flow, not meaning); the file, name and Yes/No
dialogs are answered by monkeypatching their static functions."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QInputDialog

from desktop_rag.config import resolve_paths
from desktop_rag.engine import Engine
from desktop_rag.gui import i18n
from tests.gui.conftest import FAST, add_and_wait


def _archive(qtbot, window, tmp_path: Path) -> Path:
    """The archive of another computer's "Default" (one document); this window's "Default" holds one too."""
    for name in ("laptop", "desktop"):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "tea.txt").write_text(f"Green tea\n\nOn the {name}, brew green tea at 80 degrees.", "utf-8")
    laptop = Engine(resolve_paths(tmp_path / "laptop-home"), FAST)
    laptop.index([tmp_path / "laptop"])
    path = tmp_path / "default.zip"
    laptop.export_collection(laptop.collection_id("Default"), path)
    laptop.close()
    add_and_wait(qtbot, window, [str(tmp_path / "desktop")])
    return path


def _import(qtbot, window, monkeypatch, path: Path, answer: tuple[str, bool]) -> list[tuple]:
    """Import `path` from the menu, answering the name question with `answer`; the questions asked."""
    asked: list[tuple] = []

    def get_text(_parent, title, label, *args, **kwargs):
        asked.append((title, label, kwargs.get("text", args[1] if len(args) > 1 else "")))
        return answer

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(path), "")))
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(get_text))
    window.collection_bar.actions["import"].trigger()
    return asked


def _import_offered(qtbot, window, monkeypatch, path: Path) -> tuple[list[str], object]:
    """Import `path` from the menu, taking the name the box offers: the names offered and the ImportReport."""
    offered: list[str] = []

    def take_offered(_parent, _title, _label, *args, **kwargs):
        offered.append(kwargs["text"])
        return kwargs["text"], True

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(path), "")))
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(take_offered))
    with qtbot.waitSignal(window.collections.imported, timeout=20_000) as imported:
        window.collection_bar.actions["import"].trigger()
    return offered, imported.args[0]


def test_an_archive_named_as_a_collection_here_is_imported_under_the_name_asked(make_window, qtbot, tmp_path,
                                                                                 monkeypatch):
    i18n.set_language("en")
    window = make_window()
    path = _archive(qtbot, window, tmp_path)
    failures: list[str] = []
    window.collections.failed.connect(failures.append)
    with qtbot.waitSignal(window.collections.imported, timeout=20_000) as imported:
        asked = _import(qtbot, window, monkeypatch, path, ("Default from the laptop", True))
    assert asked == [("Import…", "A collection called “Default” already exists here. Import this one as:",
                      "Default (2)")]
    assert imported.args[0].collection == "Default from the laptop" and not failures
    engine = window.backend.engine
    assert sorted(c.name for c in engine.collections()) == ["Default", "Default from the laptop"]


def test_the_name_offered_is_free_and_ok_imports_under_it(make_window, qtbot, tmp_path, monkeypatch):
    """OK on the name offered imports the archive: it is one no collection here has ("Default (3)" when "Default
    (2)" is taken too). The box offered the taken name itself, and OK failed with "import it under another name
    (`desktop-rag import FILE --name NEW`)"."""
    window = make_window()
    path = _archive(qtbot, window, tmp_path)
    engine = window.backend.engine
    taken = engine.create_collection("default (2)")
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "note.txt").write_text("A note.", "utf-8")
    engine.index([tmp_path / "taken"], collection=taken)
    offered, imported = _import_offered(qtbot, window, monkeypatch, path)
    assert offered == ["Default (3)"] and imported.collection == "Default (3)"


def test_cancelling_the_name_imports_nothing_and_the_question_is_in_chinese(make_window, qtbot, tmp_path,
                                                                            monkeypatch):
    window = make_window()
    path = _archive(qtbot, window, tmp_path)
    i18n.set_language("zh")
    try:
        asked = _import(qtbot, window, monkeypatch, path, ("", False))
        qtbot.waitUntil(lambda: bool(asked), timeout=10_000)
    finally:
        i18n.set_language("en")
    assert asked[0][1] == "这里已有名为“默认知识库”的知识库。将此知识库导入为："  # "Default", as the window shows it
    qtbot.wait(200)
    assert [c.name for c in window.backend.engine.collections()] == ["Default"]


def test_the_import_message_says_where_the_documents_went(make_window, qtbot, tmp_path, monkeypatch):
    """An archive with documents: they are put in a folder beside it, which the message names (it said only
    "Imported “Default”: 1 passage.", and the person had to look for them)."""
    folder = tmp_path / "laptop"
    folder.mkdir()
    (folder / "tea.txt").write_text("Green tea\n\nBrew green tea at 80 degrees.", "utf-8")
    laptop = Engine(resolve_paths(tmp_path / "laptop-home"), FAST)
    laptop.index([folder])
    path = tmp_path / "default.zip"
    laptop.export_collection(laptop.collection_id("Default"), path, with_documents=True)
    laptop.close()
    i18n.set_language("en")
    window = make_window()
    shown: list[str] = []
    monkeypatch.setattr("desktop_rag.gui.views.collection_bar.show_plain",
                        lambda _parent, _icon, _title, message: shown.append(message))
    with qtbot.waitSignal(window.collections.imported, timeout=20_000) as imported:
        _import(qtbot, window, monkeypatch, path, ("", False))
    where = tmp_path / "default documents"
    assert (where / "laptop" / "tea.txt").is_file()
    assert shown == [f"Imported “Default”: 1 passage.\nIts documents are in {where}."]
    i18n.set_language("zh")
    try:
        window.collection_bar.show_imported(imported.args[0])
    finally:
        i18n.set_language("en")
    assert shown[-1].endswith(f"其文档位于 {where}。")


def test_an_archive_on_a_read_only_place_asks_where_its_documents_go(make_window, qtbot, tmp_path, monkeypatch):
    """The archive with documents on a USB stick mounted read-only: the window asks for a folder for them (the
    import failed: "The archive's documents cannot be written in … (`--documents-dir`)", which the app had no way
    to give)."""
    from tests.support.read_only import read_only_folder

    stick, chosen = tmp_path / "stick", tmp_path / "chosen"
    stick.mkdir()
    chosen.mkdir()
    folder = tmp_path / "laptop"
    folder.mkdir()
    (folder / "tea.txt").write_text("Green tea\n\nBrew green tea at 80 degrees.", "utf-8")
    laptop = Engine(resolve_paths(tmp_path / "laptop-home"), FAST)
    laptop.index([folder])
    laptop.export_collection(laptop.collection_id("Default"), stick / "default.zip", with_documents=True)
    laptop.close()
    i18n.set_language("en")
    window = make_window()
    asked: list[str] = []

    def choose(_parent, title, *args, **kwargs):
        asked.append(title)
        return str(chosen)

    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(choose))
    with read_only_folder(stick) as mounted:
        with qtbot.waitSignal(window.collections.imported, timeout=20_000) as imported:
            _import(qtbot, window, monkeypatch, mounted / "default.zip", ("", False))
    assert asked == ["Its documents cannot be written beside the archive: choose a folder for them"]
    assert imported.args[0].documents_dir == str(chosen / "default documents")
    assert (chosen / "default documents" / "laptop" / "tea.txt").is_file()


def test_a_taken_name_typed_in_the_box_is_asked_again_without_the_cli_advice(make_window, qtbot, tmp_path,
                                                                               monkeypatch):
    """The name typed is taken too (here "Default" itself): the box asks again, offering a free name, and the import
    goes on under the name given then. It failed with "import it under another name (`desktop-rag import FILE
    --name NEW`)", the command line's advice, which the window cannot follow."""
    window = make_window()
    path = _archive(qtbot, window, tmp_path)
    failures: list[str] = []
    window.collections.failed.connect(failures.append)
    answers = iter([("default", True), ("From the laptop", True)])
    asked: list[tuple[str, str]] = []

    def get_text(_parent, _title, label, *args, **kwargs):
        asked.append((label, kwargs["text"]))
        return next(answers)

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(path), "")))
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(get_text))
    with qtbot.waitSignal(window.collections.imported, timeout=20_000) as imported:
        window.collection_bar.actions["import"].trigger()
    question = "A collection called “{}” already exists here. Import this one as:"
    assert asked == [(question.format("Default"), "Default (2)"), (question.format("default"), "default (2)")]
    assert imported.args[0].collection == "From the laptop" and not failures


def test_the_name_offered_in_chinese_is_the_one_the_window_shows(make_window, qtbot, tmp_path, monkeypatch):
    """An archive of "Default" shows as 默认知识库 in a Chinese window: the box offers 默认知识库 (2), not "Default (2)",
    and never the bare 默认知识库 (the first collection would then show as "Default"); OK imports under it."""
    window = make_window()
    path = _archive(qtbot, window, tmp_path)
    i18n.set_language("zh")
    offered, imported = _import_offered(qtbot, window, monkeypatch, path)
    assert offered == ["默认知识库 (2)"] and imported.collection == "默认知识库 (2)"
    assert i18n.collection_name("Default", [c.name for c in window.backend.engine.collections()]) == "默认知识库"


def test_an_archive_of_default_fills_an_empty_default_without_asking_in_chinese(make_window, qtbot, tmp_path,
                                                                                monkeypatch):
    window = make_window()
    path = _archive(qtbot, window, tmp_path)
    engine = window.backend.engine
    engine.remove_source(str(tmp_path / "desktop"))  # this window's "Default" is empty again: the archive fills it
    i18n.set_language("zh")
    asked: list = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(path), "")))
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: asked.append(a) or ("", False)))
    with qtbot.waitSignal(window.collections.imported, timeout=20_000) as imported:
        window.collection_bar.actions["import"].trigger()
    assert not asked and imported.args[0].collection == "Default"
