"""What the tests of clients sharing a library's queues count (tests/postgres/test_embedding_claims.py,
test_reembed_claims.py): a folder of documents, two clients embedding at once, the passages embedded twice or by
both clients, a client stalled mid-batch in another process, and the server noticing it killed."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
REPO = Path(__file__).resolve().parents[2]


def folder(path: Path, files: int) -> Path:
    """`files` documents of 900 words no other document has (several chunks each)."""
    path.mkdir(parents=True)
    for i in range(files):
        (path / f"doc{i:03}.txt").write_text(" ".join(f"doc{i}w{j}" for j in range(900)), "utf-8")
    return path


def twice(done: Counter) -> int:
    """How many embeddings were of a passage embedded before."""
    return sum(n - 1 for n in done.values())


def shared(one: list[str], other: list[str]) -> int:
    """How many passages both clients embedded."""
    return sum((Counter(one) & Counter(other)).values())


class Together:
    """Two clients, "a" and "b", each run on a thread of its name at once; their embedder (`hook`, for `watching`)
    records what each embeds and holds each batch until the other client is embedding too (or done)."""

    def __init__(self) -> None:
        self.embedded: dict[str, list[str]] = {"a": [], "b": []}
        self._busy = {name: threading.Event() for name in self.embedded}  # embedding, or done with its run

    def hook(self, texts: list[str]) -> None:
        me = threading.current_thread().name
        self.embedded[me] += texts
        self._busy[me].set()
        assert self._busy["b" if me == "a" else "a"].wait(60)  # the two embed at the same time

    def run(self, work: dict[str, Callable[[], T]]) -> dict[str, T]:
        """What each client's `work` returned (what one raised fails the test)."""
        results: dict[str, T] = {}
        failures: list[BaseException] = []

        def one(name: str) -> None:
            try:
                results[name] = work[name]()
            except BaseException as exc:  # noqa: BLE001 - the test reports it
                failures.append(exc)
            finally:
                self._busy[name].set()

        threads = [threading.Thread(target=one, args=(name,), name=name) for name in self.embedded]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(300)
        assert not failures, failures
        return results

    def each_once(self, queue: Counter) -> None:
        """Each passage of `queue` embedded once, none twice, and by both clients between them."""
        done = Counter(self.embedded["a"] + self.embedded["b"])
        assert twice(done) == 0 and not queue - done  # each chunk once: none twice, none left out
        assert self.embedded["a"] and self.embedded["b"]  # and the two shared the queue


@dataclass
class Stalled:
    """A client in another process, stalled for good in its first batch (tests/support/watched_embedder.py)."""

    process: subprocess.Popen
    backend: int  # its server process
    texts: list[str]  # the batch it holds

    def gave_the_rest(self, embedded: list[str], queue: Counter) -> None:
        """Another client, meanwhile, embedded every passage of `queue` but this one's batch."""
        assert 0 < len(self.texts) < sum(queue.values())
        assert shared(embedded, self.texts) == 0
        assert Counter(embedded) == queue - Counter(self.texts)

    def kill(self, pg_server, database: str) -> None:
        """Kill it, and wait until the server has noticed (it lets go of what the session held)."""
        self.process.kill()
        self.process.wait(30)
        raw = pg_server.admin(database)
        try:
            deadline = time.monotonic() + 30
            while raw.run("SELECT 1 FROM pg_stat_activity WHERE pid = :pid", pid=self.backend):
                assert time.monotonic() < deadline
                time.sleep(0.1)
        finally:
            raw.close()


@contextlib.contextmanager
def stalled_client(url: str, folder_: Path, *model: str) -> Iterator[Stalled]:
    """A client of the library at `url` (with `model` if given) stalled in its first batch, its data in `folder_`;
    killed at the end."""
    signal = folder_ / "stalled.json"
    process = subprocess.Popen([sys.executable, "-m", "tests.support.watched_embedder", url, str(folder_ / "home"),
                                str(signal), *model], cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
                               stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not signal.exists():
            assert process.poll() is None, process.stderr.read()
            assert time.monotonic() < deadline
            time.sleep(0.1)
        claim = json.loads(signal.read_text("utf-8"))
        yield Stalled(process, claim["backend"], claim["texts"])
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(30)
