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
from desktop_rag.cli.parser_words import Parser, said_by_argparse
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
    """The command line's parser; its help in the command line's language (`texts.TEXTS`' "help.*")."""
    parser = Parser(prog="desktop-rag", description=say("help.description"))
    parser.add_argument("--data-dir", help=say("help.data_dir"))
    parser.add_argument("--library", metavar="URL", help=say("help.library"))
    parser.add_argument("--version", action="version", version=f"desktop-rag {__version__}",
                        help=say("argparse.version"))
    parser.add_argument("--self-test", action="store_true", help=say("help.self_test"))
    sub = parser.add_subparsers(dest="command")

    p = sub.add_parser("index", help=say("help.index"))
    p.add_argument("paths", nargs="*", help=say("help.index.paths"))
    _json_option(p)
    p.add_argument("--reindex", action="store_true", help=say("help.index.reindex"))
    p.add_argument("--password", metavar="PASS", help=say("help.index.password"))
    _collection_option(p, say("help.index.collection"))

    p = sub.add_parser("status", help=say("help.status"))
    _json_option(p)
    _collection_option(p, say("help.only_collection"))

    p = sub.add_parser("search", help=say("help.search"))
    p.add_argument("query", nargs="?")
    p.add_argument("--queries", help=say("help.search.queries"))
    p.add_argument("-k", type=_result_count, default=None, help=say("help.search.k", most=MAX_K))
    _json_option(p)
    _collection_option(p, say("help.search_collection"))
    _filter_options(p)

    p = sub.add_parser("context", help=say("help.context"))
    p.add_argument("question", nargs="?")
    p.add_argument("--queries", help=say("help.context.queries"))
    _json_option(p)
    _collection_option(p, say("help.search_collection"))
    _filter_options(p)

    p = sub.add_parser("ask", help=say("help.ask"))
    p.add_argument("question")
    _json_option(p)
    p.add_argument("--yes", action="store_true", help=say("help.yes_summary"))
    _collection_option(p, say("help.ask.collection"))
    _filter_options(p)

    p = sub.add_parser("summarise", aliases=["summarize"], help=say("help.summarise"))
    p.add_argument("path", help=say("help.summarise.path"))
    _json_option(p)
    p.add_argument("--language", choices=("en", "zh"), help=say("help.summarise.language"))
    p.add_argument("--extractive", action="store_true", help=say("help.summarise.extractive"))
    p.add_argument("--yes", action="store_true", help=say("help.yes_summary"))
    p.set_defaults(command="summarise")

    p = sub.add_parser("clear-answers", help=say("help.clear_answers"))
    _json_option(p)
    p.set_defaults(command="clear_answers")

    p = sub.add_parser("forget-grades", help=say("help.forget_grades"))
    _json_option(p)
    p.set_defaults(command="forget_grades")

    p = sub.add_parser("eval", help=say("help.eval"))
    p.add_argument("--queries", metavar="QUERIES.jsonl", help=say("help.eval.queries"))
    p.add_argument("--qrels", metavar="QRELS.tsv", help=say("help.eval.qrels"))
    _json_option(p)
    _collection_option(p, say("help.search_collection"))

    p = sub.add_parser("remove", help=say("help.remove"))
    p.add_argument("path")
    _collection_option(p, say("help.source_collection"))

    p = sub.add_parser("link", help=say("help.link"))
    p.add_argument("source", help=say("help.link.source"))
    p.add_argument("folder", help=say("help.link.folder"))
    _collection_option(p, say("help.source_collection"))

    p = sub.add_parser("collections", help=say("help.collections"))
    p.add_argument("action", nargs="?", default="list",
                   choices=("list", "create", "rename", "delete", "grant", "revoke", "grants"))
    p.add_argument("names", nargs="*", help=say("help.collections.names"))
    p.add_argument("--yes", action="store_true", help=say("help.collections.yes"))
    _json_option(p)

    p = sub.add_parser("export", help=say("help.export"))
    p.add_argument("file", help=say("help.export.file"))
    _collection_option(p, say("help.export.collection"))
    p.add_argument("--with-documents", action="store_true", help=say("help.export.with_documents"))
    _json_option(p)

    p = sub.add_parser("import", help=say("help.import"))
    p.add_argument("file")
    p.add_argument("--name", help=say("help.import.name"))
    p.add_argument("--documents-dir", help=say("help.import.documents_dir"))
    p.add_argument("--reembed", action="store_true", help=say("help.import.reembed"))
    _json_option(p)

    sub.add_parser("mcp", help=say("help.mcp"))

    p = sub.add_parser("local-server", help=say("help.local_server"))
    p.add_argument("dir", help=say("help.local_server.dir"))
    p.add_argument("--port", type=int, help=say("help.local_server.port"))
    p.add_argument("--host", default="127.0.0.1", help=say("help.local_server.host"))
    p.set_defaults(command="local_server")

    p = sub.add_parser("move-library", help=say("help.move_library"))
    p.add_argument("to", help=say("help.move_library.to"))
    _json_option(p)
    p.set_defaults(command="move_library")

    sub.add_parser("demo", help=say("help.demo"))

    p = sub.add_parser("models", help=say("help.models"))
    _json_option(p)

    p = sub.add_parser("download-model", help=say("help.download_model"))
    p.add_argument("name", help=say("help.download_model.name"))
    p.add_argument("--hub", help=say("help.download_model.hub"))
    _json_option(p)
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


def _json_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help=say("help.json"))


def _collection_option(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--collection", metavar="NAME", help=what)


def _filter_options(parser: argparse.ArgumentParser) -> None:
    """--folder, --file and --type: search only part of the library (each may be repeated: any of them matches)."""
    from desktop_rag.engine import TYPE_NAMES

    parser.add_argument("--folder", metavar="PATH", action="append", default=[], dest="folders",
                        help=say("help.filter.folder"))
    parser.add_argument("--file", metavar="PATH", action="append", default=[], dest="files",
                        help=say("help.filter.file"))
    parser.add_argument("--type", choices=TYPE_NAMES, action="append", default=[], dest="types",
                        help=say("help.filter.type"))


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
    except OSError as exc:  # the log folder and the temp folder both refused it
        from desktop_rag.cli.output import said
        from desktop_rag.engine import os_reason

        print(say("line.no_log_file", why=said(os_reason(exc))), file=sys.stderr)
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
