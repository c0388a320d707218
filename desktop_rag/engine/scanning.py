"""Listing what is on disk under a source: supported files, skipping hidden, temp and looping paths."""

from __future__ import annotations

import fnmatch
import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from desktop_rag.engine.loaders import SUPPORTED_SUFFIXES

_TEMP_PATTERNS = ("~$*", ".~lock.*#", "*.tmp", "*.temp", "*~", "*.swp", "*.swo", "*.swx", "#*#", "*.part", "*.crdownload")


@dataclass(frozen=True)
class DiskFile:
    path: str
    size: int
    mtime_ns: int


def is_ignored_name(name: str) -> bool:
    """Hidden files, editor/office temp and swap files."""
    return name.startswith(".") or any(fnmatch.fnmatch(name, p) for p in _TEMP_PATTERNS)


def is_supported(path: str | Path) -> bool:
    return Path(path).suffix.lower() in SUPPORTED_SUFFIXES


def normalise_path(path: str | Path) -> str:
    """The absolute, symlink-free form under which a path is stored."""
    return str(Path(path).expanduser().resolve())


def scan(root: str, kind: str) -> tuple[list[DiskFile], list[str]]:
    """Supported files under a source, and the unsupported ones skipped (by path)."""
    if kind == "file":
        entry = _stat(root)
        if entry is None:
            return [], []
        return ([entry], []) if is_supported(root) else ([], [root])
    found: list[DiskFile] = []
    skipped: list[str] = []
    for path in _walk(root):
        if not is_supported(path):
            skipped.append(path)
            continue
        entry = _stat(path)
        if entry is not None:
            found.append(entry)
    return found, skipped


def _walk(root: str) -> Iterator[str]:
    """Recursive listing that follows directory links once and never loops."""
    seen: set[tuple[int, int]] = set()
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            st = os.stat(folder)
        except OSError:
            continue
        key = (st.st_dev, st.st_ino)
        if key in seen:
            continue
        seen.add(key)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if is_ignored_name(entry.name):
                continue
            try:
                if entry.is_dir(follow_symlinks=True):
                    stack.append(entry.path)
                elif entry.is_file(follow_symlinks=True):
                    yield normalise_path(entry.path) if entry.is_symlink() else entry.path
            except OSError:
                continue


def _stat(path: str) -> DiskFile | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return DiskFile(path, st.st_size, st.st_mtime_ns)


def file_sha256(path: str) -> str:
    """Content hash; raises OSError if the file cannot be read."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()
