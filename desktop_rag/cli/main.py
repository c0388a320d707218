"""Command line: launches the desktop app, or runs index/status/search/context/ask/clear-answers/forget-grades/eval/
remove/collections/export/import/mcp."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence

from desktop_rag import __version__
from desktop_rag.cli.parser_words import said_by_argparse
from desktop_rag.cli.stdout import OutputLost, drop_stdout, end_line, guarded_stdout
from desktop_rag.config import LIBRARY_ENV, resolve_paths
from desktop_rag.cli.texts import language, say
from desktop_rag.engine import DesktopRagError, contain_panics

# Commands not in `commands`: the module (under desktop_rag.cli) whose cmd_<name> runs them.
_COMMAND_MODULES = {"collections": "collection_commands", "export": "collection_commands",
                    "local_server": "server_commands", "move_library": "server_commands",
                    "import": "collection_commands", "mcp": "collection_commands",
                    "models": "model_commands", "download_model": "model_commands",
                    "summarise": "document_commands", "eval": "review_commands",
                    "forget_grades": "review_commands"}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="desktop-rag", description="A private knowledge base over your documents, with cited answers."
    )
    parser.add_argument("--data-dir", help="library folder (default: $DESKTOP_RAG_HOME or your user data dir)")
    parser.add_argument("--library", metavar="URL",
                        help="use the library on a PostgreSQL server (postgresql://USER@HOST:PORT/DB; the password from "
                             "the OS keyring or DESKTOP_RAG_LIBRARY_PASSWORD), or 'local' for this computer's "
                             "(default: $DESKTOP_RAG_LIBRARY or the settings)")
    parser.add_argument("--version", action="version", version=f"desktop-rag {__version__}")
    parser.add_argument("--self-test", action="store_true", help="index the bundled samples in a temp dir, check, exit")
    sub = parser.add_subparsers(dest="command")

    p = sub.add_parser("index", help="add files/folders as sources and index them")
    p.add_argument("paths", nargs="*", help="files or folders (none: re-scan every source)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--reindex", action="store_true", help="drop the index and rebuild it with the current settings")
    p.add_argument("--password", metavar="PASS",
                   help="password for password-protected PDFs in this run ('-' asks for it without echo); "
                        "used for this run only, never stored")

    _collection_option(p, "the collection new paths join (default: the first one); without paths, re-scan its sources")

    p = sub.add_parser("status", help="what is indexed, failed, pending")
    p.add_argument("--json", action="store_true")
    _collection_option(p, "only this collection")

    p = sub.add_parser("search", help="retrieve passages")
    p.add_argument("query", nargs="?")
    p.add_argument("--queries", help='JSONL file of {"_id", "text"}; one JSON line out per query')
    p.add_argument("-k", type=_result_count, default=None, help=f"number of results (1 to {MAX_K:,})")
    p.add_argument("--json", action="store_true")
    _collection_option(p, "search only this collection (default: all)")
    _filter_options(p)

    p = sub.add_parser("context", help="show what an answer would send the model (passages after compression)")
    p.add_argument("question", nargs="?")
    p.add_argument("--queries", help='JSONL file of {"_id", "text"}; one JSON line out per question')
    p.add_argument("--json", action="store_true")
    _collection_option(p, "search only this collection (default: all)")
    _filter_options(p)

    p = sub.add_parser("ask", help="answer a question from your documents")
    p.add_argument("question")
    p.add_argument("--json", action="store_true")
    p.add_argument("--yes", action="store_true",
                   help="go ahead with a summary that takes more model requests than summary_request_limit (default 20)")
    _collection_option(p, "ask within this collection (default: all)")
    _filter_options(p)

    p = sub.add_parser("summarise", aliases=["summarize"], help="summarise one document of the library")
    p.add_argument("path", help="a file of the library")
    p.add_argument("--json", action="store_true")
    p.add_argument("--language", choices=("en", "zh"), help="the summary's language (default: the document's)")
    p.add_argument("--extractive", action="store_true",
                   help="no model: the document's most central sentences (the default when none is configured)")
    p.add_argument("--yes", action="store_true",
                   help="go ahead with a summary that takes more model requests than summary_request_limit (default 20)")
    p.set_defaults(command="summarise")

    p = sub.add_parser("clear-answers", help="remove every stored answer (the answer cache)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(command="clear_answers")

    p = sub.add_parser("forget-grades", help="take back every grade and marked passage of your answers")
    p.add_argument("--json", action="store_true")
    p.set_defaults(command="forget_grades")

    p = sub.add_parser("eval", help="measure search on your labelled questions: recall@5, precision@5, nDCG@10")
    p.add_argument("--queries", metavar="QUERIES.jsonl", help='a labelled set: one {"_id", "text"} a line')
    p.add_argument("--qrels", metavar="QRELS.tsv", help="its judgements: query-id, corpus-id, score (header line)")
    p.add_argument("--json", action="store_true")
    _collection_option(p, "search only this collection (default: all)")

    p = sub.add_parser("remove", help="forget a source and its chunks")
    p.add_argument("path")
    _collection_option(p, "the collection the source is in")

    p = sub.add_parser("link", help="link a source imported without its documents to a folder (then index it)")
    p.add_argument("source", help="the source as `status` shows it")
    p.add_argument("folder", help="the folder (or, for a single-file source, the file) on this computer")
    _collection_option(p, "the collection the source is in")

    p = sub.add_parser("collections", help="list, create, rename, delete or grant collections (knowledge bases)")
    p.add_argument("action", nargs="?", default="list",
                   choices=("list", "create", "rename", "delete", "grant", "revoke", "grants"))
    p.add_argument("names", nargs="*", help="create NAME | rename OLD NEW | delete NAME | grant NAME ROLE | "
                                             "revoke NAME ROLE (a library on a server: who may see it)")
    p.add_argument("--yes", action="store_true", help="delete without asking")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("export", help="write one collection (chunks, vectors, settings) to an archive file")
    p.add_argument("file", help="the archive to write (.zip)")
    _collection_option(p, "the collection to export (needed when there are several)")
    p.add_argument("--with-documents", action="store_true", help="include the documents themselves")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("import", help="add a collection from an archive made by `export`")
    p.add_argument("file")
    p.add_argument("--name", help="the new collection's name (default: the name in the archive)")
    p.add_argument("--documents-dir", help="where included documents go (default: a folder beside the archive)")
    p.add_argument("--reembed", action="store_true",
                   help="when the archive was made with another embedding model, embed its passages again")
    p.add_argument("--json", action="store_true")

    sub.add_parser("mcp", help="serve the library to AI tools over the Model Context Protocol (stdio, read-only)")

    p = sub.add_parser("local-server", help="run a PostgreSQL server with pgvector on this computer, data in DIR "
                                            "(prints the library's URL; Ctrl+C stops it)")
    p.add_argument("dir", help="the server's folder (made on first use)")
    p.add_argument("--port", type=int, help="also listen on this TCP port (default: a Unix socket in DIR only)")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on with --port (0.0.0.0: other computers too, with a password)")
    p.set_defaults(command="local_server")

    p = sub.add_parser("move-library", help="copy the whole library to another location (a server URL, or 'local'), "
                                            "vectors included, and use it from now on")
    p.add_argument("to", help="postgresql://USER@HOST:PORT/DB, or 'local' for this computer's data folder")
    p.add_argument("--json", action="store_true")
    p.set_defaults(command="move_library")

    sub.add_parser("demo", help="index the sample documents in a temp dir and answer a sample question")

    p = sub.add_parser("models", help="recommended embedding models: size, speed, languages, downloaded or not")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("download-model", help="download an embedding model into the data folder (resumable)")
    p.add_argument("name", help="a name from `desktop-rag models`, or an org/name repo id on the hub")
    p.add_argument("--hub", help="hub address (default: the hub_endpoint setting, e.g. https://hf-mirror.com)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(command="download_model")  # dispatched to model_commands.cmd_download_model
    return parser


MAX_K = 10_000  # past it a search's SQL limit could overflow a 64-bit integer


def _result_count(text: str) -> int:
    """-k: a whole number of results from 1 to MAX_K (a usage error otherwise: 0 or -5 gave nonsense)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(say("usage.not_int", text=text)) from None
    if not 1 <= value <= MAX_K:
        raise argparse.ArgumentTypeError(say("usage.result_count", value=value, most=MAX_K))
    return value


def _collection_option(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--collection", metavar="NAME", help=what)


def _filter_options(parser: argparse.ArgumentParser) -> None:
    """--folder, --file and --type: search only part of the library (each may be repeated: any of them matches)."""
    from desktop_rag.engine import TYPE_NAMES

    parser.add_argument("--folder", metavar="PATH", action="append", default=[], dest="folders",
                        help="only files inside this folder of the library (repeat for several)")
    parser.add_argument("--file", metavar="PATH", action="append", default=[], dest="files",
                        help="only this file of the library (ask one document; repeat for several)")
    parser.add_argument("--type", choices=TYPE_NAMES, action="append", default=[], dest="types",
                        help="only files of this type (repeat for several)")


def main(argv: Sequence[str] | None = None) -> int:
    """The command line. Standard output going away ends it without a traceback: quietly when its reader closed
    it (141, as a tool ended by SIGPIPE), with one line on stderr when it could not be written (a full disk)."""
    try:
        with guarded_stdout():
            return _run(argv)
    except OutputLost as lost:
        drop_stdout()
        if isinstance(lost.__cause__, BrokenPipeError):
            return 141
        from desktop_rag.engine import Reason

        why = Reason.of(lost.__cause__).text(language())  # the system's reason, in that language
        print(say("line.output_lost", why=why), file=sys.stderr)
        return 1


def _parsed(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line's arguments, checked; argparse's usage, errors and help in the command line's language."""
    with said_by_argparse(language()):
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command == "search" and not args.query and not args.queries:
            parser.error(say("usage.search"))
        if args.command == "eval" and (args.queries is None) != (args.qrels is None):
            parser.error(say("usage.eval"))
        if args.command == "context" and not args.question and not args.queries:
            parser.error(say("usage.context"))
    return args


def _run(argv: Sequence[str] | None) -> int:
    args = _parsed(argv)
    if args.library is not None:  # every command, and the window, open this library (config.LIBRARY_ENV)
        os.environ[LIBRARY_ENV] = "" if args.library.strip().lower() == "local" else args.library
    _start_logging(args)
    try:
        if args.self_test or args.command == "demo":
            from desktop_rag.selftest import run_self_test

            return run_self_test(verbose=True)
        if args.command is None:
            return _launch_gui(args)
        module = importlib.import_module(f"desktop_rag.cli.{_COMMAND_MODULES.get(args.command, 'commands')}")
        with contain_panics(f"desktop-rag {args.command}"):  # a native library's panic: an error, not a traceback
            return getattr(module, f"cmd_{args.command}")(resolve_paths(args.data_dir), args)
    except DesktopRagError as exc:
        logging.getLogger(__name__).error("%s failed: %s", args.command or "app", exc)
        from desktop_rag.cli.output import error_line

        # in Chinese when the locale says so (LANG=zh_CN.UTF-8), as the GUI; it may quote file names or server text
        print(error_line(exc), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        end_line()
        print(say("line.interrupted"), file=sys.stderr)
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
    from desktop_rag.engine import writable_paths

    paths = writable_paths(resolve_paths(args.data_dir))  # a folder that cannot be written: an error line, as below
    if sys.platform.startswith("linux") and not _has_display():
        print(say("line.no_display"), file=sys.stderr)
        from desktop_rag.selftest import run_self_test

        return run_self_test(verbose=True)
    from desktop_rag.platform_check import prepare_qt_platform

    problem = prepare_qt_platform()  # before PySide6 loads: Qt's own message names no library or package
    if problem:
        logging.getLogger(__name__).error("window: %s", problem)
        print(problem, file=sys.stderr)
        return 1
    from desktop_rag.gui.app import run

    return run(paths, load_settings(paths))


def _has_display() -> bool:
    import os

    return any(os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"))


if __name__ == "__main__":
    raise SystemExit(main())
