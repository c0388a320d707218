"""The system user the local server's PostgreSQL runs as when started by root (PostgreSQL refuses root): made once
with useradd, under a lock, so that two processes starting a server at once on a new computer make it once. A
useradd that fails (missing, refusing) or a lock that cannot be made is said in words, never as a raw traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from desktop_rag.engine.errors import UsageError
from desktop_rag.engine.system_errors import foreign_reason

SERVICE_USER = "desktop-rag-pg"
# The lock's folder: the first of these that is root's own and not writable by others (only root can make or hold the
# lock); /var/run where a system has no /run.
LOCK_FOLDERS = (Path("/run"), Path("/var/run"))
LOCK_NAME = "desktop-rag-useradd.lock"
USERADD_SECONDS = 60


def service_user(name: str = SERVICE_USER) -> str | None:
    """`name` when this process is root (the user made first if it does not exist), else None.

    Two useradd runs for one name at once both succeed, the later one rewriting the entry with the next free uid:
    a server that had already given its folders to the first uid could not read them. The lock makes the second
    process wait, see the user, and keep it."""
    if sys.platform == "win32" or os.geteuid() != 0:
        return None
    if not _exists(name):
        folder = lock_folder(LOCK_FOLDERS)
        if folder is None:
            raise UsageError.coded("local_server_lock", user=name, folders=", ".join(map(str, LOCK_FOLDERS)))
        try:
            with _locked(folder / LOCK_NAME):
                if not _exists(name):
                    subprocess.run(["useradd", "--system", "--user-group", "--no-create-home", "--shell",
                                    "/usr/sbin/nologin", name], check=True, capture_output=True,
                                   stdin=subprocess.DEVNULL, timeout=USERADD_SECONDS)
        except (OSError, subprocess.SubprocessError) as exc:  # no useradd, it refused (its words), no lock
            raise UsageError.coded("local_server_user", user=name, detail=foreign_reason(exc)) from exc
    return name


def lock_folder(folders: tuple[Path, ...]) -> Path | None:
    """The first of `folders` that is a folder of root's own others cannot write to; None: none is."""
    import stat

    for folder in folders:
        try:
            info = folder.stat()
        except OSError:
            continue
        if stat.S_ISDIR(info.st_mode) and info.st_uid == 0 and not info.st_mode & (stat.S_IWOTH | stat.S_IWGRP):
            return folder
    return None


def let_traverse(folder: Path) -> None:
    """Started by root, PostgreSQL runs as its own user, which must pass through the folder's parents: give them
    execute (traverse, not list) permission for others where they lack it."""
    import stat

    for parent in [folder, *folder.parents]:
        mode = parent.stat().st_mode
        if not mode & stat.S_IXOTH:
            parent.chmod(mode | stat.S_IXOTH)


def as_user(user: str | None) -> dict:
    """subprocess keyword arguments that run a program as `user` (none for None)."""
    return {"user": user, "group": user} if user else {}


def _exists(name: str) -> bool:
    import pwd

    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on `path` (made owner-only, never through a link) while the block runs."""
    import fcntl

    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # held by another root process only for its useradd
        yield
    finally:
        os.close(fd)
