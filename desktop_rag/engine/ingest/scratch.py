"""Scratch folders of the parser's children: every temporary file a reading writes (an e-mail's attachments, a
LibreOffice conversion) goes into its child's folder, and the parent removes the folder when the child ends, also
when it was killed on its time limit or by a cancel, so a document's bytes never stay behind in the temporary
folder. Folders left by a process that itself died (POSIX: its pid no longer runs) are swept once per process."""

from __future__ import annotations

import functools
import os
import shutil
import sys
import tempfile
from pathlib import Path

PREFIX = "desktop-rag-parser-"


def new_folder() -> str:
    """A private folder for one child (0700), named after this process."""
    _sweep()
    return tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")


def remove(folder: str) -> None:
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: running
        return True
    return True


@functools.cache
def _sweep() -> None:
    """Remove this user's scratch folders whose process no longer runs (POSIX; on Windows os.kill would end it)."""
    if sys.platform == "win32":
        return
    for entry in Path(tempfile.gettempdir()).glob(f"{PREFIX}*"):
        pid = entry.name[len(PREFIX):].split("-", 1)[0]
        try:
            mine = entry.is_dir() and not entry.is_symlink() and entry.stat().st_uid == os.getuid()
        except OSError:
            continue
        if mine and pid.isdigit() and int(pid) != os.getpid() and not _running(int(pid)):
            remove(str(entry))
