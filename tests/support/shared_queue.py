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

from desktop_rag.engine.engine import Engine
from desktop_rag.engine.ingest.reports import IndexReport, Progress
from tests.support import REPO


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
    """Two clients, "a" and "b", indexing at once, each on a thread of its name; their embedder (`hook`) records what
    each embeds and holds each batch until the other client is embedding too (or done)."""

    def __init__(self, clients: dict[str, Engine]) -> None:
        self.clients = clients
        self.embedded: dict[str, list[str]] = {name: [] for name in clients}
        self.progress: dict[str, list[Progress]] = {name: [] for name in clients}
        self._busy = {name: threading.Event() for name in clients}  # embedding, or done with its run

    def hook(self, texts: list[str]) -> None:
        me = threading.current_thread().name
        self.embedded[me] += texts
        self._busy[me].set()
        assert self._busy["b" if me == "a" else "a"].wait(60)  # the two embed at the same time

    def index(self) -> dict[str, IndexReport]:
        """Each client's index run, at once (what one raised fails the test)."""
        reports: dict[str, IndexReport] = {}
        failures: list[BaseException] = []

        def one(name: str) -> None:
            try:
                reports[name] = self.clients[name].index(on_progress=self.progress[name].append)
            except BaseException as exc:  # noqa: BLE001 - the test reports it
                failures.append(exc)
            finally:
                self._busy[name].set()

        threads = [threading.Thread(target=one, args=(name,), name=name) for name in self.clients]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(300)
        assert not failures, failures
        return reports

    def each_once(self, queue: Counter, phase: str) -> None:
        """Each passage of `queue` embedded once, none twice, and by both clients between them; each client's
        progress bar of `phase` ends full."""
        done = Counter(self.embedded["a"] + self.embedded["b"])
        assert twice(done) == 0 and not queue - done  # each chunk once: none twice, none left out
        assert self.embedded["a"] and self.embedded["b"]  # and the two shared the queue
        for seen in self.progress.values():
            last = [p for p in seen if p.phase == phase][-1]
            assert last.chunks_embedded == last.chunks_total


@contextlib.contextmanager
def together(monkeypatch, client: Callable[[str], Engine]) -> Iterator[Together]:
    """Clients "a" and "b" (`client(name)`), with this process's embedders watched by them; closed at the end."""
    from desktop_rag.engine import runtime
    from tests.support.watched_embedder import watching

    clients = {name: client(name) for name in ("a", "b")}
    try:
        pair = Together(clients)
        monkeypatch.setattr(runtime, "create_embedder", watching(pair.hook))
        yield pair
    finally:
        for engine in clients.values():
            engine.close()


@dataclass
class Stalled:
    """A client in another process, stalled for good in its first batch (tests/support/watched_embedder.py)."""

    process: subprocess.Popen
    backend: int  # its server process
    texts: list[str]  # the batch it holds
    here: list[str]  # what the clients of this process embed meanwhile

    def gave_the_rest(self, index: Callable[[], object], queue: Counter) -> None:
        """`index`, another client's run meanwhile, embeds every passage of `queue` but the stalled batch."""
        index()
        assert 0 < len(self.texts) < sum(queue.values())
        assert shared(self.here, self.texts) == 0
        assert Counter(self.here) == queue - Counter(self.texts)

    def kill(self, pg_server, database: str) -> None:
        """Kill it, and wait until the server has noticed (it lets go of what the session held); `here` restarts."""
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
        self.here.clear()


@contextlib.contextmanager
def stalled_client(monkeypatch, url: str, folder_: Path, *model: str) -> Iterator[Stalled]:
    """A client of the library at `url` (with `model` if given) stalled in its first batch, its data in `folder_`,
    and this process's embedders watched; killed at the end."""
    from desktop_rag.engine import runtime
    from tests.support.watched_embedder import watching

    signal = folder_ / "stalled.json"
    process = subprocess.Popen([sys.executable, "-m", "tests.support.watched_embedder", url, str(folder_ / "home"),
                                str(signal), *model], cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
                               stderr=subprocess.PIPE, text=True)
    here: list[str] = []
    monkeypatch.setattr(runtime, "create_embedder", watching(here.extend))
    try:
        deadline = time.monotonic() + 120
        while not signal.exists():
            assert process.poll() is None, process.stderr.read()
            assert time.monotonic() < deadline
            time.sleep(0.1)
        claim = json.loads(signal.read_text("utf-8"))
        yield Stalled(process, claim["backend"], claim["texts"], here)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(30)
