"""The commands of a library on a server: `local-server` (a PostgreSQL with pgvector on this computer) and
`move-library` (the whole library copied to another location, vectors included)."""

from __future__ import annotations

import argparse
import sys

from desktop_rag.cli.terminal import clean_line
from desktop_rag.cli.texts import language, say
from desktop_rag.config import AppPaths, write_env_value


def cmd_local_server(paths: AppPaths, args: argparse.Namespace) -> int:
    """Serve until SIGTERM or Ctrl+C; the first line of stdout is the library's URL (without the password)."""
    from desktop_rag.engine import PASSWORD_VARIABLE, LocalServer, parse_server_url, save_keyring_password

    server = LocalServer(args.dir, args.port, args.host)

    def ready(url: str) -> None:
        print(url, flush=True)
        if save_keyring_password(parse_server_url(url), server.password):
            where = say("server.keyring")
        else:
            write_env_value(paths, PASSWORD_VARIABLE, server.password)
            where = f"{paths.env_file} ({PASSWORD_VARIABLE})"
        print(say("server.serving", folder=clean_line(str(server.folder)),
                  password_file=clean_line(str(server.password_path)), where=clean_line(where), url=clean_line(url)),
              file=sys.stderr, flush=True)

    return server.run(ready)


def cmd_move_library(paths: AppPaths, args: argparse.Namespace) -> int:
    """Copy every collection (sources, files, passages, vectors: nothing embedded again) to `args.to`, then make
    it the library this computer uses."""
    from desktop_rag.cli.output import print_json
    from desktop_rag.config import load_settings, save_settings
    from desktop_rag.engine import Engine, counted

    target = "" if args.to.strip().lower() == "local" else args.to.strip()
    source = Engine(paths)
    try:
        destination = Engine(paths, library=target)
        try:
            report = source.copy_library_to(destination)
        finally:
            destination.close()
    finally:
        source.close()
    settings = load_settings(paths)
    save_settings(paths, settings.replace(library=target))
    if args.json:
        print_json(report)
        return 0
    lang = language()
    print(say("server.moved", collections=counted(lang, collections=report["collections"]),
              counts=counted(lang, files=report["files"], passages=report["chunks"], vectors=report["vectors"]),
              to=clean_line(report["to"])))
    return 0
