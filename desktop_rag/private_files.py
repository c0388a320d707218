"""Files and folders only their owner may read, written so a crash leaves the old file or the new one: the library,
its settings, keys, logs and models."""

from __future__ import annotations

import contextlib
import logging
import os
import stat
from pathlib import Path

log = logging.getLogger(__name__)


# The library holds the text of every document (decrypted text of password-protected PDFs included): on POSIX its
# folders are 0700 and its files 0600 whatever the umask, so other local users read none of it.
def private_dir(folder: Path) -> Path:
    """Create `folder` (and its parents) if needed; the folder itself is made owner-only (0700)."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    _owner_only(folder, 0o700)
    return folder


def private_file(path: Path) -> Path:
    """Create `path` empty if it does not exist, and make it owner-only (0600), before anything writes to it. An
    existing file is never opened: closing a descriptor drops every POSIX lock this process holds on the file, and
    SQLite's connections to a database hold theirs (another process would take itself for the last one, delete the
    `-wal` and `-shm` files and leave this process's connections reading their old snapshot)."""
    try:
        os.close(os.open(path, os.O_RDONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600))
    except FileExistsError:
        pass
    _owner_only(path, 0o600)
    return path


def private_tree(folder: Path) -> Path:
    """`folder` and everything below it owner-only (folders 0700, files 0600; links are not followed): for trees
    written by libraries that create files with the umask's mode (model downloads, a model's exported files)."""
    _owner_only(folder, 0o700)
    for root, dirs, files in os.walk(folder):
        for name in dirs:
            if not os.path.islink(os.path.join(root, name)):
                _owner_only(Path(root, name), 0o700)
        for name in files:
            if not os.path.islink(os.path.join(root, name)):
                _owner_only(Path(root, name), 0o600)
    return folder


def _owner_only(path: Path, mode: int) -> None:
    """Take group/other bits away from a path this user owns (POSIX; a no-op on Windows and for others' paths)."""
    if os.name != "posix":
        return
    st = os.stat(path)
    if st.st_uid == os.getuid() and stat.S_IMODE(st.st_mode) & ~mode:
        try:
            os.chmod(path, stat.S_IMODE(st.st_mode) & mode)
        except OSError as exc:  # a read-only file system: the data is as safe as its mount
            log.warning("Could not make %s owner-only: %s", path, exc)


def atomic_write_text(path: Path, text: str, mode: int | None = None) -> None:
    """Write `text` to `path` so a crash leaves the old file or the new one, never a mix (see atomic_write_bytes)."""
    atomic_write_bytes(path, text.encode("utf-8"), mode)


def atomic_write_bytes(path: Path, data: bytes | list[bytes | memoryview], mode: int | None = None) -> None:
    """A fresh uniquely named temp file beside `path` (O_EXCL, so no planted file or link is followed), fsync, rename.

    The file gets `mode` (default 0600: owner-only, see private_dir) before it takes the name; a link at `path`
    itself is replaced, not written through. On failure (a full disk) the temp file is removed and `path` is untouched.
    """
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)  # 0600, O_EXCL|O_NOFOLLOW
    try:
        with os.fdopen(fd, "wb") as f:
            if hasattr(os, "fchmod"):
                os.fchmod(f.fileno(), mode if mode is not None else 0o600)
            for part in [data] if isinstance(data, bytes) else data:
                f.write(part)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    """Make a rename durable (POSIX); a no-op where folders cannot be opened (Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
