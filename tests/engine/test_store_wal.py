"""The library is in WAL mode from its first open, and a second connection does not switch it again."""

from __future__ import annotations

import sqlite3

from desktop_rag.engine.store.sqlite.store import SqliteStore as Store


def test_a_library_is_wal_and_a_second_open_does_not_ask_for_the_write_lock(tmp_path, monkeypatch):
    first = Store(tmp_path / "library.db")
    assert first.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    statements: list[str] = []
    real_connect = sqlite3.connect

    def traced(*args, **kwargs):
        db = real_connect(*args, **kwargs)
        db.set_trace_callback(statements.append)
        return db

    monkeypatch.setattr(sqlite3, "connect", traced)
    second = Store(tmp_path / "library.db")
    assert "PRAGMA journal_mode=WAL" not in statements  # (it can fail "database is locked" while another opens)
    second.close()
    first.close()
