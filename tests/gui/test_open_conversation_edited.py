"""The open conversation after a cited file is edited and indexed again (by the window's own run or by another
process): its answers take the passages the library holds now, as reopening it would show them. Before, the turns in
memory kept the old chunk ids until the conversation was reopened: a passage marked right before the edit lost its
"[1]" at the next grade, one marked after it was written on a chunk that no longer exists, and a citation of a passage
the edit changed said only "could not be found in this file's text". English and Chinese."""

from __future__ import annotations

from dataclasses import replace

import pytest

from desktop_rag.gui import i18n
from desktop_rag.gui.models.sources import COL_FILE
from desktop_rag.gui.text import literal_html
from tests.gui.conftest import add_and_wait, llm_settings, wait_idle
from tests.support.hash_cli import run_cli
from tests.support.viewer_window import click_citation

HERON = ("The grey heron builds its nest of sticks high in the alder trees by the lake. " * 5).strip()
TAX = ("Quarterly tax forms are filed with the county clerk before the end of each season. " * 5).strip()
BREAD = ("A sourdough loaf needs a ripe starter, rye flour and a long cold overnight rise. " * 5).strip()
BREAD_NEW = ("A rye loaf wants nothing but flour, salt, water and a warm kitchen for the day. " * 5).strip()
QUESTION = "Where does the grey heron build its nest, and what does a sourdough loaf need?"


def _notes(bread: str) -> str:
    """Herons, then four sections apart (so the two cited passages are never merged into one), then bread."""
    taxes = "".join(f"# Taxes {n}\n\n{TAX}\n\n" for n in range(4))
    return f"# Herons\n\n{HERON}\n\n{taxes}# Bread\n\n{bread}\n"


def _asked(qtbot, window, llm_server, monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    llm_server.tokens = ["Herons nest in alders ", "[1]", "; bread needs a starter ", "[2]", "."]
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "notes.md").write_text(_notes(BREAD), encoding="utf-8")
    add_and_wait(qtbot, window, [str(docs)])
    window.backend.watcher.stop()  # the edit is indexed when the test says so
    with qtbot.waitSignal(window.chat.answer_finished, timeout=30_000):
        window.chat_panel.input.setPlainText(QUESTION)
        window.chat_panel.send_button.click()
    row = window.chat_model.last_assistant_row()
    before = dict(window.chat_model.message(row).sources)
    assert HERON in before[1].text and BREAD in before[2].text  # two passages, not merged
    return docs / "notes.md", row, before


def _as_reopened(window, row: int) -> list[tuple]:
    """The passages of the answer at `row` as the library's conversation keeps them now (what reopening it shows)."""
    stored = window.backend.engine.messages(window.chat.conversation_id)[row].sources
    return [(h.chunk_id, h.char_start, h.char_end, h.page) for h in stored]


def _shown(window, row: int) -> list[tuple]:
    return [(h.chunk_id, h.char_start, h.char_end, h.page) for _, h in window.chat_model.message(row).sources]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_open_conversation_follows_an_edit_its_own_run_indexes(make_window, qtbot, tmp_path, llm_server,
                                                                   monkeypatch, language):
    i18n.set_language(language)
    window = make_window(llm_settings(llm_server, top_k=2, ui_language=language))
    path, row, before = _asked(qtbot, window, llm_server, monkeypatch, tmp_path)
    cid = window.chat.conversation_id
    answer = window.chat_model.message(row)
    window.sources_panel.select_number(1)
    window.sources_panel.mark_button.click()  # [1] marked right before the edit
    qtbot.waitUntil(lambda: window.backend.engine.review.logged_answers(conversation_id=cid)[0].right_chunk
                    == before[1].chunk_id, timeout=10_000)
    assert click_citation(qtbot, window, 1, row).found  # the viewer open at [1]
    window.sources_panel.select_number(2)
    window.chat_panel.input.setPlainText("a question half typed")
    resets: list[int] = []
    window.chat_model.modelReset.connect(lambda: resets.append(1))

    path.write_text(_notes(BREAD_NEW), encoding="utf-8")
    with qtbot.waitSignal(window.index_finished, timeout=60_000):
        window.backend.reconcile(None)
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: _shown(window, row) == _as_reopened(window, row), timeout=10_000)
    after = dict(answer.sources)
    assert after[1].chunk_id != before[1].chunk_id and after[2] == before[2]  # [1] carried; [2] changed: stays
    assert window.sources_model.hit(0) == after[1] and window.sources_panel.current_number() == 2  # still selected
    assert window.chat_panel.input.toPlainText() == "a question half typed" and resets == []
    assert window.viewer.hit == after[1]  # the viewer's passages follow (its next and previous too)
    file_cell = lambda r: window.sources_model.index(r, COL_FILE).data()  # noqa: E731
    qtbot.waitUntil(lambda: file_cell(1) == i18n.tr("sources.changed", name="notes.md"), timeout=10_000)
    assert file_cell(0) == "notes.md"  # [2] is named changed in the sources, [1] is not
    panel = window.sources_panel  # [2] selected: no mark can name it; "None of them" (the answer's) still can
    right, wrong, none = panel.table.actions()
    assert not any(w.isEnabled() for w in (panel.mark_button, panel.wrong_button, right, wrong))
    assert panel.none_button.isEnabled() and none.isEnabled()
    assert panel.mark_button.toolTip() == panel.wrong_button.toolTip() == literal_html(
        i18n.tr("sources.mark_gone_tip", name="notes.md"))
    panel.select_number(1)
    assert panel.mark_button.isEnabled() and panel.wrong_button.isEnabled() and right.isEnabled()
    assert panel.mark_button.toolTip() == literal_html(i18n.tr("sources.mark_right_tip"))
    panel.select_number(2)

    bar = window.chat_panel.messages.widget_at(row).grade_bar
    bar.buttons["partly"].click()  # the grades read again: the carried mark is still [1]
    qtbot.waitUntil(lambda: window.backend.engine.review.logged_answers(conversation_id=cid)[0].grade == "partly",
                    timeout=10_000)
    wait_idle(qtbot, window)
    assert answer.passage == 1 and bar.passage_label.text() == i18n.tr("grade.passage", n=1)
    window.sources_panel.select_number(1)
    window.sources_panel.wrong_button.click()  # a mark made now is on the chunk the library holds
    qtbot.waitUntil(lambda: bool(window.backend.engine.review.logged_answers(conversation_id=cid)[0].wrong_chunks),
                    timeout=10_000)
    assert window.backend.engine.review.logged_answers(conversation_id=cid)[0].wrong_chunks == (after[1].chunk_id,)

    location = click_citation(qtbot, window, 1, row)  # the unchanged passage: at its place, nothing to say
    assert location.found and window.viewer.hit == after[1] and window.viewer.view.banner_label.text() == ""
    location = click_citation(qtbot, window, 2, row)  # the changed one: it says the passage is gone since the answer
    assert not location.found and location.outdated
    assert window.viewer.view.banner_label.text() == i18n.tr("viewer.passage_gone")
    assert BREAD in window.viewer.view.side_text.toPlainText()  # the passage as it was, beside
    window.chat.sources.select(row)
    with qtbot.waitSignal(window.viewer.located, timeout=30_000) as blocker:  # a sources row: the same
        window.sources_panel.table.doubleClicked.emit(window.sources_model.index(1, 0))
    assert blocker.args[0].outdated and window.viewer.view.banner_label.text() == i18n.tr("viewer.passage_gone")


def test_the_open_conversation_follows_an_edit_another_process_indexes(make_window, qtbot, tmp_path, llm_server,
                                                                       monkeypatch):
    home = tmp_path / "home"
    window = make_window(llm_settings(llm_server, top_k=2), home)
    path, row, before = _asked(qtbot, window, llm_server, monkeypatch, tmp_path)
    wait_idle(qtbot, window)
    path.write_text(_notes(BREAD_NEW), encoding="utf-8")
    run_cli(home, "index", str(path.parent), check=True)
    qtbot.waitUntil(lambda: _shown(window, row) == _as_reopened(window, row), timeout=30_000)
    after = dict(window.chat_model.message(row).sources)
    assert after[1].chunk_id != before[1].chunk_id and after[2] == before[2]
    location = click_citation(qtbot, window, 2, row)
    assert location.outdated and window.viewer.view.banner_label.text() == i18n.tr("viewer.passage_gone")


def test_an_edit_indexed_while_an_answer_streams_reaches_the_earlier_answers_and_then_the_answer(
        make_window, qtbot, tmp_path, llm_server, monkeypatch):
    window = make_window(llm_settings(llm_server, top_k=2))
    path, row, before = _asked(qtbot, window, llm_server, monkeypatch, tmp_path)
    llm_server.tokens, llm_server.hang_after = ["Still ", "streaming", "."], 1  # until released
    finished = []
    window.chat.answer_finished.connect(finished.append)
    window.chat_panel.input.setPlainText("And where do herons nest?")
    window.chat_panel.send_button.click()
    streaming = window.chat_model.last_assistant_row()
    qtbot.waitUntil(lambda: "Still" in window.chat_model.message(streaming).text, timeout=30_000)
    window.chat_panel.input.setPlainText("typed meanwhile")

    path.write_text(_notes(BREAD_NEW), encoding="utf-8")
    with qtbot.waitSignal(window.index_finished, timeout=60_000):
        window.backend.reconcile(None)
    qtbot.waitUntil(lambda: _shown(window, row) == _as_reopened(window, row), timeout=10_000)
    assert dict(window.chat_model.message(row).sources)[1].chunk_id != before[1].chunk_id
    answer = window.chat_model.message(streaming)
    assert window.chat.streaming and answer.streaming and answer.sources and window.sources_model.rows() == answer.sources
    llm_server.release()
    qtbot.waitUntil(lambda: bool(finished), timeout=30_000)
    assert answer.text == "Still " and not answer.streaming  # (the server dropped the rest: its partial text)
    assert window.chat_panel.input.toPlainText() == "typed meanwhile"
    # saved after the edit: the stored turn and the one shown name its passages where the library holds them now
    qtbot.waitUntil(lambda: _shown(window, streaming) == _as_reopened(window, streaming), timeout=10_000)
    unchanged = [hit for _, hit in answer.sources if BREAD not in hit.text]
    assert unchanged and window.backend.engine.held_passages(unchanged) == {hit.chunk_id for hit in unchanged}
    assert window.sources_model.rows() == answer.sources  # the panel shows them (the answer still selected)


def test_refreshing_changes_only_the_answers_whose_passages_moved_and_keeps_what_turns_do_not_store(qtbot):
    """Matched in order by role and text (an answer not saved is skipped); the `ocr` flag, which a turn stored by an
    older version lacks, stays; an answer whose passages point where they did is not touched."""
    from desktop_rag.engine import ChatTurn, Hit
    from desktop_rag.gui.models.chat import ChatModel, Message

    scan = Hit(5, 0.9, "/docs/scan.pdf", 2, "", "A recognised line", file_id=1, ordinal=3, ocr=True)
    text = Hit(8, 0.5, "/docs/notes.md", None, "", "A typed line", file_id=2, ordinal=0)
    model = ChatModel()
    for message in (Message("user", "Q1"), Message("assistant", "A1", ((1, scan), (2, text))),
                    Message("user", "Q2"), Message("assistant", "failed, not saved", ((1, text),)),
                    Message("user", "Q3"), Message("assistant", "A3", ((1, text),))):
        model.append(message)
    moved_scan = Hit(9, 0.9, "/docs/scan.pdf", 2, "", "A recognised line", file_id=1, ordinal=4, char_start=40)
    changed: list[int] = []
    model.dataChanged.connect(lambda index, _: changed.append(index.row()))
    moved = model.refresh_sources([ChatTurn("user", "Q1"), ChatTurn("assistant", "A1", (moved_scan, text)),
                                   ChatTurn("user", "Q3"), ChatTurn("assistant", "A3", (text,))])
    assert moved == {scan: replace(moved_scan, ocr=True)}
    assert model.message(1).sources == ((1, moved[scan]), (2, text)) and changed == [1]
