"""The headless commands for collections, export, import and the MCP server."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from desktop_rag.cli.terminal import clean_line
from desktop_rag.cli.texts import language, say
from desktop_rag.config import AppPaths
from desktop_rag.engine import Engine, UsageError, counted


def cmd_collections(paths: AppPaths, args: argparse.Namespace) -> int:
    from desktop_rag.cli.output import print_json

    engine = Engine(paths)
    try:
        message = _change(engine, args)
        listing = engine.collections()
        grants = engine.library.grants() if args.action == "grants" or args.json else []
    finally:
        engine.close()
    if args.json:
        print_json({"collections": [c.to_json() for c in listing],
                    "grants": [{"collection": name, "role": role} for name, role in grants]})
        return 0
    if args.action == "grants":
        for name, role in grants:
            print(f"{clean_line(name)}: {clean_line(role)}")
        return 0
    if message:
        print(message)
        return 0
    for c in listing:
        print(f"{clean_line(c.name)}{'：' if language() == 'zh' else ': '}"
              f"{counted(language(), sources=c.sources, files=c.files, chunks=c.chunks)}")
    return 0


def _change(engine: Engine, args: argparse.Namespace) -> str:
    """Run create/rename/delete; returns what was done ("" for a plain listing)."""
    action, names = args.action, args.names
    wanted = {"list": 0, "create": 1, "rename": 2, "delete": 1, "grant": 2, "revoke": 2, "grants": 0}[action]
    if len(names) != wanted:
        usage = {"list": "collections", "create": "collections create NAME",
                 "rename": "collections rename OLD NEW", "delete": "collections delete NAME [--yes]",
                 "grant": "collections grant NAME ROLE", "revoke": "collections revoke NAME ROLE",
                 "grants": "collections grants"}[action]
        raise UsageError.coded("cli_usage", usage=usage)
    if action in ("grant", "revoke"):
        had = engine.library.grant(engine.collection_id(names[0]), names[1], revoke=action == "revoke")
        said = "collections.granted" if action == "grant" else "collections.revoked" if had else "collections.no_grant"
        return say(said, role=clean_line(names[1]), name=clean_line(names[0]))
    if action == "create":
        engine.create_collection(names[0])
        return say("collections.created", name=clean_line(names[0].strip()))
    if action == "rename":
        engine.rename_collection(engine.collection_id(names[0]), names[1])
        return say("collections.renamed", old=clean_line(names[0]), new=clean_line(names[1].strip()))
    if action == "delete":
        collection = engine.collection_id(names[0])
        found = next(c for c in engine.collections() if c.id == collection)
        sizes = counted(language(), files=found.files, chunks=found.chunks)
        if not args.yes and not _confirm(say("collections.confirm_delete", name=clean_line(found.name), sizes=sizes)):
            raise UsageError.coded("cli_not_deleted")
        engine.delete_collection(collection)
        return say("collections.deleted", name=clean_line(found.name))
    return ""


def _confirm(question: str) -> bool:
    if not sys.stdin.isatty():
        return False
    return input(question).strip().lower() in ("y", "yes")


def cmd_export(paths: AppPaths, args: argparse.Namespace) -> int:
    from desktop_rag.cli.output import print_json

    engine = Engine(paths)
    try:
        collection = _export_collection(engine, args.collection)
        report = engine.export_collection(collection, Path(args.file), with_documents=args.with_documents)
    finally:
        engine.close()
    if args.json:
        print_json(report.to_json())
        return 0
    counts = counted(language(), files=report.files, chunks=report.chunks, vectors=report.vectors,
                     documents=report.documents)
    print(say("export.done", name=clean_line(report.collection), counts=counts, path=clean_line(report.path)))
    for missing in report.missing_documents:
        print(say("export.missing", path=clean_line(missing)))
    return 0


def _export_collection(engine: Engine, name: str | None) -> int:
    if name is not None:
        return engine.collection_id(name)
    listing = engine.collections()
    if len(listing) != 1:
        names = ", ".join(f"“{clean_line(c.name)}”" for c in listing)
        raise UsageError.coded("cli_export_which", names=names)
    return listing[0].id


def cmd_import(paths: AppPaths, args: argparse.Namespace) -> int:
    from desktop_rag.cli.output import TerminalProgress, print_json

    engine = Engine(paths)
    try:
        content = engine.read_archive(args.file)  # validated before anything is written
        problem = engine.archive_model_problem(content)
        if problem and args.reembed:
            mismatch = problem.parts[0].values  # the archive_model reason's: model, library_model
            print(say("import.reembed", model=clean_line(str(mismatch["model"])),
                      library_model=clean_line(str(mismatch["library_model"])),
                      passages=counted(language(), passages=len(content.chunks))), file=sys.stderr)
        report = engine.import_archive(args.file, name=args.name, documents_dir=args.documents_dir,
                                       reembed=args.reembed, content=content)
        embedded = 0
        if report.to_embed:
            progress = TerminalProgress()
            embedded = engine.index([], collection=report.collection_id, on_progress=progress).embedded
    finally:
        engine.close()
    if args.json:
        print_json({**report.to_json(), "embedded": embedded})
        return 0
    counts = counted(language(), files=report.files, chunks=report.chunks, vectors=report.vectors)
    again = say("import.embedded_again", n=embedded) if embedded else ""
    print(say("import.done", name=clean_line(report.collection), counts=counts, again=again))
    if report.documents_dir:
        print(say("import.documents", path=clean_line(report.documents_dir)))
    elif report.sources:
        print(say("import.no_documents"))
    return 0


def cmd_mcp(paths: AppPaths, args: argparse.Namespace) -> int:
    from desktop_rag.mcp_server import serve

    return serve(paths)
