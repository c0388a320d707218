"""The headless CLI commands (index, status, search, ask, remove) on top of the engine facade."""

from __future__ import annotations

import argparse
import json
import sys
import time

from desktop_rag.config import AppPaths
from desktop_rag.engine.engine import Engine
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.types import DoneEvent, ErrorEvent, Hit, Progress, SourcesEvent, TokenEvent


def _print_json(value: object) -> None:
    print(json.dumps(value, ensure_ascii=False), flush=True)


class TerminalProgress:
    """A one-line progress bar on stderr, only when it is a terminal."""

    def __init__(self, stream=sys.stderr) -> None:
        self.stream = stream
        self.enabled = stream.isatty()
        self._last = 0.0

    def __call__(self, p: Progress) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if p.phase not in ("done",) and now - self._last < 0.1:
            return
        self._last = now
        if p.phase == "scan":
            line = "Scanning folders..."
        elif p.phase == "text":
            line = f"Reading  {_bar(p.files_done, p.files_total)} {p.files_done}/{p.files_total} files{_eta(p)}"
        elif p.phase == "embed":
            line = (f"Embedding {_bar(p.chunks_embedded, p.chunks_total)} {p.chunks_embedded}/{p.chunks_total} "
                    f"chunks, {p.rate:.0f}/s{_eta(p)}")
        else:
            line = ""
        self.stream.write("\r\033[K" + line + ("\n" if p.phase == "done" and line else ""))
        self.stream.flush()


def _bar(done: int, total: int, width: int = 24) -> str:
    filled = int(width * done / total) if total else 0
    return "[" + "#" * filled + "." * (width - filled) + "]"


def _eta(p: Progress) -> str:
    return f", about {p.eta_seconds:.0f} s left" if p.eta_seconds else ""


def cmd_index(paths: AppPaths, args: argparse.Namespace) -> int:
    engine = Engine(paths)
    progress = TerminalProgress()
    try:
        if args.reindex:
            if args.paths:
                engine.add_sources(args.paths)
            report = engine.reindex(on_progress=progress)
        else:
            report = engine.index(args.paths or None, on_progress=progress)
    finally:
        progress.stream.write("\r\033[K" if progress.enabled else "")
        engine.close()
    if args.json:
        _print_json(report.to_json())
    else:
        print(f"{report.added} added, {report.updated} updated, {report.removed} removed, "
              f"{report.unchanged} unchanged, {len(report.failed)} failed; {report.chunks} new chunks, "
              f"{report.embedded} embedded in {report.seconds:.1f} s")
        for failure in report.failed:
            print(f"  failed: {failure.path}: {failure.error}")
    return 1 if report.failed or report.cancelled else 0


def cmd_status(paths: AppPaths, args: argparse.Namespace) -> int:
    engine = Engine(paths)
    try:
        status = engine.status()
    finally:
        engine.close()
    if args.json:
        _print_json(status.to_json())
        return 0
    print(f"Embedding model: {status.embedding_model} (dimension {status.dimension})")
    print(f"Files: {status.files_total} total, {status.files_indexed} indexed, {status.files_failed} failed, "
          f"{status.files_pending} pending")
    print(f"Chunks: {status.chunks} ({status.chunks_pending_embedding} waiting for embedding)")
    for source in status.sources:
        print(f"Source: {source}")
    for failure in status.failed_files:
        print(f"Failed: {failure.path}: {failure.error}")
    return 0


def cmd_search(paths: AppPaths, args: argparse.Namespace) -> int:
    engine = Engine(paths)
    try:
        if args.queries:
            return _batch_search(engine, args.queries, args.k)
        hits = engine.search(args.query, args.k)
    finally:
        engine.close()
    if args.json:
        _print_json({"query": args.query, "hits": [h.to_json(i + 1) for i, h in enumerate(hits)]})
        return 0
    if not hits:
        print("No matching passages.")
    for rank, hit in enumerate(hits, 1):
        print(f"{rank}. {_where(hit)}  (score {hit.score:.3f})\n   {_snippet(hit.text)}")
    return 0


def _batch_search(engine: Engine, queries_file: str, k: int | None) -> int:
    try:
        lines = open(queries_file, encoding="utf-8").read().splitlines()
    except OSError as exc:
        raise UsageError(f"Cannot read {queries_file}: {exc.strerror}") from exc
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            query_id, text = item["_id"], item["text"]
        except (ValueError, KeyError, TypeError) as exc:
            raise UsageError(f'{queries_file}:{number}: expected a JSON object with "_id" and "text"') from exc
        hits = engine.search(text, k)
        _print_json({"_id": query_id, "query": text, "hits": [h.to_json(i + 1) for i, h in enumerate(hits)]})
    return 0


def cmd_ask(paths: AppPaths, args: argparse.Namespace) -> int:
    engine = Engine(paths)
    passages: tuple[Hit, ...] = ()
    cited: tuple[Hit, ...] = ()
    answer, mode, failed = "", "extractive", False
    try:
        for event in engine.ask(args.question):
            if isinstance(event, SourcesEvent):
                passages = event.hits
            elif isinstance(event, TokenEvent) and not args.json:
                print(event.text, end="", flush=True)
            elif isinstance(event, DoneEvent):
                answer, mode = event.answer, event.mode
                cited = event.cited
                if event.notice and not args.json:
                    print(f"\n\n({event.notice})", end="")
            elif isinstance(event, ErrorEvent):
                failed = True
                answer = event.partial
                print(f"\nerror: {event.message}", file=sys.stderr)
    finally:
        engine.close()
    # Number each source as the answer cites it: its position among the passages sent.
    numbered = [(passages.index(h) + 1 if h in passages else i + 1, h) for i, h in enumerate(cited or passages)]
    if args.json:
        _print_json({"question": args.question, "answer": answer, "mode": mode,
                     "sources": [h.to_json(n) for n, h in numbered]})
    else:
        print("\n\nSources:" if numbered else "")
        for n, hit in numbered:
            print(f"[{n}] {_where(hit)}\n    {_snippet(hit.text)}")
    return 1 if failed else 0


def cmd_remove(paths: AppPaths, args: argparse.Namespace) -> int:
    engine = Engine(paths)
    try:
        removed = engine.remove_source(args.path)
    finally:
        engine.close()
    if not removed:
        raise UsageError(f"{args.path} is not a source in this library (see `desktop-rag status`)")
    print(f"Removed {args.path} and its chunks.")
    return 0


def _where(hit: Hit) -> str:
    parts = [hit.path]
    if hit.page is not None:
        parts.append(f"page {hit.page}")
    if hit.heading:
        parts.append(hit.heading)
    return ", ".join(parts)


def _snippet(text: str, width: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"
