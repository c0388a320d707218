"""Each answer or search thread's database connection goes with the thread: 600 questions do not pile up
600 open connections (about 500 reached the default limit of 1,024 open files).

Bookkeeping, not semantics: the deterministic hashing embedder keeps it fast.
"""

from __future__ import annotations

import os
import sys
import threading

import pytest

from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts open files through /proc")


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_open_files_stay_bounded_over_600_short_lived_question_threads(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.txt").write_text("Harbour project notes. The crane arrives on Monday.", encoding="utf-8")
    engine = Engine(resolve_paths(tmp_path / "home"), Settings(embedding_model="hash:64"))
    try:
        engine.index([docs])
        list(engine.ask("When does the crane arrive?"))
        before = open_files()
        errors: list[BaseException] = []

        def question(n: int) -> None:
            try:
                if n % 2:
                    assert engine.search("harbour crane")
                else:
                    assert list(engine.ask("When does the crane arrive?"))
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

        for batch in range(60):  # 600 threads, ten at a time, like answers started one after another
            threads = [threading.Thread(target=question, args=(batch * 10 + i,)) for i in range(10)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        assert not errors, errors[:3]
        grown = open_files() - before
        assert grown < 60, f"{grown} more open files after 600 question threads"
    finally:
        engine.close()
    print(f"open files grew by {grown} over 600 threads", file=sys.stderr)
