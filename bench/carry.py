"""Carrying a person's marks and kept passages across an edit (store/carried_references.py) in a library with a long
history: `--library` files, `--turns` stored turns and as many review-log rows, each keeping 5 passages of random
files, then `--files` of the files edited (one paragraph each) and indexed again in one run. Figures: the run's
wall, the time spent in the store's `carry_references` in all and per file, and the same run with no history (what
the carry costs); on SQLite, or (`--server`) on the bench's PostgreSQL server (bench.server)."""

from __future__ import annotations

import argparse
import json
import random
import shutil
import time

from bench.common import CACHE, emit, figure
from desktop_rag.config import Settings, resolve_paths
from desktop_rag.engine.engine import Engine

SETTINGS = Settings(embedding_model="hash:64", chunk_size=400, chunk_overlap=0)
PARAGRAPHS = 12


def _paragraphs(n: int, edited: bool = False) -> str:
    lines = [f"Paragraph {i} of file {n} says something about subject {i * 7 + n} at some length. " * 3
             for i in range(PARAGRAPHS)]
    if edited:
        lines[3] = f"An edited paragraph of file {n}, longer than it was before the edit. " * 3
    return "# Notes\n\n" + "\n\n".join(lines)


def _history(engine: Engine, turns: int, seed: int = 7) -> None:
    """`turns` assistant turns and `turns` review-log rows, each with 5 passages (as the writers write them)."""
    rows = engine.store.db.execute("SELECT id, file_id, ordinal, text, char_start, char_end FROM chunks").fetchall()
    rng = random.Random(seed)
    conversation = engine.new_conversation()

    def kept() -> str:
        return json.dumps([{"chunk_id": c, "score": 0.5, "path": "/docs/x.md", "page": None, "heading": "Notes",
                            "text": t, "file_id": f, "ordinal": o, "char_start": s, "char_end": e}
                           for c, f, o, t, s, e in rng.sample(rows, 5)], ensure_ascii=False)

    with engine.store.transaction() as db:
        db.executemany("INSERT INTO messages (conversation_id, role, content, sources_json, created_at) "
                       "VALUES (?, 'assistant', 'An answer.', ?, 0)", [(conversation, kept()) for _ in range(turns)])
        db.executemany("INSERT INTO answer_log (created_at, question, normalised, query, query_normalised, scope, "
                       "passages_json, model, settings_json, answer, mode) VALUES (0, 'q', 'q', 'q', 'q', '[]', ?, "
                       "'', '{}', 'An answer.', 'extractive')", [(kept(),) for _ in range(turns)])


def run(library: int, files: int, turns: int, server=None) -> dict:
    """Index `library` files, store the history, edit `files` of them and index again: timings."""
    home = CACHE / "carry-home"
    shutil.rmtree(home, ignore_errors=True)
    folder = home / "docs"
    folder.mkdir(parents=True)
    for n in range(library):
        (folder / f"f{n:05d}.md").write_text(_paragraphs(n), encoding="utf-8")
    url = None
    if server is not None:
        from bench.server import fresh_database

        url = fresh_database(server, "carry")
    engine = Engine(resolve_paths(home / "data"), SETTINGS, library=url)
    try:
        engine.index([folder])
        _history(engine, turns)
        for n in range(files):
            (folder / f"f{n:05d}.md").write_text(_paragraphs(n, edited=True), encoding="utf-8")
        spent: list[float] = []
        carry = engine.store.carry_references

        def timed(file_id, moves):
            start = time.perf_counter()
            carry(file_id, moves)
            spent.append(time.perf_counter() - start)

        engine.store.carry_references = timed
        start = time.perf_counter()
        report = engine.index()
        wall = time.perf_counter() - start
        assert report.updated == files, report
        return {"wall": wall, "carry": sum(spent), "calls": len(spent)}
    finally:
        engine.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--library", type=int, default=2000, help="files in the library")
    parser.add_argument("--files", type=int, default=200, help="files edited")
    parser.add_argument("--turns", type=int, default=20_000)
    parser.add_argument("--server", action="store_true", help="on the bench's PostgreSQL server")
    args = parser.parse_args(argv)
    server = None
    if args.server:
        from bench.server import start_server

        server = start_server()
    rows = []
    try:
        for turns in (0, args.turns):
            got = run(args.library, args.files, turns, server)
            rows += [figure(f"carry.{turns}_turns.reindex_wall", got["wall"], "s",
                            note=f"{args.files} of {args.library} files edited"),
                     figure(f"carry.{turns}_turns.carry_total", got["carry"], "s", note=f"{got['calls']} calls"),
                     figure(f"carry.{turns}_turns.carry_per_file", 1000 * got["carry"] / max(got["calls"], 1), "ms")]
    finally:
        if server is not None:
            server.stop()
    emit("carry", rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
