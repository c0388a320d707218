"""The headless commands for collections, export, import and the MCP server."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from desktop_rag.cli.terminal import clean_line
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
        print(f"{clean_line(c.name)}: {counted(sources=c.sources, files=c.files, chunks=c.chunks)}")
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
        if action == "grant":
            return f"Role “{clean_line(names[1])}” may now see and index the collection “{clean_line(names[0])}”."
        return (f"Role “{clean_line(names[1])}” may no longer see the collection “{clean_line(names[0])}”." if had
                else f"Role “{clean_line(names[1])}” had no grant on “{clean_line(names[0])}”.")
    if action == "create":
        engine.create_collection(names[0])
        return f"Created the collection “{clean_line(names[0].strip())}”."
    if action == "rename":
        engine.rename_collection(engine.collection_id(names[0]), names[1])
        return f"Renamed “{clean_line(names[0])}” to “{clean_line(names[1].strip())}”."
    if action == "delete":
        collection = engine.collection_id(names[0])
        found = next(c for c in engine.collections() if c.id == collection)
        sizes = counted(files=found.files, chunks=found.chunks)
        if not args.yes and not _confirm(f"Delete the collection “{clean_line(found.name)}” ({sizes})? Your documents "
                                         "on disk are not touched. [y/N] "):
            raise UsageError.coded("cli_not_deleted")
        engine.delete_collection(collection)
        return f"Deleted the collection “{clean_line(found.name)}” and its index (your documents were not touched)."
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
    counts = counted(files=report.files, chunks=report.chunks, vectors=report.vectors, documents=report.documents)
    print(f"Exported “{clean_line(report.collection)}”: {counts} -> {clean_line(report.path)}")
    for missing in report.missing_documents:
        print(f"  not included (missing, changed since it was indexed, not linked, or not a plain file in its "
              f"folder): {clean_line(missing)}")
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
            print(clean_line(str(problem).split(". Its")[0]) + f"; its {counted(passages=len(content.chunks))} "
                  "will be embedded again with this library's model.", file=sys.stderr)
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
    counts = counted(files=report.files, chunks=report.chunks, vectors=report.vectors)
    again = f", {embedded} embedded again" if embedded else ""
    print(f"Imported “{clean_line(report.collection)}”: {counts} used as stored{again}.")
    if report.documents_dir:
        print(f"Documents: {clean_line(report.documents_dir)}")
    elif report.sources:
        print("The documents were not in the archive: search works; the sources keep their original paths.")
    return 0


def cmd_mcp(paths: AppPaths, args: argparse.Namespace) -> int:
    from desktop_rag.mcp_server import serve

    return serve(paths)
