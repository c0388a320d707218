"""Command line: launches the desktop app, or runs index/status/search/ask/remove headless."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from desktop_rag import __version__
from desktop_rag.config import resolve_paths
from desktop_rag.engine.errors import DesktopRagError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="desktop-rag", description="A private knowledge base over your documents, with cited answers."
    )
    parser.add_argument("--data-dir", help="library folder (default: $DESKTOP_RAG_HOME or your user data dir)")
    parser.add_argument("--version", action="version", version=f"desktop-rag {__version__}")
    parser.add_argument("--self-test", action="store_true", help="index the bundled samples in a temp dir, check, exit")
    sub = parser.add_subparsers(dest="command")

    p = sub.add_parser("index", help="add files/folders as sources and index them")
    p.add_argument("paths", nargs="*", help="files or folders (none: re-scan every source)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--reindex", action="store_true", help="drop the index and rebuild it with the current settings")

    p = sub.add_parser("status", help="what is indexed, failed, pending")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("search", help="retrieve passages")
    p.add_argument("query", nargs="?")
    p.add_argument("--queries", help='JSONL file of {"_id", "text"}; one JSON line out per query')
    p.add_argument("-k", type=int, default=None, help="number of results")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("ask", help="answer a question from your documents")
    p.add_argument("question")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("remove", help="forget a source and its chunks")
    p.add_argument("path")

    sub.add_parser("demo", help="index the sample documents in a temp dir and answer a sample question")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    _start_logging(args)
    try:
        if args.self_test or args.command == "demo":
            from desktop_rag.selftest import run_self_test

            return run_self_test(verbose=True)
        if args.command is None:
            return _launch_gui(args)
        if args.command == "search" and not args.query and not args.queries:
            parser.error("search needs a QUERY or --queries FILE")
        from desktop_rag import commands

        paths = resolve_paths(args.data_dir)
        return getattr(commands, f"cmd_{args.command}")(paths, args)
    except DesktopRagError as exc:
        logging.getLogger(__name__).error("%s failed: %s", args.command or "app", exc)
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def _start_logging(args: argparse.Namespace) -> None:
    """Log to the rotating file in the user log folder (API keys redacted); never fatal."""
    from desktop_rag.logs import setup_logging

    try:
        log_file = setup_logging(resolve_paths(args.data_dir))
    except OSError as exc:
        print(f"warning: no log file ({exc})", file=sys.stderr)
        return
    frozen = " (bundle)" if getattr(sys, "frozen", False) else ""
    logging.getLogger(__name__).info("desktop-rag %s%s: %s; log %s", __version__, frozen,
                                     "self-test" if args.self_test else args.command or "app", log_file)


def _launch_gui(args: argparse.Namespace) -> int:
    from desktop_rag.config import load_settings

    paths = resolve_paths(args.data_dir).ensure()
    if sys.platform.startswith("linux") and not _has_display():
        print("No display found, so the window cannot open. Running the headless demo on the sample "
              "documents instead (the same as `desktop-rag demo`).\n", file=sys.stderr)
        from desktop_rag.selftest import run_self_test

        return run_self_test(verbose=True)
    from desktop_rag.gui.app import run

    return run(paths, load_settings(paths))


def _has_display() -> bool:
    import os

    return any(os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"))


if __name__ == "__main__":
    raise SystemExit(main())
