"""The headless CLI commands (index, status, search, ask, clear-answers, remove) on top of the engine facade."""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Iterator, Sequence

from desktop_rag.cli.answer_stream import AnswerOutput
from desktop_rag.cli.document_commands import confirmed_by_yes, say_estimate, stepped
from desktop_rag.cli.output import TerminalProgress, error_line, language, print_json, said
from desktop_rag.cli.terminal import clean, clean_line
from desktop_rag.cli.texts import say
from desktop_rag.config import AppPaths
from desktop_rag.engine import (
    DoneEvent, Engine, ErrorEvent, Hit, Reason, SourcesEvent, TokenEvent, UsageError, counted, location_text,
    skipped_links, skipped_summary,
)


def cmd_index(paths: AppPaths, args: argparse.Namespace) -> int:
    engine = Engine(paths)
    progress = TerminalProgress()
    engine.on_model_progress = progress.model
    try:
        collection = _collection(engine, args)
        if args.reindex:
            if args.paths:
                engine.add_sources(args.paths, collection)
            report = engine.reindex(on_progress=progress)
        else:
            force = _unlock(engine, args)
            report = engine.index(args.paths or None, on_progress=progress, force=force, collection=collection)
    finally:
        progress.stream.write("\r\033[K" if progress.enabled else "")
        engine.close()
    if args.json:
        print_json(report.to_json())
    else:
        lang = language()
        kept = f"{'，' if lang == 'zh' else ', '}{counted(lang, kept_vectors=report.kept)}" if report.kept else ""
        print(say("index.summary", added=report.added, updated=report.updated, removed=report.removed,
                  unchanged=report.unchanged, failed=len(report.failed), chunks=counted(lang, new_chunks=report.chunks),
                  embedded=report.embedded, kept=kept, seconds=report.seconds))  # kept: edited files' unchanged passages
        if report.attachments:
            print(say("index.attachments", attachments=counted(lang, attachments=report.attachments)))
        if report.skipped:
            print(clean_line(skipped_summary(report.skipped, lang)))
        if report.links:
            print(skipped_links(len(report.links), lang))
            for link in report.links:
                print(say("index.link", path=clean_line(link.path)))
        for failure in report.failed:
            print(say("index.failed", path=clean_line(failure.path), why=said(failure.error)))
        for note in report.notes:
            print(say("index.note", path=clean_line(note.path), why=said(note.error)))
    return 1 if report.failed or report.cancelled else 0


def _unlock(engine: Engine, args: argparse.Namespace) -> list[str]:
    """With --password: use it on locked PDFs, and re-read those that failed for want of it."""
    password = getattr(args, "password", None)
    if not password:
        return []
    if password == "-":
        import getpass

        password = getpass.getpass(say("index.password"))
    engine.set_password(password)
    return engine.locked_files(args.paths or None)


def _collection(engine: Engine, args: argparse.Namespace) -> int | None:
    """The id of `--collection NAME` (None: all collections; for index, the first one)."""
    return engine.collection_id(getattr(args, "collection", None))


def cmd_status(paths: AppPaths, args: argparse.Namespace) -> int:
    engine = Engine(paths)
    try:
        collection = _collection(engine, args)
        status = engine.status(collection)
        listing = engine.collections()
    finally:
        engine.close()
    if args.json:
        print_json({**status.to_json(), "collection": args.collection and next(
            c.name for c in listing if c.id == collection), "collections": [c.to_json() for c in listing]})
        return 0
    if collection is not None:
        print(say("status.collection", name=clean_line(next(c.name for c in listing if c.id == collection))))
    print(say("status.model", model=clean_line(status.embedding_model), dimension=status.dimension))
    attached = say("status.attached", n=status.files_attachments) if status.files_attachments else ""
    print(say("status.files", total=status.files_total, attached=attached, indexed=status.files_indexed,
              failed=status.files_failed, pending=status.files_pending))
    print(say("status.chunks", chunks=status.chunks, pending=status.chunks_pending_embedding))
    if status.skipped:
        print(say("status.last_scan", skipped=clean_line(skipped_summary(status.skipped, language()))))
    if status.reembed_model:
        print(say("status.switching", model=clean_line(status.reembed_model), done=status.reembed_done,
                  total=status.reembed_total))
    for source in status.sources:
        print(say("status.not_linked" if source in status.not_linked else "status.source", path=clean_line(source)))
    for failure in status.failed_files:
        print(say("status.failed", path=clean_line(failure.path), why=said(failure.error)))
    return 0


def cmd_search(paths: AppPaths, args: argparse.Namespace) -> int:
    engine = Engine(paths)
    try:
        collection = _collection(engine, args)
        engine.restriction(collection, args.folders, args.types, args.files)  # a bad folder fails before any query
        if args.queries:
            return _batch_search(engine, args.queries, args.k, collection, args.folders, args.types, args.files)
        hits = engine.search(args.query, args.k, collection, args.folders, args.types, files=args.files)
    finally:
        engine.close()
    if args.json:
        print_json({"query": args.query, "hits": [h.to_json(i + 1) for i, h in enumerate(hits)]})
        return 0
    if not hits:
        print(say("search.none"))
    for rank, hit in enumerate(hits, 1):
        print(f"{say('search.hit', rank=rank, where=_where(hit), score=hit.score)}\n   {_snippet(hit.text)}")
    return 0


def _batch_search(engine: Engine, queries_file: str, k: int | None, collection: int | None = None,
                  folders: Sequence[str] = (), types: Sequence[str] = (), files: Sequence[str] = ()) -> int:
    for query_id, text in _queries(queries_file):
        hits = engine.search(text, k, collection, folders, types, files=files)
        print_json({"_id": query_id, "query": text, "hits": [h.to_json(i + 1) for i, h in enumerate(hits)]})
    return 0


def _queries(queries_file: str) -> Iterator[tuple[object, str]]:
    """(_id, text) of each line of a JSONL file of {"_id", "text"} (review/labelled.py: a line at a time, bounded)."""
    from desktop_rag.engine import query_lines

    return query_lines(queries_file)


def cmd_context(paths: AppPaths, args: argparse.Namespace) -> int:
    """The numbered passages an answer would send (after context compression), with their tokens before and after."""
    engine = Engine(paths)
    try:
        collection = _collection(engine, args)
        engine.restriction(collection, args.folders, args.types, args.files)  # a bad folder fails before any question
        if args.queries:
            for query_id, text in _queries(args.queries):
                print_json({"_id": query_id, **engine.context(text, collection, args.folders, args.types, args.files)})
            return 0
        shown = engine.context(args.question, collection, args.folders, args.types, args.files)
    finally:
        engine.close()
    if args.json:
        print_json(shown)
        return 0
    if not shown["passages"]:
        print(say("search.none"))
    for passage in shown["passages"]:
        print(f"[{passage['n']}] {clean_line(passage['path'])}\n{clean(passage['text'])}\n")
    print(say("context.tokens", before=shown["tokens_before"], after=shown["tokens_after"]))
    return 0


def cmd_ask(paths: AppPaths, args: argparse.Namespace) -> int:
    engine = Engine(paths)
    _warn_about_address(engine)
    passages: tuple[Hit, ...] = ()
    cited: tuple[Hit, ...] = ()
    answer, mode, failed, cached = "", "extractive", False, False
    notice: object = ""
    error: Reason | None = None
    tokens = AnswerOutput()  # as the finished answer reads: citations cleaned, thinking hidden, terminal-safe
    try:
        where = {"collection": _collection(engine, args), "folders": args.folders, "types": args.types,
                 "files": args.files}
        # a summary question: its cost first (over the request limit it needs --yes)
        say_estimate(engine.summary_question_plan(args.question, **where), engine, args.yes)
        with confirmed_by_yes():
            events = engine.ask(args.question, **where, confirm_cost=args.yes)
            first = next(events, None)  # the checks run before anything is yielded
        for event in stepped(itertools.chain(() if first is None else (first,), events)):
            if isinstance(event, SourcesEvent):
                passages = event.hits
                if event.prompt is not None:  # the passages went to a model: its answer, even one that fails
                    mode = "llm"
                tokens.begin(len(passages), thinking=event.thinking_chars, thinks=event.thinks)
            elif isinstance(event, TokenEvent) and not args.json:
                tokens.feed(event.text)
            elif isinstance(event, DoneEvent):
                answer, mode, cached, notice = event.answer, event.mode, event.cached, event.notice
                cited = event.cited
                if not args.json:
                    tokens.finish(event.answer)
                if event.notice and not args.json:
                    print(f"\n\n({said(event.notice)})", end="")
                if cached and not args.json:
                    print(f"\n\n{say('ask.stored')}", end="")
            elif isinstance(event, ErrorEvent):
                failed, answer, error = True, event.partial, event.message
                if not args.json:
                    tokens.finish(event.partial)
                print(f"\n{error_line(event.message)}", file=sys.stderr)
    except KeyboardInterrupt:
        tokens.interrupted()
        raise
    finally:
        engine.close()
    # Number each source as the answer cites it: its position among the passages sent.
    numbered = [(passages.index(h) + 1 if h in passages else i + 1, h) for i, h in enumerate(cited or passages)]
    if args.json:
        failure = {} if error is None else {"error": str(error), "code": error.code}
        print_json({"question": args.question, "answer": answer, "mode": mode, "cached": cached,
                    "notice": str(notice), **failure, "sources": [h.to_json(n) for n, h in numbered]})
    else:
        print(f"\n\n{say('ask.sources')}" if numbered else "")
        for n, hit in numbered:
            print(f"[{n}] {_where(hit)}\n    {_snippet(hit.text)}")
    return 1 if failed else 0


def cmd_clear_answers(paths: AppPaths, args: argparse.Namespace) -> int:
    engine = Engine(paths)
    try:
        removed = engine.forget_answers()
    finally:
        engine.close()
    if args.json:
        print_json({"removed": removed})
    else:
        print(say("answers.removed", n=removed))
    return 0


def cmd_remove(paths: AppPaths, args: argparse.Namespace) -> int:
    engine = Engine(paths)
    try:
        removed = engine.remove_source(args.path, _collection(engine, args))
    finally:
        engine.close()
    if not removed:
        if args.collection:
            raise UsageError.coded("not_a_source_in", path=args.path, collection=args.collection)
        raise UsageError.coded("not_a_source", path=args.path)
    print(say("source.removed", path=clean_line(args.path)))
    return 0


def cmd_link(paths: AppPaths, args: argparse.Namespace) -> int:
    engine = Engine(paths)
    try:
        source = engine.relink_source(args.source, args.folder, _collection(engine, args))
        report = engine.index([source.path], collection=source.collection_id)
    finally:
        engine.close()
    print(say("source.linked", source=clean_line(args.source), folder=clean_line(source.path),
              unchanged=report.unchanged, read=report.added + report.updated, gone=report.removed))
    return 1 if report.failed else 0


def _warn_about_address(engine: Engine) -> None:
    """Say once, on stderr, when the model is reached over plain http:// on another machine, and when its address
    has a user:password@ part (not sent)."""
    from desktop_rag.engine import address_notice, plain_http_warning, resolve_llm_config

    config = resolve_llm_config(engine.settings)
    notice = config and address_notice(config.base_url, language(), config.userinfo_dropped)
    for warning in (plain_http_warning(config, language()), notice):
        if warning:
            print(clean(warning), file=sys.stderr, flush=True)


def _where(hit: Hit) -> str:
    parts = [hit.path]
    if hit.page is not None:
        parts.append(location_text(hit.path, hit.page, language()))
    if hit.heading:
        parts.append(hit.heading)
    return clean_line(", ".join(parts))


def _snippet(text: str, width: int = 160) -> str:
    flat = " ".join(clean(text).split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"
