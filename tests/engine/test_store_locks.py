"""Opening another connection to the library in a process never releases the locks its open connections hold.
POSIX drops every fcntl lock a process holds on a file when any descriptor of that file is closed: the owner-only
create of the database (`config.private_file`), run for each new connection, opened and closed it, so another
process closing the library next took itself for the last one, checkpointed and deleted the `-wal` and `-shm`
files, and this process's connections read their old snapshot from then on (a window never saw a collection the
CLI created). Real connections and a real second process."""

from __future__ import annotations

import subprocess
import sys

from desktop_rag.engine.store.sqlite.store import SqliteStore

WRITE = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("INSERT INTO collections (name, created_at) VALUES ('From another process', 0)")
db.close()
"""


def test_a_new_connection_keeps_the_locks_of_the_open_ones(tmp_path):
    path = tmp_path / "library.sqlite3"
    first = SqliteStore(path)
    assert [n for (n,) in first.db.execute("SELECT name FROM collections")] == ["Default"]
    second = SqliteStore(path)  # another thread's connection, opened while the first is open
    subprocess.run([sys.executable, "-c", WRITE, str(path)], check=True, timeout=60)
    assert path.with_name("library.sqlite3-shm").exists()  # the other process did not take itself for the last one
    names = [n for (n,) in first.db.execute("SELECT name FROM collections ORDER BY id")]
    assert names == ["Default", "From another process"]
    second.db.close()
    first.db.close()
