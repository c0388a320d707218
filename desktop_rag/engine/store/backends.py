"""Which backend holds a library: a `postgresql://` URL names a server, "" the SQLite library in the data folder
(store/library.py: the seam both implement)."""

from __future__ import annotations

import os
import tempfile
import uuid

from desktop_rag.config import AppPaths, Settings
from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.store.library import Backend
from desktop_rag.engine.store.postgres.url import is_server_url
from desktop_rag.engine.system_errors import os_reason


def open_backend(location: str | None, paths: AppPaths, read_only: bool = False) -> Backend:
    """The backend of a library: a `postgresql://` URL names a server (where this computer's app, `client_id`, owns
    the sources it adds), no location the SQLite library in the data folder. Any other text is refused
    (UsageError): a mistyped address must not quietly open this computer's library instead of the team's."""
    if is_server_url(location):
        from desktop_rag.engine.store.postgres.backend import PostgresBackend

        return PostgresBackend(location, paths, read_only, client_id(paths))
    if location and location.strip():
        raise UsageError.coded("library_not_url")  # never the text: it may hold a password
    from desktop_rag.engine.store.sqlite.backend import SqliteBackend

    return SqliteBackend(paths, read_only)


def writable_paths(paths: AppPaths) -> AppPaths:
    """The data folders, made if need be: one that cannot be made or written (a read-only disk, another user's
    folder, a file of that name) is a clear error here; SQLite failed later, vaguely ("unable to open database
    file"), for a reader too (its WAL index is a file beside the library)."""
    try:
        with tempfile.TemporaryFile(dir=paths.ensure().data_dir):  # what this user may do there, not mode bits
            return paths
    except OSError as exc:
        raise UsageError.coded("data_folder_unwritable", folder=paths.data_dir, detail=os_reason(exc)) from exc


def library_location(chosen: str | None, settings: Settings) -> str:
    """Where the library is: the one chosen for this run (the CLI's --library), else the settings' (which
    DESKTOP_RAG_LIBRARY overrides); "" is this computer's data folder."""
    return (chosen if chosen is not None else settings.library).strip()


def client_id(paths: AppPaths) -> str:
    """This computer's app, as a shared library knows it (it owns the sources it adds): a random id kept in the data
    folder (made on first use)."""
    path = paths.data_dir / "client-id"
    try:
        found = path.read_text(encoding="ascii").strip()
        if len(found) == 32 and all(c in "0123456789abcdef" for c in found):
            return found
    except (OSError, UnicodeDecodeError):
        pass
    made = uuid.uuid4().hex
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(made)
    except OSError:  # a read-only data folder: this run is a client of its own
        pass
    return made
