"""Listing what is on disk under a source: supported files, skipping hidden, temp and linked paths.

Links (symbolic links, Windows junctions) inside a source are never followed: only what is really inside the
folders and files the user chose is read. A link to something outside the source is reported as skipped with
its reason; a link to something inside it is passed over quietly (the target is indexed once, under its own path).

A folder that cannot be listed (a source on a drive not connected, a subfolder whose permission was taken away) is
reported as unread (`unread_folders`): its files are unknown this time, not gone, so the run keeps them.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from desktop_rag.engine.file_types import is_supported, supported_types
from desktop_rag.engine.paths import display_text, is_ignored_name, is_inside, is_valid_text
from desktop_rag.engine.reasons import Reason
from desktop_rag.engine.system_errors import os_reason

BAD_NAME = "bad_file_name"  # the code of a failed file's reason known from its name alone
LINK_OUTSIDE = Reason.coded("link_outside")  # why something is skipped (front ends show it in their language)
UNSUPPORTED = Reason.coded("unsupported_type", types=supported_types())
NOT_REGULAR = Reason.coded("not_regular_skipped")
SOURCE_MISSING = Reason.coded("source_missing")
UNREAD = ("source_missing", "folder_unreadable")  # the codes of a folder whose files were not listed
NO_SUFFIX = "(no extension)"


@dataclass(frozen=True)
class DiskFile:
    path: str
    size: int
    mtime_ns: int
    problem: str = ""  # the error code of a reason known from the listing alone (BAD_NAME): the file is not read


@dataclass(frozen=True)
class SkippedPath:
    """Something in a source that is not indexed, and why."""

    path: str
    reason: Reason


def skipped_types(skipped: list[SkippedPath]) -> dict[str, int]:
    """How many files of each suffix were skipped as not supported ({".key": 8, ".pages": 4}), most first."""
    counts: dict[str, int] = {}
    for item in skipped:
        if item.reason == UNSUPPORTED:
            suffix = os.path.splitext(item.path)[1].lower() or NO_SUFFIX
            counts[suffix] = counts.get(suffix, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def unread_folders(skipped: list[SkippedPath]) -> list[str]:
    """The folders (or a file source) whose files this scan could not list: what is stored below them stays."""
    return [item.path for item in skipped if item.reason.code in UNREAD]


def scan(root: str, kind: str) -> tuple[list[DiskFile], list[SkippedPath]]:
    """Supported files under a source, and what was skipped there with the reason (a folder that could not be
    listed among them: `unread_folders`)."""
    if kind == "file":
        entry = _stat(root)
        if entry is None:
            if os.path.exists(root):
                return [], [SkippedPath(root, NOT_REGULAR)]
            # deleted from its folder, or its folder (a drive, a share) is not there: then it is not known gone
            return ([], []) if os.path.isdir(os.path.dirname(root)) else ([], [SkippedPath(root, SOURCE_MISSING)])
        return ([entry], []) if is_supported(root) else ([], [SkippedPath(root, UNSUPPORTED)])
    found: list[DiskFile] = []
    skipped: list[SkippedPath] = []
    for path, link in _walk(root, skipped):
        shown = path if is_valid_text(path) else display_text(path)
        if link:
            if _leads_outside(path, root):
                skipped.append(SkippedPath(shown, LINK_OUTSIDE))
        elif not is_supported(path):
            skipped.append(SkippedPath(shown, UNSUPPORTED))
        elif (entry := _stat(path)) is not None:
            found.append(entry if shown == path else DiskFile(shown, entry.size, entry.mtime_ns, BAD_NAME))
    return found, skipped


def _walk(root: str, unread: list[SkippedPath]) -> Iterator[tuple[str, bool]]:
    """Recursive listing of (path, is_link): links are listed, never followed, so nothing outside `root` is read.
    A folder that cannot be listed is added to `unread` with the reason (one that vanished meanwhile is not)."""
    seen: set[tuple[int, int]] = set()
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            st = os.stat(folder)
            key = (st.st_dev, st.st_ino)
            if key in seen:
                continue
            seen.add(key)
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            if folder == root or not isinstance(exc, (FileNotFoundError, NotADirectoryError)):
                unread.append(SkippedPath(display_text(folder), _unread_reason(exc, folder == root)))
            continue
        for entry in entries:
            if is_ignored_name(entry.name):
                continue
            try:
                if _is_link(entry):
                    yield entry.path, True
                elif entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif entry.is_file(follow_symlinks=False):
                    yield entry.path, False
            except OSError:
                continue


def _unread_reason(exc: OSError, root: bool) -> Reason:
    """Why a folder was not listed: a source that is not there, or the system's words."""
    if root and isinstance(exc, (FileNotFoundError, NotADirectoryError)):
        return SOURCE_MISSING
    return Reason.coded("folder_unreadable", reason=os_reason(exc))


def _is_link(entry: os.DirEntry) -> bool:
    """A symbolic link, or on Windows a junction (a folder link that is_symlink() does not report)."""
    if entry.is_symlink():
        return True
    if sys.platform != "win32":
        return False
    tag = getattr(entry.stat(follow_symlinks=False), "st_reparse_tag", 0)
    return tag == getattr(stat, "IO_REPARSE_TAG_MOUNT_POINT", 0xA0000003)


def _leads_outside(path: str, root: str) -> bool:
    """Whether a link's target exists outside the source (a missing or looping target leads nowhere)."""
    try:
        target = Path(path).resolve(strict=True)
    except (OSError, RuntimeError):
        return False
    return not is_inside(target, Path(root).resolve())


def _stat(path: str) -> DiskFile | None:
    """The listing of a regular file; None for anything else (gone, a FIFO, a device, a socket)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return DiskFile(path, st.st_size, st.st_mtime_ns) if stat.S_ISREG(st.st_mode) else None


def file_sha256(path: str) -> str:
    """Content hash; raises OSError if the file cannot be read or is not a regular file. Opened non-blocking,
    so a FIFO swapped in after the listing fails at once instead of waiting for a writer."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise OSError(f"{path} is not a regular file")
        digest = hashlib.sha256()
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()
