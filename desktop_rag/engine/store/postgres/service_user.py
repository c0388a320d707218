"""The system user the local server's PostgreSQL runs as when started by root (PostgreSQL refuses root): made once
with useradd, under a lock, so that two processes starting a server at once on a new computer make it once."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SERVICE_USER = "desktop-rag-pg"
# In /var/run (root's own folder, never world-writable): only root can make or hold the lock.
LOCK_PATH = Path("/var/run/desktop-rag-useradd.lock")


def service_user(name: str = SERVICE_USER) -> str | None:
    """`name` when this process is root (the user made first if it does not exist), else None.

    Two useradd runs for one name at once both succeed, the later one rewriting the entry with the next free uid:
    a server that had already given its folders to the first uid could not read them. The lock makes the second
    process wait, see the user, and keep it."""
    if sys.platform == "win32" or os.geteuid() != 0:
        return None
    if not _exists(name):
        with _locked(LOCK_PATH):
            if not _exists(name):
                subprocess.run(["useradd", "--system", "--user-group", "--no-create-home", "--shell",
                                "/usr/sbin/nologin", name], check=True, capture_output=True)
    return name


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
