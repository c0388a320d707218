"""The chat's search filter: the library's folders are offered (as plain text), and choosing a folder or a file
type restricts the sources an answer shows. Real MainWindow, real engine (hashing embedder: this is about which
files answer, not about meaning), offscreen Qt; the question goes through the Send button."""

from __future__ import annotations

from pathlib import Path

from tests.gui.conftest import add_and_wait
from tests.support.chat_window import ask

TEXT = "Green tea\n\nGreen tea is steamed leaves; brew it at 80 degrees for two minutes."


def _write(path: Path, text: str = TEXT) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")


def test_choosing_a_folder_or_type_restricts_the_sources_shown(make_window, qtbot, tmp_path_factory):
    root = tmp_path_factory.mktemp("f")  # short: tmp_path under a pytest-xdist worker is cut in the combo (80 chars)
    kitchen, lab = root / "kitchen", root / "lab"
    _write(kitchen / "tea.txt")
    _write(kitchen / "notes.md", "# Tea notes\n\n" + TEXT)
    _write(lab / "brew.txt", "Brewing log\n\nThe lab brews green tea at 80 degrees; steamed leaves again.")
    window = make_window()
    add_and_wait(qtbot, window, [str(kitchen), str(lab)])
    bar = window.chat.ask_scope.search_filter
    qtbot.waitUntil(lambda: bar.folder_combo.count() == 3, timeout=10_000)  # "All folders" + the two sources
    shown = [bar.folder_combo.itemText(i) for i in range(bar.folder_combo.count())]
    assert shown == ["All folders", str(kitchen), str(lab)]

    message = ask(qtbot, window, "green tea at 80 degrees")
    assert {Path(h.path).parent for _, h in message.sources} == {kitchen, lab}  # unfiltered: both answer

    bar.choose(folder=str(lab))
    window.chat.new_conversation()
    message = ask(qtbot, window, "green tea at 80 degrees")
    assert message.sources and {Path(h.path).parent for _, h in message.sources} == {lab}
    shown_rows = window.sources_panel.model.rowCount()
    assert shown_rows == len(message.sources)  # the sources panel shows that answer's (filtered) passages

    bar.choose(folder=str(kitchen), kind="md")
    message = ask(qtbot, window, "green tea at 80 degrees")
    assert [Path(h.path).name for _, h in message.sources] == ["notes.md"]

    bar.choose()  # back to everything
    assert (bar.folders, bar.types) == ((), ())


def test_folder_names_are_offered_as_plain_text(qtbot):
    from desktop_rag.gui.views.search_filter import SearchFilterBar

    bar = SearchFilterBar()
    qtbot.addWidget(bar)
    hostile = "/home/u/<b>lab</b>\u202e\x1b[31m"
    bar.set_folders([hostile, "/home/u/" + "x" * 200])
    shown = [bar.folder_combo.itemText(i) for i in range(bar.folder_combo.count())]
    assert shown[1] == "/home/u/<b>lab</b>\ufffd\ufffd[31m"  # markup literal, controls made visible
    assert len(shown[2]) == 80 and "…" in shown[2]
    with qtbot.waitSignal(bar.changed):
        bar.choose(folder=hostile, kind="pdf")
    assert bar.folders == (hostile,) and bar.types == ("pdf",)  # the real path is what the engine gets
    with qtbot.waitSignal(bar.changed):  # the chosen folder left the library: back to all folders
        bar.set_folders(["/home/u/other"])
    assert bar.folders == () and bar.types == ("pdf",)


def test_the_type_filter_shows_all_file_types_whole_in_both_languages(qtbot):
    """The type filter was sized for six characters: "All file types" lost its last letter under the arrow."""
    from PySide6.QtWidgets import QStyle, QStyleOptionComboBox

    from desktop_rag.gui import i18n
    from desktop_rag.gui.app import create_application
    from desktop_rag.gui.views.search_filter import SearchFilterBar

    create_application()  # the app's fonts
    bar = SearchFilterBar()
    qtbot.addWidget(bar)
    bar.resize(400, 40)  # narrow: the folder filter gives way, not the type filter
    bar.show()
    combo = bar.type_combo
    for language, text in (("en", "All file types"), ("zh", "全部文件类型")):
        i18n.set_language(language)
        qtbot.waitUntil(lambda: combo.currentText() == text and combo.width() >= combo.sizeHint().width())
        option = QStyleOptionComboBox()
        combo.initStyleOption(option)
        field = combo.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                             QStyle.SubControl.SC_ComboBoxEditField, combo)
        assert field.width() >= combo.fontMetrics().horizontalAdvance(text), (language, field.width())
