"""Collections, conversations and documents another process creates, renames, indexes or deletes in the window's
library show in the window without a restart: the CLI's `collections create` and `index`, a second process's
conversation (real processes on the same data folder; the window's real engine, offscreen). Before, the collection
picker, the conversation list and the library's files kept what they read at start."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_rag.gui.threads import outside_changes
from tests.gui.conftest import FAST, add_and_wait, wait_idle, write_docs
from tests.support.hash_cli import run_cli

CONVERSATION = """
import sys
from desktop_rag.config import resolve_paths
from desktop_rag.engine import Engine
engine = Engine(resolve_paths(sys.argv[1]))
if sys.argv[2] == "new":
    print(engine.new_conversation(sys.argv[3]))
else:
    engine.delete_conversation(int(sys.argv[3]))
engine.close()
"""


HEARD_MS = 3000  # a server's change shows this soon (read once its burst is over, QUIET_MS, then the listing)


def test_collections_and_conversations_of_another_process_show(make_window, qtbot, tmp_path, monkeypatch):
    home = tmp_path / "home"
    window = make_window(FAST, home)
    bar, chat = window.collection_bar, window.chat
    qtbot.waitUntil(lambda: bar.combo.count() == 2, timeout=10_000)  # "All collections", "Default"
    names = lambda: [bar.combo.itemText(i) for i in range(1, bar.combo.count())]  # noqa: E731
    run_cli(home, "collections", "create", "From the terminal", check=True)
    qtbot.waitUntil(lambda: names() == ["Default", "From the terminal"], timeout=10_000)
    run_cli(home, "collections", "rename", "From the terminal", "Renamed", check=True)
    qtbot.waitUntil(lambda: names() == ["Default", "Renamed"], timeout=10_000)
    run_cli(home, "collections", "delete", "Renamed", "--yes", check=True)
    qtbot.waitUntil(lambda: names() == ["Default"], timeout=10_000)

    run = [sys.executable, "-c", CONVERSATION, str(home)]
    conversation = int(subprocess.run([*run, "new", "Asked elsewhere"], capture_output=True, text=True, timeout=120,
                                      check=True).stdout)
    qtbot.waitUntil(lambda: chat.conversations_model.title_of(conversation) == "Asked elsewhere", timeout=10_000)
    subprocess.run([*run, "delete", str(conversation)], timeout=120, check=True)
    qtbot.waitUntil(lambda: chat.conversations_model.row_of(conversation) < 0, timeout=10_000)

    wait_idle(qtbot, window)  # then nobody writes: nothing is read
    qtbot.wait(outside_changes.QUIET_MS * 2)
    reads: list[int] = []
    monkeypatch.setattr(outside_changes, "read_marks", lambda engine: reads.append(1))
    qtbot.wait(3000)
    assert reads == []


def _shown(window, path: Path) -> bool:
    return window.library_model.index_of(str(path), expand=True).isValid()


def test_documents_another_process_indexes_or_removes_show(make_window, qtbot, tmp_path):
    home, docs = tmp_path / "home", tmp_path / "docs"
    window = make_window(FAST, home)
    wait_idle(qtbot, window)
    files_announced = []
    window.backend.library_changed.connect(lambda change: files_announced.append(change.touches("files")))
    add_and_wait(qtbot, window, [str(write_docs(tmp_path / "mine", 1)[0])])
    qtbot.wait(outside_changes.QUIET_MS * 3)  # its own run's writes: announced once, by the run, not again after it
    assert files_announced.count(True) == 1

    write_docs(docs, 2)
    (docs / "empty.txt").write_text("", encoding="utf-8")
    run_cli(home, "index", str(docs))  # (a failed file: exit status 1) a folder the window does not watch
    qtbot.waitUntil(lambda: _shown(window, docs / "doc001.md") and _shown(window, docs / "empty.txt"), timeout=30_000)
    qtbot.waitUntil(lambda: (window.last_status.files_total, window.last_status.files_failed) == (4, 1),
                    timeout=30_000)
    run_cli(home, "remove", str(docs), check=True)
    qtbot.waitUntil(lambda: not _shown(window, docs / "doc000.md") and not _shown(window, docs), timeout=30_000)
    qtbot.waitUntil(lambda: window.last_status.files_total == 1, timeout=30_000)


def test_a_collection_another_client_makes_on_the_server_shows(make_window, qtbot, pg_server, tmp_path):
    """A server's library has no file here to watch: the server notifies each commit and the window reads the marks
    then (the slow look, every SERVER_EVERY_MS, is not what shows them: a change shows within HEARD_MS); its
    collections, conversations and documents show."""
    from desktop_rag.config import resolve_paths
    from desktop_rag.engine import Engine

    assert outside_changes.SERVER_EVERY_MS >= 60_000
    library = pg_server.url(pg_server.new_database("outside"))
    window = make_window(FAST.replace(library=library))
    bar, chat = window.collection_bar, window.chat
    qtbot.waitUntil(lambda: bar.combo.count() == 2, timeout=30_000)
    wait_idle(qtbot, window)
    qtbot.wait(outside_changes.QUIET_MS * 3)  # (its listener connected meanwhile)
    other = Engine(resolve_paths(tmp_path / "other-computer"), FAST.replace(library=library))
    try:
        team = other.create_collection("Team")
        qtbot.waitUntil(lambda: bar.combo.findData(team) > 0, timeout=HEARD_MS)
        conversation = other.new_conversation("Asked on the other computer")
        qtbot.waitUntil(lambda: chat.conversations_model.row_of(conversation) >= 0, timeout=HEARD_MS)
        other.delete_collection(team)
        qtbot.waitUntil(lambda: bar.combo.findData(team) < 0, timeout=HEARD_MS)
        docs = tmp_path / "docs"
        write_docs(docs, 1)
        other.index([docs])
        qtbot.waitUntil(lambda: _shown(window, docs / "doc000.md"), timeout=HEARD_MS)
        other.remove_source(docs)
        qtbot.waitUntil(lambda: not _shown(window, docs), timeout=HEARD_MS)
    finally:
        other.close()
    listener = window.backend.outside._listener
    window.close()
    listener.close(wait_s=5)  # (closed already: waits for its thread)
    assert not listener.alive  # its connection closed with the window


def _inotify_instances() -> int:
    fds = Path("/proc/self/fd")
    return sum(1 for fd in fds.iterdir() if os.path.islink(fd) and os.readlink(fd) == "anon_inode:inotify")


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="Linux: counts this process's inotify instances")
def test_a_closed_window_keeps_no_inotify_instance(make_window, qtbot):
    """A user has 128 inotify instances on this computer, every program together: the watch of the library's files
    ends with its window, not when Python gets round to deleting the window's objects."""
    before = _inotify_instances()
    window = make_window()
    qtbot.waitUntil(lambda: _inotify_instances() == before + 1, timeout=10_000)
    window.close()
    assert _inotify_instances() == before


def test_another_processs_model_switch_shows_its_progress_and_end(make_window, qtbot, tmp_path):
    """Another process re-embedding the window's library: each batch it stages shows in the status line (announced
    as "model": the status read again, not the listing), and so does its swap, without a document changing."""
    from desktop_rag.config import resolve_paths
    from desktop_rag.engine import Engine
    from desktop_rag.engine.models.embedding import HashEmbedder
    from desktop_rag.engine.store import staged_vectors

    home = tmp_path / "home"
    window = make_window(FAST, home)
    wait_idle(qtbot, window)
    add_and_wait(qtbot, window, [str(p) for p in write_docs(tmp_path / "docs", 2)])
    other = Engine(resolve_paths(home), FAST)
    try:
        ids = [int(i) for i in other.store.vector_ids()]
        staged_vectors.begin(other.store, "hash:48")
        qtbot.waitUntil(lambda: window.last_status.reembed_model == "hash:48", timeout=10_000)
        kinds: list[frozenset] = []
        window.backend.library_changed.connect(lambda change: kinds.append(change.kinds))
        for batch, done in ((ids[:1], 1), (ids[1:], len(ids))):
            assert staged_vectors.stage(other.store, "hash:48", batch, HashEmbedder(48).embed(["x"] * len(batch)))
            qtbot.waitUntil(lambda: window.last_status.reembed_done == done, timeout=10_000)
        assert kinds and all(kind == {"model"} for kind in kinds)
        assert staged_vectors.swap(other.store, "hash:48", 48)
        qtbot.waitUntil(lambda: not window.last_status.reembed_model, timeout=10_000)
    finally:
        other.close()
