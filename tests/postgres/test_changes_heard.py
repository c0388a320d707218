"""Another client's commits to a server's library are heard within moments, not at the next poll: the schema's
triggers NOTIFY the library's channel payload-free and a listener (store/postgres/changes.py) on a connection of its
own says "look again". A real PostgreSQL; a second engine writes, as another computer would."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.models.embedding import HashEmbedder
from desktop_rag.engine.store import staged_vectors
from desktop_rag.engine.store.postgres.changes import ChangesListener
from desktop_rag.engine.store.postgres.schema import CHANNEL, SCHEMA_VERSION, TRIGGERS

FAST = Settings(embedding_model="hash:64")
HEARD_S = 2.0


class Heard:
    """Counts the listener's "look again" calls (made on its thread)."""

    def __init__(self) -> None:
        self.count = 0
        self._changed = threading.Condition()

    def __call__(self) -> None:
        with self._changed:
            self.count += 1
            self._changed.notify_all()

    def after(self, count: int, timeout: float = HEARD_S) -> bool:
        """Whether a call beyond the first `count` came within `timeout`."""
        with self._changed:
            return self._changed.wait_for(lambda: self.count > count, timeout)


def _quiet(heard: Heard) -> int:
    """The count once no call came for a moment (the listener's own start and earlier writes heard)."""
    while heard.after(heard.count, 0.5):
        pass
    return heard.count


@contextlib.contextmanager
def _listening(engine: Engine) -> Iterator[tuple[ChangesListener, Heard]]:
    """`engine`'s listener, listening (its calls counted); closed at the end, its thread ended."""
    heard = Heard()
    listener = engine.listen_for_changes(heard)
    try:
        assert listener.listening.wait(10)
        yield listener, heard
    finally:
        listener.close(wait_s=5)
    assert not listener.alive


@contextlib.contextmanager
def _engines(*engines: Engine) -> Iterator[None]:
    """Closes the engines at the end."""
    try:
        yield
    finally:
        for engine in engines:
            engine.close()


def test_a_second_engines_changes_are_heard_within_moments(pg_server, tmp_path):
    library = pg_server.url(pg_server.new_database("heard"))
    window = Engine(resolve_paths(tmp_path / "window"), FAST, library=library)
    other = Engine(resolve_paths(tmp_path / "other"), FAST, library=library)
    window.collections()  # the library made
    with _engines(other, window), _listening(window) as (_listener, heard):
        docs = tmp_path / "docs"
        docs.mkdir()
        (docs / "a.txt").write_text("Minutes of the meeting about the budget.", "utf-8")
        for write in (lambda: other.create_collection("Team"), lambda: other.new_conversation("Asked elsewhere"),
                      lambda: other.index([docs]), lambda: other.remove_source(docs)):
            before = _quiet(heard)
            started = time.monotonic()
            write()
            assert heard.after(before), write
            assert time.monotonic() - started < HEARD_S + 5  # (the write itself included)


def test_a_model_switchs_batches_and_its_swap_are_heard_and_move_the_marks(pg_server, tmp_path):
    """Another client re-embedding the library for another model: each batch it stages is heard and moves the
    switch's mark, the swap is heard and moves the documents' mark (the window's status line shows the switch's
    progress and its end)."""
    library = pg_server.url(pg_server.new_database("switch"))
    window = Engine(resolve_paths(tmp_path / "window"), FAST, library=library)
    other = Engine(resolve_paths(tmp_path / "other"), FAST, library=library)
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(3):
        (docs / f"{i}.txt").write_text(f"Minutes number {i} of the meeting about the budget.", "utf-8")
    other.index([docs])
    with _engines(other, window), _listening(window) as (_listener, heard):
        ids = [int(i) for i in other.store.vector_ids()]
        staged_vectors.begin(other.store, "hash:48")
        for batch in (ids[:1], ids[1:]):
            before, mark = _quiet(heard), window.switch_mark()
            assert staged_vectors.stage(other.store, "hash:48", batch, HashEmbedder(48).embed(["x"] * len(batch)))
            assert heard.after(before) and window.switch_mark() != mark
        before, mark = _quiet(heard), window.files_mark()
        assert staged_vectors.swap(other.store, "hash:48", 48)
        assert heard.after(before) and window.files_mark() != mark and window.switch_mark() == (None, 0)


def test_a_dropped_listening_connection_listens_again(pg_server, tmp_path):
    """The server ends the listener's connection (pg_terminate_backend): it connects again, says "look again" for
    what went unheard meanwhile, and hears the next change."""
    library = pg_server.url(pg_server.new_database("dropped"))
    window = Engine(resolve_paths(tmp_path / "window"), FAST, library=library)
    other = Engine(resolve_paths(tmp_path / "other"), FAST, library=library)
    window.collections()
    raw = pg_server.admin(pg_server_database(library))
    with _engines(other, window), contextlib.closing(raw), _listening(window) as (listener, heard):
        before = _quiet(heard)
        ended = raw.run("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE application_name = 'desktop-rag changes' AND datname = current_database()")
        assert ended == [[True]]
        other.create_collection("Made while it was away")  # (perhaps before it listens again: told all the same)
        assert heard.after(before, 10)
        assert listener.listening.wait(10)
        before = _quiet(heard)
        other.create_collection("Made after")
        assert heard.after(before)


def test_nothing_of_another_persons_private_content_is_told(pg_server, tmp_path):
    """alice hears that the library changed when the administrator writes in a collection not granted to her, or a
    conversation of his own: a notification with no payload; what she then reads holds none of it."""
    database = pg_server.new_database("private")
    pg_server.role("alice", "alice-password-1")
    admin = Engine(resolve_paths(tmp_path / "admin"), FAST, library=pg_server.url(database))
    admin.library.grant(admin.create_collection("Work"), "alice")
    alice = Engine(resolve_paths(tmp_path / "alice"), FAST, library=pg_server.url(database, "alice",
                                                                                      "alice-password-1"))
    raw = _raw(pg_server, database, "alice", "alice-password-1")
    raw.run(f"LISTEN {CHANNEL}")
    with _engines(alice, admin), contextlib.closing(raw), _listening(alice) as (_listener, heard):
        names, conversations = alice.collection_names(), alice.conversations()
        before = _quiet(heard)
        home = tmp_path / "home"
        home.mkdir()
        (home / "diary.txt").write_text("Home secret H-99.", "utf-8")
        admin.index([home], collection=admin.create_collection("Home"))
        admin.new_conversation("Private question about H-99")
        assert heard.after(before)
        raw.run("SELECT 1")  # (pg8000 reads the notifications with an answer)
        assert raw.notifications and {(channel, payload) for _pid, channel, payload in raw.notifications} \
            == {(CHANNEL, "")}
        assert alice.collection_names() == names and alice.conversations() == conversations
        assert "H-99" not in repr((alice.collection_names(), alice.conversations(), alice.files_mark()))


def test_a_library_of_version_5_gets_its_notifications(pg_server, tmp_path):
    """The migration: a library made before the notifications (version 5) gets the triggers when its administrator
    opens it."""
    database = pg_server.new_database("v5")
    admin = Engine(resolve_paths(tmp_path / "admin"), FAST, library=pg_server.url(database))
    admin.collections()
    admin.close()
    raw = pg_server.admin(database)
    notified = [name for name, _when, function in TRIGGERS if function == "library_notified"]
    count = f"SELECT count(*) FROM pg_trigger WHERE tgname IN ({', '.join(repr(n) for n in notified)})"
    with contextlib.closing(raw):
        for name in notified:
            raw.run(f"DROP TRIGGER {name} ON desktop_rag.{name.removesuffix('_notified')}")
        raw.run("DROP FUNCTION desktop_rag.library_notified()")
        raw.run("UPDATE desktop_rag.meta SET value = '5' WHERE key = 'schema_version'")
        assert raw.run(count) == [[0]]
        admin = Engine(resolve_paths(tmp_path / "admin"), FAST, library=pg_server.url(database))
        other = Engine(resolve_paths(tmp_path / "other"), FAST, library=pg_server.url(database))
        admin.collections()
        assert raw.run(count) == [[len(notified)]] and len(notified) == 7
        assert raw.run("SELECT value FROM desktop_rag.meta WHERE key = 'schema_version'") == [[str(SCHEMA_VERSION)]]
        with _engines(other, admin), _listening(admin) as (_listener, heard):
            before = _quiet(heard)
            other.create_collection("Team")
            assert heard.after(before)


def test_a_role_the_server_refuses_is_not_asked_for_again(pg_server, tmp_path):
    """A wrong password (or access taken back): the listener stops after the first refusal instead of adding a
    failed login every half minute for as long as the window is open."""
    database = pg_server.new_database("refused")
    pg_server.role("alice", "alice-password-1")
    admin = Engine(resolve_paths(tmp_path / "admin"), FAST, library=pg_server.url(database))
    admin.collections()
    wrong = Engine(resolve_paths(tmp_path / "alice"), FAST, library=pg_server.url(database, "alice", "not-hers"))
    with _engines(wrong, admin):
        listener = wrong.listen_for_changes(Heard())
        deadline = time.monotonic() + 5
        while listener.alive and time.monotonic() < deadline:
            time.sleep(0.1)
        listener.close()
        assert not listener.alive and not listener.listening.is_set()


def pg_server_database(url: str) -> str:
    """The database a test URL names."""
    return url.split("@/", 1)[1].split("?", 1)[0]


def _raw(pg_server, database: str, user: str, password: str):
    import pg8000.native

    return pg8000.native.Connection(user, database=database, password=password,
                                    unix_sock=str(pg_server.socket_dir / f".s.PGSQL.{pg_server.server._port()}"))
